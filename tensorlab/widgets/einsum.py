"""EinsumExplorer: an einsum spec written out as the nested loops it stands for.

The model reads the spec with tensorlab's own parser (``tensorlab.ops.einsum.parse_equation``,
the step einsum itself starts with), so it answers exactly what einsum does: each operand's
letters (``...`` becomes one name per broadcast dim, ``…0``, ``…1``...), the output letters
(implicit when there is no ``->``: the letters seen once, sorted), every letter's size, which
letters are kept and which are summed, the result shape, and torch's error when the spec does
not fit the shapes. The picture links every use of a letter: hover it in the spec, in a shape or
in the loops, and all its other uses light up.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Sequence
from typing import Any

from ..ops.einsum import parse_equation
from .base import ModelExplorer
from .svg import CELL, COLOURS, GAP, Svg, operand_colour, text_width

__all__ = ["EinsumExplorer", "EinsumModel", "parse_shapes"]

Label = str | int  # a letter, or the int einsum gives a dim covered by '...'
LINE = 18  # px between two lines of the loops
CODE_SIZE = 12  # font size of the loops
PRESERVE_SPACES = "white-space: pre"  # SVG collapses the spaces of code otherwise


def parse_shapes(text: str) -> list[tuple[int, ...]]:
    """``"(3, 2, 5), (3, 5, 4)"`` -> [(3, 2, 5), (3, 5, 4)]; ``"(4, 4)"`` -> [(4, 4)]; ValueError otherwise."""
    try:
        value = ast.literal_eval(text.strip() or "()")
    except (ValueError, SyntaxError):
        raise ValueError(f"not shapes: {text!r} (write one tuple per operand, e.g. (3, 2, 5), (3, 5, 4))") from None
    if isinstance(value, tuple) and all(isinstance(size, int) for size in value):
        value = (value,)  # one shape alone, e.g. "(4, 4)" or "()"
    shapes = [tuple(shape) for shape in (value if isinstance(value, (tuple, list)) else [value])]
    if not all(isinstance(shape, tuple) and all(isinstance(s, int) and s >= 0 for s in shape) for shape in shapes):
        raise ValueError(f"not shapes: {text!r} (write one tuple of sizes per operand, e.g. (3, 2, 5), (3, 5, 4))")
    return shapes


class EinsumModel:
    """Everything the einsum picture shows, from the spec and the operand shapes alone.

    Attributes: ``inputs`` (each operand's labels, one per dim), ``output`` (the output's labels),
    ``sizes`` (label -> size), ``summed`` (labels not in the output, in first-seen order),
    ``result`` (the result shape, or None) and ``error`` (``(exception class name, message)``, or None).
    """

    def __init__(self, equation: str, shapes: Sequence[Sequence[int]]) -> None:
        self.equation = equation
        self.shapes = [tuple(int(size) for size in shape) for shape in shapes]
        self.inputs: list[list[Label]] = []
        self.output: list[Label] = []
        self.sizes: dict[Label, int] = {}
        self.summed: list[Label] = []
        self.result: tuple[int, ...] | None = None
        self.error: tuple[str, str] | None = None
        try:
            self.inputs, self.output, self.sizes = parse_equation(equation, self.shapes)
        except RuntimeError as error:
            self.error = (type(error).__name__, str(error))
            return
        seen = [label for labels in self.inputs for label in labels]
        self.summed = [label for i, label in enumerate(seen) if label not in self.output and label not in seen[:i]]
        self.result = tuple(self.sizes[label] for label in self.output)

    def name(self, label: Label) -> str:
        """How a label is written: a letter as itself, the k-th dim under '...' (from the left) as …k."""
        if isinstance(label, str):
            return label
        rank = max((-lab for labels in self.inputs for lab in labels if isinstance(lab, int)), default=0)
        return f"…{rank + label}"

    def loops(self) -> list[str]:
        """The spec as Python: one ``for`` per kept letter, then per summed letter, then the product."""
        if self.error is not None:
            return []
        lines = []
        for depth, label in enumerate([*self.output, *self.summed]):
            lines.append(f"{'  ' * depth}for {self.name(label)} in range({self.sizes[label]}):")
        lines.append("  " * len(lines) + self.statement())
        return lines

    def statement(self) -> str:
        """The innermost line, e.g. ``out[b, i, k] += op0[b, i, j] * op1[b, j, k]``."""
        def element(name: str, labels: Sequence[Label], shape: Sequence[int]) -> str:
            if not labels:
                return name
            return f"{name}[{', '.join(self.index(label, size) for label, size in zip(labels, shape, strict=True))}]"

        product = " * ".join(element(f"op{k}", labels, shape) for k, (labels, shape) in
                             enumerate(zip(self.inputs, self.shapes, strict=True)))
        return f"{element('out', self.output, self.result or ())} += {product}"

    def index(self, label: Label, size: int) -> str:
        """A letter indexes its dim, except a size-1 dim that broadcasts against a larger one: always 0."""
        return "0" if size == 1 and self.sizes[label] != 1 else self.name(label)

    def role(self, label: Label) -> str:
        """One sentence about a letter: its size, kept (as which output dim) or summed, and where it is used."""
        uses = [f"op{k} dim {d}" for k, labels in enumerate(self.inputs) for d, lab in enumerate(labels) if lab == label]
        repeated = any(labels.count(label) > 1 for labels in self.inputs)
        fate = (f"kept as output dim {self.output.index(label)}" if label in self.output
                else "summed (not in the output)")
        extra = ", repeated within one operand: its diagonal" if repeated else ""
        return f"{self.name(label)}: size {self.sizes[label]}, {fate}{extra}; used by {', '.join(uses) or 'the output only'}"

    def multiplications(self) -> int:
        """How many products the loops compute: one per combination of all letters."""
        return math.prod(self.sizes[label] for label in [*self.output, *self.summed])

    def describe(self) -> str:
        """One line: the call and its outcome, in torch's words."""
        call = f"einsum({self.equation!r}, {', '.join(f'op{k}{list(shape)}' for k, shape in enumerate(self.shapes))})"
        if self.error is not None:
            return f"{call} -> {self.error[0]}: {self.error[1]}"
        assert self.result is not None
        summed = ", ".join(self.name(label) for label in self.summed) or "nothing"
        return f"{call} -> torch.Size({list(self.result)}): sums over {summed}; {self.multiplications()} multiply-adds"


# --- the picture -------------------------------------------------------------------------------------
def _key(place: str, label: Label) -> str:
    return f"{place}:{label}"


def render_svg(model: EinsumModel) -> str:
    svg = Svg("tl-einsum")
    colour = COLOURS["error"] if model.error else COLOURS["text"]
    svg.label(4, 14, model.describe().split(" -> ", 1)[1], colour, 12, class_="tl-outcome")
    if model.error is not None:
        return str(svg)
    uses: dict[Label, list[str]] = {}  # label -> the keys of all its drawn uses

    def use(label: Label, place: str) -> str:
        key = _key(place, label)
        uses.setdefault(label, []).append(key)
        return key

    # Plan every use first (so each knows all the others), then draw.
    spec = [[(use(label, f"spec{k}.{d}"), label) for d, label in enumerate(labels)] for k, labels in enumerate(model.inputs)]
    spec_out = [(use(label, f"specout.{d}"), label) for d, label in enumerate(model.output)]
    shape_keys = [[use(label, f"shape{k}.{d}") for d, label in enumerate(labels)] for k, labels in enumerate(model.inputs)]
    shape_out_keys = [use(label, f"shapeout.{d}") for d, label in enumerate(model.output)]
    order = [*model.output, *model.summed]
    loop_keys = [(use(label, f"loop{depth}"), label) for depth, label in enumerate(order)]
    statement_keys: list[list[tuple[str, Label]]] = []
    for k, labels in enumerate([model.output, *model.inputs]):
        statement_keys.append([(use(label, f"stmt{k}.{d}"), label) for d, label in enumerate(labels)])

    def links(key: str, label: Label) -> list[str]:
        return [other for other in uses[label] if other != key]

    def fill(label: Label) -> str:
        return "#ffffff" if label in model.output else COLOURS["stretched"]

    # 1. the spec: one cell per letter, operands in their colours, the output in the result colour
    top, left = 30.0, 4.0
    svg.label(left, top + 18, "spec", COLOURS["muted"], 11)
    left += 40
    for k, cells in enumerate(spec):
        if k:
            svg.label(left, top + 18, ",", COLOURS["text"], 14)
            left += 12
        for key, label in cells:
            svg.cell(left, top, model.name(label), fill(label), key, links(key, label), model.role(label),
                     stroke=operand_colour(k))
            left += CELL + 2
    svg.label(left + 2, top + 18, "->", COLOURS["text"], 14)
    left += 26
    for key, label in spec_out:
        svg.cell(left, top, model.name(label), "#ffffff", key, links(key, label), model.role(label), stroke=COLOURS["result"])
        left += CELL + 2
    implicit = "" if "->" in model.equation else "implicit output (no '->'); "
    svg.label(left + GAP, top + 18, f"({implicit}pale yellow: summed)", COLOURS["muted"], 11)

    # 2. the shapes: each operand's sizes under its letters, and the result's
    top += CELL + 2 * GAP
    left = 4.0
    for k, (labels, shape) in enumerate(zip(model.inputs, model.shapes, strict=True)):
        svg.label(left, top + 12, f"op{k}", operand_colour(k), 12, font_weight="bold")
        for d, (label, size) in enumerate(zip(labels, shape, strict=True)):
            x = left + d * (CELL + 2)
            svg.label(x + CELL / 2, top + 30, model.name(label), COLOURS["muted"], 10, text_anchor="middle")
            broadcast = size == 1 and model.sizes[label] != 1
            info = f"op{k}.shape[{d}] = {size}" + (" (size 1: broadcasts, always index 0)" if broadcast else f" ({model.role(label)})")
            key = shape_keys[k][d]
            svg.cell(x, top + 34, size, fill(label), key, links(key, label), info, stroke=operand_colour(k), dashed=broadcast)
        left += max(len(shape), 1) * (CELL + 2) + 2 * GAP
    svg.label(left, top + 12, "out", COLOURS["result"], 12, font_weight="bold")
    for d, label in enumerate(model.output):
        x = left + d * (CELL + 2)
        svg.label(x + CELL / 2, top + 30, model.name(label), COLOURS["muted"], 10, text_anchor="middle")
        key = shape_out_keys[d]
        svg.cell(x, top + 34, model.sizes[label], "#ffffff", key, links(key, label),
                 f"out.shape[{d}] = {model.sizes[label]} ({model.role(label)})", stroke=COLOURS["result"])
    if not model.output:
        svg.label(left, top + 34 + 18, "() a 0-d tensor", COLOURS["muted"], 11)

    # 3. the loops, as code; every letter in them is hoverable
    top += 34 + CELL + 2 * GAP
    svg.label(4, top, "out = zeros(" + str(tuple(model.result or ())) + ")", COLOURS["text"], CODE_SIZE)
    for depth, (key, label) in enumerate(loop_keys):
        y = top + (depth + 1) * LINE
        x = 4 + text_width("  " * depth + "for ", CODE_SIZE)
        svg.label(4 + text_width("  " * depth, CODE_SIZE), y, "for", COLOURS["text"], CODE_SIZE)
        _code_letter(svg, x, y, model.name(label), key, links(key, label), model.role(label), fill(label))
        rest = f" in range({model.sizes[label]}):" + ("   # summed" if label in model.summed else "   # kept")
        svg.label(x + text_width(model.name(label), CODE_SIZE), y, rest, COLOURS["muted"] if label in model.summed else COLOURS["text"],
                  CODE_SIZE, style=PRESERVE_SPACES)
    y = top + (len(loop_keys) + 1) * LINE
    x = 4 + text_width("  " * len(loop_keys), CODE_SIZE)
    names = ["out"] + [f"op{k}" for k in range(len(model.inputs))]
    shapes = [model.result or (), *model.shapes]
    for k, (name, keys, shape) in enumerate(zip(names, statement_keys, shapes, strict=True)):
        if k == 1:
            x = _code_text(svg, x, y, " += ")
        elif k > 1:
            x = _code_text(svg, x, y, " * ")
        colour = COLOURS["result"] if k == 0 else operand_colour(k - 1)
        x = _code_text(svg, x, y, name + ("[" if keys else ""), colour)
        for d, ((key, label), size) in enumerate(zip(keys, shape, strict=True)):
            if d:
                x = _code_text(svg, x, y, ", ")
            written = model.index(label, size)
            _code_letter(svg, x, y, written, key, links(key, label), model.role(label), fill(label))
            x += text_width(written, CODE_SIZE)
        if keys:
            x = _code_text(svg, x, y, "]", colour)
    return str(svg)


def _code_text(svg: Svg, x: float, y: float, text: str, colour: str = COLOURS["text"]) -> float:
    """Plain code at (x, y); returns where the next piece starts."""
    svg.label(x, y, text, colour, CODE_SIZE, style=PRESERVE_SPACES)
    return x + text_width(text, CODE_SIZE)


def _code_letter(svg: Svg, x: float, y: float, text: str, key: str, links: list[str], info: str, fill: str) -> None:
    """One hoverable index letter inside the code: a box behind it lights up with its other uses."""
    width = text_width(text, CODE_SIZE)
    box = svg.rect(x - 1, y - CODE_SIZE + 1, width + 2, CODE_SIZE + 4, fill=fill, stroke="none")
    letter = svg.text(x, y, text, font_size=CODE_SIZE, font_weight="bold")
    svg.group([box, letter], key, links, info, class_="tl-cell")


class EinsumExplorer(ModelExplorer):
    """``EinsumExplorer("bij,bjk->bik", (3, 2, 5), (3, 5, 4))``: the spec as loops, letters hover-linked.

    Type another spec or other shapes into the boxes; a spec that does not fit shows torch's error.
    """

    render = staticmethod(render_svg)

    def __init__(self, equation: str = "ij,jk->ik", *shapes: Sequence[int]) -> None:
        self.model = EinsumModel(equation, shapes or ((2, 3), (3, 4)))
        self.problem = ""  # a typing mistake in a control, shown instead of the model's summary

    def _controls(self, widgets: Any) -> list:
        model = self.model
        spec_box = widgets.Text(value=model.equation, description="spec", continuous_update=False)
        shapes_box = widgets.Text(value=", ".join(str(shape) for shape in model.shapes), description="shapes",
                                  continuous_update=False, placeholder="(3, 2, 5), (3, 5, 4)")

        def update(_change: Any = None) -> None:
            try:
                self.model = EinsumModel(spec_box.value, parse_shapes(shapes_box.value))
                self.problem = ""
            except ValueError as error:
                self.problem = str(error)
            self._refresh()

        for control in (spec_box, shapes_box):
            control.observe(update, names="value")
        return [widgets.HBox([spec_box, shapes_box])]
