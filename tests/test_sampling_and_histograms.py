"""bincount and histc against torch (deterministic: values compared); bernoulli, multinomial and the
in-place fills uniform_/random_/bernoulli_ at the level of distributions (shapes, dtypes, ranges,
frequencies, reproducibility under tensorlab.manual_seed: NumPy's numbers, not torch's), with torch's
error classes on bad input; Tensor.apply_."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import tensorlab as tl
from tests.oracle import check_op, layout

seeds = st.integers(0, 2**16)


# --- bincount and histc -----------------------------------------------------------------------
def test_bincount_fixed() -> None:
    x = np.array([1, 3, 1, 0])
    check_op(lambda lib, a: lib.bincount(a), x)
    check_op(lambda lib, a: lib.bincount(a, minlength=7), x)
    check_op(lambda lib, a: a.bincount(minlength=2), x)
    check_op(lambda lib, a, w: lib.bincount(a, w), x, np.array([0.5, 1.0, 2.0, -1.0]), grad=False)
    check_op(lambda lib, a, w: lib.bincount(a, weights=w), x, np.array([0.5, 1.0, 2.0, -1.0], "float32"), grad=False)
    check_op(lambda lib, a, w: lib.bincount(a, weights=w), x, np.array([1, 2, 3, 4]))
    check_op(lambda lib, a: lib.bincount(a), np.zeros(0, "int64"))
    check_op(lambda lib, a: lib.bincount(a), np.array([2, 0], "uint8"))


def test_bincount_errors() -> None:
    check_op(lambda lib, a: lib.bincount(a), np.array([-1, 2]), match="non-negative")
    check_op(lambda lib, a: lib.bincount(a), np.array([1.0]), grad=False)
    check_op(lambda lib, a: lib.bincount(a), np.array([[1]]))
    check_op(lambda lib, a: lib.bincount(a, minlength=-1), np.array([1]), match="minlength")
    check_op(lambda lib, a, w: lib.bincount(a, w), np.array([1, 2]), np.array([1.0]), grad=False, match="same length")


@given(seed=seeds, size=st.integers(0, 12), minlength=st.integers(0, 8), weighted=st.booleans())
def test_bincount_hypothesis(seed: int, size: int, minlength: int, weighted: bool) -> None:
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 6, size)
    if weighted:
        check_op(lambda lib, a, w: lib.bincount(a, w, minlength), x, rng.standard_normal(size), grad=False)
    else:
        check_op(lambda lib, a: lib.bincount(a, minlength=minlength), x)


def test_histc_fixed() -> None:
    x = np.array([1.0, 2.0, 3.0, 4.0, 0.5, 1.5])
    check_op(lambda lib, a: lib.histc(a), x, grad=False)
    check_op(lambda lib, a: lib.histc(a, bins=3, min=1, max=3), x, grad=False)  # 3 (the max) falls in the last bin
    check_op(lambda lib, a: a.histc(4), x.astype("float32"), grad=False)
    check_op(lambda lib, a: lib.histc(a, bins=4), np.array([2.0, 2.0]), grad=False)  # one point: [1, 3]
    check_op(lambda lib, a: lib.histc(a, bins=5), np.zeros(0), grad=False)
    check_op(lambda lib, a: lib.histc(a, 4, 0, 3), np.array([np.nan, 1.0, 2.0]), grad=False)


def test_histc_errors() -> None:
    check_op(lambda lib, a: lib.histc(a), np.array([1, 2]))
    check_op(lambda lib, a: lib.histc(a, bins=0), np.array([1.0]), grad=False, match="bins must be > 0")
    check_op(lambda lib, a: lib.histc(a, min=3, max=1), np.array([1.0]), grad=False, match="max must be larger than min")
    check_op(lambda lib, a: lib.histc(a), np.array([np.nan]), grad=False, match="not finite")


@given(seed=seeds, size=st.integers(0, 12), bins=st.integers(1, 6), bounds=st.sampled_from([(0, 0), (-1, 1), (0, 2.5)]))
def test_histc_hypothesis(seed: int, size: int, bins: int, bounds: tuple) -> None:
    x = np.random.default_rng(seed).integers(-6, 7, size) / 4  # quarter steps: values on bin edges too
    check_op(lambda lib, a: lib.histc(a, bins, *bounds), x, grad=False)


# --- bernoulli ----------------------------------------------------------------------------------
def test_bernoulli_takes_each_element_as_its_probability() -> None:
    tl.manual_seed(0)
    p = tl.tensor([0.0, 1.0, 0.25] * 2000, dtype=tl.float64)
    draws = tl.bernoulli(p)
    assert layout(draws) == layout(torch.bernoulli(torch.tensor(p.numpy())))
    values = draws.numpy().reshape(-1, 3)
    assert set(np.unique(values)) <= {0.0, 1.0}
    assert (values[:, 0] == 0).all() and (values[:, 1] == 1).all()
    assert abs(values[:, 2].mean() - 0.25) < 0.03
    assert abs(tl.bernoulli(tl.zeros(4000), 0.75).numpy().mean() - 0.75) < 0.03


def test_bernoulli_gradient_is_zero_as_torch() -> None:
    check_op(lambda lib, a: lib.bernoulli(a) * 0, np.array([0.0, 1.0, 0.0]))


def test_bernoulli_errors() -> None:
    check_op(lambda lib, a: lib.bernoulli(a), np.array([0.5, 2.0]), grad=False, match="p_in >= 0")
    check_op(lambda lib, a: lib.bernoulli(a), np.array([1, 0]))
    check_op(lambda lib, a: a.bernoulli_(1.5), np.zeros(3), grad=False, match="bernoulli_ expects p")
    check_op(lambda lib, a: lib.bernoulli(a, generator=1), np.array([0.5]), grad=False)


def test_bernoulli_in_place_keeps_dtype_and_takes_a_tensor_p() -> None:
    for dtype in ("int64", "float32", "bool"):
        t = tl.zeros(50, dtype=getattr(tl, dtype))
        assert t.bernoulli_(0.5) is t and t.dtype is getattr(tl, dtype)
        assert set(np.unique(t.numpy().astype(float))) <= {0.0, 1.0}
    t = tl.zeros(3).bernoulli_(tl.tensor([0.0, 1.0, 1.0]))
    assert t.tolist() == [0.0, 1.0, 1.0]


# --- multinomial --------------------------------------------------------------------------------
def test_multinomial_without_replacement_picks_distinct_categories() -> None:
    tl.manual_seed(1)
    weights = tl.tensor([[1.0, 0.0, 3.0, 2.0], [1.0, 1.0, 1.0, 1.0]])
    picks = tl.multinomial(weights, 3)
    assert layout(picks) == layout(torch.multinomial(torch.tensor(weights.numpy()), 3))
    for row in picks.tolist():
        assert len(set(row)) == 3
    assert 1 not in picks.tolist()[0]  # weight 0 comes last
    assert sorted(tl.multinomial(tl.tensor([1.0, 0.0, 1.0]), 3).tolist()[:2]) == [0, 2]


def test_multinomial_with_replacement_follows_the_weights() -> None:
    tl.manual_seed(2)
    picks = tl.multinomial(tl.tensor([1.0, 0.0, 3.0]), 8000, replacement=True).numpy()
    assert picks.shape == (8000,) and picks.dtype == np.int64
    counts = np.bincount(picks, minlength=3) / 8000
    assert counts[1] == 0 and abs(counts[2] - 0.75) < 0.03


def test_multinomial_errors() -> None:
    check_op(lambda lib, a: lib.multinomial(a, 1), np.array([1.0, -1.0]), grad=False, match="element < 0")
    check_op(lambda lib, a: lib.multinomial(a, 1), np.array([1, 2]), match="floating-point")
    check_op(lambda lib, a: lib.multinomial(a, 1), np.array([0.0, 0.0]), grad=False, match="sum of probabilities")
    check_op(lambda lib, a: lib.multinomial(a, 1), np.array(1.0), grad=False, match="1 or 2 dim")
    check_op(lambda lib, a: lib.multinomial(a, 3), np.array([1.0, 1.0]), grad=False, match="without replacement")


@settings(max_examples=30)
@given(seed=seeds, rows=st.integers(1, 3), categories=st.integers(1, 5), replacement=st.booleans(), data=st.data())
def test_multinomial_hypothesis(seed: int, rows: int, categories: int, replacement: bool, data: st.DataObject) -> None:
    weights = np.random.default_rng(seed).random((rows, categories)) + 0.1
    n = data.draw(st.integers(1, 8 if replacement else categories))
    gen = tl.Generator().manual_seed(seed)
    picks = tl.multinomial(tl.tensor(weights), n, replacement, generator=gen)
    again = tl.multinomial(tl.tensor(weights), n, replacement, generator=tl.Generator().manual_seed(seed))
    assert layout(picks) == layout(torch.multinomial(torch.tensor(weights), n, replacement))
    assert picks.tolist() == again.tolist()
    values = picks.numpy()
    assert ((values >= 0) & (values < categories)).all()
    if not replacement:
        assert all(len(set(row)) == n for row in values.tolist())


# --- uniform_ and random_ -----------------------------------------------------------------------
@given(seed=seeds, low=st.floats(-5, 5), width=st.floats(0.1, 5), dtype=st.sampled_from(["float32", "float64"]))
def test_uniform_stays_in_range_and_reproduces(seed: int, low: float, width: float, dtype: str) -> None:
    tl.manual_seed(seed)
    t = tl.empty(200, dtype=getattr(tl, dtype))
    assert t.uniform_(low, low + width) is t and t.dtype is getattr(tl, dtype)
    values = t.numpy().astype(np.float64)
    assert (values >= np.float32(low) - 1e-6).all() and (values <= low + width + 1e-5).all()
    tl.manual_seed(seed)
    assert tl.empty(200, dtype=getattr(tl, dtype)).uniform_(low, low + width).tolist() == t.tolist()


def test_uniform_default_and_errors() -> None:
    values = tl.zeros(4000).uniform_().numpy()
    assert (values >= 0).all() and (values < 1).all() and abs(values.mean() - 0.5) < 0.03
    check_op(lambda lib, a: a.uniform_(2, 1), np.zeros(3), grad=False, match="uniform_ expects")
    check_op(lambda lib, a: a.uniform_(), np.zeros(3, "int64"))


def test_random_ranges_by_dtype() -> None:
    tl.manual_seed(3)
    assert set(tl.zeros(500, dtype=tl.int32).random_(5).tolist()) == {0, 1, 2, 3, 4}
    assert set(tl.zeros(500, dtype=tl.int64).random_(-2, 2).tolist()) == {-2, -1, 0, 1}
    assert set(tl.zeros(200, dtype=tl.bool).random_().tolist()) == {False, True}
    u8 = tl.zeros(2000, dtype=tl.uint8).random_().numpy()
    assert u8.min() >= 0 and u8.max() > 200
    f32 = tl.zeros(500).random_().numpy()
    assert (f32 == np.round(f32)).all() and f32.max() <= 2**24 and f32.max() > 2**20
    check_op(lambda lib, a: a.random_(3, 1), np.zeros(3), grad=False, match="random_ expects")


def test_fills_record_a_zero_gradient_like_normal_() -> None:
    for fill in (lambda t: t.uniform_(), lambda t: t.random_(4), lambda t: t.bernoulli_(0.5)):
        check_op(lambda lib, a, fill=fill: fill(a * 1) * 0, np.ones(3))


def test_fills_reproduce_under_manual_seed_and_generator() -> None:
    def draws() -> list:
        return [tl.zeros(5).uniform_().tolist(), tl.zeros(5).random_(100).tolist(), tl.zeros(5).bernoulli_(0.5).tolist(),
                tl.bernoulli(tl.full((5,), 0.5)).tolist(), tl.multinomial(tl.ones(5), 3).tolist()]

    tl.manual_seed(7)
    first = draws()
    tl.manual_seed(7)
    assert draws() == first
    g = tl.Generator().manual_seed(4)
    a = tl.zeros(5).uniform_(generator=g).tolist()
    assert tl.zeros(5).uniform_(generator=tl.Generator().manual_seed(4)).tolist() == a


# --- apply_ -------------------------------------------------------------------------------------
def test_apply_calls_python_on_every_element() -> None:
    for values in (np.arange(6.0).reshape(2, 3), np.array([1, -2, 3])):
        t_torch, t_tl = torch.tensor(values), tl.tensor(values)
        assert t_tl.apply_(lambda v: v * v + 1) is t_tl
        np.testing.assert_array_equal(t_tl.numpy(), t_torch.apply_(lambda v: v * v + 1).numpy())
    check_op(lambda lib, a: a.apply_(abs), np.ones(2), grad=True)


def test_new_names_are_there() -> None:
    for name in ("bincount", "histc", "bernoulli", "multinomial"):
        assert callable(getattr(tl, name))
    for name in ("uniform_", "random_", "bernoulli_", "apply_"):
        assert callable(getattr(tl.Tensor, name))


@pytest.mark.parametrize("name", ["bernoulli", "multinomial"])
def test_bad_generator_is_a_type_error(name: str) -> None:
    args = (tl.tensor([0.5, 0.5]),) + ((1,) if name == "multinomial" else ())
    with pytest.raises(TypeError):
        getattr(tl, name)(*args, generator="seed")
