"""Conversions against torch: numpy/tolist/item, to(dtype) and its shorthands, clone, Python protocols."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import tensorlab as tl
from tests.oracle import TORCH_DTYPES, check_op, pair, standard_normal

random_shapes = st.lists(st.integers(0, 3), max_size=3).map(tuple)
seeds = st.integers(0, 2**16)


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


# --- clone keeps a dense input's strides (torch's preserve_format) ------------------------------
@pytest.mark.parametrize(
    "view",
    [
        lambda x: x[::2][:1],  # one element, stride 2
        lambda x: x.reshape(3, 1, 4)[:, :, :1],
        lambda x: x.reshape(3, 1, 4).permute(1, 2, 0),
        lambda x: x.reshape(3, 4)[:, 4:],  # empty
        lambda x: x.reshape(4, 3)[::2, ::2],  # not dense: row-major in x's dim order
        lambda x: x.reshape(3, 4).t(),
    ],
)
def test_clone_and_like_factories_keep_the_strides_of_dense_inputs(view: Any) -> None:
    check_op(lambda lib, x: lib.clone(view(x)).stride(), standard_normal((12,)))
    check_op(lambda lib, x: lib.zeros_like(view(x)).stride(), standard_normal((12,)), grad=False)
    check_op(lambda lib, x: lib.empty_like(view(x)).stride(), standard_normal((12,)), grad=False)


def test_clone_keeps_the_stride_of_a_size_one_dim() -> None:
    check_op(lambda lib, x: lib.clone(x[::2]).stride(), standard_normal((1,), 0))


# --- to(dtype) and the shorthands on random tensors; errors of conversion methods -----------------
@given(shape=random_shapes, seed=seeds, source=st.sampled_from(list(TORCH_DTYPES)), target=st.sampled_from(list(TORCH_DTYPES)))
def test_to_dtype_and_shorthands_random(shape: tuple, seed: int, source: str, target: str) -> None:
    x = (np.random.default_rng(seed).standard_normal(shape) * 4).astype(source) if source != "bool" else np.random.default_rng(seed).integers(0, 2, shape).astype(bool)
    if source.startswith("float") and target in {"uint8", "int32", "int64"}:
        x = np.abs(x)  # float -> unsigned of a negative number is undefined in C and differs by platform
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_op(lambda lib, a: a.to(getattr(lib, target)), x)
        check_op(lambda lib, a: a.type(getattr(lib, target)), x)
        check_op(lambda lib, a: (a.float(), a.double(), a.half(), a.long(), a.int(), a.bool()), x, rtol=1e-2, atol=1e-2)
        check_op(lambda lib, a: a.tolist(), x)


@pytest.mark.parametrize(
    "fn",
    [
        lambda lib, a: a.item(),
        lambda lib, a: float(a),
        lambda lib, a: a.to("not a dtype"),
        lambda lib, a: a.numpy(),  # requires grad
        lambda lib, a: bool(a),
    ],
)
def test_conversion_errors(fn: Any) -> None:
    check_op(fn, standard_normal((2, 3), 0))


@pytest.mark.parametrize(
    "fn",
    [
        lambda lib, a: a.zero_(),  # a leaf that requires grad
        lambda lib, a: a.stride(5),
        lambda lib, a: a.float(2),
        lambda lib, a: a.double(2),
        lambda lib, a: a.half(2),
        lambda lib, a: a.long(2),
        lambda lib, a: a.bool(2),
        lambda lib, a: a.tolist(1),
        lambda lib, a: a.storage_offset(1),
    ],
)
def test_method_argument_errors(fn: Any) -> None:
    check_op(fn, standard_normal((2, 3), 0))
