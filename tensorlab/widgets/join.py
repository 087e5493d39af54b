"""JoinExplorer: cat and stack copy blocks into a new tensor; split, chunk and unbind cut views out of one.

The model runs the op with tensorlab on small example tensors (the first input holds 0, 1, 2, ...,
the next one continues the count), so the shapes, the pieces and torch's errors are tensorlab's,
which the test suite holds to torch's. For every element it knows where the element comes from:
``origin(k, index)`` names the input and the index that result ``k``'s element ``index`` was copied
from (cat, stack) or reads (split, chunk, unbind). Pieces of a split are views: each one's strides
and ``storage_offset`` are shown, with the offset's arithmetic in the hover text.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .base import ModelExplorer
from .broadcast import parse_shape
from .grid import Index, block_size, draw_grid, indices, key
from .svg import CELL, COLOURS, GAP, Svg, operand_colour

__all__ = ["JOIN_OPS", "SPLIT_OPS", "JoinExplorer", "JoinModel", "parse_split_argument"]

JOIN_OPS = ("cat", "stack")  # many inputs -> one new tensor (a copy)
SPLIT_OPS = ("split", "chunk", "unbind")  # one input -> several views of it
DRAW_LIMIT = 8  # tensors are drawn when every size is at most this (and at most 3 dims)
ELEMENT_LIMIT = 10_000  # the model builds its example tensors, so keep them small


def parse_split_argument(text: str) -> int | list[int]:
    """``"2"`` -> 2 (a size, or a number of chunks); ``"1, 4"`` / ``"[1, 4]"`` -> [1, 4] (sizes)."""
    inner = text.strip()
    if inner.startswith(("[", "(")) or "," in inner:
        return list(parse_shape(inner))
    try:
        return int(inner)
    except ValueError:
        raise ValueError(f"not a size or a list of sizes: {text!r}") from None


class JoinModel:
    """What the join/split picture shows, for ``op`` in ``cat``, ``stack``, ``split``, ``chunk``, ``unbind``.

    ``shapes``: the input shapes (one for the split ops); ``argument``: split's size or list of
    sizes, chunk's number of chunks (ignored otherwise); ``dim``: as torch takes it (may be negative).
    After construction: ``inputs`` and ``results`` (NumPy arrays of the example values; ``results``
    has one array for cat/stack and one per piece for the split ops), ``dim`` wrapped to a
    non-negative dim, ``strides`` and ``offsets`` (each result's strides and ``storage_offset``),
    ``error`` (``(exception class name, message)`` when tensorlab and torch refuse, else None).
    """

    def __init__(self, op: str, shapes: Sequence[Sequence[int]], argument: int | Sequence[int] | None = None,
                 dim: int = 0) -> None:
        if op not in JOIN_OPS + SPLIT_OPS:
            raise ValueError(f"op must be one of {', '.join(JOIN_OPS + SPLIT_OPS)}, not {op!r}")
        self.op = op
        self.shapes = [tuple(int(size) for size in shape) for shape in shapes]
        if not self.shapes or (op in SPLIT_OPS and len(self.shapes) != 1):
            raise ValueError(f"{op} takes {'one shape' if op in SPLIT_OPS else 'one or more shapes'}")
        if sum(math.prod(shape) for shape in self.shapes) > ELEMENT_LIMIT:
            raise ValueError(f"keep the tensors under {ELEMENT_LIMIT} elements in all")
        self.argument = 2 if argument is None and op in ("split", "chunk") else argument
        self.requested_dim = dim
        starts = np.cumsum([0] + [math.prod(shape) for shape in self.shapes])
        self.inputs = [np.arange(start, start + math.prod(shape)).reshape(shape) for start, shape in zip(starts, self.shapes, strict=False)]
        self.dim = dim
        self.results: list[np.ndarray] = []
        self.strides: list[tuple[int, ...]] = []
        self.offsets: list[int] = []
        self.error: tuple[str, str] | None = None
        self._run()

    def _run(self) -> None:
        """Run the op with tensorlab: its shapes, strides, offsets and errors are torch's."""
        from .. import _creation
        from ..ops import join

        tensors = [_creation.tensor(values) for values in self.inputs]
        try:
            if self.op == "cat":
                outcome: Any = (join.cat(tensors, self.requested_dim),)
            elif self.op == "stack":
                outcome = (join.stack(tensors, self.requested_dim),)
            elif self.op == "split":
                outcome = join.split(tensors[0], self.argument, self.requested_dim)
            elif self.op == "chunk":
                outcome = join.chunk(tensors[0], self.argument, self.requested_dim)  # type: ignore[arg-type]
            else:
                outcome = join.unbind(tensors[0], self.requested_dim)
        except (RuntimeError, IndexError, ValueError, TypeError) as error:
            self.error = (type(error).__name__, str(error))
            return
        self.results = [result.numpy() for result in outcome]
        self.strides = [tuple(result.stride()) for result in outcome]
        self.offsets = [result.storage_offset() for result in outcome]
        ndim = len(self.shapes[0]) + (1 if self.op == "stack" else 0)
        self.dim = self.requested_dim % ndim if ndim else 0

    @property
    def copies(self) -> bool:
        """cat and stack write into new storage; the split ops return views of their input."""
        return self.op in JOIN_OPS

    def origin(self, result: int, index: Index) -> tuple[int, Index]:
        """(input number, input index) of the element ``index`` of result ``result``."""
        index = tuple(index)
        d = self.dim
        if self.op == "stack":
            return index[d], index[:d] + index[d + 1:]
        if self.op == "cat":
            position = index[d]
            for k, shape in enumerate(self.shapes):
                if shape == (0,):
                    continue  # a legacy empty (0,) tensor, which cat skips whatever the other shapes
                if position < shape[d]:
                    return k, (*index[:d], position, *index[d + 1:])
                position -= shape[d]
            raise IndexError(f"{index} is outside the result")
        if self.op == "unbind":
            return 0, (*index[:d], result, *index[d:])
        start = sum(piece.shape[d] for piece in self.results[:result])
        return 0, (*index[:d], index[d] + start, *index[d + 1:])

    def describe(self) -> str:
        """One line: the call and its outcome, in torch's words."""
        if self.op in JOIN_OPS:
            names = [_name(k) for k in range(len(self.shapes))]
            call = f"torch.{self.op}([{', '.join(names)}], dim={self.requested_dim})"
            shapes = ", ".join(f"{name}: {shape}" for name, shape in zip(names, self.shapes, strict=True))
        else:
            argument = "" if self.op == "unbind" else f"{self.argument}, "
            call, shapes = f"x.{self.op}({argument}dim={self.requested_dim})", f"x: {self.shapes[0]}"
        call = f"{call} with {shapes}"
        if self.error is not None:
            return f"{call} -> {self.error[0]}: {self.error[1]}"
        if self.copies:
            return f"{call} -> torch.Size({list(self.results[0].shape)}), a copy in new storage"
        shapes = ", ".join(str(list(result.shape)) for result in self.results)
        return f"{call} -> {len(self.results)} view(s) of x: {shapes}"

    def drawable(self) -> bool:
        tensors = [*self.inputs, *self.results]
        return all(array.ndim <= 3 and all(size <= DRAW_LIMIT for size in array.shape) for array in tensors) and len(tensors) <= 12


def _name(k: int) -> str:
    return "abcdefghij"[k] if k < 10 else f"t{k}"


def render_svg(model: JoinModel) -> str:
    svg = Svg("tl-join")
    colour = COLOURS["error"] if model.error else COLOURS["text"]
    svg.label(4, 16, model.describe().split(" -> ", 1)[1], colour, 12, class_="tl-outcome")
    if model.error is not None or not model.drawable():
        if model.error is None:
            svg.label(4, 36, f"(drawn for up to 3 dims of at most {DRAW_LIMIT} elements)", COLOURS["muted"], 11)
        return str(svg)
    names = [_name(k) for k in range(len(model.inputs))] if model.copies else ["x"]
    results = ["out"] if model.copies else [f"p{k}" for k in range(len(model.results))]
    readers: dict[str, list[str]] = {}
    result_links: list[dict[Index, list[str]]] = []
    result_infos: list[dict[Index, str]] = []
    for k, array in enumerate(model.results):
        links, infos = {}, {}
        for index in indices(tuple(array.shape)) if array.size else []:
            source, at = model.origin(k, index)
            source_key = key(names[source], at)
            links[index] = [source_key]
            readers.setdefault(source_key, []).append(key(results[k], index))
            where = f"{names[source]}[{', '.join(map(str, at))}]"
            if model.copies:
                infos[index] = f"out[{', '.join(map(str, index))}] = {int(array[index])}, copied from {where}"
            else:
                terms = " + ".join(f"{i}*{s}" for i, s in zip(index, model.strides[k], strict=True)) or "0"
                slot = model.offsets[k] + sum(i * s for i, s in zip(index, model.strides[k], strict=True))
                infos[index] = (f"{results[k]}[{', '.join(map(str, index))}] = {int(array[index])} is {where}: "
                                f"storage slot {model.offsets[k]} + {terms} = {slot}")
        result_links.append(links)
        result_infos.append(infos)
    x, top = 4.0, 34.0
    for k, array in enumerate(model.inputs):
        input_links = {index: readers.get(key(names[k], index), []) for index in indices(tuple(array.shape))}
        input_infos = {index: f"{names[k]}[{', '.join(map(str, index))}] = {int(array[index])}, in "
                       f"{', '.join(readers.get(key(names[k], index), [])) or 'no piece'}" for index in indices(tuple(array.shape))}
        title = f"{names[k]} {list(array.shape)}"
        piece_of = {index: operand_colour(int(readers[key(names[k], index)][0][1:].split(":")[0]))
                    for index in input_links if not model.copies and readers.get(key(names[k], index))}
        x += draw_grid(svg, x, top, title, array, names[k], operand_colour(k) if model.copies else COLOURS["result"],
                          input_links, input_infos, piece_of) + GAP
    svg.label(x, top + 20 + CELL / 2 + 4, "→", COLOURS["text"], 16)
    x += 2 * GAP
    for k, array in enumerate(model.results):
        if model.copies:
            title = f"out {list(array.shape)}: new storage (copy)"
            colour = COLOURS["result"]
        else:
            title = f"{results[k]} {list(array.shape)} view: offset {model.offsets[k]}, strides {model.strides[k]}"
            colour = operand_colour(k)
        came_from = {index: operand_colour(model.origin(k, index)[0]) for index in result_links[k]} if model.copies else {}
        width = draw_grid(svg, x, top, title, array, results[k], colour, result_links[k], result_infos[k],
                             came_from, dashed=not model.copies)
        if model.copies:
            x += width + GAP
        else:
            top += block_size(tuple(array.shape))[1] + 30  # pieces one under the other, titles readable
    return str(svg)


class JoinExplorer(ModelExplorer):
    """``JoinExplorer("cat", [(2, 3), (1, 3)], dim=0)``, ``JoinExplorer("chunk", [(6, 2)], 4)``,
    ``JoinExplorer("unbind", [(2, 3)], dim=1)``: the op, the input shapes, split's size(s) or chunk's count, dim."""

    render = staticmethod(render_svg)

    def __init__(self, op: str = "cat", shapes: Sequence[Sequence[int]] = ((2, 3), (1, 3)),
                 argument: int | Sequence[int] | None = None, dim: int = 0) -> None:
        self.model = JoinModel(op, shapes, argument, dim)
        self.problem = ""  # a typing mistake in a control, shown instead of the model's summary

    def _controls(self, widgets: Any) -> list:
        model = self.model
        operation = widgets.ToggleButtons(options=list(JOIN_OPS + SPLIT_OPS), value=model.op)
        shapes_box = widgets.Text(value="; ".join(", ".join(map(str, shape)) for shape in model.shapes),
                                  description="shapes", continuous_update=False, placeholder="2, 3; 1, 3")
        argument_box = widgets.Text(value="" if model.argument is None else str(model.argument).strip("[]"),
                                    description="size(s)", continuous_update=False, placeholder="2 or 1, 4")
        dim_box = widgets.IntText(value=model.requested_dim, description="dim")

        def update(_change: Any = None) -> None:
            try:
                shapes = [parse_shape(text) for text in shapes_box.value.split(";") if text.strip()]
                if operation.value in SPLIT_OPS:
                    shapes = shapes[:1]
                text = argument_box.value.strip()
                argument = parse_split_argument(text) if text and operation.value in ("split", "chunk") else None
                self.model = JoinModel(operation.value, shapes, argument, dim_box.value)
                self.problem = ""
            except ValueError as error:
                self.problem = str(error)
            self._refresh()

        for control in (operation, shapes_box, argument_box, dim_box):
            control.observe(update, names="value")
        return [operation, widgets.HBox([shapes_box, argument_box, dim_box])]
