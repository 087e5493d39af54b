"""Copies and dtype conversions: clone, to(dtype). Both are differentiable (gradient passes through)."""

from __future__ import annotations

from typing import Any

from .._device import check_device, is_device_like
from .._dtype import dtype, to_dtype
from .._storage import is_non_overlapping_and_dense
from .._tensor import Tensor, require_tensors
from ..autograd.function import Function, FunctionCtx


class Clone(Function):
    """A new tensor with its own storage and the same values. d(clone)/dx = identity."""

    backward_name = "CloneBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor) -> Tensor:
        return preserve_format(Tensor._from_array(x._data.copy(order="K"), x.dtype), x)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> Tensor:
        return grad


def preserve_format(copy: Tensor, x: Tensor) -> Tensor:
    """``copy`` (laid out in x's memory order) with x's exact strides when x is dense, as in torch.

    NumPy's order="K" already keeps the order of the dims; only the strides of size-1 dims, which
    address no second element, can differ: torch keeps x's (``x[::2]`` of size 1 has stride 2).
    """
    strides = x.stride()
    if is_non_overlapping_and_dense(x._data.shape, strides):
        copy._strides = strides
    return copy


class ToDtype(Function):
    """Cast to another dtype. The gradient is cast back (the engine casts it to x's dtype)."""

    backward_name = "ToCopyBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, target: dtype) -> Tensor:
        return Tensor._from_array(x._data.astype(target.numpy, order="K"), target)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        return grad, None


def clone(x: Tensor) -> Tensor:
    try:
        return Clone.apply(x)
    except AttributeError:
        require_tensors("clone", ("input", x))
        raise


def to(x: Tensor, *args: Any, dtype: Any = None, device: Any = None, copy: bool = False, non_blocking: bool = False, **kwargs: Any) -> Tensor:
    """``x.to(dtype)``, ``x.to("cpu")``, ``x.to(device, dtype)``, ``x.to(other_tensor)``: returns
    x itself when nothing changes. Every tensor is on the CPU: another device fails as in torch
    (see ``tensorlab._device``)."""
    target = dtype
    flags = [a for a in args if isinstance(a, bool)]  # to(dtype, non_blocking, copy), positionally
    if len(flags) == 2:
        copy = flags[1]
    for a in args:
        if isinstance(a, Tensor):
            target = a.dtype
        elif is_device_like(a):
            check_device(a)
        elif not isinstance(a, bool):
            target = a
    check_device(device)
    target = x.dtype if target is None else to_dtype(target)
    if target is x.dtype:
        return clone(x) if copy else x
    return ToDtype.apply(x, target)
