"""Basic indexing (ints, slices, None, ...) and assignment against torch; nonzero."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import tensorlab as tl
from tests.oracle import assert_same, check_op, pair


def values(shape: tuple, dtype: type = np.float64) -> np.ndarray:
    return np.asarray(np.arange(math.prod(shape)).reshape(shape) * 0.5 - 1).astype(dtype)


XS = np.arange(6).reshape(2, 3)  # the seed's ``xs``

# --- the seed notes, section "Indexing" (the basic ones) ------------------------------------
SEED_GET = {
    "full index gets 1 element": lambda m, xs: xs[0, 0],
    "negative indexing": lambda m, xs: xs[-1, -1],
    "partial index drops dims": lambda m, xs: xs[0],
    "xs[0,:]": lambda m, xs: xs[0, :],
    "xs[0][0]": lambda m, xs: xs[0][0],
    "xs[:]": lambda m, xs: xs[:],
}


@pytest.mark.parametrize("name", list(SEED_GET))
def test_seed_indexing(name: str) -> None:
    check_op(SEED_GET[name], XS)


def _assign_through_view(index: object, value: object) -> object:
    def fn(m: object, ys: object) -> object:
        xs = ys[:]
        xs[index] = value(m) if callable(value) else value
        return ys, xs

    return fn


SEED_SET = {
    "can assign to a slice": ((slice(None), 0), 7),
    "partial slice implies : on the remaining dims": (slice(None), 7),
    "can broadcast": (slice(None), lambda m: m.arange(3).view(1, 3)),
    "can broadcast with [:, :]": ((slice(None), slice(None)), lambda m: m.arange(3).view(1, 3)),
}


@pytest.mark.parametrize("name", list(SEED_SET))
def test_seed_index_assignment_changes_the_base(name: str) -> None:
    index, value = SEED_SET[name]
    t, m = pair(XS)
    got_t = _assign_through_view(index, value)(torch, t)
    got_m = _assign_through_view(index, value)(tl, m)
    assert_same(got_t, got_m)
    assert m._version == t._version == 1
    assert_same(t, m)


# --- fixed cases --------------------------------------------------------------------------
GET = {
    "[:,3]": (lambda m, x: x[:, 3], (3, 4, 5)),
    "[None]": (lambda m, x: x[None], (3, 4)),
    "[:,None,:]": (lambda m, x: x[:, None, :], (3, 4)),
    "[..., None]": (lambda m, x: x[..., None], (3, 4)),
    "[1, None]": (lambda m, x: x[1, None], (3, 4)),
    "[None, ..., None, 0]": (lambda m, x: x[None, ..., None, 0], (3, 4)),
    "[...]": (lambda m, x: x[...], (3, 4)),
    "[..., 0, ...]": (lambda m, x: x[..., 0, ...], (3, 4, 5)),
    "[1:]": (lambda m, x: x[1:], (3, 4)),
    "[::2]": (lambda m, x: x[::2], (5, 4)),
    "[1::3, ::2]": (lambda m, x: x[1::3, ::2], (7, 5)),
    "[-2:]": (lambda m, x: x[-2:], (5, 4)),
    "[10:20] clamps": (lambda m, x: x[10:20], (3, 4)),
    "[2:1] empty": (lambda m, x: x[2:1], (3, 4)),
    "[:, 5:1] empty": (lambda m, x: x[:, 5:1], (3, 4)),
    "[-100:100]": (lambda m, x: x[-100:100], (3, 4)),
    "[np.int64(1)]": (lambda m, x: x[np.int64(1)], (3, 4)),
    "of a transposed view": (lambda m, x: x.t()[1:, 2], (3, 4)),
    "of an expanded view": (lambda m, x: x.expand(3, 4)[1:, ::3], (1, 4)),
    "0-d [None]": (lambda m, x: x[None], ()),
    "0-d [...]": (lambda m, x: x[...], ()),
    "0-d [0]": (lambda m, x: x[0], ()),
    "0-d [:]": (lambda m, x: x[:], ()),
    "negative step": (lambda m, x: x[::-1], (3, 4)),
    "zero step": (lambda m, x: x[::0], (3, 4)),
    "int out of range": (lambda m, x: x[3], (3, 4)),
    "negative int out of range": (lambda m, x: x[:, -5], (3, 4)),
    "too many indices": (lambda m, x: x[1, 2, 3], (3, 4)),
    "float index": (lambda m, x: x[1.0], (3, 4)),
}


@pytest.mark.parametrize("name", list(GET))
def test_getitem(name: str) -> None:
    fn, shape = GET[name]
    check_op(fn, values(shape))


@pytest.mark.parametrize("name", ["negative step", "int out of range", "too many indices", "0-d [0]", "0-d [:]"])
def test_getitem_error_messages(name: str) -> None:
    fn, shape = GET[name]
    t, m = pair(values(shape))
    with pytest.raises(Exception) as expected:
        fn(torch, t)
    with pytest.raises(type(expected.value)) as got:
        fn(tl, m)
    assert str(got.value) == str(expected.value)


def test_basic_indexing_is_a_view_with_torch_grad_fn_names() -> None:
    t, m = pair(values((3, 4, 5)), requires_grad=True)
    for index in [1, (1, 2), (slice(1, None), None), Ellipsis, slice(None), (0, slice(None)), (slice(None), 0)]:
        assert m[index].grad_fn.name() == t[index].grad_fn.name(), index
        assert m[index].untyped_storage() is m.untyped_storage()


# --- hypothesis: random basic indices --------------------------------------------------------
@st.composite
def basic_indices(draw: st.DrawFn, shape: tuple) -> tuple:
    """A valid basic index for ``shape``: ints, positive-step slices, None and at most one ....

    Items before the ``...`` name the leading dims, items after it the trailing ones.
    """

    def item_for(size: int) -> list:
        items: list = []
        if draw(st.booleans()):
            items.append(None)  # inserts a dim, names none of x's
        if size and draw(st.booleans()):
            items.append(draw(st.integers(-size, size - 1)))
        else:
            start = draw(st.none() | st.integers(-size - 2, size + 2))
            stop = draw(st.none() | st.integers(-size - 2, size + 2))
            step = draw(st.none() | st.integers(1, 3))
            items.append(slice(start, stop, step))
        return items

    dims = list(shape)
    leading = draw(st.integers(0, len(dims)))
    if not draw(st.booleans()):  # no ellipsis
        return tuple(item for size in dims[:leading] for item in item_for(size))
    trailing = draw(st.integers(0, len(dims) - leading))
    before = [item for size in dims[:leading] for item in item_for(size)]
    after = [item for size in dims[len(dims) - trailing :] for item in item_for(size)]
    return (*before, Ellipsis, *after)


@given(st.lists(st.integers(0, 4), max_size=4).map(tuple), st.data())
def test_getitem_random(shape: tuple, data: st.DataObject) -> None:
    index = data.draw(basic_indices(shape))
    check_op(lambda m, x: x[index], values(shape))


@given(st.lists(st.integers(1, 4), max_size=3).map(tuple), st.data())
def test_setitem_random(shape: tuple, data: st.DataObject) -> None:
    index = data.draw(basic_indices(shape))
    t, m = pair(values(shape))
    target_shape = tuple(t[index].shape)
    use_tensor = data.draw(st.booleans())
    if use_tensor:  # a value that broadcasts: some trailing dims, some of them 1
        k = data.draw(st.integers(0, len(target_shape)))
        vshape = tuple(1 if data.draw(st.booleans()) else s for s in target_shape[len(target_shape) - k :])
        v = np.asarray(np.random.default_rng(0).standard_normal(vshape))
        t[index], m[index] = torch.tensor(v), tl.tensor(v)
    else:
        t[index] = m[index] = 2.5
    assert_same(t, m)
    assert m._version == t._version


# --- assignment: dtypes, errors, autograd --------------------------------------------------
def test_setitem_casts_to_the_tensor_dtype() -> None:
    t, m = pair(np.zeros(4, dtype=np.int64))
    for x, lib in ((t, torch), (m, tl)):
        x[1] = 2.7
        x[2] = lib.tensor([[4.9]])
        x[3:] = True
    assert_same(t, m)


@pytest.mark.parametrize(
    "assign",
    [
        lambda m, x: x.__setitem__(slice(None), m.ones(2, 3)),
        lambda m, x: x.__setitem__(slice(None), m.ones(2)),
        lambda m, x: x.__setitem__(slice(None), [1, 2, 3]),
        lambda m, x: x.__setitem__(5, 1.0),
        lambda m, x: x.__setitem__(slice(None, None, -1), 1.0),
        lambda m, x: m.zeros(3, 1).expand(3, 4).__setitem__(0, 1.0),
    ],
)
def test_setitem_errors(assign: object) -> None:
    check_op(assign, np.zeros(3), grad=False)


@pytest.mark.parametrize(
    "assign",
    [
        lambda x: x.__setitem__(slice(1, None), x[:-1]),
        lambda x: x.__setitem__(slice(None, -1), x[1:]),
        lambda x: x.__setitem__(slice(None), x),
        lambda x: x.__setitem__(slice(None, 2), x[3:]),
        lambda x: x.__setitem__(slice(None, None, 2), x[1::2]),
    ],
)
def test_setitem_from_an_overlapping_view(assign: object) -> None:
    check_op(lambda m, x: (assign(x), x)[1], np.arange(6.0), grad=False)


def test_setitem_on_a_leaf_that_requires_grad_fails() -> None:
    for index in [0, Ellipsis]:
        t, m = pair(np.zeros(3), requires_grad=True)
        with pytest.raises(RuntimeError) as expected:
            t[index] = 1.0
        with pytest.raises(RuntimeError) as got:
            m[index] = 1.0
        assert str(got.value) == str(expected.value)


def test_setitem_gradients_to_the_old_tensor_and_to_the_value() -> None:
    def fn(m: object, a: object, v: object) -> object:
        b = a * 1
        b[1:, ::2] = v * 2
        b[0] = 5.0
        return b * b

    check_op(fn, values((3, 4)), values((2,)))


def test_setitem_gives_a_non_grad_tensor_history() -> None:
    def fn(m: object, v: object) -> object:
        c = m.zeros(3, 2)
        c[1:, 0] = v
        return c

    out = check_op(fn, values((2,)))
    assert out.grad_fn.name().endswith("CopySlices")


def test_setitem_bumps_the_version_shared_by_views() -> None:
    t, m = pair(values((3, 4)))
    for x, lib in ((t, torch), (m, tl)):
        v = x[1:]
        x[0, 0] = 1.0
        x[1] = lib.zeros(4)
        assert v._version == x._version == 2
    assert_same(t, m)


def test_setitem_after_save_is_caught_by_backward() -> None:
    for lib in (torch, tl):
        a = lib.ones(3, requires_grad=True)
        b = a * 2
        c = b * b  # saves b
        b[0] = 0.0
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            c.sum().backward()


# --- nonzero --------------------------------------------------------------------------------
NONZERO = {
    "2-d": [[0.0, 1.0], [2.0, 0.0]],
    "1-d ints": [0, 3, 0, 4],
    "bool": [[True, False, True]],
    "all zero": [[0, 0], [0, 0]],
    "0-d nonzero": 5,
    "0-d zero": 0.0,
    "empty": np.zeros((2, 0)),
}


@pytest.mark.parametrize("name", list(NONZERO))
@pytest.mark.parametrize("as_tuple", [False, True])
def test_nonzero(name: str, as_tuple: bool) -> None:
    check_op(lambda m, x: m.nonzero(x, as_tuple=as_tuple), np.asarray(NONZERO[name]), grad=False)


@given(st.lists(st.integers(0, 4), max_size=3).map(tuple), st.data())
def test_nonzero_random(shape: tuple, data: st.DataObject) -> None:
    a = np.asarray(data.draw(st.lists(st.integers(-1, 1), min_size=math.prod(shape), max_size=math.prod(shape)))).reshape(shape)
    check_op(lambda m, x: m.nonzero(x), a)
    check_op(lambda m, x: m.nonzero(x, as_tuple=True), a)
    check_op(lambda m, x: m.where(x != 0), a)


@pytest.mark.parametrize("index", [0, -1, (1, 2), (0, ..., 1)])
def test_an_element_indexed_in_place_writes_through_and_counts_versions(index) -> None:
    """``x[i] += 1`` on every element kind of index: the value lands in x, and _version moves as torch's."""
    results = {}
    for lib in (torch, tl):
        x = lib.arange(6.0).reshape(2, 3) if isinstance(index, tuple) else lib.arange(3.0)
        x[index] += 1
        x.select(0, 0).add_(10)
        results[lib.__name__] = (x.tolist(), x._version)
    assert results["tensorlab"] == results["torch"]
