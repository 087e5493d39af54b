"""``tensordot``: sum over chosen pairs of dims of two tensors — a matrix product in disguise.

``tensordot(a, b, dims=2)`` contracts a's last two dims with b's first two; ``dims=([1, 2],
[0, 1])`` names them. Every such product is one matmul after moving the contracted dims together:
a becomes (free elements of a) x (contracted elements), b becomes (contracted) x (free of b),
and the product is reshaped back to a's free dims followed by b's. Gradients come from permute,
reshape and matmul, which already have them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .._tensor import Tensor, require_tensors
from .linalg import matmul
from .reduction import normalize_dims

__all__ = ["tensordot"]


def _contracted(a: Tensor, b: Tensor, dims: Any) -> tuple[list[int], list[int]]:
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        return list(range(a.ndim - dims, a.ndim)), list(range(dims))
    for name, position, d in (("dims_self", 3, dims[0]), ("dims_other", 4, dims[1])):
        if isinstance(d, int):  # (1, 0) is not ([1], [0]): torch wants a list per tensor
            raise TypeError(f"tensordot(): argument '{name}' (position {position}) must be tuple of ints, not int")
    dims_a, dims_b = list(dims[0]), list(dims[1])
    if len(dims_a) != len(dims_b):
        raise RuntimeError("both dimension lists should have same length")
    return [normalize_dims(d, a.ndim)[0] for d in dims_a], [normalize_dims(d, b.ndim)[0] for d in dims_b]


def tensordot(a: Tensor, b: Tensor, dims: int | Sequence[Any] = 2) -> Tensor:
    """Contract ``dims`` of a with ``dims`` of b (pairwise); the result has a's free dims, then b's."""
    require_tensors("tensordot", ("a", a), ("b", b))
    dims_a, dims_b = _contracted(a, b, dims)
    for da, db in zip(dims_a, dims_b, strict=True):
        if a.shape[da] != b.shape[db]:
            raise RuntimeError(
                f"contracted dimensions need to match, but first has size {a.shape[da]} in dim {da} and second "
                f"has size {b.shape[db]} in dim {db}"
            )
    if a.dtype is not b.dtype:
        raise RuntimeError("both inputs should have same dtype")
    free_a = [d for d in range(a.ndim) if d not in dims_a]
    free_b = [d for d in range(b.ndim) if d not in dims_b]
    contracted = math.prod(a.shape[d] for d in dims_a)
    a_matrix = a.permute(*free_a, *dims_a).reshape(math.prod(a.shape[d] for d in free_a), contracted)
    b_matrix = b.permute(*dims_b, *free_b).reshape(contracted, math.prod(b.shape[d] for d in free_b))
    return matmul(a_matrix, b_matrix).reshape(*(a.shape[d] for d in free_a), *(b.shape[d] for d in free_b))
