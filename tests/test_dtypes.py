"""dtype promotion against torch: promote_types, result_type, and the dtype of real ops."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import torch

import tensorlab as tl
from tests.oracle import TORCH_DTYPES, check_op, dtype_name

NAMES = list(TORCH_DTYPES)
SCALARS = [True, 3, -2, 1000, 1.5, 0.0]


def lab(name: str) -> tl.dtype:
    return getattr(tl, name)


def operand(lib: object, dtype: str, ndim: int) -> object:
    """A tensor of ``dtype`` with 0 dims (a "zero-dim" operand) or 1 dim."""
    value = [1] if ndim else 1
    if lib is torch:
        return torch.tensor(value, dtype=TORCH_DTYPES[dtype])
    return tl.tensor(value, dtype=lab(dtype))


@pytest.mark.parametrize("a,b", list(itertools.product(NAMES, NAMES)))
def test_promote_types_every_pair(a: str, b: str) -> None:
    expected = torch.promote_types(TORCH_DTYPES[a], TORCH_DTYPES[b])
    assert dtype_name(tl.promote_types(lab(a), lab(b))) == dtype_name(expected)


@pytest.mark.parametrize("a,b", list(itertools.product(NAMES, NAMES)))
@pytest.mark.parametrize("ndim_a,ndim_b", [(1, 1), (1, 0), (0, 1), (0, 0)])
def test_result_type_tensor_pairs(a: str, b: str, ndim_a: int, ndim_b: int) -> None:
    expected = torch.result_type(operand(torch, a, ndim_a), operand(torch, b, ndim_b))
    got = tl.result_type(operand(tl, a, ndim_a), operand(tl, b, ndim_b))
    assert dtype_name(got) == dtype_name(expected)


@pytest.mark.parametrize("a", NAMES)
@pytest.mark.parametrize("ndim", [0, 1])
@pytest.mark.parametrize("scalar", SCALARS)
def test_result_type_with_python_scalars(a: str, ndim: int, scalar: object) -> None:
    expected = torch.result_type(operand(torch, a, ndim), scalar)
    assert dtype_name(tl.result_type(operand(tl, a, ndim), scalar)) == dtype_name(expected)
    expected = torch.result_type(scalar, operand(torch, a, ndim))
    assert dtype_name(tl.result_type(scalar, operand(tl, a, ndim))) == dtype_name(expected)


@pytest.mark.parametrize("a,b,c", [("int32", "float16", "int64"), ("uint8", "bool", "int32"), ("bool", "float64", "int32")])
@pytest.mark.parametrize("scalar", SCALARS)
def test_result_type_of_three_operands_matches_chained_ops(a: str, b: str, c: str, scalar: object) -> None:
    """torch.result_type takes two operands; ``x + y + z`` and where/clamp use more."""
    def run(lib):
        condition = operand(lib, "bool", 1)
        expressions = [
            lambda: lib.where(condition, operand(lib, a, 1), operand(lib, b, 0)),
            lambda: lib.where(condition, operand(lib, a, 0), scalar),  # an int that must fit a's dtype
            lambda: operand(lib, a, 1) + operand(lib, b, 0) + operand(lib, c, 0),
            lambda: operand(lib, a, 0) * scalar + operand(lib, c, 0),
        ]
        results = []
        for expression in expressions:
            try:
                results.append(dtype_name(expression().dtype))
            except RuntimeError as error:
                results.append(type(error).__name__)
        return results

    assert run(tl) == run(torch)


CASES = {
    "int_plus_float_scalar": (lambda lib, x: x + 1.5, np.array([1, 2])),
    "int32_plus_float64_0d": (lambda lib, x: x + lib.tensor(1.5, dtype=lib.float64), np.array([1, 2], np.int32)),
    "uint8_plus_1000": (lambda lib, x: x + 1000, np.array([1, 2], np.uint8)),
    "bool_plus_1": (lambda lib, x: x + 1, np.array([True, False])),
    "bool_plus_1.5": (lambda lib, x: x + 1.5, np.array([True, False])),
    "int_div_int": (lambda lib, x: x / x, np.array([1, 2])),
    "int_floordiv_int": (lambda lib, x: x // x, np.array([1, 2], np.int32)),
    "float16_plus_float64_0d": (lambda lib, x: x + lib.tensor(1.0, dtype=lib.float64), np.array([1.0], np.float16)),
    "float16_plus_int64_dim": (lambda lib, x: x + lib.tensor([1]), np.array([1.0], np.float16)),
    "int32_plus_int64_0d": (lambda lib, x: x + lib.tensor(1), np.array([1], np.int32)),
    "0d_int32_plus_0d_float16": (lambda lib, x: x + lib.tensor(1.0, dtype=lib.float16), np.array(1, np.int32)),
    "uint8_plus_int8_like_negative": (lambda lib, x: x + -1, np.array([0, 1], np.uint8)),
    "int_exp": (lambda lib, x: x.exp(), np.array([1, 2])),
    "bool_sum_like": (lambda lib, x: x * True, np.array([1, 2], np.uint8)),
}


@pytest.mark.parametrize("name", list(CASES))
def test_promotion_in_real_ops(name: str) -> None:
    fn, values = CASES[name]
    check_op(fn, values, grad=False)


def test_default_dtype_changes_inference_and_promotion() -> None:
    try:
        tl.set_default_dtype(tl.float64)
        torch.set_default_dtype(torch.float64)
        assert dtype_name(tl.tensor([1.5]).dtype) == dtype_name(torch.tensor([1.5]).dtype)
        assert dtype_name((tl.tensor([1]) + 1.5).dtype) == dtype_name((torch.tensor([1]) + 1.5).dtype)
        assert repr(tl.tensor([1.5])) == repr(torch.tensor([1.5]))
        assert tl.get_default_dtype() is tl.float64
    finally:
        tl.set_default_dtype(tl.float32)
        torch.set_default_dtype(torch.float32)
    with pytest.raises(TypeError):
        tl.set_default_dtype(tl.int64)


def test_dtype_objects_and_aliases() -> None:
    assert tl.float is tl.float32 and tl.double is tl.float64 and tl.half is tl.float16
    assert tl.long is tl.int64 and tl.int is tl.int32
    assert repr(tl.float32) == "tensorlab.float32"
    for name in NAMES:
        d = lab(name)
        t = TORCH_DTYPES[name]
        assert d.is_floating_point == t.is_floating_point
        assert d.itemsize == t.itemsize
        assert d.is_signed == t.is_signed
    import pickle

    assert pickle.loads(pickle.dumps(tl.int32)) is tl.int32


# --- a dtype argument must be a dtype (or a Python type), not a string or a NumPy type -----------
@pytest.mark.parametrize(
    "fn",
    [
        lambda lib, x: lib.ones(2, dtype="float32"),
        lambda lib, x: lib.zeros(2, dtype=np.float32),
        lambda lib, x: lib.tensor([1], dtype="float32"),
        lambda lib, x: lib.full((2,), 1.0, dtype="float64"),
        lambda lib, x: lib.ones(2, dtype=float),  # Python types are fine
        lambda lib, x: lib.arange(3, dtype=int),
        lambda lib, x: x.sum(dtype="float64"),
        lambda lib, x: x.to(dtype="float64"),
    ],
)
def test_dtype_arguments(fn) -> None:
    check_op(fn, np.zeros((2, 2), np.float32), grad=False)
