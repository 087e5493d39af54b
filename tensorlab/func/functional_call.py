"""functional_call and stack_module_state: a module as a function of its parameters.

``functional_call(model, params, x)`` runs ``model(x)`` with the tensors of ``params`` in place of
the module's own, then puts the module's own back. The parameters become an *argument*, so
``grad``, ``vmap`` and ``jacrev`` can take derivatives with respect to them or map over them
(per-sample gradients, ensembles).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from ..nn.modules.module import Module


def functional_call(
    module: Module,
    parameter_and_buffer_dicts: dict[str, Any] | Sequence[dict[str, Any]],
    args: Any = None,
    kwargs: dict[str, Any] | None = None,
    *,
    tie_weights: bool = True,
    strict: bool = False,
) -> Any:
    """``module(*args, **kwargs)`` with the named tensors swapped in for the call only."""
    dicts = [parameter_and_buffer_dicts] if isinstance(parameter_and_buffer_dicts, dict) else list(parameter_and_buffer_dicts)
    merged: dict[str, Any] = {}
    for d in dicts:
        for name, value in d.items():
            if name in merged:
                raise ValueError(f"{name} appeared in multiple dictionaries; behavior of functional call is ambiguous")
            merged[name] = value
    if strict:
        expected = {n for n, _ in module.named_parameters()} | {n for n, _ in module.named_buffers()}
        missing, unexpected = sorted(expected - set(merged)), sorted(set(merged) - expected)
        if missing or unexpected:
            raise RuntimeError(f"Error(s) in reparametrizing for {type(module).__name__}: missing keys {missing}, unexpected keys {unexpected}")
    call_args = args if isinstance(args, tuple) else (() if args is None else (args,))
    with _swapped(module, merged):
        return module(*call_args, **(kwargs or {}))


@contextmanager
def _swapped(module: Module, tensors: dict[str, Any]) -> Iterator[None]:
    """Put each tensor where its dotted name points (a parameter or buffer slot), restore afterwards."""
    saved: list[tuple[dict[str, Any], str, Any]] = []
    try:
        for dotted, value in tensors.items():
            owner_path, _, name = dotted.rpartition(".")
            owner = module.get_submodule(owner_path) if owner_path else module
            store = owner._buffers if name in owner._buffers else owner._parameters
            saved.append((store, name, store.get(name)))
            store[name] = value
        yield
    finally:
        for store, name, original in reversed(saved):
            if original is None:
                store.pop(name, None)
            else:
                store[name] = original


def stack_module_state(models: Sequence[Module]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Each parameter and buffer of ``models`` stacked along a new dim 0, by name.

    The stacked parameters are new leaves (they require grad when the originals do), ready for an
    optimizer; ``vmap(..., in_dims=(0, 0, None))`` over them runs every model at once.
    """
    from .. import stack

    if not models:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if not all(m.training == models[0].training for m in models):
        raise RuntimeError("stack_module_state: Expected all models to have the same training/eval mode.")
    first = type(models[0])
    if not all(type(m) is first for m in models):
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")
    names = [n for n, _ in models[0].named_parameters()]
    params = {}
    for n in names:
        tensors = [dict(m.named_parameters())[n] for m in models]
        params[n] = stack([t.detach() for t in tensors]).requires_grad_(tensors[0].requires_grad)
    buffers = {n: stack([dict(m.named_buffers())[n] for m in models]) for n, _ in models[0].named_buffers()}
    return params, buffers
