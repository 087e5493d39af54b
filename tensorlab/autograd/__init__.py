"""tensorlab.autograd: Function, the backward engine, grad modes and gradcheck.

``backward`` accumulates gradients into leaves' ``.grad``; ``grad`` returns them instead.
Both only prepare the root gradients and hand over to :func:`engine.run_backward`.
"""

from __future__ import annotations

import warnings
from typing import Any

from . import anomaly_mode, functional, grad_mode, graph, profiler
from .anomaly_mode import detect_anomaly, set_detect_anomaly
from .engine import run_backward
from .function import Function, FunctionCtx
from .grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from .gradcheck import GradcheckError, gradcheck, gradgradcheck
from .variable import Variable  # what older course code imports (profiler: above)


def _as_list(x: Any) -> list:
    if x is None:
        return []
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _root_grads(outputs: list, grad_outputs: list, create_graph: bool) -> list:
    """The gradient each output starts with: given, or 1 for a scalar output."""
    from .._creation import ones_like

    if not grad_outputs:
        grad_outputs = [None] * len(outputs)
    if len(grad_outputs) != len(outputs):
        raise RuntimeError(
            f"grad can be implicitly created only for scalar outputs: got {len(grad_outputs)} "
            f"gradients for {len(outputs)} outputs"
        )
    grads = []
    for i, (out, g) in enumerate(zip(outputs, grad_outputs, strict=True)):
        if g is None:
            if out._requires_grad and out.numel() != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            g = ones_like(out)
        elif tuple(g.shape) != tuple(out.shape):
            raise RuntimeError(
                f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape} and output[{i}] "
                f"has a shape of {out.shape}."
            )
        if g.dtype is not out.dtype:  # torch casts a gradient of another dtype first (ToCopyBackward0)
            g = g.to(out.dtype)
        grads.append(g if create_graph else g.detach())
    return grads


def backward(
    tensors: Any,
    grad_tensors: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    grad_variables: Any = None,
    inputs: Any = None,
) -> None:
    """Accumulate d(tensors)/d(leaf) into every leaf's ``.grad`` (or only into ``inputs``')."""
    outputs = _as_list(tensors)
    if grad_tensors is None:
        grad_tensors = grad_variables
    if inputs is not None:
        inputs = _as_list(inputs)
        if not inputs:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    grads = _root_grads(outputs, _as_list(grad_tensors), create_graph)
    if retain_graph is None:
        retain_graph = create_graph
    if create_graph:
        warnings.warn(
            "Using backward() with create_graph=True will create a reference cycle between the "
            "parameter and its gradient which can cause a memory leak. We recommend using "
            "autograd.grad when creating the graph to avoid this. If you have to use this "
            "function, make sure to reset the .grad fields of your parameters to None after use "
            "to break the cycle and avoid the leak.",
            UserWarning,
            stacklevel=3,
        )
    run_backward(outputs, grads, retain_graph, create_graph, inputs=inputs)


def grad(
    outputs: Any,
    inputs: Any,
    grad_outputs: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    only_inputs: bool = True,
    allow_unused: bool | None = None,
    is_grads_batched: bool = False,
    materialize_grads: bool = False,
) -> tuple:
    """Return d(outputs)/d(inputs) without touching any ``.grad``."""
    if is_grads_batched:
        raise NotImplementedError("tensorlab does not implement is_grads_batched (it needs vmap)")
    if materialize_grads and allow_unused is False:
        raise ValueError(
            "Expected allow_unused to be True or not passed when materialize_grads=True, "
            "but got: allow_unused=False."
        )
    outputs_list = _as_list(outputs)
    inputs_list = _as_list(inputs)
    if not inputs_list:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    grads = _root_grads(outputs_list, _as_list(grad_outputs), create_graph)
    if retain_graph is None:
        retain_graph = create_graph
    captured = run_backward(
        outputs_list, grads, retain_graph, create_graph, inputs=inputs_list, accumulate_grad=False
    )
    result = []
    for i, g in enumerate(captured):
        if g is None:
            if materialize_grads:
                from .._creation import zeros_like

                g = zeros_like(inputs_list[i])
            elif not allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {i} appears to not have been used in the "
                    "graph. Set allow_unused=True if this is the desired behavior."
                )
        elif not create_graph:
            g = g.detach()
        result.append(g)
    return tuple(result)


__all__ = [
    "Function", "FunctionCtx", "GradcheckError", "backward", "enable_grad", "functional", "grad", "grad_mode", "graph", "gradcheck",
    "gradgradcheck", "inference_mode", "is_grad_enabled", "is_inference_mode_enabled",
    "no_grad", "set_grad_enabled",
    "Variable", "profiler",
    "anomaly_mode", "detect_anomaly", "set_detect_anomaly",
]
