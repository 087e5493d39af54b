"""Loss modules: hold the options (reduction, weight, ...) and call nn.functional.

CrossEntropyLoss = LogSoftmax + NLLLoss in one: give it raw logits, not probabilities (feeding
it softmax outputs is the classic loss/activation mismatch).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..._tensor import Tensor
from .. import functional as F
from ..functional.loss import _reduction
from .distance import PairwiseDistance
from .module import Module

__all__ = ["BCELoss", "BCEWithLogitsLoss", "CrossEntropyLoss", "MSELoss", "NLLLoss"]
__all__ += [  # API breadth: torch.nn's other losses
    "CosineEmbeddingLoss", "GaussianNLLLoss", "HingeEmbeddingLoss", "HuberLoss", "KLDivLoss", "L1Loss",
    "MarginRankingLoss", "MultiLabelSoftMarginLoss", "MultiMarginLoss", "PoissonNLLLoss", "SmoothL1Loss",
    "SoftMarginLoss", "TripletMarginLoss", "MultiLabelMarginLoss", "TripletMarginWithDistanceLoss",
]


class _Loss(Module):
    def __init__(self, size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> None:
        super().__init__()
        self.reduction = _reduction(size_average, reduce, reduction)


class _WeightedLoss(_Loss):
    """A loss with a per-class ``weight``, kept as a buffer (so it is in state_dict)."""

    def __init__(self, weight: Tensor | None = None, size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)


class NLLLoss(_WeightedLoss):
    """-input[i, target[i]], averaged: the input should be log-probabilities (e.g. LogSoftmax)."""

    def __init__(self, weight: Tensor | None = None, size_average: Any = None, ignore_index: int = -100, reduce: Any = None, reduction: str = "mean") -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.nll_loss(input, target, weight=self.weight, ignore_index=self.ignore_index, reduction=self.reduction)


class CrossEntropyLoss(_WeightedLoss):
    """NLLLoss of LogSoftmax(input): the input is raw logits."""

    def __init__(self, weight: Tensor | None = None, size_average: Any = None, ignore_index: int = -100, reduce: Any = None, reduction: str = "mean", label_smoothing: float = 0.0) -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.cross_entropy(input, target, weight=self.weight, ignore_index=self.ignore_index, reduction=self.reduction, label_smoothing=self.label_smoothing)


class MSELoss(_Loss):
    """Mean squared error (x - y)^2."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.mse_loss(input, target, reduction=self.reduction)


class BCELoss(_WeightedLoss):
    """Binary cross entropy of probabilities (apply sigmoid first, or use BCEWithLogitsLoss)."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.binary_cross_entropy(input, target, weight=self.weight, reduction=self.reduction)


class BCEWithLogitsLoss(_Loss):
    """Sigmoid + binary cross entropy in one stable step: the input is raw logits."""

    def __init__(self, weight: Tensor | None = None, size_average: Any = None, reduce: Any = None, reduction: str = "mean", pos_weight: Tensor | None = None) -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.binary_cross_entropy_with_logits(input, target, self.weight, pos_weight=self.pos_weight, reduction=self.reduction)


# --- regression ---------------------------------------------------------------------------------
class L1Loss(_Loss):
    """Mean absolute error |x - y|."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.l1_loss(input, target, reduction=self.reduction)


class SmoothL1Loss(_Loss):
    """Quadratic below ``beta``, absolute error above it (robust to outliers)."""

    def __init__(self, size_average: Any = None, reduce: Any = None, reduction: str = "mean", beta: float = 1.0) -> None:
        super().__init__(size_average, reduce, reduction)
        self.beta = beta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(_Loss):
    """delta * SmoothL1Loss(beta=delta): quadratic below ``delta``, linear (slope delta) above."""

    def __init__(self, reduction: str = "mean", delta: float = 1.0) -> None:
        super().__init__(reduction=reduction)
        self.delta = delta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.huber_loss(input, target, reduction=self.reduction, delta=self.delta)


# --- distributions -----------------------------------------------------------------------------
class KLDivLoss(_Loss):
    """KL(target || exp(input)): the input is log-probabilities; use reduction='batchmean'."""

    def __init__(self, size_average: Any = None, reduce: Any = None, reduction: str = "mean", log_target: bool = False) -> None:
        legacy = size_average is not None or reduce is not None
        super().__init__(size_average, reduce, reduction if legacy or reduction != "batchmean" else "mean")
        if not legacy:
            self.reduction = reduction  # 'batchmean' is this loss's own
        self.log_target = log_target

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.kl_div(input, target, reduction=self.reduction, log_target=self.log_target)


class PoissonNLLLoss(_Loss):
    """Negative log-likelihood of a count target under a predicted Poisson rate."""

    def __init__(self, log_input: bool = True, full: bool = False, size_average: Any = None, eps: float = 1e-8, reduce: Any = None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.log_input = log_input
        self.full = full
        self.eps = eps

    def forward(self, log_input: Tensor, target: Tensor) -> Tensor:
        return F.poisson_nll_loss(log_input, target, log_input=self.log_input, full=self.full, eps=self.eps, reduction=self.reduction)


class GaussianNLLLoss(_Loss):
    """Negative log-likelihood of the target under a predicted mean and variance."""

    def __init__(self, *, full: bool = False, eps: float = 1e-6, reduction: str = "mean") -> None:
        super().__init__(None, None, reduction)
        self.full = full
        self.eps = eps

    def forward(self, input: Tensor, target: Tensor, var: Tensor | float) -> Tensor:  # noqa: A002
        return F.gaussian_nll_loss(input, target, var, full=self.full, eps=self.eps, reduction=self.reduction)


# --- margins -----------------------------------------------------------------------------------
class MarginRankingLoss(_Loss):
    """max(0, -y (x1 - x2) + margin): x1 should outrank x2 when y = 1."""

    def __init__(self, margin: float = 0.0, size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor:
        return F.margin_ranking_loss(input1, input2, target, margin=self.margin, reduction=self.reduction)


class HingeEmbeddingLoss(_Loss):
    """x for similar pairs (y = 1), max(0, margin - x) for dissimilar ones (y = -1)."""

    def __init__(self, margin: float = 1.0, size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.hinge_embedding_loss(input, target, margin=self.margin, reduction=self.reduction)


class SoftMarginLoss(_Loss):
    """log(1 + exp(-y x)) for labels y = +-1."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.soft_margin_loss(input, target, reduction=self.reduction)


class MultiLabelSoftMarginLoss(_WeightedLoss):
    """Per-class logistic loss with 0/1 targets, averaged over classes."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.multilabel_soft_margin_loss(input, target, weight=self.weight, reduction=self.reduction)


class MultiMarginLoss(_WeightedLoss):
    """The multi-class hinge (SVM) loss: wrong classes must score ``margin`` below the right one."""

    def __init__(self, p: int = 1, margin: float = 1.0, weight: Tensor | None = None, size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> None:
        if p not in (1, 2):
            raise ValueError("only p == 1 and p == 2 supported")
        if weight is not None and weight.ndim != 1:
            raise ValueError(f"MultiMarginLoss: expected weight to be None or 1D tensor, got {weight.ndim}D instead")
        super().__init__(weight, size_average, reduce, reduction)
        self.p = p
        self.margin = margin

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.multi_margin_loss(input, target, p=self.p, margin=self.margin, weight=self.weight, reduction=self.reduction)


class CosineEmbeddingLoss(_Loss):
    """1 - cos for similar pairs (y = 1), max(0, cos - margin) for dissimilar ones (y = -1)."""

    def __init__(self, margin: float = 0.0, size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor:
        return F.cosine_embedding_loss(input1, input2, target, margin=self.margin, reduction=self.reduction)


class TripletMarginLoss(_Loss):
    """max(0, margin + d(anchor, positive) - d(anchor, negative))."""

    def __init__(self, margin: float = 1.0, p: float = 2.0, eps: float = 1e-6, swap: bool = False, size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        if margin <= 0:
            raise ValueError(f"TripletMarginLoss: expected margin to be greater than 0, got {margin} instead")
        self.margin = margin
        self.p = p
        self.eps = eps
        self.swap = swap

    def forward(self, anchor: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        return F.triplet_margin_loss(anchor, positive, negative, margin=self.margin, p=self.p, eps=self.eps, swap=self.swap, reduction=self.reduction)


class MultiLabelMarginLoss(_Loss):
    """The multi-label hinge loss: listed classes (up to the first -1) must score 1 above the others."""

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return F.multilabel_margin_loss(input, target, reduction=self.reduction)


class TripletMarginWithDistanceLoss(_Loss):
    """TripletMarginLoss with any distance function (a PairwiseDistance module by default)."""

    def __init__(self, *, distance_function: Callable[[Tensor, Tensor], Tensor] | None = None, margin: float = 1.0, swap: bool = False, reduction: str = "mean") -> None:
        super().__init__(None, None, reduction)
        if margin <= 0:
            raise ValueError(f"TripletMarginWithDistanceLoss: expected margin to be greater than 0, got {margin} instead")
        self.distance_function = distance_function if distance_function is not None else PairwiseDistance()
        self.margin = margin
        self.swap = swap

    def forward(self, anchor: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        return F.triplet_margin_with_distance_loss(
            anchor, positive, negative, distance_function=self.distance_function, margin=self.margin, swap=self.swap, reduction=self.reduction
        )
