"""Reductions (placeholder: sum only; the full family is being written)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._dtype import int64, to_dtype
from .._tensor import Tensor, _wrap_dim
from ..autograd.function import Function

__all__ = ["sum"]


def normalize_dims(dim: Any, ndim: int) -> tuple[int, ...]:
    """``dim`` as a sorted tuple of non-negative dims; None or () means all dims."""
    if dim is None or dim == () or dim == []:
        return tuple(range(ndim))
    if isinstance(dim, int):
        dim = (dim,)
    dims = tuple(_wrap_dim(d, ndim) for d in dim)
    if len(set(dims)) != len(dims):
        raise RuntimeError(f"dim {dims[0]} appears multiple times in the list of dims")
    return tuple(sorted(dims))


class Sum(Function):
    """z = sum of x over dims. dz/dx = 1: the gradient is broadcast back over the summed dims."""

    backward_name = "SumBackward1"

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: Any, keepdim: bool, dtype: Any) -> Tensor:
        dims = normalize_dims(dim, x.ndim)
        ctx.input_shape, ctx.dims, ctx.keepdim = x.shape, dims, keepdim
        out = to_dtype(dtype) if dtype is not None else (x.dtype if x.dtype.is_floating_point else int64)
        data = x._data if x.ndim else x._data.reshape(())
        result = np.sum(data, axis=dims if x.ndim else None, keepdims=keepdim, dtype=out.numpy)
        return Tensor._from_array(result, out)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        if not ctx.keepdim:
            for d in ctx.dims:
                grad = grad.unsqueeze(d)
        return grad.expand(ctx.input_shape), None, None, None


def sum(x: Tensor, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:  # noqa: A001
    return Sum.apply(x, dim, keepdim, dtype)
