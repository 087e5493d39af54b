"""``linalg.norm``, ``linalg.vector_norm`` and ``linalg.matrix_norm``: how big is a vector, a matrix.

A vector norm treats every element alike: (sum |x_i|^p)^(1/p) (``ops.reduction.VectorNorm``).
A matrix norm measures the matrix as a map, so each order is its own recipe, built here from
ops that already have their gradients:

- 'fro': the vector 2-norm of all entries;   'nuc': the sum of the singular values;
- 1 / -1: the largest / smallest column sum of |a_ij|;   inf / -inf: the same over rows;
- 2 / -2: the largest / smallest singular value (``svdvals``).

``linalg.norm`` picks between them: with no ``ord``, the 2-norm of everything (or the
Frobenius norm over a 2-tuple ``dim``); with an ``ord`` and no ``dim``, the input must be a
vector or a matrix, and it decides which kind of norm ``ord`` means.
"""

from __future__ import annotations

import math
from typing import Any

from .._tensor import Tensor
from . import reduction
from .decompositions import svdvals
from .extrema import amax, amin
from .reduction import accepts_keepdims, normalize_dims


@accepts_keepdims
def vector_norm(x: Tensor, ord: Any = 2, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:  # noqa: A002
    """(sum |x_i|^ord)^(1/ord) over ``dim`` (all dims by default), for any number ``ord``."""
    if isinstance(ord, str):
        raise TypeError(f"linalg_vector_norm(): argument 'ord' must be Number, not {type(ord).__name__}")
    return reduction.norm(x, float(ord), dim, keepdim, dtype=dtype)


_MATRIX_ORDS = ("fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf)


@accepts_keepdims
def matrix_norm(A: Tensor, ord: Any = "fro", dim: Any = (-2, -1), keepdim: bool = False, *, dtype: Any = None) -> Tensor:  # noqa: A002, N803
    """A matrix norm of the matrices in dims ``dim`` (the last two by default); see the module docstring."""
    if not isinstance(dim, (tuple, list)):
        raise TypeError(f"linalg_matrix_norm() received an invalid combination of arguments - got (Tensor, dim={type(dim).__name__})")
    if A.ndim < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    reduction.require_floating(A, f"linalg.matrix_norm: Expected a floating point or complex tensor as input. Got {A.dtype.scalar_type}")
    if ord not in _MATRIX_ORDS:
        raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    if len(dim) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {' '.join(map(str, dim))}")
    rows, columns = (normalize_dims(d, A.ndim)[0] for d in dim)  # in the order given: (-1, -2) transposes
    if rows == columns:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({rows}, {columns})")
    if dtype is not None:
        A = A.to(dtype)  # noqa: N806
    if ord == "fro":
        return reduction.norm(A, 2.0, (rows, columns), keepdim)
    if ord == "nuc":
        return reduction.norm(A, "nuc", (rows, columns), keepdim)  # the nuclear norm lives with torch.norm
    if ord in (2, -2):
        singular = svdvals(A.movedim((rows, columns), (-2, -1)))
        result = amax(singular, -1) if ord == 2 else amin(singular, -1)
        return _keep(result, rows, columns) if keepdim else result
    summed, across = (rows, columns) if abs(ord) == 1 else (columns, rows)  # 1: column sums; inf: row sums
    sums = A.abs().sum(summed, keepdim=True)
    result = amax(sums, across, keepdim=True) if ord > 0 else amin(sums, across, keepdim=True)
    return result if keepdim else result.squeeze((rows, columns))


def _keep(result: Tensor, rows: int, columns: int) -> Tensor:
    """Put back the two reduced dims as size 1 (keepdim=True) at their places."""
    for d in sorted((rows, columns)):
        result = result.unsqueeze(d)
    return result


@accepts_keepdims
def norm(A: Tensor, ord: Any = None, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:  # noqa: A002, N803
    """``linalg.norm``: a vector or a matrix norm, chosen from ``ord`` and ``dim`` (module docstring)."""
    if dim is not None:
        dims = (dim,) if isinstance(dim, int) else tuple(dim)
        if len(dims) not in (1, 2):
            raise RuntimeError(f"linalg.norm: If dim is specified, it must be of length 1 or 2. Got {list(dims)}")
        if len(dims) == 1:
            return vector_norm(A, 2 if ord is None else ord, dims, keepdim, dtype=dtype)
        return matrix_norm(A, "fro" if ord is None else ord, dims, keepdim, dtype=dtype)
    if ord is None:
        return vector_norm(A, 2, None, keepdim, dtype=dtype)
    if A.ndim not in (1, 2):
        raise RuntimeError(f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got {A.ndim}D.")
    if A.ndim == 1 and not isinstance(ord, str):
        return vector_norm(A, ord, None, keepdim, dtype=dtype)
    return matrix_norm(A, ord, (-2, -1), keepdim, dtype=dtype)
