"""``repr(tensor)`` in torch's format, character for character.

How torch lays a tensor out:

1. One *formatter* looks at every value that will be shown and picks a single style for all of
   them, so the columns line up: integers and bools print as they are; floats print as
   ``1.`` (all values whole), ``0.5000`` (4 decimals), or ``1.0000e+08`` (scientific, when the
   largest non-zero magnitude is over 1e8, over 1000 times the smallest, or the smallest is
   under 1e-4). Every value is right-aligned to the widest one.
2. Nested brackets: a row is ``[a, b, c]``, wrapped at 80 columns; inner rows are indented by
   how deep they sit, and each deeper level of nesting adds one more blank line between blocks.
3. Tensors with more than 1000 elements are summarised: only the first and last 3 entries of
   each dim are shown, with ``...`` in between.
4. Suffixes follow the values: ``dtype=`` (unless the dtype is the default float, int64 or
   bool), ``size=`` for empty tensors, then ``grad_fn=<...>`` or ``requires_grad=True``.

The only difference from torch: dtypes print as ``tensorlab.int32`` rather than ``torch.int32``.
Where a suffix wraps to the next line is decided with torch's spelling, so the layout is the
same as torch's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._dtype import bool_, float16, get_default_dtype, int64

__all__ = ["set_printoptions", "tensor_repr"]


@dataclass
class PrintOptions:
    """What ``set_printoptions`` changes; the defaults are torch's "default" profile."""

    precision: int = 4  # decimals shown for floats
    threshold: float = 1000  # more elements than this: summarise
    edgeitems: int = 3  # entries kept at each end of a summarised dim
    linewidth: int = 80
    sci_mode: bool | None = None  # None: pick scientific notation from the values (rule 1 above)


PRINT_OPTIONS = PrintOptions()
_PROFILES = {
    "default": PrintOptions(),
    "short": PrintOptions(precision=2, edgeitems=2),
    "full": PrintOptions(threshold=math.inf),
}


def set_printoptions(precision: int | None = None, threshold: float | None = None, edgeitems: int | None = None,
                     linewidth: int | None = None, profile: str | None = None, sci_mode: bool | None = None) -> None:
    """Change how every tensor prints from now on, as torch.set_printoptions: a ``profile``
    ("default", "short", "full") first, then each option given. ``sci_mode`` is always set:
    leaving it out goes back to choosing from the values."""
    if profile is not None:
        chosen = _PROFILES[profile]
        PRINT_OPTIONS.precision, PRINT_OPTIONS.threshold = chosen.precision, chosen.threshold
        PRINT_OPTIONS.edgeitems, PRINT_OPTIONS.linewidth = chosen.edgeitems, chosen.linewidth
    if precision is not None:
        PRINT_OPTIONS.precision = precision
    if threshold is not None:
        PRINT_OPTIONS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTIONS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTIONS.linewidth = linewidth
    PRINT_OPTIONS.sci_mode = sci_mode


class _Formatter:
    """One style (and width) for every value of a tensor, chosen from the values shown."""

    def __init__(self, values: np.ndarray, is_float: bool) -> None:
        self.is_float = is_float
        self.int_mode = True  # floats that are all whole numbers print as "3."
        self.sci_mode = False
        self.width = 1
        flat = values.reshape(-1)
        if not is_float:
            for value in flat.tolist():
                self.width = max(self.width, len(str(value)))
            return
        shown = flat[np.isfinite(flat) & (flat != 0)]
        if shown.size == 0:
            return
        magnitudes = np.abs(shown).astype(np.float64)
        smallest, largest = magnitudes.min(), magnitudes.max()
        self.int_mode = bool(np.all(shown == np.ceil(shown)))
        spread_out = largest > 1000.0 * smallest or largest > 1.0e8  # a product: largest / smallest can overflow
        self.sci_mode = spread_out if self.int_mode else spread_out or smallest < 1.0e-4
        if PRINT_OPTIONS.sci_mode is not None:  # set_printoptions(sci_mode=...) overrides the choice
            self.sci_mode = PRINT_OPTIONS.sci_mode
        precision = PRINT_OPTIONS.precision
        if self.sci_mode:
            pattern, extra = f"{{:.{precision}e}}", 0
        elif self.int_mode:
            pattern, extra = "{:.0f}", 1  # room for the trailing "."
        else:
            pattern, extra = f"{{:.{precision}f}}", 0
        for value in shown.tolist():
            self.width = max(self.width, len(pattern.format(value)) + extra)

    def format(self, value: Any) -> str:
        precision = PRINT_OPTIONS.precision
        if not self.is_float:
            text = str(value)
        elif self.sci_mode:
            text = f"{value:{self.width}.{precision}e}"
        elif self.int_mode:
            text = f"{value:.0f}"
            if math.isfinite(value):
                text += "."
        else:
            text = f"{value:.{precision}f}"
        return text.rjust(self.width)


def _summarized(values: np.ndarray) -> np.ndarray:
    """Only the values a summarised print shows: the first and last PRINT_OPTIONS.edgeitems along every dim."""
    for axis, size in enumerate(values.shape):
        if size > 2 * PRINT_OPTIONS.edgeitems:
            keep = list(range(PRINT_OPTIONS.edgeitems)) + list(range(size - PRINT_OPTIONS.edgeitems, size))
            values = np.take(values, keep, axis=axis)
    return values


def _vector(values: np.ndarray, indent: int, summarize: bool, formatter: _Formatter) -> str:
    """``[a, b, c]``, as many per line as fit in PRINT_OPTIONS.linewidth, continuation lines indented."""
    per_line = max(1, (PRINT_OPTIONS.linewidth - indent) // (formatter.width + 2))
    if summarize and values.shape[0] > 2 * PRINT_OPTIONS.edgeitems:
        items = (
            [formatter.format(v) for v in values[:PRINT_OPTIONS.edgeitems].tolist()]
            + [" ..."]
            + [formatter.format(v) for v in values[-PRINT_OPTIONS.edgeitems:].tolist()]
        )
    else:
        items = [formatter.format(v) for v in values.tolist()]
    lines = [", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _nested(values: np.ndarray, indent: int, summarize: bool, formatter: _Formatter) -> str:
    """Brackets within brackets; a block of dim d is separated from the next by d-1 blank lines."""
    if values.ndim == 0:
        return formatter.format(values.item())
    if values.ndim == 1:
        return _vector(values, indent, summarize, formatter)
    size = values.shape[0]
    if summarize and size > 2 * PRINT_OPTIONS.edgeitems:
        rows = [_nested(values[i], indent + 1, summarize, formatter) for i in range(PRINT_OPTIONS.edgeitems)]
        rows.append("...")
        rows += [_nested(values[i], indent + 1, summarize, formatter) for i in range(size - PRINT_OPTIONS.edgeitems, size)]
    else:
        rows = [_nested(values[i], indent + 1, summarize, formatter) for i in range(size)]
    return "[" + ("," + "\n" * (values.ndim - 1) + " " * (indent + 1)).join(rows) + "]"


def _values_str(t: Any, indent: int) -> str:
    values = t._data
    if t.dtype is float16:  # torch formats half precision through float32
        values = values.astype(np.float32)
    summarize = values.size > PRINT_OPTIONS.threshold
    shown = _summarized(values) if summarize else values
    formatter = _Formatter(shown, t.dtype.is_floating_point)
    return _nested(values, indent, summarize, formatter)


def _add_suffixes(text: str, suffixes: list[str], indent: int) -> str:
    """Append ``, suffix`` on the same line while it fits in PRINT_OPTIONS.linewidth, else on a new line.

    Fit is measured on torch's spelling ("torch.int32"), so lines break where torch's do.
    """
    parts = [text]
    last_line_length = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        torch_length = len(suffix.replace("tensorlab.", "torch."))
        if last_line_length + torch_length + 2 > PRINT_OPTIONS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line_length = indent + torch_length
        else:
            parts.append(", " + suffix)
            last_line_length += torch_length + 2
    return "".join(parts) + ")"


def tensor_repr(t: Any) -> str:
    """The text ``repr(t)`` shows, as torch writes it (with ``tensorlab.`` dtypes)."""
    prefix = "tensor("
    indent = len(prefix)
    suffixes = []
    if t._data.size == 0:
        if t.ndim != 1:
            suffixes.append(f"size={tuple(t.shape)}")
        if t.dtype is not get_default_dtype():
            suffixes.append(f"dtype={t.dtype!r}")
        body = "[]"
    else:
        if t.dtype not in (get_default_dtype(), int64, bool_):
            suffixes.append(f"dtype={t.dtype!r}")
        body = _values_str(t, indent)
    if t.grad_fn is not None:
        suffixes.append(f"grad_fn=<{t.grad_fn.name()}>")
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    return _add_suffixes(prefix + body, suffixes, indent)
