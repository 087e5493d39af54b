"""The cross product of 3-vectors: ``torch.cross`` and ``torch.linalg.cross``.

a x b is perpendicular to both a and b, with length |a||b| sin(angle). It is bilinear, so its
gradients are cross products again: for z = a x b and an incoming gradient g,
dL/da = b x g and dL/db = g x a. The vectors lie along one dim of size 3 (``dim``; the other
dims broadcast as a batch). ``linalg.cross`` uses the last dim; ``torch.cross`` without ``dim``
still uses the *first* dim of size 3 — deprecated, with a warning — which is a classic bug
when a batch happens to have 3 rows.
"""

from __future__ import annotations

import warnings

import numpy as np

from .._dtype import bool_
from .._tensor import Tensor, require_tensors
from ..autograd.function import Function, FunctionCtx
from .broadcasting import broadcast_pair, sum_to_shape
from .promotion import _not_implemented_for
from .reduction import normalize_dims

__all__ = ["cross"]


class Cross(Function):
    """z = a x b along ``dim``. dL/da = b x g, dL/db = g x a (summed over broadcast dims by the engine)."""

    backward_name = "LinalgCrossBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, a: Tensor, b: Tensor, dim: int) -> Tensor:
        ctx.save_for_backward(a, b)
        ctx.dim = dim
        shape = broadcast_pair(a.shape, b.shape)
        return Tensor._from_array(np.cross(np.broadcast_to(a._data, shape), np.broadcast_to(b._data, shape), axis=dim), a.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        a, b = ctx.saved_tensors
        grad_a = grad_b = None
        if ctx.needs_input_grad[0]:
            grad_a = sum_to_shape(Cross.apply(b.expand_as(grad), grad, ctx.dim), a.shape)
        if ctx.needs_input_grad[1]:
            grad_b = sum_to_shape(Cross.apply(grad, a.expand_as(grad), ctx.dim), b.shape)
        return grad_a, grad_b, None


def _checked_dim(a: Tensor, b: Tensor, dim: int) -> int:
    """torch's checks, in its order: same ndim, a valid dim of length 3 in both, same dtype."""
    if a.ndim != b.ndim:
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    (d,) = normalize_dims(dim, a.ndim)
    if a.shape[d] != 3 or b.shape[d] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got {a.shape[d]} and {b.shape[d]}")
    broadcast_pair(a.shape, b.shape)
    if a.dtype is not b.dtype:
        raise RuntimeError(f"expected scalar type {a.dtype.scalar_type} but found {b.dtype.scalar_type}")
    if a.dtype is bool_:
        raise _not_implemented_for("cross", bool_)
    return d


def linalg_cross(input: Tensor, other: Tensor, *, dim: int = -1) -> Tensor:  # noqa: A002
    """``torch.linalg.cross``: the vectors lie along ``dim`` (the last dim by default)."""
    require_tensors("linalg_cross", ("input", input), ("other", other))
    return Cross.apply(input, other, _checked_dim(input, other, dim))


def cross(input: Tensor, other: Tensor, dim: int | None = None) -> Tensor:  # noqa: A002
    """``torch.cross``: as ``linalg.cross``, but without ``dim`` it takes the first dim of size 3."""
    require_tensors("cross", ("input", input), ("other", other))
    if dim is None:
        warnings.warn(
            "Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass the dim explicitly "
            "or simply use torch.linalg.cross.\nThe default value of dim will change to agree with that of "
            "linalg.cross in a future release.",
            UserWarning,
            stacklevel=2,
        )
        sizes_3 = [d for d, size in enumerate(input.shape) if size == 3]
        if not sizes_3:
            raise RuntimeError("no dimension of size 3 in input")
        dim = sizes_3[0]
    return Cross.apply(input, other, _checked_dim(input, other, dim))
