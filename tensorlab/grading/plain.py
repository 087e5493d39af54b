"""Plain data: the only values that cross between the grader and a student's process.

A value is plain when it is ``None``, a ``bool``, ``int``, ``float`` or ``str``, a ``tuple``,
``list`` or ``dict`` (with ``str`` keys) of plain values, or an exact ``numpy.ndarray`` of a
numeric or boolean dtype. Types are checked exactly (``type(x) is int``), so a subclass with a
clever ``__eq__`` is refused instead of trusted: the grader compares data, never objects.
"""

from __future__ import annotations

import base64
from typing import Any

import numpy as np

__all__ = ["NotPlainData", "decode", "encode"]

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
        array = value.copy(order="C")  # (np.ascontiguousarray would turn 0-d into 1-d)
        data = base64.b64encode(array.tobytes()).decode("ascii")
        return {"ndarray": {"dtype": array.dtype.str, "shape": list(array.shape), "data": data}}
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
        raw = base64.b64decode(body["data"])
        return np.frombuffer(raw, dtype=np.dtype(body["dtype"])).reshape(body["shape"]).copy()
    if tag == "numpy_scalar":
        return decode(body)[()]
    raise ValueError(f"unknown plain-data tag {tag!r}")
