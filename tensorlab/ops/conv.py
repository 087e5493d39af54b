"""Convolution and its transpose, as torch.nn.functional has them (conv1d/2d, conv_transpose1d/2d).

A convolution is two steps:

1. **unfold** (im2col, ``windows.py``): the windows of the zero-padded input as columns,
   ``(N, C*K, P)`` — a strided view copied once (:func:`~.windows.unfold_columns`);
2. **one matmul**: every window, flattened to ``C*K`` numbers, times the weight matrix
   ``(O, C*K)``. That product is where all the arithmetic happens (BLAS).

Its backward needs the adjoint of step 1, "fold" (col2im, :func:`~.windows.fold_columns`):
every window position adds its values back to the input elements it read. The transposed
convolution is exactly the backward-for-input of a convolution, so it is built from the same
two pieces in the other order. (The fast path, ``_fast/conv.py``, lays the columns out as one
``(C*K, N*L)`` matrix instead, for one GEMM.)

Double backward: when a graph is being built through a gradient (``create_graph=True``), the
backward rules are written again with tensorlab ops — :class:`~.windows.Unfold`,
:class:`~.windows.Fold`, matmul, sum — which are differentiable themselves (unfold and fold
are each other's backward), so second derivatives come out right, as in torch.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._fast import conv as fast_conv
from .._fast import switch as fast
from .._tensor import Tensor
from ..autograd.function import Function, FunctionCtx
from ..autograd.grad_mode import state
from .windows import (
    Fold,
    Index,
    Pads,
    Unfold,
    check_batched,
    crop_spatial,
    fold_columns,
    ntuple,
    pad_spatial,
    unfold_columns,
)

__all__ = ["conv1d", "conv2d", "conv_transpose1d", "conv_transpose2d"]


# --- argument handling (meta logic) -----------------------------------------------------------
def _conv_pads(padding: Any, n: int, kernel: tuple, stride: tuple, dilation: tuple) -> Pads:
    """Padding as (before, after) per spatial dim: ints, 'valid' (none) or 'same' (output size = input size)."""
    if isinstance(padding, str):
        if padding == "valid":
            return ((0, 0),) * n
        if padding != "same":
            raise RuntimeError(f"Invalid padding string: '{padding}'")
        if any(s != 1 for s in stride):
            raise RuntimeError("padding='same' is not supported for strided convolutions")
        totals = [d * (k - 1) for k, d in zip(kernel, dilation, strict=True)]
        return tuple((total // 2, total - total // 2) for total in totals)
    pads = ntuple(padding, n)
    if any(p < 0 for p in pads):
        raise RuntimeError("negative padding is not supported")
    return tuple((p, p) for p in pads)


def _check_conv(x: Tensor, weight: Tensor, bias: Tensor | None, groups: int, stride: tuple, n: int, transposed: bool) -> None:
    """torch's checks, in torch's order: weight dims, dtypes, stride, channels, bias."""
    if weight.ndim != n + 2:
        raise RuntimeError(f"weight should have at least {('three', 'four', 'five')[n - 1]} dimensions")
    if weight.dtype is not x.dtype:
        raise RuntimeError(f"expected scalar type {x.dtype.scalar_type} but found {weight.dtype.scalar_type}")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    if transposed:
        expected_channels, out_channels = weight.shape[0], weight.shape[1] * groups
    else:
        expected_channels, out_channels = weight.shape[1] * groups, weight.shape[0]
        if weight.shape[0] % groups:
            raise RuntimeError(
                f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, "
                f"but got weight of size {list(weight.shape)} instead"
            )
    if x.shape[1] != expected_channels:
        prefix = "transposed=1" if transposed else f"groups={groups}"
        raise RuntimeError(
            f"Given {prefix}, weight of size {list(weight.shape)}, expected input{list(x.shape)} to have "
            f"{expected_channels} channels, but got {x.shape[1]} channels instead"
        )
    if bias is not None and (bias.ndim != 1 or bias.shape[0] != out_channels):
        raise RuntimeError(
            f"Given weight of size {list(weight.shape)}, expected bias to be 1-dimensional with "
            f"{out_channels} elements, but got bias of size {list(bias.shape)} instead"
        )


# --- convolution ------------------------------------------------------------------------------
class Convolution(Function):
    """y[n, o, p] = b[o] + sum over c, k of w[o, c, k] * x_padded[n, c, p*stride + k*dilation].

    As matrices, per sample n and group: Y[n] = W @ cols[n], with W (O, C*K) and cols[n] (C*K, P)
    from :func:`unfold_columns`. Backward (:func:`convolution_grads`), one matmul each:
    dW = sum over n of dY[n] @ cols[n]^T, dcols[n] = W^T @ dY[n] (added back onto the input by
    ``Fold``), and db = dY summed over samples and positions. The fast path's one-GEMM version of
    both directions is in ``_fast/conv.py``.
    """

    backward_name = "ConvolutionBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, weight: Tensor, bias: Tensor | None, stride: tuple, pads: Pads, dilation: tuple, groups: int) -> Tensor:
        n, o, kernel = x.shape[0], weight.shape[0], tuple(weight.shape[2:])
        xp = pad_spatial(x._data, pads)
        effective = tuple(d * (k - 1) + 1 for k, d in zip(kernel, dilation, strict=True))
        if any(e > size for e, size in zip(effective, xp.shape[2:], strict=True)):
            sizes = " x ".join(str(s) for s in xp.shape[2:])
            raise RuntimeError(
                f"Calculated padded input size per channel: ({sizes}). Kernel size: "
                f"({' x '.join(str(e) for e in effective)}). Kernel size can't be greater than actual input size"
            )
        ctx.save_for_backward(x, weight)
        ctx.geometry = (stride, pads, dilation, groups, xp.shape)
        ctx.has_bias = bias is not None
        ctx.batch_as_one_matrix = fast.enabled  # backward takes the path forward took
        if ctx.batch_as_one_matrix:
            return fast_conv.convolution_forward(ctx, xp, weight, bias, kernel, stride, dilation, groups)
        cols, out = unfold_columns(xp, kernel, stride, dilation)  # (N, C*K, P)
        w = weight._data.reshape(groups, o // groups, -1)  # (G, O/G, C/G*K)
        y = np.matmul(w, cols.reshape(n, groups, w.shape[2], cols.shape[2]))  # (N, G, O/G, P): the matmul
        y = y.reshape(n, o, *out)
        if bias is not None:
            y = y + bias._data.reshape(o, *(1,) * len(out))
        return Tensor._from_array(y, x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        if ctx.batch_as_one_matrix and not building_graph(grad, *ctx.saved_tensors):
            return fast_conv.convolution_backward(ctx, grad)
        return convolution_grads(ctx, grad) + (None,) * 4


def building_graph(*tensors: Tensor) -> bool:
    """Is a backward being recorded (create_graph=True) through any of these tensors?"""
    return state.enabled and any(t.requires_grad for t in tensors)


def convolution_grads(ctx: FunctionCtx, grad: Tensor) -> tuple:
    """Convolution's backward: cols = unfold(x); dW = dY @ cols^T summed over samples;
    dX = fold(W^T @ dY); db = dY summed. Written in tensorlab ops, so with create_graph=True
    autograd records it (double backward) and otherwise it is simply computed."""
    x, weight = ctx.saved_tensors
    stride, pads, dilation, groups, _ = ctx.geometry
    n, o = grad.shape[:2]
    kernel, positions = tuple(weight.shape[2:]), math.prod(grad.shape[2:])
    g = grad.reshape(n, groups, o // groups, positions)  # (N, G, O/G, P)
    w = weight.reshape(groups, o // groups, -1)  # (G, O/G, C/G*K)
    grad_x = grad_w = grad_b = None
    if ctx.needs_input_grad[0]:
        dcols = (w.transpose(1, 2) @ g).reshape(n, groups * w.shape[2], positions)  # (N, C*K, P)
        grad_x = Fold.apply(dcols, tuple(x.shape[2:]), kernel, dilation, pads, stride)
    if ctx.needs_input_grad[1]:
        cols = Unfold.apply(x, kernel, dilation, pads, stride).reshape(n, groups, w.shape[2], positions)
        grad_w = (g @ cols.transpose(2, 3)).sum(0).reshape(weight.shape)
    if ctx.has_bias and ctx.needs_input_grad[2]:
        grad_b = grad.sum((0, *range(2, grad.ndim)))
    return grad_x, grad_w, grad_b


def _convolution(name: str, n: int, x: Tensor, weight: Tensor, bias: Tensor | None, stride: Any, padding: Any, dilation: Any, groups: int) -> Tensor:
    batched = check_batched(x, n, name)
    if not batched:
        x = x.reshape(1, *x.shape)
    stride_t, dilation_t = ntuple(stride, n), ntuple(dilation, n)
    _check_conv(x, weight, bias, groups, stride_t, n, transposed=False)
    pads = _conv_pads(padding, n, tuple(weight.shape[2:]), stride_t, dilation_t)
    y = Convolution.apply(x, weight, bias, stride_t, pads, dilation_t, groups)
    return y if batched else y.reshape(*y.shape[1:])


def conv1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1, padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:  # noqa: A002
    """1-d convolution (cross-correlation) of (N, C, L) or (C, L) input with an (O, C/groups, K) weight."""
    return _convolution("conv1d", 1, input, weight, bias, stride, padding, dilation, groups)


def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1, padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:  # noqa: A002
    """2-d convolution of (N, C, H, W) or (C, H, W) input with an (O, C/groups, kH, kW) weight."""
    return _convolution("conv2d", 2, input, weight, bias, stride, padding, dilation, groups)


# --- transposed convolution -------------------------------------------------------------------
class ConvolutionTranspose(Function):
    """The adjoint of a convolution in its input: each input element spreads ``x * w`` over a window.

    Per sample n and group: cols[n] = W^T @ X[n] (one matmul; W (C, O*K), X[n] (C, L)), then
    :func:`fold_columns` adds the windows onto the output (col2im). Backward: dY unfolded into
    columns (:func:`unfold_columns`), then dX[n] = W @ dcols[n] and dW = sum over n of X[n] @ dcols[n]^T.
    """

    backward_name = "ConvolutionBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, weight: Tensor, bias: Tensor | None, stride: tuple, pads: Pads, output_padding: tuple, groups: int, dilation: tuple) -> Tensor:
        n, c = x.shape[:2]
        spatial, kernel = tuple(x.shape[2:]), tuple(weight.shape[2:])
        w = weight._data.reshape(groups, c // groups, -1)  # (G, C/G, O/G*K)
        xg = x._data.reshape(n, groups, c // groups, math.prod(spatial))  # (N, G, C/G, L)
        cols = np.matmul(w.transpose(0, 2, 1), xg).reshape(n, w.shape[2] * groups, math.prod(spatial))  # (N, O*K, L)
        full = tuple(
            (size - 1) * st + d * (k - 1) + 1 + op
            for size, st, d, k, op in zip(spatial, stride, dilation, kernel, output_padding, strict=True)
        )
        y = fold_columns(cols, full, kernel, spatial, stride, dilation)  # (N, O, *full)
        out_spatial = tuple(f - before - after for f, (before, after) in zip(full, pads, strict=True))
        y = crop_spatial(y, pads, out_spatial)
        if bias is not None:
            y = y + bias._data.reshape(-1, *(1,) * len(spatial))
        ctx.save_for_backward(x, weight)
        ctx.geometry = (stride, pads, dilation, groups)
        ctx.has_bias = bias is not None
        return Tensor._from_array(np.ascontiguousarray(y), x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        x, weight = ctx.saved_tensors
        if building_graph(grad, x, weight):
            return transpose_grads_as_ops(ctx, grad) + (None,) * 5
        stride, pads, dilation, groups = ctx.geometry
        n, c = x.shape[:2]
        spatial, kernel = tuple(x.shape[2:]), tuple(weight.shape[2:])
        dcols, windows = unfold_columns(pad_spatial(grad._data, pads), kernel, stride, dilation)  # (N, O*K, windows)
        first: Index = (..., *(slice(0, s) for s in spatial))  # output_padding may leave extra windows
        per_group = dcols.shape[1] // groups
        dcols = dcols.reshape(n, groups, per_group, *windows)[first].reshape(n, groups, per_group, math.prod(spatial))  # (N, G, O/G*K, L)
        w = weight._data.reshape(groups, c // groups, -1)  # (G, C/G, O/G*K)
        grad_x = grad_w = grad_b = None
        if ctx.needs_input_grad[0]:
            dx = np.matmul(w, dcols)  # (N, G, C/G, L)
            grad_x = Tensor._from_array(dx.reshape(x.shape), x.dtype)
        if ctx.needs_input_grad[1]:
            xg = x._data.reshape(n, groups, c // groups, math.prod(spatial))  # (N, G, C/G, L)
            dw = np.matmul(xg, dcols.transpose(0, 1, 3, 2)).sum(axis=0)  # (G, C/G, O/G*K)
            grad_w = Tensor._from_array(dw.reshape(weight.shape), weight.dtype)
        if ctx.has_bias and ctx.needs_input_grad[2]:
            grad_b = Tensor._from_array(grad._data.sum(axis=(0, *range(2, grad.ndim))), grad.dtype)
        return grad_x, grad_w, grad_b, None, None, None, None, None


def transpose_grads_as_ops(ctx: FunctionCtx, grad: Tensor) -> tuple:
    """ConvolutionTranspose's backward in differentiable tensorlab ops (create_graph=True):
    dcols = unfold(dY) (first L windows), dX = W @ dcols, dW = X @ dcols^T summed over samples."""
    x, weight = ctx.saved_tensors
    stride, pads, dilation, groups = ctx.geometry
    n, c = x.shape[:2]
    spatial, kernel = tuple(x.shape[2:]), tuple(weight.shape[2:])
    w = weight.reshape(groups, c // groups, -1)  # (G, C/G, O/G*K)
    dcols = Unfold.apply(grad, kernel, dilation, pads, stride)  # (N, O*K, windows)
    windows = tuple(
        (size + b + a - d * (k - 1) - 1) // st + 1
        for size, (b, a), d, k, st in zip(grad.shape[2:], pads, dilation, kernel, stride, strict=True)
    )
    first: Index = (..., *(slice(0, s) for s in spatial))  # output_padding may leave extra windows
    dcols = dcols.reshape(n, groups, w.shape[2], *windows)[first].reshape(n, groups, w.shape[2], math.prod(spatial))
    grad_x = grad_w = grad_b = None
    if ctx.needs_input_grad[0]:
        grad_x = (w @ dcols).reshape(x.shape)
    if ctx.needs_input_grad[1]:
        xg = x.reshape(n, groups, c // groups, math.prod(spatial))
        grad_w = (xg @ dcols.transpose(2, 3)).sum(0).reshape(weight.shape)
    if ctx.has_bias and ctx.needs_input_grad[2]:
        grad_b = grad.sum((0, *range(2, grad.ndim)))
    return grad_x, grad_w, grad_b


def _conv_transpose(name: str, n: int, x: Tensor, weight: Tensor, bias: Tensor | None, stride: Any, padding: Any, output_padding: Any, groups: int, dilation: Any) -> Tensor:
    batched = check_batched(x, n, name)
    if not batched:
        x = x.reshape(1, *x.shape)
    stride_t, dilation_t, extra = ntuple(stride, n), ntuple(dilation, n), ntuple(output_padding, n)
    _check_conv(x, weight, bias, groups, stride_t, n, transposed=True)
    pads = _conv_pads(padding, n, tuple(weight.shape[2:]), stride_t, dilation_t)
    for op, st, d in zip(extra, stride_t, dilation_t, strict=True):
        if op >= st and op >= d:
            raise RuntimeError(
                f"output padding must be smaller than either stride or dilation, but got output_padding: "
                f"{op}, stride: {st}, dilation: {d}"
            )
    spatial, kernel = tuple(x.shape[2:]), tuple(weight.shape[2:])
    out = tuple(
        (size - 1) * st - b - a + d * (k - 1) + op + 1
        for size, st, (b, a), d, k, op in zip(spatial, stride_t, pads, dilation_t, kernel, extra, strict=True)
    )
    if any(o <= 0 for o in out):
        as_2d = (1,) * (2 - n)  # torch reports 1-d sizes as 2-d ones
        raise RuntimeError(
            f"Given input size per channel: ({' x '.join(map(str, as_2d + spatial))}). Calculated output size "
            f"per channel: ({' x '.join(map(str, as_2d + out))}). Output size is too small"
        )
    y = ConvolutionTranspose.apply(x, weight, bias, stride_t, pads, extra, groups, dilation_t)
    return y if batched else y.reshape(*y.shape[1:])


def conv_transpose1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1, padding: Any = 0, output_padding: Any = 0, groups: int = 1, dilation: Any = 1) -> Tensor:  # noqa: A002
    """Transposed 1-d convolution ("deconvolution"): the gradient of conv1d with respect to its input."""
    return _conv_transpose("conv_transpose1d", 1, input, weight, bias, stride, padding, output_padding, groups, dilation)


def conv_transpose2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1, padding: Any = 0, output_padding: Any = 0, groups: int = 1, dilation: Any = 1) -> Tensor:  # noqa: A002
    """Transposed 2-d convolution: the gradient of conv2d with respect to its input."""
    return _conv_transpose("conv_transpose2d", 2, input, weight, bias, stride, padding, output_padding, groups, dilation)
