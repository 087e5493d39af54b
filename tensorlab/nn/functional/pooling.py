"""Pooling as functions: max_pool1d/2d and avg_pool1d/2d, a max or mean over sliding windows;
adaptive_avg_pool2d, a mean over bins chosen so the output has a given size.

The windows are the same strided view convolution uses (``ops/windows.py``); the ops live in
``ops/pooling.py``, and this module gives them their torch.nn.functional names (nn.MaxPool*,
nn.AvgPool*).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..._tensor import Tensor
from ...autograd.function import Function, FunctionCtx
from ...ops.pooling import avg_pool1d, avg_pool2d, max_pool1d, max_pool2d
from ...ops.windows import first_order_only

__all__ = ["adaptive_avg_pool2d", "avg_pool1d", "avg_pool2d", "max_pool1d", "max_pool2d"]


def adaptive_bins(in_size: int, out_size: int) -> list[tuple[int, int]]:
    """torch's rule for output bin i: input[floor(i * in / out) : ceil((i + 1) * in / out)].

    When ``in_size`` is not a multiple of ``out_size`` the bins have unequal widths and
    neighbouring bins may overlap by one element, so every input element is used.
    """
    return [(math.floor(i * in_size / out_size), math.ceil((i + 1) * in_size / out_size)) for i in range(out_size)]


class AdaptiveAvgPool2d(Function):
    """y[..., i, j] = mean of x over bin (i, j). Backward: each bin's gradient is shared equally
    by its elements (an element in two overlapping bins gets a share from both)."""

    backward_name = "AdaptiveAvgPool2DBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, out_size: tuple[int, int]) -> Tensor:
        rows, cols = adaptive_bins(x.shape[-2], out_size[0]), adaptive_bins(x.shape[-1], out_size[1])
        y = np.empty((*x.shape[:-2], *out_size), dtype=x.dtype.numpy)
        for i, (top, bottom) in enumerate(rows):
            for j, (left, right) in enumerate(cols):
                y[..., i, j] = x._data[..., top:bottom, left:right].mean(axis=(-2, -1))
        ctx.bins, ctx.input_shape = (rows, cols), tuple(x.shape)
        return Tensor._from_array(y, x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        rows, cols = ctx.bins
        grad_x = np.zeros(ctx.input_shape, dtype=grad.dtype.numpy)
        for i, (top, bottom) in enumerate(rows):
            for j, (left, right) in enumerate(cols):
                share = grad._data[..., i, j] / ((bottom - top) * (right - left))
                grad_x[..., top:bottom, left:right] += share[..., None, None]
        return (*first_order_only("adaptive_avg_pool2d", (Tensor._from_array(grad_x, grad.dtype),), grad), None)


def adaptive_avg_pool2d(input: Tensor, output_size: Any) -> Tensor:  # noqa: A002
    """Average (N, C, H, W) or (C, H, W) input down (or up) to ``output_size`` whatever H and W
    are: the layer that lets a CNN accept images of any size. ``None`` in output_size keeps
    that input dim."""
    if input.ndim not in (3, 4) or 0 in input.shape[-2:]:
        raise RuntimeError(f"adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got {list(input.shape)}")
    sizes = tuple(output_size) if isinstance(output_size, (tuple, list)) else (output_size, output_size)
    if len(sizes) != 2:
        raise RuntimeError("adaptive_avg_pool2d: output_size must be 2")
    out_size = (sizes[0] if sizes[0] is not None else input.shape[-2], sizes[1] if sizes[1] is not None else input.shape[-1])
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"adaptive_avg_pool2d\" not implemented for '{input.dtype.scalar_type}'")
    return AdaptiveAvgPool2d.apply(input, out_size)
