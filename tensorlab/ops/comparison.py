"""Comparisons and masks: eq/lt/..., logical and bitwise ops, isclose, isnan..., and where.

Comparisons compute in the promoted dtype (``int_tensor < 2.5`` compares as floats) and return
bool tensors; ``where`` is the op that consumes such a mask, routing the gradient to whichever
input was picked. None of these but ``where`` has a derivative, which is why they live apart from
the arithmetic (``ops.arithmetic``) and one-input math (``ops.unary_math``) that do.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import Any

import numpy as np

from .._dtype import bool_, result_type
from .._tensor import Tensor
from ..autograd.function import Function, FunctionCtx
from .broadcasting import broadcast_pair, sum_to_shape
from .promotion import (
    Operand,
    _check_fits,
    _dtype_of,
    _not_implemented_for,
    _operand,
    _save_shapes,
    binary,
    unary,
)

__all__ = [
    "allclose", "bitwise_and", "bitwise_not", "bitwise_or", "bitwise_xor", "eq", "equal", "ge",
    "greater", "greater_equal", "gt", "isclose", "isfinite", "isinf", "isnan", "le", "less",
    "less_equal", "logical_and", "logical_not", "logical_or", "logical_xor", "lt", "ne", "not_equal", "where",
]


class Where(Function):
    """z = x where condition else y. The gradient is routed to whichever input was picked, then
    summed back to that input's shape."""

    backward_name = "WhereBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, condition: Tensor, x: Operand, y: Operand) -> Tensor:
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
        _save_shapes(ctx, x, y)
        result = np.where(condition._data, _operand(x, dt), _operand(y, dt))
        return Tensor._from_array(np.broadcast_to(result, shape).copy() if result.shape != shape else result, dt)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        (condition,) = ctx.saved_tensors
        zero = Tensor._from_array(np.zeros_like(grad._data), grad.dtype)  # not grad * 0: inf * 0 is nan
        x_shape, y_shape = ctx.shapes
        needs = ctx.needs_input_grad
        return (
            None,
            sum_to_shape(where(condition, grad, zero), x_shape) if needs[1] else None,
            sum_to_shape(where(condition, zero, grad), y_shape) if needs[2] else None,
        )


# --- the public functions -----------------------------------------------------------------
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


def _logical(ufunc: Callable) -> Callable[[Operand, Operand], Tensor]:
    def logical(x: Operand, y: Operand) -> Tensor:
        """Elementwise truth test: any nonzero value counts as True; the result is bool."""
        return binary(ufunc, x, y, out_dtype=bool_)

    return logical


logical_and, logical_or, logical_xor = (_logical(f) for f in (np.logical_and, np.logical_or, np.logical_xor))


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
