"""Variance and standard deviation: var, std, var_mean, std_mean (Bessel's correction as torch has it).

var = sum((x - mean)^2) / (N - correction) over the reduced dims; std is its square root. The
backward of var is 2 (x - mean) / (N - correction) times the incoming gradient, and std's is
var's divided by 2 std. The dim bookkeeping is shared with every reduction (``ops.reduction``).
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from .._tensor import Tensor
from ..autograd.function import Function, FunctionCtx
from .comparison import where
from .reduction import (
    accepts_keepdims,
    accumulate_dtype,
    axes_of,
    kept_shape,
    mean,
    mean_array,
    mean_backward,
    normalize_dims,
    reduced,
    reduced_numel,
    require_floating,
)

__all__ = ["std", "std_mean", "var", "var_mean"]


# --- variance and standard deviation ------------------------------------------------------
def _correction(dim: Any, unbiased: Any, correction: Any) -> tuple[Any, float]:
    """torch's three spellings: ``var(x, True)``, ``var(x, dim, unbiased)``, ``var(x, dim, correction=c)``.

    The default correction is 1 (Bessel's: divide by n - 1); ``unbiased=False`` means 0.
    """
    if isinstance(dim, bool):  # var(x, False): the bool is `unbiased`, not a dim
        dim, unbiased = None, dim
    if unbiased is not None and correction is not None:
        raise TypeError("var()/std() received an invalid combination of arguments: pass either unbiased or correction, not both")
    if correction is None:
        correction = 0 if unbiased is False else 1
    return dim, correction


def _spread(name: str, x: Tensor, dims: tuple, correction: float, keepdim: bool, root: bool) -> np.ndarray:
    """var = sum((x - mean)^2) / (n - correction); std is its square root. n - correction <= 0
    warns (as torch does) and gives inf or nan."""
    if reduced_numel(x.shape, dims) - correction <= 0:
        warnings.warn(
            f"{name}(): degrees of freedom is <= 0. Correction should be strictly less than the "
            "reduction factor (input numel divided by output numel).",
            UserWarning,
            stacklevel=4,
        )
    numpy_spread = np.std if root else np.var
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's own "degrees of freedom" warning
        return numpy_spread(x._data, axis=axes_of(x, dims), ddof=correction, keepdims=keepdim, dtype=accumulate_dtype(x.dtype))


def _var_backward(grad: Tensor, x: Tensor, ctx: FunctionCtx) -> Tensor:
    """d var / dx_i = 2 (x_i - mean) / (n - correction); ``grad`` has the keepdim shape.

    With no degrees of freedom left over a whole-tensor reduction, torch returns inf (nan where
    x_i equals the mean, as inf * 0); tensorlab does the same. For ``dim=()`` torch's backward
    uses n = 1 (a torch quirk); tensorlab uses the true n, which matches its forward.
    """
    dof = reduced_numel(x.shape, ctx.dims) - ctx.correction
    centred = x - mean(x, ctx.dims, keepdim=True)
    with np.errstate(invalid="ignore"):  # inf * 0 is nan, as in torch
        if ctx.whole and dof <= 0:
            return grad * where(centred == 0, math.nan, math.inf)
        return centred * (grad * (2 / dof if dof else math.inf))


def _std_to_var_grad(grad: Tensor, std: Tensor) -> Tensor:
    """std = sqrt(var), so d std = d var / (2 std); torch sends 0 where std is 0, not inf."""
    is_zero = std == 0
    return where(is_zero, 0.0, grad / where(is_zero, 1.0, std * 2))


class Var(Function):
    """z = sum((x - mean)^2) / (n - correction). dz/dx_i = 2 (x_i - mean) / (n - correction)."""

    backward_name = "VarBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, dims: tuple, correction: float, keepdim: bool, whole: bool) -> Tensor:
        ctx.save_for_backward(x)
        ctx.dims, ctx.correction, ctx.whole = dims, correction, whole
        return Tensor._from_array(reduced(_spread("var", x, dims, correction, keepdim, root=False)), x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        grad = grad.reshape(kept_shape(x.shape, ctx.dims))
        return _var_backward(grad, x, ctx), None, None, None, None


class Std(Function):
    """z = sqrt(var(x)). dz/dx = d var/dx / (2 z)."""

    backward_name = "StdBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, dims: tuple, correction: float, keepdim: bool, whole: bool) -> Tensor:
        ctx.dims, ctx.correction, ctx.whole = dims, correction, whole
        result = Tensor._from_array(reduced(_spread("std", x, dims, correction, keepdim, root=True)), x.dtype)
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        x, std = ctx.saved_tensors
        shape = kept_shape(x.shape, ctx.dims)
        grad_var = _std_to_var_grad(grad.reshape(shape), std.reshape(shape))
        return _var_backward(grad_var, x, ctx), None, None, None, None


class VarMean(Function):
    """(var, mean) in one pass; the gradient is the sum of both rules."""

    backward_name = "VarMeanBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, dims: tuple, correction: float, keepdim: bool, whole: bool) -> tuple[Tensor, Tensor]:
        ctx.save_for_backward(x)
        ctx.dims, ctx.correction, ctx.whole = dims, correction, whole
        spread = Tensor._from_array(reduced(_spread("var_mean", x, dims, correction, keepdim, root=False)), x.dtype)
        return spread, Tensor._from_array(reduced(mean_array(x, dims, keepdim, x.dtype)), x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad_var: Tensor, grad_mean: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        shape = kept_shape(x.shape, ctx.dims)
        from_var = _var_backward(grad_var.reshape(shape), x, ctx)
        return from_var + mean_backward(grad_mean, x.shape, ctx.dims), None, None, None, None


class StdMean(Function):
    """(std, mean) in one pass; the gradient is the sum of both rules."""

    backward_name = "StdMeanBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, dims: tuple, correction: float, keepdim: bool, whole: bool) -> tuple[Tensor, Tensor]:
        ctx.dims, ctx.correction, ctx.whole = dims, correction, whole
        spread = Tensor._from_array(reduced(_spread("std_mean", x, dims, correction, keepdim, root=True)), x.dtype)
        ctx.save_for_backward(x, spread)
        return spread, Tensor._from_array(reduced(mean_array(x, dims, keepdim, x.dtype)), x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad_std: Tensor, grad_mean: Tensor) -> tuple:
        x, std = ctx.saved_tensors
        shape = kept_shape(x.shape, ctx.dims)
        grad_var = _std_to_var_grad(grad_std.reshape(shape), std.reshape(shape))
        from_std = _var_backward(grad_var, x, ctx)
        return from_std + mean_backward(grad_mean, x.shape, ctx.dims), None, None, None, None


def _spread_op(function: type[Function], name: str, x: Tensor, dim: Any, unbiased: Any, keepdim: bool, correction: Any) -> Any:
    require_floating(x, f"{name} only support floating point and complex dtypes")
    dim, correction = _correction(dim, unbiased, correction)
    whole = dim is None or x.ndim == 0
    return function.apply(x, normalize_dims(dim, x.ndim), correction, keepdim, whole)


@accepts_keepdims
def var(input: Tensor, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *, correction: Any = None) -> Tensor:  # noqa: A002
    return _spread_op(Var, "std and var", input, dim, unbiased, keepdim, correction)


@accepts_keepdims
def std(input: Tensor, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *, correction: Any = None) -> Tensor:  # noqa: A002
    return _spread_op(Std, "std and var", input, dim, unbiased, keepdim, correction)


@accepts_keepdims
def var_mean(input: Tensor, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *, correction: Any = None) -> tuple[Tensor, Tensor]:  # noqa: A002
    return _spread_op(VarMean, "var_mean", input, dim, unbiased, keepdim, correction)


@accepts_keepdims
def std_mean(input: Tensor, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *, correction: Any = None) -> tuple[Tensor, Tensor]:  # noqa: A002
    return _spread_op(StdMean, "std_mean", input, dim, unbiased, keepdim, correction)
