"""gradcheck / gradgradcheck: every elementwise op's backward agrees with finite differences,
and a deliberately wrong backward is caught (as torch's gradcheck catches it)."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch

import tensorlab as tl
from tensorlab.ops import arithmetic, comparison, unary_math

rng = np.random.default_rng(0)


def away_from(values: np.ndarray, points: float, margin: float = 0.15) -> np.ndarray:
    """Move values off the kinks of a piecewise op (multiples of ``points``) by at least ``margin``."""
    frac = np.mod(values, points)
    return np.where(frac < margin, values + margin, np.where(frac > points - margin, values - margin, values))


def uniform(low: float, high: float, shape: tuple = (2, 3)) -> np.ndarray:
    return rng.uniform(low, high, shape)


ANY = lambda: away_from(uniform(-2, 2), 1.0)  # noqa: E731 - reals away from 0 and the integers
POSITIVE = lambda: uniform(0.5, 2.0)  # noqa: E731
ROW = lambda: away_from(uniform(-2, 2, (3,)), 1.0)  # noqa: E731 - broadcasts against (2, 3)

# op name -> (function of tensors, makers of its float64 inputs)
DIFFERENTIABLE: dict[str, tuple[Callable[..., Any], tuple]] = {
    "abs": (lambda x: unary_math.abs(x), (ANY,)),
    "add": (lambda x, y: arithmetic.add(x, y, alpha=2.5), (ANY, ROW)),
    "ceil": (lambda x: unary_math.ceil(x), (ANY,)),
    "clamp": (lambda x: unary_math.clamp(x, -1.0, 1.0), (lambda: away_from(uniform(-2, 2), 1.0, 0.2),)),
    "clip": (lambda x: unary_math.clip(x, min=-0.5), (lambda: away_from(uniform(-2, 2), 0.5, 0.1),)),
    "cos": (lambda x: unary_math.cos(x), (ANY,)),
    "div": (lambda x, y: arithmetic.div(x, y), (ANY, lambda: uniform(0.5, 2.0, (3,)))),
    "divide": (lambda x, y: arithmetic.divide(y, x), (POSITIVE, ROW)),
    "exp": (lambda x: unary_math.exp(x), (ANY,)),
    "floor": (lambda x: unary_math.floor(x), (ANY,)),
    "fmod": (lambda x, y: arithmetic.fmod(x, y), (lambda: away_from(uniform(-4, 4), 1.5, 0.2), lambda: np.full((3,), 1.5))),
    "lerp": (lambda x, y, w: arithmetic.lerp(x, y, w), (ANY, ROW, ROW)),
    "log": (lambda x: unary_math.log(x), (POSITIVE,)),
    "maximum": (lambda x, y: arithmetic.maximum(x, y), (ANY, ROW)),
    "minimum": (lambda x, y: arithmetic.minimum(x, y), (ANY, ROW)),
    "mul": (lambda x, y: arithmetic.mul(x, y), (ANY, ROW)),
    "multiply": (lambda x: arithmetic.multiply(x, 3.0), (ANY,)),
    "neg": (lambda x: unary_math.neg(x), (ANY,)),
    "negative": (lambda x: unary_math.negative(x), (ANY,)),
    "pow": (lambda x, y: arithmetic.pow(x, y), (POSITIVE, ROW)),
    "reciprocal": (lambda x: unary_math.reciprocal(x), (ANY,)),
    "relu": (lambda x: unary_math.relu(x), (ANY,)),
    "remainder": (lambda x, y: arithmetic.remainder(x, y), (lambda: away_from(uniform(0.1, 4), 1.5, 0.2), lambda: np.full((3,), 1.5))),
    "round": (lambda x: unary_math.round(x, decimals=1), (lambda: away_from(uniform(-2, 2), 0.1, 0.02) + 0.05,)),
    "rsqrt": (lambda x: unary_math.rsqrt(x), (POSITIVE,)),
    "sigmoid": (lambda x: unary_math.sigmoid(x), (ANY,)),
    "sign": (lambda x: unary_math.sign(x), (ANY,)),
    "sin": (lambda x: unary_math.sin(x), (ANY,)),
    "sqrt": (lambda x: unary_math.sqrt(x), (POSITIVE,)),
    "square": (lambda x: unary_math.square(x), (ANY,)),
    "sub": (lambda x, y: arithmetic.sub(x, y), (ANY, ROW)),
    "subtract": (lambda x: arithmetic.subtract(2.0, x), (ANY,)),
    "tanh": (lambda x: unary_math.tanh(x), (ANY,)),
    "true_divide": (lambda x: arithmetic.true_divide(x, 4.0), (ANY,)),
    "trunc": (lambda x: unary_math.trunc(x), (ANY,)),
    "where": (lambda x, y: comparison.where(x > 0, x, y), (ANY, ROW)),
}
# Ops whose results are bools, ints or Python values: there is nothing to differentiate.
NOT_DIFFERENTIABLE = {
    "allclose", "bitwise_and", "bitwise_not", "bitwise_or", "bitwise_xor", "eq", "equal", "ge",
    "greater", "greater_equal", "gt", "isclose", "isfinite", "isinf", "isnan", "le", "less",
    "less_equal", "logical_and", "logical_not", "logical_or", "logical_xor", "lt", "ne", "not_equal",
}
# Ops whose backward raises, as torch's does.
NO_DERIVATIVE = {"floor_divide"}
TWICE_DIFFERENTIABLE = ["add", "cos", "div", "exp", "lerp", "log", "mul", "pow", "reciprocal", "rsqrt", "sigmoid", "sin", "sqrt", "square", "tanh", "where"]


def inputs_for(name: str) -> tuple:
    return tuple(tl.tensor(make(), dtype=tl.float64, requires_grad=True) for make in DIFFERENTIABLE[name][1])


def test_every_elementwise_op_is_covered() -> None:
    assert set(arithmetic.__all__) | set(comparison.__all__) | set(unary_math.__all__) == set(DIFFERENTIABLE) | NOT_DIFFERENTIABLE | NO_DERIVATIVE


def test_floor_divide_has_no_derivative_like_torch() -> None:
    for lib in (torch, tl):
        x = lib.tensor([1.5, -2.5], requires_grad=True)
        with pytest.raises(RuntimeError, match="derivative for aten::floor_divide is not implemented"):
            lib.floor_divide(x, 0.75).sum().backward()


@pytest.mark.parametrize("name", sorted(DIFFERENTIABLE))
def test_gradcheck_passes_on_elementwise_op(name: str) -> None:
    fn = DIFFERENTIABLE[name][0]
    assert tl.autograd.gradcheck(fn, inputs_for(name))


@pytest.mark.parametrize("name", TWICE_DIFFERENTIABLE)
def test_gradgradcheck_passes_on_elementwise_op(name: str) -> None:
    fn = DIFFERENTIABLE[name][0]
    assert tl.autograd.gradgradcheck(fn, inputs_for(name))


def wrong_square(lib: Any) -> type:
    """x**2 with the factor 2 forgotten in backward."""

    class WrongSquare(lib.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx: Any, grad: Any) -> Any:
            (x,) = ctx.saved_tensors
            return grad * x

    return WrongSquare


def wrong_second_derivative(lib: Any) -> type:
    """exp whose backward is right in value but detached, so its own derivative is 0."""

    class DetachedExp(lib.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            y = x.exp()
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx: Any, grad: Any) -> Any:
            (y,) = ctx.saved_tensors
            return grad * y.detach()

    return DetachedExp


def double_input(lib: Any) -> Any:
    return lib.tensor(rng.uniform(0.5, 2.0, (2, 2)), dtype=lib.float64, requires_grad=True)


def test_gradcheck_fails_on_a_wrong_backward_like_torch() -> None:
    x = rng.uniform(0.5, 2.0, (2, 2))
    for lib in (torch, tl):
        fn = wrong_square(lib).apply
        inp = lib.tensor(x, dtype=lib.float64, requires_grad=True)
        assert lib.autograd.gradcheck(fn, (inp,), raise_exception=False) is False
        with pytest.raises(RuntimeError, match="Jacobian mismatch for output 0 with respect to input 0") as error:
            lib.autograd.gradcheck(fn, (inp,))
        assert type(error.value).__name__ == "GradcheckError"
    assert issubclass(tl.autograd.GradcheckError, RuntimeError)


def test_gradgradcheck_fails_on_a_wrong_double_backward_like_torch() -> None:
    for lib in (torch, tl):
        fn = wrong_second_derivative(lib).apply
        inp = double_input(lib)
        assert lib.autograd.gradcheck(fn, (inp,))
        assert lib.autograd.gradgradcheck(fn, (inp,), raise_exception=False) is False


def test_tolerances_decide() -> None:
    """A backward off by 1e-4 relative fails at rtol=1e-6 and passes at rtol=1e-2, in both."""
    for lib in (torch, tl):

        class Slightly(lib.autograd.Function):
            @staticmethod
            def forward(ctx: Any, x: Any) -> Any:
                return x * 3

            @staticmethod
            def backward(ctx: Any, grad: Any) -> Any:
                return grad * 3.0003

        inp = double_input(lib)
        assert lib.autograd.gradcheck(Slightly.apply, (inp,), rtol=1e-2, raise_exception=False)
        assert not lib.autograd.gradcheck(Slightly.apply, (inp,), rtol=1e-6, atol=1e-8, raise_exception=False)


def test_gradcheck_with_several_outputs_and_non_tensor_arguments() -> None:
    def fn(x: Any, y: Any, k: float) -> tuple:
        return x * y * k, (x - y).tanh()

    for lib in (torch, tl):
        a, b = double_input(lib), double_input(lib)
        assert lib.autograd.gradcheck(fn, (a, b, 2.0))
        assert lib.autograd.gradgradcheck(fn, (a, b, 2.0))


def test_gradcheck_argument_checks_like_torch() -> None:
    for lib in (torch, tl):
        with pytest.raises(ValueError, match="at least one input tensor to require gradient"):
            lib.autograd.gradcheck(lambda x: x * 2, (lib.tensor([1.0], dtype=lib.float64),))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lib.autograd.gradcheck(lambda x: x * 2, (lib.tensor([1.0], requires_grad=True),), raise_exception=False)
        assert any("not a double precision floating point" in str(w.message) for w in caught)


def test_gradcheck_leaves_inputs_untouched() -> None:
    x = double_input(tl)
    before = x.detach().clone()
    tl.autograd.gradcheck(lambda t: t.sin(), x)
    assert x.grad is None
    assert np.array_equal(x.detach().numpy(), before.numpy())
