"""Gather and scatter: read from, or write to, positions named by an index tensor along one dim.

For a 3-d tensor and ``dim == 1`` the rules are

    gather:   out[i][j][k]          = input[i][index[i][j][k]][k]
    scatter:  self[i][index[i][j][k]][k] = src[i][j][k]

so every element of ``index`` names one element: its own coordinates, except along ``dim``,
where the index value is used instead (:func:`_coordinates`). Gather and scatter do **not**
broadcast: ``index`` has as many dims as ``input``, and may only be smaller elsewhere.
The ``index_*`` family (``index_select``, ``index_add``, ...), the 1-d-index version where a
whole slice moves at a time, is ``ops.index_slices``.

gather computes the storage position of every element it reads and copies them with
``ops.pick_by_position.PickElements``, the primitive that advanced indexing, take and flip share; its
backward adds each gradient element back where it was read (a scatter_add). scatter_add's
backward is a gather. Duplicate indices in ``scatter`` make the result depend on which write
lands last; torch leaves that unspecified, tensorlab keeps the last.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._dtype import int32, int64
from .._tensor import Tensor, _wrap_dim
from ..autograd.function import Function, FunctionCtx
from .comparison import where
from .inplace import inplace
from .layouts import Layout
from .pick_by_position import PickElements, positions_at

__all__ = ["gather", "scatter", "scatter_add", "scatter_reduce"]

REDUCTIONS = ("sum", "prod", "mean", "amax", "amin")
# np.ufunc.at applies the op once per index entry, so repeated indices all contribute.
_ACCUMULATE = {"sum": np.add, "mean": np.add, "prod": np.multiply, "amax": np.maximum, "amin": np.minimum}


# --- validation (meta logic, no data touched) ----------------------------------------------
def _check_index_dtype(op: str, index: Tensor) -> None:
    if index.dtype is not int64 and index.dtype is not int32:
        raise RuntimeError(f"{op}(): Expected dtype int32/int64 for index")


def check_in_bounds(index: np.ndarray, size: int, dim: int, prefix: str = "", error: type = RuntimeError) -> None:
    """Every index must lie in [0, size): gather/scatter accept no negative indices."""
    bad = (index < 0) | (index >= size)
    if np.any(bad):
        raise error(f"{prefix}index {int(index[bad].flat[0])} is out of bounds for dimension {dim} with size {size}")


def _check_gather_shapes(x: Tensor, dim: int, index: Tensor) -> int:
    """gather: same number of dims, and index no larger than input except along ``dim``."""
    _check_index_dtype("gather", index)
    if max(index.ndim, 1) != max(x.ndim, 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
    dim = _wrap_dim(dim, x.ndim)
    for d in range(index.ndim):
        if d != dim and index.shape[d] > x.shape[d]:
            raise RuntimeError(
                f"Size does not match at dimension {d} expected index {list(index.shape)} to be no "
                f"larger than self {list(x.shape)} apart from dimension {dim}"
            )
    check_in_bounds(index._data, size_along(x, dim), dim)
    return dim


def _check_scatter_shapes(op: str, x: Tensor, dim: int, index: Tensor, src: Any) -> int:
    """scatter: index no larger than self (except along ``dim``) and no larger than src anywhere."""
    _check_index_dtype(op, index)
    dim = _wrap_dim(dim, x.ndim)
    if max(index.ndim, 1) != max(x.ndim, 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    if isinstance(src, Tensor):
        if max(index.ndim, 1) != max(src.ndim, 1):
            raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")
        if src.dtype is not x.dtype:
            raise RuntimeError(f"{op}(): Expected self.dtype to be equal to src.dtype")
    for d in range(index.ndim):
        too_big_for_self = d != dim and index.shape[d] > x.shape[d]
        too_big_for_src = isinstance(src, Tensor) and index.shape[d] > src.shape[d]
        if too_big_for_self or too_big_for_src:
            src_part = f" and to be no larger size than src {list(src.shape)}" if isinstance(src, Tensor) else ""
            raise RuntimeError(
                f"Expected index {list(index.shape)} to be no larger than self {list(x.shape)} apart "
                f"from dimension {dim}{src_part}"
            )
    check_in_bounds(index._data, size_along(x, dim), dim)
    return dim


def size_along(x: Tensor, dim: int) -> int:
    return x.shape[dim] if x.ndim else 1


# --- the index arithmetic -------------------------------------------------------------------
def _coordinates(index: np.ndarray, dim: int) -> tuple:
    """For every entry of ``index``, the coordinates of the element it names.

    Its own position ``(i, j, k)`` in ``index`` (an open grid from ``np.indices``), except that
    along ``dim`` the index *value* replaces the position: ``(i, index[i, j, k], k)`` for dim 1.
    """
    coords: list[np.ndarray] = list(np.indices(index.shape, sparse=True))
    coords[dim] = index
    return tuple(coords)


def _leading_block(array: np.ndarray, shape: tuple) -> np.ndarray:
    """The corner of ``array`` with the given shape: src may be larger than index, only its corner is used."""
    return array[tuple(slice(0, s) for s in shape)]


def as_1d(array: np.ndarray) -> np.ndarray:
    return array.reshape(1) if array.ndim == 0 else array


def picking_strides(layout: Layout) -> tuple:
    """A 0-d tensor is read as 1-d (one element, stride 1), as gather and index_select treat it."""
    return tuple(layout[1]) or (1,)


def _scatter_array(x: np.ndarray, dim: int, index: np.ndarray, src: Any, reduce: str | None) -> np.ndarray:
    """A copy of x with src written (or accumulated with ``reduce``) at the indexed positions."""
    out = as_1d(x).copy()
    index = as_1d(index)
    where = _coordinates(index, dim)
    values = _leading_block(as_1d(src), index.shape) if isinstance(src, np.ndarray) else src
    if reduce is None:
        out[where] = values
    else:
        _ACCUMULATE[reduce].at(out, where, values)
    return out.reshape(x.shape)


# --- gather / scatter as autograd Functions ------------------------------------------------
class Scatter(Function):
    """out = self with src written at the indexed positions.

    Backward: the overwritten positions of self get no gradient (they were replaced); src gets
    the gradient read back from where it was written (a gather).
    """

    backward_name = "ScatterBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
        dim = _check_scatter_shapes("scatter", x, dim, index, src)
        ctx.dim, ctx.index, ctx.src_shape = dim, index, src.shape
        return Tensor._from_array(_scatter_array(x._data, dim, index._data, src._data, None), x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        grad_self = scatter(grad, ctx.dim, ctx.index, 0.0) if ctx.needs_input_grad[0] else None
        grad_src = _pad_to(gather(grad, ctx.dim, ctx.index), ctx.src_shape) if ctx.needs_input_grad[3] else None
        return grad_self, None, None, grad_src


class ScatterValue(Function):
    """out = self with one number written at the indexed positions. Backward: zero there."""

    backward_name = "ScatterBackward1"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, dim: int, index: Tensor, value: Any) -> Tensor:
        dim = _check_scatter_shapes("scatter", x, dim, index, value)
        ctx.dim, ctx.index = dim, index
        value = value.item() if isinstance(value, Tensor) else value
        return Tensor._from_array(_scatter_array(x._data, dim, index._data, value, None), x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        return scatter(grad, ctx.dim, ctx.index, 0.0), None, None, None


class ScatterReduceLegacy(Function):
    """``scatter(..., reduce='add'|'multiply')``: accumulate instead of overwrite. torch has no backward for it."""

    backward_name = "NotImplemented"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, dim: int, index: Tensor, src: Any, reduce: str) -> Tensor:
        if reduce not in ("add", "multiply"):
            raise RuntimeError("reduce argument must be either add or multiply.")
        dim = _check_scatter_shapes("scatter", x, dim, index, src)
        values = src._data if isinstance(src, Tensor) else src
        how = "sum" if reduce == "add" else "prod"
        return Tensor._from_array(_scatter_array(x._data, dim, index._data, values, how), x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        raise RuntimeError("derivative for aten::scatter is not implemented")


class ScatterAdd(Function):
    """out = self, plus src added at the indexed positions. d/dself = 1, d/dsrc = gather of the gradient."""

    backward_name = "ScatterAddBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
        dim = _check_scatter_shapes("scatter", x, dim, index, src)
        ctx.dim, ctx.index, ctx.src_shape = dim, index, src.shape
        return Tensor._from_array(_scatter_array(x._data, dim, index._data, src._data, "sum"), x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        grad_src = _pad_to(gather(grad, ctx.dim, ctx.index), ctx.src_shape) if ctx.needs_input_grad[3] else None
        return grad, None, None, grad_src


def _pad_to(grad: Tensor, shape: tuple) -> Tensor:
    """src may be larger than index; the elements it did not use get a zero gradient.

    Written as a scatter along dim 0 with index[i, j, ...] = i, which puts grad[i, j, ...] at
    out[i, j, ...]: the corner, differentiably.
    """
    if tuple(grad.shape) == tuple(shape):
        return grad
    zeros = Tensor._from_array(np.zeros(shape, grad.dtype.numpy), grad.dtype)
    rows = Tensor._from_array(np.indices(grad.shape)[0], int64)
    return scatter(zeros, 0, rows, grad)


class ScatterReduce(Function):
    """out[target] = reduce(self[target] (if include_self), all src values sent to target).

    Backward, per reduction: ``sum`` passes the gradient to every contributor; ``mean`` divides
    it by the number of contributors; ``amax``/``amin`` split it evenly between the contributors
    equal to the result; ``prod`` gives each contributor the product of the *other* contributors.
    Without include_self, the original values at written positions did not contribute: gradient 0.
    """

    backward_name = "ScatterReduceBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str, include_self: bool) -> Tensor:
        if reduce not in REDUCTIONS:
            raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
        dim = _check_scatter_shapes("scatter_reduce", x, dim, index, src)
        result = _scatter_reduce_array(x._data, dim, index._data, src._data, reduce, include_self)
        out = Tensor._from_array(result, x.dtype)
        ctx.dim, ctx.index, ctx.reduce, ctx.include_self = dim, index, reduce, include_self
        ctx.save_for_backward(x, src, out)
        return out

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        x, src, out = ctx.saved_tensors
        dim, index, reduce, include_self = ctx.dim, ctx.index, ctx.reduce, ctx.include_self
        src = _leading_block_tensor(src, index.shape)
        if reduce == "sum":
            grad_self, grad_src = grad, gather(grad, dim, index)
        elif reduce == "mean":
            share = grad / _contributors(x, dim, index, include_self)
            grad_self, grad_src = share, gather(share, dim, index)
        elif reduce in ("amax", "amin"):
            self_wins = (x == out).to(grad.dtype)
            # As in torch, self's value is counted among the winners even without include_self
            # (it then gets no gradient itself): the share of a tied src halves.
            src_wins = (src == gather(out, dim, index)).to(grad.dtype)
            winners = scatter_add(self_wins, dim, index, src_wins)
            share = grad / winners
            grad_self, grad_src = share * self_wins, gather(share, dim, index) * src_wins
        else:
            grad_self, grad_src = _prod_backward(grad, x, dim, index, src, out, include_self)
        if not include_self:
            grad_self = scatter(grad_self, dim, index, 0.0)
        return grad_self, None, None, _pad_to(grad_src, ctx.saved_tensors[1].shape), None, None


def _leading_block_tensor(t: Tensor, shape: tuple) -> Tensor:
    if tuple(t.shape) == tuple(shape):
        return t
    return t[tuple(slice(0, s) for s in shape)]


def _contributors(x: Tensor, dim: int, index: Tensor, include_self: bool) -> Tensor:
    """How many values were reduced into each position of the result (at least 1)."""
    ones = Tensor._from_array(np.ones(index.shape, x.dtype.numpy), x.dtype)
    start = Tensor._from_array(np.full(x.shape, 1 if include_self else 0, x.dtype.numpy), x.dtype)
    count = scatter_add(start, dim, index, ones)
    return count.clamp(min=1)


def _prod_backward(grad: Tensor, x: Tensor, dim: int, index: Tensor, src: Tensor, out: Tensor, include_self: bool) -> tuple:
    """d(prod)/d(factor) = product of the other factors.

    That is ``out / factor`` when the factor is not zero. A zero factor's "other factors" are
    recomputed with that zero replaced by 1 (and are 0 anyway if another factor is zero too).
    """
    x_zero, src_zero = x == 0, src == 0
    x_ones = where(x_zero, 1.0, x)
    others_of_self = scatter_reduce(x_ones, dim, index, src, "prod", include_self=include_self)
    grad_self = grad * others_of_self / x_ones
    zeros_per_target = scatter_add(x_zero.to(grad.dtype) * include_self, dim, index, src_zero.to(grad.dtype))
    lonely_zero = src_zero & (gather(zeros_per_target, dim, index) == 1)
    src_ones = where(lonely_zero, 1.0, src)
    others_of_src = scatter_reduce(x, dim, index, src_ones, "prod", include_self=include_self)
    grad_src = where(
        lonely_zero,
        gather(grad * others_of_src, dim, index),
        gather(grad * out, dim, index) / where(src_zero, 1.0, src),
    )
    return grad_self, grad_src


def _scatter_reduce_array(x: np.ndarray, dim: int, index: np.ndarray, src: np.ndarray, reduce: str, include_self: bool) -> np.ndarray:
    """The forward of scatter_reduce on NumPy arrays: seed the written positions, accumulate, finish the mean."""
    start = x.copy()
    if not include_self:  # positions that receive values start from the reduction's identity
        identity = {"sum": 0, "mean": 0, "prod": 1, "amax": _lowest(x.dtype), "amin": _highest(x.dtype)}[reduce]
        start = _scatter_array(start, dim, index, identity, None)
    out = _scatter_array(start, dim, index, src, reduce)
    if reduce == "mean":
        count = _scatter_array(np.full(x.shape, 1 if include_self else 0, np.int64), dim, index, np.int64(1), "sum")
        count = np.maximum(count, 1)
        if np.issubdtype(x.dtype, np.floating):
            out = out / count.astype(x.dtype)
        else:
            out = np.floor_divide(out, count).astype(x.dtype)
        written = _scatter_array(np.zeros(x.shape, bool), dim, index, True, None)
        out = np.where(written | include_self, out, x)
    return out.astype(x.dtype, copy=False)


def _lowest(dt: np.dtype) -> Any:
    return -np.inf if np.issubdtype(dt, np.floating) else (False if dt == np.bool_ else np.iinfo(dt).min)


def _highest(dt: np.dtype) -> Any:
    return np.inf if np.issubdtype(dt, np.floating) else (True if dt == np.bool_ else np.iinfo(dt).max)


# --- public functions -----------------------------------------------------------------------
def _empty_index_as_int64(index: Tensor) -> Tensor:
    """An empty index names no position, so torch takes it whatever its dtype (``tensor([])`` is
    float32): from here on it is an int64 index like any other."""
    return index.to(int64) if index.numel() == 0 and isinstance(index, Tensor) else index


def gather(input: Tensor, dim: int, index: Tensor, *, sparse_grad: bool = False) -> Tensor:  # noqa: A002
    """out[i][j][k] = input[i][index[i][j][k]][k] for dim=1 (and likewise for other dims).

    A pick (``ops.pick_by_position``) at the coordinates :func:`_coordinates` names; its backward adds the
    gradient back to where it was read (a scatter_add into zeros).
    """
    if index.numel() == 0 and index.ndim != input.ndim:  # nothing to read, no dims to line up
        return input.reshape(-1)[:0].reshape(index.shape)
    index = _empty_index_as_int64(index)
    dim = _check_gather_shapes(input, dim, index)
    coordinates, shape = _coordinates(as_1d(index._data), dim), index.shape
    return PickElements.apply_as("GatherBackward0", input, lambda layout: positions_at(coordinates, picking_strides(layout), layout[2]).reshape(shape))


def scatter(input: Tensor, dim: int, index: Tensor, src: Any = None, *, value: Any = None, reduce: str | None = None) -> Tensor:  # noqa: A002
    """A copy of input with ``src`` (a tensor, or a number) written at the positions index names."""
    if src is None:
        src = value
    index = _empty_index_as_int64(index)
    if reduce is not None:
        return ScatterReduceLegacy.apply(input, dim, index, src, reduce)
    if isinstance(src, Tensor):
        return Scatter.apply(input, dim, index, src)
    return ScatterValue.apply(input, dim, index, src)


def scatter_add(input: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:  # noqa: A002
    """A copy of input with src *added* at the indexed positions (repeated indices all add up)."""
    return ScatterAdd.apply(input, dim, _empty_index_as_int64(index), src)


def scatter_reduce(input: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str, *, include_self: bool = True) -> Tensor:  # noqa: A002
    """Reduce (sum, prod, mean, amax, amin) all values sent to each position, with or without self's value."""
    return ScatterReduce.apply(input, dim, _empty_index_as_int64(index), src, reduce, include_self)




# In-place forms: compute out of place, write into self, bump the version counter.
def scatter_(self: Tensor, dim: int, index: Tensor, src: Any = None, *, value: Any = None, reduce: str | None = None) -> Tensor:
    return inplace(scatter, self, dim, index, src, value=value, reduce=reduce)


def scatter_add_(self: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    return inplace(scatter_add, self, dim, index, src)


def scatter_reduce_(self: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str, *, include_self: bool = True) -> Tensor:
    return inplace(scatter_reduce, self, dim, index, src, reduce, include_self=include_self)
