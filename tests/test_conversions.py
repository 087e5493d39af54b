"""Conversions against torch: numpy/tolist/item, to(dtype) and its shorthands, clone, Python protocols."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

import tensorlab as tl
from tests.oracle import check_op, pair


def same_outcome(code: str, values: object) -> None:
    """``code`` on ``t`` (a tensor of ``values``): the same Python result or exception class."""
    outcomes = []
    for lib in (torch, tl):
        t = lib.tensor(values)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                result = eval(code, {"t": t, "lib": lib})
                outcomes.append(result if not isinstance(result, list) else [getattr(x, "tolist", lambda x=x: x)() for x in result])
            except Exception as error:  # the class is compared below
                outcomes.append(type(error).__name__)
    assert outcomes[1] == outcomes[0], code
    assert type(outcomes[1]) is type(outcomes[0]), code


@pytest.mark.parametrize("values", [[1, 2], [[1.5, -2.0]], 3, 2.5, True, [True], [], [[1], [2]], [7]])
@pytest.mark.parametrize(
    "code",
    [
        "t.tolist()", "t.item()", "float(t)", "int(t)", "bool(t)", "len(t)", "list(t)", "[10, 20, 30][t]",
        "t.numpy().tolist()", "t.numpy().dtype.name", "t.dim()", "t.numel()", "t.is_floating_point()",
        "t.element_size()",
    ],
)
def test_python_protocols(code: str, values: object) -> None:
    same_outcome(code, values)


DTYPE_METHODS = ["float", "double", "half", "long", "int", "bool", "byte"]
VALUES = {
    "float": np.array([-1.5, 0.0, 2.7, 300.0], np.float32),
    "int": np.array([-3, 0, 5, 200]),
    "bool": np.array([True, False, True, False]),
}


@pytest.mark.parametrize("method", DTYPE_METHODS)
@pytest.mark.parametrize("kind", list(VALUES))
def test_dtype_shorthands(method: str, kind: str) -> None:
    check_op(lambda lib, t: getattr(t, method)(), VALUES[kind])


@pytest.mark.parametrize("target", ["float16", "float32", "float64", "int32", "int64", "uint8", "bool"])
@pytest.mark.parametrize("kind", list(VALUES))
def test_to_dtype(target: str, kind: str) -> None:
    check_op(lambda lib, t: t.to(getattr(lib, target)), VALUES[kind])
    check_op(lambda lib, t: t.to(dtype=getattr(lib, target)), VALUES[kind])
    check_op(lambda lib, t: t.type(getattr(lib, target)), VALUES[kind])


def test_to_returns_self_when_nothing_changes() -> None:
    for lib in (torch, tl):
        t = lib.tensor([1.0, 2.0])
        assert t.to(lib.float32) is t
        assert t.float() is t
        assert t.to("cpu") is t
        assert t.to(lib.tensor([1.0])) is t
        assert t.to(lib.float32, copy=True) is not t
        assert t.to(lib.float64) is not t
    check_op(lambda lib, t, other: t.to(other), VALUES["float"], VALUES["int"])
    check_op(lambda lib, t, other: t.type_as(other), VALUES["int"], VALUES["float"])
    t = tl.tensor([1.0])
    assert t.type() == "tensorlab.FloatTensor"


def test_to_is_differentiable() -> None:
    check_op(lambda lib, t: t.double() * 2, VALUES["float"])
    check_op(lambda lib, t: t.half().float(), VALUES["float"])
    check_op(lambda lib, t: t.to(lib.float64).grad_fn.name(), VALUES["float"])


def test_clone_is_independent_and_differentiable() -> None:
    check_op(lambda lib, t: t.clone() * t, VALUES["float"])
    check_op(lambda lib, t: t.t().clone().stride(), np.ones((2, 3), np.float32))
    check_op(lambda lib, t: lib.clone(t), VALUES["int"])
    for lib in (torch, tl):
        t = lib.tensor([1.0, 2.0])
        c = t.clone()
        c[0] = 100
        assert t.tolist() == [1.0, 2.0]
        assert c.untyped_storage().data_ptr() != t.untyped_storage().data_ptr()


def test_numpy_shares_memory_and_refuses_grad() -> None:
    t = tl.tensor([1.0, 2.0])
    array = t.numpy()
    array[0] = 9
    assert t[0].item() == 9
    check_op(lambda lib, t: t.numpy(), VALUES["float"], grad=True)
    check_op(lambda lib, t: t.detach().numpy().tolist(), VALUES["float"], grad=True)
    check_op(lambda lib, t: t.numpy(force=True).tolist(), VALUES["float"], grad=True)


def test_item_of_each_dtype_is_a_python_number() -> None:
    for name, values in VALUES.items():
        t, m = pair(values[:1])
        assert type(m.item()) is type(t.item()), name
        assert m.item() == t.item()
    t, m = pair(np.array([1.5], np.float16))
    assert m.item() == t.item() and type(m.item()) is float


def test_iterating_gives_rows_that_are_views() -> None:
    t = tl.tensor([[1, 2], [3, 4]])
    rows = list(t)
    assert [r.tolist() for r in rows] == [[1, 2], [3, 4]]
    rows[0][0] = 10
    assert t[0, 0].item() == 10
