"""View ops straight to their forward when nothing can be recorded.

A view op's forward is one line, ``x._view(layout)``. Reached through ``Function.apply`` (check
every argument for ``requires_grad``, build a context, call forward), the route costs more than
the view. When ``x`` does not require grad, ``apply`` would record nothing and return forward's
result as it is, so the op may call forward at once: same layout, same errors (they come from
the plain layout functions before this point), same tensor, no ``grad_fn`` either way.

``expand`` also builds its stride-0 array at once, from a layout it remembers (a loop expands
the same few shapes again and again). ``t()`` skips even that: reversing the dims
of a matrix is NumPy's ``.T`` and reversed strides. For basic indexing (``x[1:3, ::2]``,
``x[0]``, ``x[:, None]``, ``x.select(0, 1)``), NumPy's own indexing of ``x._data`` builds the
array of the new layout in C; the layout itself (strides, offset) is still computed by
``ops.indexing.basic_index_layout``/``select_layout``.
A view of a row-major tensor needs no walk over runs of memory: its strides are row-major too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._storage import byte_strides, contiguous_strides
from ..autograd.function import FunctionCtx

if TYPE_CHECKING:
    from .._tensor import Tensor
    from ..autograd.function import Function


class _Unrecorded(FunctionCtx):
    """The ``ctx`` of a forward that nothing records: it may note what backward would need, nobody reads it."""

    def __init__(self) -> None:  # no inputs to remember
        pass


UNRECORDED = _Unrecorded()  # one for all: what a forward notes on it is never read


def forward_only(function: type[Function], x: Tensor, args: tuple) -> Tensor:
    """``function.apply(x, *args)`` for an ``x`` that does not require grad (and no other tensor argument)."""
    result: Tensor = function.forward(UNRECORDED, x, *args)
    return result


def basic_index_view(x: Tensor, items: tuple, layout: tuple) -> Tensor:
    """``x[items]`` (ints, slices, None, ...: already checked) as a view with ``layout``, its array from NumPy."""
    shape, strides, offset = layout
    if Ellipsis not in items:  # x[0] of a 1-d array is a NumPy scalar, x[0, ...] a 0-d view
        items = (*items, Ellipsis)
    return x._view(shape, strides, offset, data=x._data[items])


def transposed_view(x: Tensor) -> Tensor:
    """``x.t()`` of an x of at most 2 dims: NumPy's transposed array, x's strides in reverse order."""
    return x._view(x._data.shape[::-1], x.stride()[::-1], x._offset, data=x._data.T)


# Layouts of expand calls already made, keyed by x's shape and strides (None: row-major) and the
# sizes: the layout is a pure function of those small tuples. Only plain-int sizes are looked up
# (``3.0 == 3`` would find the layout of 3, where torch raises TypeError).
_EXPANDED_LAYOUTS: dict[tuple, tuple[tuple[int, ...], tuple[int, ...]]] = {}
_MAX_EXPANDED_LAYOUTS = 4096


def expand(x: Tensor, sizes: tuple) -> Tensor | None:
    """``x.expand(*sizes)`` for an x that records nothing; None for sizes that are not all plain
    ints (the plain path then decides, with torch's errors)."""
    for size in sizes:
        if type(size) is not int:
            return None
    key = (x._data.shape, x._strides, sizes)
    layout = _EXPANDED_LAYOUTS.get(key)
    if layout is None:
        from ..ops.layouts import expand_layout

        layout = expand_layout(x, sizes)  # raises torch's error for a bad size
        if len(_EXPANDED_LAYOUTS) < _MAX_EXPANDED_LAYOUTS:
            _EXPANDED_LAYOUTS[key] = layout
    return expanded_view(x, *layout)


def expanded_view(x: Tensor, shape: tuple, strides: tuple) -> Tensor:
    """``x.expand(...)`` with its layout (``ops.layouts.expand_layout``) already found and checked.

    NumPy has no C routine for an arbitrary stride-0 layout (``np.broadcast_to`` is Python on
    top of the constructor), so the array is made with ``np.ndarray`` at once, from byte strides
    that are computed once per layout; an empty x goes the general way (NumPy's offset rule).
    """
    if not x._data.size:
        return x._view(shape, strides, x._offset)
    base = x._storage.array
    item = base.itemsize
    array = np.ndarray(shape, base.dtype, base, x._offset * item, byte_strides(strides, item))
    return x._view(shape, strides, x._offset, data=array)


def row_major_view(x: Tensor, sizes: tuple) -> Tensor | None:
    """``x.view(*sizes)`` when x is row-major and not empty; None when the general rule must decide
    (another layout, or sizes NumPy refuses: then the plain path raises torch's error).

    All of a row-major x is one run of memory, so the view's strides are the row-major strides of
    the new shape (what ``view_strides`` finds by walking the runs), and NumPy's reshape of the
    C-ordered array (which infers a -1 the same way) is that same view, built in C.
    """
    data, strides = x._data, x._strides
    if data.size == 0:
        return None
    if strides is not None:  # None means row-major (computed when asked); else ask NumPy
        if not data.flags.c_contiguous:
            return None
        # NumPy's flag ignores the strides of size-1 dims; only there can x differ from row-major
        if 1 in data.shape and strides != contiguous_strides(data.shape):
            return None
    try:
        if min(sizes) < -1:  # NumPy would infer any negative size; torch only -1 (no sizes: ValueError)
            return None
        reshaped = data.reshape(sizes)
    except (ValueError, TypeError, RuntimeError):  # RuntimeError: a many-element tensor as a size
        return None
    return x._view(reshaped.shape, None, x._offset, data=reshaped)  # strides None: row-major, computed if asked
