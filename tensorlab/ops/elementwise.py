"""Elementwise ops with broadcasting: forward (one NumPy ufunc) and backward side by side.

Every binary op does three things: find the result dtype with torch's promotion rules, check the
shapes broadcast (raising torch's message if not), and call one NumPy ufunc on the operands cast
to that dtype. Python scalars stay Python scalars, so NumPy treats them as "weak" exactly as torch
does (``int32_tensor + 5`` stays int32). Backward rules reduce gradients back to each input's
shape with ``sum_to_shape`` (applied by the engine).
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import Any

import numpy as np

from .._dtype import bool_, dtype, get_default_dtype, result_type
from .._fast import buffers as fast_buffers
from .._fast import inplace as fast_inplace
from .._fast import relu_mask
from .._fast import switch as fast
from .._tensor import Tensor, require_tensors
from ..autograd.copy_slices import check_view_write, write_through_view
from ..autograd.function import Function
from ..autograd.grad_mode import state as grad_state
from .broadcasting import broadcast_pair

Operand = Any  # a Tensor or a Python number

__all__ = [
    "abs", "add", "allclose", "bitwise_and", "bitwise_not", "bitwise_or", "bitwise_xor", "ceil",
    "clamp", "clip", "cos", "div", "divide", "eq", "equal", "exp", "floor", "floor_divide", "ge",
    "greater", "greater_equal", "gt", "isclose", "isfinite", "isinf", "isnan", "le", "less",
    "less_equal", "log", "logical_not", "lt", "maximum", "minimum", "mul", "multiply", "ne", "neg",
    "negative", "not_equal", "pow", "relu", "remainder", "round", "sigmoid", "sign", "sin",
    "sqrt", "sub", "subtract", "tanh", "true_divide", "trunc", "where",
]


# --- the shared forward machinery ---------------------------------------------------------
def _dtype_of(x: Operand, y: Operand) -> dtype:
    if type(x) is type(y) is Tensor and x.dtype is y.dtype:
        return x.dtype
    return result_type(x, y)


def _operand(x: Operand, dt: dtype) -> Any:
    """x as a NumPy operand of dtype ``dt``; a Python scalar stays a (weak) Python scalar."""
    if isinstance(x, Tensor):
        a = x._data
        return a if a.dtype is dt.numpy or a.dtype == dt.numpy else a.astype(dt.numpy)
    if isinstance(x, (bool, int, float)):
        if dt.category == 1 and type(x) is int and not 0 <= x < 128:
            # An int that may not fit the integer dtype (uint8 + 1000, uint8 + -1): torch wraps it
            # around modulo 2**bits; NumPy would refuse, so we wrap it ourselves.
            return np.array(x, dtype=np.int64).astype(dt.numpy)
        return x
    if isinstance(x, np.generic):  # a NumPy scalar acts like the Python number it holds
        return _operand(x.item(), dt)
    raise TypeError(f"unsupported operand type: '{type(x).__name__}'")


def _check_shapes(x: Operand, y: Operand) -> None:
    if isinstance(x, Tensor) and isinstance(y, Tensor) and x._data.shape != y._data.shape:
        broadcast_pair(x._data.shape, y._data.shape)


def binary(ufunc: Callable, x: Operand, y: Operand, dt: dtype | None = None, out_dtype: dtype | None = None) -> Tensor:
    """``ufunc(x, y)`` computed in dtype ``dt`` (default: promoted), as a new tensor.

    The common case — two tensors of one dtype — costs one ufunc call: shapes are only checked
    (for torch's error message) when NumPy refuses to broadcast them.
    """
    if type(x) is Tensor and type(y) is Tensor and (dt is None or dt is x.dtype) and x.dtype is y.dtype:
        dt = x.dtype
        xa, ya = x._data, y._data
    else:
        if dt is None:
            if not isinstance(x, Tensor) and not isinstance(y, Tensor):
                raise TypeError("at least one operand must be a tensor")
            dt = result_type(x, y)
        xa, ya = _operand(x, dt), _operand(y, dt)
    if fast.enabled and out_dtype is None and (pooled := fast_buffers.ufunc_into_pool(ufunc, dt, xa, ya)) is not None:
        return pooled
    try:
        result = ufunc(xa, ya)
    except ValueError:
        _check_shapes(x, y)  # raises torch's "The size of tensor a (2) must match ..."
        raise
    return Tensor._from_array(result, out_dtype or dt)


def unary(ufunc: Callable, x: Tensor, dt: dtype | None = None) -> Tensor:
    dt = dt or x.dtype
    xa = _operand(x, dt)
    if fast.enabled and (pooled := fast_buffers.ufunc_into_pool(ufunc, dt, xa)) is not None:
        return pooled
    return Tensor._from_array(ufunc(xa), dt)


def _float_dtype(x: Tensor) -> dtype:
    """Ops like exp and sqrt compute in floating point: integer inputs become the default float."""
    return x.dtype if x.dtype.is_floating_point else get_default_dtype()


def _save(ctx: Any, *values: Any) -> None:
    """Save the tensor operands for backward and keep the Python-scalar ones as plain numbers."""
    if not ctx.recording:
        return
    ctx.save_for_backward(*[v if isinstance(v, Tensor) else None for v in values])
    ctx.scalars = [None if isinstance(v, Tensor) else v for v in values]


def _restore(ctx: Any) -> tuple:
    return tuple(s if t is None else t for t, s in zip(ctx.saved_tensors, ctx.scalars, strict=True))


# --- arithmetic ---------------------------------------------------------------------------
class Add(Function):
    """z = x + alpha*y. dz/dx = 1, dz/dy = alpha."""

    backward_name = "AddBackward0"
    operands = 2  # x and y: ``x + 2`` has next_functions ((AccumulateGrad, 0), (None, 0))

    @staticmethod
    def forward(ctx: Any, x: Operand, y: Operand, alpha: Any = 1) -> Tensor:
        ctx.alpha = alpha
        if alpha != 1 or alpha is True:
            y = _scaled(y, alpha, _dtype_of(x, y))
        return binary(np.add, x, y)  # on bools NumPy's add is logical or, as in torch

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        return grad, (grad * ctx.alpha if ctx.alpha != 1 else grad), None


class Sub(Function):
    """z = x - alpha*y. dz/dx = 1, dz/dy = -alpha."""

    backward_name = "SubBackward0"
    operands = 2  # x and y: ``x - 2`` has next_functions ((AccumulateGrad, 0), (None, 0))

    @staticmethod
    def forward(ctx: Any, x: Operand, y: Operand, alpha: Any = 1) -> Tensor:
        _reject_bool_sub(x, y)
        ctx.alpha = alpha
        if alpha != 1 or alpha is True:
            y = _scaled(y, alpha, _dtype_of(x, y))
        return binary(np.subtract, x, y)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        return grad, -grad * ctx.alpha if ctx.alpha != 1 else -grad, None


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
    """z = x * y. dz/dx = y, dz/dy = x."""

    backward_name = "MulBackward0"
    operands = 2  # x and y: ``x * 2`` has next_functions ((AccumulateGrad, 0), (None, 0))

    @staticmethod
    def forward(ctx: Any, x: Operand, y: Operand) -> Tensor:
        _save(ctx, x, y)
        return binary(np.multiply, x, y)  # on bools NumPy's multiply is logical and, as in torch

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        x, y = _restore(ctx)
        return (
            grad * y if ctx.needs_input_grad[0] else None,
            grad * x if ctx.needs_input_grad[1] else None,
        )


class Div(Function):
    """z = x / y (true division: integers give a float). dz/dx = 1/y, dz/dy = -x/y^2."""

    backward_name = "DivBackward0"
    operands = 2  # x and y: ``x / 2`` has next_functions ((AccumulateGrad, 0), (None, 0))

    @staticmethod
    def forward(ctx: Any, x: Operand, y: Operand) -> Tensor:
        _save(ctx, x, y)
        dt = _dtype_of(x, y)
        if not dt.is_floating_point:
            dt = get_default_dtype()
        return binary(np.true_divide, x, y, dt)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        x, y = _restore(ctx)
        return (
            grad / y if ctx.needs_input_grad[0] else None,
            -grad * (x / y) / y if ctx.needs_input_grad[1] else None,  # (x/y)/y: no y*y underflow
        )


def _check_integer_division(y: Operand, dt: dtype) -> None:
    """Integer division by zero has no answer (floats give inf/nan): torch raises."""
    if dt.is_floating_point:
        return
    divisor = y._data if isinstance(y, Tensor) else y
    if np.any(np.asarray(divisor) == 0):
        raise RuntimeError("ZeroDivisionError")


def _not_implemented_for(kernel: str, dt: dtype) -> NotImplementedError:
    """torch's error for a kernel that has no version for this dtype (e.g. floor division of bools)."""
    return NotImplementedError(f'"{kernel}" not implemented for \'{dt.scalar_type}\'')


class FloorDivide(Function):
    """z = floor(x / y), computed exactly for integers.

    torch defines no derivative for ``//`` (use ``div(rounding_mode="floor")``): backward raises.
    """

    backward_name = "NotImplemented"

    @staticmethod
    def forward(ctx: Any, x: Operand, y: Operand) -> Tensor:
        dt = _dtype_of(x, y)
        if dt is bool_:
            raise _not_implemented_for("div_floor_cpu", dt)
        _check_integer_division(y, dt)
        with np.errstate(divide="ignore", invalid="ignore"):
            return binary(np.floor_divide, x, y, dt)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
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
    def forward(ctx: Any, x: Operand, y: Operand, rounding_mode: str) -> Tensor:
        dt = _dtype_of(x, y)
        if dt is bool_:
            raise _not_implemented_for(f"div_{rounding_mode}_cpu", dt)
        _check_integer_division(y, dt)
        with np.errstate(divide="ignore", invalid="ignore"):
            if rounding_mode == "floor":
                return binary(np.floor_divide, x, y, dt)
            if dt.is_floating_point:
                return binary(lambda a, b: np.trunc(np.true_divide(a, b)), x, y, dt)
            return binary(_trunc_divide, x, y, dt)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        return grad * 0, grad * 0, None


class Remainder(Function):
    """z = x - floor(x/y)*y (sign of the divisor, like Python's %). dz/dx = 1, dz/dy = -floor(x/y)."""

    backward_name = "RemainderBackward0"

    @staticmethod
    def forward(ctx: Any, x: Operand, y: Operand) -> Tensor:
        _save(ctx, x, y)
        dt = _dtype_of(x, y)
        if dt is bool_:
            raise _not_implemented_for("remainder_cpu", dt)
        _check_integer_division(y, dt)
        with np.errstate(divide="ignore", invalid="ignore"):
            return binary(np.remainder, x, y, dt)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        x, y = _restore(ctx)
        if not isinstance(x, Tensor):  # number % tensor
            raise RuntimeError("derivative for aten::remainder is not implemented")
        return grad, (-grad * div(x, y, rounding_mode="floor")) if ctx.needs_input_grad[1] else None


class RemainderTensor(Remainder):
    """``tensor % tensor``: torch names this node RemainderBackward1."""

    backward_name = "RemainderBackward1"


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
    """z = x ** y. dz/dx = y * x**(y-1) (0 where y = 0), dz/dy = x**y * log(x) (0 where x = 0 <= y)."""

    backward_name = "PowBackward0"

    @staticmethod
    def forward(ctx: Any, x: Operand, y: Operand) -> Tensor:
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
        return result

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
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
        return grad_x, grad_y


class PowTensor(Pow):
    """``tensor ** tensor``: torch names this node PowBackward1."""

    backward_name = "PowBackward1"


class PowScalarBase(Pow):
    """``number ** tensor``: torch names this node PowBackward2."""

    backward_name = "PowBackward2"


class Maximum(Function):
    """z = max(x, y). The gradient goes to the larger input; on ties it is split in half."""

    backward_name = "MaximumBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, y: Tensor) -> Tensor:
        _require_tensors("maximum", x, y)
        ctx.save_for_backward(x, y)
        return binary(np.maximum, x, y)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        x, y = ctx.saved_tensors
        return _split_by_winner(grad, x > y, x == y)


class Minimum(Function):
    """z = min(x, y). The gradient goes to the smaller input; on ties it is split in half."""

    backward_name = "MinimumBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, y: Tensor) -> Tensor:
        _require_tensors("minimum", x, y)
        ctx.save_for_backward(x, y)
        return binary(np.minimum, x, y)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        x, y = ctx.saved_tensors
        return _split_by_winner(grad, x < y, x == y)


def _split_by_winner(grad: Tensor, x_wins: Tensor, tie: Tensor) -> tuple:
    share_x = x_wins.to(grad.dtype) + tie.to(grad.dtype) * 0.5
    return grad * share_x, grad * (1 - share_x)


def _require_tensors(name: str, *xs: Any) -> None:
    for x in xs:
        if not isinstance(x, Tensor):
            raise TypeError(f"{name}(): argument 'other' must be Tensor, not {type(x).__name__}")


# --- unary --------------------------------------------------------------------------------
class Neg(Function):
    """z = -x. dz/dx = -1."""

    backward_name = "NegBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> Tensor:
        if x.dtype is bool_:
            raise RuntimeError(
                "Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
                "to invert a mask, use the `~` or `logical_not()` operator instead."
            )
        return unary(np.negative, x)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Tensor:
        return -grad


class Abs(Function):
    """z = |x|. dz/dx = sign(x) (0 at 0)."""

    backward_name = "AbsBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> Tensor:
        if x.dtype is bool_:
            raise _not_implemented_for("abs_cpu", bool_)
        ctx.save_for_backward(x)
        return unary(np.abs, x)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        return grad * x.sign()


class Exp(Function):
    """z = e^x. dz/dx = e^x = z, so the output is what backward keeps."""

    backward_name = "ExpBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> Tensor:
        z = unary(np.exp, x, _float_dtype(x))
        ctx.save_for_backward(z)
        return z

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Tensor:
        (z,) = ctx.saved_tensors
        return grad * z


class Log(Function):
    """z = ln x. dz/dx = 1/x."""

    backward_name = "LogBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> Tensor:
        ctx.save_for_backward(x)
        with np.errstate(divide="ignore", invalid="ignore"):
            return unary(np.log, x, _float_dtype(x))

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        return grad / x


class Sqrt(Function):
    """z = sqrt(x). dz/dx = 1 / (2 z)."""

    backward_name = "SqrtBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> Tensor:
        with np.errstate(invalid="ignore"):
            z = unary(np.sqrt, x, _float_dtype(x))
        ctx.save_for_backward(z)
        return z

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Tensor:
        (z,) = ctx.saved_tensors
        return grad / (2 * z)


class Sin(Function):
    """z = sin x. dz/dx = cos x."""

    backward_name = "SinBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> Tensor:
        ctx.save_for_backward(x)
        return unary(np.sin, x, _float_dtype(x))

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        return grad * x.cos()


class Cos(Function):
    """z = cos x. dz/dx = -sin x."""

    backward_name = "CosBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> Tensor:
        ctx.save_for_backward(x)
        return unary(np.cos, x, _float_dtype(x))

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        return -grad * x.sin()


class Tanh(Function):
    """z = tanh x. dz/dx = 1 - z^2."""

    backward_name = "TanhBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> Tensor:
        z = unary(np.tanh, x, _float_dtype(x))
        ctx.save_for_backward(z)
        return z

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Tensor:
        (z,) = ctx.saved_tensors
        return grad * (1 - z * z)


def _stable_sigmoid(a: np.ndarray) -> np.ndarray:
    """1/(1+e^-x) without overflow: e^-|x| is never larger than 1."""
    e = np.exp(-np.abs(a))
    return np.where(a >= 0, 1 / (1 + e), e / (1 + e)).astype(a.dtype, copy=False)


class Sigmoid(Function):
    """z = 1/(1+e^-x). dz/dx = z (1 - z)."""

    backward_name = "SigmoidBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> Tensor:
        z = unary(_stable_sigmoid, x, _float_dtype(x))
        ctx.save_for_backward(z)
        return z

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Tensor:
        (z,) = ctx.saved_tensors
        return grad * z * (1 - z)


class Relu(Function):
    """z = max(x, 0). dz/dx = 1 where z > 0, else 0."""

    backward_name = "ReluBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> Tensor:
        if x.dtype is bool_:
            raise RuntimeError("Boolean inputs not supported for relu")
        z = binary(np.maximum, x, 0)
        ctx.save_for_backward(z)
        return z

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Tensor:
        (z,) = ctx.saved_tensors
        return ThresholdBackward.apply(grad, z)


class ThresholdBackward(Function):
    """relu's backward as one op (torch's threshold_backward): dx = grad where z > 0, else 0.

    Itself differentiable, for double backward: in ``grad`` it is the same mask again; in ``z``
    it is 0 (the mask only jumps, at z = 0).
    """

    backward_name = "ThresholdBackwardBackward0"

    @staticmethod
    def forward(ctx: Any, grad: Tensor, z: Tensor) -> Tensor:
        ctx.save_for_backward(z)
        if fast.enabled:
            return Tensor._from_array(relu_mask.select_where_positive(z._data, grad._data), grad.dtype)
        return Tensor._from_array(np.where(z._data > 0, grad._data, grad.dtype.numpy.type(0)), grad.dtype)

    @staticmethod
    def backward(ctx: Any, grad_grad: Tensor) -> tuple:
        (z,) = ctx.saved_tensors
        zero = Tensor._from_array(np.zeros_like(z._data), z.dtype) if ctx.needs_input_grad[1] else None
        return ThresholdBackward.apply(grad_grad, z), zero


class Clamp(Function):
    """z = min(max(x, lo), hi) with number bounds. dz/dx = 1 where lo <= x <= hi (bounds included), else 0."""

    backward_name = "ClampBackward1"

    @staticmethod
    def forward(ctx: Any, x: Tensor, lo: Operand, hi: Operand) -> Tensor:
        if lo is None and hi is None:
            raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        bounds = [b for b in (lo, hi) if b is not None]
        dt = result_type(x, *bounds)
        if dt is bool_ and not isinstance(bounds[0], Tensor):
            kernel = "clamp_scalar_cpu" if len(bounds) == 2 else "clamp_min_scalar_cpu" if hi is None else "clamp_max_scalar_cpu"
            raise _not_implemented_for(kernel, dt)
        shape = x.shape
        for b in bounds:
            shape = broadcast_pair(shape, getattr(b, "shape", ()))
        _save(ctx, x, lo, hi)
        z = x._data if x.dtype is dt else x._data.astype(dt.numpy)
        if lo is not None:
            z = np.maximum(z, _operand(lo, dt))
        if hi is not None:
            z = np.minimum(z, _operand(hi, dt))  # applied last: when lo > hi, every value is hi
        return Tensor._from_array(z, dt)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        x, lo, hi = _restore(ctx)
        inside = x == x
        if lo is not None:
            inside = inside & (x >= lo)
        if hi is not None:
            inside = inside & (x <= hi)
        zero = grad * 0
        grad_x = where(inside, grad, zero)
        if not isinstance(lo, Tensor) and not isinstance(hi, Tensor):
            return grad_x, None, None
        # Tensor bounds get the gradient where they are the value returned (torch's rule).
        grad_lo = grad_hi = None
        if lo is not None and hi is not None:
            if ctx.needs_input_grad[1]:
                grad_lo = where((x < lo) & (lo < hi), grad, zero)
            if ctx.needs_input_grad[2]:
                grad_hi = where((x > hi) | (hi < lo), grad, zero)
        elif lo is not None and ctx.needs_input_grad[1]:
            grad_lo = where(x < lo, grad, zero)
        elif hi is not None and ctx.needs_input_grad[2]:
            grad_hi = where(x > hi, grad, zero)
        return grad_x, grad_lo, grad_hi


class ClampTensor(Clamp):
    """clamp with tensor bounds: torch names this node ClampBackward0, and the bounds get gradients."""

    backward_name = "ClampBackward0"


def _zero_grad_unary(name: str, ufunc: Callable) -> type[Function]:
    """floor, ceil, trunc, sign: piecewise constant, so their gradient is 0 everywhere."""

    def forward(ctx: Any, x: Tensor) -> Tensor:
        if x.dtype is bool_:
            if name == "Sign":
                return Tensor._from_array(x._data.copy(), bool_)
            raise _not_implemented_for(f"{name.lower()}_vml_cpu", bool_)
        if not x.dtype.is_floating_point and name != "Sign":
            return Tensor._from_array(x._data.copy(), x.dtype)  # integers are already whole
        return unary(ufunc, x)

    def backward(ctx: Any, grad: Tensor) -> Tensor:
        return grad * 0

    return type(
        name,
        (Function,),
        {
            "__doc__": f"z = {name.lower()}(x): piecewise constant, dz/dx = 0.",
            "backward_name": f"{name}Backward0",
            "forward": staticmethod(forward),
            "backward": staticmethod(backward),
        },
    )


Floor = _zero_grad_unary("Floor", np.floor)
Ceil = _zero_grad_unary("Ceil", np.ceil)
Trunc = _zero_grad_unary("Trunc", np.trunc)
def _sign(a: np.ndarray) -> np.ndarray:
    """-1, 0 or 1; torch gives 0 (not nan) for nan."""
    return np.where(np.isnan(a), 0, np.sign(a)).astype(a.dtype, copy=False) if a.dtype.kind == "f" else np.sign(a)


Sign = _zero_grad_unary("Sign", _sign)


class Round(Function):
    """Round half to even (2.5 -> 2.), to ``decimals`` places. Piecewise constant: dz/dx = 0."""

    backward_name = "RoundBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, decimals: int = 0) -> Tensor:
        if x.dtype is bool_:
            raise _not_implemented_for("round_vml_cpu", bool_)
        if not x.dtype.is_floating_point:
            if decimals:
                raise _not_implemented_for("round_cpu", x.dtype)
            return Tensor._from_array(x._data.copy(), x.dtype)
        return unary(lambda a: np.round(a, decimals), x)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        return grad * 0, None


class RoundDecimals(Round):
    """round with ``decimals``: torch names this node RoundBackward1."""

    backward_name = "RoundBackward1"


class Where(Function):
    """z = x where condition else y. The gradient is routed to whichever input was picked."""

    backward_name = "WhereBackward0"

    @staticmethod
    def forward(ctx: Any, condition: Tensor, x: Operand, y: Operand) -> Tensor:
        if condition.dtype is not bool_:
            raise RuntimeError(
                "where expected condition to be a boolean tensor, but got a tensor with dtype "
                f"{condition.dtype.scalar_type}"
            )
        dt = result_type(x, y)
        for value in (x, y):
            _check_fits(value, dt)
        shape = broadcast_pair(condition.shape, getattr(x, "shape", ()))
        shape = broadcast_pair(shape, getattr(y, "shape", ()))
        ctx.save_for_backward(condition)
        result = np.where(condition._data, _operand(x, dt), _operand(y, dt))
        return Tensor._from_array(np.broadcast_to(result, shape).copy() if result.shape != shape else result, dt)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        (condition,) = ctx.saved_tensors
        zero = Tensor._from_array(np.zeros_like(grad._data), grad.dtype)  # not grad * 0: inf * 0 is nan
        return None, where(condition, grad, zero), where(condition, zero, grad)


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
        return RemainderTensor.apply(x, y)
    return Remainder.apply(x, y)


def pow(x: Operand, y: Operand) -> Tensor:  # noqa: A001 - torch's name
    if not isinstance(y, Tensor):
        return Pow.apply(x, y)
    return (PowTensor if isinstance(x, Tensor) else PowScalarBase).apply(x, y)


def _one_input(op: type[Function]) -> Callable[[Tensor], Tensor]:
    """The public function of a one-input op, named after it: ``exp(x)`` is ``Exp.apply(x)``."""

    name = op.__name__.lower()

    def function(x: Tensor) -> Tensor:
        try:
            return op.apply(x)
        except AttributeError:  # x is not a tensor: say so as torch does
            require_tensors(name, ("input", x))
            raise

    function.__name__ = function.__qualname__ = name
    function.__doc__ = op.__doc__
    return function


neg, abs, exp, log, sqrt, sin, cos, tanh, sigmoid, relu = (  # noqa: A001 - torch's names
    _one_input(op) for op in (Neg, Abs, Exp, Log, Sqrt, Sin, Cos, Tanh, Sigmoid, Relu)
)
negative = neg


def clamp(x: Tensor, min: Operand = None, max: Operand = None) -> Tensor:  # noqa: A002
    tensor_bounds = [isinstance(b, Tensor) for b in (min, max) if b is not None]
    if builtins.any(tensor_bounds):
        if not builtins.all(tensor_bounds):
            raise TypeError(
                "clamp() received an invalid combination of arguments: min and max must both be "
                "Tensors or both be numbers"
            )
        return ClampTensor.apply(x, min, max)
    return Clamp.apply(x, min, max)


clip = clamp


floor, ceil, sign, trunc = (_one_input(op) for op in (Floor, Ceil, Sign, Trunc))


def round(x: Tensor, *, decimals: int = 0) -> Tensor:  # noqa: A001
    return (RoundDecimals if decimals else Round).apply(x, decimals)


def maximum(x: Tensor, y: Tensor) -> Tensor:
    return Maximum.apply(x, y)


def minimum(x: Tensor, y: Tensor) -> Tensor:
    return Minimum.apply(x, y)


def where(condition: Tensor, x: Operand = None, y: Operand = None) -> Any:
    if x is None and y is None:
        from .indexing import nonzero

        return nonzero(condition, as_tuple=True)
    return Where.apply(condition, x, y)


def _compare(ufunc: Callable) -> Callable[[Operand, Operand], Tensor]:
    def compare(x: Operand, y: Operand) -> Tensor:
        return binary(ufunc, x, y, out_dtype=bool_)

    compare.__doc__ = f"Elementwise {ufunc.__name__}, computed in the promoted dtype; returns bool."
    return compare


eq, ne, lt, le, gt, ge = (
    _compare(f) for f in (np.equal, np.not_equal, np.less, np.less_equal, np.greater, np.greater_equal)
)
greater, greater_equal, less, less_equal, not_equal = gt, ge, lt, le, ne


def logical_not(x: Tensor) -> Tensor:
    return unary(np.logical_not, x, bool_)


def _bitwise(ufunc: Callable, name: str) -> Callable[[Operand, Operand], Tensor]:
    def bitwise(x: Operand, y: Operand) -> Tensor:
        dt = _dtype_of(x, y)
        if dt.is_floating_point:
            raise _not_implemented_for(f"{name}_cpu", dt)
        return binary(ufunc, x, y, dt)

    return bitwise


bitwise_and = _bitwise(np.bitwise_and, "bitwise_and")
bitwise_or = _bitwise(np.bitwise_or, "bitwise_or")
bitwise_xor = _bitwise(np.bitwise_xor, "bitwise_xor")


def bitwise_not(x: Tensor) -> Tensor:
    if x.dtype.is_floating_point:
        raise _not_implemented_for("bitwise_not_cpu", x.dtype)
    return unary(np.invert, x)


def equal(x: Tensor, y: Tensor) -> bool:
    """True if same shape and same values (torch.equal)."""
    return tuple(x.shape) == tuple(y.shape) and builtins.bool(np.array_equal(x._data, y._data))


def allclose(x: Tensor, y: Tensor, rtol: float = 1e-5, atol: float = 1e-8, equal_nan: bool = False) -> bool:
    return builtins.bool(isclose(x, y, rtol, atol, equal_nan)._data.all())


def isclose(x: Tensor, y: Tensor, rtol: float = 1e-5, atol: float = 1e-8, equal_nan: bool = False) -> Tensor:
    """|x - y| <= atol + rtol * |y|, elementwise. Like torch, both tensors must have one dtype."""
    if x.dtype is not y.dtype:
        raise RuntimeError(f"{x.dtype.scalar_type} did not match {y.dtype.scalar_type}")
    return Tensor._from_array(np.isclose(x._data, y._data, rtol=rtol, atol=atol, equal_nan=equal_nan), bool_)


def _float_test(ufunc: Callable, integers_pass: bool) -> Callable[[Tensor], Tensor]:
    """isnan, isinf, isfinite: only a floating dtype can hold nan or inf, so every element of an
    integer or bool tensor gets the same answer, ``integers_pass``."""

    def test(x: Tensor) -> Tensor:
        if x.dtype.is_floating_point:
            return Tensor._from_array(ufunc(x._data), bool_)
        return (x.new_ones if integers_pass else x.new_zeros)(x.shape, dtype=bool_)

    test.__name__ = test.__qualname__ = ufunc.__name__
    return test


isnan = _float_test(np.isnan, integers_pass=False)
isinf = _float_test(np.isinf, integers_pass=False)
isfinite = _float_test(np.isfinite, integers_pass=True)


# --- in-place: compute out of place, then write into self's memory -----------------------
def _can_cast(src: dtype, dst: dtype) -> bool:
    """torch's rule for in-place results: never float -> integer, never non-bool -> bool."""
    if src.is_floating_point and not dst.is_floating_point:
        return False
    return not (src is not bool_ and dst is bool_)


def _has_internal_overlap(t: Tensor) -> bool:
    return any(st == 0 and sz > 1 for sz, st in zip(t.shape, t.stride(), strict=True))


def records_history(self: Tensor, inputs: Any) -> bool:
    """Will writing ``op(self, *inputs)`` into self be recorded by autograd?

    Yes in grad mode when self, one of the other inputs, or the base self is a view of requires grad.
    """
    if not grad_state.enabled:
        return False
    if self._requires_grad or builtins.any(getattr(x, "_requires_grad", False) for x in inputs):
        return True
    return self._view_info is not None and self._view_info.base._requires_grad


def check_inplace_allowed(self: Tensor, *inputs: Any) -> None:
    """torch's guards before writing ``op(self, *inputs)`` into self: a view that allows it
    (see ``autograd.copy_slices``), not a leaf that requires grad, no overlap."""
    if records_history(self, inputs):
        if self._view_info is not None:
            check_view_write(self)
        if self._requires_grad and self.grad_fn is None:
            raise RuntimeError(
                "a leaf Variable that requires grad is being used in an in-place operation."
            )
    if _has_internal_overlap(self):
        raise RuntimeError(
            "unsupported operation: more than one element of the written-to tensor refers to a "
            "single memory location. Please clone() the tensor before performing the operation."
        )


def write_inplace(self: Tensor, result: Tensor, any_cast: bool = False) -> Tensor:
    """Store ``result`` into self's storage, bump the version, and take over result's history."""
    store_result(self, result, any_cast)
    if result._requires_grad:
        self._requires_grad = True
        self.grad_fn = result.grad_fn
        self._output_nr = result._output_nr
        _saved_output_is_now(self, result.grad_fn)
    return self


def store_result(self: Tensor, result: Tensor, any_cast: bool = False) -> None:
    """Check an in-place result against self (shape, dtype), copy it in and bump the version."""
    if tuple(result.shape) != tuple(self.shape):
        raise RuntimeError(
            f"output with shape {list(self.shape)} doesn't match the broadcast shape "
            f"{list(broadcast_pair(self.shape, result.shape)) if _broadcasts(self, result) else list(result.shape)}"
        )
    if not any_cast and not _can_cast(result.dtype, self.dtype):
        raise RuntimeError(
            f"result type {result.dtype.scalar_type} can't be cast to the desired output "
            f"type {self.dtype.scalar_type}"
        )
    self._data[...] = result._data
    self._storage.version += 1


def _saved_output_is_now(self: Tensor, node: Any) -> None:
    """An op that saved its own output (``exp_`` keeps e^x for backward) now finds it in self,
    at self's new version: a later in-place write to self is then caught in backward, as in torch."""
    for saved in node._saved or ():
        if saved is not None and saved.is_output:
            saved.data = self.detach()
            saved.version = self._storage.version


def _broadcasts(a: Tensor, b: Tensor) -> bool:
    try:
        broadcast_pair(a.shape, b.shape)
        return True
    except RuntimeError:
        return False


def inplace(op: Callable[..., Tensor], self: Tensor, *args: Any, any_cast: bool = False, **kwargs: Any) -> Tensor:
    """Run ``op(self, *args)`` out of place and write the result into self.

    When a graph is being recorded, the op sees a snapshot of self's old value (same history,
    copied data), so the backward of the op still has the values it needs after the write.
    A write into a view rewrites its base's history instead (``autograd.copy_slices``).
    """
    inputs = (*args, *kwargs.values())
    check_inplace_allowed(self, *inputs)
    recording = records_history(self, inputs)
    if recording and self._view_info is not None:
        return write_through_view(self, op, args, kwargs, _store_and_track_saved(any_cast))
    before = _snapshot(self) if recording else self
    return write_inplace(self, op(before, *args, **kwargs), any_cast)


def _store_and_track_saved(any_cast: bool) -> Callable[[Tensor, Tensor], None]:
    """How a write through a view stores its result: as any in-place write, and an op that saved
    its own output now finds it in the view (see :func:`_saved_output_is_now`)."""

    def store(view: Tensor, result: Tensor) -> None:
        store_result(view, result, any_cast)
        if result.grad_fn is not None:
            _saved_output_is_now(view, result.grad_fn)

    return store


def _snapshot(t: Tensor) -> Tensor:
    copy = Tensor._from_array(t._data.copy(), t.dtype)
    copy._requires_grad = t._requires_grad
    copy.grad_fn = t.grad_fn
    copy._output_nr = t._output_nr
    if t._requires_grad and t.grad_fn is None:  # only possible under no_grad: no graph anyway
        copy._requires_grad = False
    return copy


def add_(self: Tensor, other: Operand, *, alpha: Any = 1) -> Tensor:
    if fast.enabled and (alpha == 1 and alpha is not True) and fast_inplace.ufunc_into_self(np.add, self, other):
        return self
    return inplace(add, self, other, alpha=alpha)


def sub_(self: Tensor, other: Operand, *, alpha: Any = 1) -> Tensor:
    if fast.enabled and (alpha == 1 and alpha is not True) and fast_inplace.ufunc_into_self(np.subtract, self, other):
        return self
    return inplace(sub, self, other, alpha=alpha)


def mul_(self: Tensor, other: Operand) -> Tensor:
    if fast.enabled and fast_inplace.ufunc_into_self(np.multiply, self, other):
        return self
    return inplace(mul, self, other)


def div_(self: Tensor, other: Operand, *, rounding_mode: str | None = None) -> Tensor:
    return inplace(div, self, other, rounding_mode=rounding_mode)


def floor_divide_(self: Tensor, other: Operand) -> Tensor:
    return inplace(floor_divide, self, other)


def remainder_(self: Tensor, other: Operand) -> Tensor:
    return inplace(remainder, self, other)


def pow_(self: Tensor, exponent: Operand) -> Tensor:
    return inplace(pow, self, exponent)


def clamp_(self: Tensor, min: Operand = None, max: Operand = None) -> Tensor:  # noqa: A002
    return inplace(clamp, self, min, max)


def round_(self: Tensor, *, decimals: int = 0) -> Tensor:
    return inplace(round, self, decimals=decimals)


def trunc_(self: Tensor) -> Tensor:
    return inplace(trunc, self)


Tensor.trunc = trunc  # type: ignore[attr-defined]
Tensor.trunc_ = trunc_  # type: ignore[attr-defined]


def _unary_inplace(op: Callable[[Tensor], Tensor]) -> Callable[[Tensor], Tensor]:
    def op_(self: Tensor) -> Tensor:
        return inplace(op, self)

    op_.__name__ = op.__name__ + "_"
    op_.__doc__ = f"In-place {op.__name__}: writes into self and returns it."
    return op_


neg_, abs_, exp_, log_, sqrt_, sin_, cos_, tanh_, sigmoid_, relu_, floor_, ceil_, sign_ = (
    _unary_inplace(f) for f in (neg, abs, exp, log, sqrt, sin, cos, tanh, sigmoid, relu, floor, ceil, sign)
)


class Fill(Function):
    """Every element set to one number. The old values are forgotten: their gradient is 0."""

    backward_name = "FillBackward2"

    @staticmethod
    def forward(ctx: Any, x: Tensor, value: Operand) -> Tensor:
        scalar = value.item() if isinstance(value, Tensor) else value
        _check_fits(scalar, x.dtype)
        return Tensor._from_array(np.full(x.shape, _operand(scalar, x.dtype), dtype=x.dtype.numpy), x.dtype)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        return grad * 0, None


class FillTensor(Fill):
    """fill_ with a 0-d tensor: that tensor receives the sum of the gradient (it is every element)."""

    backward_name = "FillBackward3"

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        return grad * 0, grad.sum()


class Zero(Fill):
    """zero_: fill with 0."""

    backward_name = "ZeroBackward0"


def _check_fits(value: Any, dt: dtype) -> None:
    """Where torch stores a Python int as an element (fill_, where) it must fit the integer dtype."""
    if dt.category == 1 and isinstance(value, int):
        bits = np.iinfo(dt.numpy)
        lowest = -bits.max if bits.min == 0 else bits.min  # an unsigned type also takes -max..-1
        if not lowest <= value <= bits.max:
            c_name = {"uint8": "uint8_t", "int32": "int", "int64": "int64_t"}[dt.name]
            raise RuntimeError(f"value cannot be converted to type {c_name} without overflow")


class Copy(Function):
    """x's elements replaced by src's (broadcast, cast to x's dtype). d/dx = 0, d/dsrc = 1."""

    backward_name = "CopyBackwards"

    @staticmethod
    def forward(ctx: Any, x: Tensor, src: Tensor) -> Tensor:
        shape = broadcast_pair(x.shape, src.shape)
        if shape != tuple(x.shape):
            raise RuntimeError(
                f"output with shape {list(x.shape)} doesn't match the broadcast shape {list(shape)}"
            )
        values = np.broadcast_to(src._data.astype(x.dtype.numpy, copy=False), shape)
        return Tensor._from_array(values.copy(), x.dtype)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        return grad * 0, grad


def copy_(self: Tensor, src: Tensor) -> Tensor:
    """Write src (broadcast to self's shape, cast to self's dtype) into self."""
    if not isinstance(src, Tensor):
        raise TypeError(f"copy_(): argument 'src' must be Tensor, not {type(src).__name__}")
    return inplace(Copy.apply, self, src, any_cast=True)


def fill_(self: Tensor, value: Operand) -> Tensor:
    """Set every element to ``value`` (a number or a 0-d tensor)."""
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise RuntimeError(
                f"fill_ only supports 0-dimension value tensor but got tensor with {value.ndim} dimensions."
            )
        return inplace(FillTensor.apply, self, value, any_cast=True)
    return inplace(Fill.apply, self, value, any_cast=True)


def zero_(self: Tensor) -> Tensor:
    """Set every element to 0."""
    return inplace(Zero.apply, self, 0, any_cast=True)
