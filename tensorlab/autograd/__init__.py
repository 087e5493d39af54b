"""tensorlab.autograd: Function, the backward engine, grad modes and gradcheck."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import grad_mode
from .engine import run_backward
from .function import Function
from .grad_mode import enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled


def _as_list(x: Any) -> list:
    if x is None:
        return []
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _root_grads(outputs: list, grad_outputs: list, create_graph: bool) -> list:
    from .._creation import ones_like

    if not grad_outputs:
        grad_outputs = [None] * len(outputs)
    if len(grad_outputs) != len(outputs):
        raise RuntimeError(
            f"grad requires one gradient per output: got {len(grad_outputs)} for {len(outputs)} outputs"
        )
    grads = []
    for i, (out, g) in enumerate(zip(outputs, grad_outputs, strict=True)):
        if g is None:
            if out.requires_grad and out.numel() != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            g = ones_like(out)
        elif tuple(g.shape) != tuple(out.shape):
            raise RuntimeError(
                f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape} and output[{i}] "
                f"has a shape of {out.shape}."
            )
        grads.append(g if create_graph else g.detach())
    return grads


def backward(
    tensors: Any,
    grad_tensors: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    inputs: Any = None,
) -> None:
    """Accumulate d(tensors)/d(leaf) into every leaf's ``.grad`` (or only into ``inputs``)."""
    outputs = _as_list(tensors)
    grads = _root_grads(outputs, _as_list(grad_tensors), create_graph)
    if retain_graph is None:
        retain_graph = create_graph
    if inputs is not None:
        wanted = _as_list(inputs)
        captured = run_backward(outputs, grads, retain_graph, create_graph, capture=wanted)
        for t, g in zip(wanted, captured or [], strict=True):
            if g is not None:
                g = g if create_graph else g.detach()
                t._grad = g.clone() if t._grad is None else t._grad + g
        return
    run_backward(outputs, grads, retain_graph, create_graph)


def grad(
    outputs: Any,
    inputs: Any,
    grad_outputs: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    allow_unused: bool | None = None,
    materialize_grads: bool = False,
) -> tuple:
    """Return d(outputs)/d(inputs) without touching any ``.grad``."""
    outputs_list = _as_list(outputs)
    inputs_list = _as_list(inputs)
    grads = _root_grads(outputs_list, _as_list(grad_outputs), create_graph)
    if retain_graph is None:
        retain_graph = create_graph
    captured = run_backward(outputs_list, grads, retain_graph, create_graph, capture=inputs_list) or []
    result = []
    for i, g in enumerate(captured):
        if g is None:
            if materialize_grads:
                from .._creation import zeros_like

                g = zeros_like(inputs_list[i])
            elif not allow_unused:
                raise RuntimeError(
                    "One of the differentiated Tensors appears to not have been used in the graph. "
                    "Set allow_unused=True if this is the desired behavior."
                )
        elif not create_graph:
            g = g.detach()
        result.append(g)
    return tuple(result)


def _lazy_gradcheck(name: str) -> Any:
    from . import gradcheck as module

    return getattr(module, name)


def gradcheck(*args: Any, **kwargs: Any) -> bool:
    return _lazy_gradcheck("gradcheck")(*args, **kwargs)


def gradgradcheck(*args: Any, **kwargs: Any) -> bool:
    return _lazy_gradcheck("gradgradcheck")(*args, **kwargs)


__all__ = [
    "Function", "backward", "enable_grad", "grad", "grad_mode", "gradcheck", "gradgradcheck",
    "inference_mode", "is_grad_enabled", "no_grad", "set_grad_enabled", "Sequence",
]
