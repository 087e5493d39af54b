"""The distinct values of a tensor: ``unique`` and ``unique_consecutive``.

``unique`` sorts, then keeps the first of each run of equal values; ``return_inverse`` says,
for every input element, which output value it became (so ``output[inverse]`` rebuilds the
input), and ``return_counts`` how many elements each output value stands for. With ``dim``,
the "values" are whole slices along that dim, compared element by element and sorted
lexicographically. ``unique_consecutive`` skips the sort: only neighbours merge.

Two details a learner may trip on, both torch's: nan is not equal to itself, so every nan is
its own unique value (sorted last); and the result has a grad_fn, but no derivative (picking
values is not a smooth function of them), so backward through it is an error.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._dtype import int64
from .._tensor import Tensor
from ..autograd.function import Function, FunctionCtx
from .reduction import normalize_dims

__all__ = ["unique", "unique_consecutive"]


def _as_rows(x: Tensor, dim: int) -> np.ndarray:
    """The slices along ``dim`` as rows of a 2-d array (one row per index of ``dim``)."""
    moved = np.moveaxis(x._data, dim, 0)
    return moved.reshape(moved.shape[0], math.prod(moved.shape[1:]))


def _from_rows(rows: np.ndarray, x: Tensor, dim: int) -> np.ndarray:
    """Inverse of :func:`_as_rows`: rows back to slices along ``dim``."""
    moved_shape = (rows.shape[0], *(size for d, size in enumerate(x.shape) if d != dim))
    return np.moveaxis(rows.reshape(moved_shape), 0, dim)


def _unique_rows(rows: np.ndarray, consecutive: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct rows (sorted, unless ``consecutive``), the inverse map, the counts."""
    if consecutive:
        order = np.arange(len(rows))
    else:
        order = np.lexsort(rows.T[::-1]) if rows.shape[1] else np.arange(len(rows))  # first column is the primary key
    in_order = rows[order]
    starts = np.ones(len(rows), dtype=bool)
    starts[1:] = (in_order[1:] != in_order[:-1]).any(axis=1)  # nan != nan: every nan starts a new run
    group = np.cumsum(starts) - 1
    inverse = np.empty(len(rows), dtype=np.int64)
    inverse[order] = group
    counts = np.bincount(group, minlength=int(starts.sum())).astype(np.int64)
    return in_order[starts], inverse, counts


def _name(dim: int | None, consecutive: bool) -> str:
    """torch's name for the op, in its "no derivative" error."""
    if consecutive:
        return "unique_consecutive"
    return "unique_dim" if dim is not None else "_unique2"


class Unique(Function):
    """Distinct values, with the inverse map and the counts. No derivative (torch has none)."""

    backward_name = "Unique2Backward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, dim: int | None, consecutive: bool) -> tuple[Tensor, Tensor, Tensor]:
        ctx.op_name = _name(dim, consecutive)
        if dim is None:
            rows = x._data.reshape(-1, 1)
            values, inverse, counts = _unique_rows(rows, consecutive)
            outputs = values.reshape(-1), inverse.reshape(x.shape), counts
        else:
            if x.numel() == 0 and x.shape[dim] != 0:
                raise RuntimeError("There are 0 sized dimensions, and they aren't selected, so unique cannot be applied")
            values, inverse, counts = _unique_rows(_as_rows(x, dim), consecutive)
            outputs = _from_rows(values, x, dim), inverse, counts
        result = Tensor._from_array(np.ascontiguousarray(outputs[0]), x.dtype)
        return result, Tensor._from_array(outputs[1], int64), Tensor._from_array(outputs[2], int64)

    @staticmethod
    def backward(ctx: FunctionCtx, *grads: Any) -> tuple:
        raise NotImplementedError(f"the derivative for '{ctx.op_name}' is not implemented.")


def _pick(outputs: tuple[Tensor, Tensor, Tensor], return_inverse: bool, return_counts: bool) -> Any:
    values, inverse, counts = outputs
    inverse, counts = inverse.detach(), counts.detach()  # indices: never part of the graph
    if return_inverse and return_counts:
        return values, inverse, counts
    if return_inverse:
        return values, inverse
    if return_counts:
        return values, counts
    return values


def unique(input: Tensor, sorted: bool = True, return_inverse: bool = False, return_counts: bool = False,  # noqa: A002
           dim: int | None = None) -> Any:
    """The distinct values (or slices along ``dim``), sorted; see the module docstring.

    ``sorted=False`` still sorts, as torch does on the CPU.
    """
    if dim is None:
        return _pick(Unique.apply(input, None, False), return_inverse, return_counts)
    (d,) = normalize_dims(dim, input.ndim)
    return _pick(Unique.apply_as("UniqueDimBackward0", input, d, False), return_inverse, return_counts)


def unique_consecutive(input: Tensor, return_inverse: bool = False, return_counts: bool = False,  # noqa: A002
                       dim: int | None = None) -> Any:
    """Merge runs of equal neighbours only (no sort): [1, 1, 2, 1] -> [1, 2, 1]."""
    d = None if dim is None else normalize_dims(dim, input.ndim)[0]
    return _pick(Unique.apply_as("UniqueConsecutiveBackward0", input, d, True), return_inverse, return_counts)
