"""Losses that compare distributions: kl_div, poisson_nll_loss, gaussian_nll_loss.

- ``kl_div(input, target)`` is KL(target || q) with ``input`` = log q: the input is a
  *log*-probability (log_softmax output), the target a probability (or a log-probability with
  ``log_target=True``). Summed per sample and divided by the batch size (``'batchmean'``) it is
  the KL divergence of the maths books; ``'mean'`` also divides by the number of classes, and
  torch warns about exactly that.
- ``poisson_nll_loss`` and ``gaussian_nll_loss`` are negative log-likelihoods of a target under
  a Poisson rate or a Gaussian (mean, variance) that the network predicts.

All three are compositions of tensor ops in torch, and so they are here: autograd derives the
gradients, and the numbers (inf, nan at log 0) are torch's.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from ..._dtype import result_type
from ..._tensor import Tensor
from ...autograd.function import Function, FunctionCtx
from ...autograd.grad_mode import no_grad
from ...ops.comparison import where
from .loss import _reduction

__all__ = ["gaussian_nll_loss", "kl_div", "poisson_nll_loss"]


def _reduced(loss: Tensor, reduction: str) -> Tensor:
    return loss.mean() if reduction == "mean" else loss.sum() if reduction == "sum" else loss


class Xlogy(Function):
    """x * log(y), defined as 0 where x == 0 (so 0 log 0 = 0: an impossible class adds nothing).

    d/dx = log(y) where x != 0, else 0; d/dy = x / y.
    """

    backward_name = "XlogyBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, y: Tensor) -> Tensor:
        ctx.save_for_backward(x, y)
        dtype = result_type(x, y)
        with np.errstate(divide="ignore", invalid="ignore"):
            values = np.where((x._data == 0) & ~np.isnan(y._data), 0, x._data * np.log(y._data))
        return Tensor._from_array(values.astype(dtype.numpy, copy=False), dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        x, y = ctx.saved_tensors
        with np.errstate(divide="ignore", invalid="ignore"):
            grad_x = grad * Xlogy.apply((x != 0).to(y.dtype), y) if ctx.needs_input_grad[0] else None
            grad_y = grad * x / y if ctx.needs_input_grad[1] else None
        return grad_x, grad_y


def kl_div(input: Tensor, target: Tensor, size_average: Any = None, reduce: Any = None, reduction: str = "mean", log_target: bool = False) -> Tensor:  # noqa: A002
    """Pointwise target * (log target - input), then reduced; 'batchmean' = sum / batch size."""
    if size_average is not None or reduce is not None:
        reduction = _reduction(size_average, reduce, reduction)
    elif reduction == "mean":
        warnings.warn(
            "reduction: 'mean' divides the total loss by both the batch size and the support size."
            "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
            "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
            UserWarning,
            stacklevel=2,
        )
    if reduction != "batchmean":
        _reduction(None, None, reduction)  # torch's ValueError for an unknown name
    if not input.dtype.is_floating_point and not target.dtype.is_floating_point:
        raise RuntimeError("kl_div: Integral inputs not supported.")
    if log_target:
        pointwise = target.exp() * (target - input)
    else:
        pointwise = Xlogy.apply(target, target) - target * input
    if reduction == "batchmean":
        total = pointwise.sum()
        return total / input.shape[0] if input.ndim != 0 else total
    return _reduced(pointwise, reduction)


def poisson_nll_loss(input: Tensor, target: Tensor, log_input: bool = True, full: bool = False, size_average: Any = None, eps: float = 1e-8, reduce: Any = None, reduction: str = "mean") -> Tensor:  # noqa: A002
    """-log P(target | rate) up to a constant: exp(input) - target * input when the input is the
    log of the rate (the default), rate - target * log(rate + eps) when it is the rate itself.

    ``full`` adds Stirling's approximation of log(target!) for targets above 1.
    """
    reduction = _reduction(size_average, reduce, reduction)
    if log_input:
        loss = input.exp() - target * input
    else:
        loss = input - target * (input + eps).log()
    if full:
        with np.errstate(divide="ignore", invalid="ignore"):
            stirling = target * target.log() - target + 0.5 * (2 * math.pi * target).log()
        loss = loss + where(target <= 1, 0.0, stirling)
    return _reduced(loss, reduction)


def gaussian_nll_loss(input: Tensor, target: Tensor, var: Tensor | float, full: bool = False, eps: float = 1e-6, reduction: str = "mean") -> Tensor:  # noqa: A002
    """0.5 (log var + (input - target)^2 / var): the network predicts a mean *and* a variance.

    ``var`` may have one entry per element, or one per sample (a dim short, or a size-1 dim).
    It is clamped at ``eps`` without autograd seeing the clamp (torch's choice): the gradient
    still reaches a variance that was clamped.
    """
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * input.new_ones(input.shape)
    elif bool((var < 0).any()):
        raise ValueError("var has negative entry/entries")
    if tuple(var.shape) != tuple(input.shape):
        if tuple(input.shape[:-1]) == tuple(var.shape):
            var = var.unsqueeze(-1)
        elif input.ndim == var.ndim and sum(v for i, v in zip(input.shape, var.shape, strict=True) if i != v) == 1:
            pass
        else:
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    with no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduced(loss, reduction)
