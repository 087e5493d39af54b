"""ReductionExplorer: which input elements feed each output element of ``x.sum(dims, keepdim)``.

The model answers the questions the picture shows: which dims are reduced (after torch's
normalisation: an int, a list in any order, negative dims, or None for all), the result shape
with and without ``keepdim``, torch's error for a repeated or out-of-range dim, and, element by
element, where each input element goes (its index with the reduced dims set to 0, then dropped
unless ``keepdim``) and which input elements each output element adds up.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..ops.reduction import kept_shape, normalize_dims
from .base import ModelExplorer
from .svg import CELL, COLOURS, GAP, Svg, operand_colour, text_width

__all__ = ["ReductionExplorer", "ReductionModel", "parse_dims"]

DRAW_LIMIT = 6  # grids are drawn for at most 3 dims of at most 6 elements each
Index = tuple[int, ...]


def parse_dims(text: str) -> int | list[int] | None:
    """``"1"`` -> 1, ``"0, 2"`` / ``"[0, 2]"`` -> [0, 2], ``""`` / ``"None"`` -> None (all dims)."""
    inner = text.strip()
    if inner in ("", "None"):
        return None
    is_list = inner[0] in "[(" or "," in inner
    try:
        dims = [int(part) for part in inner.strip("[]()").split(",") if part.strip()]
    except ValueError:
        raise ValueError(f"not dims: {text!r} (write an int, or ints separated by commas, e.g. 0, 2)") from None
    return dims if is_list or len(dims) != 1 else dims[0]


class ReductionModel:
    """Everything the reduction picture shows, from the input shape, ``dims`` and ``keepdim`` alone.

    Attributes: ``reduced`` (the reduced dims, sorted and non-negative, or None on an error),
    ``result`` (the result shape, or None), ``error`` (``(exception class name, message)``, or None).
    """

    def __init__(self, shape: Sequence[int], dims: int | Sequence[int] | None = None, keepdim: bool = False) -> None:
        self.shape = tuple(int(size) for size in shape)
        self.dims = dims if dims is None or isinstance(dims, int) else [int(d) for d in dims]
        self.keepdim = bool(keepdim)
        self.reduced: tuple[int, ...] | None = None
        self.result: tuple[int, ...] | None = None
        self.error: tuple[str, str] | None = None
        try:
            self.reduced = normalize_dims(self.dims, len(self.shape))
        except (IndexError, RuntimeError) as error:
            self.error = (type(error).__name__, str(error))
            return
        kept = kept_shape(self.shape, self.reduced)
        self.result = kept if self.keepdim else tuple(s for d, s in enumerate(self.shape) if d not in self.reduced)

    def target(self, in_index: Sequence[int]) -> Index:
        """The output element that input element ``in_index`` is added into."""
        reduced = self._reduced()
        if self.keepdim:
            return tuple(0 if d in reduced else i for d, i in enumerate(in_index))
        return tuple(i for d, i in enumerate(in_index) if d not in reduced)

    def sources(self, out_index: Sequence[int]) -> list[Index]:
        """The input elements that output element ``out_index`` adds up, in row-major order."""
        reduced = self._reduced()
        out_index = tuple(out_index)
        ranges = []
        kept_position = iter(out_index) if not self.keepdim else None
        for d, size in enumerate(self.shape):
            if d in reduced:
                ranges.append(range(size))
            else:
                i = next(kept_position) if kept_position is not None else out_index[d]
                ranges.append(range(i, i + 1))
        return _product(ranges)

    def count(self) -> int:
        """How many input elements each output element adds up (1 when nothing is reduced)."""
        return math.prod(self.shape[d] for d in self._reduced())

    def _reduced(self) -> tuple[int, ...]:
        if self.reduced is None:
            raise ValueError("the dims are not valid for this shape, so there is no output")
        return self.reduced

    def describe(self) -> str:
        """One line: the call and its outcome, in torch's words."""
        call = f"x{list(self.shape)}.sum({self.dims!r}, keepdim={self.keepdim})"
        if self.error is not None:
            return f"{call} -> {self.error[0]}: {self.error[1]}"
        assert self.result is not None and self.reduced is not None
        return (f"{call} -> torch.Size({list(self.result)}): reduces dims {list(self.reduced)}, "
                f"{self.count()} input element(s) per output element")

    def drawable(self) -> bool:
        return len(self.shape) <= 3 and all(size <= DRAW_LIMIT for size in self.shape)


def _product(ranges: list[range]) -> list[Index]:
    """Every index in the box ``ranges`` (one range per dim), in row-major order."""
    indices: list[Index] = [()]
    for r in ranges:
        indices = [(*index, i) for index in indices for i in r]
    return indices


def _key(name: str, index: Sequence[int]) -> str:
    return f"{name}:{','.join(str(i) for i in index)}"


def _cells(shape: tuple[int, ...]) -> list[Index]:
    return [tuple(int(i) for i in index) for index in np.ndindex(*shape)] if shape else [()]


def _position(index: Index, shape: tuple[int, ...]) -> tuple[int, int]:
    """Column and row of ``index`` in the drawing: last dim left to right, the one before top to
    bottom, and a first dim of three as side-by-side blocks (one column apart)."""
    if len(index) == 0:
        return 0, 0
    if len(index) == 1:
        return index[0], 0
    if len(index) == 2:
        return index[1], index[0]
    return index[0] * (shape[2] + 1) + index[2], index[1]


def _draw_tensor(svg: Svg, name: str, shape: tuple[int, ...], values: np.ndarray, left: float, top: float,
                 colour: str, links: dict[Index, list[str]], infos: dict[Index, str]) -> float:
    """One tensor as a grid of hoverable cells; returns its right edge."""
    svg.label(left, top + 12, f"{name} {list(shape)}", colour, 12, font_weight="bold")
    right = left + 2 * CELL
    if len(shape) == 3:  # name the side-by-side blocks: x[0], x[1], ...
        for block in range(shape[0]):
            svg.label(left + block * (shape[2] + 1) * CELL, top + 32 + shape[1] * CELL, f"{name}[{block}]", COLOURS["muted"], 10)
    for index in _cells(shape):
        column, row = _position(index, shape)
        x, y = left + column * CELL, top + 20 + row * CELL
        svg.cell(x, y, _number(values[index]), "#ffffff", _key(name, index), links[index], infos[index], stroke=colour)
        right = max(right, x + CELL)
    return right


def _number(value: Any) -> str:
    return str(int(value))


def render_svg(model: ReductionModel) -> str:
    svg = Svg("tl-reduction")
    colour = COLOURS["error"] if model.error else COLOURS["text"]
    svg.label(4, 14, model.describe().split(" -> ", 1)[1], colour, 12, class_="tl-outcome")
    if model.result is None:
        return str(svg)
    if not model.drawable():
        svg.label(4, 34, f"(grids are drawn for up to 3 dims with at most {DRAW_LIMIT} elements per dim)", COLOURS["muted"], 11)
        return str(svg)
    x = np.arange(math.prod(model.shape)).reshape(model.shape)
    reduced = model.reduced or ()
    out = x.sum(axis=reduced, keepdims=model.keepdim) if reduced else x
    in_links = {index: [_key("out", model.target(index))] for index in _cells(model.shape)}
    in_infos = {index: f"x[{_key('', index)[1:]}] = {x[index]} is added into out[{_key('', model.target(index))[1:]}]"
                for index in _cells(model.shape)}
    out_links, out_infos = {}, {}
    for index in _cells(model.result):
        sources = model.sources(index)
        out_links[index] = [_key("x", source) for source in sources]
        added = " + ".join(str(x[source]) for source in sources) or "nothing (an empty sum)"
        out_infos[index] = f"out[{_key('', index)[1:]}] = {added} = {out[index]} ({len(sources)} input element(s))"
    left = 4.0
    for d, size in enumerate(model.shape):
        text = f"dim {d} (size {size}): {'reduced' if d in reduced else 'kept'}"
        svg.label(left, 34, text, COLOURS["error"] if d in reduced else COLOURS["muted"], 11)
        left += text_width(text, 11) + GAP
    top = 44.0
    right = _draw_tensor(svg, "x", model.shape, x, 4, top, operand_colour(0), in_links, in_infos)
    svg.label(right + GAP, top + 20 + CELL / 2 + 4, "->", COLOURS["text"], 14)
    _draw_tensor(svg, "out", model.result, np.asarray(out), right + GAP + 30, top, COLOURS["result"], out_links, out_infos)
    return str(svg)


class ReductionExplorer(ModelExplorer):
    """``ReductionExplorer((2, 3, 4), [0, 2], keepdim=True)``: hover an output element, its inputs light up.

    ``x`` is ``arange`` of the shape (each value is its position in row-major order), so every
    output value is the sum of the values that light up.
    """

    render = staticmethod(render_svg)

    def __init__(self, shape: Sequence[int] | str = (2, 3), dims: int | Sequence[int] | str | None = 1,
                 keepdim: bool = False) -> None:
        from .broadcast import parse_shape

        shape = parse_shape(shape) if isinstance(shape, str) else shape
        dims = parse_dims(dims) if isinstance(dims, str) else dims
        self.model = ReductionModel(shape, dims, keepdim)
        self.problem = ""  # a typing mistake in a control, shown instead of the model's summary

    def _controls(self, widgets: Any) -> list:
        from .broadcast import parse_shape

        model = self.model
        shape_box = widgets.Text(value=", ".join(map(str, model.shape)), description="x shape", continuous_update=False)
        dims_text = "" if model.dims is None else str(model.dims).strip("[]") if isinstance(model.dims, list) else str(model.dims)
        if isinstance(model.dims, list) and len(model.dims) == 1:
            dims_text = f"[{model.dims[0]}]"
        dims_box = widgets.Text(value=dims_text, description="dims", continuous_update=False, placeholder="0, 2 (empty: all)")
        keepdim_box = widgets.Checkbox(value=model.keepdim, description="keepdim")

        def update(_change: Any = None) -> None:
            try:
                self.model = ReductionModel(parse_shape(shape_box.value), parse_dims(dims_box.value), keepdim_box.value)
                self.problem = ""
            except ValueError as error:
                self.problem = str(error)
            self._refresh()

        for control in (shape_box, dims_box, keepdim_box):
            control.observe(update, names="value")
        return [widgets.HBox([shape_box, dims_box, keepdim_box])]
