"""Losses as functions: nll_loss, cross_entropy, binary_cross_entropy(_with_logits), mse_loss.

Each loss that torch computes in one kernel is one Function here too, so ``grad_fn`` reads as in
torch (``NllLossBackward0``...). Picking the target class in ``nll_loss`` multiplies by a one-hot
mask; ``cross_entropy`` is ``nll_loss(log_softmax(input, 1), target)``.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from ..._dtype import bool_, int64, uint8
from ..._tensor import Tensor
from ...autograd.function import Function, FunctionCtx
from ...autograd.grad_mode import is_grad_enabled
from ...ops.broadcasting import broadcast_pair, sum_to_shape
from ...ops.comparison import where
from ...ops.softmax import log_softmax
from .smooth_activation import softplus

__all__ = ["binary_cross_entropy", "binary_cross_entropy_with_logits", "cross_entropy", "mse_loss", "nll_loss"]


def _reduction(size_average: Any, reduce: Any, reduction: str) -> str:
    """The legacy size_average/reduce flags mapped to ``reduction`` (as torch still accepts them)."""
    if size_average is None and reduce is None:
        if reduction not in ("none", "mean", "sum"):
            raise ValueError(f"{reduction} is not a valid value for reduction")
        return reduction
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    return "none" if not reduce else ("mean" if size_average else "sum")


def _reduce(loss: np.ndarray, reduction: str) -> np.ndarray:
    if reduction == "mean":
        return np.asarray(loss.mean() if loss.size else np.nan, dtype=loss.dtype)
    if reduction == "sum":
        return np.asarray(loss.sum(), dtype=loss.dtype)
    return loss


def _unreduce(grad: Tensor, reduction: str, shape: tuple) -> Tensor:
    """The incoming gradient of a reduced loss, per element: mean spreads 1/n over the elements."""
    if reduction == "none":
        return grad
    n = max(math.prod(shape), 1)
    return (grad / n if reduction == "mean" else grad).expand(shape)


class NllLoss(Function):
    """loss_i = -w[t_i] * x[i, t_i] (0 where t_i == ignore_index); mean divides by sum of w[t_i].

    Picking x[i, t_i] is a product with a one-hot mask along the class dim (dim 1), so the
    gradient is that mask times -w[t_i] (divided by the total weight for 'mean').
    """

    backward_name = "NllLossBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, target: Tensor, weight: Tensor | None, ignore_index: int, reduction: str) -> Tensor:
        # Few, whole-array NumPy calls: the loss runs right after a big matrix product has pushed
        # everything out of the CPU caches, where each small call costs several microseconds.
        a = x._data if x.ndim > 1 else x._data[None]  # (C,) is a batch of one
        t = target._data if x.ndim > 1 else target._data[None]
        classes = a.shape[1]
        kept = t != ignore_index
        safe_t = np.where(kept, t, 0)
        if safe_t.size and (safe_t.min() < 0 or safe_t.max() >= classes):
            bad = (safe_t < 0) | (safe_t >= classes)
            raise IndexError(f"Target {int(t[bad].flat[0])} is out of bounds.")
        if weight is None:
            picked_weight = kept.astype(a.dtype)  # w[t_i] = 1, or 0 where ignored
        else:
            picked_weight = np.where(kept, weight._data[safe_t], 0).astype(a.dtype)
        # one-hot along dim 1: class c of sample i (and of each position of a K-dim input)
        mask = _with_class_dim(safe_t) == np.arange(classes).reshape(classes, *[1] * (t.ndim - 1))
        losses = picked_weight * np.where(mask, a, 0).sum(axis=1)
        losses = np.negative(losses, out=losses)
        coefficient = -picked_weight  # d loss_i / d x[i, t_i]
        if reduction == "mean":
            total_weight = picked_weight.sum()
            if total_weight:
                out = np.asarray(losses.sum() / total_weight, dtype=a.dtype)
                coefficient /= total_weight
            else:  # every target ignored, or weights that add up to 0: divide by 0, as torch does
                with np.errstate(invalid="ignore", divide="ignore"):
                    out = np.asarray(losses.sum() / total_weight, dtype=a.dtype)
                    coefficient = np.where(kept, coefficient / total_weight, 0)
        elif reduction == "sum":
            out = np.asarray(losses.sum(), dtype=a.dtype)
        else:
            out = losses if x.ndim > 1 else losses[0]
        ctx.reduction = reduction
        ctx.save_for_backward(Tensor._from_array(np.where(mask, _with_class_dim(coefficient), 0), x.dtype))
        ctx.input_ndim = x.ndim
        return Tensor._from_array(out, x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        (scaled_mask,) = ctx.saved_tensors
        if ctx.reduction == "none" and ctx.input_ndim > 1:
            grad = grad.unsqueeze(1)
        result = scaled_mask * grad
        return (result if ctx.input_ndim > 1 else result.reshape(-1)), None, None, None, None


def _with_class_dim(per_sample: np.ndarray) -> np.ndarray:
    """(N, *d) -> (N, 1, *d): a size-1 class dim, to broadcast against (N, C, *d)."""
    return per_sample.reshape(per_sample.shape[0], 1, *per_sample.shape[1:])


def _check_batch(input: Tensor, target: Tensor) -> None:  # noqa: A002
    if input.ndim > 1 and input.shape[0] != (target.shape[0] if target.ndim else 1):
        raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target batch_size ({target.shape[0] if target.ndim else 1}).")


def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None = None, size_average: Any = None, ignore_index: int = -100, reduce: Any = None, reduction: str = "mean") -> Tensor:  # noqa: A002
    reduction = _reduction(size_average, reduce, reduction)
    if target.dtype not in (int64, uint8):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {target.dtype.name.capitalize()}")
    _check_batch(input, target)
    if weight is not None and weight.requires_grad and is_grad_enabled():
        raise RuntimeError(
            "The function 'nll_loss_forward' is not differentiable with respect to argument 'weight'. "
            "This input cannot have requires_grad True."
        )
    if weight is not None and weight.dtype is not input.dtype:
        raise RuntimeError(f"expected scalar type {input.dtype.scalar_type} but found {weight.dtype.scalar_type}")
    return NllLoss.apply(input, target, weight, ignore_index, reduction)


def cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None, size_average: Any = None, ignore_index: int = -100, reduce: Any = None, reduction: str = "mean", label_smoothing: float = 0.0) -> Tensor:  # noqa: A002
    """``nll_loss(log_softmax(input, 1), target)``; targets are class indices or class probabilities.

    Label smoothing mixes in a uniform target: (1 - eps) * nll + eps/C * (-sum_c w_c log p_c).
    """
    reduction = _reduction(size_average, reduce, reduction)
    class_dim = 1 if input.ndim > 1 else 0
    classes = input.shape[class_dim]
    logp = log_softmax(input, class_dim)
    weight_view = None
    if weight is not None:
        weight_view = weight.reshape([classes] + [1] * (input.ndim - class_dim - 1))
    if target.dtype.is_floating_point:  # class probabilities
        if ignore_index >= 0:
            raise RuntimeError("ignore_index is not supported for floating point target")
        if tuple(target.shape) != tuple(input.shape):
            raise RuntimeError(f"Expected target size {list(input.shape)}, got {list(target.shape)}")
        if label_smoothing > 0:
            target = target * (1 - label_smoothing) + label_smoothing / classes
        terms = logp * target if weight_view is None else logp * target * weight_view
        if reduction == "none":
            return -terms.sum(class_dim)
        if reduction == "sum":
            return -terms.sum()
        return -terms.sum() / (input.numel() / classes)
    nll = nll_loss(logp, target, weight, None, ignore_index, None, reduction)
    if label_smoothing <= 0:
        return nll
    smooth = -(logp.sum(class_dim) if weight_view is None else (logp * weight_view).sum(class_dim))
    kept = target._data != ignore_index
    smooth = where(Tensor._from_array(kept, bool_), smooth, 0.0)  # ignored targets add nothing
    if reduction == "mean":
        if weight is not None:
            safe = np.where(kept, target._data, 0)
            total_weight = float(weight._data[safe][kept].sum())
        else:
            total_weight = float(kept.sum())
        with np.errstate(divide="ignore", invalid="ignore"):  # nothing counted: 0 / 0 is nan, silently as in torch
            smooth = smooth.sum() / total_weight
    elif reduction == "sum":
        smooth = smooth.sum()
    return (1 - label_smoothing) * nll + smooth * (label_smoothing / classes)


class BinaryCrossEntropy(Function):
    """loss = -w * (t log x + (1 - t) log(1 - x)), each log clamped at -100 so x = 0 or 1 is finite.

    dx = w (x - t) / max(x (1 - x), 1e-12); dt = w (log(1 - x) - log x). Backward uses tensor
    ops, so it can be differentiated again.
    """

    backward_name = "BinaryCrossEntropyBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, t: Tensor, weight: Tensor | None, reduction: str) -> Tensor:
        a, b = x._data, t._data
        if np.any((a < 0) | (a > 1)):
            raise RuntimeError("all elements of input should be between 0 and 1")
        with np.errstate(divide="ignore"):
            log_x, log_1mx = np.maximum(np.log(a), -100), np.maximum(np.log(1 - a), -100)
        loss = -(b * log_x + (1 - b) * log_1mx)
        w = weight._data if weight is not None else 1
        ctx.reduction, ctx.shape = reduction, tuple(x.shape)
        ctx.save_for_backward(x, t, weight)
        return Tensor._from_array(_reduce(loss * w, reduction), x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        x, t, weight = ctx.saved_tensors
        g = _unreduce(grad, ctx.reduction, ctx.shape)
        if weight is not None:
            g = g * weight
        grad_x = g * (x - t) / (x * (1 - x)).clamp(min=1e-12) if ctx.needs_input_grad[0] else None
        grad_t = None
        if ctx.needs_input_grad[1]:
            grad_t = g * ((1 - x).log().clamp(min=-100) - x.log().clamp(min=-100))
        return grad_x, grad_t, None, None


def binary_cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None, size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> Tensor:  # noqa: A002
    reduction = _reduction(size_average, reduce, reduction)
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(
            f"Using a target size ({_size(target)}) that is different to the input size ({_size(input)}) is deprecated. "
            "Please ensure they have the same size."
        )
    if weight is not None and tuple(weight.shape) != tuple(input.shape):
        weight = weight.expand(input.shape)
    return BinaryCrossEntropy.apply(input, target, weight, reduction)


def _size(t: Tensor) -> str:
    return f"tensorlab.Size({list(t.shape)})"


def _softplus(a: np.ndarray) -> np.ndarray:
    """log(1 + exp(a)) without overflow: max(a, 0) + log1p(exp(-|a|))."""
    return np.maximum(a, 0) + np.log1p(np.exp(-np.abs(a)))


class BinaryCrossEntropyWithLogits(Function):
    """loss = w * ((1 - t) x + L softplus(-x)), L = 1 + (pos_weight - 1) t: BCE of sigmoid(x),
    computed from the logit so it never takes log(0).

    dx = w (L sigmoid(x) - pos_weight t); dt = w (-x + (pos_weight - 1) softplus(-x)).
    Backward uses tensor ops, so it can be differentiated again.
    """

    backward_name = "BinaryCrossEntropyWithLogitsBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, t: Tensor, weight: Tensor | None, pos_weight: Tensor | None, reduction: str) -> Tensor:
        a, b = x._data, t._data
        pw = pos_weight._data if pos_weight is not None else 1
        log_weight = 1 + (pw - 1) * b
        loss = (1 - b) * a + log_weight * _softplus(-a)
        if weight is not None:
            loss = loss * weight._data
        ctx.reduction, ctx.shape = reduction, tuple(np.broadcast_shapes(a.shape, np.shape(loss)))
        ctx.save_for_backward(x, t, weight, pos_weight)
        return Tensor._from_array(_reduce(loss, reduction), x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        x, t, weight, pos_weight = ctx.saved_tensors
        g = _unreduce(grad, ctx.reduction, ctx.shape)
        if weight is not None:
            g = g * weight
        grad_x = grad_t = None
        if ctx.needs_input_grad[0]:
            if pos_weight is None:
                grad_x = g * (x.sigmoid() - t)
            else:
                grad_x = g * ((1 + (pos_weight - 1) * t) * x.sigmoid() - pos_weight * t)
        if ctx.needs_input_grad[1]:
            grad_t = -g * x
            if pos_weight is not None:
                grad_t = grad_t + g * (pos_weight - 1) * softplus(-x)  # differentiable: double backward
        return grad_x, grad_t, None, None, None


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight: Tensor | None = None, size_average: Any = None, reduce: Any = None, reduction: str = "mean", pos_weight: Tensor | None = None) -> Tensor:  # noqa: A002
    reduction = _reduction(size_average, reduce, reduction)
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"Target size ({_size(target)}) must be the same as input size ({_size(input)})")
    return BinaryCrossEntropyWithLogits.apply(input, target, weight, pos_weight, reduction)


class MseLoss(Function):
    """loss = (x - t)^2 (broadcast). dx = 2 (x - t), dt = -2 (x - t), each summed back to its input's
    shape; with tensor ops, so double backward works."""

    backward_name = "MseLossBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, t: Tensor, weight: Tensor | None, reduction: str) -> Tensor:
        diff = x._data - t._data
        loss = diff * diff if weight is None else weight._data * diff * diff
        ctx.reduction, ctx.shape = reduction, tuple(np.shape(loss))
        ctx.save_for_backward(x, t, weight)
        return Tensor._from_array(_reduce(np.asarray(loss), reduction), x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        x, t, weight = ctx.saved_tensors
        g = _unreduce(grad, ctx.reduction, ctx.shape) * (x - t) * 2
        if weight is not None:
            g = g * weight
        return (
            sum_to_shape(g, x.shape) if ctx.needs_input_grad[0] else None,
            sum_to_shape(-g, t.shape) if ctx.needs_input_grad[1] else None,
            None,
            None,
        )


def mse_loss(input: Tensor, target: Tensor, size_average: Any = None, reduce: Any = None, reduction: str = "mean", weight: Tensor | None = None) -> Tensor:  # noqa: A002
    reduction = _reduction(size_average, reduce, reduction)
    if tuple(target.shape) != tuple(input.shape):
        warnings.warn(
            f"Using a target size ({_size(target)}) that is different to the input size ({_size(input)}). "
            "This will likely lead to incorrect results due to broadcasting. Please ensure they have the same size.",
            UserWarning,
            stacklevel=2,
        )
        broadcast_pair(tuple(input.shape), tuple(target.shape))  # torch's RuntimeError, not NumPy's ValueError
    return MseLoss.apply(input, target, weight, reduction)
