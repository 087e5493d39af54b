"""Sorting: sort, argsort, msort, topk, kthvalue — ops that return values *and* where they came from.

Each one picks elements along a dim and says which (``indices``), so its backward is the same
for all of them: the gradient of ``values`` goes back to the positions named by ``indices``
(a scatter), and every element that was not picked gets 0.

The order itself is NumPy's stable sort. torch's rules on top of it:

- NaN counts as larger than everything: last when ascending, first when descending;
- ``descending=True`` keeps equal elements in their original order too (a stable sort of the
  reversed slice, read backwards), so ``sort(x, stable=True, descending=True)`` is torch's;
- a 0-d tensor sorts to itself with index 0; ``topk`` and ``kthvalue`` check ``k`` first.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._dtype import bool_, int64
from .._tensor import Tensor, _wrap_dim
from ..autograd.function import Function, FunctionCtx
from .extrema import return_types
from .gather_scatter import scatter
from .reduction import accepts_keepdims


def stable_order(data: np.ndarray, axis: int, descending: bool) -> np.ndarray:
    """Positions that sort ``data`` along ``axis``, ties in their original order, NaN largest."""
    if not descending:
        return np.argsort(data, axis=axis, kind="stable")
    size = data.shape[axis]
    backwards = np.argsort(np.flip(data, axis=axis), axis=axis, kind="stable")
    return np.flip(size - 1 - backwards, axis=axis)


class PickAlongDim(Function):
    """values = x gathered at ``positions`` along ``dim``; backward scatters the gradient back there."""

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, dim: int, positions: np.ndarray, drop_dim: bool = False) -> tuple[Tensor, Tensor]:
        data = x._data if x.ndim else x._data.reshape(1)
        axis = dim if x.ndim else 0
        values = np.take_along_axis(data, positions, axis=axis)
        ctx.input_shape, ctx.axis, ctx.positions = x.shape, axis, positions
        shape = values.shape if x.ndim else ()
        if drop_dim and x.ndim:
            shape = tuple(size for axis_, size in enumerate(values.shape) if axis_ != axis)
        return Tensor._from_array(values.reshape(shape), x.dtype), Tensor._from_array(positions.reshape(shape), int64)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor, grad_indices: Tensor) -> tuple:
        shape = ctx.input_shape if ctx.input_shape else (1,)
        index = Tensor._from_array(ctx.positions, int64)
        spread = scatter(Tensor._from_array(np.zeros(shape, grad.dtype.numpy), grad.dtype), ctx.axis, index, grad.reshape(ctx.positions.shape))
        return spread.reshape(ctx.input_shape), None, None, None


def _picked(node: str, kind: type, x: Tensor, dim: int, positions: np.ndarray) -> Any:
    return kind(*PickAlongDim.apply_as(node, x, dim, positions))


def _data_and_axis(x: Tensor, dim: int) -> tuple[np.ndarray, int]:
    dim = _wrap_dim(dim, x.ndim)
    return (x._data, dim) if x.ndim else (x._data.reshape(1), 0)


def sort(input: Tensor, dim: int = -1, descending: bool = False, *, stable: bool | None = None) -> Any:  # noqa: A002
    """``(values, indices)`` sorted along ``dim``. Always stable here; torch's ``stable=False`` allows
    any order of ties, so a stable answer is one of the right ones."""
    data, axis = _data_and_axis(input, dim)
    node = "SortBackward0" if stable is None else "SortBackward1"
    return _picked(node, return_types.sort, input, axis, stable_order(data, axis, descending))


def argsort(input: Tensor, dim: int = -1, descending: bool = False, *, stable: bool = False) -> Tensor:  # noqa: A002
    """The ``indices`` of :func:`sort` alone (no gradient: indices are integers)."""
    data, axis = _data_and_axis(input, dim)
    return Tensor._from_array(stable_order(data, axis, descending).reshape(input.shape), int64)


def msort(input: Tensor) -> Tensor:  # noqa: A002
    """``sort(input, dim=0).values``."""
    return sort(input, 0).values


def _check_k(k: int, size: int, message: str) -> None:
    if not 0 <= k <= size:
        raise RuntimeError(message)


def topk(input: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True) -> Any:  # noqa: A002
    """The k largest (or smallest) elements along ``dim``, in order, and their indices."""
    data, axis = _data_and_axis(input, dim)
    _check_k(k, data.shape[axis], "selected index k out of range")
    positions = np.take(stable_order(data, axis, descending=largest), np.arange(k), axis=axis)
    return _picked("TopkBackward0", return_types.topk, input, axis, positions)


@accepts_keepdims
def kthvalue(input: Tensor, k: int, dim: int = -1, keepdim: bool = False) -> Any:  # noqa: A002
    """The k-th smallest element along ``dim`` (k counts from 1) and its index."""
    data, axis = _data_and_axis(input, dim)
    if not 1 <= k <= data.shape[axis]:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {_wrap_dim(dim, input.ndim)}")
    positions = np.take(stable_order(data, axis, descending=False), [k - 1], axis=axis)
    return return_types.kthvalue(*PickAlongDim.apply_as("KthvalueBackward0", input, axis, positions, not keepdim))


def _lower_median_positions(data: np.ndarray, axis: int) -> np.ndarray:
    """Where the median of each slice sits: for an even count torch takes the *lower* of the two
    middle elements (no averaging, so the median is always an element and has an index). A slice
    with a NaN has median NaN, at the index of its first NaN."""
    middle = (data.shape[axis] - 1) // 2
    positions = np.take(stable_order(data, axis, descending=False), [middle], axis=axis)
    if data.dtype.kind == "f":
        is_nan = np.isnan(data)
        first_nan = np.argmax(is_nan, axis=axis, keepdims=True)
        positions = np.where(is_nan.any(axis=axis, keepdims=True), first_nan, positions)
    return positions


@accepts_keepdims
def median(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Any:  # noqa: A002
    """The lower median of all elements (a 0-d tensor), or ``(values, indices)`` along ``dim``.

    Its gradient goes to the one element picked, like kthvalue's."""
    if input.dtype is bool_:
        raise NotImplementedError("\"median_cpu\" not implemented for 'Bool'")
    if dim is None:
        flat = input.reshape(-1)
        if not flat.numel():
            return Tensor._from_array(np.array(np.nan, dtype=input.dtype.numpy), input.dtype)
        positions = _lower_median_positions(flat._data, 0)
        return PickAlongDim.apply_as("MedianBackward0", flat, 0, positions, True)[0]
    data, axis = _data_and_axis(input, dim)
    if not data.shape[axis]:
        raise IndexError(f"median(): Expected reduction dim {axis} to have non-zero size.")
    positions = _lower_median_positions(data, axis)
    return return_types.median(*PickAlongDim.apply_as("MedianBackward1", input, axis, positions, not keepdim))


__all__ = ["argsort", "kthvalue", "median", "msort", "sort", "topk"]
