"""Activations as functions: relu, sigmoid, tanh, gelu, and softmax/log_softmax (ops/softmax.py).

GELU is one Function with its own backward (``GeluBackward0``), written with tensor ops so it
can be differentiated again; the others are the tensor ops themselves.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..._dtype import float16
from ..._tensor import Tensor, require_tensors
from ...autograd.function import Function, FunctionCtx
from ...ops import unary_math
from ...ops.join import cat
from ...ops.softmax import _softmax_dim, log_softmax, softmax
from ...ops.unary_math import _stable_sigmoid

__all__ = ["gelu", "log_softmax", "relu", "sigmoid", "softmax", "tanh"]
__all__ += ["glu", "relu_", "softmin"]  # API breadth, beyond the course


def relu(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002 - torch's name
    return input.relu_() if inplace else unary_math.relu(input)


def sigmoid(input: Tensor) -> Tensor:  # noqa: A002
    return input.sigmoid()


def tanh(input: Tensor) -> Tensor:  # noqa: A002
    return input.tanh()


_erf = np.frompyfunc(math.erf, 1, 1)


def erf(a: np.ndarray) -> np.ndarray:
    """The error function, elementwise (math.erf per element: exact, fine for course-sized arrays)."""
    return _erf(a).astype(a.dtype) if a.size else a.copy()


class Erf(Function):
    """erf(x) = 2/sqrt(pi) * integral from 0 to x of exp(-s^2) ds; d/dx = 2/sqrt(pi) * exp(-x^2).

    Only GELU's backward needs it, as a differentiable op, so gradients of GELU's gradient work.
    """

    backward_name = "ErfBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor) -> Tensor:
        ctx.save_for_backward(x)
        return Tensor._from_array(erf(x._data), x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        return grad * (-x * x).exp() * (2 / math.sqrt(math.pi))


class Gelu(Function):
    """GELU(x) = x * Phi(x), Phi the standard normal CDF = (1 + erf(x / sqrt 2)) / 2.

    d/dx = Phi(x) + x * phi(x), phi(x) = exp(-x^2/2) / sqrt(2 pi). With ``approximate='tanh'``:
    Phi(x) ~ (1 + tanh(k (x + 0.044715 x^3))) / 2, k = sqrt(2/pi), differentiated by the chain rule.
    The backward is written with tensor ops, so it can itself be differentiated (double backward).
    """

    backward_name = "GeluBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, approximate: str) -> Tensor:
        ctx.save_for_backward(x)
        ctx.approximate = approximate
        a = x._data.astype(np.float32) if x.dtype is float16 else x._data  # torch computes half in float32
        if approximate == "tanh":
            inner = math.sqrt(2 / math.pi) * (a + 0.044715 * a**3)
            return Tensor._from_array(0.5 * a * (1 + np.tanh(inner)), x.dtype)
        return Tensor._from_array(0.5 * a * (1 + erf(a / math.sqrt(2))), x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        half = x.dtype is float16
        if half:  # x^3 overflows float16 from x = 40 on: compute the slope in float32, as torch
            x = x.float()
        if ctx.approximate == "tanh":
            k = math.sqrt(2 / math.pi)
            t = (k * (x + 0.044715 * x * x * x)).tanh()
            slope = 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * k * (1 + 3 * 0.044715 * x * x)
        else:
            cdf = 0.5 * (1 + Erf.apply(x / math.sqrt(2)))
            slope = cdf + x * (-0.5 * x * x).exp() / math.sqrt(2 * math.pi)
        return grad * (slope.to(float16) if half else slope), None


def gelu(input: Tensor, approximate: str = "none") -> Tensor:  # noqa: A002
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    try:
        return Gelu.apply(input, approximate)
    except AttributeError:
        require_tensors("gelu", ("input", input))
        raise


def relu_(input: Tensor) -> Tensor:  # noqa: A002
    return input.relu_()


def softmin(input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None) -> Tensor:  # noqa: A002
    """softmax(-x): the smallest entry gets the largest weight."""
    if dim is None:
        dim = _softmax_dim(input.ndim, "softmin")
    return softmax(-input, dim, dtype=dtype)


class Glu(Function):
    """GLU(a, b) = a * sigmoid(b), a and b the two halves of the input along ``dim``: b gates a.

    d/da = sigmoid(b), d/db = a sigmoid(b) (1 - sigmoid(b)), put back side by side along dim.
    """

    backward_name = "GluBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, dim: int) -> Tensor:
        ctx.save_for_backward(x)
        ctx.dim = dim
        a, b = np.split(x._data, 2, axis=dim)
        return Tensor._from_array(a * _stable_sigmoid(b), x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        a, b = x.chunk(2, ctx.dim)
        gate = b.sigmoid()
        return cat([grad * gate, grad * a * gate * (1 - gate)], ctx.dim), None


def glu(input: Tensor, dim: int = -1) -> Tensor:  # noqa: A002
    if not isinstance(input, Tensor):
        require_tensors("glu", ("input", input))
    if input.ndim == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    dim = dim + input.ndim if dim < 0 else dim
    if input.shape[dim] % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {dim} is size {input.shape[dim]}")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"glu_cpu" not implemented for \'{input.dtype.scalar_type}\'')
    return Glu.apply(input, dim)
