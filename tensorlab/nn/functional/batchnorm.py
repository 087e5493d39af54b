"""batch_norm: normalise each channel over the batch (and spatial dims), the function behind nn.BatchNorm.

The channel is dim 1, as in every torch layer that takes (N, C, ...) input. In training the
statistics are the batch's own, and the running averages that evaluation will use are updated
as a side effect; in evaluation the running averages are used and nothing is updated.
"""

from __future__ import annotations

import numpy as np

from ..._tensor import Tensor
from ...autograd.function import Function, FunctionCtx
from ...autograd.grad_mode import no_grad
from ...ops.broadcasting import sum_to_shape

__all__ = ["batch_norm"]


def _channel_shape(x: Tensor) -> tuple[int, ...]:
    """(C, 1, 1, ...): a per-channel vector shaped to broadcast against (N, C, *spatial)."""
    return (x.shape[1],) + (1,) * (x.ndim - 2)


class BatchNorm(Function):
    """y = (x - mean) / sqrt(var + eps) * w + b per channel, mean and var given (``mean_var``).

    In training mean and (biased) var are the batch's, over every dim but the channel dim, and
    the backward is the one of layer norm with other axes (xhat = (x - mean) * rstd, dxhat = g * w):
    dx = rstd * (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat)). In evaluation mean and var are
    constants, so dx = g * w * rstd. Either way dw = sum g * xhat and db = sum g over the non-channel
    dims. Backward recomputes with tensor ops, so its result is differentiable too.
    """

    backward_name = "NativeBatchNormBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, mean: Tensor | None, var: Tensor | None, weight: Tensor | None, bias: Tensor | None, eps: float) -> Tensor:
        a = x._data
        axes = (0, *range(2, a.ndim))
        shape = _channel_shape(x)
        batch_stats = mean is None
        if a.size == 0:  # an empty batch: nothing to normalise (and no statistics to take)
            ctx.axes, ctx.batch_stats = list(axes), batch_stats
            ctx.save_for_backward(x, mean, var, weight)
            return Tensor._from_array(a.copy(), x.dtype)
        mu = a.mean(axis=axes, keepdims=True) if mean is None else mean._data.reshape(shape)
        sigma2 = a.var(axis=axes, keepdims=True) if var is None else var._data.reshape(shape)
        y = (a - mu) / np.sqrt(sigma2 + eps)
        if weight is not None:
            y = y * weight._data.reshape(shape)
        if bias is not None:
            y = y + bias._data.reshape(shape)
        ctx.axes, ctx.eps, ctx.batch_stats = list(axes), eps, batch_stats
        ctx.save_for_backward(x, mean, var, weight)
        return Tensor._from_array(y.astype(a.dtype, copy=False), x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        x, mean, var, weight = ctx.saved_tensors
        axes, shape = ctx.axes, _channel_shape(x)
        if x.numel() == 0:
            none = grad.new_zeros(shape[:1])
            return grad * 0, None, None, none if weight is not None else None, none if ctx.needs_input_grad[4] else None, None
        if ctx.batch_stats:
            mu = x.mean(axes, keepdim=True)
            rstd = 1 / (x.var(axes, correction=0, keepdim=True) + ctx.eps).sqrt()
        else:
            mu = mean.reshape(shape)
            rstd = 1 / (var.reshape(shape) + ctx.eps).sqrt()
        xhat = (x - mu) * rstd
        dxhat = grad * weight.reshape(shape) if weight is not None else grad
        if ctx.batch_stats:
            dx = rstd * (dxhat - dxhat.mean(axes, keepdim=True) - xhat * (dxhat * xhat).mean(axes, keepdim=True))
        else:
            dx = dxhat * rstd
        dw = sum_to_shape(grad * xhat, shape).reshape(-1) if weight is not None and ctx.needs_input_grad[3] else None
        db = sum_to_shape(grad, shape).reshape(-1) if ctx.needs_input_grad[4] else None
        return dx, None, None, dw, db, None


def _check_channels(name: str, t: Tensor | None, channels: int) -> None:
    if t is not None and t.numel() != channels:
        raise RuntimeError(f"{name} should contain {channels} elements not {t.numel()}")


def batch_norm(
    input: Tensor,  # noqa: A002
    running_mean: Tensor | None,
    running_var: Tensor | None,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    training: bool = False,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Tensor:
    """Normalise (N, C, *) input per channel C.

    ``training=True``: batch statistics, and (when given) the running buffers move towards them:
    running = (1 - momentum) * running + momentum * batch. The running variance takes the
    *unbiased* batch variance (divide by n - 1), although the normalisation itself divides by n.
    ``training=False``: the running buffers are the statistics, and are left alone.
    """
    channels = input.shape[1] if input.ndim > 1 else 1
    for name, t in (("running_mean", running_mean), ("running_var", running_var), ("weight", weight), ("bias", bias)):
        _check_channels(name, t, channels)
    if not training:
        if running_mean is None:
            raise RuntimeError("running_mean must be defined in evaluation mode")
        if running_var is None:
            raise RuntimeError("running_var must be defined in evaluation mode")
        return BatchNorm.apply(input, running_mean, running_var, weight, bias, eps)
    per_channel = input.numel() // channels if channels else 0
    if per_channel == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size {input.shape}")
    if (running_mean is not None or running_var is not None) and per_channel > 0:
        axes = (0, *range(2, input.ndim))
        a = input._data
        with no_grad():
            if running_mean is not None:
                batch_mean = Tensor._from_array(a.mean(axis=axes), running_mean.dtype)
                running_mean.mul_(1 - momentum).add_(batch_mean, alpha=momentum)
            if running_var is not None:
                unbiased = a.var(axis=axes, ddof=1) if per_channel > 1 else np.full(channels, np.nan)
                batch_var = Tensor._from_array(np.asarray(unbiased), running_var.dtype)
                running_var.mul_(1 - momentum).add_(batch_var, alpha=momentum)
    return BatchNorm.apply(input, None, None, weight, bias, eps)
