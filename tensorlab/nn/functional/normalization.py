"""layer_norm and group_norm: normalise over the last dims (or groups of channels), then scale and shift.

One Function with its own backward (``NativeLayerNormBackward0``), as in torch; the backward
recomputes the statistics with tensor ops, so it is differentiable too.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..._tensor import Tensor
from ...autograd.function import Function, FunctionCtx
from ...ops.broadcasting import sum_to_shape

__all__ = ["group_norm", "layer_norm"]


class LayerNorm(Function):
    """y = (x - mean) / sqrt(var + eps) * w + b, mean and (biased) var over the last dims.

    With xhat = (x - mean) * rstd and dxhat = g * w, over the N normalised elements:
    dx = rstd * (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat)); dw = sum g * xhat; db = sum g.
    Backward recomputes xhat and rstd from x with tensor ops, so its result is differentiable too.
    """

    backward_name = "NativeLayerNormBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, normalized_ndim: int, weight: Tensor | None, bias: Tensor | None, eps: float) -> Tensor:
        a = x._data
        axes = tuple(range(a.ndim - normalized_ndim, a.ndim))
        mean = a.mean(axis=axes, keepdims=True)
        rstd = 1.0 / np.sqrt(a.var(axis=axes, keepdims=True) + eps)
        y = (a - mean) * rstd
        if weight is not None:
            y = y * weight._data
        if bias is not None:
            y = y + bias._data
        ctx.axes, ctx.eps = axes, eps
        ctx.save_for_backward(x, weight)
        return Tensor._from_array(y, x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        x, weight = ctx.saved_tensors
        axes = list(ctx.axes)
        normalized_shape = tuple(grad.shape[grad.ndim - len(axes):])
        mean = x.mean(axes, keepdim=True)
        rstd = 1 / (x.var(axes, correction=0, keepdim=True) + ctx.eps).sqrt()
        xhat = (x - mean) * rstd
        dxhat = grad * weight if weight is not None else grad
        dx = rstd * (dxhat - dxhat.mean(axes, keepdim=True) - xhat * (dxhat * xhat).mean(axes, keepdim=True))
        # sum over the batch dims; sum_to_shape, because sum([]) would sum over every dim
        dw = sum_to_shape(grad * xhat, normalized_shape) if weight is not None and ctx.needs_input_grad[2] else None
        db = sum_to_shape(grad, normalized_shape) if ctx.needs_input_grad[3] else None
        return dx, None, dw, db, None


def layer_norm(input: Tensor, normalized_shape: Any, weight: Tensor | None = None, bias: Tensor | None = None, eps: float = 1e-5) -> Tensor:  # noqa: A002
    normalized_shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    n = len(normalized_shape)
    if tuple(input.shape[input.ndim - n :]) != normalized_shape or n > input.ndim:
        raise RuntimeError(
            f"Given normalized_shape={list(normalized_shape)}, expected input with shape "
            f"[*, {', '.join(map(str, normalized_shape))}], but got input of size{input.shape}"
        )
    return LayerNorm.apply(input, n, weight, bias, eps)


def group_norm(input: Tensor, num_groups: int, weight: Tensor | None = None, bias: Tensor | None = None, eps: float = 1e-5) -> Tensor:  # noqa: A002
    """Split the C channels of (N, C, *) input into ``num_groups`` groups and layer-normalise each
    group of each sample; then scale and shift per *channel*.

    Written as layer norm on an (N, G, C/G * spatial) view: group norm is layer norm over a
    different set of elements. Values and gradients are torch's; the graph is not (a reshape,
    layer norm and the per-channel affine, where torch records one NativeGroupNormBackward0).
    """
    if input.ndim < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {input.ndim}")
    n, channels = input.shape[0], input.shape[1]
    if num_groups <= 0 or channels % num_groups:
        raise RuntimeError(
            "Expected number of channels in input to be divisible by num_groups, but got input of shape "
            f"{list(input.shape)} and num_groups={num_groups}"
        )
    size = [n * channels // num_groups, num_groups, *input.shape[2:]]
    if math.prod([size[0], *size[2:]]) == 1:  # torch's check, worded as for batch norm
        raise ValueError(f"Expected more than 1 value per channel when training, got input size {size}")
    grouped = input.reshape(n, num_groups, math.prod(input.shape[1:]) // num_groups)
    out = LayerNorm.apply(grouped, 1, None, None, eps).reshape(input.shape)
    channel_shape = (channels,) + (1,) * (input.ndim - 2)
    if weight is not None:
        out = out * weight.reshape(channel_shape)
    if bias is not None:
        out = out + bias.reshape(channel_shape)
    return out
