"""Recycled output buffers: reuse only memory nothing can see, and never change a visible value.

The pool is part of the fast path (``tensorlab/_fast/``): conftest runs every test here on both
paths, and the ``fast_path`` fixture says which. On the plain path nothing is ever recycled.
"""

import numpy as np
import pytest
import torch

import tensorlab as tl
from tensorlab._fast import buffers as _buffers

BIG = (300, 300)  # above _buffers.MIN_ELEMENTS


@pytest.fixture(autouse=True)
def empty_pool():
    _buffers.release_all()
    yield
    _buffers.release_all()


@pytest.fixture
def pool_requests(monkeypatch):
    """Every shape asked of the pool while the test runs."""
    asked = []
    real_empty = _buffers.empty
    monkeypatch.setattr(_buffers, "empty", lambda shape, dtype: asked.append(tuple(shape)) or real_empty(shape, dtype))
    return asked


def held() -> int:
    return sum(len(stack) for stack in _buffers._free.values())


def test_big_shapes_are_recycled_and_small_ones_are_not(fast_path):
    assert 300 * 300 >= _buffers.MIN_ELEMENTS > 8 * 8
    x = tl.ones(*BIG)
    (x * 2) + 1
    assert (held() >= 1) is fast_path
    _buffers.release_all()
    small = tl.ones(8, 8)
    (small * 2) + 1
    assert held() == 0


def test_a_chain_reuses_the_dead_temporary(fast_path, pool_requests):
    x = tl.ones(*BIG)
    first = x * 2
    address = first.data_ptr()
    del first
    second = x + 1
    assert held() == 0 and bool(pool_requests) is fast_path
    if fast_path:  # (on the plain path, malloc may hand back the same address by itself)
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


def test_a_scratch_array_given_back_is_reused_on_the_fast_path_only(fast_path):
    scratch = _buffers.empty(BIG, np.dtype(np.float32))
    address = scratch.__array_interface__["data"][0]
    _buffers.give_back(scratch)
    del scratch
    assert held() == int(fast_path)
    if fast_path:
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
def test_conv_training_steps_recycle_their_big_temporaries(padding, fast_path, pool_requests):
    """Two steps of conv1d forward+backward: same values as torch, and the second step finds
    the first step's columns and scratch arrays in the pool instead of fresh memory. On the
    plain path the pool is never asked for memory."""
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
            assert (held() >= 1) is fast_path
            assert bool(pool_requests) is fast_path
    for expected, got in zip(results[torch], results[tl], strict=True):
        np.testing.assert_allclose(got.detach().numpy(), expected.detach().numpy(), rtol=1e-4, atol=1e-3)


def test_turning_the_fast_path_off_empties_the_pool():
    with tl.fast_path(True):
        x = tl.ones(*BIG)
        (x * 2) + 1
        assert held() >= 1
        with tl.fast_path(False):
            assert held() == 0
            assert not tl.fast_path_enabled()
        assert tl.fast_path_enabled()
