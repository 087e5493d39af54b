"""Smooth activations: softplus, elu, selu, celu, silu, mish, logsigmoid, softsign, tanhshrink.

Each curve bends smoothly from a small (or zero) output for negative inputs to the identity for
positive ones, which is why they are used in place of relu. Each is one ``Function`` with the
forward in NumPy and the backward in tensor ops (so gradients of gradients work), written the
way torch's kernel computes it, overflow included: ``softplus`` with a large ``threshold`` gives
inf where torch does. Only floating-point inputs are accepted, with torch's NotImplementedError
otherwise; softsign, a composite op in torch, also takes integers.
"""

from __future__ import annotations

import numpy as np

from ..._dtype import float16
from ..._tensor import Tensor, require_tensors
from ...autograd.function import Function, FunctionCtx
from ...ops.comparison import where
from ...ops.inplace import inplace as write_into
from ...ops.promotion import _not_implemented_for
from ...ops.unary_math import _stable_sigmoid

__all__ = ["celu", "celu_", "elu", "elu_", "logsigmoid", "mish", "selu", "selu_", "silu", "softplus", "softsign", "tanhshrink"]

SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


def require_float(function: str, kernel: str, x: object) -> None:
    """torch's errors for an activation kernel that exists for float dtypes only."""
    if not isinstance(x, Tensor):
        require_tensors(function, ("input", x))
    assert isinstance(x, Tensor)
    if not x.dtype.is_floating_point:
        raise _not_implemented_for(kernel, x.dtype)


def _opmath(x: Tensor) -> np.ndarray:
    """The values to compute with: float16 in float32, as torch's CPU kernels do (exp(12) already
    overflows float16), rounded back to float16 by ``_result``."""
    return x._data.astype(np.float32) if x.dtype.numpy == np.float16 else x._data


def _result(values: np.ndarray, like: Tensor) -> Tensor:
    return Tensor._from_array(np.asarray(values, dtype=like.dtype.numpy), like.dtype)


# --- softplus -------------------------------------------------------------------------------
class Softplus(Function):
    """softplus(x) = log(1 + exp(beta x)) / beta, and x itself where beta x > threshold.

    d/dx = z / (z + 1), z = exp(beta x) (= sigmoid(beta x)); 1 above the threshold. The threshold
    is what keeps exp from overflowing: raise it past ~709 (float64) and torch's inf comes back.
    """

    backward_name = "SoftplusBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, beta: float, threshold: float) -> Tensor:
        ctx.save_for_backward(x)
        ctx.beta, ctx.threshold = beta, threshold
        a = _opmath(x)
        with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
            scaled = a * beta
            return _result(np.where(scaled > threshold, a, np.log1p(np.exp(scaled)) / beta), x)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        scaled = (x.float() if x.dtype is float16 else x) * ctx.beta  # float16: in float32, as torch
        linear = scaled > ctx.threshold
        with np.errstate(over="ignore", invalid="ignore"):  # torch's inf / inf = nan, silently
            z = where(linear, 0.0, scaled).exp()  # exp only where the curve is used
            return grad * where(linear, 1.0, z / (z + 1)).to(x.dtype), None, None


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:  # noqa: A002 - torch's name
    require_float("softplus", "softplus_cpu", input)
    return Softplus.apply(input, beta, threshold)


# --- the ELU family -------------------------------------------------------------------------
class Elu(Function):
    """torch's one ELU kernel: scale * x for x > 0, alpha * scale * (exp(input_scale x) - 1) else.

    ELU is (alpha, 1, 1); SELU is (1.6733, 1.0507, 1), the constants that keep activations at
    mean 0 and variance 1; CELU is (alpha, 1, 1/alpha). d/dx = scale for x > 0, else
    alpha * scale * input_scale * exp(input_scale x): at x = 0 the left slope wins.
    """

    backward_name = "EluBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, alpha: float, scale: float, input_scale: float) -> Tensor:
        ctx.save_for_backward(x)
        ctx.coefficients = alpha, scale, input_scale
        a = _opmath(x)
        negative = alpha * scale * np.expm1(np.minimum(a, 0) * input_scale)
        return _result(np.where(a > 0, a * scale, negative), x)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        alpha, scale, input_scale = ctx.coefficients
        left = (x.clamp(max=0) * input_scale).exp() * (alpha * scale * input_scale)
        return grad * where(x > 0, scale, left), None, None, None


class Celu(Elu):
    """ELU with the input scaled by 1/alpha, so the curve is C1 for every alpha (torch's own node)."""

    backward_name = "CeluBackward0"


class EluInPlace(Elu):
    """elu_/selu_: torch's in-place node (``EluBackward1``) computes the slope from the output,
    which only determines the input when alpha >= 0; a negative alpha fails in backward."""

    backward_name = "EluBackward1"

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        if ctx.coefficients[0] < 0:
            raise RuntimeError(
                "In-place elu backward calculation is triggered with a negative slope which is not supported. "
                "This is caused by calling in-place forward function with a negative slope, please call "
                "out-of-place version instead."
            )
        return Elu.backward(ctx, grad)


class CeluInPlace(EluInPlace):
    backward_name = "CeluBackward1"


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:  # noqa: A002
    require_float("elu", "elu_cpu", input)
    return write_into(EluInPlace.apply, input, alpha, 1.0, 1.0) if inplace else Elu.apply(input, alpha, 1.0, 1.0)


def elu_(input: Tensor, alpha: float = 1.0) -> Tensor:  # noqa: A002
    return elu(input, alpha, inplace=True)


def selu(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    require_float("selu", "elu_cpu", input)
    args = (SELU_ALPHA, SELU_SCALE, 1.0)
    return write_into(EluInPlace.apply, input, *args) if inplace else Elu.apply(input, *args)


def selu_(input: Tensor) -> Tensor:  # noqa: A002
    return selu(input, inplace=True)


def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:  # noqa: A002
    require_float("celu", "elu_cpu", input)
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    args = (alpha, 1.0, 1.0 / alpha)
    return write_into(CeluInPlace.apply, input, *args) if inplace else Celu.apply(input, *args)


def celu_(input: Tensor, alpha: float = 1.0) -> Tensor:  # noqa: A002
    return celu(input, alpha, inplace=True)


# --- sigmoid-weighted curves ----------------------------------------------------------------
class Silu(Function):
    """silu(x) = x * sigmoid(x) (also called swish). d/dx = s (1 + x (1 - s)), s = sigmoid(x)."""

    backward_name = "SiluBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor) -> Tensor:
        ctx.save_for_backward(x)
        a = _opmath(x)
        return _result(a * _stable_sigmoid(a), x)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        s = x.sigmoid()
        return grad * s * (1 + x * (1 - s))


def silu(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    require_float("silu", "silu_cpu", input)
    return write_into(Silu.apply, input) if inplace else Silu.apply(input)


class Mish(Function):
    """mish(x) = x * tanh(softplus(x)). d/dx = t + x sigmoid(x) (1 - t^2), t = tanh(softplus(x)).

    softplus here is log1p(exp(x)) with no threshold, as in torch: exp overflows to inf for large
    x, tanh(inf) = 1, and the result is still x.
    """

    backward_name = "MishBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor) -> Tensor:
        ctx.save_for_backward(x)
        a = _opmath(x)
        with np.errstate(over="ignore"):
            return _result(a * np.tanh(np.log1p(np.exp(a))), x)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        t = Softplus.apply(x, 1.0, 20.0).tanh()  # tanh(20) is 1 in float64 too: same t
        return grad * (t + x * x.sigmoid() * (1 - t * t))


def mish(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    require_float("mish", "mish_cpu", input)
    return write_into(Mish.apply, input) if inplace else Mish.apply(input)


class LogSigmoid(Function):
    """log(sigmoid(x)) = min(x, 0) - log1p(exp(-|x|)): never log(0), never exp of a large number.

    d/dx = 1 - sigmoid(x) = sigmoid(-x).
    """

    backward_name = "LogSigmoidBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor) -> Tensor:
        ctx.save_for_backward(x)
        a = _opmath(x)
        return _result(np.minimum(a, 0) - np.log1p(np.exp(-np.abs(a))), x)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        return grad * (-x).sigmoid()


def logsigmoid(input: Tensor) -> Tensor:  # noqa: A002
    require_float("logsigmoid", "log_sigmoid_cpu", input)
    return LogSigmoid.apply(input)


def softsign(input: Tensor) -> Tensor:  # noqa: A002
    """x / (|x| + 1): a composite of tensor ops in torch too, so autograd derives the gradient
    (and a list fails as in torch, with AttributeError: a list has no ``abs``)."""
    return input / (input.abs() + 1)


def tanhshrink(input: Tensor) -> Tensor:  # noqa: A002
    """x - tanh(x): near 0 for small x, x - 1 for large x (a composite op, as in torch)."""
    return input - input.tanh()
