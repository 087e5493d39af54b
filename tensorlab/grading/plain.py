"""Plain data: the only values that cross between the grader and a student's process.

A value is plain when it is ``None``, a ``bool``, ``int``, ``float`` or ``str``, a ``tuple``,
``list`` or ``dict`` (with ``str`` keys) of plain values, or an exact ``numpy.ndarray`` of a
numeric or boolean dtype. Types are checked exactly (``type(x) is int``), so a subclass with a
clever ``__eq__`` is refused instead of trusted: the grader compares data, never objects.

An array keeps its layout on the way: a non-contiguous input (every other column, a transpose)
arrives as a view with the same element strides, so an exercise can be tested on the inputs
that break code which assumes contiguity, and a view it returns can be checked stride by stride.
"""

from __future__ import annotations

import base64
from typing import Any

import numpy as np

__all__ = ["NotPlainData", "decode", "element_strides", "encode"]

SCALARS = (type(None), bool, int, float, str)
ARRAY_KINDS = "biufc"  # bool, signed, unsigned, float, complex


class NotPlainData(TypeError):  # noqa: N818
    """The value is not plain data (its type's name is the message)."""


def encode(value: Any) -> Any:
    """A JSON-ready description of a plain ``value``; raises NotPlainData for anything else."""
    kind = type(value)
    if kind in SCALARS:
        return value
    if kind is tuple or kind is list:
        return {kind.__name__: [encode(item) for item in value]}
    if kind is dict:
        if not all(type(key) is str for key in value):
            raise NotPlainData("dict with non-str keys")
        return {"dict": {key: encode(item) for key, item in value.items()}}
    if kind is np.ndarray and value.dtype.kind in ARRAY_KINDS:
        return {"ndarray": encode_array(value)}
    if isinstance(value, np.generic) and type(value).__module__ == "numpy":
        return {"numpy_scalar": encode(np.asarray(value))}
    raise NotPlainData(f"{kind.__module__}.{kind.__qualname__}")


def decode(data: Any) -> Any:
    """The value ``encode`` described (trusted: only the grader's own parser builds objects)."""
    if not isinstance(data, dict):
        return data
    ((tag, body),) = data.items()
    if tag == "tuple":
        return tuple(decode(item) for item in body)
    if tag == "list":
        return [decode(item) for item in body]
    if tag == "dict":
        return {key: decode(item) for key, item in body.items()}
    if tag == "ndarray":
        return decode_array(body)
    if tag == "numpy_scalar":
        return decode(body)[()]
    raise ValueError(f"unknown plain-data tag {tag!r}")


def keeps_layout(array: np.ndarray) -> bool:
    """A non-contiguous array whose strides can travel as they are (non-negative, nothing empty)."""
    return (not array.flags.c_contiguous and array.size > 0 and array.itemsize > 0
            and all((stride > 0 or size == 1) and stride % array.itemsize == 0
                    for size, stride in zip(array.shape, array.strides, strict=True)))


def element_strides(array: np.ndarray) -> tuple[int, ...]:
    """The strides, in elements, that ``array`` has after a trip through encode and decode."""
    if keeps_layout(array):
        return tuple(stride // array.itemsize for stride in array.strides)
    # decode reshapes a flat buffer: the strides of that reshape (NumPy gives a fresh empty array zero strides)
    return tuple(stride // array.itemsize for stride in np.empty(array.size, array.dtype).reshape(array.shape).strides)


def encode_array(array: np.ndarray) -> dict:
    """Shape, dtype and bytes; for a strided view, the span of memory it reads and its strides."""
    described = {"dtype": array.dtype.str, "shape": list(array.shape)}
    if keeps_layout(array):
        strides = element_strides(array)
        span = 1 + sum((size - 1) * stride for size, stride in zip(array.shape, strides, strict=True))
        memory = np.lib.stride_tricks.as_strided(array, (span,), (array.itemsize,)).copy()
        described["strides"] = list(strides)
    else:
        memory = array.copy(order="C")  # (np.ascontiguousarray would turn 0-d into 1-d)
    return {**described, "data": base64.b64encode(memory.tobytes()).decode("ascii")}


def decode_array(body: dict) -> np.ndarray:
    dtype = np.dtype(body["dtype"])
    memory = np.frombuffer(base64.b64decode(body["data"]), dtype=dtype).copy()
    if "strides" not in body:
        return memory.reshape(body["shape"])
    strides = tuple(int(stride) * dtype.itemsize for stride in body["strides"])
    return np.lib.stride_tricks.as_strided(memory, tuple(body["shape"]), strides)
