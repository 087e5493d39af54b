"""dtypes and torch's type promotion.

A dtype here is a small named object that knows its NumPy equivalent. Promotion follows torch:
categories are ordered bool < integer < floating; within a category the wider type wins; and a
Python scalar or a zero-dim tensor only changes the result when it is of a *higher category*
than the dimensioned tensors (``int_tensor + 1.5`` is float32, ``uint8_tensor + 1000`` stays uint8).
"""

from __future__ import annotations

from typing import Any

import numpy as np

BOOL, INTEGER, FLOATING = 0, 1, 2


class dtype:  # noqa: N801 - torch's name
    """A tensor element type: ``tensorlab.float32`` etc. Compare with ``is`` or ``==``."""

    __slots__ = ("category", "is_floating_point", "is_signed", "itemsize", "name", "numpy", "rank", "scalar_type")

    def __init__(self, name: str, numpy_type: type, category: int, rank: int, scalar_type: str) -> None:
        self.name = name
        self.scalar_type = scalar_type  # torch's C++ ScalarType name, as its kernel errors spell it
        self.numpy: np.dtype[Any] = np.dtype(numpy_type)
        self.category = category
        self.rank = rank
        self.itemsize = self.numpy.itemsize
        self.is_floating_point = category == FLOATING
        self.is_signed = name not in ("bool", "uint8")

    def __repr__(self) -> str:
        return f"tensorlab.{self.name}"

    def __reduce__(self) -> str:
        return self.name  # pickle as the module-level singleton of the same name


bool_ = dtype("bool", np.bool_, BOOL, 0, "Bool")
uint8 = dtype("uint8", np.uint8, INTEGER, 0, "Byte")
int8 = dtype("int8", np.int8, INTEGER, 0, "Char")
int16 = dtype("int16", np.int16, INTEGER, 1, "Short")
int32 = dtype("int32", np.int32, INTEGER, 2, "Int")
int64 = dtype("int64", np.int64, INTEGER, 3, "Long")
float16 = dtype("float16", np.float16, FLOATING, 0, "Half")
float32 = dtype("float32", np.float32, FLOATING, 1, "Float")
float64 = dtype("float64", np.float64, FLOATING, 2, "Double")
# torch's bfloat16 has no NumPy equivalent: the name exists so code that mentions it imports,
# and asking for it gives torch's own error for a type it cannot convert (see ``to_dtype``).
bfloat16 = dtype("bfloat16", np.float32, FLOATING, 1, "BFloat16")
bfloat16.itemsize = 2

ALL_DTYPES = (bool_, uint8, int8, int16, int32, int64, float16, float32, float64)
_BY_NUMPY = {d.numpy: d for d in ALL_DTYPES}
_BY_NAME = {d.name: d for d in ALL_DTYPES} | {
    "float": float32, "double": float64, "half": float16, "long": int64, "int": int32, "short": int16,
    "bfloat16": bfloat16,
}

_default_float = float32


def get_default_dtype() -> dtype:
    return _default_float


def set_default_dtype(d: dtype) -> None:
    global _default_float
    if not isinstance(d, dtype) or not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _default_float = d


def from_numpy_dtype(np_dtype: np.dtype) -> dtype:
    try:
        return _BY_NUMPY[np.dtype(np_dtype)]
    except KeyError:
        raise TypeError(
            f"can't convert np.ndarray of type {np.dtype(np_dtype)}. The only supported types are: "
            "float64, float32, float16, int64, int32, int16, int8, uint8, and bool."
        ) from None


def to_dtype(d: object) -> dtype:
    """A ``dtype=`` argument: a tensorlab dtype, or the Python type float, int or bool, as in torch.

    A name ("float32") or a NumPy dtype is torch's TypeError: ``dtype=tensorlab.float32``.
    """
    if d is bfloat16:
        raise TypeError("Got unsupported ScalarType BFloat16")
    if isinstance(d, dtype):
        return d
    if d is float:
        return float64
    if d is int:
        return int64
    if d is bool:
        return bool_
    name = getattr(d, "__module__", "") == "torch" and str(d).removeprefix("torch.")
    if name and name in _BY_NAME:
        return _BY_NAME[name]
    raise TypeError(f"argument 'dtype' must be tensorlab.dtype, not {type(d).__name__}")


def promote_types(a: dtype, b: dtype) -> dtype:
    """The smallest dtype both a and b convert to without losing their category.

    uint8 and int8 have the same width but neither holds the other's range: they meet at int16.
    """
    if a is b:
        return a
    if {a, b} == {uint8, int8}:
        return int16
    if a.category != b.category:
        return a if a.category > b.category else b
    return a if a.rank >= b.rank else b


def scalar_dtype(value: object) -> dtype:
    """The dtype torch gives a Python scalar that takes part in an operation."""
    if isinstance(value, bool):
        return bool_
    if isinstance(value, int):
        return int64
    if isinstance(value, float):
        return _default_float
    if isinstance(value, np.generic):  # NumPy scalars act like the Python numbers they hold
        return scalar_dtype(value.item())
    raise TypeError(f"unsupported scalar type {type(value).__name__}")


def _combine_categories(higher: dtype | None, lower: dtype | None) -> dtype | None:
    """torch's rule: a lower-priority operand counts only if it brings a higher category."""
    if higher is None:
        return lower
    if lower is None or higher.is_floating_point:
        return higher
    if higher is bool_ or lower.is_floating_point:
        return promote_types(higher, lower)
    return higher


def result_type(*operands: object) -> dtype:
    """dtype of ``op(*operands)`` for tensors and Python scalars, as torch.result_type computes it."""
    dimensioned = zero_dim = scalars = None
    for x in operands:
        x_dtype = getattr(x, "dtype", None)
        if isinstance(x_dtype, dtype):
            if x.ndim:  # type: ignore[attr-defined]
                dimensioned = x_dtype if dimensioned is None else promote_types(dimensioned, x_dtype)
            else:
                zero_dim = x_dtype if zero_dim is None else promote_types(zero_dim, x_dtype)
        else:
            s = scalar_dtype(x)
            scalars = s if scalars is None else promote_types(scalars, s)
    result = _combine_categories(dimensioned, _combine_categories(zero_dim, scalars))
    assert result is not None, "result_type needs at least one operand"
    return result
