"""Recycled output buffers: reuse only memory nothing can see, and never change a visible value."""

import numpy as np
import pytest
import torch

import tensorlab as tl
from tensorlab import _buffers

BIG = (300, 300)  # above _buffers.MIN_ELEMENTS


@pytest.fixture(autouse=True)
def empty_pool():
    _buffers.release_all()
    yield
    _buffers.release_all()


def held() -> int:
    return sum(len(stack) for stack in _buffers._free.values())


def test_big_shapes_are_recycled_and_small_ones_are_not():
    assert 300 * 300 >= _buffers.MIN_ELEMENTS > 8 * 8
    x = tl.ones(*BIG)
    (x * 2) + 1
    assert held() >= 1
    _buffers.release_all()
    small = tl.ones(8, 8)
    (small * 2) + 1
    assert held() == 0


def test_a_chain_reuses_the_dead_temporary():
    x = tl.ones(*BIG)
    first = x * 2
    address = first.data_ptr()
    del first
    second = x + 1
    assert second.data_ptr() == address


def test_an_array_kept_from_numpy_is_never_reused():
    x = tl.ones(*BIG)
    kept = (x * 2).numpy()  # the tensor dies, the array lives on
    assert held() == 0
    later = [x * float(i) for i in range(3, 8)]
    assert not any(np.shares_memory(kept, t.numpy()) for t in later)
    np.testing.assert_array_equal(kept, 2.0)


def test_a_live_view_keeps_its_buffer():
    x = tl.ones(*BIG)
    row = (x * 5)[0]  # the full result dies, the view keeps its storage
    others = [x * float(i) for i in range(6, 10)]
    np.testing.assert_array_equal(row.numpy(), 5.0)
    assert not any(o.untyped_storage() is row.untyped_storage() for o in others)


def test_recycled_results_equal_torchs():
    rng = np.random.default_rng(0)
    xn, yn = rng.standard_normal(BIG, dtype=np.float32), rng.standard_normal(BIG, dtype=np.float32)
    expected = ((torch.tensor(xn) * 2 + 1).exp() * torch.tensor(yn)).tanh()
    x, y = tl.tensor(xn), tl.tensor(yn)
    for _ in range(3):  # later rounds run on recycled buffers
        got = ((x * 2 + 1).exp() * y).tanh()
        np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-5, atol=1e-6)
