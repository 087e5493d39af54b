"""Picking elements by storage position: the one copy behind every "read these elements" op.

A view can only describe elements that sit in a strided pattern. Advanced indexing, ``take``,
``masked_select``, ``flip``, ``roll``, ``repeat``, ``gather`` and ``index_select`` read elements
in *any* pattern, so each computes the storage position of every element it reads,

    position = storage_offset + sum over dims d of coordinate_d * stride_d       (:func:`positions_at`)

and copies them (:class:`PickElements`). Those ops differ only in how they choose the
coordinates. Backward sends each gradient element back to the position it was read from,
adding up elements read several times (:class:`SumInto`); :class:`PutElements` is the write
direction (``x[index] = v``).

The positions are a *function of the layout* (:data:`PositionMap`), not fixed numbers, so
backward can apply the same rule to a contiguous tensor of the input's shape.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .._storage import contiguous_strides
from .._tensor import Tensor
from ..autograd.function import Function, FunctionCtx
from .broadcasting import sum_to_shape
from .layouts import Layout, layout_of

__all__: list[str] = []

PositionMap = Callable[[Layout], np.ndarray]  # layout of x -> storage position of each output element


def positions_at(coordinates: Sequence[Any], strides: Sequence[int], offset: int) -> np.ndarray:
    """offset + sum_d coordinates[d] * strides[d], the coordinate arrays broadcast together.

    The strided-view formula applied to arrays of coordinates instead of one multi-index. With an
    open grid of ``arange(size)`` per dim (``np.ix_``) it is ``_storage.storage_positions``; an op
    that reads elsewhere changes some coordinates (flip reverses one ``arange``, gather puts the
    index values in place of one).
    """
    positions = np.asarray(offset, dtype=np.int64)
    for coords, stride in zip(coordinates, strides, strict=True):
        positions = positions + np.asarray(coords, dtype=np.int64) * stride
    return positions


def contiguous_layout(shape: tuple) -> Layout:
    """The layout of a fresh row-major tensor of ``shape``: where backward applies a PositionMap."""
    return tuple(shape), contiguous_strides(shape), 0


class PickElements(Function):
    """y[b] = storage[positions(x's layout)[b]]: a copy; an element may be picked many times.

    dy/dx: every gradient element goes back to the element it was picked from; elements picked
    several times get the *sum* (:class:`SumInto`, like ``index_put_`` with accumulate=True).
    """

    backward_name = "IndexBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, positions: PositionMap) -> Tensor:
        ctx.input_shape, ctx.positions = x.shape, positions
        return Tensor._from_array(np.take(x._storage.array, positions(layout_of(x))), x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        return SumInto.apply(grad, ctx.input_shape, ctx.positions), None


class SumInto(Function):
    """z = zeros(shape); z[positions] += g, repeated positions adding up. dz/dg: pick them again."""

    backward_name = "IndexPutBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, g: Tensor, shape: tuple, positions: PositionMap) -> Tensor:
        ctx.positions = positions
        flat = np.zeros(math.prod(shape), dtype=g.dtype.numpy)
        np.add.at(flat, positions(contiguous_layout(shape)), g._data)  # add.at: repeats accumulate
        return Tensor._from_array(flat.reshape(shape), g.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        return PickElements.apply(grad, ctx.positions), None, None


class PutElements(Function):
    """y = x with y[positions] = v (v broadcast): what ``x[index] = v`` computes.

    dy/dx: the gradient with the written positions zeroed (those values were overwritten);
    dy/dv: the gradient picked at the written positions (summed back over broadcast dims).
    """

    backward_name = "IndexPutBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, value: Any, positions: PositionMap) -> Tensor:
        ctx.positions = positions
        ctx.value_shape = value._data.shape if isinstance(value, Tensor) else ()
        out = np.array(x._data, order="C")
        where = positions(contiguous_layout(x.shape))
        out.reshape(-1)[where] = np.broadcast_to(value._data if isinstance(value, Tensor) else value, where.shape)
        return Tensor._from_array(out, x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        grad_x = PutElements.apply(grad, 0, ctx.positions) if ctx.needs_input_grad[0] else None
        needs_value = ctx.needs_input_grad[1]
        grad_value = sum_to_shape(PickElements.apply(grad, ctx.positions), ctx.value_shape) if needs_value else None
        return grad_x, grad_value, None
