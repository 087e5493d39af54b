"""gather / scatter / scatter_add / scatter_reduce / index_* against torch: values, gradients, errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import tensorlab as tl
from tests.oracle import assert_same, check_op, pair, standard_normal


# --- strategies ----------------------------------------------------------------------------
@st.composite
def gather_case(draw: st.DrawFn, unique: bool = False, index_may_exceed_dim: bool = False) -> tuple:
    """(input array, dim, index array): index no larger than input except along dim, values in range."""
    ndim = draw(st.integers(1, 3))
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=ndim, max_size=ndim)))
    dim = draw(st.integers(-ndim, ndim - 1))
    d = dim % ndim
    index_shape = [draw(st.integers(1, s)) for s in shape]
    if index_may_exceed_dim and not unique:
        index_shape[d] = draw(st.integers(1, 5))
    seed = draw(st.integers(0, 2**16))
    rng = np.random.default_rng(seed)
    if unique:  # distinct positions along dim, so overwrite order does not matter
        index_shape[d] = draw(st.integers(1, shape[d]))
        index = np.argsort(rng.random((*index_shape[:d], shape[d], *index_shape[d + 1:])), axis=d)
        index = np.take(index, range(index_shape[d]), axis=d)
    else:
        index = rng.integers(0, shape[d], size=tuple(index_shape))
    x = rng.standard_normal(shape)
    return x, dim, index.astype(np.int64)


floats = st.sampled_from([np.float32, np.float64])


# --- gather --------------------------------------------------------------------------------
@given(case=gather_case(), dt=floats)
def test_gather_matches_torch(case: tuple, dt: type) -> None:
    x, dim, index = case
    check_op(lambda lib, a, i: lib.gather(a, dim, i), x.astype(dt), index)
    check_op(lambda lib, a, i: a.gather(dim, i), x.astype(dt), index)


def test_seed_cross_entropy_picking() -> None:
    scores = [[1.5410, -0.2934, -2.1788], [0.5684, -1.0845, -1.3986], [0.4033, 0.8380, -0.7193],
              [-0.4033, -0.5966, 0.1820], [-0.8567, 1.1006, -1.0712]]
    y = np.array([1, 2, 1, 0, 2])
    check_op(lambda lib, s, t: s.gather(1, t.view(-1, 1)).squeeze(), np.array(scores, np.float32), y)


def test_seed_stochastic_rounding_switch() -> None:
    """a.gather(0, islo[None, ...]).squeeze(0): pick lo or hi per element."""
    rng = np.random.default_rng(1)
    x = rng.random((3, 4)).astype(np.float32)
    islo = rng.random((3, 4)) < 0.5

    def sround(lib, x, islo):
        lo = lib.floor(x * 4) / 4
        hi = lib.ceil(x * 4) / 4
        a = lib.stack((hi, lo))
        return a.gather(0, islo.to(lib.int64)[None, ...]).squeeze(0)

    check_op(sround, x, islo)


def test_seed_max_backward_is_a_scatter() -> None:
    """The gradient of logits.max(1) lands on the argmax: scatter the upstream gradient there."""
    rng = np.random.default_rng(2)
    logits = rng.standard_normal((4, 5)).astype(np.float32)
    upstream = rng.standard_normal((4, 1)).astype(np.float32)
    check_op(
        lambda lib, lg, g: lib.zeros_like(lg).scatter(1, lg.max(1).indices.view(-1, 1), g),
        logits, upstream, grad=False,
    )
    check_op(lambda lib, lg: lib.zeros(4, 5).scatter_(1, lg.argmax(1, keepdim=True), 1.0), logits, grad=False)


def test_seed_embedding_backward_is_index_add() -> None:
    """dC[Xb[i, j]] += demb[i, j] is one index_add (repeated rows add up), and it is C[Xb]'s gradient."""
    rng = np.random.default_rng(3)
    xb = rng.integers(0, 6, size=(4, 3))
    demb = rng.standard_normal((4, 3, 2)).astype(np.float32)
    check_op(lambda lib, ix, g: lib.zeros(6, 2).index_add(0, ix.view(-1), g.view(-1, 2)), xb, demb, grad=False)
    c = rng.standard_normal((6, 2)).astype(np.float32)
    check_op(lambda lib, cc, ix: cc.index_select(0, ix.view(-1)).view(4, 3, 2), c, xb)


def test_gather_errors() -> None:
    x = np.arange(6.0).reshape(2, 3)
    check_op(lambda lib, a, i: a.gather(1, i), x, np.array([[0, 5]]), match="index 5 is out of bounds for dimension 1 with size 3")
    check_op(lambda lib, a, i: a.gather(1, i), x, np.array([[0, -1]]), match="out of bounds")
    check_op(lambda lib, a, i: a.gather(1, i), x, np.array([0, 1]), match="same number of dimensions as input tensor")
    check_op(lambda lib, a, i: a.gather(1, i), x, np.array([[0, 1]] * 3), match="Size does not match at dimension 0")
    check_op(lambda lib, a, i: a.gather(1, i), x, np.array([[0.0, 1.0]]), match="Expected dtype int32/int64 for index")
    check_op(lambda lib, a, i: a.gather(5, i), x, np.array([[0, 1]]))
    check_op(lambda lib, a, i: a.gather(0, i), np.zeros(3), np.array(1))


def test_gather_int32_index_and_integer_input() -> None:
    check_op(lambda lib, a, i: a.gather(1, i), np.arange(6).reshape(2, 3), np.array([[2, 0]], np.int32))


# --- scatter -------------------------------------------------------------------------------
@given(case=gather_case(unique=True), dt=floats)
def test_scatter_tensor_src_matches_torch(case: tuple, dt: type) -> None:
    x, dim, index = case
    src = np.random.default_rng(0).standard_normal(tuple(s + 1 for s in index.shape)).astype(dt)
    # torch's own backward fails when src is larger than index, so that case is forward only
    check_op(lambda lib, a, i, s: lib.scatter(a, dim, i, s), x.astype(dt), index, src, grad=False)
    check_op(lambda lib, a, i, s: a.scatter(dim, i, s), x.astype(dt), index, src[tuple(slice(0, n) for n in index.shape)])


@given(case=gather_case(index_may_exceed_dim=True), value=st.floats(-3, 3))
def test_scatter_value_matches_torch(case: tuple, value: float) -> None:
    x, dim, index = case
    check_op(lambda lib, a, i: a.scatter(dim, i, value), x, index)
    check_op(lambda lib, a, i: lib.scatter(a, dim, i, value=value), x, index)


@given(case=gather_case(), reduce=st.sampled_from(["add", "multiply"]))
def test_scatter_legacy_reduce(case: tuple, reduce: str) -> None:
    x, dim, index = case
    src = np.random.default_rng(1).standard_normal(index.shape)
    check_op(lambda lib, a, i, s: a.scatter(dim, i, s, reduce=reduce), x, index, src, grad=False)


def test_scatter_errors() -> None:
    x = np.arange(6.0).reshape(2, 3)
    i = np.array([[0, 1], [1, 0]])
    check_op(lambda lib, a, j, s: a.scatter(1, j, s), x, i, np.ones((1, 1)), match="to be no larger size than src [1, 1]")
    check_op(lambda lib, a, j: a.scatter(1, j, 1.0), x, np.array([[0, 5]]), match="index 5 is out of bounds")
    check_op(lambda lib, a, j, s: a.scatter(1, j, s), x, i, np.ones((2, 2), np.float32), match="Expected self.dtype to be equal to src.dtype")
    check_op(lambda lib, a, j: a.scatter(1, j, 1.0), x, np.array([0, 1]), match="same number of dimensions as self tensor")
    check_op(lambda lib, a, j: a.scatter(1, j, 2.0, reduce="mean"), x, i, grad=False, match="add or multiply")


def test_scatter_grad_fn_names() -> None:
    t, m = pair(np.arange(6.0).reshape(2, 3), requires_grad=True)
    ti, mi = pair(np.array([[0, 1]]))
    assert m.scatter(1, mi, 1.0).grad_fn.name() == t.scatter(1, ti, 1.0).grad_fn.name()
    assert m.scatter(1, mi, m).grad_fn.name() == t.scatter(1, ti, t).grad_fn.name()
    assert m.gather(1, mi).grad_fn.name() == t.gather(1, ti).grad_fn.name()


# --- scatter_add / scatter_reduce -------------------------------------------------------------
@given(case=gather_case(index_may_exceed_dim=True), dt=floats)
def test_scatter_add_matches_torch(case: tuple, dt: type) -> None:
    x, dim, index = case
    src = np.random.default_rng(2).standard_normal(index.shape).astype(dt)
    check_op(lambda lib, a, i, s: a.scatter_add(dim, i, s), x.astype(dt), index, src)
    check_op(lambda lib, a, i, s: lib.scatter_add(a, dim, i, s), x.astype(dt), index, src)


@given(
    case=gather_case(index_may_exceed_dim=True),
    reduce=st.sampled_from(["sum", "prod", "mean", "amax", "amin"]),
    include_self=st.booleans(),
)
def test_scatter_reduce_matches_torch(case: tuple, reduce: str, include_self: bool) -> None:
    x, dim, index = case
    src = np.random.default_rng(3).standard_normal(index.shape)
    check_op(lambda lib, a, i, s: a.scatter_reduce(dim, i, s, reduce, include_self=include_self), x, index, src)


@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce_ties_and_zeros(reduce: str, include_self: bool) -> None:
    x = np.array([[0.0, 2.0, 3.0], [1.0, 0.0, 2.0]])
    index = np.array([[0, 0, 1, 0], [2, 2, 1, 1]])
    src = np.array([[0.0, 2.0, 3.0, 0.0], [2.0, 1.0, 0.0, 5.0]])
    check_op(lambda lib, a, i, s: a.scatter_reduce(1, i, s, reduce, include_self=include_self), x, index, src)
    ints = np.array([[-3, 1, 4]])
    check_op(lambda lib, a, i, s: a.scatter_reduce(1, i, s, reduce, include_self=include_self),
             ints, np.array([[0, 0, 2]]), np.array([[-4, 0, 7]]))


def test_scatter_reduce_bad_reduce() -> None:
    check_op(lambda lib, a, i, s: a.scatter_reduce(0, i, s, "foo"), np.zeros(3), np.array([0]), np.ones(1), match="got foo")


# --- index_select / index_add / index_copy / index_fill ----------------------------------------
@st.composite
def index_case(draw: st.DrawFn) -> tuple:
    ndim = draw(st.integers(1, 3))
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=ndim, max_size=ndim)))
    dim = draw(st.integers(-ndim, ndim - 1))
    n = draw(st.integers(0, 5))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    index = rng.integers(0, shape[dim], size=n).astype(np.int64)
    return rng.standard_normal(shape), dim, index


@given(case=index_case())
def test_index_select_matches_torch(case: tuple) -> None:
    x, dim, index = case
    check_op(lambda lib, a, i: a.index_select(dim, i), x, index)
    check_op(lambda lib, a, i: lib.index_select(a, dim, i), x, index.astype(np.int32))


@given(case=index_case(), alpha=st.sampled_from([1, 2.5]))
def test_index_add_matches_torch(case: tuple, alpha: float) -> None:
    x, dim, index = case
    source_shape = list(x.shape)
    source_shape[dim] = len(index)
    source = np.random.default_rng(4).standard_normal(source_shape)
    check_op(lambda lib, a, i, s: a.index_add(dim, i, s, alpha=alpha), x, index, source)


@given(case=index_case())
def test_index_copy_and_fill_match_torch(case: tuple) -> None:
    x, dim, index = case
    index = np.unique(index)  # index_copy with repeated indices is unspecified in torch
    source_shape = list(x.shape)
    source_shape[dim] = len(index)
    source = np.random.default_rng(5).standard_normal(source_shape)
    check_op(lambda lib, a, i, s: a.index_copy(dim, i, s), x, index, source)
    check_op(lambda lib, a, i: a.index_fill(dim, i, -1.5), x, index)
    check_op(lambda lib, a, i, v: a.index_fill(dim, i, v), x, index, np.array(2.0))


def test_index_family_errors() -> None:
    x = np.arange(6.0).reshape(2, 3)
    check_op(lambda lib, a, i: a.index_select(1, i), x, np.array([5]), match="INDICES element is out of DATA bounds")
    check_op(lambda lib, a, i: a.index_select(1, i), x, np.array([[1]]), match="Index is supposed to be a vector")
    check_op(lambda lib, a, i: a.index_select(1, i), x, np.array([1.0]))
    check_op(lambda lib, a, i, s: a.index_add(1, i, s), x, np.array([2, 0, 2]), np.ones((2, 2)), match="Number of indices (3)")
    check_op(lambda lib, a, i, s: a.index_add(1, i, s), x, np.array([5, 0, 2]), np.ones((2, 3)), match="index 5 is out of bounds")
    check_op(lambda lib, a, i, s: a.index_add(1, i, s), x, np.array([0]), np.ones((2, 1), np.float32), match="must have the same scalar type")
    check_op(lambda lib, a, i, s: a.index_add(1, i, s), x, np.array([0]), np.ones((3, 1)), match="source tensor shape must match")
    check_op(lambda lib, a, i, s: a.index_copy(1, i, s), x, np.array([2, 0]), np.ones((2, 3)), match="Number of indices (2)")
    check_op(lambda lib, a, i, s: a.index_copy(1, i, s), x, np.array([2, 5]), np.ones((2, 2)), match="index 5 is out of bounds")
    check_op(lambda lib, a, i: a.index_fill(1, i, 7), x, np.array([2, 5]), match="index 5 is out of bounds")
    check_op(lambda lib, a, i, v: a.index_fill(1, i, v), x, np.array([0]), np.array([1.0]), match="0-dimensional value tensor")


def test_index_fill_negative_index_wraps() -> None:
    check_op(lambda lib, a, i: a.index_fill(1, i, 7.0), np.arange(6.0).reshape(2, 3), np.array([2, -1]))


# --- in-place forms --------------------------------------------------------------------------
def test_inplace_forms_match_torch_and_bump_version() -> None:
    rng = np.random.default_rng(6)
    x = rng.standard_normal((3, 4))
    index = np.array([[0, 1, 2, 0]])
    src = rng.standard_normal((1, 4))
    cases = [
        lambda lib, a, i, s: a.scatter_(0, i, s),
        lambda lib, a, i, s: a.scatter_(0, i, 2.0),
        lambda lib, a, i, s: a.scatter_add_(0, i, s),
        lambda lib, a, i, s: a.scatter_reduce_(0, i, s, "amax", include_self=False),
        lambda lib, a, i, s: a.index_add_(1, i[0], s.expand(3, 4)),
        lambda lib, a, i, s: a.index_copy_(1, i[0, 1:], s.expand(3, 4)[:, 1:]),
        lambda lib, a, i, s: a.index_fill_(1, i[0], -1.0),
    ]
    for op in cases:
        (tx, mx), (ti, mi), (ts, ms) = pair(x), pair(index), pair(src)
        before = mx._version
        out_t, out_m = op(torch, tx, ti, ts), op(tl, mx, mi, ms)
        assert out_m is mx
        assert mx._version > before
        assert_same(out_t, out_m)


def test_inplace_scatter_add_through_graph() -> None:
    """In-place ops on a non-leaf record their backward like the out-of-place ones."""
    x = np.random.default_rng(7).standard_normal((3, 4))
    src = np.ones((1, 4))
    check_op(lambda lib, a, s, i: (a * 2).scatter_add_(0, i, s * a[:1]), x, src, np.array([[2, 0, 1, 2]]))


def test_inplace_on_leaf_requiring_grad_raises() -> None:
    check_op(lambda lib, a, i: a.scatter_(0, i, 1.0), np.zeros(3), np.array([1]))


def test_double_backward_through_gather() -> None:
    rng = np.random.default_rng(8)
    x = rng.standard_normal((3, 4))
    index = np.array([[0, 2], [1, 1], [3, 0]])

    def second_derivative(lib, a, i):
        y = (a.gather(1, i) ** 2).sum()
        (g,) = lib.autograd.grad(y, a, create_graph=True)
        return g

    check_op(second_derivative, x, index)


# --- in-place scatter and index_* on random cases, and their errors ------------------------------
@given(case=gather_case(unique=True), fill=st.floats(-2, 2, width=32))
def test_inplace_scatter_family_random(case: tuple, fill: float) -> None:
    x, dim, index = case
    src = np.random.default_rng(0).standard_normal(index.shape)

    def scatter(lib: Any, a: Any, i: Any, s: Any) -> Any:
        y = a * 1
        return y.scatter_(dim, i, s), y.scatter_add_(dim, i, s), y.scatter_reduce_(dim, i, s, "amax", include_self=False)

    check_op(scatter, x, index, src)
    check_op(lambda lib, a, i: (a * 1).scatter_(dim, i, fill), x, index)
    check_op(lambda lib, a: (a * 1).masked_fill_(a > 0, fill), x)


@given(case=index_case(), alpha=st.sampled_from([1, -0.5]))
def test_inplace_index_family_random(case: tuple, alpha: float) -> None:
    x, dim, index = case
    source_shape = list(x.shape)
    source_shape[dim] = len(index)
    source = np.random.default_rng(1).standard_normal(source_shape)
    check_op(lambda lib, a, i, s: (a * 1).index_add_(dim, i, s, alpha=alpha), x, index, source)
    check_op(lambda lib, a, i: (a * 1).index_fill_(dim, i, alpha), x, index)
    unique = np.unique(index)  # index_copy_ with repeats writes in an unspecified order
    source_shape[dim] = len(unique)
    check_op(lambda lib, a, i, s: (a * 1).index_copy_(dim, i, s), x, unique, np.ones(source_shape))


@pytest.mark.parametrize(
    "fn",
    [
        lambda lib, a: a.detach().scatter_reduce_(0, lib.tensor([[0]]), a, "bad"),
        lambda lib, a: a.detach().scatter_reduce_(0, lib.tensor([[0, 1, 2]]), a.long(), "sum"),
        lambda lib, a: a.detach().index_copy_(0, lib.tensor([5]), lib.ones(1, 3)),
        lambda lib, a: a.detach().index_copy_(0, lib.tensor([0]), lib.ones(1, 2)),
        lambda lib, a: a.detach().index_fill_(0, lib.tensor([5]), 1.0),
        lambda lib, a: a.detach().index_fill_(0, lib.tensor([0.0]), 1.0),
        lambda lib, a: a.detach().index_fill_(0, lib.tensor([0], dtype=lib.int32), 1.0),
        lambda lib, a: a.detach().scatter_(0, lib.tensor([[7]]), 1.0),
        lambda lib, a: a.detach().masked_fill_(lib.tensor([True, False]), 1.0),
        lambda lib, a: a.scatter_add(0, lib.tensor([[5, 0, 0]]), a),
        lambda lib, a: a.scatter_add(0, lib.tensor([[0, 0, 0]]), a.long()),
        lambda lib, a: a.scatter_add(0, lib.tensor([[0.0]]), a),
        lambda lib, a: a.detach().scatter_add_(2, lib.tensor([[0]]), a),
        lambda lib, a: a.detach().index_add_(0, lib.tensor([0]), lib.ones(1, 4)),
    ],
)
def test_inplace_scatter_family_errors(fn: Any) -> None:
    check_op(fn, standard_normal((2, 3), 0))


# --- empty indices: torch accepts them whatever their dtype --------------------------------
@pytest.mark.parametrize("index_dtype", ["float32", "uint8", "bool", "int64", "int32"])
@pytest.mark.parametrize("index_shape", [(2, 0), (0, 3), (0,)])
def test_gather_with_an_empty_index(index_dtype: str, index_shape: tuple) -> None:
    x = standard_normal((2, 3))
    check_op(lambda lib, a, i: a.gather(1, i), x, np.zeros(index_shape, index_dtype))
    check_op(lambda lib, a, i: lib.gather(a, 0, i), x, np.zeros(index_shape, index_dtype))


@pytest.mark.parametrize("index_dtype", ["float32", "uint8", "int64"])
def test_scatter_with_an_empty_index_copies_self(index_dtype: str) -> None:
    x = standard_normal((2, 3))
    index = np.zeros((2, 0), index_dtype)
    check_op(lambda lib, a, i: a.scatter(1, i, 2.0), x, index)
    check_op(lambda lib, a, i, s: a.scatter_add(1, i, s), x, index, standard_normal((2, 3), seed=1), grad=[True, False, False])
    check_op(lambda lib, a, i: a.scatter(1, i, a, reduce="add"), x, index, grad=False)


@pytest.mark.parametrize("index_dtype", ["uint8", "int16", "int8", "bool"])
def test_gather_refuses_small_integer_indices(index_dtype: str) -> None:
    check_op(lambda lib, a, i: a.gather(1, i), standard_normal((2, 3)), np.zeros((2, 1), index_dtype), match="Expected dtype int32/int64 for index")


def test_index_fill_gradient_reaches_self_and_a_tensor_value() -> None:
    """Filled positions get no gradient from self; a 0-d tensor value gets the sum of theirs."""
    for index in ([0, 2], [1, 1], []):
        check_op(lambda lib, a, v, i: a.index_fill(0, i, v), standard_normal((3, 2)), np.array(2.0), np.array(index, np.int64))
    check_op(lambda lib, a, i: a.index_fill(0, i, 3.0), np.array(1.0), np.array(0))


@pytest.mark.parametrize("reduce", ["add", "multiply"])
def test_scatter_reduce_argument_on_a_0d_tensor(reduce: str) -> None:
    check_op(lambda lib, a, i, s: a.scatter(0, i, s, reduce=reduce), np.array(2.0), np.array(0), np.array(5.0), grad=False)
    check_op(lambda lib, a, i: a.scatter(0, i, 4.0, reduce=reduce), np.array(2.0), np.array(0), grad=False)
    check_op(lambda lib, a, i, s: a.scatter_(0, i, s, reduce=reduce), np.array(2.0), np.array([0]), np.array([5.0]), grad=False)
    # torch has no derivative for scatter with reduce=: the error comes at backward
    check_op(lambda lib, a, i, s: a.scatter(0, i, s, reduce=reduce).backward(), np.array(2.0), np.array(0), np.array(5.0), match="derivative for aten::scatter is not implemented")
