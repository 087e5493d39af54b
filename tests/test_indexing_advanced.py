"""Advanced indexing (int lists/tensors, masks, mixtures), index assignment, masked_fill,
masked_select, take, take_along_dim and where(cond), against torch."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import tensorlab as tl
from tests.oracle import assert_same, check_op, pair, standard_normal

seeds = st.integers(0, 2**16)

XS = np.arange(6).reshape(2, 3)  # the seed's ``xs``
X3 = np.arange(24.0).reshape(2, 3, 4) * 0.5 - 3


# --- the seed notes, section "Indexing" (advanced forms) -------------------------------------
SEED_GET = {
    "multiple indexes keep dim: xs[[0],:]": lambda m, xs: xs[[0], :],
    "negative in a list: xs[[-1],:]": lambda m, xs: xs[[-1], :],
    "indexes can repeat: xs[[0,1,0,1]]": lambda m, xs: xs[[0, 1, 0, 1]],
    "indexes over several dims are zipped": lambda m, xs: xs[[0, 1, 0, 1], [0, 1, 0, 1]],
    "a list after a slice gives a subtensor": lambda m, xs: xs[:, [0, 1, 0, 1]],
    "select with bools: xs[[False,True]]": lambda m, xs: xs[[False, True]],
    "bools over two dims are zipped": lambda m, xs: xs[[False, True], [False, True, True]],
    "bools after a slice": lambda m, xs: xs[:, [False, True, True]],
    "selecting with tensors": lambda m, xs: m.arange(6).view(2, 3)[m.zeros(2, 2).int()],
}


@pytest.mark.parametrize("name", list(SEED_GET))
def test_seed_advanced_indexing(name: str) -> None:
    check_op(SEED_GET[name], XS)


def _through_view(index: Any, value: Any) -> Callable:
    def fn(m: Any, ys: Any) -> Any:
        xs = ys[:]
        xs[index] = value(m) if callable(value) else value
        return ys, xs

    return fn


SEED_SET = {
    "assign to a column: xs[:,0]=7": ((slice(None), 0), 7),
    "partial index implies ':' on the rest": (slice(None), 7),
    "broadcast a row: xs[:] = arange(3).view(1,3)": (slice(None), lambda m: m.arange(3).view(1, 3)),
    "broadcast with xs[:,:]": ((slice(None), slice(None)), lambda m: m.arange(3).view(1, 3)),
    "advanced columns through a view": ((slice(None), [0, 2]), 7),
    "mask through a view": ([True, False], lambda m: m.tensor([9, 8, 7])),
    "range through a view": ((range(2), [2, 0]), 9),
}


@pytest.mark.parametrize("name", list(SEED_SET))
def test_seed_index_assignment_through_views(name: str) -> None:
    index, value = SEED_SET[name]
    ys_t, ys_m = pair(XS)
    assert_same(_through_view(index, value)(torch, ys_t), _through_view(index, value)(tl, ys_m))
    assert ys_m._version == ys_t._version


# --- placement of the advanced dims, mixtures with basic items -----------------------------
MIXTURES = {
    "int then list separated by a slice (torch selects first)": lambda m, x: x[0, :, [1, 2]],
    "list, slice, int": lambda m, x: x[[0, 1], :, 0],
    "lists separated by a slice go to the front": lambda m, x: x[[0, 1], :, [0, 1]],
    "lists separated by None go to the front": lambda m, x: x[[0, 1], None, [0, 1]],
    "adjacent lists stay in place": lambda m, x: x[:, [0, 1], [0, 1]],
    "lists around an ellipsis": lambda m, x: x[[0, 1], ..., [0, 1]],
    "2-d index lists broadcast": lambda m, x: x[[[1, 0], [0, 0]], :, [[-1], [2]]],
    "index tensor of 2 dims": lambda m, x: x[m.tensor([[0, 1], [1, 0]])],
    "int32 index tensor": lambda m, x: x[m.tensor([1, 0], dtype=m.int32)],
    "0-d int tensor selects (a view)": lambda m, x: x[m.tensor(1)],
    "0-d int tensor with a list": lambda m, x: x[m.tensor(0), [1, 2]],
    "list then a stepped slice": lambda m, x: x[[0, 1, 0], 1::2],
    "ellipsis then list": lambda m, x: x[..., [0, 3, 3]],
    "None then list": lambda m, x: x[None, [0, 1]],
    "empty list": lambda m, x: x[[]],
    "empty long tensor": lambda m, x: x[m.tensor([], dtype=m.int64)],
    "list of lists read as a tuple": lambda m, x: x[[[0, 1], [1, 0]]],
    "list with a slice read as a tuple (a view)": lambda m, x: x[[0, slice(None)]],
    "index a transposed view": lambda m, x: x.transpose(0, 2)[[1, 0], 1:, [0, 1]],
    "index an expanded view": lambda m, x: x[0, 0].expand(3, 4)[[0, 2], [1, 1]],
    "numpy array index": lambda m, x: x[np.array([1, 0])],
    "range as an index": lambda m, x: x[range(2)],
    "range zipped with a list (logprobs[range(n), Yb])": lambda m, x: x[:, range(3), [0, 3, 1]],
    "range after a slice": lambda m, x: x[:, :, range(1, 4)],
    "empty range": lambda m, x: x[range(0)],
    "list holding a range read as a tuple": lambda m, x: x[[range(2)]],
}


@pytest.mark.parametrize("name", list(MIXTURES))
def test_mixtures_of_basic_and_advanced(name: str) -> None:
    check_op(MIXTURES[name], X3)


MASKS = {
    "mask of x's shape": lambda m, x: x[x > 1],
    "2-d mask over the first dims": lambda m, x: x[m.tensor([[True, False, True], [False, True, True]])],
    "2-d mask then an int": lambda m, x: x[m.ones(2, 3, dtype=m.bool), 0],
    "2-d mask then a list": lambda m, x: x[m.ones(2, 3, dtype=m.bool), [1]],
    "int then 2-d mask": lambda m, x: x[0, m.tensor([[True, False, True, False]] * 3)],
    "slice then 2-d mask": lambda m, x: x[:, m.ones(3, 4, dtype=m.bool)],
    "all False": lambda m, x: x[m.zeros(2, dtype=m.bool)],
    "x[True]": lambda m, x: x[True],
    "x[False]": lambda m, x: x[False],
    "0-d bool tensor": lambda m, x: x[m.tensor(True)],
    "list then True": lambda m, x: x[[1], True],
    "True then list": lambda m, x: x[True, [1]],
    "int then True": lambda m, x: x[0, True],
    "0-d tensor [True]": lambda m, x: m.tensor(5.0)[True],
    "uint8 mask (deprecated form)": lambda m, x: x[m.tensor([1, 0], dtype=m.uint8)],
    "mask and list zipped": lambda m, x: x[:, [True, False, True], [0, 3]],
}


@pytest.mark.parametrize("name", list(MASKS))
def test_boolean_masks(name: str) -> None:
    check_op(MASKS[name], X3)


ERRORS = {
    "index out of range": (lambda m, x: x[[0, 5]], "index 5 is out of bounds for dimension 0 with size 2"),
    "negative out of range": (lambda m, x: x[[-3]], "index -3 is out of bounds for dimension 0 with size 2"),
    "dim counted among index tensors": (lambda m, x: x[:, [0], [9]], "index 9 is out of bounds for dimension 1 with size 4"),
    "after a select": (lambda m, x: x[0, [5]], "index 5 is out of bounds for dimension 0 with size 3"),
    "mask of wrong length": (lambda m, x: x[[True, False, True]], "The shape of the mask [3] at index 0 does not match the shape of the indexed tensor [2, 3, 4] at index 0"),
    "mask on the second dim": (lambda m, x: x[:, [True, False]], "The shape of the mask [2] at index 0 does not match the shape of the indexed tensor [2, 3, 4] at index 1"),
    "2-d mask of wrong shape": (lambda m, x: x[m.ones(2, 2, dtype=m.bool)], "at index 1"),
    "float index tensor": (lambda m, x: x[m.tensor([0.0])], "tensors used as indices must be long, int, byte or bool tensors"),
    "lists do not broadcast": (lambda m, x: x[[0, 1], [0, 1, 2]], "shape mismatch: indexing tensors could not be broadcast together with shapes [2], [3]"),
    "too many indices": (lambda m, x: x[[0], [0], [0], [0]], "too many indices for tensor of dimension 3"),
    "list on a 0-d tensor": (lambda m, x: x.sum()[[0]], "too many indices for tensor of dimension 0"),
    "a string": (lambda m, x: x["a"], None),
    "range out of bounds": (lambda m, x: x[range(3)], "index 2 is out of bounds for dimension 0 with size 2"),
    "a float": (lambda m, x: x[1.5], "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got float)"),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_indexing_errors(name: str) -> None:
    fn, message = ERRORS[name]
    check_op(fn, X3, match=message)


def test_advanced_index_copies_and_records_index_backward() -> None:
    x = tl.tensor(X3, requires_grad=True)
    y = x[[0, 0, 1]]
    assert y.untyped_storage() is not x.untyped_storage()
    assert y.grad_fn.name() == "IndexBackward0"
    assert x[tl.tensor(1)].grad_fn.name() == "SelectBackward0"


def test_repeated_indices_sum_their_gradients() -> None:
    check_op(lambda m, x: x[[1, 1, 0, 1], [2, 2, 2, 0]] * m.arange(4.0), X3[0])


def test_double_backward_through_an_index() -> None:
    def fn(m: Any, x: Any) -> Any:
        y = (x[[0, 1, 1]] ** 2).sum()
        (g,) = m.autograd.grad(y, x, create_graph=True)
        return g[[1, 0]]

    check_op(fn, X3)


# --- assignment -----------------------------------------------------------------------------
def _assign(index: Any, value: Any) -> Callable:
    """y = x * 1 (a non-leaf), y[index] = value: differentiable w.r.t. x and value."""

    def fn(m: Any, x: Any, *values: Any) -> Any:
        y = x * 1
        y[index] = values[0] if values else value
        return y

    return fn


SET_CASES = {
    "list of rows, broadcast row value": ([0, 1], np.array([1.0, 2.0, 3.0, 4.0])),
    "zipped pairs": (([0, 1], [2, 0]), np.array([[5.0, 6.0, 7.0, 8.0]])),
    "separated lists (front placement)": (([1, 0], slice(None), [3, 0]), np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])),
    "mask": (np.array([[True, False, True], [False, False, True]]), np.array([1.0, 2.0, 3.0, 4.0])),
    "value with leading 1s": ([1], np.ones((1, 1, 1, 3, 4))),
    "True": (True, np.array(9.0)),
    "0-d value": (([0], [1]), np.array(-4.0)),
}


@pytest.mark.parametrize("name", list(SET_CASES))
def test_index_assignment_value_and_old_tensor_gradients(name: str) -> None:
    index, value = SET_CASES[name]
    if isinstance(index, np.ndarray):
        index_t = (torch.tensor(index),)
        index_m = (tl.tensor(index),)

        def fn(m: Any, x: Any, v: Any) -> Any:
            return _assign(index_t[0] if m is torch else index_m[0], None)(m, x, v)

        check_op(fn, X3, value)
    else:
        check_op(_assign(index, None), X3, value)


def test_index_assignment_of_a_number_casts_it() -> None:
    check_op(lambda m, x: _assign(([0, 1], 1), 2.5)(m, x), np.arange(24).reshape(2, 3, 4))
    check_op(lambda m, x: _assign([0], True)(m, x), X3)
    check_op(lambda m, x: _assign(x > 0, -1)(m, x), X3)


def test_index_assignment_bumps_the_version_once() -> None:
    t, m = pair(X3)
    t[[0, 1], [1, 2]] = 5.0
    m[[0, 1], [1, 2]] = 5.0
    assert_same(t, m)
    assert m._version == t._version == 1


def test_index_assignment_through_a_transposed_view() -> None:
    def fn(m: Any, ys: Any) -> Any:
        xs = ys.t()
        xs[[0, 2]] = m.tensor([[10, 11]])
        return ys

    check_op(fn, XS)


def test_index_assignment_with_repeated_positions_keeps_the_last_write() -> None:
    check_op(lambda m, x: _assign([0, 0, 1], m.tensor([1.0, 2.0, 3.0]))(m, x), np.zeros(3))


def test_index_assignment_records_index_put_backward() -> None:
    y = tl.tensor(X3, requires_grad=True) * 1
    y[[0]] = 1.0
    assert y.grad_fn.name() == "IndexPutBackward0"


SET_ERRORS = {
    "leaf that requires grad": (lambda m, x: x.__setitem__([0], 1.0), "a leaf Variable that requires grad is being used in an in-place operation."),
    "value of another dtype": (lambda m, x: _assign([0], m.tensor([1, 2, 3, 4]))(m, x), "Index put requires the source and destination dtypes match, got Float for the destination and Long for the source."),
    "value does not broadcast": (lambda m, x: _assign(([0, 1], [0, 1]), m.ones(3))(m, x), "shape mismatch: value tensor of shape [3] cannot be broadcast to indexing result of shape [2, 4]"),
    "value with extra dims": (lambda m, x: _assign([0, 1], m.ones(2, 2, 3, 4))(m, x), "shape mismatch: value tensor of shape [2, 2, 3, 4] cannot be broadcast to indexing result of shape [2, 3, 4]"),
    "index out of range": (lambda m, x: _assign([5], 1.0)(m, x), "index 5 is out of bounds for dimension 0 with size 2"),
    "a list value": (lambda m, x: _assign([0], [1.0])(m, x), None),
    "float index": (lambda m, x: _assign(m.tensor([1.0]), 1.0)(m, x), "tensors used as indices must be long"),
}


@pytest.mark.parametrize("name", list(SET_ERRORS))
def test_index_assignment_errors(name: str) -> None:
    fn, message = SET_ERRORS[name]
    check_op(fn, X3.astype(np.float32), match=message)


# --- hypothesis: random shapes, index lists (negatives, repeats), masks and mixtures --------
@st.composite
def indexed_tensors(draw: Any) -> tuple[np.ndarray, list]:
    """A small float array and an index: per dim an int, a slice, a list of ints or a mask,
    with sometimes None or ... in between."""
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=1, max_size=3)))
    x = np.arange(math.prod(shape), dtype=np.float64).reshape(shape) * 0.25 - 1
    items: list = []
    for size in shape:
        kind = draw(st.sampled_from(["int", "slice", "list", "list", "mask", "tensor"]))
        if kind == "int":
            items.append(("basic", draw(st.integers(-size, size - 1))))
        elif kind == "slice":
            start = draw(st.none() | st.integers(-size, size))
            items.append(("basic", slice(start, None, draw(st.integers(1, 2)))))
        elif kind == "mask":
            items.append(("mask", draw(st.lists(st.booleans(), min_size=size, max_size=size))))
        else:
            n = draw(st.integers(1, 3))
            items.append((kind, draw(st.lists(st.integers(-size, size - 1), min_size=n, max_size=n))))
        if draw(st.integers(0, 5)) == 0:
            items.append(("basic", draw(st.sampled_from([None, Ellipsis]))))
    if sum(1 for item in items if item == ("basic", Ellipsis)) > 1:
        items = [item for item in items if item != ("basic", Ellipsis)]
    return x, items


def _index_for(m: Any, items: list) -> tuple:
    """The drawn index for library m; lists of different lengths are made to broadcast."""
    out = []
    for kind, item in items:
        if kind == "mask":
            out.append(m.tensor(item))
        elif kind == "tensor":
            out.append(m.tensor(item))
        else:
            out.append(item)
    return tuple(out)


@given(indexed_tensors())
def test_getitem_matches_torch_on_random_indices(case: tuple) -> None:
    x, items = case
    check_op(lambda m, t: t[_index_for(m, items)], x)


@given(indexed_tensors(), st.booleans())
def test_setitem_matches_torch_on_random_indices(case: tuple, scalar: bool) -> None:
    x, items = case
    index_t = _index_for(torch, items)
    try:
        shape = tuple(torch.tensor(x)[index_t].shape)
    except (IndexError, RuntimeError):
        shape = (1,)
    value = np.array(7.5) if scalar else np.arange(math.prod(shape), dtype=np.float64).reshape(shape) + 100

    def fn(m: Any, t: Any, v: Any) -> Any:
        y = t * 1
        y[_index_for(m, items)] = v[0] if scalar and v.ndim else v  # a value without repeats clashing
        return y

    if not _has_repeated_positions(x, index_t):
        check_op(fn, x, value)


def _has_repeated_positions(x: np.ndarray, index: tuple) -> bool:
    """Which write wins at a repeated position is unspecified in torch: leave those cases out."""
    try:
        picked = torch.arange(x.size).view(x.shape)[index]
    except (IndexError, RuntimeError):
        return False
    return picked.numel() != picked.unique().numel()


# --- masked_fill, masked_select, take, take_along_dim, where(cond) --------------------------
MASK = np.array([[True, False, False, True], [False, False, True, True], [True, True, False, False]])


def test_masked_fill_with_a_number_and_with_a_0d_tensor() -> None:
    check_op(lambda m, x: x.masked_fill(m.tensor(MASK), -1.5), X3)
    check_op(lambda m, x, v: m.masked_fill(x, m.tensor(MASK), v), X3, np.array(4.0))
    check_op(lambda m, x: m.zeros(4).masked_fill(m.tensor(MASK), 1.0), X3)  # result broadcast
    check_op(lambda m, x: m.arange(4).masked_fill(m.tensor(MASK[0]), 1.5), X3)  # value cast


def test_masked_fill_in_place() -> None:
    def fn(m: Any, x: Any) -> Any:
        y = x * 2
        y.masked_fill_(m.tensor(MASK), 0.0)
        return y

    check_op(fn, X3)


MASKED_ERRORS = {
    "integer mask": (lambda m, x: x.masked_fill(m.ones(4, dtype=m.int64), 1.0), "masked_fill_ only supports boolean masks, but got mask with dtype long int"),
    "uint8 mask": (lambda m, x: x.masked_fill(m.ones(4, dtype=m.uint8), 1.0), "unsigned char"),
    "1-d value tensor": (lambda m, x: x.masked_fill(x > 0, m.tensor([1.0])), "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with 1 dimension(s)."),
    "mask does not broadcast": (lambda m, x: x.masked_fill(m.ones(3, dtype=m.bool), 1.0), "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 2"),
    "in place, mask does not broadcast": (lambda m, x: x.clone().masked_fill_(m.ones(3, dtype=m.bool), 1.0), "The size of tensor a (4) must match the size of tensor b (3) at non-singleton dimension 2"),
    "masked_select, mask does not broadcast": (lambda m, x: x.masked_select(m.ones(3, dtype=m.bool)), "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 2"),
    "in place cannot grow self": (lambda m, x: m.zeros(4).masked_fill_(m.ones(3, 4, dtype=m.bool), 1.0), "output with shape [4] doesn't match the broadcast shape [3, 4]"),
    "masked_select integer mask": (lambda m, x: x.masked_select(m.ones(4, dtype=m.int64)), "masked_select: expected BoolTensor for mask"),
    "take with int32": (lambda m, x: x.take(m.tensor([0], dtype=m.int32)), "take(): Expected a long tensor for index, but got Int"),
    "take out of range": (lambda m, x: x.take(m.tensor([24])), "out of range: tried to access index 24 on a tensor of 24 elements."),
    "take negative out of range": (lambda m, x: x.take(m.tensor([-25])), "tried to access index -25"),
    "take_along_dim int32": (lambda m, x: m.take_along_dim(x, m.tensor([[[1]]], dtype=m.int32), dim=2), "dtype of indices should be Long but got Int"),
    "take_along_dim ndim": (lambda m, x: m.take_along_dim(x, m.tensor([[0]]), dim=2), "should have the same number of dimensions"),
    "take_along_dim flat out of range": (lambda m, x: m.take_along_dim(x, m.tensor([30])), "index 30 is out of bounds for dimension 0 with size 24"),
}


@pytest.mark.parametrize("name", list(MASKED_ERRORS))
def test_mask_and_take_errors(name: str) -> None:
    fn, message = MASKED_ERRORS[name]
    check_op(fn, X3, match=message)


def test_masked_select_broadcasts_mask_and_input() -> None:
    check_op(lambda m, x: x.masked_select(m.tensor(MASK)), X3)
    check_op(lambda m, x: m.masked_select(x[0, :, :1], m.tensor(MASK)), X3)  # input broadcast too


def test_take_reads_the_tensor_as_flat() -> None:
    check_op(lambda m, x: x.take(m.tensor([[0, -1], [5, 3], [5, 5]])), X3)
    check_op(lambda m, x: x.transpose(0, 2).take(m.tensor([1, 2, 7])), X3)
    check_op(lambda m, x: x.sum().take(m.tensor(0)), X3)


def test_take_along_dim() -> None:
    check_op(lambda m, x: m.take_along_dim(x, m.tensor([[[0, 3]]]), dim=2), X3)
    check_op(lambda m, x: x.take_along_dim(m.tensor([[[0]], [[2]]]), dim=1), X3)
    check_op(lambda m, x: m.take_along_dim(x, m.tensor([0, 5, 5])), X3)
    check_op(lambda m, x: m.take_along_dim(x, m.tensor([[[-1, 9, -5]]]), dim=-1), X3)  # wraps around
    check_op(lambda m, x: m.take_along_dim(x, x.argmax(2, keepdim=True), dim=2), X3)


def test_where_with_only_a_condition_is_nonzero_as_tuple() -> None:
    check_op(lambda m, x: m.where(x > 0.5), X3)
    check_op(lambda m, x: m.where(m.tensor([[1, 0], [0, 3]])), X3)


@given(
    shape=st.lists(st.integers(1, 4), min_size=1, max_size=3),
    seed=st.integers(0, 2**16),
    fill=st.sampled_from([0.0, -2.5, 7]),
)
def test_masked_ops_match_torch_on_random_masks(shape: list, seed: int, fill: float) -> None:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    mask = rng.random(shape[rng.integers(0, len(shape)):]) < 0.5  # a mask that broadcasts

    check_op(lambda m, t: t.masked_fill(m.tensor(mask), fill), x)
    check_op(lambda m, t: t.masked_select(m.tensor(mask)), x)
    index = rng.integers(-x.size, x.size, size=rng.integers(0, 5))
    check_op(lambda m, t: t.take(m.tensor(index, dtype=m.int64)), x)


# --- take_along_dim on random shapes -----------------------------------------------------------
@given(shape=st.lists(st.integers(1, 3), min_size=1, max_size=3).map(tuple), seed=seeds, data=st.data())
def test_take_along_dim_random(shape: tuple, seed: int, data: st.DataObject) -> None:
    dim = data.draw(st.integers(-len(shape), len(shape) - 1))
    index_shape = tuple(data.draw(st.integers(0, 3)) if d == dim % len(shape) else data.draw(st.sampled_from([1, s])) for d, s in enumerate(shape))
    index = np.random.default_rng(seed).integers(-shape[dim], shape[dim], index_shape) if data.draw(st.booleans()) else np.random.default_rng(seed).integers(0, shape[dim], index_shape)
    check_op(lambda lib, x, i: lib.take_along_dim(x, i, dim), standard_normal(shape, seed), index)
    check_op(lambda lib, x, i: x.take_along_dim(i.flatten()), standard_normal(shape, seed), index)


@pytest.mark.parametrize(
    "fn",
    [
        lambda lib, x: x.nonzero(as_tuple=None),
        lambda lib, x: x.nonzero(as_tuple=1),
        lambda lib, x: x.nonzero(as_tuple=True),
        lambda lib, x: x.take_along_dim(lib.tensor([[0, 1]]), 2),
        lambda lib, x: x.take_along_dim(lib.tensor([[9]]), 1),
        lambda lib, x: lib.where(x),
    ],
)
def test_nonzero_take_along_dim_and_where_argument_errors(fn: Any) -> None:
    check_op(fn, standard_normal((2, 3)))
