"""BinaryAUROC / binary_auroc against scikit-learn's roc_auc_score (ties included)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score

import tensorlab as tl
from tensorlab.metrics import BinaryAUROC, binary_auroc


@given(
    n=st.integers(2, 40),
    levels=st.integers(1, 6),  # few distinct scores: many ties
    seed=st.integers(0, 2**16),
    weighted=st.booleans(),
)
def test_binary_auroc_matches_sklearn(n, levels, seed, weighted):
    rng = np.random.default_rng(seed)
    scores = rng.integers(0, levels, n) / levels
    targets = rng.integers(0, 2, n)
    if targets.min() == targets.max():
        targets[0] = 1 - targets[0]
    weights = rng.random(n) + 0.1 if weighted else None
    expected = roc_auc_score(targets, scores, sample_weight=weights)
    got = binary_auroc(tl.tensor(scores), tl.tensor(targets), weight=None if weights is None else tl.tensor(weights))
    assert got.dtype is tl.float64 and got.shape == ()
    assert abs(got.item() - expected) < 1e-12


def test_hand_checked_examples():
    # one positive above both negatives, one tied with a negative: (1 + 1 + 1 + 0.5) / 4
    assert binary_auroc(tl.tensor([0.9, 0.5, 0.5, 0.1]), tl.tensor([1, 1, 0, 0])).item() == pytest.approx(0.875)
    assert binary_auroc(tl.tensor([0.1, 0.2, 0.3]), tl.tensor([0, 0, 1])).item() == 1.0
    assert binary_auroc(tl.tensor([0.3, 0.2, 0.1]), tl.tensor([0, 0, 1])).item() == 0.0
    assert binary_auroc(tl.tensor([0.5, 0.5]), tl.tensor([0, 1])).item() == 0.5


def test_single_class_gives_one_half_like_torcheval():
    assert binary_auroc(tl.tensor([0.1, 0.9]), tl.tensor([1, 1])).item() == 0.5
    assert binary_auroc(tl.tensor([0.1, 0.9]), tl.tensor([0, 0])).item() == 0.5


def test_no_samples_gives_one_half_like_a_single_class():
    assert binary_auroc(tl.tensor([]), tl.tensor([])).item() == 0.5


def test_multiple_tasks():
    rng = np.random.default_rng(0)
    scores, targets = rng.random((3, 20)), rng.integers(0, 2, (3, 20))
    got = binary_auroc(tl.tensor(scores), tl.tensor(targets), num_tasks=3)
    assert tuple(got.shape) == (3,)
    np.testing.assert_allclose(got.numpy(), [roc_auc_score(t, s) for s, t in zip(scores, targets, strict=True)])


def test_class_accumulates_batches_and_resets():
    rng = np.random.default_rng(1)
    scores, targets = rng.random(30), rng.integers(0, 2, 30)
    metric = BinaryAUROC()
    for start in range(0, 30, 7):
        assert metric.update(tl.tensor(scores[start : start + 7]), tl.tensor(targets[start : start + 7])) is metric
    assert abs(metric.compute().item() - roc_auc_score(targets, scores)) < 1e-12
    assert metric.reset() is metric
    assert metric.compute().numel() == 0
    metric.update(tl.tensor([0.2, 0.8]), tl.tensor([0.0, 1.0]))
    assert metric.compute().item() == 1.0
    other = BinaryAUROC().update(tl.tensor([0.9]), tl.tensor([0.0]))
    assert metric.merge_state([other]).compute().item() == 0.5


def test_shape_errors():
    with pytest.raises(ValueError, match="same shape"):
        binary_auroc(tl.tensor([0.1, 0.2]), tl.tensor([1]))
    with pytest.raises(ValueError, match="one-dimensional"):
        BinaryAUROC().update(tl.ones(2, 2), tl.ones(2, 2))
    with pytest.raises(ValueError):
        BinaryAUROC(num_tasks=0)
