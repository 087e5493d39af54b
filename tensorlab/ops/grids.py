"""Grids of coordinates: ``meshgrid`` and ``cartesian_prod``.

``meshgrid(x, y)`` answers "every (x_i, y_j) pair, laid out as a grid": output k repeats input k
along every other dim. No element is copied: each output is a view of its input (reshaped to
lie along its own dim, then expanded with stride 0 along the others), so a 1000 x 1000 grid of
two 1000-element vectors costs no new memory until written to. ``indexing='ij'`` puts input k
on dim k (matrix indexing); ``'xy'`` swaps the first two (x along columns, as in plots).
``cartesian_prod`` lists the same pairs as rows of a 2-d tensor (a copy).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

from .._tensor import Tensor
from .join import stack

__all__ = ["cartesian_prod", "meshgrid"]


def _tensors(tensors: Sequence[Any]) -> list[Tensor]:
    """``f(a, b)`` and ``f([a, b])`` both mean the two tensors."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        return list(tensors[0])
    return list(tensors)


def meshgrid(*tensors: Any, indexing: str | None = None) -> tuple[Tensor, ...]:
    """Output k: input k (0-d or 1-d) along its own dim, expanded (stride 0) along the others."""
    grid = _tensors(tensors)
    if indexing is None:
        warnings.warn(
            "torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.",
            UserWarning,
            stacklevel=2,
        )
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}')
    if not grid:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    for t in grid:
        if t.ndim > 1:
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: {t}")
    if any(t.dtype is not grid[0].dtype for t in grid):
        raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    dims = list(range(len(grid)))
    if indexing == "xy" and len(grid) >= 2:
        dims[0], dims[1] = 1, 0  # input 0 varies along columns (dim 1), input 1 along rows
    sizes = [0] * len(grid)
    for t, d in zip(grid, dims, strict=True):
        sizes[d] = t.numel()
    outputs = []
    for t, d in zip(grid, dims, strict=True):
        along_own_dim = [1] * len(grid)
        along_own_dim[d] = -1
        outputs.append(t.reshape(along_own_dim).expand(sizes))
    return tuple(outputs)


def cartesian_prod(*tensors: Tensor) -> Tensor:
    """Every combination of one element from each 1-d input, one per row (the first input varies slowest)."""
    for t in tensors:
        if t.ndim != 1:
            raise RuntimeError(f"Expect a 1D vector, but got shape {list(t.shape)}")
    if len(tensors) == 1:
        return tensors[0]
    return stack([g.reshape(-1) for g in meshgrid(*tensors, indexing="ij")], dim=1)
