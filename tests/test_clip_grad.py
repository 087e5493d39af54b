"""nn.utils.clip_grad_norm_ / clip_grad_value_ against torch: the returned norm and the clipped .grad."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import tensorlab as tl
from tests.oracle import assert_same, check_op


def clipped(lib: Any, grads: list[np.ndarray], clip: Any) -> tuple:
    """Parameters with the given gradients; ``clip`` runs on them; the result and the new grads."""
    params = [lib.nn.Parameter(lib.zeros(g.shape, dtype=lib.float32 if g.dtype == np.float32 else lib.float64)) for g in grads]
    for p, g in zip(params, grads, strict=True):
        p.grad = lib.tensor(g)
    result = clip(lib, params)
    return result, [p.grad for p in params]


@pytest.mark.parametrize("norm_type", [2.0, 1.0, 3.0, float("inf"), "inf"])
@pytest.mark.parametrize("max_norm", [0.5, 1.0, 100.0])
def test_clip_grad_norm_matches_torch(norm_type: Any, max_norm: float) -> None:
    grads = [np.array([3.0, 4.0, 0.0], np.float32), np.array([[1.0, -2.0], [0.5, 0.0]], np.float32)]
    expected = clipped(torch, grads, lambda lib, ps: lib.nn.utils.clip_grad_norm_(ps, max_norm, norm_type=norm_type))
    assert_same(expected, clipped(tl, grads, lambda lib, ps: lib.nn.utils.clip_grad_norm_(ps, max_norm, norm_type=norm_type)))


@settings(max_examples=25, deadline=None)
@given(
    shapes=st.lists(st.lists(st.integers(1, 4), min_size=0, max_size=2).map(tuple), min_size=1, max_size=3),
    max_norm=st.floats(0.01, 10), seed=st.integers(0, 99), dtype=st.sampled_from(["float32", "float64"]),
)
def test_clip_grad_norm_matches_torch_on_random_gradients(shapes: list[tuple], max_norm: float, seed: int, dtype: str) -> None:
    rng = np.random.default_rng(seed)
    grads = [rng.standard_normal(shape).astype(dtype) for shape in shapes]
    expected = clipped(torch, grads, lambda lib, ps: lib.nn.utils.clip_grad_norm_(ps, max_norm))
    assert_same(expected, clipped(tl, grads, lambda lib, ps: lib.nn.utils.clip_grad_norm_(ps, max_norm)))


@pytest.mark.parametrize("clip_value", [0.1, 1.0, 10.0])
def test_clip_grad_value_matches_torch(clip_value: float) -> None:
    grads = [np.array([3.0, -4.0, 0.05], np.float32), np.array([-0.5, 2.0], np.float32)]
    expected = clipped(torch, grads, lambda lib, ps: lib.nn.utils.clip_grad_value_(ps, clip_value))
    assert_same(expected, clipped(tl, grads, lambda lib, ps: lib.nn.utils.clip_grad_value_(ps, clip_value)))


def test_a_single_tensor_parameters_without_grad_and_none_at_all() -> None:
    def run(lib: Any, g: Any) -> tuple:
        p, idle = lib.nn.Parameter(lib.zeros(3)), lib.nn.Parameter(lib.zeros(2))
        p.grad = g.clone()
        return lib.nn.utils.clip_grad_norm_(p, 1.0), p.grad, lib.nn.utils.clip_grad_norm_([idle], 1.0), lib.nn.utils.clip_grad_norm_([], 1.0)

    check_op(run, np.array([3.0, 4.0, 0.0], np.float32), grad=False)


def test_a_non_finite_norm_raises_when_asked_like_torch() -> None:
    def run(lib: Any, g: Any) -> Any:
        p = lib.nn.Parameter(lib.zeros(3))
        p.grad = g.clone()
        return lib.nn.utils.clip_grad_norm_([p], 1.0, error_if_nonfinite=True)

    check_op(run, np.array([np.nan, 1.0, 0.0], np.float32), grad=False, same_message=True)
