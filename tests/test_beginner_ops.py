"""Issue 18's last beginner ops against torch: square, rsqrt, reciprocal, fmod, lerp, logical_and/or/xor,
cumprod (zeros included), count_nonzero, median, mv, diag, logspace — values, dtypes, gradients, errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tensorlab as tl
from tests.oracle import check_op
from tests.oracle import standard_normal as _standard_normal

shapes = st.lists(st.integers(0, 3), max_size=3).map(tuple)
seeds = st.integers(0, 2**16)
DTYPES = ["bool", "uint8", "int32", "int64", "float32", "float64"]


def standard_normal(shape: tuple, seed: int) -> np.ndarray:
    """An array even for shape () (NumPy hands back a scalar there)."""
    return np.asarray(_standard_normal(shape, seed))


def _values(shape: tuple, dtype: str, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    if dtype == "uint8":
        return rng.integers(0, 6, shape).astype(dtype)
    if dtype.startswith("int"):
        return rng.integers(-4, 5, shape).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


# --- one-input math ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["square", "rsqrt", "reciprocal"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_one_input_math_fixed(name: str, dtype: str) -> None:
    values = np.array([[0.5, 2.0, 3.0], [4.0, 1.0, 0.25]]) if dtype.startswith("float") else _values((2, 3), dtype, 1)
    check_op(lambda lib, a: getattr(lib, name)(a), values.astype(dtype))
    check_op(lambda lib, a: getattr(a, name)(), values.astype(dtype))


def test_one_input_math_at_zero_and_negative() -> None:
    for name in ("rsqrt", "reciprocal"):
        check_op(lambda lib, a, name=name: getattr(lib, name)(a), np.array([0.0, -0.0, -1.0, 4.0]), grad=False)
    check_op(lambda lib, a: lib.square(a), np.array([-2.0, 0.0, 3.0]))


@given(shape=shapes, seed=seeds, name=st.sampled_from(["square", "rsqrt", "reciprocal"]))
def test_one_input_math_hypothesis(shape: tuple, seed: int, name: str) -> None:
    x = np.abs(standard_normal(shape, seed)) + 0.5
    check_op(lambda lib, a: getattr(lib, name)(a), x)


def test_one_input_math_rejects_non_tensors() -> None:
    for name in ("square", "rsqrt", "reciprocal"):
        check_op(lambda lib, a, name=name: getattr(lib, name)(a), [1.0, 2.0], grad=False)  # a tensor: fine
        check_op(lambda lib, name=name: getattr(lib, name)([1.0]))  # a list: TypeError in both


# --- fmod and lerp ----------------------------------------------------------------------------
def test_fmod_fixed() -> None:
    x = np.array([-3.0, -2.5, 1.0, 2.5, 7.0])
    check_op(lambda lib, a, b: lib.fmod(a, b), x, np.array([2.0, -1.5, 3.0, -2.0, 2.5]))
    check_op(lambda lib, a: lib.fmod(a, 2), x)
    check_op(lambda lib, a: lib.fmod(a, -1.5), x)
    check_op(lambda lib, a: a.fmod(2), np.array([-7, -3, 3, 7]))
    check_op(lambda lib, a, b: lib.fmod(a, b), x.reshape(5, 1), np.array([1.5, -2.0]))  # broadcast, grads summed


def test_fmod_errors() -> None:
    check_op(lambda lib, a: lib.fmod(a, 0), np.array([1, 2]), match="ZeroDivisionError")
    check_op(lambda lib, a, b: lib.fmod(a, b), np.array([True]), np.array([True]))
    check_op(lambda lib, a, b: lib.fmod(a, b), np.zeros(2), np.zeros(3))


@given(shape=shapes, seed=seeds)
def test_fmod_hypothesis(shape: tuple, seed: int) -> None:
    x = standard_normal(shape, seed) * 5
    y = np.where(np.abs(d := standard_normal(shape, seed + 1)) < 0.1, 1.0, d)
    check_op(lambda lib, a, b: lib.fmod(a, b), x, y)


def test_lerp_fixed() -> None:
    start, end = standard_normal((2, 3), 0), standard_normal((2, 3), 1)
    check_op(lambda lib, a, b: lib.lerp(a, b, 0.3), start, end)
    check_op(lambda lib, a, b, w: lib.lerp(a, b, w), start, end, np.array([0.0, 0.5, 1.0]))
    check_op(lambda lib, a, b: a.lerp(b, 0.75), start.astype("float32"), end.astype("float32"))


def test_lerp_errors() -> None:
    check_op(lambda lib, a, b: lib.lerp(a, b, 0.5), np.zeros(2, "float32"), np.zeros(2), grad=False, match="expected dtype")
    check_op(lambda lib, a, b: lib.lerp(a, b, 0.5), np.array([1, 2]), np.array([3, 4]))


@given(shape=shapes, seed=seeds, weight=st.floats(-1, 2))
def test_lerp_hypothesis(shape: tuple, seed: int, weight: float) -> None:
    check_op(lambda lib, a, b: lib.lerp(a, b, weight), standard_normal(shape, seed), standard_normal(shape, seed + 1))


# --- logical_and / or / xor -------------------------------------------------------------------
@pytest.mark.parametrize("name", ["logical_and", "logical_or", "logical_xor"])
def test_logical_fixed(name: str) -> None:
    check_op(lambda lib, a, b: getattr(lib, name)(a, b), np.array([True, True, False, False]), np.array([True, False, True, False]))
    check_op(lambda lib, a, b: getattr(lib, name)(a, b), np.array([0.0, 2.5, -1.0]), np.array([[0], [3]]), grad=False)
    check_op(lambda lib, a, b: getattr(a, name)(b), np.array([0, 1, 2], "uint8"), np.array([0.0, 0.0, 1.0]), grad=False)
    check_op(lambda lib, a, b: getattr(lib, name)(a, b), np.zeros(2), np.zeros(3), grad=False)


@given(shape=shapes, seed=seeds, name=st.sampled_from(["logical_and", "logical_or", "logical_xor"]), dtypes=st.tuples(st.sampled_from(DTYPES), st.sampled_from(DTYPES)))
def test_logical_hypothesis(shape: tuple, seed: int, name: str, dtypes: tuple) -> None:
    check_op(lambda lib, a, b: getattr(lib, name)(a, b), _values(shape, dtypes[0], seed), _values(shape, dtypes[1], seed + 1), grad=False)


# --- cumprod and count_nonzero ----------------------------------------------------------------
def test_cumprod_without_zeros() -> None:
    x = standard_normal((3, 4), 0)
    for dim in (0, 1, -1):
        check_op(lambda lib, a, dim=dim: lib.cumprod(a, dim), x)
    check_op(lambda lib, a: a.cumprod(0), np.array(2.5))
    check_op(lambda lib, a: lib.cumprod(a, 0, dtype=lib.float64), np.array([1, 2, 3], "int32"))
    check_op(lambda lib, a: lib.cumprod(a, 0), np.array([1, 2, 3], "int32"))


def test_cumprod_gradient_with_zeros() -> None:
    """One zero, two zeros, a zero first and last: torch's zero-aware formula, not z / x."""
    for row in ([2.0, 0.0, 3.0, 4.0], [0.0, 2.0, 0.0, 5.0], [0.0, 1.5, 2.0], [1.5, -2.0, 0.0], [0.0, 0.0]):
        check_op(lambda lib, a: lib.cumprod(a, 0), np.array(row))
    x = np.array([[1.0, 0.0, 2.0], [0.0, 3.0, 0.0], [4.0, 5.0, 6.0]])
    for dim in (0, 1):
        check_op(lambda lib, a, g, dim=dim: lib.cumprod(a, dim) * g, x, standard_normal((3, 3), 1), grad=[True, False])


def test_cumprod_errors() -> None:
    check_op(lambda lib, a: lib.cumprod(a, 2), np.zeros((2, 2)))
    check_op(lambda lib, a: lib.cumprod(a, 0), np.array([True, False]))


@given(shape=shapes, seed=seeds, data=st.data())
def test_cumprod_hypothesis(shape: tuple, seed: int, data: st.DataObject) -> None:
    x = np.random.default_rng(seed).choice([-1.5, -1.0, 0.0, 0.5, 2.0], shape)
    dim = data.draw(st.integers(-len(shape), len(shape) - 1)) if shape else 0
    check_op(lambda lib, a: lib.cumprod(a, dim), x)


def test_count_nonzero_fixed() -> None:
    x = np.array([[0.0, 1.5, 0.0], [2.0, -0.0, 3.0]])
    check_op(lambda lib, a: lib.count_nonzero(a), x, grad=False)
    check_op(lambda lib, a: lib.count_nonzero(a, 1), x, grad=False)
    check_op(lambda lib, a: lib.count_nonzero(a, (0, 1)), x, grad=False)
    check_op(lambda lib, a: a.count_nonzero(dim=0), np.array([[True, False], [True, True]]))
    check_op(lambda lib, a: lib.count_nonzero(a, 2), x, grad=False)


@given(shape=shapes, seed=seeds, dtype=st.sampled_from(DTYPES), data=st.data())
def test_count_nonzero_hypothesis(shape: tuple, seed: int, dtype: str, data: st.DataObject) -> None:
    dim = data.draw(st.none() | st.integers(-len(shape), len(shape) - 1)) if shape else None
    check_op(lambda lib, a: lib.count_nonzero(a, dim), _values(shape, dtype, seed), grad=False)


# --- median -----------------------------------------------------------------------------------
def test_median_fixed() -> None:
    check_op(lambda lib, a: lib.median(a), np.array([3.0, 1.0, 4.0, 2.0]))  # even count: the lower middle, 2
    check_op(lambda lib, a: a.median(), np.array([[5.0, 1.0, 3.0], [2.0, 6.0, 4.0]]))
    check_op(lambda lib, a: lib.median(a, 1), np.array([[5.0, 1.0, 3.0, 0.5], [2.0, 6.0, 4.0, 8.0]]))
    check_op(lambda lib, a: lib.median(a, 0, keepdim=True), np.array([[5.0, 1.0], [2.0, 6.0], [4.0, 0.0]]))
    check_op(lambda lib, a: lib.median(a, dim=-1), np.array([7, 1, 3, 5]))
    check_op(lambda lib, a: lib.median(a), np.array(2.5))
    check_op(lambda lib, a: lib.median(a, 0), np.array(2.5))
    check_op(lambda lib, a: lib.median(a), np.zeros(0), grad=False)
    check_op(lambda lib, a: lib.median(a, 0), np.array([1.0, np.nan, 0.0, np.nan]), grad=False)


def test_median_errors() -> None:
    check_op(lambda lib, a: lib.median(a, 0), np.zeros((0, 3)), match="non-zero size")
    check_op(lambda lib, a: lib.median(a, 2), np.zeros((2, 3)))
    check_op(lambda lib, a: lib.median(a), np.array([True, False]))


@given(shape=shapes, seed=seeds, data=st.data())
def test_median_hypothesis(shape: tuple, seed: int, data: st.DataObject) -> None:
    size = int(np.prod(shape))
    x = np.asarray(np.random.default_rng(seed).permutation(size).reshape(shape) / 4)  # distinct: indices are defined
    if size:
        check_op(lambda lib, a: lib.median(a), x)
    if shape and shape[(dim := data.draw(st.integers(-len(shape), len(shape) - 1)))]:
        keepdim = data.draw(st.booleans())
        check_op(lambda lib, a: lib.median(a, dim, keepdim), x)


# --- mv and diag ------------------------------------------------------------------------------
def test_mv_fixed() -> None:
    check_op(lambda lib, m, v: lib.mv(m, v), standard_normal((3, 4), 0), standard_normal((4,), 1))
    check_op(lambda lib, m, v: m.mv(v), np.arange(6).reshape(2, 3), np.arange(3))
    check_op(lambda lib, m, v: lib.mv(m, v), np.zeros((2, 3)), np.zeros(2), match="size mismatch")
    check_op(lambda lib, m, v: lib.mv(m, v), np.zeros(3), np.zeros(3))
    check_op(lambda lib, m, v: lib.mv(m, v), np.zeros((2, 3)), np.zeros((3, 1)))
    check_op(lambda lib, m, v: lib.mv(m, v), np.zeros((2, 3), "float32"), np.zeros(3))


@given(rows=st.integers(0, 4), cols=st.integers(0, 4), seed=seeds)
def test_mv_hypothesis(rows: int, cols: int, seed: int) -> None:
    check_op(lambda lib, m, v: lib.mv(m, v), standard_normal((rows, cols), seed), standard_normal((cols,), seed + 1))


def test_diag_fixed() -> None:
    v = np.array([1.0, 2.0, 3.0])
    for k in (0, 1, -2, 4):
        check_op(lambda lib, a, k=k: lib.diag(a, k), v)
    m = standard_normal((3, 4), 0)
    for k in (0, 2, -1, -3, 5):
        check_op(lambda lib, a, k=k: lib.diag(a, k), m)
    check_op(lambda lib, a: a.diag(), m)
    check_op(lambda lib, a: a.diag(1), np.array([4, 5]))
    check_op(lambda lib, a: lib.diag(a), np.zeros((2, 2, 2)), match="Supports 1D or 2D")
    check_op(lambda lib, a: lib.diag(a), np.array(1.0))


@settings(max_examples=50)
@given(shape=st.lists(st.integers(0, 4), min_size=1, max_size=2).map(tuple), seed=seeds, k=st.integers(-4, 4))
def test_diag_hypothesis(shape: tuple, seed: int, k: int) -> None:
    check_op(lambda lib, a: lib.diag(a, k), standard_normal(shape, seed))


# --- logspace ---------------------------------------------------------------------------------
def test_logspace_fixed() -> None:
    check_op(lambda lib: lib.logspace(0, 2, 3))
    check_op(lambda lib: lib.logspace(-3, 0, 7, base=2))
    check_op(lambda lib: lib.logspace(0, 2, 3, base=2, dtype=lib.int64))
    check_op(lambda lib: lib.logspace(1, 1, 1, dtype=lib.float64))
    check_op(lambda lib: lib.logspace(0, 1, 0))
    check_op(lambda lib: lib.logspace(0, 1, -1))
    check_op(lambda lib: lib.logspace(0, 1, 3, requires_grad=True))


@given(start=st.floats(-3, 3), end=st.floats(-3, 3), steps=st.integers(0, 20), base=st.sampled_from([2.0, 10.0, 0.5]))
def test_logspace_hypothesis(start: float, end: float, steps: int, base: float) -> None:
    check_op(lambda lib: lib.logspace(start, end, steps, base, dtype=lib.float64))
    check_op(lambda lib: lib.logspace(start, end, steps, base), rtol=1e-5, atol=1e-6)


def test_tensor_methods_exist() -> None:
    for name in ("square", "rsqrt", "reciprocal", "fmod", "lerp", "logical_and", "logical_or", "logical_xor", "cumprod", "count_nonzero", "median", "mv", "diag"):
        assert callable(getattr(tl.Tensor, name)), name


# --- the in-place forms -----------------------------------------------------------------------
IN_PLACE_CASES = {
    "square_": (lambda lib, a: (a * 1).square_(), [np.array([-2.0, 0.5, 3.0])]),
    "rsqrt_": (lambda lib, a: (a * 1).rsqrt_(), [np.array([4.0, 0.25])]),
    "reciprocal_": (lambda lib, a: (a * 1).reciprocal_(), [np.array([4.0, -0.5])]),
    "fmod_": (lambda lib, a: (a * 1).fmod_(1.5), [np.array([-3.5, 2.0, 4.0])]),
    "lerp_": (lambda lib, a, b: (a * 1).lerp_(b, 0.25), [np.array([0.0, 1.0]), np.array([2.0, -1.0])]),
    "cumprod_": (lambda lib, a: (a * 1).cumprod_(0), [np.array([2.0, 0.0, 3.0])]),
    "logical_and_": (lambda lib, a, b: a.logical_and_(b), [np.array([1.0, 0.0, 2.0]), np.array([1.0, 1.0, 0.0])]),
    "logical_or_": (lambda lib, a, b: a.logical_or_(b), [np.array([1, 0, 0]), np.array([0, 0, 3])]),
    "logical_xor_": (lambda lib, a, b: a.logical_xor_(b), [np.array([True, False]), np.array([True, True])]),
    "namespace square_": (lambda lib, a: lib.square_(a), [np.array([3, -4])]),
}


@pytest.mark.parametrize("name", list(IN_PLACE_CASES))
def test_in_place_forms(name: str) -> None:
    fn, arrays = IN_PLACE_CASES[name]
    check_op(fn, *arrays, grad=name.startswith(("square", "rsqrt", "reciprocal", "fmod", "lerp", "cumprod")))
