"""Reductions against torch: values, dtypes, shapes, gradients (ties and zeros included), errors."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import tensorlab as tl
from tests.oracle import check_op, pair, standard_normal

random_shapes = st.lists(st.integers(0, 3), max_size=3).map(tuple)
seeds = st.integers(0, 2**16)

ALL_DTYPES = ["bool", "uint8", "int32", "int64", "float16", "float32", "float64"]
FLOAT_DTYPES = ["float16", "float32", "float64"]
INF = math.inf


# --- strategies ----------------------------------------------------------------------------
def _values(rng: np.random.Generator, shape: tuple, dtype: str, ties: bool) -> np.ndarray:
    """Small integers (lots of ties and zeros) or normal floats, of the given dtype."""
    if dtype == "bool":
        values = rng.integers(0, 2, shape)
    elif dtype == "uint8":
        values = rng.integers(0, 6, shape)
    elif dtype.startswith("int"):
        values = rng.integers(-4, 5, shape)
    else:
        values = rng.integers(-3, 4, shape) / 2 if ties else rng.standard_normal(shape)
    return np.asarray(values).astype(dtype)


@st.composite
def arrays(draw: st.DrawFn, dtypes: list[str] = ALL_DTYPES, max_ndim: int = 4) -> np.ndarray:
    """0-d to 4-d arrays, sides 0..3 (size-1 and empty dims included)."""
    ndim = draw(st.integers(0, max_ndim))
    shape = tuple(draw(st.lists(st.sampled_from([1, 2, 3, 1, 2, 3, 0]), min_size=ndim, max_size=ndim)))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    return _values(rng, shape, draw(st.sampled_from(dtypes)), ties=draw(st.booleans()))


@st.composite
def dims(draw: st.DrawFn, ndim: int) -> object:
    """None, an int (maybe negative), or a tuple or list of distinct dims (maybe negative)."""
    n = max(ndim, 1)
    kind = draw(st.sampled_from(["none", "int", "tuple", "list"]))
    if kind == "none":
        return None
    if kind == "int":
        return draw(st.integers(-n, n - 1))
    chosen = draw(st.lists(st.integers(0, n - 1), unique=True, max_size=n))
    chosen = [d - n if draw(st.booleans()) else d for d in chosen]
    return tuple(chosen) if kind == "tuple" else chosen


@st.composite
def array_and_dims(draw: st.DrawFn, dtypes: list[str] = ALL_DTYPES, single: bool = False) -> tuple:
    x = draw(arrays(dtypes))
    n = max(x.ndim, 1)
    dim = draw(st.integers(-n, n - 1)) if single else draw(dims(x.ndim))
    return x, dim, draw(st.booleans())


def _call(method: str, x: object, dim: object, keepdim: bool, **kwargs: object) -> object:
    """``x.method()`` when dim is None (torch rejects keepdim without dim), else with dim."""
    if dim is None:
        return getattr(x, method)(**kwargs)
    return getattr(x, method)(dim, keepdim, **kwargs)


# --- the course's seed examples (003, "Reducing") ---------------------------------------------
ONES = np.ones((3, 4, 5), dtype=np.float32)


@pytest.mark.parametrize(
    "example",
    [
        lambda lib, x: x.sum(),
        lambda lib, x: x.sum(dim=0).shape,
        lambda lib, x: x.sum(dim=1).shape,
        lambda lib, x: x.sum(dim=2).shape,
        lambda lib, x: x.sum(0, keepdim=True).shape,
        lambda lib, x: x.sum([0, 1], keepdim=True).shape,
        lambda lib, x: x.sum([0, 1], keepdim=True),
        lambda lib, x: x.mean(dim=(0, 2)),
        lambda lib, x: x.max(dim=1),
        lambda lib, x: x.argmax(),
    ],
    ids=["sum", "sum0", "sum1", "sum2", "sum0-keepdim", "sum01-keepdim", "sum01-values", "mean02", "max1", "argmax"],
)
def test_seed_examples(example: object) -> None:
    check_op(example, ONES)


# --- sum, mean, prod -------------------------------------------------------------------------
@given(case=array_and_dims())
def test_sum(case: tuple) -> None:
    x, dim, keepdim = case
    check_op(lambda lib, a: _call("sum", a, dim, keepdim), x)
    check_op(lambda lib, a: lib.sum(a, dim if dim is not None else (), keepdim=keepdim), x)


@given(case=array_and_dims(), out=st.sampled_from(ALL_DTYPES))
def test_sum_dtype_argument(case: tuple, out: str) -> None:
    x, dim, keepdim = case
    dtype = lambda lib: getattr(lib, out)  # noqa: E731
    check_op(lambda lib, a: _call("sum", a, dim, keepdim, dtype=dtype(lib)), x)


@given(case=array_and_dims())
def test_mean(case: tuple) -> None:
    x, dim, keepdim = case
    check_op(lambda lib, a: _call("mean", a, dim, keepdim), x)


@given(case=array_and_dims(["int64", "float32"]), out=st.sampled_from(["float64", "int32"]))
def test_mean_dtype_argument(case: tuple, out: str) -> None:
    x, dim, keepdim = case
    check_op(lambda lib, a: lib.mean(a, dim if dim is not None else (), keepdim, dtype=getattr(lib, out)), x)


def test_mean_of_integers_is_an_error() -> None:
    message = "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Long"
    check_op(lambda lib, a: a.mean(), np.arange(6), match=message)
    check_op(lambda lib, a: a.mean(0), np.array([True, False]), match="Got: Bool")


@given(case=array_and_dims(single=True))
def test_prod(case: tuple) -> None:
    x, dim, keepdim = case
    if x.dtype.kind == "f":  # values whose products stay finite even in float16
        x = np.asarray(np.random.default_rng(x.size).choice([-1.0, -0.5, 0.0, 0.5, 1.0, 1.1], x.shape)).astype(x.dtype)
    check_op(lambda lib, a: a.prod(), x)
    check_op(lambda lib, a: a.prod(dim, keepdim), x)


@pytest.mark.parametrize(
    "values",
    [[2.0, 3.0, 4.0], [2.0, 0.0, 4.0], [0.0, 0.0, 4.0], [0.0, 0.0, 0.0], [[0.0, 0.0, 4.0], [1.0, 0.0, 4.0], [1.0, 2.0, 3.0]]],
    ids=["no-zero", "one-zero", "two-zeros", "all-zero", "rows"],
)
def test_prod_gradient_with_zeros(values: list) -> None:
    x = np.array(values)
    check_op(lambda lib, a: a.prod(), x)
    check_op(lambda lib, a: a.prod(-1), x)


def test_prod_takes_one_int_dim() -> None:
    check_op(lambda lib, a: a.prod((0,)), np.ones((2, 3)))
    check_op(lambda lib, a: a.prod(2), np.ones((2, 3)))


# --- max, min, amax, amin, argmax, argmin ----------------------------------------------------
@given(x=arrays())
def test_max_min_of_everything(x: np.ndarray) -> None:
    check_op(lambda lib, a: a.max(), x)
    check_op(lambda lib, a: lib.min(a), x)


@given(case=array_and_dims(single=True))
def test_max_min_along_dim(case: tuple) -> None:
    x, dim, keepdim = case
    check_op(lambda lib, a: a.max(dim, keepdim), x)
    check_op(lambda lib, a: lib.min(a, dim=dim, keepdim=keepdim), x)
    check_op(lambda lib, a: (*a.max(dim)[::-1], a.min(dim).values, a.min(dim).indices), x)


@given(case=array_and_dims())
def test_amax_amin(case: tuple) -> None:
    x, dim, keepdim = case
    check_op(lambda lib, a: a.amax(() if dim is None else dim, keepdim), x)
    check_op(lambda lib, a: lib.amin(a, () if dim is None else dim, keepdim=keepdim), x)


@given(case=array_and_dims(single=True), none=st.booleans())
def test_argmax_argmin(case: tuple, none: bool) -> None:
    x, dim, keepdim = case
    dim = None if none else dim
    check_op(lambda lib, a: a.argmax(dim, keepdim), x)
    check_op(lambda lib, a: lib.argmin(a, dim=dim, keepdim=keepdim), x)


def test_two_tensor_max_is_maximum() -> None:
    a, b = np.array([[1.0, 5.0, 2.0]]), np.array([[3.0], [2.0]])
    check_op(lambda lib, x, y: lib.max(x, y), a, b)
    check_op(lambda lib, x, y: x.min(y), a, b)
    check_op(lambda lib, x, y: lib.max(x, x.detach()), a, a)  # a tie splits the gradient


TIES = np.array([[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]])


@pytest.mark.parametrize(
    "op",
    [
        lambda lib, a: a.max(),  # shared evenly: 1/2 each
        lambda lib, a: a.min(),
        lambda lib, a: a.amax(1),
        lambda lib, a: a.amin((0, 1)),
        lambda lib, a: a.max(1),  # all to the returned (first) index
        lambda lib, a: a.min(0, keepdim=True),
        lambda lib, a: a.norm(INF),
        lambda lib, a: a.norm(-INF, dim=1),
    ],
    ids=["max", "min", "amax1", "amin01", "max-dim", "min-dim", "norm-inf", "norm-neg-inf"],
)
def test_gradient_ties(op: object) -> None:
    check_op(op, TIES)
    check_op(op, np.ones((2, 3)))


def test_max_returns_first_index_on_ties() -> None:
    x = np.array([0.0] * 50 + [1.0] * 100)
    check_op(lambda lib, a: a.max(0), x)
    check_op(lambda lib, a: (a.argmax(), a.argmin()), x)


def test_nan_propagates_and_takes_the_index() -> None:
    x = np.array([1.0, math.nan, 3.0, math.nan])
    for op in (lambda lib, a: a.max(), lambda lib, a: a.max(0), lambda lib, a: a.amax(0), lambda lib, a: a.argmin()):
        check_op(op, x)


def test_max_result_is_a_named_tuple() -> None:
    t, m = pair([[1.0, 2.0], [4.0, 3.0]])
    values, indices = m.max(1)
    assert values is m.max(1)[0] or values.equal(m.max(1).values)
    assert indices.dtype is tl.int64 and m.max(1).indices.equal(indices)
    assert type(m.min(0)).__name__ == "min" and isinstance(m.max(1), tuple)
    assert repr(m.max(1)) == repr(t.max(1)).replace("torch.", "tensorlab.")
    check_op(lambda lib, a: (a.max(1).values, a.max(1).indices), [[1.0, 2.0], [4.0, 3.0]])


@pytest.mark.parametrize(
    "op",
    [
        lambda lib, a: a.max(), lambda lib, a: a.max(0), lambda lib, a: a.max(1), lambda lib, a: a.min(),
        lambda lib, a: a.amax(), lambda lib, a: a.amax(0), lambda lib, a: a.amin(1),
        lambda lib, a: a.argmax(), lambda lib, a: a.argmax(0), lambda lib, a: a.argmin(1),
        lambda lib, a: a.sum(), lambda lib, a: a.sum(0), lambda lib, a: a.prod(0), lambda lib, a: a.mean(),
        lambda lib, a: a.logsumexp(0), lambda lib, a: a.norm(), lambda lib, a: a.norm(INF),
        lambda lib, a: a.cumsum(0), lambda lib, a: a.all(), lambda lib, a: a.any(1),
    ],
)
def test_empty_tensors(op: object) -> None:
    check_op(op, np.ones((0, 3), dtype=np.float32))


# --- var, std, var_mean, std_mean -----------------------------------------------------------
@given(case=array_and_dims(), correction=st.sampled_from([None, 0, 1, 2, 1.5]))
def test_var_std(case: tuple, correction: object) -> None:
    x, dim, keepdim = case
    kwargs = {} if correction is None else {"correction": correction}
    # For dim=() torch's backward divides by 1 - correction instead of n - correction (a torch
    # quirk tensorlab does not copy), so only the forward is compared there.
    grad = None if dim != () and dim != [] else False
    for name in ("var", "std", "var_mean", "std_mean"):
        check_op(lambda lib, a, name=name: getattr(lib, name)(a, dim, keepdim=keepdim, **kwargs), x, grad=grad)


@given(x=arrays(FLOAT_DTYPES), unbiased=st.booleans())
def test_var_std_unbiased(x: np.ndarray, unbiased: bool) -> None:
    check_op(lambda lib, a: a.var(unbiased), x)
    check_op(lambda lib, a: a.std(unbiased=unbiased), x)
    if x.ndim:
        check_op(lambda lib, a: a.var(0, unbiased), x)
        check_op(lambda lib, a: lib.std_mean(a, -1, unbiased, True), x)


@pytest.mark.parametrize("values", [[1.0], 1.0, [1.0, 1.0], [[2.0, 2.0], [1.0, 3.0]]], ids=["one", "0-d", "constant", "rows"])
def test_var_std_single_element_and_constant(values: object) -> None:
    x = np.array(values)
    for op in (lambda lib, a: a.var(), lambda lib, a: a.std(), lambda lib, a: a.std(correction=0), lambda lib, a: lib.std_mean(a)):
        check_op(op, x)


def test_var_warns_when_degrees_of_freedom_are_not_positive() -> None:
    with pytest.warns(UserWarning, match="degrees of freedom is <= 0"):
        tl.tensor([1.0]).var()


def test_var_rejects_unbiased_and_correction_together() -> None:
    check_op(lambda lib, a: a.var(0, True, correction=1), np.ones((2, 2)))


# --- logsumexp, cumsum ---------------------------------------------------------------------
@given(case=array_and_dims())
def test_logsumexp(case: tuple) -> None:
    x, dim, keepdim = case
    dim = 0 if dim is None or dim == () or dim == [] else dim  # torch rejects an empty dim list
    check_op(lambda lib, a: a.logsumexp(dim, keepdim), x)


@pytest.mark.parametrize(
    "values", [[1000.0, 1000.0], [-1000.0, -1001.0], [-INF, -INF], [INF, 1.0], [-INF, 0.0]],
    ids=["huge", "tiny", "all-neg-inf", "pos-inf", "one-neg-inf"],
)
def test_logsumexp_is_stable(values: list) -> None:
    check_op(lambda lib, a: lib.logsumexp(a, 0), np.array(values))


@given(case=array_and_dims(single=True), out=st.sampled_from([None, "float64", "int64"]))
def test_cumsum(case: tuple, out: str | None) -> None:
    x, dim, _ = case
    if out is None:
        check_op(lambda lib, a: a.cumsum(dim), x)
    else:
        check_op(lambda lib, a: lib.cumsum(a, dim, dtype=getattr(lib, out)), x)


def test_cumsum_double_backward() -> None:
    t, m = pair(np.arange(6.0).reshape(2, 3), requires_grad=True)
    results = []
    for lib, x in ((torch, t), (tl, m)):
        y = (x.cumsum(1) ** 2).sum()
        (g,) = lib.autograd.grad(y, x, create_graph=True)
        (g * g).sum().backward()
        results.append(x.grad.numpy())
    np.testing.assert_allclose(results[1], results[0])


# --- all, any ------------------------------------------------------------------------------
@given(case=array_and_dims())
def test_all_any(case: tuple) -> None:
    x, dim, keepdim = case
    check_op(lambda lib, a: _call("all", a, dim, keepdim), x)
    check_op(lambda lib, a: lib.any(a, dim if dim is not None else (), keepdim), x)


# --- norm ----------------------------------------------------------------------------------
@given(case=array_and_dims(), p=st.sampled_from(["fro", 2, 1, INF, -INF, 0, 3, 0.5, -1, 2.5]))
def test_norm(case: tuple, p: object) -> None:
    x, dim, keepdim = case
    check_op(lambda lib, a: a.norm(p, dim, keepdim), x)


@pytest.mark.parametrize("p", [2, 1, 3, 0.5, -1, INF, "fro"])
def test_norm_gradient_at_zero(p: object) -> None:
    check_op(lambda lib, a: a.norm(p), np.zeros(3))
    check_op(lambda lib, a: a.norm(p, dim=1), np.array([[0.0, 0.0], [1.0, -2.0]]))


def test_norm_dtype_argument_and_errors() -> None:
    x = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    check_op(lambda lib, a: a.norm(dtype=lib.float64), x)
    check_op(lambda lib, a: a.norm(dtype=lib.float16), x)
    check_op(lambda lib, a: a.norm(dtype=lib.int64), x)
    check_op(lambda lib, a: a.norm(), np.arange(6))
    check_op(lambda lib, a: a.norm("fro", dim=(0, 1, 2)), np.ones((2, 2, 2)))
    check_op(lambda lib, a: a.norm("abc"), x)


@pytest.mark.parametrize("case", [
    (np.arange(6.0).reshape(2, 3) ** 1.5, None, False),      # a 2x3 matrix: the whole tensor
    (np.arange(6.0).reshape(3, 2) - 2.0, None, True),
    (np.random.default_rng(1).standard_normal((2, 3, 4)), (1, 2), False),   # a batch of matrices
    (np.random.default_rng(2).standard_normal((2, 3, 4)), (2, 0), True),    # dims in any order
    (np.random.default_rng(3).standard_normal((3, 2, 2)), (-1, -2), False),
    (np.zeros((0, 3)), None, False),
])
def test_nuclear_norm(case: tuple) -> None:
    x, dim, keepdim = case
    check_op(lambda lib, a: lib.norm(a, p="nuc", dim=dim, keepdim=keepdim), x)
    check_op(lambda lib, a: a.norm("nuc", dim, keepdim), x.astype(np.float32), rtol=1e-4, atol=1e-5)


@given(batch=st.integers(0, 2), rows=st.integers(1, 4), columns=st.integers(1, 4), keepdim=st.booleans(),
       seed=st.integers(0, 2**16))
def test_nuclear_norm_random(batch: int, rows: int, columns: int, keepdim: bool, seed: int) -> None:
    """Random matrices (distinct, non-zero singular values almost surely, where the SVD's gradient is defined)."""
    x = np.random.default_rng(seed).standard_normal((batch, rows, columns) if batch else (rows, columns))
    dim = (-2, -1) if batch else None
    check_op(lambda lib, a: lib.norm(a, p="nuc", dim=dim, keepdim=keepdim), x, rtol=1e-6, atol=1e-8)


def test_nuclear_norm_records_an_svd_then_a_sum_and_raises_torchs_errors() -> None:
    check_op(lambda lib, a: [type(f).__name__ for f in (a.norm("nuc").grad_fn, a.norm("nuc").grad_fn.next_functions[0][0])],
             np.eye(2) * 3.0)
    for x, dim in [(np.ones(3), None), (np.ones((2, 3, 4)), None), (np.ones((2, 3, 4)), 1), (np.ones((2, 3, 4)), (1, 1)),
                   (np.arange(4).reshape(2, 2), None)]:
        check_op(lambda lib, a, dim=dim: a.norm("nuc", dim), x, same_message=True)


# --- dims: errors and grad_fn names -----------------------------------------------------------
@pytest.mark.parametrize(
    "op",
    [
        lambda lib, a: a.sum(2), lambda lib, a: a.sum((0, 0)), lambda lib, a: a.mean([1, -1]),
        lambda lib, a: a.amax(-3), lambda lib, a: a.max(2), lambda lib, a: a.argmin(5),
        lambda lib, a: a.var((1, 1)), lambda lib, a: a.cumsum(-3), lambda lib, a: a.all((0, 0)),
        lambda lib, a: a.logsumexp(2), lambda lib, a: a.norm(dim=(0, 0)), lambda lib, a: a.prod(-3),
        lambda lib, a: a.cumsum((0,)), lambda lib, a: a.argmax((0,)), lambda lib, a: a.max((0,)),
        lambda lib, a: a.logsumexp(None),
    ],
)
def test_bad_dims(op: object) -> None:
    check_op(op, np.ones((2, 3)))


def test_argmax_rejects_bool() -> None:
    check_op(lambda lib, a: a.argmax(), np.array([True, False]))


@pytest.mark.parametrize(
    "op",
    [
        lambda a: a.sum(), lambda a: a.sum(0), lambda a: a.mean(), lambda a: a.mean(1), lambda a: a.prod(),
        lambda a: a.prod(0), lambda a: a.max(), lambda a: a.max(0)[0], lambda a: a.min(), lambda a: a.min(1)[0],
        lambda a: a.amax(0), lambda a: a.amin(), lambda a: a.var(), lambda a: a.std(0),
        lambda a: a.logsumexp(0), lambda a: a.cumsum(0), lambda a: a.norm(),
    ],
)
def test_grad_fn_names(op: object) -> None:
    t, m = pair(np.ones((2, 3)), requires_grad=True)
    assert op(m).grad_fn.name() == op(t).grad_fn.name()


def test_var_mean_grad_fn_names() -> None:
    t, m = pair(np.ones((2, 3)), requires_grad=True)
    assert tl.var_mean(m)[0].grad_fn.name() == torch.var_mean(t)[0].grad_fn.name()
    assert tl.std_mean(m, 0)[1].grad_fn.name() == torch.std_mean(t, 0)[1].grad_fn.name()


def test_module_exports() -> None:
    names = ["sum", "mean", "prod", "max", "min", "amax", "amin", "argmax", "argmin", "var", "std",
             "var_mean", "std_mean", "logsumexp", "cumsum", "all", "any", "norm"]
    for name in names:
        assert callable(getattr(tl, name)), name


# --- double backward: every backward is made of differentiable tensor ops --------------------
@pytest.mark.parametrize(
    "op",
    [
        lambda a: a.sum(1), lambda a: a.mean(), lambda a: a.prod(1), lambda a: a.amax(1),
        lambda a: a.max(0).values, lambda a: a.var(1), lambda a: a.std(), lambda a: a.logsumexp(1),
        lambda a: a.norm(), lambda a: a.norm(3, dim=0), lambda a: a.cumsum(0),
    ],
    ids=["sum", "mean", "prod", "amax", "max-dim", "var", "std", "logsumexp", "norm", "norm3", "cumsum"],
)
def test_double_backward(op: object) -> None:
    values = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]])
    t, m = pair(values, requires_grad=True)
    results = []
    for lib, x in ((torch, t), (tl, m)):
        (g,) = lib.autograd.grad((op(x) ** 2).sum(), x, create_graph=True)
        (g * g).sum().backward()
        results.append(x.grad.numpy())
    np.testing.assert_allclose(results[1], results[0], rtol=1e-10, atol=1e-12)


# --- dims out of range; any/all on random shapes --------------------------------------------------
@pytest.mark.parametrize("name", ["sum", "mean", "prod", "amax", "amin", "argmax", "argmin", "all", "any", "logsumexp", "cumsum", "var", "std", "norm"])
def test_reduction_dim_out_of_range_is_an_index_error(name: str) -> None:
    op = (lambda lib, x: getattr(x, name)(p=2, dim=3)) if name == "norm" else (lambda lib, x: getattr(x, name)(3))
    check_op(op, standard_normal((2, 3), 0))


@given(shape=random_shapes, seed=seeds, data=st.data())
def test_any_all_random(shape: tuple, seed: int, data: st.DataObject) -> None:
    x = np.random.default_rng(seed).integers(0, 3, shape).astype(data.draw(st.sampled_from(["bool", "int64", "float32", "uint8"])))
    check_op(lambda lib, a: a.any(), x)
    check_op(lambda lib, a: lib.all(a), x)
    if shape:
        dim = data.draw(st.integers(-len(shape), len(shape) - 1))
        keepdim = data.draw(st.booleans())
        check_op(lambda lib, a: a.any(dim, keepdim=keepdim), x)
        check_op(lambda lib, a: a.all(dim=dim, keepdim=keepdim), x)


# --- trace ---------------------------------------------------------------------------------
@given(rows=st.integers(0, 5), cols=st.integers(0, 5), dtype=st.sampled_from(["float32", "float64", "int64", "int32", "int16", "uint8", "float16"]))
def test_trace_matches_torch(rows: int, cols: int, dtype: str) -> None:
    """The sum of the main diagonal; integers sum to int64; the gradient is 1 on the diagonal."""
    x = (standard_normal((rows, cols), seed=rows * 7 + cols) * 5).astype(dtype)
    check_op(lambda lib, a: lib.trace(a), x)
    check_op(lambda lib, a: a.trace(), x)
    check_op(lambda lib, a: a.t().trace(), x)


@pytest.mark.parametrize("x", [np.zeros(3), np.zeros((2, 2, 2)), np.zeros(()), np.ones((2, 2), bool)])
def test_trace_errors(x: np.ndarray) -> None:
    check_op(lambda lib, a: lib.trace(a), x, grad=False)


LAYOUT_OPS = {
    "sum": lambda lib, x: x.sum(1, keepdim=True),
    "sum_list": lambda lib, x: x.sum([0, 2]),
    "mean": lambda lib, x: x.mean(0),
    "prod": lambda lib, x: x.prod(1, keepdim=True),
    "amax": lambda lib, x: x.amax(0),
    "max_values": lambda lib, x: x.max(1, keepdim=True).values,
    "logsumexp": lambda lib, x: lib.logsumexp(x, 1, keepdim=True),
    "var": lambda lib, x: x.var(0),
    "std": lambda lib, x: x.std(1, keepdim=True),
    "norm": lambda lib, x: x.norm(dim=0),
    "any": lambda lib, x: (x > 3).any(1, keepdim=True),
}


@pytest.mark.parametrize("name", LAYOUT_OPS)
@pytest.mark.parametrize("perm", [(2, 1, 0), (2, 0, 1), (1, 2, 0)])
def test_reduction_of_a_permuted_input_is_contiguous_like_torch(name: str, perm: tuple) -> None:
    """torch allocates a reduction's result fresh and contiguous; NumPy keeps the input's memory order."""
    theirs = LAYOUT_OPS[name](torch, torch.arange(24.0).reshape(2, 3, 4).permute(perm))
    ours = LAYOUT_OPS[name](tl, tl.arange(24.0).reshape(2, 3, 4).permute(perm))
    assert ours.stride() == theirs.stride() and ours.is_contiguous()
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6)


# --- keepdims=: NumPy's spelling, which torch's argument parser takes for keepdim -------------------
# Every tensorlab op that torch lets take keepdims=, called as torch.<op>(x, ..., keepdims=k) and,
# where torch has the method, x.<op>(..., keepdims=k). torch.norm and Tensor.norm are Python-level
# in torch and refuse it: they are listed too, so the TypeError is checked against torch's.
KEEPDIMS_OPS: dict[str, tuple[Callable, bool]] = {  # name -> (lib, x, dim, **kw -> call, float input only)
    "sum": (lambda lib, x, d, **kw: lib.sum(x, d, **kw), False),
    "mean": (lambda lib, x, d, **kw: lib.mean(x, d, **kw), True),
    "prod": (lambda lib, x, d, **kw: lib.prod(x, d, **kw), False),
    "logsumexp": (lambda lib, x, d, **kw: lib.logsumexp(x, d, **kw), True),
    "all": (lambda lib, x, d, **kw: lib.all(x, d, **kw), False),
    "any": (lambda lib, x, d, **kw: lib.any(x, d, **kw), False),
    "amax": (lambda lib, x, d, **kw: lib.amax(x, d, **kw), False),
    "amin": (lambda lib, x, d, **kw: lib.amin(x, d, **kw), False),
    "max": (lambda lib, x, d, **kw: lib.max(x, d, **kw), False),
    "min": (lambda lib, x, d, **kw: lib.min(x, d, **kw), False),
    "argmax": (lambda lib, x, d, **kw: lib.argmax(x, d, **kw), False),
    "argmin": (lambda lib, x, d, **kw: lib.argmin(x, d, **kw), False),
    "median": (lambda lib, x, d, **kw: lib.median(x, d, **kw), False),
    "kthvalue": (lambda lib, x, d, **kw: lib.kthvalue(x, 1, d, **kw), False),
    "std": (lambda lib, x, d, **kw: lib.std(x, d, **kw), True),
    "var": (lambda lib, x, d, **kw: lib.var(x, d, correction=0, **kw), True),
    "std_mean": (lambda lib, x, d, **kw: lib.std_mean(x, d, **kw), True),
    "var_mean": (lambda lib, x, d, **kw: lib.var_mean(x, d, **kw), True),
    "linalg.vector_norm": (lambda lib, x, d, **kw: lib.linalg.vector_norm(x, 2, d, **kw), True),
    "linalg.norm": (lambda lib, x, d, **kw: lib.linalg.norm(x, None, d, **kw), True),
    "linalg.matrix_norm": (lambda lib, x, d, **kw: lib.linalg.matrix_norm(x, "fro", (0, -1), **kw), True),
    "pairwise_distance": (lambda lib, x, d, **kw: lib.nn.functional.pairwise_distance(x, x + 1, **kw), True),
    "norm (refuses keepdims)": (lambda lib, x, d, **kw: lib.norm(x, 2, d, **kw), True),
}
KEEPDIMS_METHODS = [
    "sum", "mean", "prod", "logsumexp", "all", "any", "amax", "amin", "max", "min", "argmax", "argmin", "median",
    "std", "var", "norm",
]


@pytest.mark.parametrize("name", list(KEEPDIMS_OPS))
@pytest.mark.parametrize("keepdims", [True, False])
def test_keepdims_is_keepdim(name: str, keepdims: bool) -> None:
    op, _ = KEEPDIMS_OPS[name]
    x = standard_normal((2, 3, 4))
    check_op(lambda lib, a: op(lib, a, 1, keepdims=keepdims), x)
    check_op(lambda lib, a: op(lib, a, -1, keepdims=keepdims), x.astype("float32"))


@pytest.mark.parametrize("name", KEEPDIMS_METHODS)
def test_keepdims_on_methods(name: str) -> None:
    x = standard_normal((2, 3))
    check_op(lambda lib, a: getattr(a, name)(1, keepdims=True), x)
    check_op(lambda lib, a: getattr(a, name)(dim=0, keepdims=False), x)


def test_keepdims_on_kthvalue_method() -> None:
    check_op(lambda lib, a: a.kthvalue(2, 1, keepdims=True), standard_normal((2, 3)))


@pytest.mark.parametrize("name", [*KEEPDIMS_OPS, "sum method", "max method"])
def test_keepdim_and_keepdims_together_is_a_type_error(name: str) -> None:
    """torch refuses both spellings at once (each op's wording differs; the class is TypeError)."""
    x = standard_normal((2, 3))
    if name.endswith(" method"):
        method = name.split()[0]
        check_op(lambda lib, a: getattr(a, method)(1, keepdim=True, keepdims=True), x)
        check_op(lambda lib, a: getattr(a, method)(1, True, keepdims=True), x)  # positional keepdim too
        return
    op, _ = KEEPDIMS_OPS[name]
    check_op(lambda lib, a: op(lib, a, 1, keepdim=True, keepdims=False), x)


AXIS_FUNCTIONS = ["sum", "mean", "prod", "logsumexp", "all", "any", "amax", "amin", "max", "min", "argmax", "argmin",
                  "median", "std", "var", "std_mean", "var_mean"]


@pytest.mark.parametrize("name", AXIS_FUNCTIONS)
def test_axis_is_dim(name: str) -> None:
    """NumPy's axis= for dim=, as torch's parser takes it: function and method, with keepdims too."""
    x = standard_normal((2, 3))
    check_op(lambda lib, a: getattr(lib, name)(a, axis=1), x)
    check_op(lambda lib, a: getattr(a, name)(axis=0, keepdims=True), x)
    check_op(lambda lib, a: getattr(lib, name)(a, dim=1, axis=1), x)  # both spellings: torch's TypeError


def test_axis_is_refused_where_torch_has_no_dim() -> None:
    x = standard_normal((2, 3))
    check_op(lambda lib, a: lib.nn.functional.pairwise_distance(a, a + 1, axis=1), x)
    check_op(lambda lib, a: lib.norm(a, 2, axis=1), x)


def test_keepdims_with_out_and_with_keyword_dim() -> None:
    x = standard_normal((2, 3))
    check_op(lambda lib, a: lib.sum(a, dim=1, keepdims=True, out=lib.empty(2, 1, dtype=lib.float64)), x, grad=False)
    check_op(lambda lib, a: lib.max(a, dim=0, keepdims=True), x)
    check_op(lambda lib, a: a.mean(dim=(0, 1), keepdims=True), x)
    check_op(lambda lib, a: a.argmax(keepdims=True), x)  # argmax's dim is optional: no dim, keepdims still keeps


@given(case=array_and_dims(), name=st.sampled_from(["sum", "amax", "amin", "any", "all", "prod", "mean", "logsumexp"]), method=st.booleans())
def test_keepdims_hypothesis(case: tuple, name: str, method: bool) -> None:
    x, dim, keepdims = case
    op, float_only = KEEPDIMS_OPS[name]
    if float_only:
        x = x.astype("float64")
    if name == "prod" and not isinstance(dim, int):
        dim = 0 if x.ndim else None
    if dim is None:
        dim = tuple(range(x.ndim)) if name not in ("prod",) else 0
    if method:
        check_op(lambda lib, a: getattr(a, name)(dim, keepdims=keepdims), x)
    else:
        check_op(lambda lib, a: op(lib, a, dim, keepdims=keepdims), x)
