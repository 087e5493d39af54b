"""BroadcastExplorer: how two or three shapes line up, stretch, and combine (or why they cannot).

The model answers the questions the picture shows: the shapes right-aligned with their padded
1s, which dims stretch, the result shape or torch's exact error, and which input cells a given
output cell reads. ``matmul=True`` applies matmul's rule instead: the last two dims multiply as
matrices ((n, k) @ (k, m) -> (n, m)) and only the dims before them broadcast.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..ops.broadcasting import broadcast_pair, broadcast_shapes
from .base import ModelExplorer
from .svg import CELL, COLOURS, GAP, Svg, operand_colour

__all__ = ["BroadcastExplorer", "BroadcastModel", "parse_shape"]

NAMES = "abc"
GRID_LIMIT = 8  # grids are drawn for tensors of at most 2 dims and 8 elements per dim
SIZE_LIMIT = 1_000_000  # matmul's error is found by running it on zeros, so keep operands small


def parse_shape(text: str) -> tuple[int, ...]:
    """``"3, 1"`` / ``"(3, 1)"`` / ``"[3,1]"`` / ``"()"`` -> a shape tuple; ValueError on anything else."""
    inner = text.strip().strip("()[]").strip()
    if not inner:
        return ()
    try:
        sizes = tuple(int(part) for part in inner.split(",") if part.strip())
    except ValueError:
        raise ValueError(f"not a shape: {text!r} (write sizes separated by commas, e.g. 3, 1)") from None
    if any(size < 0 for size in sizes):
        raise ValueError(f"sizes cannot be negative: {text!r}")
    return sizes


class BroadcastModel:
    """Everything the broadcast picture shows, computed from the operand shapes alone.

    Attributes: ``aligned[k]`` (operand k's dims right-aligned, padded with 1s),
    ``padded[k][d]`` (that 1 was added on the left), ``stretched[k][d]`` (a size-1 dim that is
    repeated), ``conflicts`` (aligned columns whose sizes cannot broadcast), ``result`` (the
    result shape, or None) and ``error`` (``(exception class name, message)``, or None).
    In matmul mode the alignment covers only the batch dims (all but the last two).
    """

    def __init__(self, shapes: Sequence[Sequence[int]], matmul: bool = False) -> None:
        if not 2 <= len(shapes) <= 3 or (matmul and len(shapes) != 2):
            raise ValueError("give two or three shapes (exactly two for matmul)")
        self.shapes = tuple(tuple(int(s) for s in shape) for shape in shapes)
        self.matmul = matmul
        batch = [self._batch_dims(shape) for shape in self.shapes]
        self.ndim = max(len(shape) for shape in batch)
        self.padded = [[d < self.ndim - len(shape) for d in range(self.ndim)] for shape in batch]
        self.aligned = [(1,) * (self.ndim - len(shape)) + shape for shape in batch]
        columns = list(zip(*self.aligned, strict=True))
        self.targets = [next((s for s in column if s != 1), 1) for column in columns]
        self.stretched = [[s == 1 and t != 1 for s, t in zip(shape, self.targets, strict=True)] for shape in self.aligned]
        self.conflicts = [d for d, column in enumerate(columns) if len({s for s in column if s != 1}) > 1]
        self.result, self.error = self._outcome()

    def _batch_dims(self, shape: tuple[int, ...]) -> tuple[int, ...]:
        return shape[:-2] if self.matmul else shape

    def _outcome(self) -> tuple[tuple[int, ...] | None, tuple[str, str] | None]:
        """torch's verdict: ``a + b`` for two shapes, ``torch.broadcast_shapes`` for three, or ``a @ b``."""
        try:
            if self.matmul:
                return self._matmul_shape(), None
            if len(self.shapes) == 2:
                return tuple(broadcast_pair(*self.shapes)), None
            return tuple(broadcast_shapes(*self.shapes)), None
        except (RuntimeError, ValueError) as error:
            return None, (type(error).__name__, str(error))

    def _matmul_shape(self) -> tuple[int, ...]:
        """Run tensorlab's matmul on zeros: its checks are torch's, so its errors are too."""
        from .._creation import zeros
        from ..ops.linalg import matmul

        if any(math.prod(shape) > SIZE_LIMIT for shape in self.shapes):
            raise ValueError(f"the explorer runs matmul on zeros: keep each operand under {SIZE_LIMIT} elements")
        return tuple(matmul(zeros(self.shapes[0]), zeros(self.shapes[1])).shape)

    # --- which input cells an output cell reads -----------------------------------------
    def sources(self, out_index: Sequence[int]) -> list[list[tuple[int, ...]]]:
        """For output element ``out_index``, the elements of each operand that produce it.

        Broadcasting: one element per operand, with stretched dims read at 0 and padded dims
        dropped. matmul: the whole row ``i`` of a and the whole column ``j`` of b.
        """
        self.result_shape()
        out_index = tuple(out_index)
        batch = out_index[: self.ndim]
        reads = []
        for k, shape in enumerate(self.aligned):
            index = tuple(0 if size == 1 else i for i, size, pad in zip(batch, shape, self.padded[k], strict=True) if not pad)
            reads.append(index)
        if not self.matmul:
            return [[index] for index in reads]
        a, b = self.shapes
        rest = list(out_index[self.ndim :])
        row = (rest.pop(0),) if len(a) > 1 else ()
        column = (rest.pop(0),) if len(b) > 1 else ()
        inner = a[-1]
        return [
            [reads[0] + row + (k,) for k in range(inner)],
            [reads[1] + ((k,) + column) for k in range(inner)],
        ]

    def result_shape(self) -> tuple[int, ...]:
        """The output's shape; asking for it when the shapes do not broadcast is an error."""
        if self.result is None:
            raise ValueError("the shapes do not broadcast, so there is no output")
        return self.result

    def describe(self) -> str:
        """One line: the operation and its outcome, in torch's words."""
        symbol = " @ " if self.matmul else (" + " if len(self.shapes) == 2 else ", ")
        operands = symbol.join(f"{NAMES[k]}{shape}" for k, shape in enumerate(self.shapes))
        if self.result is None:
            assert self.error is not None  # _outcome gives a shape or an error, never neither
            return f"{operands} -> {self.error[0]}: {self.error[1]}"
        return f"{operands} -> torch.Size({list(self.result)})"

    # --- the grid view ------------------------------------------------------------------
    def drawable(self) -> bool:
        """Grids are drawn only when every tensor is at most 2-D and small."""
        shapes = [*self.shapes, self.result] if self.result is not None else []
        return bool(shapes) and all(len(s) <= 2 and all(size <= GRID_LIMIT for size in s) for s in shapes)

    def values(self) -> tuple[list[np.ndarray], np.ndarray]:
        """Example contents: a = 0, 1, 2, ...; b = 0, 10, 20, ...; c = 0, 100, ...; and the result."""
        inputs = [np.arange(math.prod(s)).reshape(s) * 10**k for k, s in enumerate(self.shapes)]
        if self.matmul:
            return inputs, np.matmul(*inputs)
        shape = self.result_shape()
        return inputs, np.add.reduce([np.broadcast_to(x, shape) for x in inputs])


def _key(name: str, index: Sequence[int]) -> str:
    return f"{name}:{','.join(str(i) for i in index)}"


def _cells(shape: tuple[int, ...]) -> list[tuple[int, ...]]:
    return [tuple(int(i) for i in index) for index in np.ndindex(*shape)] if shape else [()]


def _draw_alignment(svg: Svg, model: BroadcastModel, top: float) -> float:
    """The shape table: one row per operand, one column per aligned dim, then the result row."""
    step = CELL + 4
    left = 60
    rows = [*((NAMES[k], shape) for k, shape in enumerate(model.shapes)), ("out", model.result)]
    matrix_left = left + max(model.ndim, 1) * step + GAP
    for d in range(model.ndim):
        svg.label(left + d * step + 4, top + 10, f"{d - model.ndim}", COLOURS["muted"], 10)
    if model.matmul:
        svg.label(matrix_left, top + 10, "matrix dims", COLOURS["muted"], 10)
    y = top + 16
    for row, (name, shape) in enumerate(rows):
        is_result = name == "out"
        colour = COLOURS["result"] if is_result else operand_colour(row)
        svg.label(4, y + CELL / 2 + 4, name, colour, 13, font_weight="bold")
        if shape is None:
            svg.label(left, y + CELL / 2 + 4, "no result", COLOURS["error"])
            y += step
            continue
        batch = shape[: model.ndim] if is_result else model.aligned[row]
        for d, size in enumerate(batch):
            key = f"dim:{name}:{d - model.ndim}"
            if is_result:
                info, fill, stroke, dashed = f"result dim {d - model.ndim}: size {size}", "#ffffff", colour, False
            else:
                padded, stretched = model.padded[row][d], model.stretched[row][d]
                conflict = d in model.conflicts and size != 1
                fill = COLOURS["stretched"] if stretched else "#ffffff"
                stroke = COLOURS["error"] if conflict else (COLOURS["padded"] if padded else colour)
                dashed = padded
                info = f"{name} dim {d - model.ndim}: size {size}"
                if padded:
                    info += f" (padded: {name} has {len(shape) - (2 if model.matmul else 0)} batch dims, a 1 is added on the left)"
                if stretched:
                    info += f", stretched to {model.targets[d]} (stride 0: one element reused)"
                if conflict:
                    info += f" - cannot broadcast with {model.targets[d]}: neither is 1"
            svg.cell(left + d * step, y, size, fill, key, info=info, stroke=stroke, dashed=dashed)
        if model.matmul:
            _draw_matrix_dims(svg, model, name, shape, matrix_left, y)
        y += step
    return y


def _draw_matrix_dims(svg: Svg, model: BroadcastModel, name: str, shape: tuple[int, ...], left: float, y: float) -> None:
    """matmul's last two dims: (n, k) for a, (k, m) for b, (n, m) for the result."""
    a, b = model.shapes
    a_k, b_k = a[-1] if a else None, (b[-2] if len(b) > 1 else b[0]) if b else None
    if name == "out":
        roles = (["n"] if len(a) > 1 else []) + (["m"] if len(b) > 1 else [])
        sizes = shape[model.ndim :]
    elif name == "a":
        roles, sizes = (["n", "k"] if len(a) > 1 else ["k"]), a[-2:]
    else:
        roles, sizes = (["k", "m"] if len(b) > 1 else ["k"]), b[-2:]
    for position, (role, size) in enumerate(zip(roles, sizes, strict=False)):
        mismatch = role == "k" and a_k != b_k
        stroke = COLOURS["error"] if mismatch else COLOURS["muted"]
        info = f"{name} matrix dim {role}: size {size}"
        if role == "k":
            info += " (must equal the other operand's k)" + (f": {a_k} != {b_k}" if mismatch else "")
        svg.cell(left + position * (CELL + 4), y, size, "#ffffff", f"mat:{name}:{role}", info=info, stroke=stroke)
        svg.label(left + position * (CELL + 4) + CELL / 2 - 3, y - 2, role, COLOURS["muted"], 9)


def _draw_grids(svg: Svg, model: BroadcastModel, top: float) -> None:
    """Small tensors as grids: hovering an output cell lights up the input cells it reads."""
    inputs, output = model.values()
    readers: dict[str, list[str]] = {}
    out_links: dict[tuple[int, ...], list[str]] = {}
    result = model.result_shape()
    for out_index in _cells(result):
        keys = [_key(NAMES[k], index) for k, reads in enumerate(model.sources(out_index)) for index in reads]
        out_links[out_index] = keys
        for key in keys:
            readers.setdefault(key, []).append(_key("out", out_index))
    x = 4.0
    blocks = [*((NAMES[k], model.shapes[k], inputs[k]) for k in range(len(inputs))), ("out", result, output)]
    for number, (name, shape, data) in enumerate(blocks):
        rows, columns = (shape[0], shape[1]) if len(shape) == 2 else (1, shape[0] if shape else 1)
        is_result = name == "out"
        colour = COLOURS["result"] if is_result else operand_colour(number)
        svg.label(x, top + 12, f"{name} {list(shape)}", colour, 12, font_weight="bold")
        for index in _cells(shape):
            r, c = (index if len(index) == 2 else (0, index[0] if index else 0))
            key = _key(name, index)
            value = int(data[index])
            if is_result:
                reads = ", ".join(out_links[index])
                links, info = out_links[index], f"out[{key[4:]}] = {value} reads {reads}"
            else:
                links = readers.get(key, [])
                info = f"{key.replace(':', '[')}] = {value} is read by {len(links)} output element(s)"
            svg.cell(x + c * CELL, top + 20 + r * CELL, value, "#ffffff", key, links, info, stroke=colour)
        x += max(columns, 2) * CELL + 2 * GAP
        if number < len(blocks) - 1:
            svg.label(x - GAP - 8, top + 20 + rows * CELL / 2 + 4, "=" if number == len(blocks) - 2 else ("@" if model.matmul else "+"), COLOURS["text"], 16)


def render_svg(model: BroadcastModel) -> str:
    svg = Svg("tl-broadcast")
    y = _draw_alignment(svg, model, 4)
    colour = COLOURS["error"] if model.error else COLOURS["text"]
    svg.label(4, y + 14, model.describe().split(" -> ", 1)[1], colour, 12, class_="tl-outcome")
    y += 24
    if model.drawable():
        _draw_grids(svg, model, y)
    elif model.result is not None:
        svg.label(4, y + 14, f"(grids are drawn for tensors up to 2-D with at most {GRID_LIMIT} per dim)", COLOURS["muted"], 11)
    return str(svg)


class BroadcastExplorer(ModelExplorer):
    """``BroadcastExplorer((3, 1), (4,))``, or ``matmul=True`` for ``a @ b``; shapes may be strings."""

    render = staticmethod(render_svg)

    def __init__(self, *shapes: Sequence[int] | str, matmul: bool = False) -> None:
        if not shapes:
            shapes = ((3, 1), (4,))
        self.texts = [s if isinstance(s, str) else ", ".join(str(i) for i in s) for s in shapes]
        self.model = BroadcastModel([parse_shape(t) if isinstance(t, str) else t for t in shapes], matmul)
        self.problem = ""  # a typing mistake in a control, shown instead of the model's summary

    def _controls(self, widgets: Any) -> list:
        boxes = [
            widgets.Text(value=text, description=f"{NAMES[k]} shape", continuous_update=False)
            for k, text in enumerate(self.texts)
        ]
        operation = widgets.ToggleButtons(options=["broadcast", "matmul"], value="matmul" if self.model.matmul else "broadcast")

        def update(_change: Any = None) -> None:
            try:
                shapes = [parse_shape(box.value) for box in boxes]
                self.model = BroadcastModel(shapes, operation.value == "matmul" and len(shapes) == 2)
                self.problem = ""
            except ValueError as error:
                self.problem = str(error)
            self._refresh()

        for control in [*boxes, operation]:
            control.observe(update, names="value")
        return [widgets.HBox(boxes), operation]
