"""Binary arithmetic: add, sub, mul, div, floor_divide, remainder, pow, maximum, minimum.

Each op is an autograd ``Function`` with its forward (one NumPy ufunc, through
``ops.promotion.binary``) and its backward side by side, followed by the public functions that
pick the right ``Function`` (torch names ``x - 2`` and ``2 - x`` differently). Kept apart from
the one-input math (``ops.unary_math``) and the comparisons (``ops.comparison``) so that each
file holds one family of derivative rules.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._dtype import bool_, dtype, get_default_dtype
from .._tensor import Tensor, require_tensors
from ..autograd.function import Function, FunctionCtx
from .broadcasting import sum_to_shape
from .comparison import where
from .promotion import (
    Operand,
    _dtype_of,
    _not_implemented_for,
    _operand,
    _restore,
    _save,
    _save_shapes,
    binary,
)

__all__ = [
    "add", "div", "divide", "floor_divide", "fmod", "lerp", "maximum", "minimum", "mul", "multiply", "pow",
    "remainder", "sub", "subtract", "true_divide",
]


# --- arithmetic ---------------------------------------------------------------------------
class Add(Function):
    """z = x + alpha*y. dz/dx = 1, dz/dy = alpha, each summed back to its input's shape."""

    backward_name = "AddBackward0"
    operands = 2  # x and y: ``x + 2`` has next_functions ((AccumulateGrad, 0), (None, 0))

    @staticmethod
    def forward(ctx: FunctionCtx, x: Operand, y: Operand, alpha: Any = 1) -> Tensor:
        ctx.alpha = alpha
        _save_shapes(ctx, x, y)
        if alpha != 1 or alpha is True:
            y = _scaled(y, alpha, _dtype_of(x, y))
        return binary(np.add, x, y)  # on bools NumPy's add is logical or, as in torch

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        x_shape, y_shape = ctx.shapes
        needs = ctx.needs_input_grad
        return (
            sum_to_shape(grad, x_shape) if needs[0] else None,
            sum_to_shape(grad * ctx.alpha if ctx.alpha != 1 else grad, y_shape) if needs[1] else None,
            None,
        )


class Sub(Function):
    """z = x - alpha*y. dz/dx = 1, dz/dy = -alpha, each summed back to its input's shape."""

    backward_name = "SubBackward0"
    operands = 2  # x and y: ``x - 2`` has next_functions ((AccumulateGrad, 0), (None, 0))

    @staticmethod
    def forward(ctx: FunctionCtx, x: Operand, y: Operand, alpha: Any = 1) -> Tensor:
        _reject_bool_sub(x, y)
        ctx.alpha = alpha
        _save_shapes(ctx, x, y)
        if alpha != 1 or alpha is True:
            y = _scaled(y, alpha, _dtype_of(x, y))
        return binary(np.subtract, x, y)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        x_shape, y_shape = ctx.shapes
        needs = ctx.needs_input_grad
        return (
            sum_to_shape(grad, x_shape) if needs[0] else None,
            sum_to_shape(-grad * ctx.alpha if ctx.alpha != 1 else -grad, y_shape) if needs[1] else None,
            None,
        )


class Rsub(Sub):
    """``number - tensor``: torch computes it as ``rsub`` and names the node RsubBackward1."""

    backward_name = "RsubBackward1"
    operands = 0  # torch's rsub(tensor, number) takes the number as a Scalar: no edge for it


def _is_bool(x: Operand) -> bool:
    return type(x) is bool or getattr(x, "dtype", None) is bool_


def _reject_bool_sub(x: Operand, y: Operand) -> None:
    """torch has no boolean subtraction: ``a - b`` on masks is almost always a bug."""
    if _is_bool(x) and _is_bool(y):
        raise RuntimeError(
            "Subtraction, the `-` operator, with two bool tensors is not supported. "
            "Use the `^` or `logical_xor()` operator instead."
        )
    if _is_bool(x) or _is_bool(y):
        raise RuntimeError(
            "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying "
            "to invert a mask, use the `~` or `logical_not()` operator instead."
        )


def _scaled(y: Operand, alpha: Any, dt: dtype) -> Tensor:
    """``alpha * y`` in the result dtype ``dt`` of ``x + y``: alpha never changes the dtype."""
    if isinstance(alpha, bool) and dt is not bool_:
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if isinstance(alpha, float) and not dt.is_floating_point:
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating point number.")
    product = np.multiply(_operand(y, dt), alpha)
    return Tensor._from_array(np.asarray(product).astype(dt.numpy), dt)


class Mul(Function):
    """z = x * y. dz/dx = y, dz/dy = x, each summed back to its input's shape."""

    backward_name = "MulBackward0"
    operands = 2  # x and y: ``x * 2`` has next_functions ((AccumulateGrad, 0), (None, 0))

    @staticmethod
    def forward(ctx: FunctionCtx, x: Operand, y: Operand) -> Tensor:
        if ctx.recording:  # as torch: y only if x needs a gradient, x only if y does
            needs = ctx.needs_input_grad
            _save(ctx, x if needs[1] or not isinstance(x, Tensor) else None, y if needs[0] or not isinstance(y, Tensor) else None)
            _save_shapes(ctx, x, y)
        return binary(np.multiply, x, y)  # on bools NumPy's multiply is logical and, as in torch

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        x, y = _restore(ctx)
        x_shape, y_shape = ctx.shapes
        return (
            sum_to_shape(grad * y, x_shape) if ctx.needs_input_grad[0] else None,
            sum_to_shape(grad * x, y_shape) if ctx.needs_input_grad[1] else None,
        )


class Div(Function):
    """z = x / y (true division: integers give a float). dz/dx = 1/y, dz/dy = -x/y^2, each summed
    back to its input's shape."""

    backward_name = "DivBackward0"
    operands = 2  # x and y: ``x / 2`` has next_functions ((AccumulateGrad, 0), (None, 0))

    @staticmethod
    def forward(ctx: FunctionCtx, x: Operand, y: Operand) -> Tensor:
        _save(ctx, x, y)
        _save_shapes(ctx, x, y)
        dt = _dtype_of(x, y)
        if not dt.is_floating_point:
            dt = get_default_dtype()
        return binary(np.true_divide, x, y, dt)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        x, y = _restore(ctx)
        x_shape, y_shape = ctx.shapes
        return (
            sum_to_shape(grad / y, x_shape) if ctx.needs_input_grad[0] else None,
            # (x/y)/y, not x/(y*y): y*y can underflow to 0
            sum_to_shape(-grad * (x / y) / y, y_shape) if ctx.needs_input_grad[1] else None,
        )


def _check_integer_division(y: Operand, dt: dtype) -> None:
    """Integer division by zero has no answer (floats give inf/nan): torch raises."""
    if dt.is_floating_point:
        return
    divisor = y._data if isinstance(y, Tensor) else y
    if np.any(np.asarray(divisor) == 0):
        raise RuntimeError("ZeroDivisionError")


class FloorDivide(Function):
    """z = floor(x / y), computed exactly for integers.

    torch defines no derivative for ``//`` (use ``div(rounding_mode="floor")``): backward raises.
    """

    backward_name = "NotImplemented"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Operand, y: Operand) -> Tensor:
        dt = _dtype_of(x, y)
        if dt is bool_:
            raise _not_implemented_for("div_floor_cpu", dt)
        _check_integer_division(y, dt)
        with np.errstate(divide="ignore", invalid="ignore"):
            return binary(np.floor_divide, x, y, dt)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        raise RuntimeError("derivative for aten::floor_divide is not implemented")


def _trunc_divide(a: Any, b: Any) -> Any:
    """Integer division rounded toward zero (C's ``/``), where NumPy's ``//`` rounds down."""
    quotient = np.floor_divide(a, b)
    rounded_down = (np.remainder(a, b) != 0) & ((np.asarray(a) < 0) != (np.asarray(b) < 0))
    return quotient + rounded_down.astype(quotient.dtype)


class DivRounded(Function):
    """z = x / y rounded ("trunc" or "floor"). Piecewise constant, so both gradients are 0."""

    backward_name = "DivBackward2"
    operands = 2  # x and y: a number y gets the edge (None, 0), as in torch

    @staticmethod
    def forward(ctx: FunctionCtx, x: Operand, y: Operand, rounding_mode: str) -> Tensor:
        dt = _dtype_of(x, y)
        if dt is bool_:
            raise _not_implemented_for(f"div_{rounding_mode}_cpu", dt)
        _save_shapes(ctx, x, y)
        _check_integer_division(y, dt)
        with np.errstate(divide="ignore", invalid="ignore"):
            if rounding_mode == "floor":
                return binary(np.floor_divide, x, y, dt)
            if dt.is_floating_point:
                return binary(lambda a, b: np.trunc(np.true_divide(a, b)), x, y, dt)
            return binary(_trunc_divide, x, y, dt)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        x_shape, y_shape = ctx.shapes
        needs = ctx.needs_input_grad
        return (
            sum_to_shape(grad * 0, x_shape) if needs[0] else None,
            sum_to_shape(grad * 0, y_shape) if needs[1] else None,
            None,
        )


class Remainder(Function):
    """z = x - floor(x/y)*y (sign of the divisor, like Python's %). dz/dx = 1, dz/dy = -floor(x/y),
    each summed back to its input's shape."""

    backward_name = "RemainderBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Operand, y: Operand) -> Tensor:
        _save(ctx, x, y)
        _save_shapes(ctx, x, y)
        dt = _dtype_of(x, y)
        if dt is bool_:
            raise _not_implemented_for("remainder_cpu", dt)
        _check_integer_division(y, dt)
        with np.errstate(divide="ignore", invalid="ignore"):
            return binary(np.remainder, x, y, dt)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        x, y = _restore(ctx)
        if not isinstance(x, Tensor):  # number % tensor
            raise RuntimeError("derivative for aten::remainder is not implemented")
        x_shape, y_shape = ctx.shapes
        needs = ctx.needs_input_grad
        return (
            sum_to_shape(grad, x_shape) if needs[0] else None,
            sum_to_shape(-grad * div(x, y, rounding_mode="floor"), y_shape) if needs[1] else None,
        )


class Fmod(Function):
    """z = x - trunc(x/y)*y (sign of the dividend, like C's fmod). dz/dx = 1, dz/dy = -trunc(x/y),
    each summed back to its input's shape.

    Compare ``remainder``: same idea, but the quotient is rounded toward zero, not down."""

    backward_name = "FmodBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Operand, y: Operand) -> Tensor:
        _save(ctx, x, y)
        _save_shapes(ctx, x, y)
        dt = _dtype_of(x, y)
        if dt is bool_:
            raise _not_implemented_for("fmod_cpu", dt)
        _check_integer_division(y, dt)
        with np.errstate(divide="ignore", invalid="ignore"):
            return binary(np.fmod, x, y, dt)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        x, y = _restore(ctx)
        x_shape, y_shape = ctx.shapes
        needs = ctx.needs_input_grad
        return (
            sum_to_shape(grad, x_shape) if needs[0] else None,
            sum_to_shape(-grad * div(x, y, rounding_mode="trunc"), y_shape) if needs[1] else None,
        )


def _integer_power(base: Any, exponent: Any) -> Any:
    """Integer ``base ** exponent`` where exponents may be negative: 1/base^n truncated to an integer
    is 0 except for bases 1 and -1, as in torch (NumPy refuses negative integer powers)."""
    exponent = np.asarray(exponent)
    base = np.asarray(base)
    if not np.any(exponent < 0):
        return np.power(base, exponent)
    positive = np.power(base, np.maximum(exponent, 0))
    odd = (exponent & 1).astype(bool)
    negative = np.where(base == 1, 1, np.where(base == -1, np.where(odd, -1, 1), 0))
    return np.where(exponent >= 0, positive, negative).astype(positive.dtype)


class Pow(Function):
    """z = x ** y. dz/dx = y * x**(y-1) (0 where y = 0), dz/dy = x**y * log(x) (0 where x = 0 <= y),
    each summed back to its input's shape."""

    backward_name = "PowBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Operand, y: Operand) -> Tensor:
        dt = _dtype_of(x, y)
        if dt is bool_:
            if isinstance(y, Tensor):
                raise _not_implemented_for("pow", dt)
            result = binary(lambda a, b: np.logical_or(a, not b), x, y, dt)  # x**True = x, x**False = 1
        elif dt.is_floating_point:
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                result = binary(np.power, x, y, dt)
        elif not isinstance(y, Tensor):
            if y < 0:
                raise RuntimeError("Integers to negative integer powers are not allowed.")
            result = binary(np.power, x, y, dt)
        else:
            result = binary(_integer_power, x, y, dt)
        _save(ctx, x, y, result)
        _save_shapes(ctx, x, y)
        return result

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        x, y, z = _restore(ctx)
        if isinstance(y, Tensor) and y.dtype is bool_:
            y = y.to(grad.dtype)  # so that y - 1 is arithmetic
        grad_x = grad_y = None
        if ctx.needs_input_grad[0]:
            if isinstance(y, Tensor):
                grad_x = where(y == 0, 0.0, grad * y * x ** (y - 1))
            else:
                grad_x = grad * 0 if y == 0 else grad * y * x ** (y - 1)
        if ctx.needs_input_grad[1]:
            if isinstance(x, Tensor):
                log_x = x.log()
            else:
                with np.errstate(divide="ignore", invalid="ignore"):
                    log_x = float(np.log(np.float64(x)))
            grad_y = where((x == 0) & (y >= 0), 0.0, grad * z * log_x)
        x_shape, y_shape = ctx.shapes
        return (
            None if grad_x is None else sum_to_shape(grad_x, x_shape),
            None if grad_y is None else sum_to_shape(grad_y, y_shape),
        )


class Maximum(Function):
    """z = max(x, y). The gradient goes to the larger input; on ties it is split in half (each
    summed back to its input's shape)."""

    backward_name = "MaximumBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, y: Tensor) -> Tensor:
        _require_tensors("maximum", x, y)
        ctx.save_for_backward(x, y)
        return binary(np.maximum, x, y)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        x, y = ctx.saved_tensors
        return _split_by_winner(grad, x, y, x > y, x == y)


class Minimum(Function):
    """z = min(x, y). The gradient goes to the smaller input; on ties it is split in half (each
    summed back to its input's shape)."""

    backward_name = "MinimumBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, y: Tensor) -> Tensor:
        _require_tensors("minimum", x, y)
        ctx.save_for_backward(x, y)
        return binary(np.minimum, x, y)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        x, y = ctx.saved_tensors
        return _split_by_winner(grad, x, y, x < y, x == y)


def _split_by_winner(grad: Tensor, x: Tensor, y: Tensor, x_wins: Tensor, tie: Tensor) -> tuple:
    share_x = x_wins.to(grad.dtype) + tie.to(grad.dtype) * 0.5
    return sum_to_shape(grad * share_x, x.shape), sum_to_shape(grad * (1 - share_x), y.shape)


def _require_tensors(name: str, *xs: Any) -> None:
    for x in xs:
        if not isinstance(x, Tensor):
            raise TypeError(f"{name}(): argument 'other' must be Tensor, not {type(x).__name__}")


# --- the public functions -----------------------------------------------------------------
def add(x: Operand, y: Operand, *, alpha: Any = 1) -> Tensor:
    try:
        return Add.apply(x, y, alpha)
    except TypeError:
        require_tensors("add", ("input", x), ("other", y), numbers=True)
        raise


def sub(x: Operand, y: Operand, *, alpha: Any = 1) -> Tensor:
    try:
        if not isinstance(x, Tensor):
            return Rsub.apply(x, y, alpha)
        return Sub.apply(x, y, alpha)
    except TypeError:
        require_tensors("sub", ("input", x), ("other", y), numbers=True)
        raise


subtract = sub


def mul(x: Operand, y: Operand) -> Tensor:
    try:
        return Mul.apply(x, y)
    except TypeError:
        require_tensors("mul", ("input", x), ("other", y), numbers=True)
        raise


multiply = mul


def div(x: Operand, y: Operand, *, rounding_mode: str | None = None) -> Tensor:
    if rounding_mode is None:
        try:
            return Div.apply(x, y)
        except TypeError:
            require_tensors("div", ("input", x), ("other", y), numbers=True)
            raise
    if rounding_mode in ("floor", "trunc"):
        return DivRounded.apply(x, y, rounding_mode)
    raise RuntimeError(
        "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
        f"'{rounding_mode}'"
    )


divide = true_divide = div


def floor_divide(x: Operand, y: Operand) -> Tensor:
    return FloorDivide.apply(x, y)


def remainder(x: Operand, y: Operand) -> Tensor:
    if isinstance(x, Tensor) and isinstance(y, Tensor):
        return Remainder.apply_as("RemainderBackward1", x, y)  # torch's name for tensor % tensor
    return Remainder.apply(x, y)


def pow(x: Operand, y: Operand) -> Tensor:  # noqa: A001 - torch's name
    if not isinstance(y, Tensor):
        return Pow.apply(x, y)
    # torch's names: PowBackward1 for tensor ** tensor, PowBackward2 for number ** tensor
    return Pow.apply_as("PowBackward1" if isinstance(x, Tensor) else "PowBackward2", x, y)


def maximum(x: Tensor, y: Tensor) -> Tensor:
    return Maximum.apply(x, y)


def minimum(x: Tensor, y: Tensor) -> Tensor:
    return Minimum.apply(x, y)



def fmod(input: Tensor, other: Operand) -> Tensor:  # noqa: A002
    require_tensors("fmod", ("input", input))
    if isinstance(other, Tensor):
        return Fmod.apply_as("FmodBackward1", input, other)
    return Fmod.apply(input, other)


def lerp(input: Tensor, end: Tensor, weight: Operand) -> Tensor:  # noqa: A002
    """start + weight * (end - start): a straight line from start (weight 0) to end (weight 1).

    Built from sub, mul and add, so autograd derives its gradients (dz/dstart = 1 - weight,
    dz/dend = weight, dz/dweight = end - start)."""
    if end.dtype is not input.dtype:
        raise RuntimeError(f"expected dtype {input.dtype} for `end` but got dtype {end.dtype}")
    if not input.dtype.is_floating_point:
        raise _not_implemented_for("lerp_kernel_scalar", input.dtype)
    return input + weight * (end - input)
