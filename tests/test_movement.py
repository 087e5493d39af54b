"""flip, roll, tril/triu, repeat, tile and repeat_interleave against torch."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import tensorlab as tl
from tests.oracle import check_op

X3 = np.arange(24.0).reshape(2, 3, 4) * 0.5 - 3

CASES = {
    "flip two dims": lambda m, x: x.flip(0, 2),
    "flip with a list": lambda m, x: m.flip(x, [-1]),
    "flip no dims": lambda m, x: x.flip([]),
    "flip a transposed view": lambda m, x: x.transpose(0, 2).flip(1),
    "roll flattened": lambda m, x: x.roll(5),
    "roll negative flattened": lambda m, x: m.roll(x, -7),
    "roll two dims": lambda m, x: x.roll((1, -1), (0, 2)),
    "roll the same dim twice": lambda m, x: x.roll((1, 2), (2, 2)),
    "roll more than the size": lambda m, x: x.roll(7, 1),
    "roll a 0-d tensor": lambda m, x: x.sum().roll(1),
    "roll an empty tensor": lambda m, x: x[:, :0].roll(1, 0),
    "tril": lambda m, x: x.tril(),
    "tril above": lambda m, x: m.tril(x, 1),
    "triu below": lambda m, x: x.triu(-1),
    "triu far": lambda m, x: m.triu(x, 5),
    "tril of a long tensor": lambda m, x: m.arange(6).view(2, 3).tril(),
    "triu of a bool tensor": lambda m, x: (x > 0).triu(),
    "repeat": lambda m, x: x.repeat(2, 1, 3),
    "repeat with new dims": lambda m, x: x.repeat(2, 1, 1, 2),
    "repeat with a list": lambda m, x: x.repeat([1, 2, 1]),
    "repeat zero times": lambda m, x: x.repeat(1, 0, 1),
    "repeat a 0-d tensor": lambda m, x: x.sum().repeat(3),
    "repeat a view": lambda m, x: x[:, 1].t().repeat(2, 2),
    "tile with fewer dims": lambda m, x: x.tile((2,)),
    "tile with more dims": lambda m, x: m.tile(x, (2, 1, 1, 1)),
    "tile varargs": lambda m, x: x.tile(1, 2),
    "repeat_interleave flattens": lambda m, x: x.repeat_interleave(2),
    "repeat_interleave along a dim": lambda m, x: x.repeat_interleave(3, dim=1),
    "repeat_interleave negative dim": lambda m, x: m.repeat_interleave(x, 2, dim=-1),
    "repeat_interleave tensor repeats": lambda m, x: x.repeat_interleave(m.tensor([1, 2]), dim=0),
    "repeat_interleave zero counts": lambda m, x: x.repeat_interleave(m.tensor([0, 2, 1, 0]), dim=2),
    "repeat_interleave 0-d tensor": lambda m, x: x.repeat_interleave(m.tensor(2), dim=0),
    "repeat_interleave 1-element tensor": lambda m, x: x.repeat_interleave(m.tensor([2]), dim=1),
    "repeat_interleave counts only": lambda m, x: m.repeat_interleave(m.tensor([1, 2, 0, 3])),
    "repeat_interleave int tensor": lambda m, x: m.arange(3).repeat_interleave(2),
}


@pytest.mark.parametrize("name", list(CASES))
def test_movement_matches_torch(name: str) -> None:
    check_op(CASES[name], X3)


ERRORS = {
    "flip repeated dim": (lambda m, x: x.flip(0, 0), "dim 0 appears multiple times in the list of dims"),
    "flip dim out of range": (lambda m, x: x.flip(3), "Dimension out of range"),
    "flip takes a tuple": (lambda m, x: m.flip(x, 0), "must be tuple of ints, not int"),
    "roll shifts and dims differ": (lambda m, x: x.roll((1, -1), (0,)), "shifts and dimensions must align. shifts: 2, dims:1"),
    "roll two shifts without dims": (lambda m, x: x.roll((1, 2)), "shifts and dimensions must align. shifts: 2, dims:0"),
    "roll without shifts": (lambda m, x: x.roll(()), "`shifts` required"),
    "tril of a vector": (lambda m, x: x[0, 0].tril(), "tril: input tensor must have at least 2 dimensions"),
    "triu of a vector": (lambda m, x: x[0, 0].triu(), "triu: input tensor must have at least 2 dimensions"),
    "repeat too few sizes": (lambda m, x: x.repeat(2, 1), "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor"),
    "repeat negative": (lambda m, x: x.repeat(1, -1, 1), "Trying to create tensor with negative dimension -3: [2, -3, 4]"),
    "repeat_interleave negative": (lambda m, x: x.repeat_interleave(-1), "Repeats must be non-negative"),
    "repeat_interleave negative tensor": (lambda m, x: x.repeat_interleave(m.tensor([1, -1]), dim=0), "repeats can not be negative"),
    "repeat_interleave wrong size": (lambda m, x: x.repeat_interleave(m.tensor([1, 2, 3]), dim=0), "repeats must have the same size as input along dim, but got repeats.size(0) = 3 and input.size(0) = 2"),
    "repeat_interleave 2-d repeats": (lambda m, x: x.repeat_interleave(m.tensor([[1]]), dim=0), "repeats must be 0-dim or 1-dim tensor"),
    "repeat_interleave float repeats": (lambda m, x: x.repeat_interleave(m.tensor([1.0, 1.0]), dim=0), "not implemented for 'Float'"),
    "repeat_interleave 2-d counts": (lambda m, x: m.repeat_interleave(m.tensor([[1]])), "repeat_interleave only accept 1D vector as repeat"),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_movement_errors(name: str) -> None:
    fn, message = ERRORS[name]
    check_op(fn, X3, match=message)


def test_grad_fn_names_follow_torch() -> None:
    x = tl.tensor(X3, requires_grad=True)
    t = torch.tensor(X3, requires_grad=True)
    for fn in (
        lambda m, x: x.flip(0), lambda m, x: x.roll(1), lambda m, x: x.tril(), lambda m, x: x.triu(),
        lambda m, x: x.repeat(1, 1, 2), lambda m, x: x.tile(2), lambda m, x: x.repeat_interleave(2),
        lambda m, x: x.repeat_interleave(m.tensor([1, 2]), dim=0),
    ):
        assert fn(tl, x).grad_fn.name() == type(fn(torch, t).grad_fn).__name__


def test_movement_results_are_copies() -> None:
    x = tl.tensor(X3)
    for y in (x.flip(0), x.roll(1, 0), x.repeat(1, 1, 1), x.tril()):
        assert y.untyped_storage() is not x.untyped_storage()


def test_tril_and_triu_in_place() -> None:
    def fn(m: Any, x: Any) -> Any:
        y = x * 1
        y.tril_(1)
        z = x * 2
        z.triu_(-1)
        return y, z

    check_op(fn, X3)


# --- hypothesis ---------------------------------------------------------------------------
shapes = st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple)


def _values(shape: tuple, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape)


@given(shape=shapes, seed=st.integers(0, 99), data=st.data())
def test_flip_and_roll_match_torch(shape: tuple, seed: int, data: Any) -> None:
    x = _values(shape, seed)
    dims = data.draw(st.lists(st.integers(-len(shape), len(shape) - 1), max_size=len(shape), unique_by=lambda d: d % len(shape)))
    shifts = data.draw(st.lists(st.integers(-9, 9), min_size=max(len(dims), 1), max_size=max(len(dims), 1)))
    check_op(lambda m, t: t.flip(dims), x)
    check_op(lambda m, t: t.roll(tuple(shifts), tuple(dims)) if dims else t.roll(shifts[0]), x)


@given(shape=st.lists(st.integers(1, 4), min_size=2, max_size=3).map(tuple), seed=st.integers(0, 99), k=st.integers(-4, 4))
def test_tril_and_triu_match_torch(shape: tuple, seed: int, k: int) -> None:
    x = _values(shape, seed)
    check_op(lambda m, t: (t.tril(k), t.triu(k)), x)


@given(shape=shapes, seed=st.integers(0, 99), data=st.data())
def test_repeat_tile_and_repeat_interleave_match_torch(shape: tuple, seed: int, data: Any) -> None:
    x = _values(shape, seed)
    sizes = data.draw(st.lists(st.integers(0, 3), min_size=len(shape), max_size=len(shape) + 1))
    check_op(lambda m, t: t.repeat(*sizes), x)
    check_op(lambda m, t: t.tile(tuple(sizes[1:])), x)
    dim = data.draw(st.integers(-len(shape), len(shape) - 1))
    counts = data.draw(st.lists(st.integers(0, 3), min_size=shape[dim], max_size=shape[dim]))
    check_op(lambda m, t: t.repeat_interleave(m.tensor(counts), dim=dim), x)
    check_op(lambda m, t: t.repeat_interleave(counts[0], dim=dim), x)


# --- errors: argument types (checked before the dims, as in torch) and bad sizes -------------------
@pytest.mark.parametrize(
    "fn",
    [
        lambda lib, x: x.tril(diagonal=0.5),
        lambda lib, x: x.triu(True),
        lambda lib, x: lib.tril(x, np.int64(1)),
        lambda lib, x: x.reshape(-1).tril(0.5),  # the type is checked before the dims
        lambda lib, x: x.tile((-1,)),
        lambda lib, x: x.repeat(2),
        lambda lib, x: x.roll((1, 1), (0,)),
        lambda lib, x: x.flip(0, 0),
    ],
)
def test_argument_errors(fn: Any) -> None:
    check_op(fn, np.random.default_rng(0).standard_normal((2, 3)))
