"""Padding (torch.nn.functional.pad): constant, reflect, replicate and circular, as one idea.

Every padding mode is a *copy*: each output element is some input element (or, for
``'constant'``, the fill value). So per padded dim we compute an index vector, "output position
-> input position it copies" (-1 for the fill value), by padding ``arange(size)`` with NumPy's
matching mode. Forward takes along those indices; backward adds each output gradient back to the
input position it was copied from (reflect and replicate copy some positions several times, so
their gradients sum). Negative padding crops.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Literal

import numpy as np

from .._dtype import int64
from .._tensor import Tensor
from ..autograd.function import Function, FunctionCtx

__all__ = ["pad"]

NUMPY_MODES: dict[str, Literal["reflect", "edge", "wrap"]] = {"reflect": "reflect", "replicate": "edge", "circular": "wrap"}


def source_index(size: int, before: int, after: int, mode: str) -> np.ndarray:
    """For each output position along one dim, the input position it copies (-1: the fill value)."""
    kept = np.arange(size)[max(-before, 0) : size - max(-after, 0)]  # negative padding crops
    grow = (max(before, 0), max(after, 0))
    if mode == "constant":
        return np.pad(kept, grow, constant_values=-1)
    return np.pad(kept, grow, mode=NUMPY_MODES[mode])


class Pad(Function):
    """y = x copied through one index vector per padded dim. Backward: add grads back to their sources."""

    backward_name = "ConstantPadNdBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, indices: dict, value: float) -> Tensor:
        y = x._data
        for axis, index in indices.items():
            y = np.take(y, np.maximum(index, 0), axis=axis)
            if (index < 0).any():
                fill_region = tuple(index < 0 if a == axis else slice(None) for a in range(y.ndim))
                y[fill_region] = value
        ctx.indices, ctx.input_shape = indices, x.shape
        return Tensor._from_array(y, x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        g = grad  # tensor ops (index_select, index_add), so double backward works
        for axis, index in reversed(ctx.indices.items()):
            copied = np.flatnonzero(index >= 0)  # fill values came from nowhere
            shape = list(g.shape)
            shape[axis] = ctx.input_shape[axis]
            summed = Tensor._from_array(np.zeros(shape, g.dtype.numpy), g.dtype)
            sources = g.index_select(axis, Tensor._from_array(copied.astype(np.int64), int64))
            g = summed.index_add(axis, Tensor._from_array(index[copied].astype(np.int64), int64), sources)
        return g, None, None


@cache
def _node_class(mode: str, dims: int) -> type[Function]:
    """torch names the node after the mode and the number of padded dims (ReflectionPad2DBackward0)."""
    if mode == "constant":
        return Pad
    stem = {"reflect": "ReflectionPad", "replicate": "ReplicationPad", "circular": "CircularPad"}[mode]
    return type(f"{stem}{dims}d", (Pad,), {"backward_name": f"{stem}{dims}DBackward0"})


def pad(input: Tensor, pad: Any, mode: str = "constant", value: float | None = None) -> Tensor:  # noqa: A002
    """Pad the last ``len(pad) // 2`` dims: ``pad = (left, right, top, bottom, ...)``, last dim first."""
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    dims = len(pad) // 2
    if dims > input.ndim:
        raise RuntimeError(
            f"Padding length should be less than or equal to two times the input dimension but got padding "
            f"length {len(pad)} and input of dimension {input.ndim}"
        )
    if mode not in ("constant", *NUMPY_MODES):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if mode != "constant":
        if value is not None and value != 0:
            raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
        if input.ndim not in (dims + 1, dims + 2):
            raise NotImplementedError(
                f"Padding size {len(pad)} is not supported for {input.ndim}D input tensor."
            )
    indices = {}
    for i in range(dims):
        axis = input.ndim - 1 - i
        before, after = int(pad[2 * i]), int(pad[2 * i + 1])
        if mode == "reflect" and (before >= input.shape[axis] or after >= input.shape[axis]):
            raise RuntimeError(
                f"Argument #4: Padding size should be less than the corresponding input dimension, but got: "
                f"padding ({before}, {after}) at dimension {axis} of input {list(input.shape)}"
            )
        indices[axis] = source_index(input.shape[axis], before, after, mode)
    return _node_class(mode, dims).apply(input, indices, 0.0 if value is None else value)
