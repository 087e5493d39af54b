"""One-input math: neg, abs, exp, log, sqrt, sin, cos, tanh, sigmoid, relu, clamp, rounding.

Each op is an autograd ``Function`` with its forward (one NumPy ufunc, through
``ops.promotion.unary``) and its backward side by side; relu's backward is its own ``Function``
(``ThresholdBackward``) so that double backward works. Integer inputs of exp, log, sqrt... compute
in the default float dtype. The public functions are built from the classes by ``one_input``.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable

import numpy as np

from .._dtype import bool_, result_type
from .._fast import relu_mask
from .._fast import switch as fast
from .._tensor import Tensor, require_tensors
from ..autograd.function import Function, FunctionCtx
from .broadcasting import broadcast_pair, sum_to_shape
from .comparison import where
from .promotion import (
    Operand,
    _float_dtype,
    _not_implemented_for,
    _operand,
    _restore,
    _save,
    _save_shapes,
    binary,
    unary,
)

__all__ = [
    "abs", "ceil", "clamp", "clip", "cos", "exp", "floor", "log", "neg", "negative", "reciprocal", "relu",
    "round", "rsqrt", "sigmoid", "sign", "sin", "sqrt", "square", "tanh", "trunc",
]


# --- unary --------------------------------------------------------------------------------
class Neg(Function):
    """z = -x. dz/dx = -1."""

    backward_name = "NegBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor) -> Tensor:
        if x.dtype is bool_:
            raise RuntimeError(
                "Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
                "to invert a mask, use the `~` or `logical_not()` operator instead."
            )
        return unary(np.negative, x)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> Tensor:
        return -grad


class Abs(Function):
    """z = |x|. dz/dx = sign(x) (0 at 0)."""

    backward_name = "AbsBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor) -> Tensor:
        if x.dtype is bool_:
            raise _not_implemented_for("abs_cpu", bool_)
        ctx.save_for_backward(x)
        return unary(np.abs, x)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        return grad * x.sign()


class Exp(Function):
    """z = e^x. dz/dx = e^x = z, so the output is what backward keeps."""

    backward_name = "ExpBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor) -> Tensor:
        z = unary(np.exp, x, _float_dtype(x))
        ctx.save_for_backward(z)
        return z

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> Tensor:
        (z,) = ctx.saved_tensors
        return grad * z


class Log(Function):
    """z = ln x. dz/dx = 1/x."""

    backward_name = "LogBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor) -> Tensor:
        ctx.save_for_backward(x)
        with np.errstate(divide="ignore", invalid="ignore"):
            return unary(np.log, x, _float_dtype(x))

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        return grad / x


class Sqrt(Function):
    """z = sqrt(x). dz/dx = 1 / (2 z)."""

    backward_name = "SqrtBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor) -> Tensor:
        with np.errstate(invalid="ignore"):
            z = unary(np.sqrt, x, _float_dtype(x))
        ctx.save_for_backward(z)
        return z

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> Tensor:
        (z,) = ctx.saved_tensors
        return grad / (2 * z)


class Sin(Function):
    """z = sin x. dz/dx = cos x."""

    backward_name = "SinBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor) -> Tensor:
        ctx.save_for_backward(x)
        return unary(np.sin, x, _float_dtype(x))

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        return grad * x.cos()


class Cos(Function):
    """z = cos x. dz/dx = -sin x."""

    backward_name = "CosBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor) -> Tensor:
        ctx.save_for_backward(x)
        return unary(np.cos, x, _float_dtype(x))

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        return -grad * x.sin()


class Tanh(Function):
    """z = tanh x. dz/dx = 1 - z^2."""

    backward_name = "TanhBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor) -> Tensor:
        z = unary(np.tanh, x, _float_dtype(x))
        ctx.save_for_backward(z)
        return z

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> Tensor:
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
    def forward(ctx: FunctionCtx, x: Tensor) -> Tensor:
        z = unary(_stable_sigmoid, x, _float_dtype(x))
        ctx.save_for_backward(z)
        return z

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> Tensor:
        (z,) = ctx.saved_tensors
        return grad * z * (1 - z)


class Relu(Function):
    """z = max(x, 0). dz/dx = 1 where z > 0, else 0."""

    backward_name = "ReluBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor) -> Tensor:
        if x.dtype is bool_:
            raise RuntimeError("Boolean inputs not supported for relu")
        z = binary(np.maximum, x, 0)
        ctx.save_for_backward(z)
        return z

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> Tensor:
        (z,) = ctx.saved_tensors
        return ThresholdBackward.apply(grad, z)


class ThresholdBackward(Function):
    """relu's backward as one op (torch's threshold_backward): dx = grad where z > 0, else 0.

    Itself differentiable, for double backward: in ``grad`` it is the same mask again; in ``z``
    it is 0 (the mask only jumps, at z = 0).
    """

    backward_name = "ThresholdBackwardBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, grad: Tensor, z: Tensor) -> Tensor:
        ctx.save_for_backward(z)
        if fast.enabled:
            return Tensor._from_array(relu_mask.select_where_positive(z._data, grad._data), grad.dtype)
        return Tensor._from_array(np.where(z._data > 0, grad._data, grad.dtype.numpy.type(0)), grad.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad_grad: Tensor) -> tuple:
        (z,) = ctx.saved_tensors
        zero = Tensor._from_array(np.zeros_like(z._data), z.dtype) if ctx.needs_input_grad[1] else None
        return ThresholdBackward.apply(grad_grad, z), zero


class Clamp(Function):
    """z = min(max(x, lo), hi). dz/dx = 1 where lo <= x <= hi (bounds included), else 0; tensor
    bounds get the gradient where they are the value returned. Each is summed back to its input's shape."""

    backward_name = "ClampBackward1"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, lo: Operand, hi: Operand) -> Tensor:
        if lo is None and hi is None:
            raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        bounds = [b for b in (lo, hi) if b is not None]
        dt = result_type(x, *bounds)
        if dt is bool_ and not isinstance(bounds[0], Tensor):
            kernel = "clamp_scalar_cpu" if len(bounds) == 2 else "clamp_min_scalar_cpu" if hi is None else "clamp_max_scalar_cpu"
            raise _not_implemented_for(kernel, dt)
        shape: tuple[int, ...] = x.shape
        for b in bounds:
            shape = broadcast_pair(shape, getattr(b, "shape", ()))
        _save(ctx, x, lo, hi)
        _save_shapes(ctx, x, lo, hi)
        z = x._data if x.dtype is dt else x._data.astype(dt.numpy)
        if lo is not None:
            z = np.maximum(z, _operand(lo, dt))
        if hi is not None:
            z = np.minimum(z, _operand(hi, dt))  # applied last: when lo > hi, every value is hi
        return Tensor._from_array(z, dt)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        x, lo, hi = _restore(ctx)
        inside = x == x
        if lo is not None:
            inside = inside & (x >= lo)
        if hi is not None:
            inside = inside & (x <= hi)
        zero = grad * 0
        x_shape, lo_shape, hi_shape = ctx.shapes
        grad_x = sum_to_shape(where(inside, grad, zero), x_shape)  # tensor bounds may broadcast x
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
        return (
            grad_x,
            None if grad_lo is None else sum_to_shape(grad_lo, lo_shape),
            None if grad_hi is None else sum_to_shape(grad_hi, hi_shape),
        )


def _zero_grad_unary(name: str, ufunc: Callable) -> type[Function]:
    """floor, ceil, trunc, sign: piecewise constant, so their gradient is 0 everywhere."""

    def forward(ctx: FunctionCtx, x: Tensor) -> Tensor:
        if x.dtype is bool_:
            if name == "Sign":
                return Tensor._from_array(x._data.copy(), bool_)
            raise _not_implemented_for(f"{name.lower()}_vml_cpu", bool_)
        if not x.dtype.is_floating_point and name != "Sign":
            return Tensor._from_array(x._data.copy(), x.dtype)  # integers are already whole
        return unary(ufunc, x)

    def backward(ctx: FunctionCtx, grad: Tensor) -> Tensor:
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


class Reciprocal(Function):
    """z = 1/x. dz/dx = -1/x^2 = -z^2: the output is all backward needs."""

    backward_name = "ReciprocalBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor) -> Tensor:
        with np.errstate(divide="ignore", invalid="ignore"):
            z = unary(np.reciprocal, x, _float_dtype(x))
        ctx.save_for_backward(z)
        return z

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> Tensor:
        (z,) = ctx.saved_tensors
        return grad * -(z * z)


class Rsqrt(Function):
    """z = 1/sqrt(x). dz/dx = -x^(-3/2) / 2 = -z^3 / 2: again only the output is kept."""

    backward_name = "RsqrtBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor) -> Tensor:
        with np.errstate(divide="ignore", invalid="ignore"):
            z = unary(lambda a: 1 / np.sqrt(a), x, _float_dtype(x))
        ctx.save_for_backward(z)
        return z

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> Tensor:
        (z,) = ctx.saved_tensors
        return grad * (z * z * z) * -0.5


class Round(Function):
    """Round half to even (2.5 -> 2.), to ``decimals`` places. Piecewise constant: dz/dx = 0."""

    backward_name = "RoundBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, decimals: int = 0) -> Tensor:
        if x.dtype is bool_:
            raise _not_implemented_for("round_vml_cpu", bool_)
        if not x.dtype.is_floating_point:
            if decimals:
                raise _not_implemented_for("round_cpu", x.dtype)
            return Tensor._from_array(x._data.copy(), x.dtype)
        return unary(lambda a: np.round(a, decimals), x)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        return grad * 0, None


# --- the public functions -----------------------------------------------------------------
def one_input(op: type[Function]) -> Callable[[Tensor], Tensor]:
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
    one_input(op) for op in (Neg, Abs, Exp, Log, Sqrt, Sin, Cos, Tanh, Sigmoid, Relu)
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
        return Clamp.apply_as("ClampBackward0", x, min, max)  # torch's name when the bounds are tensors
    return Clamp.apply(x, min, max)


clip = clamp


floor, ceil, sign, trunc = (one_input(op) for op in (Floor, Ceil, Sign, Trunc))
reciprocal, rsqrt = one_input(Reciprocal), one_input(Rsqrt)


def square(x: Tensor) -> Tensor:
    """x * x. torch computes it as ``pow(x, 2)``, so integers stay integers (and bool becomes int64)."""
    from .arithmetic import pow as power

    require_tensors("square", ("input", x))
    return power(x.long() if x.dtype is bool_ else x, 2)


def round(x: Tensor, *, decimals: int = 0) -> Tensor:  # noqa: A001
    return Round.apply_as("RoundBackward1" if decimals else "RoundBackward0", x, decimals)
