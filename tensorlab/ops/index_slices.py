"""index_select, index_add, index_copy, index_fill: whole slices read or written by a 1-d index.

``x.index_select(dim, index)`` is the slices ``x.select(dim, index[0])``, ``x.select(dim,
index[1])``, ... side by side: gather with one index per slice instead of one per element.
index_select reads with the picking primitive (``ops.pick_by_position``); index_add writes slices and
adds up repeats. They are each other's backward, as gather and scatter_add are
(``ops.gather_scatter``). Duplicate indices in ``index_copy`` make the result depend on which
write lands last; torch leaves that unspecified, tensorlab keeps the last.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._dtype import int32, int64
from .._tensor import Tensor, _wrap_dim
from ..autograd.function import Function, FunctionCtx
from .gather_scatter import as_1d, check_in_bounds, picking_strides, size_along
from .inplace import inplace
from .pick_by_position import PickElements, positions_at

__all__ = ["index_add", "index_copy", "index_fill", "index_select"]


# --- index_select / index_add / index_copy / index_fill ------------------------------------
def _check_vector_index(op: str, index: Tensor) -> np.ndarray:
    """index_select's index: a 1-d (or 0-d) integer tensor; returns its values as a 1-d array."""
    if index.dtype is not int64 and index.dtype is not int32:
        raise RuntimeError(f"{op}(): Expected dtype int32 or int64 for index")
    if index.ndim > 1:
        raise IndexError(f"{op}(): Index is supposed to be a vector")
    return index._data.reshape(-1)


def _slice_at(dim: int, where: Any) -> tuple:
    """An index tuple that picks ``where`` along ``dim`` and everything along the other dims."""
    return (slice(None),) * dim + (where,)


def _check_source(op: str, x: Tensor, dim: int, index: Tensor, source: Tensor) -> np.ndarray:
    """index_add/index_copy: a vector index, one slice of source per index, same dtype and slice shape."""
    if index.dtype is not int64 and index.dtype is not int32:
        raise RuntimeError(f"{op}(): Expected dtype int32/int64 for index but got: {index.dtype.scalar_type}")
    if index.ndim > 1:
        if op == "index_copy_":
            raise IndexError(f"index_copy_(): Index should have dimension 1 or 0 (got {index.ndim})")
        raise IndexError(
            f"{op}(): Index is supposed to be a vector, but got dim: {index.ndim} with type: "
            f"{index.dtype.scalar_type} and size: {list(index.shape)}"
        )
    if source.dtype is not x.dtype:
        if op == "index_copy_":
            raise RuntimeError(
                "index_copy_(): self and source expected to have the same dtype, but got (self) "
                f"{x.dtype.scalar_type} and (source) {source.dtype.scalar_type}"
            )
        raise RuntimeError(f"{op}(): self ({x.dtype.scalar_type}) and source ({source.dtype.scalar_type}) must have the same scalar type")
    positions = index._data.reshape(-1)
    source_len = source.shape[dim] if source.ndim > dim else 1
    if source.ndim not in (0, x.ndim) and op == "index_add_":
        raise IndexError(f"index_add_(): Indexing dim {dim} is out of bounds of the source tensor with dim {source.ndim}")
    if len(positions) != source_len:
        if op == "index_copy_":
            raise IndexError(
                f"index_copy_(): Number of indices ({len(positions)}) should be equal to source.size(dim) ({source_len})"
            )
        raise RuntimeError(
            f"{op}(): Number of indices ({len(positions)}) should be equal to source.size(dim): "
            f"({source_len}), for dim: {dim}"
        )
    for d in range(x.ndim):
        if d != dim and source.ndim == x.ndim and source.shape[d] != x.shape[d]:
            raise RuntimeError(
                "source tensor shape must match self tensor shape, excluding the specified dimension. "
                f"Got self.shape = {list(x.shape)} source.shape = {list(source.shape)}"
            )
    prefix = "index_copy_(): " if op == "index_copy_" else ""
    check_in_bounds(positions, size_along(x, dim), dim, prefix, IndexError if op == "index_copy_" else RuntimeError)
    return positions


class IndexAdd(Function):
    """out = self; out.select(dim, index[i]) += alpha * source.select(dim, i). Backward: index_select."""

    backward_name = "IndexAddBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, dim: int, index: Tensor, source: Tensor, alpha: Any) -> Tensor:
        dim = _wrap_dim(dim, x.ndim)
        positions = _check_source("index_add_", x, dim, index, source)
        ctx.dim, ctx.index, ctx.alpha = dim, index, alpha
        out = as_1d(x._data).copy()
        values = as_1d(source._data) * alpha if alpha != 1 else as_1d(source._data)
        np.add.at(out, _slice_at(dim, positions), values)
        return Tensor._from_array(out.reshape(x.shape), x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        grad_source = None
        if ctx.needs_input_grad[3]:
            grad_source = index_select(grad, ctx.dim, ctx.index)
            grad_source = grad_source * ctx.alpha if ctx.alpha != 1 else grad_source
        return grad, None, None, grad_source, None


class IndexCopy(Function):
    """out = self with slice index[i] replaced by source's slice i. Backward: the replaced slices of self get 0."""

    backward_name = "IndexCopyBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, dim: int, index: Tensor, source: Tensor) -> Tensor:
        dim = _wrap_dim(dim, x.ndim)
        positions = _check_source("index_copy_", x, dim, index, source)
        ctx.dim, ctx.index = dim, index
        out = as_1d(x._data).copy()
        out[_slice_at(dim, positions)] = as_1d(source._data)
        return Tensor._from_array(out.reshape(x.shape), x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        grad_self = index_fill(grad, ctx.dim, ctx.index, 0) if ctx.needs_input_grad[0] else None
        grad_source = index_select(grad, ctx.dim, ctx.index) if ctx.needs_input_grad[3] else None
        return grad_self, None, None, grad_source


class IndexFill(Function):
    """out = self with whole slices index[i] along dim set to value. Backward: those slices get 0."""

    backward_name = "IndexFillBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, dim: int, index: Tensor, value: Any) -> Tensor:
        dim = _wrap_dim(dim, x.ndim)
        if index.ndim > 1:
            raise RuntimeError("Index has to be a vector/scalar")
        if index.dtype is not int64:
            raise IndexError("index_fill_(): Expected dtype int64 for index.")
        positions = index._data.reshape(-1)
        size = size_along(x, dim)
        check_in_bounds(np.where(positions < 0, positions + size, positions), size, dim, error=IndexError)
        positions = positions % size if size else positions  # index_fill alone accepts negative indices
        ctx.dim, ctx.index = dim, index
        out = as_1d(x._data).copy()
        out[_slice_at(dim, positions)] = value.item() if isinstance(value, Tensor) else value
        return Tensor._from_array(out.reshape(x.shape), x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        return index_fill(grad, ctx.dim, ctx.index, 0), None, None, None


class IndexFillTensor(IndexFill):
    """index_fill with a 0-d tensor value: that value also gets a gradient, the sum over the filled
    slices, each counted once however often the index repeats it (grad minus grad with them zeroed)."""

    backward_name = "IndexFillBackward1"

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        grad_outside = index_fill(grad, ctx.dim, ctx.index, 0)
        grad_value = (grad - grad_outside).sum() if ctx.needs_input_grad[3] else None
        return grad_outside, None, None, grad_value


def index_select(input: Tensor, dim: int, index: Tensor) -> Tensor:  # noqa: A002
    """The slices of input along dim named by the 1-d index, in that order (repeats allowed).

    A pick (``ops.pick_by_position``); its backward adds each gradient slice back to the slice it was read
    from (an index_add into zeros).
    """
    dim = _wrap_dim(dim, input.ndim)
    positions = _check_vector_index("index_select", index)
    size = size_along(input, dim)
    bad = (positions < 0) | (positions >= size)
    if np.any(bad):
        raise RuntimeError(f"INDICES element is out of DATA bounds, id={int(positions[bad][0])} axis_dim={size}")
    coordinates = [np.arange(n) for n in input.shape] or [np.arange(1)]
    coordinates[dim] = positions  # every slice, with the index values along dim
    shape = () if input.ndim == 0 else tuple(len(c) for c in coordinates)
    grid = np.ix_(*coordinates)
    return PickElements.apply_as("IndexSelectBackward0", input, lambda layout: positions_at(grid, picking_strides(layout), layout[2]).reshape(shape))


def index_add(input: Tensor, dim: int, index: Tensor, source: Tensor, *, alpha: Any = 1) -> Tensor:  # noqa: A002
    """A copy of input with alpha * source's slice i added to slice index[i] (repeats add up)."""
    return IndexAdd.apply(input, dim, index, source, alpha)


def index_copy(input: Tensor, dim: int, index: Tensor, source: Tensor) -> Tensor:  # noqa: A002
    """A copy of input with slice index[i] replaced by source's slice i."""
    return IndexCopy.apply(input, dim, index, source)


def index_fill(input: Tensor, dim: int, index: Tensor, value: Any) -> Tensor:  # noqa: A002
    """A copy of input with the slices named by index set to ``value`` (a number or a 0-d tensor)."""
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise RuntimeError(
                "index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                f"{value.ndim} dimension(s)."
            )
        return IndexFillTensor.apply(input, dim, index, value)
    return IndexFill.apply(input, dim, index, value)


# --- in place: the same ops writing into self ----------------------------------------------
def index_add_(self: Tensor, dim: int, index: Tensor, source: Tensor, *, alpha: Any = 1) -> Tensor:
    return inplace(index_add, self, dim, index, source, alpha=alpha)


def index_copy_(self: Tensor, dim: int, index: Tensor, source: Tensor) -> Tensor:
    return inplace(index_copy, self, dim, index, source)


def index_fill_(self: Tensor, dim: int, index: Tensor, value: Any) -> Tensor:
    return inplace(index_fill, self, dim, index, value)
