"""LongTensor, FloatTensor & co: torch's typed legacy constructors, against torch.

Each makes a tensor of one dtype (from data, a shape, or a tensor of that dtype); ``isinstance``
asks for that dtype; ``x.type(...)`` converts to it. Old tutorials (and the seed notes) use them.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import tensorlab as tl
from tests.oracle import assert_same, check_op

NAMES = ["BoolTensor", "ByteTensor", "CharTensor", "ShortTensor", "IntTensor", "LongTensor", "HalfTensor", "FloatTensor", "DoubleTensor"]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("data", [[0, 1, 2], [[1.7, -2.2], [0.0, 3.5]], (1, 0), [], [True, False]])
def test_from_data_has_the_constructors_dtype(name: str, data: list) -> None:
    check_op(lambda lib: getattr(lib, name)(data), grad=False)


@pytest.mark.parametrize("name", NAMES)
def test_from_numpy_array(name: str) -> None:
    check_op(lambda lib: getattr(lib, name)(np.array([[1.5, 2.0], [0.0, 1.0]])), grad=False)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("size", [(2, 3), (0,), (4,), ()])
def test_shape_form_makes_that_shape(name: str, size: tuple) -> None:
    """``LongTensor(2, 3)`` is uninitialised memory in torch: compare shape and dtype only."""
    t, m = getattr(torch, name)(*size), getattr(tl, name)(*size)
    assert tuple(m.shape) == tuple(t.shape)
    assert str(m.dtype).split(".")[-1] == str(t.dtype).split(".")[-1]
    assert tuple(getattr(tl, name)(tl.Size([2, 1])).shape) == tuple(getattr(torch, name)(torch.Size([2, 1])).shape)


@pytest.mark.parametrize("call", [
    lambda lib: lib.LongTensor(2.5),  # a number is not data
    lambda lib: lib.LongTensor("ab"),
    lambda lib: lib.LongTensor(2, 3.0),
    lambda lib: lib.LongTensor(-1),
    lambda lib: lib.LongTensor([1], dtype=lib.float32),  # no dtype= (the name is the dtype)
    lambda lib: lib.FloatTensor(2, requires_grad=True),
    lambda lib: lib.LongTensor(lib.ones(2)),  # a tensor of another dtype
    lambda lib: lib.ByteTensor([-1, 300]),
    lambda lib: lib.IntTensor([2**40]),
    lambda lib: lib.Tensor(2.5),
])
def test_errors_match_torch(call) -> None:
    check_op(call, grad=False)


def test_from_a_tensor_of_its_dtype_shares_memory() -> None:
    x = tl.tensor([1, 2])
    y = tl.LongTensor(x)
    y[0] = 7
    assert x[0].item() == 7
    check_op(lambda lib: lib.LongTensor(lib.tensor([1, 2])), grad=False)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("dtype", ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"])
def test_isinstance_asks_for_the_dtype(name: str, dtype: str) -> None:
    t = torch.zeros(2, dtype=getattr(torch, dtype))
    m = tl.zeros(2, dtype=getattr(tl, dtype))
    assert isinstance(m, getattr(tl, name)) == isinstance(t, getattr(torch, name))
    assert isinstance(m, tl.Tensor)
    assert not isinstance([1], getattr(tl, name))


@pytest.mark.parametrize("name", NAMES)
def test_type_converts_by_class_and_by_name(name: str) -> None:
    check_op(lambda lib, x: x.type(getattr(lib, name)), np.array([0.0, 1.5, -2.0]), grad=False)
    check_op(lambda lib, x: x.type(f"torch.{name}" if lib is torch else f"tensorlab.{name}"), np.array([0.0, 1.5]), grad=False)
    assert tl.zeros(1).type(tl.LongTensor).type() == "tensorlab.LongTensor"


def test_not_a_subclass_of_tensor() -> None:
    assert issubclass(tl.LongTensor, tl.Tensor) == issubclass(torch.LongTensor, torch.Tensor)
    assert repr(tl.LongTensor) == "<class 'tensorlab.LongTensor'>"


def test_plain_tensor_constructor_keeps_working() -> None:
    check_op(lambda lib: lib.Tensor([1, 2]), grad=False)
    check_op(lambda lib: lib.Tensor(lib.tensor([1, 2])), grad=False)  # no dtype check for Tensor
    check_op(lambda lib: lib.Tensor((2, 1)), grad=False)  # a tuple is data
    assert tuple(tl.Tensor(2, 3).shape) == (2, 3)


@given(values=st.lists(st.integers(-100, 100), min_size=0, max_size=6), name=st.sampled_from(["CharTensor", "ShortTensor", "IntTensor", "LongTensor", "FloatTensor", "DoubleTensor"]))
def test_integer_lists_any_constructor(values: list, name: str) -> None:
    assert_same(getattr(torch, name)(values), getattr(tl, name)(values))


def test_seed_cross_entropy_verbatim() -> None:
    """The seed's ``torch.FloatTensor`` / ``torch.LongTensor`` cross-entropy lines."""
    for lib in (torch, tl):
        x = lib.FloatTensor([[1., 0., 0.], [0., 1., 0.], [0., 0., 1.]])
        y = lib.LongTensor([0, 1, 2])
        assert (x.dtype, y.dtype) == (lib.float32, lib.int64)
    x_t, x_m = torch.FloatTensor([[1., 0.], [0., 1.]]), tl.FloatTensor([[1., 0.], [0., 1.]])
    assert_same(torch.nn.functional.cross_entropy(x_t, torch.LongTensor([0, 1])), tl.nn.functional.cross_entropy(x_m, tl.LongTensor([0, 1])))
