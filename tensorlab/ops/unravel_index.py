"""``unravel_index``: from a flat (row-major) index back to one index per dim.

Element k of a C-contiguous tensor of shape (2, 3) sits at row k // 3, column k % 3: dividing by
the sizes from the last dim backwards peels the coordinates off one at a time — the inverse of
``flat = row * 3 + col``, i.e. of how strides turn coordinates into an offset. As in torch, an
index past the end wraps around (modulo the number of elements), and the coordinates are int64.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from .._dtype import int64
from .._tensor import Tensor

__all__ = ["unravel_index"]


def unravel_index(indices: Tensor, shape: int | Sequence[int]) -> tuple[Tensor, ...]:
    """One int64 tensor per dim of ``shape``, each shaped like ``indices``."""
    if indices.dtype.is_floating_point or indices.dtype.name == "bool":
        raise TypeError(f"expected 'indices' to be integer dtype, but got torch.{indices.dtype.name}")
    sizes = (shape,) if isinstance(shape, int) else tuple(shape)
    if any(size < 0 for size in sizes):
        raise ValueError(f"'shape' cannot have negative values, but got {sizes}")
    if not sizes:
        return ()
    if math.prod(sizes) == 0:
        raise RuntimeError("ZeroDivisionError")
    flat = indices._data.astype(np.int64) % math.prod(sizes)
    coordinates = []
    for size in reversed(sizes):
        coordinates.append(flat % size)
        flat = flat // size
    return tuple(Tensor._from_array(c, int64) for c in reversed(coordinates))
