"""GatherExplorer: which ``input`` element each ``gather`` output reads, which ``self`` slot each
``scatter`` source writes.

Both ops walk the index tensor: an element of ``index`` at position ``p`` names a position along
``dim``, and every other coordinate is ``p``'s own. For ``out = input.gather(dim, index)``,
``out[p]`` is read from ``input`` at ``p`` with its ``dim`` coordinate replaced by ``index[p]``. For
``self.scatter(dim, index, src)``, ``src[p]`` is written to that same position of ``self``
(``scatter_add`` adds it; with duplicate positions plain ``scatter`` keeps one write, and torch does
not promise which). The model runs the op with tensorlab (held to torch by the tests), so results
and errors are torch's; ``target(p)`` is the position the rule names.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .base import ModelExplorer
from .broadcast import parse_shape
from .grid import Index, draw_grid, indices, key
from .svg import COLOURS, GAP, Svg, operand_colour

__all__ = ["GATHER_OPS", "GatherExplorer", "GatherModel", "parse_index"]

GATHER_OPS = ("gather", "scatter", "scatter_add")
DRAW_LIMIT = 8  # tensors are drawn when every size is at most this (and at most 3 dims)
ELEMENT_LIMIT = 10_000


def parse_index(text: str) -> list:
    """``"[[0, 0], [2, 1]]"`` -> nested lists of ints; ValueError for anything else."""
    try:
        value = ast.literal_eval(text.strip())
    except (ValueError, SyntaxError):
        raise ValueError(f"not a nested list of integers: {text!r}") from None

    def valid(item: Any) -> bool:
        return type(item) is int or (isinstance(item, (list, tuple)) and all(valid(i) for i in item))

    if not valid(value):
        raise ValueError(f"not a nested list of integers: {text!r}")
    return value if isinstance(value, list) else [value] if isinstance(value, int) else list(value)


class GatherModel:
    """What the gather/scatter picture shows.

    ``op``: ``gather``, ``scatter`` or ``scatter_add``; ``shape``: the shape of ``input`` (gather)
    or ``self`` (scatter); ``index``: nested lists of ints. Example values: ``input`` holds
    0, 1, 2, ...; for scatter, ``self`` is zeros and ``src`` (the shape of ``index``) holds
    1, 2, 3, ... After construction: ``values`` (input or self), ``index``, ``src`` (None for
    gather), ``result`` (None on error) and ``error`` ((exception class name, message) or None).
    """

    def __init__(self, op: str, shape: Sequence[int], dim: int, index: Any) -> None:
        if op not in GATHER_OPS:
            raise ValueError(f"op must be one of {', '.join(GATHER_OPS)}, not {op!r}")
        self.op, self.dim = op, int(dim)
        self.shape = tuple(int(size) for size in shape)
        self.index = np.asarray(index, dtype=np.int64)
        if math.prod(self.shape) + self.index.size > ELEMENT_LIMIT:
            raise ValueError(f"keep the tensors under {ELEMENT_LIMIT} elements in all")
        if op == "gather":
            self.values = np.arange(math.prod(self.shape)).reshape(self.shape)
            self.src: np.ndarray | None = None
        else:
            self.values = np.zeros(self.shape, dtype=np.int64)
            self.src = np.arange(1, self.index.size + 1).reshape(self.index.shape)
        self.result: np.ndarray | None = None
        self.error: tuple[str, str] | None = None
        self._run()

    def _run(self) -> None:
        from .. import _creation
        from ..ops import gather_scatter

        values, index = _creation.tensor(self.values), _creation.tensor(self.index)
        try:
            if self.op == "gather":
                result = gather_scatter.gather(values, self.dim, index)
            elif self.op == "scatter":
                result = gather_scatter.scatter(values, self.dim, index, _creation.tensor(self.src))
            else:
                result = gather_scatter.scatter_add(values, self.dim, index, _creation.tensor(self.src))
        except (RuntimeError, IndexError, ValueError, TypeError) as error:
            self.error = (type(error).__name__, str(error))
            return
        self.result = result.numpy()

    @property
    def axis(self) -> int:
        """``dim`` as a non-negative dim (valid once the op has run without error)."""
        return self.dim % max(len(self.shape), 1)

    def target(self, position: Sequence[int]) -> Index:
        """The position in ``input`` (gather reads it) or ``self`` (scatter writes it) that index[position] names."""
        position = tuple(position)
        if not self.shape:
            return ()
        return (*position[: self.axis], int(self.index[position]), *position[self.axis + 1 :])

    def writers(self, slot: Sequence[int]) -> list[Index]:
        """The positions of ``src`` (and ``index``) whose value lands in ``slot`` (scatter)."""
        return [position for position in indices(self.index.shape) if self.index.size and self.target(position) == tuple(slot)]

    def describe(self) -> str:
        """One line: the call and its outcome, in torch's words."""
        if self.op == "gather":
            call = f"input.gather({self.dim}, index) with input: {self.shape}, index: {self.index.shape}"
        else:
            call = f"self.{self.op}({self.dim}, index, src) with self: {self.shape}, index and src: {self.index.shape}"
        if self.error is not None:
            return f"{call} -> {self.error[0]}: {self.error[1]}"
        assert self.result is not None
        outcome = f"torch.Size({list(self.result.shape)})"
        if self.op == "scatter" and any(len(self.writers(slot)) > 1 for slot in indices(self.shape) if self.result.size):
            outcome += "; a slot is named twice: scatter keeps one write (which one is not promised), scatter_add adds them"
        return f"{call} -> {outcome}"

    def drawable(self) -> bool:
        tensors = [self.values, self.index] + ([self.src] if self.src is not None else [])
        return all(array.ndim <= 3 and all(size <= DRAW_LIMIT for size in array.shape) for array in tensors)


def _at(name: str, index: Index) -> str:
    return f"{name}[{', '.join(map(str, index))}]"


def render_svg(model: GatherModel) -> str:
    svg = Svg("tl-gather")
    colour = COLOURS["error"] if model.error else COLOURS["text"]
    svg.label(4, 16, model.describe().split(" -> ", 1)[1], colour, 12, class_="tl-outcome")
    if model.error is not None or not model.drawable():
        if model.error is None:
            svg.label(4, 36, f"(drawn for up to 3 dims of at most {DRAW_LIMIT} elements)", COLOURS["muted"], 11)
        return str(svg)
    assert model.result is not None
    gathering = model.op == "gather"
    values_name = "input" if gathering else "self"
    positions = indices(model.index.shape) if model.index.size else []
    # Every index position p links index[p], src[p] (scatter), the result element it fills or writes,
    # and the input element it reads (gather).
    by_value: dict[Index, list[Index]] = {}
    for p in positions:
        by_value.setdefault(model.target(p), []).append(p)
    index_links, index_infos = {}, {}
    src_links, src_infos = {}, {}
    result_links: dict[Index, list[str]] = {}
    result_infos: dict[Index, str] = {}
    values_links: dict[Index, list[str]] = {}
    values_infos: dict[Index, str] = {}
    for p in positions:
        slot, i = model.target(p), int(model.index[p])
        if gathering:
            index_links[p] = [key("out", p), key("input", slot)]
            index_infos[p] = f"index{list(p)} = {i}: out{list(p)} reads {_at('input', slot)}"
            result_links[p] = [key("input", slot), key("index", p)]
            result_infos[p] = f"out{list(p)} = {int(model.result[p])} = {_at('input', slot)}: index{list(p)} = {i} replaces coordinate {model.axis}"
        else:
            assert model.src is not None
            index_links[p] = [key("src", p), key("out", slot)]
            index_infos[p] = f"index{list(p)} = {i}: src{list(p)} goes to {_at('self', slot)}"
            src_links[p] = [key("index", p), key("out", slot)]
            src_infos[p] = f"src{list(p)} = {int(model.src[p])} is written to {_at('self', slot)} (index{list(p)} = {i})"
    for slot in indices(model.shape) if model.values.size else []:
        hits = by_value.get(slot, [])
        if gathering:
            values_links[slot] = [key("out", p) for p in hits]
            values_infos[slot] = f"{_at('input', slot)} = {int(model.values[slot])} is read by {len(hits)} output element(s)"
        else:
            result_links[slot] = [key("src", p) for p in hits] + [key("index", p) for p in hits]
            what = ("keeps src's value" if len(hits) == 1 else
                    f"adds {len(hits)} src values" if model.op == "scatter_add" else
                    f"is written {len(hits)} times: one write wins, torch does not promise which")
            result_infos[slot] = (f"out{list(slot)} = {int(model.result[slot])}: " +
                                  ("not written, keeps self's value" if not hits else f"{_at('self', slot)} {what}"))
    blocks: list[tuple[str, str, np.ndarray, str, dict, dict]] = [
        (values_name, f"{values_name} {list(model.shape)}", model.values, operand_colour(0), values_links, values_infos),
        ("index", f"index {list(model.index.shape)}, dim={model.dim}", model.index, operand_colour(1), index_links, index_infos),
    ]
    if model.src is not None:
        blocks.append(("src", f"src {list(model.src.shape)}", model.src, operand_colour(2), src_links, src_infos))
    x, top = 4.0, 34.0
    for name, title, array, block_colour, links, infos in blocks:
        x += draw_grid(svg, x, top, title, array, name, block_colour, links, infos) + GAP
    svg.label(x, top + 20 + 18, "→", COLOURS["text"], 16)
    x += 2 * GAP
    title = f"out {list(model.result.shape)}" + ("" if gathering else f" = self after {model.op}")
    draw_grid(svg, x, top, title, model.result, "out", COLOURS["result"], result_links, result_infos)
    return str(svg)


class GatherExplorer(ModelExplorer):
    """``GatherExplorer("gather", (3, 4), 1, [[0, 0], [2, 1], [3, 3]])``, or ``"scatter"`` /
    ``"scatter_add"`` with the shape of ``self``: the op, a shape, dim and the index as nested lists."""

    render = staticmethod(render_svg)

    def __init__(self, op: str = "gather", shape: Sequence[int] = (3, 4), dim: int = 1,
                 index: Any = ((0, 0), (2, 1), (3, 3))) -> None:
        self.index_text = str([list(map(int, row)) if isinstance(row, (list, tuple)) else int(row) for row in index])
        self.model = GatherModel(op, shape, dim, index)
        self.problem = ""  # a typing mistake in a control, shown instead of the model's summary

    def _controls(self, widgets: Any) -> list:
        model = self.model
        operation = widgets.ToggleButtons(options=list(GATHER_OPS), value=model.op)
        shape_box = widgets.Text(value=", ".join(map(str, model.shape)), description="shape", continuous_update=False)
        dim_box = widgets.IntText(value=model.dim, description="dim")
        index_box = widgets.Text(value=self.index_text, description="index", continuous_update=False,
                                 layout=widgets.Layout(width="420px"))

        def update(_change: Any = None) -> None:
            try:
                self.model = GatherModel(operation.value, parse_shape(shape_box.value), dim_box.value,
                                         parse_index(index_box.value))
                self.problem = ""
            except ValueError as error:
                self.problem = str(error)
            self._refresh()

        for control in (operation, shape_box, dim_box, index_box):
            control.observe(update, names="value")
        return [operation, widgets.HBox([shape_box, dim_box, index_box])]
