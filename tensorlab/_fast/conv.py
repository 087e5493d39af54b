"""The convolution as ONE 2-D GEMM over the whole batch, with its big temporaries pooled.

The plain convolution (``ops.conv.Convolution``) multiplies the weight with each sample's
columns, ``(N, C*K, P)`` from ``windows.unfold_columns``: a batch of small products, and a result that
NumPy allocates fresh. Here the windows are copied once into a contiguous ``(C*K, N*P)`` matrix
(:func:`gemm_columns`), so forward, grad-input and grad-weight are each a single 2-D GEMM that
BLAS runs at full speed — no per-sample loop, no strided operand. The columns are big (K times
the input): they and the other large temporaries come from the buffer pool (``buffers``) and
go back to it, so a training loop does not page-fault in fresh memory for them on every step.
The values are the plain path's.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._tensor import Tensor
from ..autograd.function import FunctionCtx
from ..ops.windows import add_windows_back, crop_spatial, sliding_windows
from . import buffers


def gemm_columns(xp: np.ndarray, kernel: tuple, stride: tuple, dilation: tuple) -> tuple[np.ndarray, tuple]:
    """im2col for one GEMM: a contiguous (C*K, N*P) matrix from the pool, P = positions per sample.

    Row ``c*K + k`` holds element ``k`` of channel ``c``'s window at every position of every
    sample. Copying the strided windows in this order is cheap: the innermost loop runs along
    the input's contiguous last dim.
    """
    windows = sliding_windows(xp, kernel, stride, dilation)  # (N, C, *out, *K), a view
    n, c = xp.shape[:2]
    n_sp = len(kernel)
    out = windows.shape[2 : 2 + n_sp]
    channel_kernel_first = windows.transpose(1, *range(2 + n_sp, 2 + 2 * n_sp), 0, *range(2, 2 + n_sp))
    cols = buffers.empty((c * math.prod(kernel), n * math.prod(out)), xp.dtype)
    np.copyto(cols.reshape(channel_kernel_first.shape), channel_kernel_first)
    return cols, tuple(out)


def _batch_first(rows: np.ndarray, n: int, out: tuple, dt: Any) -> Tensor:
    """(O, N*P) -> a contiguous (N, O, *out) tensor: the layout torch returns."""
    swapped = rows.reshape(rows.shape[0], n, *out).swapaxes(0, 1)
    return buffers.computed_into(swapped.shape, dt, lambda result: np.copyto(result, swapped))


def _channels_first(grad: np.ndarray) -> np.ndarray:
    """(N, O, *out) -> contiguous (O, N*P), the GEMM's layout (also materialises an expanded grad).

    A scratch array from the pool: give it back when done.
    """
    swapped = grad.swapaxes(0, 1)
    rows = buffers.empty((grad.shape[1], math.prod(grad.shape) // grad.shape[1]), grad.dtype)
    np.copyto(rows.reshape(swapped.shape), swapped)
    return rows


def convolution_forward(ctx: FunctionCtx, xp: np.ndarray, weight: Tensor, bias: Tensor | None, kernel: tuple, stride: tuple, dilation: tuple, groups: int) -> Tensor:
    """Y = W @ cols as one (grouped) GEMM; keeps the pooled columns on ``ctx`` for backward."""
    n = xp.shape[0]
    cols, out = gemm_columns(xp, kernel, stride, dilation)  # (C*K, N*P)
    w = weight._data.reshape(groups, weight.shape[0] // groups, -1)  # (G, O/G, C/G*K)
    y = buffers.empty((weight.shape[0], cols.shape[1]), cols.dtype)  # (O, N*P)
    np.matmul(w, cols.reshape(groups, w.shape[2], cols.shape[1]), out=y.reshape(groups, w.shape[1], y.shape[1]))
    if bias is not None:
        y += bias._data[:, None]
    # kept as a tensor over a recycling storage: back to the pool when the graph dies
    ctx.gemm_cols = Tensor._from_array(cols, weight.dtype, storage=buffers.storage_for(cols))
    result = _batch_first(y, n, out, weight.dtype)
    buffers.give_back(y)
    return result


def convolution_backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
    """dW = dY @ cols^T and dcols = W^T @ dY (folded back), each one GEMM; db = dY summed.

    First order only: with create_graph=True, ``ops.conv`` takes its differentiable path instead."""
    x, weight = ctx.saved_tensors
    groups, o = ctx.geometry[3], grad.shape[1]
    out, kernel = tuple(grad.shape[2:]), tuple(weight.shape[2:])
    rows = _channels_first(grad._data)  # (O, N*P), scratch
    g = rows.reshape(groups, o // groups, rows.shape[1])  # (G, O/G, N*P)
    w = weight._data.reshape(groups, o // groups, -1)  # (G, O/G, C/G*K)
    grad_x = grad_w = grad_b = None
    if ctx.needs_input_grad[0]:
        grad_x = _fold_input_grad(w, g, ctx.geometry, tuple(x.shape), out, kernel, x.dtype)
    if ctx.needs_input_grad[1]:
        cols = ctx.gemm_cols._data.reshape(groups, w.shape[2], ctx.gemm_cols.shape[1])  # (G, C/G*K, N*P)
        dw = np.matmul(g, cols.transpose(0, 2, 1))  # (G, O/G, C/G*K): one GEMM
        grad_w = Tensor._from_array(dw.reshape(weight.shape), weight.dtype)
    if ctx.has_bias and ctx.needs_input_grad[2]:
        grad_b = Tensor._from_array(g.sum(axis=2).reshape(o), grad.dtype)
    del g  # a view of ``rows``: the pool takes rows back only when nothing else sees it
    buffers.give_back(rows)
    return grad_x, grad_w, grad_b, None, None, None, None


def _fold_input_grad(w: np.ndarray, g: np.ndarray, geometry: tuple, x_shape: tuple, out: tuple, kernel: tuple, dt: Any) -> Tensor:
    """dX of a convolution: dcols = W^T @ dY (one GEMM), folded back onto the input (col2im)."""
    stride, pads, dilation, _, padded_shape = geometry
    channels, n, n_sp = x_shape[1], x_shape[0], len(kernel)
    dcols = buffers.empty((channels * math.prod(kernel), g.shape[2]), g.dtype)
    np.matmul(w.transpose(0, 2, 1), g, out=dcols.reshape(g.shape[0], dcols.shape[0] // g.shape[0], g.shape[2]))  # (G, C/G*K, N*P)
    as_windows = dcols.reshape(channels, *kernel, n, *out)  # (C, *K, N, *out)
    windows = as_windows.transpose(1 + n_sp, 0, *range(2 + n_sp, 2 + 2 * n_sp), *range(1, 1 + n_sp))
    dxp = add_windows_back(windows, padded_shape[2:], stride, dilation, out=buffers.empty(padded_shape, g.dtype))
    del as_windows, windows  # views of ``dcols``, which goes back to the pool
    buffers.give_back(dcols)
    if tuple(padded_shape) == x_shape:  # no padding to crop: the folded array is the gradient
        return Tensor._from_array(dxp, dt, storage=buffers.storage_for(dxp))
    grad_x = Tensor._from_array(np.ascontiguousarray(crop_spatial(dxp, pads, x_shape[2:])), dt)
    buffers.give_back(dxp)
    return grad_x
