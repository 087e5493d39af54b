"""Pooling: max_pool1d/2d and avg_pool1d/2d, a max or a mean over sliding windows.

The windows are the strided view of ``windows.py`` (:func:`~.windows.sliding_windows`), reduced
over their kernel dims. Backward sends the gradient back through the adjoint,
:func:`~.windows.add_windows_back`: max pooling to the element that won each window, average
pooling in equal shares to every element the window counted.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._dtype import int64
from .._tensor import Tensor
from ..autograd.function import Function, FunctionCtx
from .windows import (
    Pads,
    add_windows_back,
    check_batched,
    crop_spatial,
    first_order_only,
    ntuple,
    pad_spatial,
    sliding_windows,
)

__all__ = ["avg_pool1d", "max_pool1d", "max_pool2d"]


# --- pooling ----------------------------------------------------------------------------------
def _pool_geometry(spatial: tuple, kernel: tuple, stride: tuple, padding: tuple, dilation: tuple, ceil_mode: bool) -> tuple:
    """Output size per dim, and the (before, after) padding that makes every window fit.

    With ``ceil_mode`` a last, partial window is kept if it starts inside the input (or the left
    padding); it reads past the padded input, so extra padding is added on the right.
    """
    out, pads = [], []
    for size, k, st, p, d in zip(spatial, kernel, stride, padding, dilation, strict=True):
        span = size + 2 * p - d * (k - 1) - 1
        n = (-(-span // st) if ceil_mode else span // st) + 1
        if ceil_mode and (n - 1) * st >= size + p:
            n -= 1
        out.append(n)
        pads.append((p, max(p, (n - 1) * st + d * (k - 1) + 1 - size - p)))
    return tuple(out), tuple(pads)


def _check_pool(name: str, x: Tensor, n: int, kernel: tuple, stride: tuple, padding: tuple, dilation: tuple, out: tuple) -> None:
    for k, p, d in zip(kernel, padding, dilation, strict=True):
        if p > (d * (k - 1) + 1) // 2 if name.startswith("max") else p > k // 2:
            if name == "max_pool1d":
                raise RuntimeError(
                    f"max_pool1d() padding should be at most half of kernel size, but got padding={p} and kernel_size={k}"
                )
            if name.startswith("max"):
                raise RuntimeError(
                    f"pad should be at most half of effective kernel size, but got pad={p}, kernel_size={k} and dilation={d}"
                )
            raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={p}, kernel_size={k} and dilation=1")
    if any(s <= 0 for s in stride) or any(k <= 0 for k in kernel):
        raise RuntimeError(f"{name}(): stride and kernel size must be greater than zero")
    if any(o <= 0 for o in out):
        sizes = "x".join(str(s) for s in x.shape[1:])
        got = "x".join(str(s) for s in (x.shape[1], *out))
        raise RuntimeError(f"Given input size: ({sizes}). Calculated output size: ({got}). Output size is too small")


class MaxPool(Function):
    """y = max over each window (padding never wins). Backward: the gradient goes to the argmax of each window."""

    backward_name = "MaxPool2DWithIndicesBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, kernel: tuple, stride: tuple, pads: Pads, dilation: tuple) -> tuple:
        lowest = -np.inf if x.dtype.is_floating_point else np.iinfo(x.dtype.numpy).min
        xp = pad_spatial(x._data, pads, lowest)
        windows = sliding_windows(xp, kernel, stride, dilation)
        n_sp = len(kernel)
        flat = windows.reshape(*windows.shape[: 2 + n_sp], -1)  # (N, C, *out, K)
        nan_first = np.where(np.isnan(flat), np.inf, flat) if x.dtype.is_floating_point else flat
        winner = np.argmax(nan_first, axis=-1)  # first max, as torch; NaN wins
        values = np.take_along_axis(flat, winner[..., None], axis=-1)[..., 0]
        ctx.winner, ctx.geometry = winner, (kernel, stride, pads, dilation, xp.shape)
        ctx.input_spatial = tuple(x.shape[2:])
        indices = _flat_input_index(winner, kernel, stride, pads, dilation, tuple(x.shape[2:]))
        out = Tensor._from_array(values, x.dtype)
        idx = Tensor._from_array(indices, int64)
        ctx.mark_non_differentiable(idx)
        return out, idx

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor, grad_indices: Any = None) -> tuple:
        kernel, stride, pads, dilation, padded_shape = ctx.geometry
        windows = np.zeros((*grad.shape, math.prod(kernel)), grad.dtype.numpy)
        np.put_along_axis(windows, ctx.winner[..., None], grad._data[..., None], axis=-1)
        windows = windows.reshape(*grad.shape, *kernel)
        dxp = add_windows_back(windows, padded_shape[2:], stride, dilation)
        grad_x = Tensor._from_array(np.ascontiguousarray(crop_spatial(dxp, pads, ctx.input_spatial)), grad.dtype)
        return first_order_only("max_pool", (grad_x,), grad) + (None,) * 4


def _flat_input_index(winner: np.ndarray, kernel: tuple, stride: tuple, pads: Pads, dilation: tuple, spatial: tuple) -> np.ndarray:
    """The position (row-major over the input's spatial dims) each window's max came from."""
    n_sp = len(kernel)
    offsets = np.unravel_index(winner, kernel)
    flat = np.zeros(winner.shape, np.int64)
    for d in range(n_sp):
        window_start = np.arange(winner.shape[2 + d]).reshape((-1,) + (1,) * (n_sp - 1 - d)) * stride[d] - pads[d][0]
        position = window_start + offsets[d] * dilation[d]
        flat = flat * spatial[d] + position
    return flat


def _max_pool(name: str, n: int, x: Tensor, kernel_size: Any, stride: Any, padding: Any, dilation: Any, ceil_mode: bool, return_indices: bool) -> Any:
    batched = check_batched(x, n, name)
    if not batched:
        x = x.reshape(1, *x.shape)
    if not x.dtype.is_floating_point and name == "max_pool1d":
        raise NotImplementedError(f"\"max_pool1d_impl\" not implemented for '{x.dtype.scalar_type}'")
    kernel = ntuple(kernel_size, n)
    stride_t = kernel if stride is None or stride == [] or stride == () else ntuple(stride, n)
    padding_t, dilation_t = ntuple(padding, n), ntuple(dilation, n)
    out, pads = _pool_geometry(tuple(x.shape[2:]), kernel, stride_t, padding_t, dilation_t, ceil_mode)
    _check_pool(name, x, n, kernel, stride_t, padding_t, dilation_t, out)
    values, indices = MaxPool.apply(x, kernel, stride_t, pads, dilation_t)
    if not batched:
        values, indices = values.reshape(*values.shape[1:]), indices.reshape(*indices.shape[1:])
    return (values, indices) if return_indices else values


def max_pool1d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1, ceil_mode: bool = False, return_indices: bool = False) -> Any:  # noqa: A002
    """Max over sliding 1-d windows of (N, C, L) or (C, L) input; with return_indices also where each max was."""
    return _max_pool("max_pool1d", 1, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices)


def max_pool2d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1, ceil_mode: bool = False, return_indices: bool = False) -> Any:  # noqa: A002
    """Max over sliding 2-d windows of (N, C, H, W) or (C, H, W) input."""
    return _max_pool("max_pool2d", 2, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices)


class AvgPool(Function):
    """y = sum of each window / divisor. Backward: each window element receives grad / divisor."""

    backward_name = "AvgPool2DBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, kernel: tuple, stride: tuple, pads: Pads, padding: tuple, count_include_pad: bool, divisor_override: int | None) -> Tensor:
        xp = pad_spatial(x._data, pads)
        n_sp = len(kernel)
        kernel_axes = tuple(range(-n_sp, 0))
        sums = sliding_windows(xp, kernel, stride, (1,) * n_sp).sum(axis=kernel_axes)
        divisor = _avg_divisor(tuple(x.shape[2:]), kernel, stride, pads, padding, count_include_pad, divisor_override)
        if x.dtype.is_floating_point:
            y = (sums / divisor).astype(x.dtype.numpy)
        else:  # integer average: the quotient rounded toward zero (C division), as torch does
            y = np.sign(sums) * (np.abs(sums) // divisor.astype(sums.dtype))
        ctx.divisor, ctx.geometry = divisor, (kernel, stride, pads, xp.shape, tuple(x.shape[2:]))
        return Tensor._from_array(y, x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        kernel, stride, pads, padded_shape, spatial = ctx.geometry
        share = (grad._data / ctx.divisor).astype(grad.dtype.numpy)
        windows = np.broadcast_to(share.reshape(*share.shape, *(1,) * len(kernel)), (*share.shape, *kernel))
        dxp = add_windows_back(windows, padded_shape[2:], stride, (1,) * len(kernel))
        grad_x = Tensor._from_array(np.ascontiguousarray(crop_spatial(dxp, pads, spatial)), grad.dtype)
        return first_order_only("avg_pool", (grad_x,), grad) + (None,) * 6


def _avg_divisor(spatial: tuple, kernel: tuple, stride: tuple, pads: Pads, padding: tuple, count_include_pad: bool, divisor_override: int | None) -> np.ndarray:
    """How many elements each window averages: it counts the padding (or not), never the ceil_mode overflow."""
    n_sp = len(kernel)
    counted = np.ones((1, 1, *spatial))
    if count_include_pad:
        counted = np.pad(counted, ((0, 0), (0, 0), *((p, p) for p in padding)), constant_values=1)
        extra = tuple((0, after - p) for (_, after), p in zip(pads, padding, strict=True))
    else:
        extra = pads
    counted = pad_spatial(counted, extra)
    counts = sliding_windows(counted, kernel, stride, (1,) * n_sp).sum(axis=tuple(range(-n_sp, 0)))[0, 0]
    if divisor_override:
        return np.full(counts.shape, float(divisor_override))
    return counts


def _avg_pool(name: str, n: int, x: Tensor, kernel_size: Any, stride: Any, padding: Any, ceil_mode: bool, count_include_pad: bool, divisor_override: int | None) -> Tensor:
    batched = check_batched(x, n, name)
    if not batched:
        x = x.reshape(1, *x.shape)
    kernel = ntuple(kernel_size, n)
    stride_t = kernel if stride is None or stride == [] or stride == () else ntuple(stride, n)
    padding_t = ntuple(padding, n)
    out, pads = _pool_geometry(tuple(x.shape[2:]), kernel, stride_t, padding_t, (1,) * n, ceil_mode)
    _check_pool(name, x, n, kernel, stride_t, padding_t, (1,) * n, out)
    if not x.dtype.is_floating_point and x.dtype.name != "int64":  # torch's CPU kernel: floats and int64
        raise NotImplementedError(f"\"avg_pool2d\" not implemented for '{x.dtype.scalar_type}'")
    y = AvgPool.apply(x, kernel, stride_t, pads, padding_t, count_include_pad, divisor_override)
    return y if batched else y.reshape(*y.shape[1:])


def avg_pool1d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False, count_include_pad: bool = True) -> Tensor:  # noqa: A002
    """Mean over sliding 1-d windows of (N, C, L) or (C, L) input."""
    return _avg_pool("avg_pool1d", 1, input, kernel_size, stride, padding, ceil_mode, count_include_pad, None)


def avg_pool2d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False, count_include_pad: bool = True, divisor_override: int | None = None) -> Tensor:  # noqa: A002
    """Mean over sliding 2-d windows of (N, C, H, W) or (C, H, W) input."""
    return _avg_pool("avg_pool2d", 2, input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)
