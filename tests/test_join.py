"""cat, stack, hstack, vstack, split, chunk, unbind against torch.

Joining copies; splitting makes views, so those are checked for torch's strides, storage
offsets and storage sharing (check_op does it), and for gradients that reach the input.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import tensorlab as tl
from tests.oracle import check_op


def rand(*shape, dtype=np.float32, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def shapes_of(pieces):
    return [tuple(p.shape) for p in pieces]


# --- the seed's "Combining" examples ------------------------------------------------------
@pytest.mark.parametrize(
    ("run", "shape"),
    [
        (lambda lib: lib.cat([lib.empty(3, 4), lib.empty(3, 4)]), (6, 4)),
        (lambda lib: lib.cat([lib.empty(3, 4), lib.empty(3, 4)], dim=0), (6, 4)),
        (lambda lib: lib.cat([lib.empty(3, 4), lib.empty(3, 4)], dim=1), (3, 8)),
        (lambda lib: lib.stack([lib.empty(3, 4), lib.empty(3, 4)]), (2, 3, 4)),
        (lambda lib: lib.stack([lib.empty(3, 4), lib.empty(3, 4)], dim=1), (3, 2, 4)),
        (lambda lib: lib.stack([lib.empty(3, 4), lib.empty(3, 4)], dim=2), (3, 4, 2)),
    ],
)
def test_seed_combining(run, shape):
    assert tuple(run(tl).shape) == shape == tuple(run(torch).shape)


# --- the seed's "Splitting" examples ------------------------------------------------------
def test_seed_split():
    a = np.arange(10).reshape(5, 2)
    out = check_op(lambda lib, x: lib.split(x, 2), a)
    assert shapes_of(out) == [(2, 2), (2, 2), (1, 2)]
    assert out[2].tolist() == [[8, 9]]
    out = check_op(lambda lib, x: lib.split(x, [1, 4]), a)
    assert shapes_of(out) == [(1, 2), (4, 2)]


def test_seed_chunk():
    assert shapes_of(tl.zeros(6).chunk(2)) == [(3,), (3,)]
    assert shapes_of(tl.zeros(6, 5).chunk(2)) == [(3, 5), (3, 5)]
    assert shapes_of(tl.zeros(5, 5).chunk(2)) == [(3, 5), (2, 5)]
    for shape in [(6,), (6, 5), (5, 5)]:
        check_op(lambda lib, x: x.chunk(2), np.zeros(shape, np.float32))


def test_seed_unbind():
    t = [[1, 2, 3], [4, 5, 6]]
    assert [p.tolist() for p in tl.unbind(tl.tensor(t), dim=0)] == [[1, 2, 3], [4, 5, 6]]
    check_op(lambda lib, x: lib.unbind(x, dim=0), t)
    check_op(lambda lib, x: lib.unbind(x, dim=1), t)


# --- cat ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("shapes", "dim"),
    [
        ([(3, 4), (2, 4)], 0),
        ([(3, 4), (3, 1), (3, 0)], 1),
        ([(3, 4), (3, 2)], -1),
        ([(2, 3, 4), (2, 1, 4)], -2),
        ([(3, 4)], 0),
        ([(3, 4), (0,)], 1),  # legacy 1-D empty tensors are skipped
        ([(0,), (3, 4), (0,)], 0),
        ([(0,), (0,)], 0),
        ([(0, 4), (3, 4)], 0),
        ([(2,), (3,), (1,)], 0),
    ],
)
def test_cat_values_and_gradients(shapes, dim):
    arrays = [rand(*s, seed=i) for i, s in enumerate(shapes)]
    check_op(lambda lib, *xs: lib.cat(xs, dim), *arrays)
    check_op(lambda lib, *xs: lib.cat(list(xs), dim=dim), *arrays)
    check_op(lambda lib, *xs: lib.concat(xs, dim=dim), *arrays)
    check_op(lambda lib, *xs: lib.concatenate(xs, dim), *arrays)
    check_op(lambda lib, *xs: lib.concatenate(xs, axis=dim), *arrays)


@pytest.mark.parametrize(
    "dtypes",
    [
        (np.int32, np.int64),
        (np.int32, np.float16),
        (np.bool_, np.uint8),
        (np.bool_, np.bool_),
        (np.float32, np.float64),
        (np.int64, np.float32, np.bool_),
    ],
)
def test_cat_and_stack_promote_dtypes(dtypes):
    arrays = [np.ones((2, 3), d) for d in dtypes]
    check_op(lambda lib, *xs: lib.cat(xs), *arrays)
    check_op(lambda lib, *xs: lib.stack(xs, 1), *arrays)
    check_op(lambda lib, *xs: lib.cat(xs, 1), np.zeros(0, np.float64), *arrays)


def test_cat_output_is_a_copy():
    x = tl.zeros(3, 4)
    assert tl.cat([x]).untyped_storage() is not x.untyped_storage()
    assert tl.cat([x]).grad_fn is None


@pytest.mark.parametrize(
    "run",
    [
        lambda lib: lib.cat([]),
        lambda lib: lib.cat(()),
        lambda lib: lib.cat([lib.zeros(3, 3), lib.zeros(4, 4)], 1),
        lambda lib: lib.cat([lib.zeros(3, 3), lib.zeros(3, 4)], 0),
        lambda lib: lib.cat([lib.zeros(3, 3), lib.zeros(3, 3, 1)], 0),
        lambda lib: lib.cat([lib.zeros(3, 3), lib.zeros(3)], 0),
        lambda lib: lib.cat([lib.zeros(3, 3), lib.zeros(3, 4)], 2),
        lambda lib: lib.cat([lib.zeros(3, 3), lib.zeros(3, 4)], -3),
        lambda lib: lib.cat([lib.tensor(1.0), lib.tensor(2.0)]),
        lambda lib: lib.cat([lib.zeros(3), lib.tensor(2.0)]),
        lambda lib: lib.cat([lib.zeros(3, 4), lib.tensor(1.0)], 5),
        lambda lib: lib.cat([lib.zeros(3, 4), lib.zeros(0), lib.zeros(2, 5)], 0),
        lambda lib: lib.cat([lib.zeros(0), lib.zeros(3, 4), lib.zeros(2)], 0),
        lambda lib: lib.cat([lib.zeros(0, 5), lib.zeros(3, 4)], 0),
        lambda lib: lib.cat([lib.zeros(0), lib.zeros(3, 4)], 2),
        lambda lib: lib.cat(lib.zeros(3, 4)),
        lambda lib: lib.cat([lib.zeros(3, 4), 1]),
        lambda lib: lib.cat([lib.zeros(3, 4)], dim=1.0),
    ],
)
def test_cat_errors_match_torch(run):
    check_op(run, same_message=True)


def test_cat_error_messages_are_torchs():
    with pytest.raises(ValueError, match=r"torch.cat\(\): expected a non-empty list of Tensors"):
        tl.cat([])
    with pytest.raises(RuntimeError) as got:
        tl.cat([tl.zeros(3, 3), tl.zeros(4, 4)], 1)
    assert str(got.value) == (
        "Sizes of tensors must match except in dimension 1. Expected size 3 but got size 4 for "
        "tensor number 1 in the list."
    )


# --- stack, hstack, vstack -----------------------------------------------------------------
@pytest.mark.parametrize(("shape", "count", "dim"), [((3, 4), 2, 0), ((3, 4), 3, -1), ((2,), 2, 1), ((), 3, 0), ((0, 2), 2, 1)])
def test_stack_values_and_gradients(shape, count, dim):
    arrays = [rand(*shape, seed=i) for i in range(count)]
    check_op(lambda lib, *xs: lib.stack(xs, dim), *arrays)
    check_op(lambda lib, *xs: lib.stack(list(xs), dim=dim), *arrays)
    check_op(lambda lib, *xs: lib.stack(xs, axis=dim), *arrays)


@pytest.mark.parametrize(
    "run",
    [
        lambda lib: lib.stack([]),
        lambda lib: lib.stack([lib.zeros(3, 4), lib.zeros(3, 5)]),
        lambda lib: lib.stack([lib.zeros(3, 4), lib.zeros(3, 4, 1)]),
        lambda lib: lib.stack([lib.zeros(3, 4), lib.tensor(1)]),
        lambda lib: lib.stack([lib.zeros(3, 4), lib.zeros(3, 4)], 3),
        lambda lib: lib.stack([lib.zeros(3, 4), lib.zeros(3, 4)], -4),
        lambda lib: lib.stack([lib.zeros(3, 4), lib.zeros(3, 5)], 5),
        lambda lib: lib.hstack([]),
        lambda lib: lib.vstack([]),
    ],
)
def test_stack_errors_match_torch(run):
    check_op(run, same_message=True)


def test_stack_error_message_is_torchs():
    with pytest.raises(RuntimeError) as got:
        tl.stack([tl.zeros(3, 4), tl.zeros(3, 5)])
    assert str(got.value) == (
        "stack expects each tensor to be equal size, but got [3, 4] at entry 0 and [3, 5] at entry 1"
    )


@pytest.mark.parametrize(
    "shapes",
    [[(2,), (3,)], [(2, 1), (2, 3)], [(), ()], [(2, 3, 1), (2, 3, 2)]],
)
def test_hstack(shapes):
    check_op(lambda lib, *xs: lib.hstack(xs), *[rand(*s, seed=i) for i, s in enumerate(shapes)])


@pytest.mark.parametrize(
    "shapes",
    [[(2,), (2,)], [(2, 3), (1, 3)], [(), ()], [(3,), (2, 3)], [(1, 2, 3), (2, 2, 3)]],
)
def test_vstack(shapes):
    check_op(lambda lib, *xs: lib.vstack(xs), *[rand(*s, seed=i) for i, s in enumerate(shapes)])


# --- split, chunk, unbind: views -------------------------------------------------------------
@pytest.mark.parametrize(
    ("shape", "sizes", "dim"),
    [
        ((5, 2), 2, 0),
        ((5, 2), 10, 0),
        ((5, 2), 1, 1),
        ((5, 3), [2, 3], 0),
        ((5, 3), (0, 5), 0),
        ((5, 3), [5], 0),
        ((0, 2), 0, 0),
        ((0, 2), 2, 0),
        ((4, 6), [1, 2, 3], -1),
        ((2, 3, 4), 3, 2),
    ],
)
def test_split_views_and_gradients(shape, sizes, dim):
    x = rand(*shape)
    check_op(lambda lib, t: lib.split(t, sizes, dim), x)
    check_op(lambda lib, t: t.split(sizes, dim=dim), x)
    check_op(lambda lib, t: t.split(sizes, dim=dim)[0], x)  # the other pieces get zero gradient


def test_split_of_a_view_keeps_offset_and_strides():
    check_op(lambda lib, t: t[1:].split(2, 1), rand(5, 3))
    check_op(lambda lib, t: t.transpose(0, 1).split([1, 3], 1), rand(4, 3))
    check_op(lambda lib, t: t.transpose(0, 1).chunk(2, 0), rand(4, 3))
    check_op(lambda lib, t: t[:, 1:].unbind(1), rand(4, 3))


def test_pieces_share_storage_with_the_input():
    x = tl.arange(10).reshape(5, 2)
    *_, last = x.split(2)
    assert last.untyped_storage() is x.untyped_storage()
    assert (last.storage_offset(), last.stride()) == (8, (2, 1))
    x.add_(100)
    assert last.tolist() == [[108, 109]]


@pytest.mark.parametrize(
    ("grad_fn", "run"),
    [
        ("SplitBackward0", lambda lib, x: x.split(2)[0]),
        ("SplitWithSizesBackward0", lambda lib, x: x.split([2, 3])[0]),
        ("SplitBackward0", lambda lib, x: x.chunk(2)[0]),
        ("UnbindBackward0", lambda lib, x: x.unbind(1)[0]),
        ("CatBackward0", lambda lib, x: lib.cat([x, x])),
        ("StackBackward0", lambda lib, x: lib.stack([x, x])),
    ],
)
def test_join_grad_fn_names(grad_fn, run):
    for lib in (torch, tl):
        assert run(lib, lib.zeros(5, 3, requires_grad=True)).grad_fn.name() == grad_fn


@pytest.mark.parametrize(
    ("shape", "chunks", "dim"),
    [((6,), 4, 0), ((6,), 5, 0), ((6,), 6, 0), ((6,), 7, 0), ((5,), 4, 0), ((0,), 3, 0), ((3, 4), 2, 1), ((3, 4), 2, -1), ((1,), 1, 0)],
)
def test_chunk_like_torch(shape, chunks, dim):
    check_op(lambda lib, t: lib.chunk(t, chunks, dim), rand(*shape))
    check_op(lambda lib, t: t.chunk(chunks, dim=dim), rand(*shape))


def test_chunk_six_into_four_gives_three():
    assert shapes_of(tl.zeros(6).chunk(4)) == [(2,), (2,), (2,)] == shapes_of(torch.zeros(6).chunk(4))


@pytest.mark.parametrize(("shape", "dim"), [((2, 3), 0), ((2, 3), 1), ((2, 3), -1), ((0, 3), 0), ((2, 0), 1), ((4,), 0)])
def test_unbind_views_and_gradients(shape, dim):
    check_op(lambda lib, t: lib.unbind(t, dim), rand(*shape))
    check_op(lambda lib, t: t.unbind(dim)[-1] if t.shape[dim] else t.unbind(dim), rand(*shape))


def test_iterating_a_tensor_unbinds_it():
    check_op(lambda lib, t: tuple(t), rand(3, 2))


@pytest.mark.parametrize(
    "run",
    [
        lambda lib: lib.split(lib.zeros(5, 2), [1, 3]),
        lambda lib: lib.split(lib.zeros(5, 2), [1, 5]),
        lambda lib: lib.split(lib.zeros(5, 2), [-1, 6]),
        lambda lib: lib.split(lib.zeros(5, 2), [-1, 5]),
        lambda lib: lib.split(lib.zeros(5, 2), [-1, 6], dim=3),
        lambda lib: lib.split(lib.zeros(5, 2), 0),
        lambda lib: lib.split(lib.zeros(5, 2), -1),
        lambda lib: lib.split(lib.zeros(3), -1, 1),
        lambda lib: lib.split(lib.zeros(5, 2), 1, dim=2),
        lambda lib: lib.split(lib.tensor(1.0), 1),
        lambda lib: lib.split(lib.tensor(1.0), [1]),
        lambda lib: lib.split(lib.tensor(1.0), [0], 1),  # 0-d is reported before the dim out of range
        lambda lib: lib.split(lib.tensor(1.0), 1, 1),
        lambda lib: lib.tensor(1.0).chunk(2, 1),
        lambda lib: lib.zeros(5, 2).split(2.0),
        lambda lib: lib.zeros(6).chunk(0),
        lambda lib: lib.zeros(6).chunk(-1),
        lambda lib: lib.tensor(1.0).chunk(1),
        lambda lib: lib.tensor(1.0).chunk(0),
        lambda lib: lib.zeros(3, 4).chunk(2, 2),
        lambda lib: lib.chunk(lib.zeros(3), 2.0),
        lambda lib: lib.unbind(lib.tensor([[1, 2, 3], [4, 5, 6]]), 2),
        lambda lib: lib.unbind(lib.tensor(1.0)),
        lambda lib: lib.unbind(lib.tensor(1.0), -1),
        lambda lib: lib.unbind(lib.tensor(1.0), 1),
    ],
)
def test_split_chunk_unbind_errors_match_torch(run):
    check_op(run, same_message=True)


def test_split_accepts_integer_tensors_as_sizes():
    a = np.arange(10).reshape(5, 2)
    check_op(lambda lib, x: x.split(lib.tensor(2)), a)
    check_op(lambda lib, x: x.split([lib.tensor(2), 3]), a)


# --- round trips and random cases -------------------------------------------------------------
def test_split_then_cat_gradient_round_trip():
    check_op(lambda lib, t: lib.cat(t.split([1, 2], 1)[::-1], 1) * 2, rand(3, 3))
    check_op(lambda lib, t: lib.stack(t.unbind(1), 0), rand(3, 2))


@st.composite
def cat_case(draw):
    ndim = draw(st.integers(1, 3))
    shape = draw(st.lists(st.integers(0, 3), min_size=ndim, max_size=ndim))
    dim = draw(st.integers(-ndim, ndim - 1))
    count = draw(st.integers(1, 4))
    shapes = []
    for _ in range(count):
        s = list(shape)
        s[dim] = draw(st.integers(0, 3))
        if draw(st.integers(0, 9)) == 0:  # occasionally a wrong size elsewhere or a legacy empty
            s = [0] if draw(st.booleans()) else [x + 1 for x in s]
        shapes.append(tuple(s))
    dtypes = draw(st.lists(st.sampled_from([np.float32, np.float64, np.int64]), min_size=count, max_size=count))
    return shapes, dim, dtypes


@given(cat_case())
def test_cat_random(case):
    shapes, dim, dtypes = case
    arrays = [rand(*s, dtype=d, seed=i) for i, (s, d) in enumerate(zip(shapes, dtypes, strict=True))]
    check_op(lambda lib, *xs: lib.cat(xs, dim), *arrays)


@given(cat_case(), st.integers(-1, 3))
def test_stack_random(case, dim):
    shapes, _, dtypes = case
    arrays = [rand(*s, dtype=d, seed=i) for i, (s, d) in enumerate(zip(shapes, dtypes, strict=True))]
    check_op(lambda lib, *xs: lib.stack(xs, dim), *arrays)


@given(
    st.lists(st.integers(0, 4), min_size=1, max_size=3),
    st.integers(-3, 2),
    st.one_of(st.integers(0, 5), st.lists(st.integers(0, 3), max_size=4)),
)
def test_split_random(shape, dim, sizes):
    check_op(lambda lib, t: lib.split(t, sizes, dim), rand(*shape))


@given(st.lists(st.integers(0, 4), min_size=1, max_size=3), st.integers(-3, 2), st.integers(-1, 7))
def test_chunk_random(shape, dim, chunks):
    check_op(lambda lib, t: t.chunk(chunks, dim), rand(*shape))


@given(st.lists(st.integers(0, 3), min_size=0, max_size=3), st.integers(-3, 2))
def test_unbind_random(shape, dim):
    check_op(lambda lib, t: t.unbind(dim), rand(*shape))
