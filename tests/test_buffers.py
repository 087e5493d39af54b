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


def test_a_scratch_array_given_back_is_reused():
    scratch = _buffers.empty(BIG, np.dtype(np.float32))
    address = scratch.__array_interface__["data"][0]
    _buffers.give_back(scratch)
    del scratch
    assert _buffers.empty(BIG, np.dtype(np.float32)).__array_interface__["data"][0] == address


def test_a_scratch_array_with_a_live_view_is_not_given_back():
    scratch = _buffers.empty(BIG, np.dtype(np.float32))
    row = scratch[0]
    _buffers.give_back(scratch)
    assert held() == 0
    row[:] = 7  # still ours alone
    assert not np.shares_memory(row, _buffers.empty(BIG, np.dtype(np.float32)))


def test_memory_someone_else_still_holds_is_not_taken():
    mine = np.zeros(BIG[0] * BIG[1], np.float32)
    view = mine.reshape(BIG)  # a lone name, as a caller holds its scratch; its base is ``mine``
    _buffers.give_back(view)
    assert held() == 0
    mine[:] = 1  # still ours
    assert not np.shares_memory(mine, _buffers.empty(BIG, np.dtype(np.float32)))


@pytest.mark.parametrize("padding", [0, 2])
def test_conv_training_steps_recycle_their_big_temporaries(padding):
    """Two steps of conv1d forward+backward: same values as torch, and the second step finds
    the first step's columns and scratch arrays in the pool instead of fresh memory."""
    rng = np.random.default_rng(0)
    x, w = rng.standard_normal((8, 4, 700)).astype(np.float32), rng.standard_normal((6, 4, 5)).astype(np.float32)
    results = {}
    for lib in (torch, tl):
        xt, wt = lib.tensor(x, requires_grad=True), lib.tensor(w, requires_grad=True)
        for _ in range(2):
            xt.grad = wt.grad = None
            out = lib.nn.functional.conv1d(xt, wt, padding=padding)
            (out * out).sum().backward()
        results[lib] = (out, xt.grad, wt.grad)
        if lib is tl:
            assert held() >= 1
    for expected, got in zip(results[torch], results[tl], strict=True):
        np.testing.assert_allclose(got.detach().numpy(), expected.detach().numpy(), rtol=1e-4, atol=1e-3)
