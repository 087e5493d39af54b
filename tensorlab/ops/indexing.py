"""Indexing: ``x[index]``, ``x[index] = value`` and ``nonzero``.

*Basic* indexing — ints, slices with positive steps, ``None`` and ``...`` — never copies: each
item of the index changes the layout (an int fixes a dim and moves the offset, a slice moves
the offset and multiplies the stride by the step, ``None`` inserts a size-1 dim), so the result
is a view of the same storage. *Advanced* indexing (lists, integer or bool tensors) gathers
elements into new storage; :func:`getitem` and :func:`setitem` send such indices to their own
branch (see ``_advanced_getitem`` / ``_advanced_setitem``).

Assignment computes the same view and writes into it with the in-place machinery of
``ops.elementwise``, so the version counter is bumped and every tensor sharing the storage sees
the new values (``xs = ys[:]; xs[:, 0] = 7`` changes ``ys``).
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from .._dtype import int64
from .._tensor import Tensor
from ..autograd.function import Function
from ..autograd.grad_mode import state as grad_state
from .elementwise import check_inplace_allowed, copy_, fill_, write_inplace
from .shape import Layout, Select, Slice, Window, layout_of, select_layout, slice_layout, unsqueeze_layout

__all__ = ["nonzero"]


# --- what kind of index is it? -------------------------------------------------------------
def _is_int(item: Any) -> bool:
    return isinstance(item, (int, np.integer)) and not isinstance(item, (bool, np.bool_))


def _is_basic_item(item: Any) -> bool:
    return item is None or item is Ellipsis or isinstance(item, slice) or _is_int(item)


def _as_items(index: Any) -> tuple:
    """The index as a tuple of items: ``x[1, :]`` arrives as a tuple, ``x[1]`` as a bare item."""
    return index if isinstance(index, tuple) else (index,)


def _is_basic(items: tuple) -> bool:
    return all(_is_basic_item(item) for item in items)


def _is_advanced_item(item: Any) -> bool:
    return isinstance(item, (list, Tensor, np.ndarray, bool, np.bool_))


def _reject_advanced(items: tuple) -> None:
    """Advanced indices are not implemented yet; anything else is torch's IndexError."""
    for item in items:
        if _is_advanced_item(item):
            raise TypeError(
                f"advanced indexing with {type(item).__name__} indices is not implemented yet in tensorlab"
            )
        if not _is_basic_item(item):
            raise IndexError(
                "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables "
                f"are valid indices (got {type(item).__name__})"
            )


def _advanced_getitem(x: Tensor, items: tuple) -> Tensor:
    _reject_advanced(items)
    raise AssertionError("unreachable: basic indices are handled by getitem")


def _advanced_setitem(x: Tensor, items: tuple, value: Any) -> None:
    _reject_advanced(items)
    raise AssertionError("unreachable: basic indices are handled by setitem")


# --- basic indexing: the index as a change of layout ---------------------------------------
def basic_index_layout(layout: Layout, items: tuple) -> Layout:
    """The layout of ``x[items]`` given x's layout: apply the items left to right.

    ``dim`` is the dim of the *result so far* that the next item applies to: an int removes that
    dim (so ``dim`` stays), a slice or ``None`` leaves a dim behind (so ``dim`` moves on), and
    ``...`` skips the dims that no item names.
    """
    ndim = len(layout[0])
    named = sum(1 for item in items if item is not None and item is not Ellipsis)
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


class IndexUnsqueeze(Window):
    """A basic index whose last effective item is ``None`` (torch names it after unsqueeze)."""

    backward_name = "UnsqueezeBackward0"


def _window_function(items: tuple) -> type[Window]:
    """Which view torch would have applied last, so ``grad_fn`` carries torch's name."""
    for item in reversed(items):
        if item is None:
            return IndexUnsqueeze
        if _is_int(item):
            return Select
        if isinstance(item, slice) and item != slice(None):
            return Slice
    return Slice if len(items) == 1 and isinstance(items[0], slice) else Window


def _window_of(x: Tensor, items: tuple) -> Any:
    """Check the index against x (raising torch's errors) and return it as a layout map."""
    basic_index_layout(layout_of(x), items)
    return lambda layout: basic_index_layout(layout, items)


def getitem(x: Tensor, index: Any) -> Tensor:
    """``x[index]``: a view for basic indices; advanced indices go to their own branch."""
    items = _as_items(index)
    if not _is_basic(items):
        return _advanced_getitem(x, items)
    return _window_function(items).apply(x, _window_of(x, items))


# --- assignment ------------------------------------------------------------------------------
class CopySlices(Function):
    """y = x with the window ``to_window`` replaced by v (what ``x[index] = v`` computes).

    dy/dx: the gradient with the window zeroed (those elements were overwritten);
    dy/dv: the gradient's window (summed back over broadcast dims by the engine).
    """

    backward_name = "CopySlices"

    @staticmethod
    def forward(ctx: Any, x: Tensor, value: Any, to_window: Any) -> Tensor:
        ctx.to_window = to_window
        out = Tensor._from_array(x._data.copy(), x.dtype)
        window = out._view(*to_window(layout_of(out)))
        window._data[...] = value._data if isinstance(value, Tensor) else value
        return out

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        grad_x = CopySlices.apply(grad, 0, ctx.to_window) if ctx.needs_input_grad[0] else None
        grad_value = Window.apply(grad, ctx.to_window) if ctx.needs_input_grad[1] else None
        return grad_x, grad_value, None


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
    """``x[index] = value``: write into the view ``x[index]`` (value broadcast, cast to x's dtype)."""
    items = _as_items(index)
    if not _is_basic(items):
        _advanced_setitem(x, items, value)
        return
    to_window = _window_of(x, items)
    target = x.detach()._view(*to_window(layout_of(x)))
    value = _value_for(target, value)
    if grad_state.enabled and x.requires_grad and x.grad_fn is None:
        whole = all(item is Ellipsis for item in items)
        raise RuntimeError(
            f"a {'' if whole else 'view of a '}leaf Variable that requires grad is being used in "
            "an in-place operation."
        )
    check_inplace_allowed(target)
    _check_no_partial_overlap(target, value)
    recording = grad_state.enabled and (x.requires_grad or getattr(value, "requires_grad", False))
    if recording:  # x's new history: CopySlices(old x, value)
        write_inplace(x, CopySlices.apply(x, value, to_window), any_cast=True)
    elif isinstance(value, Tensor):
        copy_(target, value)
    else:
        fill_(target, value)


# --- nonzero ---------------------------------------------------------------------------------
def nonzero(x: Tensor, *, as_tuple: bool = False) -> Any:
    """Indices of the non-zero elements: an (n, ndim) int64 tensor, or one 1-d tensor per dim."""
    data = x._data
    if as_tuple:
        positions = np.nonzero(data.reshape(1) if data.ndim == 0 else data)
        return tuple(Tensor._from_array(p.astype(np.int64), int64) for p in positions)
    if data.ndim == 0:
        return Tensor._from_array(np.zeros((int(data != 0), 0), dtype=np.int64), int64)
    # torch returns the (n, ndim) result column-major (strides (1, n)): build (ndim, n), transpose
    by_dim = np.stack(np.nonzero(data)).astype(np.int64)
    return Tensor._from_array(by_dim.T, int64)
