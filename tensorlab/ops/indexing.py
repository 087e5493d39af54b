"""Indexing: ``x[index]``, ``x[index] = value``, masks (masked_fill, masked_select), take, nonzero.

*Basic* indexing — ints, slices with positive steps, ``None`` and ``...`` — never copies: each
item of the index changes the layout (an int fixes a dim and moves the offset, a slice moves
the offset and multiplies the stride by the step, ``None`` inserts a size-1 dim), so the result
is a view of the same storage. Assignment computes the same view and writes into it with the
in-place machinery of ``ops.inplace``, so the version counter is bumped and every tensor
sharing the storage sees the new values (``xs = ys[:]; xs[:, 0] = 7`` changes ``ys``).

*Advanced* indexing (lists, integer or bool tensors) cannot be a view: the elements it picks
are in no strided pattern. It computes the storage position of every picked element
(:func:`advanced_positions`) and copies them; assignment writes to those positions. The
copy, the write and their backward are ``ops.pick_by_position`` (shared with flip, roll, repeat, gather
and index_select); masked_select and take are the same picking with other rules for the
positions.
"""

from __future__ import annotations

import numbers
import warnings
from typing import Any

import numpy as np

from .._dtype import bool_, int32, int64, uint8
from .._fast import switch as fast
from .._fast import views as fast_views
from .._storage import storage_positions
from .._tensor import Tensor, _wrap_dim
from ..autograd.copy_slices import refresh_view_history
from ..autograd.function import Function, FunctionCtx
from ..autograd.grad_mode import state as grad_state
from .broadcasting import broadcast_pair
from .gather_scatter import gather
from .inplace import copy_, fill_, inplace, records_history
from .layouts import Layout, layout_of, select_layout, slice_layout, unsqueeze_layout
from .pick_by_position import PickElements, PositionMap, PutElements
from .promotion import _check_fits
from .views import Window

__all__ = ["masked_fill", "masked_select", "nonzero", "take", "take_along_dim"]


# --- what kind of index is it? -------------------------------------------------------------
def _is_int(item: Any) -> bool:
    return isinstance(item, (int, np.integer)) and not isinstance(item, (bool, np.bool_))


def _is_basic_item(item: Any) -> bool:
    kind = type(item)  # the common kinds first, by identity: this runs for every item of every index
    return kind is int or kind is slice or item is None or item is Ellipsis or _is_int(item)


def _as_items(index: Any) -> tuple:
    """The index as a tuple of items: ``x[1, :]`` arrives as a tuple, ``x[1]`` as a bare item.

    A short list that holds a tensor, a sequence, a slice, ``None`` or ``...`` is read as a tuple
    (NumPy's old rule, which torch keeps): ``x[[[0, 1], [1, 0]]]`` means ``x[[0, 1], [1, 0]]``.
    """
    if isinstance(index, tuple):
        return index
    if isinstance(index, list) and len(index) < 32 and any(
        isinstance(i, (Tensor, list, tuple, range, slice)) or i is None or i is Ellipsis for i in index
    ):
        warnings.warn(
            "Using a non-tuple sequence for multidimensional indexing is deprecated; use "
            "x[tuple(seq)] instead of x[seq] (torch will read it as a tensor index).",
            UserWarning,
            stacklevel=4,
        )
        return tuple(index)
    return (index,)


INDEX_DTYPE_ERROR = "tensors used as indices must be long, int, byte or bool tensors"


def _index_item(item: Any) -> Any:
    """One item as a basic item, or as a NumPy array: int64 positions or a bool mask.

    A 0-d integer tensor acts as an int (a view, as in torch); ``True``/``False`` and 0-d bool
    tensors are 0-d masks, which add a dim of size 1 and keep it (True) or empty it (False).
    """
    if _is_basic_item(item):
        return item
    if isinstance(item, (bool, np.bool_)):
        return np.array(bool(item))
    if isinstance(item, Tensor):
        if item.dtype is bool_ or item.dtype is uint8:  # uint8 masks: torch's deprecated form
            return item._data.astype(bool)
        if item.dtype is int64 or item.dtype is int32:
            return int(item.item()) if item.ndim == 0 else item._data.astype(np.int64)
        raise IndexError(INDEX_DTYPE_ERROR)
    if isinstance(item, str):  # torch tries to read a str as a sequence of numbers
        raise TypeError("new(): invalid data type 'str'")
    if isinstance(item, (list, tuple, range, np.ndarray)):  # a range is a list of ints: logprobs[range(n), y]
        array = np.asarray(item)
        if array.dtype == np.bool_:
            return array
        if array.size == 0 or array.dtype.kind in "iu":
            return array.astype(np.int64)
        raise IndexError(INDEX_DTYPE_ERROR)
    raise IndexError(
        "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables "
        f"are valid indices (got {type(item).__name__})"
    )


def _is_basic(items: tuple) -> bool:
    for item in items:
        if isinstance(item, np.ndarray):
            return False
    return True


# --- basic indexing: the index as a change of layout ---------------------------------------
def basic_index_layout(layout: Layout, items: tuple) -> Layout:
    """The layout of ``x[items]`` given x's layout: apply the items left to right.

    ``dim`` is the dim of the *result so far* that the next item applies to: an int removes that
    dim (so ``dim`` stays), a slice or ``None`` leaves a dim behind (so ``dim`` moves on), and
    ``...`` skips the dims that no item names.
    """
    ndim = len(layout[0])
    named = len(items) - items.count(None) - items.count(Ellipsis)
    if ndim == 0 and named:
        if _is_int(next(i for i in items if i is not None and i is not Ellipsis)):
            raise IndexError(
                "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number"
            )
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    if named > ndim:
        raise IndexError(f"too many indices for tensor of dimension {ndim}")
    source_dim = 0  # the dim of x the next int/slice refers to (for error messages)
    dim = 0
    for item in items:
        if item is Ellipsis:
            dim += ndim - named
            source_dim += ndim - named
        elif item is None:
            layout = unsqueeze_layout(layout, dim)
            dim += 1
        elif isinstance(item, slice):
            step = 1 if item.step is None else int(item.step)
            if step <= 0:
                raise ValueError("step must be greater than zero")
            start, stop, _ = item.indices(layout[0][dim])
            layout = slice_layout(layout, dim, start, max(start, stop), step)
            dim += 1
            source_dim += 1
        else:
            size, index = layout[0][dim], int(item)
            if not -size <= index < size:
                raise IndexError(f"index {index} is out of bounds for dimension {source_dim} with size {size}")
            layout = select_layout(layout, dim, index + size if index < 0 else index)
            source_dim += 1
    return layout


def _window_node_name(items: tuple) -> str:
    """The view torch would have applied last, so ``grad_fn`` carries torch's name."""
    for item in reversed(items):
        if item is None:
            return "UnsqueezeBackward0"
        if _is_int(item):
            return "SelectBackward0"
        if isinstance(item, slice) and item != slice(None):
            return "SliceBackward0"
    return "SliceBackward0" if len(items) == 1 and isinstance(items[0], slice) else "AliasBackward0"


def _window_of(x: Tensor, items: tuple) -> Any:
    """Check the index against x (raising torch's errors) and return it as a layout map."""
    basic_index_layout(layout_of(x), items)
    return lambda layout: basic_index_layout(layout, items)


def getitem(x: Tensor, index: Any) -> Tensor:
    """``x[index]``: a view for basic indices; advanced indices go to their own branch."""
    items = tuple(map(_index_item, _as_items(index)))
    if not _is_basic(items):
        return _advanced_getitem(x, items)
    if fast.enabled and not x._requires_grad:  # nothing to record: the view at once
        return fast_views.basic_index_view(x, items, basic_index_layout(layout_of(x), items))
    return Window.apply_as(_window_node_name(items), x, _window_of(x, items))


# --- assignment ------------------------------------------------------------------------------
def _value_for(target: Tensor, value: Any) -> Any:
    """A number stays a number; a tensor loses leading size-1 dims and is broadcast to target."""
    if isinstance(value, Tensor):
        while value.ndim > target.ndim and value.shape[0] == 1:
            value = value.squeeze(0)
        value.expand(target.shape)  # raises torch's error if it does not broadcast
        return value
    if isinstance(value, numbers.Number) and not isinstance(value, complex):
        return value.item() if isinstance(value, np.generic) else value
    raise TypeError(f"can't assign a {type(value).__name__} to a {target.type()}")


def _check_no_partial_overlap(target: Tensor, value: Any) -> None:
    """torch refuses ``x[1:] = x[:-1]``: the source would be overwritten while it is read.

    Like torch, only the clear case is checked: both are contiguous runs of the same storage
    that overlap without being the same run.
    """
    if not isinstance(value, Tensor) or value.untyped_storage() is not target.untyped_storage():
        return
    if not (target.is_contiguous() and value.is_contiguous()) or 0 in (target.numel(), value.numel()):
        return
    same = target.storage_offset() == value.storage_offset() and target.shape == value.shape
    starts = (target.storage_offset(), value.storage_offset())
    ends = (starts[0] + target.numel(), starts[1] + value.numel())
    if not same and max(starts) < min(ends):
        raise RuntimeError(
            "unsupported operation: some elements of the input tensor and the written-to tensor "
            "refer to a single memory location. Please clone() the tensor before performing the "
            "operation."
        )


def setitem(x: Tensor, index: Any, value: Any) -> None:
    """``x[index] = value``: write into the view ``x[index]`` (value broadcast, cast to x's dtype).

    As in torch this is ``x[index].copy_(value)`` (``fill_`` for a number): a write into a view,
    so x's base gets a CopySlices history (``autograd.copy_slices``).
    """
    items = tuple(_index_item(item) for item in _as_items(index))
    if not _is_basic(items):
        _advanced_setitem(x, items, value)
        return
    if grad_state.enabled and x.requires_grad and x.grad_fn is None and all(item is Ellipsis for item in items):
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
    target = Window.apply_as(_window_node_name(items), x, _window_of(x, items))
    value = _value_for(target, value)
    _check_no_partial_overlap(target, value)
    if isinstance(value, Tensor):
        copy_(target, value)
    else:
        fill_(target, value)
    _refresh_if_view(x)


def _refresh_if_view(x: Tensor) -> None:
    """After a recorded write into x's storage, a view x shows its new history right away."""
    if grad_state.enabled and x._view_info is not None and x._view_info.version != x._storage.version:
        refresh_view_history(x)


# --- advanced indexing: every result element is picked from a computed storage position ---
#
# ``x[items]`` with lists, integer tensors or masks is done in two steps:
#
# 1. *Basic part.* Replace each advanced item by full slices that keep the dims it indexes
#    (a k-d mask keeps k dims; a 0-d mask inserts one new dim, like ``None``) and apply the
#    basic index: a view ``v``. Only the picking along the kept dims is left to do.
# 2. *Picking.* Masks become their ``nonzero`` positions (a k-d mask gives k position arrays);
#    all position arrays are broadcast together to one shape B and **zipped**: result element
#    b takes v[..., p0[b], p1[b], ...]. Its storage position is
#
#        offset + sum over picked dims d of p_d[b] * stride_d + sum over other dims of i_d * stride_d
#
#    The B dims replace the picked dims in place when those are adjacent in ``v``; when they
#    are separated (by a slice, ``None`` or ``...`` that kept a dim) they go to the front.
#
# The positions are computed by a function of the layout (``ops.pick_by_position.PositionMap``), so
# backward can apply the same index to a contiguous zero tensor of x's shape.
def _stand_in(item: Any) -> tuple:
    """The basic items that keep the dims an advanced item will pick along (step 1 above)."""
    if not isinstance(item, np.ndarray):
        return (item,)
    if item.dtype == np.bool_:
        return (None,) if item.ndim == 0 else (slice(None),) * item.ndim
    return (slice(None),)


def _kept_dims(item: Any, ellipsis_dims: int) -> int:
    """How many dims of the basic view an item (or its stand-in) accounts for."""
    if item is Ellipsis:
        return ellipsis_dims
    if _is_int(item):
        return 0
    if isinstance(item, np.ndarray) and item.dtype == np.bool_:
        return max(item.ndim, 1)
    return 1


def _picks(layout: Layout, items: tuple) -> tuple[Layout, list[int], list[np.ndarray]]:
    """Step 1: the basic view, the dims of it to pick along, and the positions along each."""
    if not layout[0] and any(isinstance(i, np.ndarray) and i.ndim > 0 for i in items):
        raise IndexError("too many indices for tensor of dimension 0")
    stand_ins = tuple(s for item in items for s in _stand_in(item))
    view = basic_index_layout(layout, stand_ins)
    ellipsis_dims = len(layout[0]) - sum(1 for s in stand_ins if s is not None and s is not Ellipsis)
    dims: list[int] = []
    arrays: list[np.ndarray] = []
    dim = 0  # the dim of the view the next item starts at
    for item in items:
        if isinstance(item, np.ndarray):
            if item.dtype != np.bool_:
                dims.append(dim)
                arrays.append(item)
            elif item.ndim == 0:  # True keeps the new size-1 dim (position 0), False empties it
                dims.append(dim)
                arrays.append(np.zeros(int(item), dtype=np.int64))
            else:
                _check_mask_shape(item, view[0], dim)
                dims.extend(range(dim, dim + item.ndim))
                arrays.extend(np.nonzero(item))
        dim += _kept_dims(item, ellipsis_dims)
    return view, dims, arrays


def _check_mask_shape(mask: np.ndarray, shape: tuple, dim: int) -> None:
    for j, size in enumerate(mask.shape):
        if size != shape[dim + j]:
            raise IndexError(
                f"The shape of the mask {list(mask.shape)} at index {j} does not match the shape "
                f"of the indexed tensor {list(shape)} at index {dim + j}"
            )


def _zipped(shape: tuple, dims: list[int], arrays: list[np.ndarray]) -> list[np.ndarray]:
    """Step 2's checks: broadcast the position arrays together, check bounds, wrap negatives."""
    try:
        arrays = list(np.broadcast_arrays(*arrays))
    except ValueError:
        shapes = ", ".join(str(list(a.shape)) for a in arrays)
        raise IndexError(f"shape mismatch: indexing tensors could not be broadcast together with shapes {shapes}") from None
    wrapped = []
    for k, (d, positions) in enumerate(zip(dims, arrays, strict=True)):
        size = shape[d]
        bad = (positions < -size) | (positions >= size)
        if np.any(bad):  # torch numbers the dim among the index tensors, not among x's dims
            raise IndexError(f"index {int(positions[bad].flat[0])} is out of bounds for dimension {k} with size {size}")
        wrapped.append(np.where(positions < 0, positions + size, positions))
    return wrapped


def advanced_positions(layout: Layout, items: tuple) -> np.ndarray:
    """The storage position of every element of ``x[items]`` (see the comment above)."""
    view, dims, arrays = _picks(layout, items)
    shape, strides, offset = view
    arrays = _zipped(shape, dims, arrays)
    picked: np.ndarray = sum((a * strides[d] for d, a in zip(dims, arrays, strict=True)), np.zeros((), np.int64))  # shape B
    others = [d for d in range(len(shape)) if d not in dims]
    rest = storage_positions([shape[d] for d in others], [strides[d] for d in others], offset)
    adjacent = dims == list(range(dims[0], dims[0] + len(dims)))
    front = dims[0] if adjacent else 0  # how many of the other dims come before the B dims
    r, b = rest.shape, picked.shape
    return rest.reshape(r[:front] + (1,) * len(b) + r[front:]) + picked.reshape((1,) * front + b + (1,) * (len(r) - front))


def _positions_map(items: tuple) -> PositionMap:
    return lambda layout: advanced_positions(layout, items)


def _advanced_getitem(x: Tensor, items: tuple) -> Tensor:
    return PickElements.apply(x, _positions_map(items))  # torch's index errors come from forward


def _put_value(x: Tensor, value: Any, shape: tuple) -> Any:
    """The value for ``x[advanced] = value``: a tensor of x's dtype that broadcasts, or a number."""
    if isinstance(value, Tensor):
        if value.dtype is not x.dtype:
            raise RuntimeError(
                "Index put requires the source and destination dtypes match, got "
                f"{x.dtype.scalar_type} for the destination and {value.dtype.scalar_type} for the source."
            )
        while value.ndim and value.shape[0] == 1:  # leading size-1 dims are dropped, as in torch
            value = value.squeeze(0)
        if not _broadcasts_to(tuple(value.shape), shape):
            raise RuntimeError(
                f"shape mismatch: value tensor of shape {list(value.shape)} cannot be broadcast to "
                f"indexing result of shape {list(shape)}"
            )
        return value
    if isinstance(value, numbers.Number) and not isinstance(value, complex):
        value = value.item() if isinstance(value, np.generic) else value
        _check_fits(value, x.dtype)
        return np.asarray(value).astype(x.dtype.numpy)
    raise TypeError(f"can't assign a {type(value).__name__} to a {x.type()}")


def _broadcasts_to(shape: tuple, target: tuple) -> bool:
    if len(shape) > len(target):
        return False
    return all(s in (1, t) for s, t in zip(shape[::-1], target[::-1], strict=False))


def _advanced_setitem(x: Tensor, items: tuple, value: Any) -> None:
    """``x[advanced] = value``: write into the picked storage positions (no view is involved)."""
    positions = _positions_map(items)
    where = positions(layout_of(x))  # also checks the index, raising torch's errors
    value = _put_value(x, value, where.shape)
    if records_history(x, (value,)):
        inplace(lambda before, v: PutElements.apply(before, v, positions), x, value, any_cast=True)
        _refresh_if_view(x)
        return
    x._storage.array[where] = np.broadcast_to(value._data if isinstance(value, Tensor) else value, where.shape)
    x._storage.version += 1


# --- masks and flat positions: masked_fill, masked_select, take, take_along_dim -------------
_C_TYPE_NAMES = {
    "uint8": "unsigned char", "int8": "signed char", "int16": "short int", "int32": "int", "int64": "long int",
    "float16": "c10::Half", "float32": "float", "float64": "double",
}


class MaskedFill(Function):
    """y = value where mask, x elsewhere (mask broadcast against x). dy/dx = 0 where filled, else 1."""

    backward_name = "MaskedFillBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, mask: Tensor, value: Any) -> Tensor:
        ctx.save_for_backward(mask)
        fill = np.asarray(value._data if isinstance(value, Tensor) else value).astype(x.dtype.numpy)
        return Tensor._from_array(np.where(mask._data, fill, x._data), x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        (mask,) = ctx.saved_tensors
        return masked_fill(grad, mask, 0), None, None


class MaskedFillTensor(MaskedFill):
    """masked_fill with a 0-d tensor value: the value receives the gradient of every filled element."""

    backward_name = "MaskedFillBackward1"

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        (mask,) = ctx.saved_tensors
        grad_value = masked_fill(grad, mask.logical_not(), 0).sum() if ctx.needs_input_grad[2] else None
        return masked_fill(grad, mask, 0), None, grad_value


def masked_fill(input: Tensor, mask: Tensor, value: Any) -> Tensor:  # noqa: A002
    """A copy of input with ``value`` (a number or a 0-d tensor) wherever ``mask`` is True."""
    if mask.dtype is not bool_:
        raise RuntimeError(
            f"masked_fill_ only supports boolean masks, but got mask with dtype {_C_TYPE_NAMES[mask.dtype.name]}"
        )
    broadcast_pair(mask.shape, input.shape)  # torch's error (mask is "tensor a") if they do not broadcast
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise RuntimeError(
                "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                f"{value.ndim} dimension(s)."
            )
        return MaskedFillTensor.apply(input, mask, value)
    return MaskedFill.apply(input, mask, value)


def masked_fill_(self: Tensor, mask: Tensor, value: Any) -> Tensor:
    """In-place masked_fill: the mask must broadcast to self's shape."""
    broadcast_pair(self.shape, mask.shape)  # in place, torch names self "tensor a"
    return inplace(masked_fill, self, mask, value)


def masked_select(input: Tensor, mask: Tensor) -> Tensor:  # noqa: A002
    """The elements where ``mask`` is True (both broadcast), as a 1-d copy in row-major order."""
    if mask.dtype is not bool_:
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    shape = broadcast_pair(mask.shape, input.shape)  # mask is "tensor a" in torch's error
    chosen = np.broadcast_to(mask._data, shape).copy()
    x = input if tuple(input.shape) == shape else input.expand(shape)
    return PickElements.apply_as("MaskedSelectBackward0", x, lambda layout: storage_positions(*layout)[chosen])


def take(input: Tensor, index: Tensor) -> Tensor:  # noqa: A002
    """input read as if it were 1-d (row-major), at the positions in ``index``: index's shape."""
    if index.dtype is not int64:
        raise RuntimeError(f"take(): Expected a long tensor for index, but got {index.dtype.scalar_type}")
    n = input.numel()
    flat = index._data
    bad = (flat < -n) | (flat >= n)
    if np.any(bad):
        raise IndexError(f"out of range: tried to access index {int(flat[bad].flat[0])} on a tensor of {n} elements.")
    wrapped = np.where(flat < 0, flat + n, flat)
    return PickElements.apply_as("TakeBackward0", input, lambda layout: storage_positions(*layout).reshape(-1)[wrapped])


def take_along_dim(input: Tensor, indices: Tensor, dim: int | None = None) -> Tensor:  # noqa: A002
    """gather with broadcasting: input and indices are broadcast against each other except along dim.

    With ``dim=None`` both are flattened first. Along ``dim`` the indices wrap around modulo the
    size (torch 2.13 does this; gather itself rejects out-of-range indices).
    """
    if indices.dtype is not int64:
        raise RuntimeError(
            f"torch.take_along_dim(): dtype of indices should be Long but got {indices.dtype.scalar_type}"
        )
    if dim is None:
        return gather(input.reshape(-1), 0, indices.reshape(-1))
    if input.ndim != indices.ndim:
        raise RuntimeError(
            "torch.take_along_dim(): input and indices should have the same number of dimensions, "
            f"but got {input.ndim} dimensions for input, and {indices.ndim} dimensions for indices"
        )
    dim = _wrap_dim(dim, input.ndim)
    size = input.shape[dim]
    index_shape = broadcast_pair(_with_size(input.shape, dim, indices.shape[dim]), indices.shape)
    input_shape = broadcast_pair(_with_size(indices.shape, dim, size), input.shape)
    wrapped = Tensor._from_array(np.remainder(indices._data, max(size, 1)), int64)
    return gather(input.expand(input_shape), dim, wrapped.expand(index_shape))


def _with_size(shape: tuple, dim: int, size: int) -> tuple:
    return (*shape[:dim], size, *shape[dim + 1 :])


# --- nonzero ---------------------------------------------------------------------------------
def nonzero(x: Tensor, *, as_tuple: bool = False) -> Any:
    """Indices of the non-zero elements: an (n, ndim) int64 tensor, or one 1-d tensor per dim."""
    if type(as_tuple) is not bool:
        raise TypeError(f"nonzero(): argument 'as_tuple' must be bool, not {type(as_tuple).__name__}")
    data = x._data
    if as_tuple:
        positions = np.nonzero(data.reshape(1) if data.ndim == 0 else data)
        return tuple(Tensor._from_array(p.astype(np.int64), int64) for p in positions)
    if data.ndim == 0:
        return Tensor._from_array(np.zeros((int(data != 0), 0), dtype=np.int64), int64)
    # torch returns the (n, ndim) result column-major (strides (1, n)): build (ndim, n), transpose
    by_dim = np.stack(np.nonzero(data)).astype(np.int64)
    return Tensor._from_array(by_dim.T, int64)
