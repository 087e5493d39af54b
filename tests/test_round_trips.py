"""Values out of a tensor and back, for every CPU dtype: item, tolist, numpy, from_numpy,
is_tensor, numel; and manual_seed making tensorlab's random numbers repeat."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import tensorlab as tl
from tests.oracle import TORCH_DTYPES, assert_same, check_op, pair

DTYPES = list(TORCH_DTYPES)


def values_of(dtype: str, seed: int, shape: tuple) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.random(shape) < 0.5
    if dtype.startswith("float"):
        return (rng.standard_normal(shape) * 10).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(max(info.min, -1000), min(info.max, 1000), size=shape, endpoint=True).astype(dtype)


@given(dtype=st.sampled_from(DTYPES), seed=st.integers(0, 2**16), shape=st.lists(st.integers(0, 3), max_size=3).map(tuple))
def test_tolist_numpy_and_back(dtype: str, seed: int, shape: tuple) -> None:
    array = values_of(dtype, seed, shape)
    t, m = pair(array)
    assert m.tolist() == t.tolist()
    assert m.numpy().dtype == t.numpy().dtype
    np.testing.assert_array_equal(m.numpy(), t.numpy())
    assert_same(torch.tensor(t.tolist(), dtype=t.dtype), tl.tensor(m.tolist(), dtype=m.dtype))
    assert_same(torch.from_numpy(t.numpy()), tl.from_numpy(m.numpy()))
    assert tl.numel(m) == torch.numel(t) and tl.is_tensor(m) and not tl.is_tensor(array)


@pytest.mark.parametrize("dtype", DTYPES)
def test_item_gives_the_python_number_torch_gives(dtype: str) -> None:
    for value in values_of(dtype, 0, (4,)):
        t, m = pair(np.array(value))
        assert_same(t.item(), m.item())
        assert type(m.item()) is type(t.item())


@pytest.mark.parametrize("dtype", DTYPES)
def test_conversions_between_dtypes(dtype: str) -> None:
    """x.to(d) for every pair of dtypes, wrapping and truncating as torch does."""
    for target in DTYPES:
        check_op(lambda lib, x, target=target: x.to(getattr(lib, target)), values_of(dtype, 1, (5,)), grad=False)


def test_manual_seed_repeats_tensorlab_numbers() -> None:
    """Same seed, same numbers (tensorlab's own generator: not torch's numbers)."""
    def draw() -> list:
        return [tl.rand(3).tolist(), tl.randn(2, 2).tolist(), tl.randint(0, 10, (4,)).tolist(), tl.nn.Linear(2, 2).weight.tolist()]

    tl.manual_seed(123)
    first = draw()
    tl.manual_seed(123)
    assert draw() == first
    tl.manual_seed(124)
    assert draw() != first
    assert tl.initial_seed() == 124


def test_bfloat16_is_named_but_refused_in_torchs_words() -> None:
    assert repr(tl.bfloat16) == "tensorlab.bfloat16" and tl.bfloat16.is_floating_point
    for call in (lambda: tl.ones(2, dtype=tl.bfloat16), lambda: tl.ones(2).to(tl.bfloat16), lambda: tl.tensor([1.0], dtype=tl.bfloat16)):
        with pytest.raises(TypeError, match=r"^Got unsupported ScalarType BFloat16$"):
            call()
    # torch's own words, where torch meets a bfloat16 it cannot convert
    with pytest.raises(TypeError, match=r"^Got unsupported ScalarType BFloat16$"):
        torch.ones(2, dtype=torch.bfloat16).numpy()
