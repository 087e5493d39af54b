"""Losses for real-valued targets beyond mse: l1_loss, smooth_l1_loss, huber_loss.

All three look at the error d = input - target. L1 charges |d| (a constant pull of size 1, even
for tiny errors); smooth L1 and Huber are quadratic near 0 and linear beyond a knee (``beta``,
``delta``), so small errors get small gradients and outliers cannot pull harder than the knee.
The two differ only in scale: huber_loss(delta) = delta * smooth_l1_loss(beta=delta). Their
gradient is the error clipped to the knee, which is what each backward computes.

As in torch, a target of another shape is broadcast against the input, with a warning.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ..._dtype import result_type
from ..._tensor import Tensor
from ...autograd.function import Function, FunctionCtx
from ...ops.broadcasting import broadcast_pair
from ...ops.promotion import _not_implemented_for
from .loss import _reduce, _reduction, _size, _unreduce

__all__ = ["huber_loss", "l1_loss", "smooth_l1_loss"]


def broadcast_with_warning(input: Tensor, target: Tensor) -> tuple[Tensor, Tensor]:  # noqa: A002
    """torch's rule for elementwise losses: a target of another shape is broadcast, with a warning
    (the classic bug: a (N,) prediction against an (N, 1) target gives an (N, N) loss)."""
    if tuple(target.shape) == tuple(input.shape):
        return input, target
    warnings.warn(
        f"Using a target size ({_size(target)}) that is different to the input size ({_size(input)}). "
        "This will likely lead to incorrect results due to broadcasting. Please ensure they have the same size.",
        UserWarning,
        stacklevel=3,
    )
    shape = broadcast_pair(tuple(input.shape), tuple(target.shape))
    return input.expand(shape), target.expand(shape)


class SmoothL1Loss(Function):
    """loss = d^2 / (2 beta) where |d| < beta, else |d| - beta / 2 (d = x - t).

    d loss / dx = d / beta clipped to [-1, 1]; d loss / dt is its negative.
    """

    backward_name = "SmoothL1LossBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, t: Tensor, reduction: str, beta: float) -> Tensor:
        dtype = result_type(x, t)
        d = (x._data - t._data).astype(dtype.numpy, copy=False)
        size = np.abs(d)
        loss = np.where(size < beta, 0.5 * d * d / beta, size - 0.5 * beta)
        ctx.save_for_backward(x, t)
        ctx.reduction, ctx.beta = reduction, beta
        return Tensor._from_array(_reduce(loss.astype(dtype.numpy, copy=False), reduction), dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        x, t = ctx.saved_tensors
        g = _unreduce(grad, ctx.reduction, tuple(x.shape)) * ((x - t) / ctx.beta).clamp(-1, 1)
        return g, -g, None, None


class HuberLoss(Function):
    """loss = d^2 / 2 where |d| < delta, else delta (|d| - delta / 2) (d = x - t).

    d loss / dx = d clipped to [-delta, delta]. torch returns the input's dtype here, even when
    the target's is wider (smooth_l1_loss promotes): kept, to match.
    """

    backward_name = "HuberLossBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, t: Tensor, reduction: str, delta: float) -> Tensor:
        d = (x._data - t._data).astype(x.dtype.numpy, copy=False)
        size = np.abs(d)
        loss = np.where(size < delta, 0.5 * d * d, delta * (size - 0.5 * delta))
        ctx.save_for_backward(x, t)
        ctx.reduction, ctx.delta = reduction, delta
        return Tensor._from_array(_reduce(loss.astype(x.dtype.numpy, copy=False), reduction), x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        x, t = ctx.saved_tensors
        g = _unreduce(grad, ctx.reduction, tuple(x.shape)) * (x - t).clamp(-ctx.delta, ctx.delta)
        return g, -g, None, None


def _weighted(loss: Tensor, weight: Tensor, input: Tensor, reduction: str, mean_divides_by_weight: bool) -> Tensor:  # noqa: A002
    """torch's weighted l1/huber: the per-element loss times ``weight``, then reduced."""
    if tuple(weight.shape) != tuple(input.shape):
        raise ValueError("Weights and input must have the same size.")
    weighted = loss * weight
    if reduction == "none":
        return weighted
    if reduction == "sum":
        return weighted.sum()
    return weighted.sum() / weight.sum() if mean_divides_by_weight else weighted.mean()


def l1_loss(input: Tensor, target: Tensor, size_average: Any = None, reduce: Any = None, reduction: str = "mean", weight: Tensor | None = None) -> Tensor:  # noqa: A002
    """mean |input - target|: a composite of tensor ops, as in torch (so integer inputs fail in
    ``mean``, as torch's do). With ``weight``, 'mean' divides by the sum of the weights."""
    expanded_input, expanded_target = broadcast_with_warning(input, target)
    reduction = _reduction(size_average, reduce, reduction)
    errors = (expanded_input - expanded_target).abs()
    if weight is not None:
        return _weighted(errors, weight, input, reduction, mean_divides_by_weight=True)
    return errors if reduction == "none" else errors.sum() if reduction == "sum" else errors.mean()


def smooth_l1_loss(input: Tensor, target: Tensor, size_average: Any = None, reduce: Any = None, reduction: str = "mean", beta: float = 1.0) -> Tensor:  # noqa: A002
    expanded_input, expanded_target = broadcast_with_warning(input, target)
    reduction = _reduction(size_average, reduce, reduction)
    if beta == 0.0:  # the quadratic part has shrunk away: plain L1, as torch does
        return l1_loss(expanded_input, expanded_target, reduction=reduction)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    if not result_type(input, target).is_floating_point:
        raise _not_implemented_for("smooth_l1_cpu", result_type(input, target))
    return SmoothL1Loss.apply(expanded_input, expanded_target, reduction, beta)


def huber_loss(input: Tensor, target: Tensor, reduction: str = "mean", delta: float = 1.0, weight: Tensor | None = None) -> Tensor:  # noqa: A002
    expanded_input, expanded_target = broadcast_with_warning(input, target)
    reduction = _reduction(None, None, reduction)
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    if not input.dtype.is_floating_point:
        raise _not_implemented_for("huber_cpu", input.dtype)
    if weight is not None:
        loss = HuberLoss.apply(expanded_input, expanded_target, "none", delta)
        return _weighted(loss, weight, input, reduction, mean_divides_by_weight=False)
    return HuberLoss.apply(expanded_input, expanded_target, reduction, delta)
