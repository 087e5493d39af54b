"""ConvExplorer: which elements of the (zero-padded) input and which kernel taps make each output
of a convolution, for any padding, stride and dilation (conv_arithmetic's pictures, interactive).

One input channel, one output channel, 1-d or 2-d. Along each spatial dim, output ``o`` reads
the padded input at ``o * stride + j * dilation`` for kernel tap ``j = 0 .. k-1``, so

    out[o] = sum over j of padded[o * stride + j * dilation] * weight[j]
    output size = (size + 2 * padding - dilation * (kernel - 1) - 1) // stride + 1.

The model runs the convolution with tensorlab (held to torch by the tests), so results and
errors are torch's; :meth:`ConvModel.taps` lists the (padded position, kernel tap) pairs of an
output element, which is the receptive field the picture lights up.
"""

from __future__ import annotations

import ast
import itertools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .base import ModelExplorer
from .broadcast import parse_shape
from .grid import Index, draw_grid, indices, key
from .svg import COLOURS, GAP, Svg, operand_colour

__all__ = ["ConvExplorer", "ConvModel", "kernel_text", "parse_kernel"]

DRAW_LIMIT = 16  # the padded input is drawn when each of its sizes is at most this
ELEMENT_LIMIT = 4_096


def parse_kernel(text: str) -> list:
    """``"[1, 1, 1]"`` or ``"[[1, 0], [0, 1]]"`` -> nested lists of numbers; ValueError for anything else."""
    try:
        value = ast.literal_eval(text.strip())
    except (ValueError, SyntaxError):
        raise ValueError(f"not a list of numbers: {text!r}") from None
    try:
        array = np.asarray(value, dtype=np.float64)
    except (ValueError, TypeError):
        raise ValueError(f"not a list of numbers: {text!r}") from None
    if array.ndim not in (1, 2) or array.dtype.kind != "f":
        raise ValueError(f"the kernel is a list (1-d) or a list of lists (2-d): {text!r}")
    return array.tolist()


def kernel_text(weight: np.ndarray) -> str:
    """The kernel as the control shows it: ``[1, 0.5, 1]`` (integers without a decimal point)."""
    if weight.ndim == 1:
        return "[" + ", ".join(_number(v) for v in weight) + "]"
    return "[" + ", ".join(kernel_text(row) for row in weight) + "]"


def _per_dim(value: int | Sequence[int], n: int, name: str) -> tuple[int, ...]:
    sizes = (int(value),) * n if isinstance(value, (int, np.integer)) else tuple(int(v) for v in value)
    if len(sizes) != n:
        raise ValueError(f"{name} needs one number per spatial dim ({n}), got {sizes}")
    return sizes


class ConvModel:
    """What the picture shows: a 1-channel conv1d (1-d shape) or conv2d (2-d shape).

    ``shape``: the input's spatial shape; its values are 0, 1, 2, ... ``kernel``: the weight as
    nested lists (same number of dims). ``padding``, ``stride``, ``dilation``: an int or one per dim.
    After construction: ``x`` (input), ``weight``, ``padded`` (input with ``padding`` zeros on
    every side), ``result`` (None on error) and ``error`` ((exception class name, message) or None).
    """

    def __init__(self, shape: Sequence[int] = (4,), kernel: Any = (1, 1, 1), padding: int | Sequence[int] = 0,
                 stride: int | Sequence[int] = 1, dilation: int | Sequence[int] = 1) -> None:
        self.shape = tuple(int(size) for size in shape)
        self.weight = np.asarray(kernel, dtype=np.float32)
        n = len(self.shape)
        if n not in (1, 2) or self.weight.ndim != n:
            raise ValueError(f"the input shape and the kernel need the same number of dims, 1 or 2 (got {self.shape} and a {self.weight.ndim}-d kernel)")
        self.padding = _per_dim(padding, n, "padding")
        self.stride = _per_dim(stride, n, "stride")
        self.dilation = _per_dim(dilation, n, "dilation")
        if math.prod(size + 2 * p for size, p in zip(self.shape, self.padding, strict=True)) > ELEMENT_LIMIT:
            raise ValueError(f"keep the padded input under {ELEMENT_LIMIT} elements")
        self.x = np.arange(math.prod(self.shape), dtype=np.float32).reshape(self.shape)
        self.padded = np.pad(self.x, [(p, p) for p in self.padding]) if min(self.padding) >= 0 else self.x
        self.result: np.ndarray | None = None
        self.error: tuple[str, str] | None = None
        self._run()

    @property
    def dims(self) -> int:
        return len(self.shape)

    def call(self) -> str:
        """The torch call this picture shows (input and weight with batch and channel dims of 1)."""
        name = "conv1d" if self.dims == 1 else "conv2d"
        extras = [f"{word}={self._shown(value)}" for word, value, default in
                  (("stride", self.stride, 1), ("padding", self.padding, 0), ("dilation", self.dilation, 1))
                  if any(v != default for v in value)]
        return f"F.{name}(x, w{''.join(', ' + e for e in extras)})"

    @staticmethod
    def _shown(value: tuple[int, ...]) -> str:
        return str(value[0]) if len(set(value)) == 1 else str(value)

    def _run(self) -> None:
        from .. import _creation
        from ..ops import conv

        x = _creation.tensor(self.x.reshape(1, 1, *self.shape))
        w = _creation.tensor(self.weight.reshape(1, 1, *self.weight.shape))
        op = conv.conv1d if self.dims == 1 else conv.conv2d
        try:
            result = op(x, w, None, self.stride, self.padding, self.dilation)
        except (RuntimeError, ValueError) as error:
            self.error = (type(error).__name__, str(error))
            return
        self.result = result.numpy().reshape(result.shape[2:])

    def output_size(self) -> tuple[int, ...]:
        """(size + 2*padding - dilation*(kernel-1) - 1) // stride + 1 per dim: the formula torch uses."""
        return tuple(
            (size + 2 * p - d * (k - 1) - 1) // s + 1
            for size, p, d, k, s in zip(self.shape, self.padding, self.dilation, self.weight.shape, self.stride, strict=True)
        )

    def taps(self, out: Sequence[int]) -> list[tuple[Index, Index]]:
        """(position in the padded input, kernel tap) for every term of the sum that makes ``out``."""
        per_dim = [
            [(o * s + j * d, j) for j in range(k)]
            for o, s, d, k in zip(out, self.stride, self.dilation, self.weight.shape, strict=True)
        ]
        return [(tuple(p for p, _ in pairs), tuple(j for _, j in pairs)) for pairs in itertools.product(*per_dim)]

    def is_padding(self, position: Sequence[int]) -> bool:
        """Is this position of the padded input one of the added zeros?"""
        return any(not p <= i < p + size for i, p, size in zip(position, self.padding, self.shape, strict=True))

    def original(self, position: Sequence[int]) -> Index:
        """The input index a (non-padding) position of the padded input holds."""
        return tuple(i - p for i, p in zip(position, self.padding, strict=True))

    def describe(self) -> str:
        """One line: the call, the output-size formula, and the outcome in torch's words."""
        head = f"{self.call()} with x: {list(self.shape)}, w: {list(self.weight.shape)}"
        if self.error is not None:
            return f"{head} -> {self.error[0]}: {self.error[1]}"
        assert self.result is not None
        formula = ", ".join(
            f"({size} + 2*{p} - {d}*({k}-1) - 1) // {s} + 1 = {o}"
            for size, p, d, k, s, o in zip(self.shape, self.padding, self.dilation, self.weight.shape, self.stride,
                                           self.result.shape, strict=True)
        )
        return f"{head} -> output {list(self.result.shape)}: {formula}"

    def drawable(self) -> bool:
        return all(size <= DRAW_LIMIT for size in self.padded.shape) and self.weight.size <= 25


def _at(name: str, index: Sequence[int]) -> str:
    return f"{name}[{', '.join(map(str, index))}]"


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.3g}"


def render_svg(model: ConvModel) -> str:
    svg = Svg("tl-conv")
    outcome = model.describe().split(" -> ", 1)[1]
    svg.label(4, 16, outcome, COLOURS["error"] if model.error else COLOURS["text"], 12, class_="tl-outcome")
    if model.error is not None or not model.drawable():
        if model.error is None:
            svg.label(4, 36, f"(drawn for a padded input of at most {DRAW_LIMIT} per dim and a kernel of at most 25 taps)",
                      COLOURS["muted"], 11)
        return str(svg)
    assert model.result is not None
    padded_links: dict[Index, list[str]] = {}
    padded_infos: dict[Index, str] = {}
    weight_links: dict[Index, list[str]] = {}
    out_links: dict[Index, list[str]] = {}
    out_infos: dict[Index, str] = {}
    readers: dict[Index, list[tuple[Index, Index]]] = {}
    for out in indices(model.result.shape) if model.result.size else []:
        terms = model.taps(out)
        out_links[out] = [key("xp", p) for p, _ in terms] + [key("w", j) for _, j in terms]
        products = " + ".join(f"{_number(model.padded[p])}*{_number(model.weight[j])}" for p, j in terms)
        out_infos[out] = (f"{_at('out', out)} = {_number(model.result[out])} = {products}: padded positions "
                          f"{', '.join(str(list(p)) for p, _ in terms)}")
        for p, j in terms:
            readers.setdefault(p, []).append((out, j))
            weight_links.setdefault(j, []).append(key("out", out))
    cell_colours: dict[Index, str] = {}
    for position in indices(model.padded.shape):
        hits = readers.get(position, [])
        padded_links[position] = [key("out", o) for o, _ in hits] + [key("w", j) for _, j in hits]
        where = "a padding zero" if model.is_padding(position) else f"= {_at('x', model.original(position))}"
        padded_infos[position] = (f"padded{list(position)} {where}: read by {len(hits)} output element(s)"
                                  + (f" ({', '.join(_at('out', o) for o, _ in hits)})" if hits else ""))
        if model.is_padding(position):
            cell_colours[position] = COLOURS["padded"]
    weight_infos = {
        j: f"{_at('w', j)} = {_number(model.weight[j])} multiplies one input element for each of {len(links)} output(s)"
        for j, links in weight_links.items()
    }
    x, top = 4.0, 34.0
    title = f"x padded by {model._shown(model.padding)} {list(model.padded.shape)}"
    x += draw_grid(svg, x, top, title, model.padded, "xp", operand_colour(0), padded_links, padded_infos, cell_colours) + GAP
    x += draw_grid(svg, x, top, f"w {list(model.weight.shape)}", model.weight, "w", operand_colour(1), weight_links, weight_infos) + GAP
    svg.label(x, top + 20 + 18, "→", COLOURS["text"], 16)
    x += 2 * GAP
    draw_grid(svg, x, top, f"out {list(model.result.shape)}", model.result, "out", COLOURS["result"], out_links, out_infos)
    return str(svg)


class ConvExplorer(ModelExplorer):
    """``ConvExplorer((4,), [1, 1, 1], padding=1)``, or a 2-d shape with a 2-d kernel: hover an output
    element to light up its receptive field in the padded input and the kernel taps it uses."""

    render = staticmethod(render_svg)

    def __init__(self, shape: Sequence[int] = (4,), kernel: Any = (1, 1, 1), padding: int | Sequence[int] = 0,
                 stride: int | Sequence[int] = 1, dilation: int | Sequence[int] = 1) -> None:
        self.model = ConvModel(shape, kernel, padding, stride, dilation)
        self.problem = ""

    def _controls(self, widgets: Any) -> list:
        model = self.model
        shape_box = widgets.Text(value=", ".join(map(str, model.shape)), description="x shape", continuous_update=False)
        kernel_box = widgets.Text(value=kernel_text(model.weight), description="w",
                                  continuous_update=False, layout=widgets.Layout(width="300px"))
        boxes = {name: widgets.Text(value=", ".join(map(str, getattr(model, name))), description=name,
                                    continuous_update=False, layout=widgets.Layout(width="180px"))
                 for name in ("padding", "stride", "dilation")}

        def update(_change: Any = None) -> None:
            try:
                numbers = {name: parse_shape(box.value) for name, box in boxes.items()}
                self.model = ConvModel(parse_shape(shape_box.value), parse_kernel(kernel_box.value),
                                       **{name: value[0] if len(value) == 1 else value for name, value in numbers.items()})
                self.problem = ""
            except ValueError as error:
                self.problem = str(error)
            self._refresh()

        for control in (shape_box, kernel_box, *boxes.values()):
            control.observe(update, names="value")
        return [widgets.HBox([shape_box, kernel_box]), widgets.HBox(list(boxes.values()))]
