"""Elementwise ops against torch: values, dtypes, gradients, errors, in-place semantics."""

from __future__ import annotations

import functools
import itertools
import warnings
from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import tensorlab as tl
from tests.oracle import assert_same, check_op, pair, standard_normal

seeds = st.integers(0, 2**16)

DTYPES = ["bool", "uint8", "int32", "int64", "float16", "float32", "float64"]
FLOATS = ["float16", "float32", "float64"]


def sample(dtype: str, shape: tuple = (2, 3), seed: int = 0, nonzero: bool = False) -> np.ndarray:
    """Small deterministic values of a dtype (integers in [-5, 5], floats around 0)."""
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        values = np.asarray(rng.random(shape) > 0.5)
        return np.ones(shape, bool) if nonzero else values
    if dtype in FLOATS:
        return np.asarray((rng.standard_normal(shape) * 3).astype(dtype))
    values = np.asarray(rng.integers(0 if dtype == "uint8" else -5, 6, shape).astype(dtype))
    return np.where(values == 0, 1, values).astype(dtype) if nonzero else values


def tolerance(*dtypes: str) -> dict:
    """Mixed or low precision: torch and NumPy may round intermediate results differently."""
    if not any(d in FLOATS for d in dtypes):
        return {}
    if "float16" in dtypes:
        return {"rtol": 1e-2, "atol": 1e-2}
    if "float32" in dtypes:
        return {"rtol": 1e-5, "atol": 1e-6}
    return {"rtol": 1e-7, "atol": 1e-9}


def quiet(fn):
    """Run torch and tensorlab without NumPy's divide-by-zero chatter."""

    def run(lib, *args):
        with np.errstate(all="ignore"):
            return fn(lib, *args)

    return run


BINARY = {
    "add": lambda lib, a, b: a + b,
    "sub": lambda lib, a, b: a - b,
    "mul": lambda lib, a, b: a * b,
    "div": lambda lib, a, b: a / b,
    "remainder": lambda lib, a, b: a % b,
    "pow": lambda lib, a, b: a**b,
    "add_alpha": lambda lib, a, b: lib.add(a, b, alpha=2),
    "sub_alpha": lambda lib, a, b: lib.sub(a, b, alpha=3),
    "div_trunc": lambda lib, a, b: lib.div(a, b, rounding_mode="trunc"),
    "div_floor": lambda lib, a, b: lib.div(a, b, rounding_mode="floor"),
    "maximum": lambda lib, a, b: lib.maximum(a, b),
    "minimum": lambda lib, a, b: lib.minimum(a, b),
    "eq": lambda lib, a, b: a == b,
    "ne": lambda lib, a, b: a != b,
    "lt": lambda lib, a, b: a < b,
    "le": lambda lib, a, b: a <= b,
    "gt": lambda lib, a, b: a > b,
    "ge": lambda lib, a, b: a >= b,
    "bitwise_and": lambda lib, a, b: a & b,
    "bitwise_or": lambda lib, a, b: a | b,
    "bitwise_xor": lambda lib, a, b: a ^ b,
    "where": lambda lib, a, b: lib.where(a > b, a, b),
    "clamp_min_tensor": lambda lib, a, b: lib.clamp(a, min=b),
    "clamp_max_tensor": lambda lib, a, b: lib.clamp(a, max=b),
}
DIVIDING = {"div", "remainder", "div_trunc", "div_floor"}
SHAPE_PAIRS = [((2, 3), (2, 3)), ((2, 3), (3,)), ((2, 1), (1, 3)), ((2, 3), ())]


@pytest.mark.parametrize("name", list(BINARY))
@pytest.mark.parametrize("dtype_a,dtype_b", list(itertools.product(DTYPES, DTYPES)))
def test_binary_op_every_dtype_pair(name: str, dtype_a: str, dtype_b: str) -> None:
    for i, (shape_a, shape_b) in enumerate(SHAPE_PAIRS):
        a = sample(dtype_a, shape_a, seed=i)
        b = sample(dtype_b, shape_b, seed=i + 10, nonzero=name in DIVIDING)
        if name == "pow" and dtype_b == "bool" and dtype_a in FLOATS:
            continue  # torch's own backward fails here (it subtracts 1 from a bool exponent)
        check_op(quiet(BINARY[name]), a, b, **tolerance(dtype_a, dtype_b))


@pytest.mark.parametrize("name", [n for n in BINARY if not n.startswith("clamp") and n != "where"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("scalar", [2, -3, 1.5, True, 0.0])
def test_binary_op_with_python_scalar_both_sides(name: str, dtype: str, scalar: object) -> None:
    """Clamp and where take scalars too: see their own tests."""
    a = sample(dtype, (2, 3), nonzero=True)
    if name == "pow" and isinstance(scalar, bool) and dtype in FLOATS:
        scalar = 2
    check_op(quiet(lambda lib, x: BINARY[name](lib, x, scalar)), a, **tolerance(dtype))
    if name not in ("add_alpha", "sub_alpha", "div_trunc", "div_floor", "maximum", "minimum"):
        # torch has no derivative for number % tensor
        check_op(quiet(lambda lib, x: BINARY[name](lib, scalar, x)), a, grad=name != "remainder", **tolerance(dtype))


def test_floor_divide_values_and_missing_derivative() -> None:
    for dtype_a, dtype_b in itertools.product(DTYPES, DTYPES):
        a, b = sample(dtype_a), sample(dtype_b, nonzero=True)
        check_op(quiet(lambda lib, x, y: x // y), a, b, grad=False)
        check_op(quiet(lambda lib, x: x // 2), a, grad=False)
        check_op(quiet(lambda lib, x: 7 // x), b, grad=False)
    x = tl.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="derivative for aten::floor_divide is not implemented"):
        (x // 2).sum().backward()


UNARY = [
    "neg", "abs", "exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid", "relu", "floor", "ceil",
    "round", "trunc", "sign", "logical_not", "isnan", "isinf", "isfinite", "bitwise_not",
]
SPECIAL = np.array([-2.5, -1.0, -0.5, 0.0, 0.5, 1.5, 2.5, 3.0], np.float32)


@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("dtype", DTYPES)
def test_unary_op_function_and_method(name: str, dtype: str) -> None:
    a = sample(dtype, (2, 3))
    check_op(quiet(lambda lib, x: getattr(lib, name)(x)), a, **tolerance(dtype))
    check_op(quiet(lambda lib, x: getattr(x, name)()), a, **tolerance(dtype))


@pytest.mark.parametrize("name", UNARY)
def test_unary_op_at_special_points(name: str) -> None:
    """0, negatives and .5 ties: log(0), sqrt(-1), abs'(0), relu'(0), round half to even."""
    values = np.concatenate([SPECIAL, np.array([np.nan, np.inf, -np.inf], np.float32)])
    check_op(quiet(lambda lib, x: getattr(lib, name)(x)), values, grad=False)
    check_op(quiet(lambda lib, x: getattr(lib, name)(x)), SPECIAL.astype(np.float64))


def test_round_decimals() -> None:
    values = np.array([1.25, 1.35, -2.675, 123.456, 0.05], np.float64)
    for decimals in (0, 1, 2, -1):
        check_op(lambda lib, x, decimals=decimals: lib.round(x, decimals=decimals), values)
        check_op(lambda lib, x, decimals=decimals: x.round(decimals=decimals), values.astype(np.float32))
    check_op(lambda lib, x: x.round(decimals=1), np.array([15, 25]))


@pytest.mark.parametrize("dtype", DTYPES)
def test_clamp_with_number_bounds(dtype: str) -> None:
    a = sample(dtype, (3, 4))
    for low, high in [(-1, 2), (0.5, None), (None, 1), (2, -2), (-1.5, 1.5), (True, None)]:
        check_op(lambda lib, x, low=low, high=high: lib.clamp(x, low, high), a, **tolerance(dtype))
        check_op(lambda lib, x, low=low, high=high: x.clip(min=low, max=high), a, **tolerance(dtype))
    check_op(lambda lib, x: lib.clamp(x), a)


def test_clamp_gradient_at_the_bounds_goes_to_the_input() -> None:
    x = np.array([0.0, 1.0, 2.0, 3.0, 4.0], np.float32)
    check_op(lambda lib, t: t.clamp(1.0, 3.0), x)
    check_op(lambda lib, t: t.clamp(min=1.0), x)
    check_op(lambda lib, t: t.clamp(max=3.0), x)
    check_op(lambda lib, t: t.clamp(3.0, 1.0), x)


def test_clamp_with_tensor_bounds_sends_gradients_to_the_bounds() -> None:
    x = np.array([0.0, 1.0, 2.0, 3.0, 4.0, 2.0], np.float32)
    low = np.array([1.0, 1.0, 1.0, 1.0, 5.0, 2.0], np.float32)
    high = np.array([3.0, 3.0, 3.0, 3.0, 2.0, 2.0], np.float32)
    check_op(lambda lib, t, lo, hi: lib.clamp(t, lo, hi), x, low, high)
    check_op(lambda lib, t, lo: lib.clamp(t, min=lo), x, low)
    check_op(lambda lib, t, hi: lib.clamp(t, max=hi), x, high)
    check_op(lambda lib, t, lo: lib.clamp(t, min=lo), x, low[:1])
    check_op(lambda lib, t, lo: lib.clamp(t, min=lo), np.array([1, 5, 3]), np.array([2, 2, 2], np.int32))
    check_op(lambda lib, t, lo: lib.clamp(t, min=lo), x, low[:2])  # shapes do not broadcast


def test_maximum_minimum_split_ties_in_half() -> None:
    a = np.array([1.0, 2.0, 0.0, -1.0], np.float32)
    b = np.array([1.0, 1.0, 0.0, 3.0], np.float32)
    check_op(lambda lib, x, y: lib.maximum(x, y), a, b)
    check_op(lambda lib, x, y: lib.minimum(x, y), a, b)
    check_op(lambda lib, x, y: x.maximum(y), a, b[:1])


def test_where() -> None:
    a, b = sample("float32", (2, 3)), sample("float32", (3,), seed=1)
    check_op(lambda lib, x, y: lib.where(x > 0, x, y), a, b)
    check_op(lambda lib, x: lib.where(x > 0, x, 0.0), a)
    check_op(lambda lib, x: lib.where(x > 0, 1, x), a)
    check_op(lambda lib, x: lib.where(x > 0, 1, 2), a)
    check_op(lambda lib, x: x.where(x > 0, -x), a)
    check_op(lambda lib, x, y: lib.where(x > 0, x, y), sample("int32"), b)
    check_op(lambda lib, x: lib.where(x, x, x), a)  # condition must be bool
    check_op(lambda lib, x, y: lib.where(x > 0, x, y), a, sample("float32", (4,)))


POW_CASES = [
    ([1.0, 2.0, 0.0, 0.5], [1.0, 1.0, 0.0, -2.0]),  # 0 ** 0 and exponent 0: torch's gradient is 0
    ([-2.0, 3.0, 0.0], [2.0, 0.5, 3.0]),  # negative base with a fractional exponent: nan
]


@pytest.mark.parametrize("base,exponent", POW_CASES)
def test_pow_gradients_at_zero(base: list, exponent: list) -> None:
    b, e = np.array(base, np.float64), np.array(exponent, np.float64)
    check_op(quiet(lambda lib, x, y: x**y), b, e)
    check_op(quiet(lambda lib, x: x**0), b)
    check_op(quiet(lambda lib, x: x**2.5), b)
    check_op(quiet(lambda lib, y: 2.0**y), e)
    check_op(quiet(lambda lib, y: 0.0**y), e)
    check_op(quiet(lambda lib, y: (-2.0) ** y), e)


def test_integer_pow_with_negative_exponents() -> None:
    base = np.array([2, 0, -1, 1, 3, -1])
    exponent = np.array([-1, -1, -1, -2, 0, -3])
    check_op(lambda lib, x, y: x**y, base, exponent)
    check_op(lambda lib, x, y: x**y, base.astype(np.uint8), exponent)
    check_op(lambda lib, y: 2**y, exponent)
    check_op(lambda lib, x: x**-1, base, match="Integers to negative integer powers are not allowed.")
    check_op(lambda lib, x: x**2, base.astype(np.int32))


def test_integer_division_by_zero_raises_like_torch() -> None:
    ints = np.array([1, -2, 3])
    zero = np.array([0, 1, 1])
    for fn in (
        lambda lib, x, y: x // y,
        lambda lib, x, y: x % y,
        lambda lib, x, y: lib.div(x, y, rounding_mode="trunc"),
        lambda lib, x, y: lib.div(x, y, rounding_mode="floor"),
    ):
        check_op(fn, ints, zero, match="ZeroDivisionError")
    check_op(lambda lib, x: x // 0, ints, match="ZeroDivisionError")
    check_op(lambda lib, x: x / 0, ints)  # true division gives inf
    floats = np.array([1.0, -1.0, 0.0])
    check_op(quiet(lambda lib, x: x // 0), floats, grad=False)
    check_op(quiet(lambda lib, x: x % 0), floats)
    check_op(quiet(lambda lib, x: x / 0), floats)


def test_bool_arithmetic_errors() -> None:
    masks = np.array([True, False])
    check_op(lambda lib, x, y: x - y, masks, masks, match="with two bool tensors")
    check_op(lambda lib, x: x - 1, masks, match="with a bool tensor")
    check_op(lambda lib, x: 1 - x, masks, match="with a bool tensor")
    check_op(lambda lib, x: x - True, np.array([1, 2]))
    check_op(lambda lib, x: -x, masks, match="Negation, the `-` operator, on a bool tensor")
    check_op(lambda lib, x: x + x, masks)
    check_op(lambda lib, x: x * x, masks)
    check_op(lambda lib, x: x + 1, masks)
    check_op(lambda lib, x: x / x, masks)
    check_op(lambda lib, x: x.abs(), masks)
    check_op(lambda lib, x: x.relu(), masks)
    check_op(lambda lib, x: ~x, masks)
    check_op(lambda lib, x: x**x, masks)


def test_add_alpha_rules() -> None:
    ints = np.array([1, 2])
    check_op(lambda lib, x: lib.add(x, x, alpha=1.5), ints, match="alpha must not be a floating point")
    check_op(lambda lib, x: lib.add(x, x, alpha=True), ints.astype(np.float32), match="Boolean alpha")
    check_op(lambda lib, x: lib.add(x, x, alpha=2), np.array([True, False]))
    check_op(lambda lib, x: x.add(1, alpha=-2), ints.astype(np.int32))
    check_op(lambda lib, x: x.sub(x, alpha=0.5), ints.astype(np.float32))


def test_integer_wraparound_with_large_python_ints() -> None:
    u8 = np.array([0, 200, 255], np.uint8)
    for fn in (
        lambda lib, x: x + 1000,
        lambda lib, x: x * 300,
        lambda lib, x: x - 300,
        lambda lib, x: x + -1,
        lambda lib, x: 1000 - x,
        lambda lib, x: x == 256,
        lambda lib, x: x.clamp(min=-1),
    ):
        check_op(fn, u8)
    check_op(lambda lib, x: x + 2**40, np.array([1, 2], np.int32))
    check_op(lambda lib, x: x + 2**62, np.array([1, 2]))
    check_op(lambda lib, x: x + 2**70, np.array([1, 2]))  # too big for int64: OverflowError


def test_numpy_scalars_act_like_python_numbers() -> None:
    ints = np.array([1, 2], np.int32)
    for scalar in (np.float64(1.5), np.float32(1.5), np.int64(3)):
        check_op(lambda lib, x, scalar=scalar: x + scalar, ints)
        check_op(lambda lib, x, scalar=scalar: x * scalar, ints.astype(np.float16))


def test_float16_arithmetic() -> None:
    a = np.array([1.0, 60000.0, -0.1, 3.5], np.float16)
    check_op(lambda lib, x: x * 2, a, rtol=1e-3, atol=1e-3)  # 120000 overflows to inf
    check_op(lambda lib, x: x + 0.1, a, rtol=1e-3, atol=1e-3)
    check_op(lambda lib, x: x.exp(), a, rtol=1e-3, atol=1e-3)
    check_op(lambda lib, x, y: x + y, a, a.astype(np.float32))


def test_comparisons_allclose_equal() -> None:
    a = sample("float32", (2, 3))
    check_op(lambda lib, x: (x.eq(x), x.ne(0), x.lt(1.5), x.le(x), x.gt(-1), x.ge(0)), a)
    check_op(lambda lib, x: (lib.eq(x, 1), lib.greater(x, 0), lib.less_equal(x, 0)), a)
    check_op(lambda lib, x: lib.isclose(x, x + 1e-6), a)
    check_op(lambda lib, x: lib.isclose(x, x.double()), a)  # dtypes must match
    check_op(lambda lib, x: (lib.allclose(x, x + 1e-9), lib.allclose(x, x + 1)), a)
    check_op(lambda lib, x: (lib.equal(x, x), lib.equal(x, x[:1]), x.equal(x + 1)), a)
    check_op(lambda lib, x: lib.isclose(x / 0, x / 0, equal_nan=True), np.array([0.0, 1.0]), grad=False)


def test_grad_fn_names_match_torch() -> None:
    cases = [
        "x + 2", "2 + x", "x - 2", "2 - x", "x - y", "x * 2", "x / y", "x ** 2", "2 ** x", "x ** y",
        "x % 2", "x % y", "-x", "x.abs()", "x.exp()", "x.log()", "x.sqrt()", "x.sin()", "x.cos()",
        "x.tanh()", "x.sigmoid()", "x.relu()", "x.clamp(min=1)", "x.clamp(min=y)", "x.floor()",
        "x.ceil()", "x.round()", "x.round(decimals=2)", "x.trunc()", "x.sign()",
        "lib.div(x, 2, rounding_mode='floor')", "lib.where(x > 1, x, y)", "lib.maximum(x, y)",
        "lib.minimum(x, y)", "x.add(y, alpha=2)", "x.clone()",
    ]
    xt, xm = pair(np.array([1.0, 2.0], np.float32), requires_grad=True)
    yt, ym = pair(np.array([3.0, 0.5], np.float32), requires_grad=True)
    for code in cases:
        expected = eval(code, {"x": xt, "y": yt, "lib": torch}).grad_fn.name()
        got = eval(code, {"x": xm, "y": ym, "lib": tl}).grad_fn.name()
        assert got == expected, f"{code}: {got} != torch {expected}"


# --- in place ----------------------------------------------------------------------------
INPLACE = {
    "add_": lambda lib, t: t.add_(1),
    "add_float_": lambda lib, t: t.add_(1.5),
    "add_self_": lambda lib, t: t.add_(t, alpha=2),
    "sub_": lambda lib, t: t.sub_(2),
    "mul_": lambda lib, t: t.mul_(3),
    "mul_float_": lambda lib, t: t.mul_(0.5),
    "div_": lambda lib, t: t.div_(2),
    "div_trunc_": lambda lib, t: t.div_(2, rounding_mode="trunc"),
    "remainder_": lambda lib, t: t.remainder_(2),
    "pow_": lambda lib, t: t.pow_(2),
    "clamp_": lambda lib, t: t.clamp_(0, 2),
    "clip_": lambda lib, t: t.clip_(max=1),
    "neg_": lambda lib, t: t.neg_(),
    "abs_": lambda lib, t: t.abs_(),
    "exp_": lambda lib, t: t.exp_(),
    "log_": lambda lib, t: t.log_(),
    "sqrt_": lambda lib, t: t.sqrt_(),
    "sin_": lambda lib, t: t.sin_(),
    "cos_": lambda lib, t: t.cos_(),
    "tanh_": lambda lib, t: t.tanh_(),
    "sigmoid_": lambda lib, t: t.sigmoid_(),
    "relu_": lambda lib, t: t.relu_(),
    "floor_": lambda lib, t: t.floor_(),
    "ceil_": lambda lib, t: t.ceil_(),
    "round_": lambda lib, t: t.round_(),
    "trunc_": lambda lib, t: t.trunc_(),
    "sign_": lambda lib, t: t.sign_(),
    "fill_": lambda lib, t: t.fill_(7),
    "fill_float_": lambda lib, t: t.fill_(2.5),
    "fill_tensor_": lambda lib, t: t.fill_(lib.tensor(3.0)),
    "fill_1d_": lambda lib, t: t.fill_(lib.tensor([3.0])),
    "zero_": lambda lib, t: t.zero_(),
    "copy_": lambda lib, t: t.copy_(lib.tensor([1.5, -2.0, 3.0])),
    "copy_bool_": lambda lib, t: t.copy_(lib.tensor(True)),
    "copy_grow_": lambda lib, t: t.copy_(lib.ones(2, 2, 3)),
    "iadd": lambda lib, t: t.__iadd__(2),
    "isub": lambda lib, t: t.__isub__(1),
    "itruediv": lambda lib, t: t.__itruediv__(2),
    "grow_": lambda lib, t: t.add_(lib.ones(2, 2, 3)),
}


def run_inplace(fn):
    """Apply fn to a non-leaf copy of the input; check it returns self and bumps _version once."""

    def run(lib, t):
        target = t * 1 if t.requires_grad else t.clone()
        version = target._version
        result = fn(lib, target)
        assert result is target, "an in-place op returns self"
        assert target._version == version + 1, "an in-place op bumps the version counter once"
        return target

    return run


@pytest.mark.parametrize("name", list(INPLACE))
@pytest.mark.parametrize("dtype", DTYPES)
def test_inplace_op(name: str, dtype: str) -> None:
    """Same values, dtype (self's), errors (growing self, float into int), and gradients as torch."""
    a = sample(dtype, (2, 3), nonzero=name in ("remainder_", "div_trunc_"))
    check_op(quiet(run_inplace(INPLACE[name])), a, **tolerance(dtype))


def test_inplace_result_dtype_errors() -> None:
    ints = np.array([1, 2, 3])
    check_op_no_grad = functools.partial(check_op, grad=False)
    check_op_no_grad(lambda lib, t: t.add_(1.5), ints, match="result type Float can't be cast to the desired output type Long")
    check_op_no_grad(lambda lib, t: t.div_(2), ints, match="can't be cast")
    check_op_no_grad(lambda lib, t: t.add_(1), np.array([True]), match="result type Long can't be cast to the desired output type Bool")
    check_op_no_grad(lambda lib, t: t.add_(1), np.zeros(3))
    check_op_no_grad(lambda lib, t: t.add_(lib.ones(2, 3)), np.zeros(3), match="output with shape [3] doesn't match the broadcast shape [2, 3]")
    check_op_no_grad(lambda lib, t: t.add_(lib.ones(4)), np.zeros(3), match="must match the size")
    check_op_no_grad(lambda lib, t: t.fill_(300), np.zeros(3, np.uint8), match="without overflow")
    for value in (-2, -255, -256, 255, 2.7, True):
        check_op_no_grad(lambda lib, t, value=value: t.fill_(value), np.zeros(3, np.uint8))
        check_op_no_grad(lambda lib, t, value=value: lib.where(t > 0, t, value), np.zeros(3, np.uint8))
    check_op_no_grad(lambda lib, t: t.expand(2, 3).add_(1), np.zeros(3), match="more than one element")


def test_inplace_on_leaf_that_requires_grad_raises() -> None:
    for fn in (lambda t: t.add_(1), lambda t: t.exp_(), lambda t: t.zero_(), lambda t: t.__imul__(2)):
        leaf = tl.tensor([1.0, 2.0], requires_grad=True)
        with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place operation"):
            fn(leaf)
    with tl.no_grad():
        leaf.add_(1)  # allowed without recording
    assert leaf.tolist() == [2.0, 3.0] and leaf.requires_grad and leaf.is_leaf


def test_inplace_on_non_leaf_gradients_match_torch() -> None:
    a = np.array([0.5, -1.0, 2.0], np.float32)
    b = np.array([1.5, 2.0, -0.5], np.float32)

    def chain(lib, x, y):
        h = x * 2
        h.add_(y)
        h.mul_(y)
        h.clamp_(max=3.0)
        h.exp_()
        return h * x

    check_op(chain, a, b)
    check_op(lambda lib, x, y: (x + 0).copy_(y) * x, a, b)
    check_op(lambda lib, x, y: (x + 0).fill_(2.0) * y, a, b)
    check_op(lambda lib, x, y: (x * 1).mul_(lib.tensor(2.0, dtype=lib.float64)), a, b)

    def grad_fn_after(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        return [(x * 1).add_(1).grad_fn.name(), (x * 1).exp_().grad_fn.name(), (x * 1).zero_().grad_fn.name()]

    assert grad_fn_after(tl) == grad_fn_after(torch)


def test_inplace_write_to_a_saved_tensor_fails_in_backward() -> None:
    for lib in (torch, tl):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        h = x * 2
        out = h * h
        h.add_(1)
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            out.sum().backward()
        h = x * 2
        h.exp_()  # exp_ keeps its output (h itself) for backward ...
        h.add_(1)  # ... so changing h again breaks it
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            h.sum().backward()
        h = x * 2
        h.sin_()  # sin_ keeps a copy of its input: a later write is fine
        h.add_(1)
        h.sum().backward()


def test_inplace_through_a_view_changes_the_base() -> None:
    def fn(lib, x):
        base = x.clone()
        base[0].mul_(10)
        base[:, 1].add_(100)
        return base

    check_op(fn, sample("int64", (2, 3)))


# --- hypothesis ---------------------------------------------------------------------------
small_floats = st.floats(-10, 10, width=32, allow_subnormal=False)


@st.composite
def broadcastable_arrays(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray]:
    shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=3, max_side=3))
    dtype_a = draw(st.sampled_from(["int64", "int32", "float32", "float64"]))
    dtype_b = draw(st.sampled_from(["int64", "int32", "float32", "float64"]))
    a = draw(hnp.arrays(dtype_a, shapes.input_shapes[0], elements=st.integers(-9, 9) if "int" in dtype_a else small_floats))
    b = draw(hnp.arrays(dtype_b, shapes.input_shapes[1], elements=st.integers(1, 9) if "int" in dtype_b else small_floats))
    return np.asarray(a), np.asarray(b)


@pytest.mark.parametrize("name", [n for n in BINARY if not n.startswith("bitwise")])
@given(arrays=broadcastable_arrays())
def test_binary_ops_on_random_broadcast_shapes(arrays: tuple, name: str) -> None:
    """Every binary op (not one drawn at random), so each gets its own random shapes and dtypes."""
    a, b = arrays
    if name == "pow":
        a = np.abs(a) + 1 if a.dtype.kind == "f" else a
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_op(quiet(BINARY[name]), a, b, rtol=1e-4, atol=1e-4)


@given(
    values=hnp.arrays(
        st.sampled_from([np.float32, np.float64, np.int64]),
        hnp.array_shapes(min_dims=0, max_dims=3, max_side=4),
        elements=st.integers(-10, 10),
    ).map(lambda a: a / 2 if a.dtype.kind == "f" else a)
    | hnp.arrays(np.float32, hnp.array_shapes(min_dims=0, max_dims=3, max_side=4), elements=small_floats),
)
@pytest.mark.parametrize("name", [n for n in UNARY if n != "bitwise_not"])
def test_unary_ops_on_random_tensors(values: np.ndarray, name: str) -> None:
    """Each unary op on random shapes, integer and float dtypes, and values with .5 ties and zeros."""
    check_op(quiet(lambda lib, x: getattr(lib, name)(x)), np.asarray(values), rtol=1e-5, atol=1e-5)


@given(value=st.one_of(st.integers(-300, 300), st.floats(-5, 5), st.booleans()), dtype=st.sampled_from(DTYPES))
def test_python_scalar_promotion_random(value: object, dtype: str) -> None:
    a = sample(dtype, (3,), nonzero=True)
    for fn in (lambda lib, x: x + value, lambda lib, x: value * x, lambda lib, x: x > value):
        check_op(quiet(fn), a, **tolerance(dtype))


def test_seed_example_add_vs_add_inplace() -> None:
    """The in-place unit's example: add returns a new tensor, add_ writes into the same one."""
    xt, xm = pair(np.array([1.0, 2.0, 3.0], np.float32))
    zt, zm = xt.add(1), xm.add(1)
    assert_same(zt, zm)
    assert zm is not xm and xm.tolist() == xt.tolist()
    at, am = pair(np.array([1.0, 2.0, 3.0], np.float32))
    assert at.add_(1) is at and am.add_(1) is am
    assert_same(at, am)


# --- errors: shapes that do not broadcast, bad dtypes and arguments, a list for a tensor ---------
@pytest.mark.parametrize(
    "fn",
    [
        lambda lib, a, b: lib.maximum(a, b),
        lambda lib, a, b: lib.minimum(a, b),
        lambda lib, a, b: a * b,
        lambda lib, a, b: a < b,
        lambda lib, a, b: a <= b,
        lambda lib, a, b: a > b,
        lambda lib, a, b: a >= b,
        lambda lib, a, b: a == b,
        lambda lib, a, b: a != b,
        lambda lib, a, b: a % b,
        lambda lib, a, b: a // b,
        lambda lib, a, b: a**b,
        lambda lib, a, b: lib.where(a > 0, a, b),
        lambda lib, a, b: lib.clamp(a, min=b),
        lambda lib, a, b: a.detach().add_(b),
        lambda lib, a, b: a.detach().copy_(b),
    ],
)
def test_binary_ops_raise_on_shapes_that_do_not_broadcast(fn: Any) -> None:
    check_op(fn, standard_normal((2, 3), 0), standard_normal((2, 4), 1), match="must match the size of tensor b")


@pytest.mark.parametrize(
    "fn",
    [
        lambda lib, a: lib.clamp(a),
        lambda lib, a: a.clamp_(),
        lambda lib, a: lib.sqrt(a.long()).long().sqrt_(),
        lambda lib, a: lib.exp(a.long()).long().exp_(),
        lambda lib, a: a.long().div_(2),
        lambda lib, a: a.long() // 0,
        lambda lib, a: a.long() % 0,
        lambda lib, a: lib.maximum(a, a.bool()).neg(),
        lambda lib, a: -(a > 0),
        lambda lib, a: (a > 0) - (a > 0),
        lambda lib, a: lib.round(a.long(), decimals=1),
        lambda lib, a: lib.floor_divide(a, "x"),
        lambda lib, a: lib.exp(a, 2),
        lambda lib, a: lib.log(a, 2),
        lambda lib, a: lib.sqrt(a, bad=1),
        lambda lib, a: lib.sin(a, 2),
        lambda lib, a: lib.cos(a, 2),
        lambda lib, a: lib.tanh(a, 2),
        lambda lib, a: lib.sigmoid(a, 2),
        lambda lib, a: lib.sign(a, 2),
        lambda lib, a: a.long().sin_(),
        lambda lib, a: a.long().cos_(),
        lambda lib, a: a.long().tanh_(),
        lambda lib, a: a.long().sigmoid_(),
        lambda lib, a: a.long().log_(),
        lambda lib, a: (a > 0).sign().neg(),
    ],
)
def test_elementwise_errors(fn: Any) -> None:
    check_op(fn, standard_normal((2, 3), 0), grad=False)


@pytest.mark.parametrize(
    ("fn", "match"),
    [
        (lambda lib: lib.exp([1.0]), "exp(): argument 'input' (position 1) must be Tensor, not list"),
        (lambda lib: lib.sigmoid([1.0]), "must be Tensor, not list"),
        (lambda lib: lib.add(lib.ones(2), [1.0]), "add(): argument 'other' (position 2) must be Tensor, not list"),
        (lambda lib: lib.mul([1.0], lib.ones(2)), "mul(): argument 'input' (position 1) must be Tensor, not list"),
        (lambda lib: lib.sub(lib.ones(2), [1.0]), "must be Tensor, not list"),
        (lambda lib: lib.div(lib.ones(2), [1.0]), "must be Tensor, not list"),
        (lambda lib: lib.ones(2) + [1.0], None),  # noqa: RUF005 - the list is the point
        (lambda lib: lib.zeros_like([1.0]), "zeros_like(): argument 'input' (position 1) must be Tensor, not list"),
        (lambda lib: lib.ones_like([1.0]), "must be Tensor, not list"),
        (lambda lib: lib.empty_like([1.0]), "must be Tensor, not list"),
        (lambda lib: lib.full_like([1.0], 2), "must be Tensor, not list"),
        (lambda lib: lib.clone([1.0]), "clone(): argument 'input' (position 1) must be Tensor, not list"),
        (lambda lib: lib.nn.functional.gelu([1.0]), "gelu(): argument 'input' (position 1) must be Tensor, not list"),
        (lambda lib: lib.nn.functional.relu([1.0]), "relu(): argument 'input' (position 1) must be Tensor, not list"),
        (lambda lib: lib.nn.functional.tanh([1.0]), None),  # AttributeError in torch too
    ],
)
def test_a_list_instead_of_a_tensor_is_a_type_error(fn: Any, match: str | None) -> None:
    check_op(fn, match=match)


# --- in-place ops on random shapes: the other operand broadcasts to self, gradients flow back --
INPLACE_WITH_A_BROADCAST_OPERAND = {
    "add_": lambda y, b: y.add_(b, alpha=2),
    "sub_": lambda y, b: y.sub_(b),
    "mul_": lambda y, b: y.mul_(b),
    "div_": lambda y, b: y.div_(b.abs() + 1),
    "copy_": lambda y, b: y.copy_(b),
    "fill_": lambda y, b: y.fill_(b.sum()),
    "zero_": lambda y, b: y.zero_().add_(b),
    "clamp_": lambda y, b: y.clamp_(min=b),
    "exp_": lambda y, b: y.mul_(b).exp_(),
    "sin_": lambda y, b: y.mul_(b).sin_(),
}


@pytest.mark.parametrize("name", list(INPLACE_WITH_A_BROADCAST_OPERAND))
@given(shapes=hnp.mutually_broadcastable_shapes(num_shapes=1, base_shape=(), max_dims=3, max_side=3), seed=seeds, dtype=st.sampled_from(["float32", "float64"]))
def test_inplace_ops_random(name: str, shapes: Any, seed: int, dtype: str) -> None:
    (other,) = shapes.input_shapes
    target = shapes.result_shape

    def run(lib: Any, x: Any, b: Any) -> Any:
        y = x * 1  # a non-leaf, so the in-place op is recorded and differentiated
        out = INPLACE_WITH_A_BROADCAST_OPERAND[name](y, b)
        return out, out is y

    check_op(run, standard_normal(target, seed, dtype), standard_normal(other, seed + 1, dtype))


@pytest.mark.parametrize(
    ("fn", "match"),
    [
        (lambda lib, x: ~x, "~ (operator.invert) is only implemented on integer and Boolean-type tensors"),
        (lambda lib, x: lib.bitwise_not(x), None),  # NotImplementedError, unlike ~
        (lambda lib, x: ~(x > 0), None),
        (lambda lib, x: 2 * x + 1, None),
    ],
)
def test_bitwise_not_of_floats_and_operators(fn, match: str | None) -> None:
    check_op(fn, standard_normal((2, 2)), match=match)


@pytest.mark.parametrize("expression", ["x / x", "inf - inf", "inf * x", "big * big", "x / (x + 1) / x"])
def test_nan_and_inf_results_come_silently_as_in_torch(expression: str) -> None:
    """torch gives nan/inf for 0/0, inf - inf, inf * 0 and float overflow without a warning (the seed's
    ``sround`` divides 0/0 for every value already on its grid); NumPy would warn."""
    results = []
    for lib in (torch, tl):
        names = {"x": lib.tensor([0.0, 1.0]), "inf": lib.tensor([float("inf"), 1.0]),
                 "big": lib.tensor([3e38, 1.0])}
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            results.append(eval(expression, {}, names))
    assert_same(results[0], results[1])
