"""Copies and dtype conversions: clone, to(dtype). Both are differentiable (gradient passes through)."""

from __future__ import annotations

from typing import Any

from .._dtype import dtype, to_dtype
from .._tensor import Tensor
from ..autograd.function import Function


class Clone(Function):
    """A new tensor with its own storage and the same values. d(clone)/dx = identity."""

    backward_name = "CloneBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> Tensor:
        return Tensor._from_array(x._data.copy(order="K"), x.dtype)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Tensor:
        return grad


class ToDtype(Function):
    """Cast to another dtype. The gradient is cast back (the engine casts it to x's dtype)."""

    backward_name = "ToCopyBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, target: dtype) -> Tensor:
        return Tensor._from_array(x._data.astype(target.numpy, order="K"), target)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        return grad, None


def clone(x: Tensor) -> Tensor:
    return Clone.apply(x)


def to(x: Tensor, *args: Any, dtype: Any = None, copy: bool = False, **kwargs: Any) -> Tensor:
    """``x.to(dtype)``, ``x.to('cpu')``, ``x.to(other_tensor)``: returns x itself when nothing changes."""
    target = dtype
    for a in args:
        if isinstance(a, Tensor):
            target = a.dtype
        elif isinstance(a, str) or a is None or type(a).__name__ == "device":
            if str(a) not in ("cpu", "None") and not str(a).startswith("cpu"):
                raise RuntimeError(f"tensorlab tensors live on the CPU; cannot move to {a!r}")
        else:
            target = a
    target = x.dtype if target is None else to_dtype(target)
    if target is x.dtype:
        return clone(x) if copy else x
    return ToDtype.apply(x, target)
