"""Binary AUROC, with the interface of torcheval's ``BinaryAUROC`` / ``binary_auroc``.

AUROC is the area under the ROC curve: sweep a threshold from high to low over the scores and
plot the true-positive rate against the false-positive rate. Equivalently, it is the chance that
a random positive scores above a random negative (ties count one half). Scores that tie are
crossed together — one diagonal step of the curve — which is how scikit-learn's
``roc_auc_score`` treats them. If the targets hold only one class the area is undefined;
torcheval (and tensorlab) return 0.5; tensorlab
returns 0.5 for no samples too.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._dtype import float64
from ._tensor import Tensor

__all__ = ["BinaryAUROC", "binary_auroc"]


def _auroc(scores: np.ndarray, targets: np.ndarray, weights: np.ndarray | None) -> float:
    """Trapezoid area under the (weighted) ROC curve, one point per distinct threshold."""
    if scores.size == 0:  # no samples: no class at all, the same undefined area as one class
        return 0.5
    order = np.argsort(-scores, kind="stable")
    scores, targets = scores[order], targets[order].astype(np.float64)
    w = np.ones_like(targets) if weights is None else weights[order].astype(np.float64)
    true_pos = np.cumsum(w * targets)
    false_pos = np.cumsum(w * (1 - targets))
    # the curve's corners: the last position of each run of equal scores
    last_of_run = np.append(np.diff(scores) != 0, True)
    tp = np.concatenate([[0.0], true_pos[last_of_run]])
    fp = np.concatenate([[0.0], false_pos[last_of_run]])
    positives, negatives = tp[-1], fp[-1]
    if positives * negatives == 0:
        return 0.5
    return float(np.sum((fp[1:] - fp[:-1]) * (tp[1:] + tp[:-1]) / 2) / (positives * negatives))


def _check(input: Tensor, target: Tensor, num_tasks: int) -> None:  # noqa: A002
    if tuple(input.shape) != tuple(target.shape):
        raise ValueError(
            "The `input` and `target` should have the same shape, "
            f"got shapes {input.shape} and {target.shape}."
        )
    if num_tasks == 1 and input.ndim > 1:
        raise ValueError(f"`num_tasks = 1`, `input` is expected to be one-dimensional tensor, but got shape {input.shape}.")
    if num_tasks > 1 and (input.ndim != 2 or input.shape[0] != num_tasks):
        raise ValueError(f"`num_tasks = {num_tasks}`, `input`'s shape is expected to be ({num_tasks}, num_samples), but got shape {input.shape}.")


def binary_auroc(input: Tensor, target: Tensor, *, num_tasks: int = 1, weight: Tensor | None = None, use_fbgemm: bool = False) -> Tensor:  # noqa: A002
    """AUROC of scores ``input`` against 0/1 ``target`` (one row per task if num_tasks > 1)."""
    _check(input, target, num_tasks)
    scores, targets = np.asarray(input._data, dtype=np.float64), np.asarray(target._data)
    weights = None if weight is None else np.asarray(weight._data)
    if num_tasks == 1:
        return Tensor._from_array(np.asarray(_auroc(scores.reshape(-1), targets.reshape(-1), None if weights is None else weights.reshape(-1))), float64)
    values = [_auroc(scores[i], targets[i], None if weights is None else weights[i]) for i in range(num_tasks)]
    return Tensor._from_array(np.asarray(values), float64)


class BinaryAUROC:
    """Accumulate scores and targets over batches with ``update``; ``compute`` the AUROC of all."""

    def __init__(self, *, num_tasks: int = 1, device: Any = None, use_fbgemm: bool = False) -> None:
        if num_tasks < 1:
            raise ValueError(f"`num_tasks` value should be greater than or equal to 1, but received {num_tasks}. ")
        self.num_tasks = num_tasks
        self.reset()

    def reset(self) -> BinaryAUROC:
        self.inputs: list[np.ndarray] = []
        self.targets: list[np.ndarray] = []
        self.weights: list[np.ndarray] = []
        return self

    def update(self, input: Tensor, target: Tensor, weight: Tensor | None = None) -> BinaryAUROC:  # noqa: A002
        _check(input, target, self.num_tasks)
        self.inputs.append(np.array(input._data, dtype=np.float64))
        self.targets.append(np.array(target._data))
        self.weights.append(np.ones(input.shape) if weight is None else np.array(weight._data, dtype=np.float64))
        return self

    def compute(self) -> Tensor:
        if not self.inputs:
            return Tensor._from_array(np.zeros(0), float64)
        axis = -1
        scores = Tensor._from_array(np.concatenate(self.inputs, axis=axis), float64)
        targets = Tensor._from_array(np.concatenate(self.targets, axis=axis).astype(np.float64), float64)
        weights = Tensor._from_array(np.concatenate(self.weights, axis=axis), float64)
        return binary_auroc(scores, targets, num_tasks=self.num_tasks, weight=weights)

    def merge_state(self, metrics: Any) -> BinaryAUROC:
        for metric in metrics:
            self.inputs += metric.inputs
            self.targets += metric.targets
            self.weights += metric.weights
        return self
