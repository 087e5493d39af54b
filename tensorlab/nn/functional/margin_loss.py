"""Margin losses: a score is only penalised while it is on the wrong side of a margin.

- ``margin_ranking_loss(x1, x2, y)``: x1 should rank above x2 by ``margin`` when y = 1 (below when y = -1).
- ``hinge_embedding_loss(x, y)``: x is a distance; small for similar pairs (y = 1), at least ``margin`` for dissimilar ones (y = -1).
- ``soft_margin_loss(x, y)``: log(1 + exp(-y x)), the smooth two-class hinge (logistic loss on labels +-1).
- ``multilabel_soft_margin_loss(x, y)``: the same per class with 0/1 targets, averaged over classes.
- ``multi_margin_loss(x, y)``: the multi-class hinge (SVM) loss: every wrong class must score
  ``margin`` below the right one.
- ``cosine_embedding_loss(x1, x2, y)``: 1 - cos for similar pairs, max(0, cos - margin) for dissimilar ones.
- ``multilabel_margin_loss(x, y)``: the multi-label hinge loss: every listed class must score
  1 above every class not listed.
- ``triplet_margin_loss(a, p, n)``: the anchor must be closer to the positive than to the
  negative by ``margin`` (distances from ``pairwise_distance``, or any distance function with
  ``triplet_margin_with_distance_loss``).

Most are compositions of tensor ops in torch, so they are here too; soft_margin_loss,
multi_margin_loss and multilabel_margin_loss are torch kernels with their own backward, written out side by side below.
Once the margin is met the loss is flat: its gradient is exactly 0 there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..._dtype import int64
from ..._tensor import Tensor
from ...autograd.function import Function, FunctionCtx
from ...autograd.grad_mode import is_grad_enabled
from ...ops.arithmetic import minimum
from ...ops.broadcasting import broadcast_pair
from ...ops.comparison import where
from ...ops.windows import first_order_only
from .distance import pairwise_distance
from .loss import _reduce, _reduction, _unreduce
from .smooth_activation import logsigmoid

__all__ = [
    "cosine_embedding_loss", "hinge_embedding_loss", "margin_ranking_loss", "multi_margin_loss",
    "multilabel_margin_loss", "multilabel_soft_margin_loss", "soft_margin_loss", "triplet_margin_loss",
    "triplet_margin_with_distance_loss",
]


def _reduced(loss: Tensor, reduction: str) -> Tensor:
    return loss.mean() if reduction == "mean" else loss.sum() if reduction == "sum" else loss


def _refuse_gradient(function: str, argument: str, t: Tensor | None) -> None:
    """torch's error for an argument its kernel has no derivative for."""
    if t is not None and t.requires_grad and is_grad_enabled():
        raise RuntimeError(
            f"The function '{function}' is not differentiable with respect to argument '{argument}'. "
            "This input cannot have requires_grad True."
        )


def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0, size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> Tensor:
    """max(0, -y (x1 - x2) + margin)."""
    reduction = _reduction(size_average, reduce, reduction)
    if input1.ndim != input2.ndim or input1.ndim != target.ndim:
        raise RuntimeError(
            "margin_ranking_loss : All input tensors should have same dimension but got sizes: "
            f"input1: {_size(input1)}, input2: {_size(input2)}, target: {_size(target)} "
        )
    return _reduced((-target * (input1 - input2) + margin).clamp(min=0), reduction)


def _size(t: Tensor) -> str:
    return f"tensorlab.Size({list(t.shape)})"


def hinge_embedding_loss(input: Tensor, target: Tensor, margin: float = 1.0, size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> Tensor:  # noqa: A002
    """x where y = 1, max(0, margin - x) where y = -1 (torch adds both where y is neither)."""
    reduction = _reduction(size_average, reduce, reduction)
    below_margin = where(target != 1, (margin - input).clamp(min=0), 0.0)
    itself = where(target != -1, input, 0.0)
    return _reduced(below_margin + itself, reduction)


# --- soft margin ------------------------------------------------------------------------------
class SoftMarginLoss(Function):
    """loss = log(1 + exp(-y x)), written as torch's kernel writes it (so exp(-y x) can overflow
    to inf for a confidently wrong score, as in torch).

    d/dx = -y z / (1 + z) with z = exp(-y x). torch refuses a target that requires grad.
    """

    backward_name = "SoftMarginLossBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, y: Tensor, reduction: str) -> Tensor:
        ctx.save_for_backward(x, y)
        ctx.reduction = reduction
        with np.errstate(over="ignore"):
            loss = np.log1p(np.exp(-y._data * x._data)).astype(x.dtype.numpy, copy=False)
        return Tensor._from_array(_reduce(loss, reduction), x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        x, y = ctx.saved_tensors
        g = _unreduce(grad, ctx.reduction, tuple(x.shape))
        with np.errstate(over="ignore", invalid="ignore"):
            z = (-y * x).exp()
            return -y * z / (1 + z) * g, None, None


def soft_margin_loss(input: Tensor, target: Tensor, size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> Tensor:  # noqa: A002
    reduction = _reduction(size_average, reduce, reduction)
    shape = broadcast_pair(tuple(input.shape), tuple(target.shape))
    if shape != tuple(input.shape):  # torch writes the loss into a tensor of the input's shape
        raise RuntimeError(f"output with shape {list(input.shape)} doesn't match the broadcast shape {list(shape)}")
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"result type Float can't be cast to the desired output type {input.dtype.scalar_type}")
    _refuse_gradient("soft_margin_loss", "target", target)
    return SoftMarginLoss.apply(input, target.expand(shape) if tuple(target.shape) != shape else target, reduction)


def multilabel_soft_margin_loss(input: Tensor, target: Tensor, weight: Tensor | None = None, size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> Tensor:  # noqa: A002
    """Per class: -(y log sigmoid(x) + (1 - y) log sigmoid(-x)), then averaged over the classes (last dim)."""
    if size_average is not None or reduce is not None:
        reduction = _reduction(size_average, reduce, reduction)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.ndim - 1
    loss = loss.sum(dim=class_dim) / input.shape[class_dim]
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    return _reduced(loss, reduction)


# --- multi-class hinge --------------------------------------------------------------------------
class MultiMarginLoss(Function):
    """loss_i = sum over classes j != y_i of w[y_i] max(0, margin - x[i, y_i] + x[i, j])^p / C.

    Each violated class j pushes x[i, j] down and x[i, y_i] up by the same amount, h / C with
    h = w[y_i] (p = 1) or 2 w[y_i] (margin - x[i, y_i] + x[i, j]) (p = 2). The slopes are NumPy
    numbers, so, as in torch, the gradient cannot be differentiated again.
    """

    backward_name = "MultiMarginLossBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, target: Tensor, p: int, margin: float, weight: Tensor | None, reduction: str) -> Tensor:
        scores = x._data.reshape(-1, x._data.shape[-1] if x.ndim else 1)  # (N, C)
        classes = scores.shape[1]
        picked = target._data.reshape(-1)
        rows = np.arange(len(picked))
        gap = margin - scores[rows, picked][:, None] + scores  # (N, C): how far each class is inside the margin
        violated = gap > 0
        violated[rows, picked] = False  # the right class is not compared with itself
        w = np.ones(len(picked), dtype=scores.dtype) if weight is None else weight._data[picked]
        per_class = np.where(violated, gap if p == 1 else gap * gap, 0) * w[:, None]
        losses = (per_class.sum(axis=1) / classes).astype(scores.dtype, copy=False)
        # d loss_i / d x[i, j] for a violated j, before reduction
        slope = np.where(violated, 1 if p == 1 else 2 * gap, 0) * w[:, None] / classes
        slope[rows, picked] = -slope.sum(axis=1)
        ctx.save_for_backward(Tensor._from_array(slope.reshape(x.shape).astype(scores.dtype, copy=False), x.dtype), x)
        ctx.reduction, ctx.loss_shape = reduction, tuple(target.shape) if x.ndim <= 1 else (len(picked),)
        return Tensor._from_array(_reduce(losses.reshape(ctx.loss_shape), reduction), x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        slope, x = ctx.saved_tensors
        g = _unreduce(grad, ctx.reduction, ctx.loss_shape)
        g = g.reshape(-1, 1) if slope.ndim == 2 else g.reshape([1] * slope.ndim)
        (grad_x,) = first_order_only("multi_margin_loss", (slope * g,), x, grad)  # torch has no double backward here
        return grad_x, None, None, None, None, None


def multi_margin_loss(input: Tensor, target: Tensor, p: int = 1, margin: float = 1.0, weight: Tensor | None = None, size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> Tensor:  # noqa: A002
    reduction = _reduction(size_average, reduce, reduction)
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.ndim != 1:
        raise ValueError("weight must be one-dimensional")
    if not ((input.ndim == 2 and input.shape[1] != 0) or (input.ndim == 1 and input.shape[0] != 0) or input.ndim == 0):
        raise RuntimeError(f"Expected non-empty vector or matrix with optional 0-dim batch size, but got: {list(input.shape)}")
    samples, classes = (1, input.shape[0] if input.ndim else 1) if input.ndim <= 1 else tuple(input.shape)
    if target.ndim > 1 or target.numel() != samples:
        raise RuntimeError(
            "multi_margin_loss: target tensor should be 1-D with size equal to the number of input samples "
            f"(batch size). Expected target size [{samples}], but got {list(target.shape)}. Input has shape {list(input.shape)}."
        )
    if weight is not None and weight.numel() != classes:
        raise RuntimeError(f"inconsistent weight size, expected {classes} but got {list(weight.shape)}")
    if target.dtype is not int64:
        raise RuntimeError(f"expected scalar type Long but found {target.dtype.scalar_type}")
    _refuse_gradient("multi_margin_loss", "weight", weight)
    if target.numel() and (int(target._data.min()) < 0 or int(target._data.max()) >= classes):
        raise RuntimeError("target out of range")
    return MultiMarginLoss.apply(input, target, p, margin, weight, reduction)


class MultilabelMarginLoss(Function):
    """loss_i = sum over listed classes j and unlisted classes k of max(0, 1 - (x[i, j] - x[i, k])) / C.

    A row of ``target`` lists class indices up to its first -1. Each violated pair (j, k)
    pushes x[i, j] up and x[i, k] down by 1 / C.
    """

    backward_name = "MultilabelMarginLossBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, target: Tensor, reduction: str) -> Tensor:
        scores = x._data.reshape(-1, x._data.shape[-1] if x.ndim else 1)  # (N, C)
        labels = target._data.reshape(scores.shape)
        classes = scores.shape[1]
        losses = np.zeros(len(scores), dtype=scores.dtype)
        slope = np.zeros_like(scores)
        for i, (row, listed) in enumerate(zip(scores, labels, strict=True)):
            ends = np.flatnonzero(listed == -1)
            listed = listed[: ends[0] if ends.size else classes]
            unlisted = np.ones(classes, dtype=bool)
            unlisted[listed] = False
            margins = 1 - row[listed][:, None] + row[unlisted][None, :]  # (listed, unlisted)
            violated = margins > 0
            losses[i] = np.where(violated, margins, 0).sum() / classes
            np.add.at(slope[i], listed, -violated.sum(axis=1) / classes)
            slope[i, unlisted] += violated.sum(axis=0) / classes
        ctx.save_for_backward(Tensor._from_array(slope.reshape(x.shape), x.dtype), x)
        ctx.reduction, ctx.loss_shape = reduction, () if x.ndim <= 1 else (len(scores),)
        return Tensor._from_array(_reduce(losses.reshape(ctx.loss_shape), reduction), x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        slope, x = ctx.saved_tensors
        g = _unreduce(grad, ctx.reduction, ctx.loss_shape)
        g = g.reshape(-1, 1) if slope.ndim == 2 else g
        (grad_x,) = first_order_only("multilabel_margin_loss", (slope * g,), x, grad)
        return grad_x, None, None


def multilabel_margin_loss(input: Tensor, target: Tensor, size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> Tensor:  # noqa: A002
    reduction = _reduction(size_average, reduce, reduction)
    if not ((input.ndim == 2 and input.shape[1] != 0) or (input.ndim == 1 and input.shape[0] != 0) or input.ndim == 0):
        raise RuntimeError(f"Expected non-empty vector or matrix with optional 0-dim batch size, but got: {list(input.shape)}")
    if tuple(target.shape) != tuple(input.shape):
        raise RuntimeError(f"inconsistent target size: {list(target.shape)} for input of size: {list(input.shape)}")
    if target.dtype is not int64:
        raise RuntimeError(f"expected scalar type Long but found {target.dtype.scalar_type}")
    classes = input.shape[-1] if input.ndim else 1
    for row in target._data.reshape(-1, classes):
        ends = np.flatnonzero(row == -1)
        listed = row[: ends[0] if ends.size else classes]
        if listed.size and (listed.min() < 0 or listed.max() >= classes):
            raise RuntimeError("argument #2 'target' is out of range")
    return MultilabelMarginLoss.apply(input, target, reduction)


# --- distances between embeddings -----------------------------------------------------------------
def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0, size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> Tensor:
    """1 - cos(x1, x2) where y = 1, max(0, cos(x1, x2) - margin) where y = -1 (0 elsewhere).

    cos = x1.x2 / sqrt((|x1|^2 + 1e-12)(|x2|^2 + 1e-12)): the 1e-12 keeps a zero vector finite.
    """
    reduction = _reduction(size_average, reduce, reduction)
    dim = target.ndim
    if dim not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if dim == 1 and not (input1.ndim == 2 and input2.ndim == 2):
        raise RuntimeError(
            f"1D target tensor expects 2D input tensors, but found inputs with sizes {list(input1.shape)} and {list(input2.shape)}."
        )
    if dim == 0 and not (input1.ndim == 1 and input2.ndim == 1):
        raise RuntimeError(
            f"0D target tensor expects 1D input tensors, but found inputs with sizes {list(input1.shape)} and {list(input2.shape)}."
        )
    epsilon = 1e-12
    dot = (input1 * input2).sum(dim)
    squared_norms = ((input1 * input1).sum(dim) + epsilon) * ((input2 * input2).sum(dim) + epsilon)
    cos = dot / squared_norms.sqrt()
    similar = where(target == 1, 1 - cos, 0.0)
    dissimilar = where(target == -1, (cos - margin).clamp(min=0), 0.0)
    return _reduced(similar + dissimilar, reduction)


def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor, margin: float = 1.0, p: float = 2, eps: float = 1e-6, swap: bool = False, size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> Tensor:
    """max(0, margin + d(a, p) - d(a, n)); ``swap`` uses d(p, n) instead when it is smaller."""
    reduction = _reduction(size_average, reduce, reduction)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    if not anchor.ndim == positive.ndim == negative.ndim:
        raise RuntimeError(
            "The anchor, positive, and negative tensors are expected to have the same number of dimensions, "
            f"but got: anchor {anchor.ndim}D, positive {positive.ndim}D, and negative {negative.ndim}D inputs"
        )
    to_positive = pairwise_distance(anchor, positive, p, eps)
    to_negative = pairwise_distance(anchor, negative, p, eps)
    if swap:
        to_negative = minimum(to_negative, pairwise_distance(positive, negative, p, eps))
    return _reduced((margin + to_positive - to_negative).clamp(min=0), reduction)


def triplet_margin_with_distance_loss(
    anchor: Tensor, positive: Tensor, negative: Tensor, *, distance_function: Callable[[Tensor, Tensor], Tensor] | None = None,
    margin: float = 1.0, swap: bool = False, reduction: str = "mean",
) -> Tensor:
    """triplet_margin_loss with any distance (pairwise_distance when none is given), e.g.
    ``lambda a, b: 1 - F.cosine_similarity(a, b)``."""
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    if not anchor.ndim == positive.ndim == negative.ndim:
        raise RuntimeError(
            "The anchor, positive, and negative tensors are expected to have the same number of dimensions, "
            f"but got: anchor {anchor.ndim}D, positive {positive.ndim}D, and negative {negative.ndim}D inputs"
        )
    distance = distance_function if distance_function is not None else pairwise_distance
    to_positive = distance(anchor, positive)
    to_negative = distance(anchor, negative)
    if swap:
        to_negative = minimum(to_negative, distance(positive, negative))
    return _reduced((margin + to_positive - to_negative).clamp(min=0), reduction)
