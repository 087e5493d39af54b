"""How an elementwise op turns its operands into one NumPy call: result dtype, scalars, shapes.

Every binary op does three things: find the result dtype with torch's promotion rules, check the
shapes broadcast (raising torch's message if not), and call one NumPy ufunc on the operands cast
to that dtype. Python scalars stay Python scalars, so NumPy treats them as "weak" exactly as torch
does (``int32_tensor + 5`` stays int32). Backward rules reduce gradients back to each input's
shape with ``sum_to_shape``, each op in its own backward (``_save_shapes`` keeps the shapes).

This machinery lives apart from the ops so that each op module reads as forward and backward
only, and so that the arithmetic, unary, comparison and in-place ops (and the fast path) share
one definition of "the result dtype" and "a scalar operand".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .._dtype import dtype, get_default_dtype, result_type
from .._fast import buffers as fast_buffers
from .._fast import switch as fast
from .._tensor import Tensor
from ..autograd.function import FunctionCtx
from .broadcasting import broadcast_pair

Operand = Any  # a Tensor or a Python number


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
    with np.errstate(all="ignore"):  # 0/0, inf - inf, overflow: nan or inf silently, as torch gives them
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


def _save(ctx: FunctionCtx, *values: Any) -> None:
    """Save the tensor operands for backward and keep the Python-scalar ones as plain numbers."""
    if not ctx.recording:
        return
    ctx.save_for_backward(*[v if isinstance(v, Tensor) else None for v in values])
    ctx.scalars = [None if isinstance(v, Tensor) else v for v in values]


def _save_shapes(ctx: FunctionCtx, *operands: Any) -> None:
    """Keep each operand's shape (``()`` for a number) as ``ctx.shapes``: backward sums every
    gradient back to its input's shape with ``sum_to_shape``, undoing the broadcast."""
    if ctx.recording:
        ctx.shapes = tuple(v._data.shape if isinstance(v, Tensor) else () for v in operands)


def _restore(ctx: FunctionCtx) -> tuple:
    return tuple(s if t is None else t for t, s in zip(ctx.saved_tensors, ctx.scalars, strict=True))


def _not_implemented_for(kernel: str, dt: dtype) -> NotImplementedError:
    """torch's error for a kernel that has no version for this dtype (e.g. floor division of bools)."""
    return NotImplementedError(f'"{kernel}" not implemented for \'{dt.scalar_type}\'')


def _check_fits(value: Any, dt: dtype) -> None:
    """Where torch stores a Python int as an element (fill_, where) it must fit the integer dtype."""
    if dt.category == 1 and isinstance(value, int):
        bits = np.iinfo(dt.numpy)
        lowest = -bits.max if bits.min == 0 else bits.min  # an unsigned type also takes -max..-1
        if not lowest <= value <= bits.max:
            c_name = {"uint8": "uint8_t", "int8": "int8_t", "int16": "int16_t", "int32": "int", "int64": "int64_t"}[dt.name]
            raise RuntimeError(f"value cannot be converted to type {c_name} without overflow")
