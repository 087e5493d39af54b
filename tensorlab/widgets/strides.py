"""StrideExplorer: one flat storage, many views of it.

Start from ``x = arange(n).view(shape)`` (so every value *is* its original storage slot), type
a chain of view ops (``x.transpose(0, 1)[:, ::2]``) and see, after each op, the shape, strides,
``storage_offset`` and contiguity, and which storage slot each element reads
(``offset + sum(i_d * stride_d)``, :func:`tensorlab._storage.storage_positions`). ``view``
fails when no strides over the same storage describe the new shape; ``reshape`` then copies,
and the picture shows the new storage.

The op chain is parsed with :mod:`ast` and only view ops with literal arguments are accepted,
so a typed expression can never run arbitrary code.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from .._creation import arange
from .._storage import storage_positions
from .base import ModelExplorer
from .svg import CELL, COLOURS, GAP, Svg, operand_colour
from .view_or_copy import explain

__all__ = ["StrideExplorer", "StrideModel", "StrideStep", "parse_ops", "apply_ops"]

VIEW_METHODS = frozenset({
    "view", "reshape", "permute", "transpose", "swapaxes", "t", "movedim", "moveaxis", "squeeze",
    "unsqueeze", "expand", "flatten", "unflatten", "narrow", "select", "diagonal", "contiguous",
})
VIEW_ATTRIBUTES = frozenset({"T", "mT"})
ELEMENT_LIMIT = 64  # the picture draws at most this many elements


@dataclass(frozen=True)
class Op:
    """One step of a chain: ``x.name(*args)`` (``kind="call"``), ``x.name`` or ``x[args[0]]``."""

    kind: str  # "call" | "attribute" | "index"
    name: str
    args: tuple = ()
    source: str = ""


def _literal(node: ast.expr) -> Any:
    """An int, a tuple/list of ints, None, ``...`` or a slice; anything else is refused."""
    if isinstance(node, ast.Slice):
        parts = (node.lower, node.upper, node.step)
        return slice(*(None if part is None else _literal(part) for part in parts))
    if isinstance(node, (ast.Tuple, ast.List)):
        return tuple(_literal(element) for element in node.elts)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        value = _literal(node.operand)
        if isinstance(value, int):
            return -value
    if isinstance(node, ast.Constant) and (node.value is None or node.value is Ellipsis or type(node.value) is int):
        return node.value
    raise ValueError(f"only integers, tuples, slices, None and ... are allowed, not {ast.unparse(node)!r}")


def parse_ops(expression: str) -> list[Op]:
    """``"x.t()[1:, ::2]"`` -> the ops in order; ValueError for anything that is not a view chain on x."""
    try:
        node = ast.parse(expression.strip() or "x", mode="eval").body
    except SyntaxError as error:
        raise ValueError(f"cannot parse {expression!r}: {error.msg}") from None
    ops: list[Op] = []
    while not (isinstance(node, ast.Name) and node.id == "x"):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in VIEW_METHODS:
            if node.keywords:
                raise ValueError("write arguments by position, e.g. x.transpose(0, 1)")
            ops.append(Op("call", node.func.attr, tuple(_literal(a) for a in node.args), ast.unparse(node)))
            node = node.func.value
        elif isinstance(node, ast.Attribute) and node.attr in VIEW_ATTRIBUTES:
            ops.append(Op("attribute", node.attr, (), ast.unparse(node)))
            node = node.value
        elif isinstance(node, ast.Subscript):
            ops.append(Op("index", "[]", (_literal(node.slice),), ast.unparse(node)))
            node = node.value
        else:
            allowed = ", ".join(sorted(VIEW_METHODS | VIEW_ATTRIBUTES))
            raise ValueError(f"start from x and chain view ops ({allowed}) or indexing; got {ast.unparse(node)!r}")
    return ops[::-1]


def apply_op(tensor: Any, op: Op) -> Any:
    """Run one op on any tensor with torch's API (tensorlab's or torch's own)."""
    if op.kind == "call":
        return getattr(tensor, op.name)(*op.args)
    if op.kind == "attribute":
        return getattr(tensor, op.name)
    return tensor[op.args[0]]


def apply_ops(tensor: Any, ops: Sequence[Op]) -> Any:
    for op in ops:
        tensor = apply_op(tensor, op)
    return tensor


@dataclass(frozen=True)
class StrideStep:
    """The state after one op: a view's layout, or the error the op raised."""

    source: str
    shape: tuple[int, ...] = ()
    strides: tuple[int, ...] = ()
    offset: int = 0
    contiguous: bool = True
    copied: bool = False  # the op produced a new storage (reshape/contiguous had to copy)
    storage: tuple = ()  # the storage's contents, slot by slot
    values: tuple = ()  # the elements in row-major order (= their original slot numbers)
    error: str = ""
    why: str = ""  # for a view that failed or a regrouping that copied: which dims could not merge


REGROUPING = frozenset({"view", "reshape", "flatten", "unflatten"})  # ops that are a view only when runs allow


def _why_not_a_view(tensor: Any, op: Op) -> str:
    """For a regrouping op: which runs of ``tensor``'s memory its new shape would merge."""
    new_shape = apply_op(tensor.contiguous(), op).shape  # the same op on a row-major copy always works
    return explain(tuple(tensor.shape), tuple(tensor.stride()), tuple(new_shape))


class StrideModel:
    """``StrideModel((2, 3), "x.t()")``: the base tensor, then one :class:`StrideStep` per op."""

    def __init__(self, shape: Sequence[int] = (2, 3), expression: str = "x") -> None:
        self.shape = tuple(int(s) for s in shape)
        self.expression = expression
        self.ops = parse_ops(expression)
        tensor = arange(math.prod(self.shape)).view(self.shape)
        base_storage = tensor.untyped_storage()
        self.steps = [self._record("x", tensor, base_storage)]
        for op in self.ops:
            try:
                result = apply_op(tensor, op)
            except (RuntimeError, IndexError, ValueError, TypeError) as error:
                why = _why_not_a_view(tensor, op) if op.name == "view" and "view size" in str(error) else ""
                self.steps.append(StrideStep(op.source, error=f"{type(error).__name__}: {error}", why=why))
                break
            copied = result.untyped_storage().data_ptr() != tensor.untyped_storage().data_ptr()
            step = self._record(op.source, result, base_storage, copied)
            if copied and op.name in REGROUPING:
                step = replace(step, why=_why_not_a_view(tensor, op))
            self.steps.append(step)
            tensor = result

    @staticmethod
    def _record(source: str, tensor: Any, base_storage: Any, copied: bool = False) -> StrideStep:
        return StrideStep(
            source, tuple(tensor.shape), tuple(tensor.stride()), tensor.storage_offset(), tensor.is_contiguous(),
            copied, tuple(int(v) for v in tensor.untyped_storage().array), tuple(int(v) for v in np.ravel(tensor.tolist())),
        )

    @property
    def final(self) -> StrideStep:
        """The last successful view (the one the picture draws)."""
        return next(step for step in reversed(self.steps) if not step.error)

    @property
    def error(self) -> str:
        return self.steps[-1].error

    def storage_index(self, index: Sequence[int]) -> int:
        """Which storage slot element ``index`` of the final view reads."""
        step = self.final
        return int(storage_positions(step.shape, step.strides, step.offset)[tuple(index)])

    def storage_map(self) -> np.ndarray:
        """Every element's storage slot at once, an int array of the final shape."""
        step = self.final
        return storage_positions(step.shape, step.strides, step.offset)

    def describe(self) -> str:
        step = self.final
        text = (
            f"{step.source}: shape {list(step.shape)}, stride {step.strides}, storage_offset {step.offset}, "
            f"{'contiguous' if step.contiguous else 'not contiguous'}"
        )
        if any(s.copied for s in self.steps):
            text += "; copied into a new storage"
        if self.error:
            text += f"; then {self.steps[-1].source} -> {self.error}"
        text += "".join(f"; {s.source}: {s.why}" for s in self.steps if s.why)
        return text


def _grid_position(index: tuple[int, ...], shape: tuple[int, ...]) -> tuple[int, int, int]:
    """(block, row, column): the last dim runs right, the one before down, earlier dims are blocks."""
    if not index:
        return 0, 0, 0
    column = index[-1]
    row = index[-2] if len(index) >= 2 else 0
    block = int(np.ravel_multi_index(index[:-2], shape[:-2])) if len(index) > 2 else 0
    return block, row, column


def render_svg(model: StrideModel) -> str:
    svg = Svg("tl-strides")
    step = model.final
    tensor_colour, storage_colour = operand_colour(0), COLOURS["result"]
    lines = [
        f"x = arange({math.prod(model.shape)}).view({list(model.shape)})",
        *(f"{s.source}: shape {list(s.shape)}, stride {s.strides}, offset {s.offset}"
          + ("" if s.contiguous else ", not contiguous") + (", COPY (new storage)" if s.copied else "")
          for s in model.steps[1:] if not s.error),
    ]
    y = 16.0
    for text in lines:
        svg.label(4, y, text, COLOURS["text"], 12)
        y += 16
    if model.error:
        svg.label(4, y, f"{model.steps[-1].source} -> {model.error}", COLOURS["error"], 12, class_="tl-outcome")
        y += 16
        if "view" in model.steps[-1].source:
            svg.label(4, y, "view needs strides over the same storage; reshape would copy instead", COLOURS["muted"], 11)
            y += 16
    for why in (s.why for s in model.steps if s.why):
        svg.label(4, y, why, COLOURS["muted"], 11, class_="tl-why")
        y += 16
    y += 8
    positions = model.storage_map()
    numel = int(np.prod(step.shape)) if step.shape else 1
    if numel > ELEMENT_LIMIT or len(step.storage) > ELEMENT_LIMIT:
        svg.label(4, y + 12, f"(elements are drawn for at most {ELEMENT_LIMIT} elements)", COLOURS["muted"], 11)
        return str(svg)
    # storage: one row of slots, left to right
    svg.label(4, y + 12, "storage" + (" (new, copied)" if any(s.copied for s in model.steps) else ""), storage_colour, 12, font_weight="bold")
    readers: dict[int, list[str]] = {}
    indices = [tuple(int(i) for i in index) for index in np.ndindex(*step.shape)] if step.shape else [()]
    for index in indices:
        readers.setdefault(int(positions[index]), []).append("el:" + ",".join(map(str, index)))
    for slot, value in enumerate(step.storage):
        used = slot in readers
        info = f"storage[{slot}] = {value}, read by {len(readers.get(slot, []))} element(s)"
        svg.cell(4 + slot * CELL, y + 20, value, "#ffffff" if used else "#f4f4f4", f"slot:{slot}", readers.get(slot, []), info,
                 stroke=storage_colour if used else COLOURS["padded"])
        svg.label(4 + slot * CELL + CELL / 2, y + 20 + CELL + 11, slot, COLOURS["muted"], 9, text_anchor="middle")
    y += 20 + CELL + 28
    svg.label(4, y, f"view: shape {list(step.shape)}, stride {step.strides}, storage_offset {step.offset}", tensor_colour, 12, font_weight="bold", class_="tl-layout")
    y += 10
    shape = step.shape
    columns = shape[-1] if shape else 1
    for index, value in zip(indices, step.values, strict=True):
        block, row, column = _grid_position(index, shape)
        slot = int(positions[index])
        terms = " + ".join(f"{i}*{s}" for i, s in zip(index, step.strides, strict=True)) or "0"
        info = f"x{list(index)} = {value} -> storage[{step.offset} + {terms}] = storage[{slot}]"
        x = 4 + block * (columns * CELL + GAP)
        svg.cell(x + column * CELL, y + row * CELL, value, "#ffffff", "el:" + ",".join(map(str, index)), [f"slot:{slot}"], info, stroke=tensor_colour)
    return str(svg)


class StrideExplorer(ModelExplorer):
    """``StrideExplorer((2, 3), "x.t()")``: a base shape and a chain of view ops, both editable."""

    render = staticmethod(render_svg)

    def __init__(self, shape: Sequence[int] = (2, 3), expression: str = "x") -> None:
        self.model = StrideModel(shape, expression)
        self.problem = ""

    def _controls(self, widgets: Any) -> list:
        from .broadcast import parse_shape

        shape_box = widgets.Text(value=", ".join(map(str, self.model.shape)), description="x shape", continuous_update=False)
        ops_box = widgets.Text(value=self.model.expression, description="view ops", continuous_update=False,
                               placeholder="x.transpose(0, 1)[:, ::2]", layout=widgets.Layout(width="420px"))

        def update(_change: Any = None) -> None:
            try:
                self.model = StrideModel(parse_shape(shape_box.value), ops_box.value)
                self.problem = ""
            except ValueError as error:
                self.problem = str(error)
            self._refresh()

        shape_box.observe(update, names="value")
        ops_box.observe(update, names="value")
        return [widgets.HBox([shape_box, ops_box])]
