"""Piecewise-linear activations: hardtanh, relu6, leaky_relu, prelu, rrelu, hardsigmoid, hardswish,
threshold, hardshrink, softshrink.

Straight pieces joined at kinks: cheap to compute, and the gradient is a constant per piece. At a
kink torch picks one side, and so does each backward here (the comparisons are strict or not,
exactly as torch's kernels): hardtanh's slope is 0 at min_val and max_val, leaky_relu's is the
negative slope at 0, hardswish's is 0 at -3 and 1 at 3. The "hard" ones approximate tanh,
sigmoid and swish with lines, as mobile networks do.
"""

from __future__ import annotations

import numpy as np

from ..._dtype import bool_
from ..._random import rand
from ..._tensor import Tensor, require_tensors
from ...autograd.function import Function, FunctionCtx
from ...ops.broadcasting import sum_to_shape
from ...ops.comparison import where
from ...ops.inplace import inplace as write_into
from ...ops.promotion import _not_implemented_for
from .smooth_activation import _result, require_float

ONE_SIXTH_AS_FLOAT32 = float(np.float32(1.0) / np.float32(6.0))

__all__ = [
    "hardshrink", "hardsigmoid", "hardswish", "hardtanh", "hardtanh_", "leaky_relu", "leaky_relu_", "prelu", "relu6",
    "rrelu", "rrelu_", "softshrink", "threshold", "threshold_",
]


# --- hardtanh and relu6 ---------------------------------------------------------------------
class Hardtanh(Function):
    """clamp(x, min_val, max_val). d/dx = 1 strictly between the bounds, 0 elsewhere."""

    backward_name = "HardtanhBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, min_val: float, max_val: float) -> Tensor:
        ctx.save_for_backward(x)
        ctx.bounds = min_val, max_val
        return _result(np.clip(x._data, min_val, max_val), x)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        min_val, max_val = ctx.bounds
        return where((x > min_val) & (x < max_val), grad, 0.0), None, None


def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False) -> Tensor:  # noqa: A002
    """Also defined for integer tensors, whose bounds are then truncated to integers, as in torch."""
    if not isinstance(input, Tensor):
        require_tensors("hardtanh", ("input", input))
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    if input.dtype is bool_:
        raise RuntimeError("Bool inputs not supported for hardtanh")
    if not input.dtype.is_floating_point:
        min_val, max_val = int(min_val), int(max_val)
    return write_into(Hardtanh.apply, input, min_val, max_val) if inplace else Hardtanh.apply(input, min_val, max_val)


def hardtanh_(input: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:  # noqa: A002
    return hardtanh(input, min_val, max_val, inplace=True)


def relu6(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    """min(max(x, 0), 6): hardtanh between 0 and 6, and torch records it as such."""
    return hardtanh(input, 0.0, 6.0, inplace)


# --- leaky and parametric relu ----------------------------------------------------------------
class LeakyRelu(Function):
    """x for x > 0, negative_slope * x else: negative inputs keep a small gradient."""

    backward_name = "LeakyReluBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, negative_slope: float) -> Tensor:
        ctx.save_for_backward(x)
        ctx.negative_slope = negative_slope
        a = x._data
        return _result(np.where(a > 0, a, a * negative_slope), x)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        return where(x > 0, grad, grad * ctx.negative_slope), None


class LeakyReluInPlace(LeakyRelu):
    """leaky_relu_: torch's in-place node (``LeakyReluBackward1``) reads the slope off the output,
    which only works for a slope >= 0; a negative one fails in backward."""

    backward_name = "LeakyReluBackward1"

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        if ctx.negative_slope < 0:
            raise RuntimeError(
                "In-place leakyReLu backward calculation is triggered with a negative slope which is not supported. "
                "This is caused by calling in-place forward function with a negative slope, please call out-of-place "
                "version instead. File an issue at https://github.com/pytorch/pytorch if you do require supporting "
                "in-place leakRelu backward calculation with negative slope"
            )
        return LeakyRelu.backward(ctx, grad)


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:  # noqa: A002
    require_float("leaky_relu", "leaky_relu_cpu", input)
    return write_into(LeakyReluInPlace.apply, input, negative_slope) if inplace else LeakyRelu.apply(input, negative_slope)


def leaky_relu_(input: Tensor, negative_slope: float = 0.01) -> Tensor:  # noqa: A002
    return leaky_relu(input, negative_slope, inplace=True)


class Prelu(Function):
    """leaky_relu whose negative slope is learned: one weight, or one per channel (dim 1).

    d/dx = 1 or w; d/dw = sum of grad * x over the negative inputs of w's channel.
    """

    backward_name = "PreluKernelBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, weight: Tensor) -> Tensor:
        ctx.save_for_backward(x, weight)
        ctx.weight_shape = tuple(weight.shape)
        a = x._data
        return _result(np.where(a > 0, a, a * _per_channel(weight, x)._data), x)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        x, weight = ctx.saved_tensors
        w = _per_channel(weight, x)  # reshaped here, in the graph, so that d(grad_x)/dw exists
        grad_x = where(x > 0, grad, grad * w) if ctx.needs_input_grad[0] else None
        grad_w = None
        if ctx.needs_input_grad[1]:
            grad_w = sum_to_shape(where(x > 0, 0.0, grad * x), w.shape).reshape(ctx.weight_shape)
        return grad_x, grad_w


def _per_channel(weight: Tensor, x: Tensor) -> Tensor:
    """The weight shaped to broadcast along x's channel dim (dim 1): (C, 1, ..., 1)."""
    if weight.numel() == 1:
        return weight.reshape([1] * x.ndim)
    return weight.reshape([-1] + [1] * (x.ndim - 2))


def prelu(input: Tensor, weight: Tensor) -> Tensor:  # noqa: A002
    if not isinstance(input, Tensor) or not isinstance(weight, Tensor):
        require_tensors("prelu", ("input", input), ("weight", weight))
    if weight.ndim > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = {weight.ndim}")
    if input.dtype is not weight.dtype:
        raise RuntimeError(
            f"prelu: Type promoting not supported. Got {input.dtype.scalar_type} and {weight.dtype.scalar_type}"
        )
    if weight.numel() != 1:
        if input.ndim == 0:
            raise RuntimeError("Not allow zero-dim input tensor.")
        channels = input.shape[1] if input.ndim >= 2 else 1
        if weight.numel() != channels:
            raise RuntimeError(
                "Mismatch of parameter numbers and input channel size. "
                f"Found parameter numbers = {weight.numel()} and channel size = {channels}."
            )
    return Prelu.apply(input, weight)


# --- hard sigmoid and hard swish --------------------------------------------------------------
class Hardsigmoid(Function):
    """relu6(x + 3) / 6: a line from (-3, 0) to (3, 1). d/dx = 1/6 strictly inside, 0 outside.

    torch's kernel writes the slope as the float literal 1.0f / 6.0f, so even a float64 gradient
    is multiplied by 1/6 rounded to float32 (a 3e-8 relative difference we keep, to match).
    Deliberate difference: torch cannot differentiate this backward again (its
    ``hardsigmoid_backward`` has no derivative); here it is tensor ops, so double backward works.
    """

    backward_name = "HardsigmoidBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor) -> Tensor:
        ctx.save_for_backward(x)
        return _result(np.clip(x._data + 3, 0, 6) / 6, x)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        return where((x > -3) & (x < 3), grad * ONE_SIXTH_AS_FLOAT32, 0.0)


def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    require_float("hardsigmoid", "hardsigmoid_cpu", input)
    return write_into(Hardsigmoid.apply, input) if inplace else Hardsigmoid.apply(input)


class Hardswish(Function):
    """x * hardsigmoid(x). d/dx = 0 up to -3, x/3 + 1/2 strictly between -3 and 3, 1 from 3 on."""

    backward_name = "HardswishBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor) -> Tensor:
        ctx.save_for_backward(x)
        a = x._data
        return _result(a * np.clip(a + 3, 0, 6) / 6, x)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        middle = where(x < 3, grad * (x / 3 + 0.5), grad)
        return where(x > -3, middle, 0.0)


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    require_float("hardswish", "hardswish_cpu", input)
    return write_into(Hardswish.apply, input) if inplace else Hardswish.apply(input)


# --- randomised leaky relu ------------------------------------------------------------------------
class RreluWithNoise(Function):
    """leaky_relu whose negative slope is drawn per element from U(lower, upper) in training
    (a regulariser), and is the mean (lower + upper) / 2 in evaluation. d/dx = 1 or the slope used."""

    backward_name = "RreluWithNoiseBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, slopes: Tensor) -> Tensor:
        ctx.save_for_backward(slopes)
        a = x._data
        return _result(a * slopes._data, x)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        (slopes,) = ctx.saved_tensors
        return grad * slopes, None


def rrelu(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False, inplace: bool = False) -> Tensor:  # noqa: A002
    """In training the random slopes come from tensorlab's generator: same distribution as torch,
    not the same numbers (the two generators differ)."""
    require_float("rrelu", "leaky_relu_cpu", input)
    positive = input._data > 0
    if training:
        noise = rand(*input.shape, dtype=input.dtype)._data * (upper - lower) + lower
    else:
        noise = np.full(input.shape, (lower + upper) / 2, dtype=input.dtype.numpy)
    slopes = Tensor._from_array(np.where(positive, 1, noise), input.dtype)
    return write_into(RreluWithNoise.apply, input, slopes) if inplace else RreluWithNoise.apply(input, slopes)


def rrelu_(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False) -> Tensor:  # noqa: A002
    return rrelu(input, lower, upper, training, inplace=True)


# --- threshold and shrinking ------------------------------------------------------------------------
class Threshold(Function):
    """x where x > threshold, else value. d/dx = 1 where x > threshold, else 0 (relu is threshold(x, 0, 0))."""

    backward_name = "ThresholdBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, threshold: float, value: float) -> Tensor:
        ctx.save_for_backward(x)
        ctx.threshold = threshold
        return _result(np.where(x._data > threshold, x._data, value), x)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        return where(x > ctx.threshold, grad, 0.0), None, None


def threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:  # noqa: A002
    """Integer tensors take integer bounds (truncated), as in torch."""
    return _threshold(input, threshold, value, inplace)


def threshold_(input: Tensor, threshold: float, value: float) -> Tensor:  # noqa: A002
    return _threshold(input, threshold, value, inplace=True)


def _threshold(input: Tensor, threshold: float, value: float, inplace: bool) -> Tensor:  # noqa: A002
    if not isinstance(input, Tensor):
        require_tensors("threshold", ("input", input))
    if input.dtype is bool_:
        raise _not_implemented_for("threshold_cpu", input.dtype)
    if not input.dtype.is_floating_point:
        threshold, value = int(threshold), int(value)
    return write_into(Threshold.apply, input, threshold, value) if inplace else Threshold.apply(input, threshold, value)


class Hardshrink(Function):
    """x where |x| > lambd, else 0: small values are set to 0. d/dx = 1 outside [-lambd, lambd]."""

    backward_name = "HardshrinkBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, lambd: float) -> Tensor:
        ctx.save_for_backward(x)
        ctx.lambd = lambd
        a = x._data
        return _result(np.where((a >= -lambd) & (a <= lambd), 0, a), x)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        return where((x < -ctx.lambd) | (x > ctx.lambd), grad, 0.0), None


def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:  # noqa: A002
    require_float("hardshrink", "hardshrink_cpu", input)
    return Hardshrink.apply(input, lambd)


class Softshrink(Function):
    """x - lambd above lambd, x + lambd below -lambd, 0 between: every value moves lambd towards 0
    (the proximal step of an L1 penalty). d/dx = 1 outside [-lambd, lambd]."""

    backward_name = "SoftshrinkBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, lambd: float) -> Tensor:
        ctx.save_for_backward(x)
        ctx.lambd = lambd
        a = x._data
        return _result(np.where(a > lambd, a - lambd, np.where(a < -lambd, a + lambd, 0)), x)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        return where((x < -ctx.lambd) | (x > ctx.lambd), grad, 0.0), None


def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:  # noqa: A002
    require_float("softshrink", "softshrink_check", input)
    if lambd < 0:
        largest = float(np.finfo(input.dtype.numpy).max)
        raise RuntimeError(f"lambda must be in range [0, {largest:g}] for input dtype {input.dtype.scalar_type}, but found {lambd:g}")
    return Softshrink.apply(input, lambd)
