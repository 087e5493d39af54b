"""Windows: im2col and col2im, the two primitives under convolution, unfold/fold and pooling.

Every window op here starts from one strided *view* (:func:`sliding_windows`): the zero-padded
input ``(N, C, *spatial)`` seen as ``(N, C, *out, *kernel)`` — window ``o``, element ``k`` — with
no copy. Its adjoint, "fold" (col2im, :func:`add_windows_back`), adds every window element back
onto the input position it came from; that is the backward of anything that reads windows.

As columns, the pair is :func:`unfold_columns` / :func:`fold_columns` (torch's ``(N, C*K, L)``
layout): F.unfold / F.fold (defined here, each other's backward, so they support double
backward), the convolution and its transpose (``conv.py``) all use it; pooling (``pooling.py``)
reduces the windows directly. (The convolution's backward, under create_graph=True, is made
of Unfold, Fold and matmul, so it can be differentiated again: see ``conv.py``.)

Backward rules that compute with NumPy directly (pooling) are not themselves
differentiable: with ``create_graph=True`` their gradients are usable, but differentiating them
again raises a clear error (:class:`NotTwiceDifferentiable`) instead of silently treating them
as constants.
"""

from __future__ import annotations

import math
from types import EllipsisType
from typing import Any

import numpy as np

from .._tensor import Tensor
from ..autograd.function import Function, FunctionCtx
from ..autograd.grad_mode import state

__all__: list[str] = []  # F.unfold / F.fold are reached through nn.functional

Pads = tuple  # ((before, after), ...) per spatial dim
Index = tuple[EllipsisType | slice | int, ...]  # a NumPy basic index: ``x[..., 1:3, 0]``


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
        every_window: Index = (..., *(slice(None),) * n_spatial, *offset)
        region: Index = (..., *target)
        result[region] += windows[every_window]
    return result


def pad_spatial(x: np.ndarray, pads: Pads, value: Any = 0) -> np.ndarray:
    if not any(before or after for before, after in pads):
        return x
    return np.pad(x, ((0, 0), (0, 0), *pads), constant_values=value)


def crop_spatial(x: np.ndarray, pads: Pads, spatial: tuple) -> np.ndarray:
    inside: Index = (..., *(slice(before, before + size) for (before, _), size in zip(pads, spatial, strict=True)))
    return x[inside]


# --- double backward: not supported, and said so ------------------------------------------------
class NotTwiceDifferentiable(Function):
    """Marks a gradient computed in NumPy when ``create_graph=True``: differentiating it raises.

    The backward rules in this file use NumPy directly, so they record no graph. Rather than
    hand back gradients that silently look constant, each one gets this node as its grad_fn
    (as torch's ``@once_differentiable`` does): first-order use works, a second backward fails.
    """

    backward_name = "DelayedError"

    @staticmethod
    def forward(ctx: FunctionCtx, gradient: Tensor, op: str, *inputs: Tensor) -> Tensor:
        ctx.op = op
        return Tensor._from_array(gradient._data, gradient.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, *grads: Any) -> tuple:
        raise RuntimeError(
            f"trying to differentiate twice a function that was marked with @once_differentiable: "
            f"tensorlab's {ctx.op} backward is computed in NumPy, so double backward through it is not supported"
        )


def first_order_only(op: str, grads: tuple, *inputs: Tensor | None) -> tuple:
    """``grads`` as they are, unless a graph is being built through them (then see NotTwiceDifferentiable)."""
    tensors = [t for t in inputs if t is not None]
    if not (state.enabled and any(t.requires_grad for t in tensors)):
        return grads
    return tuple(None if g is None else NotTwiceDifferentiable.apply(g, op, *tensors) for g in grads)


# --- argument handling (meta logic) -----------------------------------------------------------
def ntuple(value: Any, n: int) -> tuple:
    if isinstance(value, (tuple, list)):
        return tuple(int(v) for v in value) if len(value) == n else tuple(int(value[0]) for _ in range(n))
    return (int(value),) * n


def check_batched(x: Tensor, n: int, name: str) -> bool:
    """Check the input has n+1 (unbatched) or n+2 (batched) dims; return whether it was batched."""
    if x.ndim not in (n + 1, n + 2):
        raise RuntimeError(
            f"Expected {n + 1}D (unbatched) or {n + 2}D (batched) input to {name}, but got input of size: {list(x.shape)}"
        )
    return x.ndim == n + 2


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


# --- unfold / fold (im2col / col2im as public ops) -------------------------------------------
class Unfold(Function):
    """(N, C, H, W) -> (N, C*kH*kW, L): every sliding window as a column. Backward: fold."""

    backward_name = "Im2ColBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, kernel: tuple, dilation: tuple, pads: Pads, stride: tuple) -> Tensor:
        columns, _ = unfold_columns(pad_spatial(x._data, pads), kernel, stride, dilation)
        ctx.geometry = (tuple(x.shape[2:]), kernel, dilation, pads, stride)
        return Tensor._from_array(columns, x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        spatial, kernel, dilation, pads, stride = ctx.geometry
        return Fold.apply(grad, spatial, kernel, dilation, pads, stride), None, None, None, None


class Fold(Function):
    """(N, C*kH*kW, L) -> (N, C, H, W): add every column back onto its window (overlaps sum). Backward: unfold."""

    backward_name = "Col2ImBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, columns: Tensor, output_size: tuple, kernel: tuple, dilation: tuple, pads: Pads, stride: tuple) -> Tensor:
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
        y = crop_spatial(fold_columns(columns._data, padded, kernel, out, stride, dilation), pads, tuple(output_size))
        ctx.geometry = (kernel, dilation, pads, stride)
        return Tensor._from_array(np.ascontiguousarray(y), columns.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
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
    kernel, dilation_t, padding_t, stride_t = (ntuple(v, 2) for v in (kernel_size, dilation, padding, stride))
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
    pads = tuple((p, p) for p in ntuple(padding, 2))
    y = Fold.apply(x, ntuple(output_size, 2), ntuple(kernel_size, 2), ntuple(dilation, 2), pads, ntuple(stride, 2))
    return y if batched else y.reshape(*y.shape[1:])
