"""Convolution, its transpose, im2col (unfold/fold) and pooling, as torch.nn.functional has them.

A convolution is two steps:

1. **unfold** (im2col): a strided *view* of the zero-padded input whose extra dims walk the
   kernel window — shape ``(N, C, *out, *kernel)``, no copy (:func:`sliding_windows`);
2. **one matmul**: every window, flattened to ``C*K`` numbers, times the weight matrix
   ``(O, C*K)``. That product is where all the arithmetic happens (BLAS).

Its backward needs the adjoint of step 1, "fold" (col2im, :func:`add_windows_back`): every
window position adds its values back to the input elements it read. The transposed convolution
is exactly the backward-for-input of a convolution, so it is built from the same two pieces in
the other order. Pooling reuses the windows: max or mean over the kernel dims.

As columns, the pair is :func:`unfold_columns` / :func:`fold_columns` (torch's ``(N, C*K, L)``
layout): F.unfold / F.fold, the convolution and its transpose all use it. (The fast path,
``_fast/conv.py``, lays the columns out as one ``(C*K, N*L)`` matrix instead, for one GEMM.)

Backward rules here compute with NumPy directly, so they are not themselves differentiable: with
``create_graph=True`` their gradients are usable, but differentiating them again raises a clear
error (:class:`NotTwiceDifferentiable`) instead of silently treating them as constants. Unfold
and fold are each other's backward, so those two do support double backward.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._dtype import int64
from .._fast import conv as fast_conv
from .._fast import switch as fast
from .._tensor import Tensor
from ..autograd.function import Function
from ..autograd.grad_mode import state

__all__ = ["avg_pool1d", "conv1d", "conv2d", "conv_transpose1d", "conv_transpose2d", "max_pool1d", "max_pool2d"]

Pads = tuple  # ((before, after), ...) per spatial dim


# --- the two primitives: windows (im2col) and their adjoint (col2im) --------------------------
def sliding_windows(x: np.ndarray, kernel: tuple, stride: tuple, dilation: tuple) -> np.ndarray:
    """A view of ``x`` (N, C, *spatial) with shape (N, C, *out, *kernel): window ``o``, element ``k``.

    Window ``o`` starts at ``o * stride`` and its ``k``-th element sits ``k * dilation`` further,
    so both new kinds of dims are just strides over the same memory: out-dims step by
    ``stride * s`` and kernel-dims by ``dilation * s``, where ``s`` is the spatial dim's stride.
    """
    spatial = x.shape[2:]
    out = tuple((size - d * (k - 1) - 1) // st + 1 for size, k, st, d in zip(spatial, kernel, stride, dilation, strict=True))
    steps = x.strides[2:]
    shape = x.shape[:2] + out + tuple(kernel)
    strides = x.strides[:2] + tuple(s * st for s, st in zip(steps, stride, strict=True)) + tuple(
        s * d for s, d in zip(steps, dilation, strict=True)
    )
    return np.lib.stride_tricks.as_strided(x, shape, strides, writeable=False)


def add_windows_back(windows: np.ndarray, spatial: tuple, stride: tuple, dilation: tuple, out: np.ndarray | None = None) -> np.ndarray:
    """The adjoint of :func:`sliding_windows`: sum every window element into the position it came from.

    ``windows`` has shape (N, C, *out, *kernel); the result (N, C, *spatial), written into
    ``out`` when given (any memory of that shape). One strided add per kernel offset: offset
    ``k`` of all windows covers positions ``k*dilation + o*stride``.
    """
    n_spatial = len(spatial)
    out_shape = windows.shape[2 : 2 + n_spatial]
    kernel = windows.shape[2 + n_spatial :]
    result = np.empty(windows.shape[:2] + tuple(spatial), windows.dtype) if out is None else out
    result.fill(0)
    for offset in np.ndindex(*kernel):
        target = tuple(
            slice(k * d, k * d + (o - 1) * st + 1, st)
            for k, d, o, st in zip(offset, dilation, out_shape, stride, strict=True)
        )
        result[(..., *target)] += windows[(..., *(slice(None),) * n_spatial, *offset)]
    return result


def _pad(x: np.ndarray, pads: Pads, value: Any = 0) -> np.ndarray:
    if not any(before or after for before, after in pads):
        return x
    return np.pad(x, ((0, 0), (0, 0), *pads), constant_values=value)


def _crop(x: np.ndarray, pads: Pads, spatial: tuple) -> np.ndarray:
    return x[(..., *(slice(before, before + size) for (before, _), size in zip(pads, spatial, strict=True)))]


# --- double backward: not supported, and said so ------------------------------------------------
class NotTwiceDifferentiable(Function):
    """Marks a gradient computed in NumPy when ``create_graph=True``: differentiating it raises.

    The backward rules in this file use NumPy directly, so they record no graph. Rather than
    hand back gradients that silently look constant, each one gets this node as its grad_fn
    (as torch's ``@once_differentiable`` does): first-order use works, a second backward fails.
    """

    backward_name = "DelayedError"

    @staticmethod
    def forward(ctx: Any, gradient: Tensor, op: str, *inputs: Tensor) -> Tensor:
        ctx.op = op
        return Tensor._from_array(gradient._data, gradient.dtype)

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> tuple:
        raise RuntimeError(
            f"trying to differentiate twice a function that was marked with @once_differentiable: "
            f"tensorlab's {ctx.op} backward is computed in NumPy, so double backward through it is not supported"
        )


def _first_order_only(op: str, grads: tuple, *inputs: Tensor | None) -> tuple:
    """``grads`` as they are, unless a graph is being built through them (then see NotTwiceDifferentiable)."""
    tensors = [t for t in inputs if t is not None]
    if not (state.enabled and any(t.requires_grad for t in tensors)):
        return grads
    return tuple(None if g is None else NotTwiceDifferentiable.apply(g, op, *tensors) for g in grads)


# --- argument handling (meta logic) -----------------------------------------------------------
def _ntuple(value: Any, n: int) -> tuple:
    if isinstance(value, (tuple, list)):
        return tuple(int(v) for v in value) if len(value) == n else tuple(int(value[0]) for _ in range(n))
    return (int(value),) * n


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
    pads = _ntuple(padding, n)
    if any(p < 0 for p in pads):
        raise RuntimeError("negative padding is not supported")
    return tuple((p, p) for p in pads)


def _batched(x: Tensor, n: int, name: str) -> bool:
    """Check the input has n+1 (unbatched) or n+2 (batched) dims; return whether it was batched."""
    if x.ndim not in (n + 1, n + 2):
        raise RuntimeError(
            f"Expected {n + 1}D (unbatched) or {n + 2}D (batched) input to {name}, but got input of size: {list(x.shape)}"
        )
    return x.ndim == n + 2


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


# --- im2col / col2im: the windows as columns, and back ------------------------------------------
def unfold_columns(xp: np.ndarray, kernel: tuple, stride: tuple, dilation: tuple) -> tuple[np.ndarray, tuple]:
    """im2col: the windows of the padded input as columns, (N, C*K, L) — F.unfold's layout.

    Row ``c*K + k`` holds element ``k`` of every window of channel ``c``; column ``l`` is one window.
    The reshape copies the strided view once; its inner loop runs along L, which is contiguous.
    """
    windows = sliding_windows(xp, kernel, stride, dilation)  # (N, C, *out, *K), a view
    n, c = xp.shape[:2]
    n_sp = len(kernel)
    out = windows.shape[2 : 2 + n_sp]
    kernel_first = windows.transpose(0, 1, *range(2 + n_sp, 2 + 2 * n_sp), *range(2, 2 + n_sp))
    return kernel_first.reshape(n, c * math.prod(kernel), math.prod(out)), tuple(out)


def fold_columns(cols: np.ndarray, spatial: tuple, kernel: tuple, out: tuple, stride: tuple, dilation: tuple) -> np.ndarray:
    """col2im, the adjoint of :func:`unfold_columns`: (N, C*K, L) columns added back onto an
    (N, C, *spatial) image, overlapping windows summing."""
    n_sp = len(kernel)
    channels = cols.shape[1] // math.prod(kernel)
    as_blocks = cols.reshape(cols.shape[0], channels, *kernel, *out)
    windows = as_blocks.transpose(0, 1, *range(2 + n_sp, 2 + 2 * n_sp), *range(2, 2 + n_sp))  # (N, C, *out, *K)
    return add_windows_back(windows, spatial, stride, dilation)


# --- convolution ------------------------------------------------------------------------------
class Convolution(Function):
    """y[n, o, p] = b[o] + sum over c, k of w[o, c, k] * x_padded[n, c, p*stride + k*dilation].

    As matrices, per sample n and group: Y[n] = W @ cols[n], with W (O, C*K) and cols[n] (C*K, P)
    from :func:`unfold_columns`. Backward, one matmul each: dW = sum over n of dY[n] @ cols[n]^T,
    dcols[n] = W^T @ dY[n] (added back onto the input by :func:`fold_columns`), and
    db = dY summed over samples and positions.
    """

    backward_name = "ConvolutionBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, weight: Tensor, bias: Tensor | None, stride: tuple, pads: Pads, dilation: tuple, groups: int) -> Tensor:
        n, o, kernel = x.shape[0], weight.shape[0], tuple(weight.shape[2:])
        xp = _pad(x._data, pads)
        effective = tuple(d * (k - 1) + 1 for k, d in zip(kernel, dilation, strict=True))
        if any(e > size for e, size in zip(effective, xp.shape[2:], strict=True)):
            sizes = ", ".join(str(s) for s in xp.shape[2:])
            raise RuntimeError(
                f"Calculated padded input size per channel: ({sizes}). Kernel size: "
                f"({', '.join(str(e) for e in effective)}). Kernel size can't be greater than actual input size"
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
        ctx.cols = cols
        return Tensor._from_array(y, x.dtype)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        if ctx.batch_as_one_matrix:
            return fast_conv.convolution_backward(ctx, grad)
        x, weight = ctx.saved_tensors
        stride, pads, dilation, groups, padded_shape = ctx.geometry
        n, o = grad.shape[:2]
        out, kernel = tuple(grad.shape[2:]), tuple(weight.shape[2:])
        g = grad._data.reshape(n, groups, o // groups, math.prod(out))  # (N, G, O/G, P)
        w = weight._data.reshape(groups, o // groups, -1)  # (G, O/G, C/G*K)
        grad_x = grad_w = grad_b = None
        if ctx.needs_input_grad[0]:
            dcols = np.matmul(w.transpose(0, 2, 1), g).reshape(n, ctx.cols.shape[1], g.shape[3])  # (N, C*K, P)
            dxp = fold_columns(dcols, padded_shape[2:], kernel, out, stride, dilation)
            grad_x = Tensor._from_array(np.ascontiguousarray(_crop(dxp, pads, tuple(x.shape[2:]))), x.dtype)
        if ctx.needs_input_grad[1]:
            cols = ctx.cols.reshape(n, groups, w.shape[2], g.shape[3])  # (N, G, C/G*K, P)
            dw = np.matmul(g, cols.transpose(0, 1, 3, 2)).sum(axis=0)  # (G, O/G, C/G*K)
            grad_w = Tensor._from_array(dw.reshape(weight.shape), weight.dtype)
        if ctx.has_bias and ctx.needs_input_grad[2]:
            grad_b = Tensor._from_array(g.sum(axis=(0, 3)).reshape(o), grad.dtype)
        return _first_order_only("convolution", (grad_x, grad_w, grad_b), grad, x, weight) + (None,) * 4


def _convolution(name: str, n: int, x: Tensor, weight: Tensor, bias: Tensor | None, stride: Any, padding: Any, dilation: Any, groups: int) -> Tensor:
    batched = _batched(x, n, name)
    if not batched:
        x = x.reshape(1, *x.shape)
    stride_t, dilation_t = _ntuple(stride, n), _ntuple(dilation, n)
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
    def forward(ctx: Any, x: Tensor, weight: Tensor, bias: Tensor | None, stride: tuple, pads: Pads, output_padding: tuple, groups: int, dilation: tuple) -> Tensor:
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
        y = _crop(y, pads, out_spatial)
        if bias is not None:
            y = y + bias._data.reshape(-1, *(1,) * len(spatial))
        ctx.save_for_backward(x, weight)
        ctx.geometry = (stride, pads, dilation, groups)
        ctx.has_bias = bias is not None
        return Tensor._from_array(np.ascontiguousarray(y), x.dtype)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        x, weight = ctx.saved_tensors
        stride, pads, dilation, groups = ctx.geometry
        n, c = x.shape[:2]
        spatial, kernel = tuple(x.shape[2:]), tuple(weight.shape[2:])
        dcols, windows = unfold_columns(_pad(grad._data, pads), kernel, stride, dilation)  # (N, O*K, windows)
        first = (..., *(slice(0, s) for s in spatial))  # output_padding may leave extra windows
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
        return _first_order_only("conv_transpose", (grad_x, grad_w, grad_b), grad, x, weight) + (None,) * 5


def _conv_transpose(name: str, n: int, x: Tensor, weight: Tensor, bias: Tensor | None, stride: Any, padding: Any, output_padding: Any, groups: int, dilation: Any) -> Tensor:
    batched = _batched(x, n, name)
    if not batched:
        x = x.reshape(1, *x.shape)
    stride_t, dilation_t, extra = _ntuple(stride, n), _ntuple(dilation, n), _ntuple(output_padding, n)
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


# --- unfold / fold (im2col / col2im as public ops) -------------------------------------------
class Unfold(Function):
    """(N, C, H, W) -> (N, C*kH*kW, L): every sliding window as a column. Backward: fold."""

    backward_name = "Im2ColBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, kernel: tuple, dilation: tuple, pads: Pads, stride: tuple) -> Tensor:
        columns, _ = unfold_columns(_pad(x._data, pads), kernel, stride, dilation)
        ctx.geometry = (tuple(x.shape[2:]), kernel, dilation, pads, stride)
        return Tensor._from_array(columns, x.dtype)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        spatial, kernel, dilation, pads, stride = ctx.geometry
        return Fold.apply(grad, spatial, kernel, dilation, pads, stride), None, None, None, None


class Fold(Function):
    """(N, C*kH*kW, L) -> (N, C, H, W): add every column back onto its window (overlaps sum). Backward: unfold."""

    backward_name = "Col2ImBackward0"

    @staticmethod
    def forward(ctx: Any, columns: Tensor, output_size: tuple, kernel: tuple, dilation: tuple, pads: Pads, stride: tuple) -> Tensor:
        _, ck, blocks = columns.shape
        padded = tuple(s + b + a for s, (b, a) in zip(output_size, pads, strict=True))
        out = tuple((p - d * (k - 1) - 1) // st + 1 for p, k, st, d in zip(padded, kernel, stride, dilation, strict=True))
        if ck % math.prod(kernel):
            raise RuntimeError(
                f"Expected size of input's dimension 1 to be divisible by the product of kernel_size, "
                f"but got input.size(1)={ck} and kernel_size={kernel}"
            )
        if blocks != math.prod(out):
            raise RuntimeError(
                f"Given output_size={tuple(output_size)}, kernel_size={kernel}, dilation={dilation}, "
                f"padding={tuple(b for b, _ in pads)}, stride={stride}, expected size of input's dimension 2 to "
                f"match the calculated number of sliding blocks {out[0]} * {out[1]} = {math.prod(out)}, but got "
                f"input.size(2)={blocks}."
            )
        y = _crop(fold_columns(columns._data, padded, kernel, out, stride, dilation), pads, tuple(output_size))
        ctx.geometry = (kernel, dilation, pads, stride)
        return Tensor._from_array(np.ascontiguousarray(y), columns.dtype)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        kernel, dilation, pads, stride = ctx.geometry
        return Unfold.apply(grad, kernel, dilation, pads, stride), None, None, None, None, None


def unfold(input: Tensor, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1) -> Tensor:  # noqa: A002
    """im2col (torch.nn.functional.unfold): sliding 2-d windows of a 4-d (or unbatched 3-d) input as columns."""
    if input.ndim < 3:  # torch reads the size of dim 2 (the height) first
        raise IndexError(f"Dimension out of range (expected to be in range of [{-max(input.ndim, 1)}, {max(input.ndim, 1) - 1}], but got 2)")
    if input.ndim > 4:
        raise RuntimeError(
            "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, "
            f"but got: {list(input.shape)}"
        )
    batched = input.ndim == 4
    x = input if batched else input.reshape(1, *input.shape)
    kernel, dilation_t, padding_t, stride_t = (_ntuple(v, 2) for v in (kernel_size, dilation, padding, stride))
    blocks = tuple(
        (size + 2 * p - d * (k - 1) - 1) // st + 1
        for size, k, d, p, st in zip(x.shape[2:], kernel, dilation_t, padding_t, stride_t, strict=True)
    )
    if any(b <= 0 for b in blocks):
        raise RuntimeError(
            f"Given input with spatial size {tuple(x.shape[2:])}, kernel_size={kernel}, dilation={dilation_t}, "
            f"padding={padding_t}, calculated shape of the array of sliding blocks as {blocks}, but its "
            "components must be at least one."
        )
    y = Unfold.apply(x, kernel, dilation_t, tuple((p, p) for p in padding_t), stride_t)
    return y if batched else y.reshape(*y.shape[1:])


def fold(input: Tensor, output_size: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1) -> Tensor:  # noqa: A002
    """col2im (torch.nn.functional.fold): sum columns back into a (N, C, H, W) image; the adjoint of unfold."""
    if input.ndim not in (2, 3):
        raise RuntimeError(f"Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero dimensions for input, but got: {list(input.shape)}")
    batched = input.ndim == 3
    x = input if batched else input.reshape(1, *input.shape)
    pads = tuple((p, p) for p in _ntuple(padding, 2))
    y = Fold.apply(x, _ntuple(output_size, 2), _ntuple(kernel_size, 2), _ntuple(dilation, 2), pads, _ntuple(stride, 2))
    return y if batched else y.reshape(*y.shape[1:])


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
    def forward(ctx: Any, x: Tensor, kernel: tuple, stride: tuple, pads: Pads, dilation: tuple) -> tuple:
        lowest = -np.inf if x.dtype.is_floating_point else np.iinfo(x.dtype.numpy).min
        xp = _pad(x._data, pads, lowest)
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
    def backward(ctx: Any, grad: Tensor, grad_indices: Any = None) -> tuple:
        kernel, stride, pads, dilation, padded_shape = ctx.geometry
        windows = np.zeros((*grad.shape, math.prod(kernel)), grad.dtype.numpy)
        np.put_along_axis(windows, ctx.winner[..., None], grad._data[..., None], axis=-1)
        windows = windows.reshape(*grad.shape, *kernel)
        dxp = add_windows_back(windows, padded_shape[2:], stride, dilation)
        grad_x = Tensor._from_array(np.ascontiguousarray(_crop(dxp, pads, ctx.input_spatial)), grad.dtype)
        return _first_order_only("max_pool", (grad_x,), grad) + (None,) * 4


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
    batched = _batched(x, n, name)
    if not batched:
        x = x.reshape(1, *x.shape)
    if not x.dtype.is_floating_point and name == "max_pool1d":
        raise NotImplementedError(f"\"max_pool1d_impl\" not implemented for '{x.dtype.scalar_type}'")
    kernel = _ntuple(kernel_size, n)
    stride_t = kernel if stride is None or stride == [] or stride == () else _ntuple(stride, n)
    padding_t, dilation_t = _ntuple(padding, n), _ntuple(dilation, n)
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
    def forward(ctx: Any, x: Tensor, kernel: tuple, stride: tuple, pads: Pads, padding: tuple, count_include_pad: bool, divisor_override: int | None) -> Tensor:
        xp = _pad(x._data, pads)
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
    def backward(ctx: Any, grad: Tensor) -> tuple:
        kernel, stride, pads, padded_shape, spatial = ctx.geometry
        share = (grad._data / ctx.divisor).astype(grad.dtype.numpy)
        windows = np.broadcast_to(share.reshape(*share.shape, *(1,) * len(kernel)), (*share.shape, *kernel))
        dxp = add_windows_back(windows, padded_shape[2:], stride, (1,) * len(kernel))
        grad_x = Tensor._from_array(np.ascontiguousarray(_crop(dxp, pads, spatial)), grad.dtype)
        return _first_order_only("avg_pool", (grad_x,), grad) + (None,) * 6


def _avg_divisor(spatial: tuple, kernel: tuple, stride: tuple, pads: Pads, padding: tuple, count_include_pad: bool, divisor_override: int | None) -> np.ndarray:
    """How many elements each window averages: it counts the padding (or not), never the ceil_mode overflow."""
    n_sp = len(kernel)
    counted = np.ones((1, 1, *spatial))
    if count_include_pad:
        counted = np.pad(counted, ((0, 0), (0, 0), *((p, p) for p in padding)), constant_values=1)
        extra = tuple((0, after - p) for (_, after), p in zip(pads, padding, strict=True))
    else:
        extra = pads
    counted = _pad(counted, extra)
    counts = sliding_windows(counted, kernel, stride, (1,) * n_sp).sum(axis=tuple(range(-n_sp, 0)))[0, 0]
    if divisor_override:
        return np.full(counts.shape, float(divisor_override))
    return counts


def _avg_pool(name: str, n: int, x: Tensor, kernel_size: Any, stride: Any, padding: Any, ceil_mode: bool, count_include_pad: bool, divisor_override: int | None) -> Tensor:
    batched = _batched(x, n, name)
    if not batched:
        x = x.reshape(1, *x.shape)
    kernel = _ntuple(kernel_size, n)
    stride_t = kernel if stride is None or stride == [] or stride == () else _ntuple(stride, n)
    padding_t = _ntuple(padding, n)
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
