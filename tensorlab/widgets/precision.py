"""PrecisionExplorer: where a number lands in a floating-point format (fp32, tf32, fp16, bf16, fp8).

For a chosen ``x`` and format it draws the representable values around x on a number line (at
their true positions, so the gaps doubling at each power of two are visible), x itself and the
value it rounds to, that value's bits (sign, exponent, mantissa), the rounding error, and the
format's range. Every number comes from :mod:`tensorlab.precision`, which the tests hold to
torch's own conversions.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable
from typing import Any

from ..precision import FORMATS, FloatFormat, bits_of, get_format, neighbours, round_to_format, spacing
from .base import ModelExplorer
from .svg import COLOURS, FONT_SIZE, Svg, operand_colour, text_width

__all__ = ["PrecisionExplorer", "PrecisionModel", "parse_number"]

FIELD_COLOURS = {"sign": operand_colour(2), "exponent": operand_colour(0), "mantissa": operand_colour(1)}
LINE_WIDTH = 720.0  # px between the first and the last tick
BIT = 18.0  # side of one bit's square
TICK_FONT = 11
_OPERATORS: dict[type, Callable[..., float]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.Pow: operator.pow, ast.USub: operator.neg, ast.UAdd: operator.pos,
}


def parse_number(text: str) -> float:
    """``"0.1"``, ``"1 + 2**-8"``, ``"1/3"``, ``"-0.0"``, ``"inf"``, ``"nan"``: arithmetic on number
    literals only (read with ``ast``, never ``eval``); ValueError for anything else."""
    words = {"inf": math.inf, "-inf": -math.inf, "nan": math.nan}
    if text.strip().lower() in words:
        return words[text.strip().lower()]

    def value(node: ast.AST) -> float:
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
            return float(node.value)
        if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
            return float(_OPERATORS[type(node.op)](value(node.left), value(node.right)))
        if isinstance(node, ast.UnaryOp) and type(node.op) in _OPERATORS:
            return float(_OPERATORS[type(node.op)](value(node.operand)))
        raise ValueError(f"not a number: {text!r} (write e.g. 0.1, 1 + 2**-8, 1/3, inf)")

    try:
        return value(ast.parse(text.strip(), mode="eval").body)
    except (SyntaxError, ZeroDivisionError, OverflowError, TypeError):
        raise ValueError(f"not a number: {text!r} (write e.g. 0.1, 1 + 2**-8, 1/3, inf)") from None


def _exact(value: float) -> str:
    """A float64 in its shortest exact form (``repr``): every value of these formats is one."""
    return repr(float(value))


class PrecisionModel:
    """What the picture shows, for ``x`` in format ``fmt``: ``rounded`` (what torch stores), ``bits``
    (sign, exponent, mantissa strings), ``line`` (``2 * count + 1`` representable values around x,
    empty for NaN), ``error`` (rounded - x) and ``relative_error`` (|error| / |x|)."""

    def __init__(self, x: float = 0.1, fmt: str = "bf16", count: int = 4) -> None:
        self.x = float(x)
        self.format: FloatFormat = get_format(fmt)
        self.count = count
        self.rounded = float(round_to_format(self.x, self.format))
        self.bits = bits_of(self.x, self.format)
        self.line: list[float] = [] if math.isnan(self.x) else neighbours(self.x, self.format, count).tolist()
        with_nan_allowed = math.isfinite(self.x) and math.isfinite(self.rounded)
        self.error = self.rounded - self.x if with_nan_allowed else math.nan
        self.relative_error = abs(self.error) / abs(self.x) if with_nan_allowed and self.x != 0 else math.nan

    def value_bits(self, value: float) -> str:
        """``"0 01111111 0000000"``: a value's bits, fields separated by spaces."""
        return " ".join(bits_of(value, self.format))

    def gap_after(self, value: float) -> float:
        """The distance to the next representable value away from zero (NaN at the ends of the range)."""
        return float(spacing(value, self.format))

    def range_text(self) -> str:
        f = self.format
        beyond = "inf" if f.has_infinity else f"no inf, torch saturates to ±{f.max:.6g}"
        return (f"{f.name}: 1 sign + {f.exponent_bits} exponent + {f.mantissa_bits} mantissa bits, bias {f.bias}; "
                f"max {f.max:.6g} (beyond it: {beyond}), smallest normal {f.smallest_normal:.6g}, "
                f"smallest subnormal {f.smallest_subnormal:.6g}, epsilon 2**-{f.mantissa_bits} = {f.epsilon:.6g}")

    def error_text(self) -> str:
        """What happened to x: exact, rounded (error, and the bound on it), overflowed, saturated."""
        f, x, rounded = self.format, self.x, self.rounded
        if math.isnan(x):
            return "NaN stays NaN: it is not on the number line"
        if math.isinf(rounded):
            return f"x overflows: beyond {f.max:.6g} the nearest value is {rounded}" if math.isfinite(x) else f"x is {x}: stored as {x}"
        if abs(x) > f.max:
            return f"x is beyond max {f.max:.6g}: {f.name} has no inf, and torch saturates to {rounded}"
        if x == 0:
            return "0 is exact (and keeps its sign)"
        if rounded == x:
            return f"x is a value of {f.name}: no rounding error"
        error = f"rounding error rounded - x = {self.error:.6g}, relative {self.relative_error:.3g}"
        if rounded == 0:
            return f"{error}: underflow, |x| is at most half the smallest subnormal {f.smallest_subnormal:.6g}"
        if abs(x) < f.smallest_normal:
            return f"{error} (subnormal: the gap stays {f.smallest_subnormal:.6g}, so relative errors grow past epsilon/2)"
        return f"{error} (at most epsilon/2 = {f.epsilon / 2:.3g})"

    def describe(self) -> str:
        """One line: x, what the format stores for it (torch's conversion), its bits, the error."""
        return (f"x = {_exact(self.x)} in {self.format.name} -> {_exact(self.rounded)} "
                f"(bits {self.value_bits(self.x)}); {self.error_text()}")


def _tick_info(model: PrecisionModel, value: float) -> str:
    role = " (x rounds to this)" if value == model.rounded else ""
    return f"{_exact(value)} = {model.value_bits(value)} in {model.format.name}{role}; gap to the next value: {model.gap_after(value):.6g}"


def _distinct_labels(values: list[float]) -> list[str]:
    """The values with as few significant digits as keep them apart (fp32 needs about 9)."""
    for digits in range(4, 18):
        labels = [f"{v:.{digits}g}" for v in values]
        if len(set(labels)) == len(labels):
            return labels
    return [_exact(v) for v in values]


def _label_rows(positions: list[float], labels: list[str]) -> list[int]:
    """For each tick label, the first row below the line where it does not overlap the one before it."""
    row_ends: list[float] = []
    rows = []
    for position, label in zip(positions, labels, strict=True):
        half = text_width(label, TICK_FONT) / 2
        row = next((r for r, end in enumerate(row_ends) if position - half > end + 4), len(row_ends))
        if row == len(row_ends):
            row_ends.append(0.0)
        row_ends[row] = position + half
        rows.append(row)
    return rows


def _draw_number_line(svg: Svg, model: PrecisionModel, left: float, axis: float) -> float:
    """The representable values around x as ticks, x as a marker, the rounding as a purple segment.
    Returns the y below the drawing."""
    values = model.line
    low, high = values[0], values[-1]

    def at(value: float) -> float:
        return left + LINE_WIDTH / 2 if high == low else left + (value - low) / (high - low) * LINE_WIDTH

    svg.add(svg.line(left - 10, axis, left + LINE_WIDTH + 10, axis, stroke=COLOURS["muted"], stroke_width=1))
    positions = [at(v) for v in values]
    labels = _distinct_labels(values)
    rows = _label_rows(positions, labels)
    rounded_key = ""
    for i, (value, position, label, row) in enumerate(zip(values, positions, labels, rows, strict=True)):
        is_rounded = value == model.rounded
        colour = COLOURS["result"] if is_rounded else COLOURS["text"]
        key = f"tick:{i}"
        links = ["x", "sign", "exponent", "mantissa"] if is_rounded else []
        if is_rounded:
            rounded_key = key
        y = axis + 24 + row * 14
        parts = [
            svg.rect(position - 5, axis - 12, 10, 24, fill="white", fill_opacity="0"),  # an easy target for the mouse
            svg.line(position, axis - 10, position, axis + 10, stroke=colour, stroke_width=3 if is_rounded else 1.5),
            svg.text(position, y, label, text_anchor="middle", font_size=TICK_FONT, fill=colour),
        ]
        svg.group(parts, key, links, _tick_info(model, value), class_="tl-tick")
    bottom = axis + 24 + max(rows) * 14 + 6
    if math.isfinite(model.x):
        inside = low <= model.x <= high
        x_position = at(min(max(model.x, low), high))
        where = "" if inside else (" →" if model.x > high else "← ")
        marker = [
            svg.line(x_position, axis - 30, x_position, axis, stroke=COLOURS["text"], stroke_width=1.5, stroke_dasharray="3 2"),
            svg.text(x_position, axis - 34, f"{where}x = {model.x:.8g}" if model.x <= high else f"x = {model.x:.8g}{where}",
                     text_anchor="middle", font_size=FONT_SIZE, fill=COLOURS["text"]),
        ]
        if inside and math.isfinite(model.rounded):
            marker.append(svg.line(x_position, axis, at(model.rounded), axis, stroke=COLOURS["result"], stroke_width=4))
        x_info = f"x = {_exact(model.x)}; {model.error_text()}"
        svg.group(marker, "x", [rounded_key] if rounded_key else [], x_info, class_="tl-x")
    return bottom


def _draw_bits(svg: Svg, model: PrecisionModel, left: float, top: float) -> None:
    """The rounded value's bits, one square each, grouped by field (hover a field for its meaning)."""
    sign, exponent, mantissa = model.bits
    f = model.format
    exponent_value, mantissa_value = int(exponent, 2), int(mantissa, 2)
    if exponent_value == 2**f.exponent_bits - 1 and (f.has_infinity or mantissa_value == 2**f.mantissa_bits - 1):
        exponent_meaning = "all ones: inf or NaN"
        mantissa_meaning = "0: inf" if mantissa_value == 0 else "not 0: NaN"
    elif exponent_value == 0:
        exponent_meaning = f"all zeros: subnormal (or zero), scale 2**{1 - f.bias} with no implicit 1"
        mantissa_meaning = f"0.{mantissa} (binary) = {mantissa_value}/{2**f.mantissa_bits}"
    else:
        exponent_meaning = f"{exponent_value} - bias {f.bias} = {exponent_value - f.bias}: scale 2**{exponent_value - f.bias}"
        mantissa_meaning = f"1.{mantissa} (binary) = 1 + {mantissa_value}/{2**f.mantissa_bits} = {1 + mantissa_value / 2**f.mantissa_bits:.10g}"
    meanings = {
        "sign": f"sign bit {sign}: {'negative' if sign == '1' else 'positive'}",
        "exponent": f"exponent bits {exponent} = {exponent_value}; {exponent_meaning}",
        "mantissa": f"mantissa bits {mantissa} = {mantissa_value}; {mantissa_meaning}",
    }
    x = left
    svg.label(left, top - 6, f"bits of {_exact(model.rounded)} in {f.name}", COLOURS["text"], 12)
    for field, bits in zip(("sign", "exponent", "mantissa"), model.bits, strict=True):
        cells = []
        for bit in bits:
            cells.append(svg.rect(x, top, BIT, BIT, fill=FIELD_COLOURS[field] + "40", stroke=FIELD_COLOURS[field]))
            cells.append(svg.text(x + BIT / 2, top + BIT / 2 + 4, bit, text_anchor="middle", font_size=11))
            x += BIT
        cells.append(svg.text(x - len(bits) * BIT / 2, top + BIT + 14, field, text_anchor="middle", font_size=10,
                              fill=FIELD_COLOURS[field]))
        svg.group(cells, field, [], meanings[field], class_="tl-bits")
        x += 6


def render_svg(model: PrecisionModel) -> str:
    svg = Svg("tl-precision")
    left = 20.0
    svg.label(4, 16, f"x = {_exact(model.x)} -> {model.format.name} {_exact(model.rounded)}", COLOURS["result"], 12, class_="tl-outcome")
    y = 40.0
    if model.line:
        y = _draw_number_line(svg, model, left, 80.0) + 8
    svg.label(4, y + 8, model.error_text(), COLOURS["text"], 12, class_="tl-error")
    _draw_bits(svg, model, left, y + 40)
    svg.label(4, y + 40 + BIT + 36, model.range_text(), COLOURS["muted"], 11, class_="tl-range")
    return str(svg)


class PrecisionExplorer(ModelExplorer):
    """``PrecisionExplorer(0.1, "bf16")``: the values of the format around x, where x lands, its bits
    and its rounding error. Hover a tick for that value's bits; type another x, pick another format."""

    render = staticmethod(render_svg)

    def __init__(self, x: float = 0.1, fmt: str = "bf16", count: int = 4) -> None:
        self.model = PrecisionModel(x, fmt, count)
        self.problem = ""

    def _controls(self, widgets: Any) -> list:
        x_box = widgets.Text(value=repr(self.model.x), description="x", continuous_update=False)
        menu = widgets.Dropdown(options=list(FORMATS), value=self.model.format.name, description="format")

        def update(_change: Any = None) -> None:
            try:
                self.model = PrecisionModel(parse_number(x_box.value), menu.value, self.model.count)
                self.problem = ""
            except ValueError as error:
                self.problem = str(error)
            self._refresh()

        x_box.observe(update, names="value")
        menu.observe(update, names="value")
        return [widgets.HBox([x_box, menu])]
