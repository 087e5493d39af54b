"""softmax and log_softmax along one dim: exponentiate and normalise, in a numerically safe order.

They are ops of the core library (``Tensor.softmax``, ``nn.functional.softmax`` and
``cross_entropy`` all call them), so they live here rather than in ``nn``: the tensor never
imports the neural-network package. Each is one :class:`Function` with its own backward, as in
torch, so ``grad_fn`` reads ``SoftmaxBackward0`` / ``LogSoftmaxBackward0``; log_softmax's
backward is itself an op (:class:`LogSoftmaxBackwardData`) so that double backward works.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .._tensor import Tensor, _wrap_dim
from ..autograd.function import Function, FunctionCtx

# torch.softmax(input, dim, dtype=None) requires dim, unlike nn.functional.softmax: the namespace
# gets its own two functions (``torch_softmax`` is tensorlab.softmax, see tensorlab/__init__.py).
__all__: list[str] = []


def _softmax_dim(ndim: int, name: str) -> int:
    """torch's legacy choice when ``dim`` is not given (deprecated, with a warning)."""
    warnings.warn(
        f"Implicit dimension choice for {name} has been deprecated. Change the call to include dim=X as an argument.",
        UserWarning,
        stacklevel=3,
    )
    return 0 if ndim in (0, 1, 3) else 1


class Softmax(Function):
    """y = exp(x - max) / sum(exp(x - max)) along dim (subtracting the max avoids overflow).

    dx = y * (g - sum(g * y)), the sum taken along dim: the Jacobian diag(y) - y y^T applied to g.
    """

    backward_name = "SoftmaxBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, dim: int) -> Tensor:
        a = x._data
        if a.size == 0:  # nothing to normalise (and NumPy has no max of an empty axis)
            y = Tensor._from_array(a.copy(), x.dtype)
            ctx.dim = dim
            ctx.save_for_backward(y)
            return y
        shifted = np.exp(a - np.max(a, axis=dim, keepdims=True)) if a.ndim else np.ones_like(a)
        y = Tensor._from_array(shifted / np.sum(shifted, axis=dim, keepdims=True) if a.ndim else shifted, x.dtype)
        ctx.dim = dim
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        (y,) = ctx.saved_tensors
        if y.ndim == 0:
            return grad * 0, None
        return y * (grad - (grad * y).sum(ctx.dim, keepdim=True)), None


class LogSoftmax(Function):
    """y = x - max - log(sum(exp(x - max))) along dim: finite even for logits like 1000.

    dx = g - softmax(x) * sum(g), with softmax(x) = exp(y).
    """

    backward_name = "LogSoftmaxBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, dim: int) -> Tensor:
        a = x._data
        if a.size == 0:  # nothing to normalise (and NumPy has no max of an empty axis)
            y = Tensor._from_array(a.copy(), x.dtype)
        elif a.ndim == 0:
            y = Tensor._from_array(np.zeros_like(a), x.dtype)
        else:
            shifted = a - a.max(axis=dim, keepdims=True)
            shifted -= np.log(np.exp(shifted).sum(axis=dim, keepdims=True))
            y = Tensor._from_array(shifted, x.dtype)
        ctx.dim = dim
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        (y,) = ctx.saved_tensors
        if y.ndim == 0:
            return grad * 0, None
        return LogSoftmaxBackwardData.apply(grad, y, ctx.dim), None


class LogSoftmaxBackwardData(Function):
    """log_softmax's backward as one op (torch's _log_softmax_backward_data):
    dx = g - exp(y) * sum(g) along dim.

    Itself differentiable, for double backward. With e = exp(y) and S = sum(g):
    d/dg of the result, applied to gg: gg - sum(gg * e); d/dy: -gg * e * S (elementwise).
    """

    backward_name = "LogSoftmaxBackwardDataBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, grad: Tensor, y: Tensor, dim: int) -> Tensor:
        g = grad._data
        ctx.save_for_backward(grad, y)
        ctx.dim = dim
        return Tensor._from_array(g - np.exp(y._data) * g.sum(axis=dim, keepdims=True), grad.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad_grad: Tensor) -> tuple:
        grad, y = ctx.saved_tensors
        weighted = grad_grad * y.exp()
        d_grad = grad_grad - weighted.sum(ctx.dim, keepdim=True) if ctx.needs_input_grad[0] else None
        d_y = -weighted * grad.sum(ctx.dim, keepdim=True) if ctx.needs_input_grad[1] else None
        return d_grad, d_y, None


def _softmax_input(input: Tensor, dim: int | None, dtype: Any, name: str) -> tuple[Tensor, int]:  # noqa: A002
    if dim is None:
        dim = _softmax_dim(input.ndim, name)
    if dtype is not None:
        input = input.to(dtype)  # noqa: A001
    elif not input.dtype.is_floating_point:
        raise NotImplementedError(f'"{name}_lastdim_kernel_impl" not implemented for \'{input.dtype.scalar_type}\'')
    return input, _wrap_dim(dim, input.ndim)


def softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None) -> Tensor:  # noqa: A002
    input, dim = _softmax_input(input, dim, dtype, "softmax")  # noqa: A001
    return Softmax.apply(input, dim)


def log_softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None) -> Tensor:  # noqa: A002
    input, dim = _softmax_input(input, dim, dtype, "log_softmax")  # noqa: A001
    return LogSoftmax.apply(input, dim)


def torch_softmax(input: Tensor, dim: int, dtype: Any = None) -> Tensor:  # noqa: A002
    """``torch.softmax``: dim is required here (nn.functional's guesses it, with a warning)."""
    return softmax(input, dim, dtype=dtype)


def torch_log_softmax(input: Tensor, dim: int, dtype: Any = None) -> Tensor:  # noqa: A002
    """``torch.log_softmax``: dim is required here (nn.functional's guesses it, with a warning)."""
    return log_softmax(input, dim, dtype=dtype)
