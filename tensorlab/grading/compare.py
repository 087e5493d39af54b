"""Compare what a function returned with what it should have, and say the difference to a learner.

``difference(expected, got)`` returns ``None`` when they agree, else one sentence naming the
first thing that differs: the type, the length, the shape, the dtype, or the first differing
element with its index. Types are compared exactly, so ``(2, 3)`` and ``[2, 3]`` differ.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["Raised", "Tolerance", "describe", "difference", "pasteable"]


@dataclass(frozen=True)
class Raised:
    """An outcome that is an exception: its built-in class name and message."""

    exception: str
    message: str = ""

    def __str__(self) -> str:
        return f"{self.exception}({self.message!r})" if self.message else self.exception


@dataclass(frozen=True)
class Tolerance:
    rtol: float = 1e-7
    atol: float = 1e-9
    match_message: bool = False  # an expected exception's message must match exactly
    scalar_for_0d: bool = True  # a NumPy scalar stands for an expected 0-d array (False: "returns an array" means it)
    signed_zero: bool = False  # -0.0 and 0.0 differ (compared by the sign bit) where the statement promises the sign


def type_name(value: Any) -> str:
    if isinstance(value, Raised):
        return f"an exception {value.exception}"
    kind = type(value)
    return kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"


def describe(value: Any, limit: int = 120) -> str:
    """A short, readable rendering of a value (arrays show shape and dtype)."""
    if isinstance(value, np.ndarray):
        body = np.array2string(value, threshold=12, edgeitems=2)
        text = f"array(shape={value.shape}, dtype={value.dtype}) {body}"
    else:
        text = repr(value) if not isinstance(value, Raised) else str(value)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def pasteable(value: Any) -> str:
    """The whole value as Python that rebuilds it when pasted into a notebook (``np.array([...], dtype=np.float32)``,
    every element, each float to the digit that round-trips). A view's strides are not kept: the values are."""
    if isinstance(value, np.ndarray):
        if value.size == 0:
            return f"np.zeros({value.shape}, dtype=np.{value.dtype.name})"
        return f"np.array({pasteable(value.tolist())}, dtype=np.{value.dtype.name})"
    if isinstance(value, np.generic):
        return f"np.{value.dtype.name}({pasteable(value.item())})"
    if isinstance(value, tuple):
        inner = ", ".join(pasteable(item) for item in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, list):
        return "[" + ", ".join(pasteable(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key!r}: {pasteable(item)}" for key, item in value.items()) + "}"
    if isinstance(value, float) and not np.isfinite(value):
        return "np.nan" if np.isnan(value) else ("np.inf" if value > 0 else "-np.inf")
    return repr(value)


def difference(expected: Any, got: Any, tolerance: Tolerance = Tolerance(), where: str = "") -> str | None:
    """None when ``got`` matches ``expected``; else what differs, for a learner."""
    at = f" at {where}" if where else ""
    if isinstance(expected, Raised) or isinstance(got, Raised):
        return _exception_difference(expected, got, tolerance, at)
    if (tolerance.scalar_for_0d and isinstance(expected, np.ndarray) and expected.ndim == 0
            and type(got).__module__ == "numpy" and isinstance(got, np.generic)):
        got = np.asarray(got)  # a NumPy scalar is a 0-d array's value: reductions return them
    if type(expected) is not type(got):
        return f"expected {type_name(expected)}{at}, got {type_name(got)} ({describe(got, 60)})"
    if isinstance(expected, np.ndarray):
        return _array_difference(expected, got, tolerance, at)
    if isinstance(expected, (tuple, list)):
        if len(expected) != len(got):
            return f"expected a {type_name(expected)} of length {len(expected)}{at}, got length {len(got)}: {describe(got, 60)}"
        for index, (want, have) in enumerate(zip(expected, got, strict=True)):
            problem = difference(want, have, tolerance, f"{where}[{index}]")
            if problem:
                return problem
        return None
    if isinstance(expected, dict):
        if set(expected) != set(got):
            missing, extra = sorted(set(expected) - set(got)), sorted(set(got) - set(expected))
            return f"keys differ{at}: missing {missing}, unexpected {extra}"
        for key in expected:
            problem = difference(expected[key], got[key], tolerance, f"{where}[{key!r}]")
            if problem:
                return problem
        return None
    if isinstance(expected, float):
        if np.isclose(got, expected, rtol=tolerance.rtol, atol=tolerance.atol, equal_nan=True) and not (
                tolerance.signed_zero and np.signbit(got) != np.signbit(expected) and not np.isnan(expected)):
            return None
        return f"expected {expected!r}{at}, got {got!r}"
    return None if expected == got else f"expected {expected!r}{at}, got {got!r}"


def _exception_difference(expected: Any, got: Any, tolerance: Tolerance, at: str) -> str | None:
    if not isinstance(got, Raised):
        return f"expected {expected}{at} to be raised, but the function returned {describe(got, 60)}"
    if not isinstance(expected, Raised):
        return f"the function raised {got}{at}; expected it to return {describe(expected, 60)}"
    if expected.exception != got.exception:
        return f"expected {expected.exception}{at}, but the function raised {got}"
    if tolerance.match_message and expected.message.strip() != got.message.strip():
        return f"right exception class, but the message should read {expected.message!r}; got {got.message!r}"
    return None


def _array_difference(expected: np.ndarray, got: np.ndarray, tolerance: Tolerance, at: str) -> str | None:
    if expected.shape != got.shape:
        return f"expected shape {expected.shape}{at}, got shape {got.shape}"
    if expected.dtype != got.dtype:
        return f"expected dtype {expected.dtype}{at}, got dtype {got.dtype}"
    if expected.dtype.kind in "fc":
        close = np.isclose(got, expected, rtol=tolerance.rtol, atol=tolerance.atol, equal_nan=True)
        if tolerance.signed_zero and expected.dtype.kind == "f":  # -0.0 == 0.0, but not by the sign bit (a NaN's sign
            close &= (np.signbit(got) == np.signbit(expected)) | np.isnan(expected)  # is no promise)
    else:
        close = got == expected
    if close.all():
        return None
    index = tuple(int(i) for i in np.argwhere(~close)[0])
    wrong = int((~close).sum())
    return (
        f"values differ{at}: at index {index} expected {expected[index]!r}, got {got[index]!r} "
        f"({wrong} of {close.size} elements differ)"
    )
