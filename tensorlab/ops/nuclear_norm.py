"""The nuclear norm, ``norm(x, p='nuc')``: the sum of a matrix's singular values.

As in torch, it is two recorded steps: the singular values of each matrix (``linalg.svdvals``,
an SVD whose backward gives ``U diag(g) Vh``) and a sum over them (``SumBackward1``).
"""

from __future__ import annotations

from typing import Any

from .._tensor import Tensor, _wrap_dim
from .decompositions import svdvals

__all__ = ["nuclear_norm"]


def _matrix_dims(dim: Any, ndim: int) -> tuple[int, int]:
    """The two dims that hold the matrices; torch's errors for anything else."""
    if ndim < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    dims = tuple(range(ndim)) if dim is None else ((dim,) if isinstance(dim, int) else tuple(dim))
    if len(dims) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {' '.join(str(d) for d in dims)}")
    rows, columns = _wrap_dim(dims[0], ndim), _wrap_dim(dims[1], ndim)
    if rows == columns:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({dims[0]}, {dims[1]})")
    return rows, columns


def nuclear_norm(x: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    """Sum of singular values of the matrices in dims ``dim`` (all of a 2-d tensor by default)."""
    if not x.dtype.is_floating_point:
        raise RuntimeError(f"linalg.matrix_norm: Expected a floating point or complex tensor as input. Got {x.dtype.scalar_type}")
    rows, columns = _matrix_dims(dim, x.ndim)
    result = svdvals(x.movedim((rows, columns), (-2, -1))).sum(-1)
    if keepdim:
        for kept in sorted((rows, columns)):
            result = result.unsqueeze(kept)
    return result
