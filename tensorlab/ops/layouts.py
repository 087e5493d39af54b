"""Layout arithmetic: what a view op computes, as pure functions of small tuples.

A view is a new ``(shape, strides, storage_offset)`` over the same storage. These functions
compute that layout for each view op (and check the arguments, with torch's errors) without
touching any data, so they can be read and tested on their own; ``ops.views`` applies them.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .._tensor import Tensor

__all__: list[str] = []  # helpers of the view ops, not public functions

Layout = tuple[tuple[int, ...], tuple[int, ...], int]  # (shape, strides, storage_offset)


def layout_of(x: Tensor) -> Layout:
    return x._data.shape, x.stride(), x._offset


def int_sizes(sizes: Sequence[Any], op: str = "", argument: str = "size") -> tuple[int, ...]:
    """Sizes as Python ints; torch's TypeError for a size that is not an integer.

    A size passes when it is an integer of any kind: a Python int, ``np.int64(3)``, a 0-d integer
    tensor (``operator.index`` accepts exactly those). ``int()`` would also take ``3.5`` (as 3, a
    silent wrong answer) and ``3.0``; torch refuses both, and so does this.
    """
    ints = []
    for position, size in enumerate(sizes):
        try:
            ints.append(operator.index(size))
        except (TypeError, ValueError, RuntimeError):  # a float, a string, a tensor of many elements
            raise TypeError(
                f"{op + '(): ' if op else ''}argument '{argument}' (position 1) must be tuple of ints, "
                f"but found element of type {type(size).__name__} at pos {position}"
            ) from None
    return tuple(ints)


def infer_size(shape: Sequence[int], numel: int) -> tuple[int, ...]:
    """Replace a single -1 by whatever size makes the element count match.

    The sizes are checked left to right, so the first bad size decides the error, as in torch.
    """
    shape = tuple(int(s) for s in shape)
    known = 1
    inferred = False
    for i, s in enumerate(shape):
        if s == -1:
            if inferred:
                raise RuntimeError("only one dimension can be inferred")
            inferred = True
        elif s < 0:
            raise RuntimeError(f"invalid shape dimension {s} at index {i} of shape {list(shape)}")
        else:
            known *= s
    if -1 in shape:
        if known == 0:
            if numel == 0:
                raise RuntimeError(
                    f"cannot reshape tensor of 0 elements into shape {list(shape)} because the "
                    "unspecified dimension size -1 can be any value and is ambiguous"
                )
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        if numel % known:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        return tuple(numel // known if s == -1 else s for s in shape)
    if known != numel:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return shape


def slice_layout(layout: Layout, dim: int, start: int, stop: int, step: int) -> Layout:
    """Elements start, start+step, ... (< stop) of ``dim``; start/stop already within [0, size]."""
    shape, strides, offset = list(layout[0]), list(layout[1]), layout[2]
    offset += start * strides[dim]
    shape[dim] = max(0, (stop - start + step - 1) // step)
    strides[dim] *= step
    return tuple(shape), tuple(strides), offset


def select_layout(layout: Layout, dim: int, index: int) -> Layout:
    """Fix ``dim`` at ``index`` (non-negative): move the offset there and drop the dim."""
    shape, strides, offset = layout
    offset += index * strides[dim]
    return shape[:dim] + shape[dim + 1 :], strides[:dim] + strides[dim + 1 :], offset


def unsqueeze_layout(layout: Layout, dim: int) -> Layout:
    """Insert a size-1 dim before ``dim``, with torch's choice of stride for it."""
    shape, strides, offset = layout
    stride = 1 if dim >= len(shape) else shape[dim] * strides[dim]
    return (*shape[:dim], 1, *shape[dim:]), (*strides[:dim], stride, *strides[dim:]), offset


def diagonal_layout(layout: Layout, offset: int, dim1: int, dim2: int) -> Layout:
    """Elements (i, i + offset) of dims (dim1, dim2) as a new last dim of stride s1 + s2."""
    shape, strides, start = layout
    if offset >= 0:
        length = max(min(shape[dim1], shape[dim2] - offset), 0)
        step_in = offset * strides[dim2]
    else:
        length = max(min(shape[dim1] + offset, shape[dim2]), 0)
        step_in = -offset * strides[dim1]
    if length > 0:
        start += step_in
    keep = [d for d in range(len(shape)) if d not in (dim1, dim2)]
    return (
        (*(shape[d] for d in keep), length),
        (*(strides[d] for d in keep), strides[dim1] + strides[dim2]),
        start,
    )


def unfold_layout(layout: Layout, dim: int, size: int, step: int) -> Layout:
    """Windows of ``size`` elements every ``step`` along ``dim``: ``dim`` now counts windows (its
    stride times ``step``), and a new last dim walks inside a window (``dim``'s old stride)."""
    shape, strides, offset = layout
    windows = (shape[dim] - size) // step + 1
    return (
        (*shape[:dim], windows, *shape[dim + 1 :], size),
        (*strides[:dim], strides[dim] * step, *strides[dim + 1 :], strides[dim]),
        offset,
    )


def expand_layout(x: Tensor, sizes: tuple) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Shape and strides of ``x.expand(*sizes)``: every dim that is stretched gets stride 0.

    Sizes line up on the right (as in broadcasting), so the layout is built from the right:
    ``zip`` of the reversed sizes and x's reversed dims stops where x's dims run out. A new
    leading dim of size 1 gets the stride a contiguous-looking layout would give it (size *
    stride of the dim after it), like torch. Going right to left also makes the rightmost bad
    size decide the error, as in torch.
    """
    x_shape, x_strides = x._data.shape, x.stride()
    leading = len(sizes) - len(x_shape)
    if leading < 0:
        raise RuntimeError(
            f"expand(tensorlab.{x.dtype.name}{{{list(x_shape)}}}, size={list(sizes)}): the number "
            f"of sizes provided ({len(sizes)}) must be greater or equal to the number of "
            f"dimensions in the tensor ({len(x_shape)})"
        )
    shape: list[int] = []  # right to left; reversed at the end
    strides: list[int] = []
    for size, have, stride in zip(reversed(sizes), reversed(x_shape), reversed(x_strides), strict=False):
        if size == have or size == -1:  # x's own dim: same size (or -1) keeps its stride
            shape.append(have)
            strides.append(stride)
        elif have == 1:  # stretched: every index reads the one element
            shape.append(size)
            strides.append(0)
        else:
            raise RuntimeError(
                f"The expanded size of the tensor ({size}) must match the existing size ({have}) "
                f"at non-singleton dimension {len(sizes) - 1 - len(shape)}.  Target sizes: "
                f"{list(sizes)}.  Tensor sizes: {list(x_shape)}"
            )
    for d in range(leading - 1, -1, -1):  # new leading dims: stride 0, but size 1 continues the layout
        if sizes[d] < 0:
            raise RuntimeError(
                f"The expanded size of the tensor ({sizes[d]}) isn't allowed in a leading, "
                f"non-existing dimension {d}"
            )
        strides.append(shape[-1] * strides[-1] if sizes[d] == 1 and x_shape else 0)
        shape.append(sizes[d])
    shape.reverse()
    strides.reverse()
    return tuple(shape), tuple(strides)
