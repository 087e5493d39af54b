"""zero_grads: what ``Module.zero_grad`` and ``Optimizer.zero_grad`` both do to each parameter."""

from __future__ import annotations

from collections.abc import Iterable

from .._tensor import Tensor

__all__ = ["zero_grads"]


def zero_grads(params: Iterable[Tensor], set_to_none: bool = True) -> None:
    """Drop every parameter's ``.grad`` (``set_to_none``), or zero it in place, cut off from any graph."""
    for param in params:
        if param.grad is None:
            continue
        if set_to_none:
            param.grad = None
        else:
            param.grad = param.grad.detach().zero_()
