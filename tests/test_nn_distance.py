"""pairwise_distance and cosine_similarity (and their modules) against torch."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import tensorlab as tl
from tests.oracle import check_op


def F(lib):  # noqa: N802 - reads like the usual ``F.``
    return lib.nn.functional


def randn(*shape: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape)


@pytest.mark.parametrize(
    ("a", "b", "dim"),
    [
        (randn(4, 3), randn(4, 3, seed=1), 1),
        (randn(4, 3), randn(3, seed=1), 1),  # broadcast
        (randn(2, 3, 4), randn(2, 3, 4, seed=1), -1),
        (randn(3), randn(3, seed=1), 0),
        (np.zeros((2, 3)), randn(2, 3, seed=1), 1),  # a zero vector: the norm is clamped at eps
        (randn(2, 3) * 1e-9, randn(2, 3, seed=1), 1),
    ],
    ids=["rows", "broadcast", "last-dim", "1-d", "zero-vector", "tiny"],
)
def test_cosine_similarity_matches_torch(a, b, dim):
    check_op(lambda lib, a, b: F(lib).cosine_similarity(a, b, dim=dim), a, b)
    check_op(lambda lib, a, b: F(lib).cosine_similarity(a, b, dim=dim, eps=0.5), a, b)


@pytest.mark.parametrize(
    ("a", "b"),
    [(randn(2, 3), randn(2, 4)), (np.array([1, 2, 3]), np.array([1, 2, 4]))],
    ids=["sizes", "integers"],
)
def test_cosine_similarity_errors(a, b):
    check_op(lambda lib, a, b: F(lib).cosine_similarity(a, b, dim=0), a, b)


def test_cosine_similarity_mixed_dtypes():
    """Each norm is taken in its own input's dtype (float32 here), then the division promotes;
    tensorlab's float32 norm rounds its last bit differently from torch's, hence rtol 1e-6."""
    check_op(lambda lib, a, b: F(lib).cosine_similarity(a, b, dim=0), randn(3), randn(3, seed=1).astype("float32"), rtol=1e-6)


@settings(max_examples=30, deadline=None)
@given(
    shape=st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple),
    seed=st.integers(0, 2**16),
    p=st.sampled_from([1.0, 2.0, 3.0]),
    data=st.data(),
)
def test_random_similarities_and_distances(shape, seed, p, data):
    dim = data.draw(st.integers(-len(shape), len(shape) - 1))
    a, b = randn(*shape, seed=seed), randn(*shape, seed=seed + 1)
    check_op(lambda lib, a, b: F(lib).cosine_similarity(a, b, dim=dim), a, b)
    check_op(lambda lib, a, b: F(lib).pairwise_distance(a, b, p=p), a, b)


@pytest.mark.parametrize(("name", "options"), [("CosineSimilarity", {}), ("CosineSimilarity", {"dim": 0, "eps": 1e-3}), ("PairwiseDistance", {"keepdim": True})])
def test_distance_modules(name, options):
    module_t, module_m = getattr(torch.nn, name)(**options), getattr(tl.nn, name)(**options)
    assert repr(module_m) == repr(module_t)
    check_op(lambda lib, a, b: (module_t if lib is torch else module_m)(a, b), randn(3, 4), randn(3, 4, seed=1))
