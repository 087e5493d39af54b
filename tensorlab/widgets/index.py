"""IndexExplorer: where each element of ``x[index]`` comes from, and where ``x[index] = v`` writes.

The input is ``x = arange(n).view(shape)``, so every value of ``x`` *is* its flat position (and
its storage slot). Indexing it therefore labels each output element with the element of ``x``
it was read from: that is the whole model of reading. For writing, ``v = arange(m).view(value_shape)``
is assigned into a tensor of -1s, so each element of ``x`` afterwards holds the flat position of
the element of ``v`` that landed there (after broadcasting), or -1 where nothing was written.

Both run on tensorlab's own indexing (``tests/test_widgets_models.py`` checks them against
torch). The expression is parsed with :mod:`ast`: only ``x[...]`` or ``x[...] = v`` with literal
ints, bools, lists, slices, ``None``, ``...`` and simple masks of ``x`` (``x > 2``,
``x % 2 == 0``) are accepted, so a typed expression can never run arbitrary code.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .base import ModelExplorer
from .strides import _grid_position, _literal
from .svg import CELL, COLOURS, GAP, Svg, operand_colour, text_width

__all__ = ["IndexExplorer", "IndexModel", "parse_index_expression"]

ELEMENT_LIMIT = 64  # the picture draws at most this many elements per tensor
COMPARISONS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt,
    ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
}


class Mask:
    """A boolean mask of x written as a comparison (``x % 2 == 0``): built once x exists."""

    def __init__(self, modulo: int | None, compare: Callable[[Any, Any], Any], number: int, source: str) -> None:
        self.modulo, self.compare, self.number, self.source = modulo, compare, number, source

    def of(self, x: Any) -> Any:
        values = x if self.modulo is None else x % self.modulo
        return self.compare(values, self.number)


def _mask(node: ast.Compare) -> Mask:
    """``x OP n`` or ``x % k OP n`` -> a Mask; anything else is refused."""
    if len(node.ops) != 1 or type(node.ops[0]) not in COMPARISONS:
        raise ValueError(f"a mask compares once: {ast.unparse(node)!r}")
    left, number = node.left, _literal(node.comparators[0])
    modulo = None
    if isinstance(left, ast.BinOp) and isinstance(left.op, ast.Mod):
        modulo, left = _literal(left.right), left.left
    if not (isinstance(left, ast.Name) and left.id == "x") or type(number) is not int or (modulo is not None and type(modulo) is not int):
        raise ValueError(f"a mask is x OP n or x % k OP n with ints k, n: {ast.unparse(node)!r}")
    return Mask(modulo, COMPARISONS[type(node.ops[0])], number, ast.unparse(node))


def _item(node: ast.expr) -> Any:
    """One index item: a literal (bools allowed, lists stay lists) or a mask of x."""
    if isinstance(node, ast.Compare):
        return _mask(node)
    if isinstance(node, ast.List):
        return [_item(element) for element in node.elts]
    if isinstance(node, ast.Constant) and type(node.value) is bool:
        return node.value
    value = _literal(node)
    return list(value) if isinstance(value, tuple) else value


def parse_index_expression(expression: str) -> tuple[tuple, bool]:
    """``"x[[0, 1], :]"`` -> (the index items, False); ``"x[0] = v"`` -> (items, True)."""
    try:
        tree = ast.parse(expression.strip(), mode="exec")
    except SyntaxError as error:
        raise ValueError(f"cannot parse {expression!r}: {error.msg}") from None
    if len(tree.body) != 1:
        raise ValueError("write one expression: x[...] or x[...] = v")
    statement = tree.body[0]
    assigns = isinstance(statement, ast.Assign)
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.value, ast.Name) and statement.value.id == "v":
        node = statement.targets[0]
    elif isinstance(statement, ast.Expr) and not assigns:
        node = statement.value
    else:
        raise ValueError("write x[...] to read, or x[...] = v to assign")
    if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "x"):
        raise ValueError(f"index x itself, e.g. x[:, [0, 1]]; got {ast.unparse(node)!r}")
    inner = node.slice
    items = tuple(_item(element) for element in inner.elts) if isinstance(inner, ast.Tuple) else (_item(inner),)
    return items, assigns


def _resolve(items: tuple, x: Any) -> Any:
    """The index as the tensor library wants it (masks built from ``x``, one item bare)."""
    resolved = tuple(item.of(x) if isinstance(item, Mask) else item for item in items)
    return resolved[0] if len(resolved) == 1 else resolved


def _is_basic(items: tuple) -> bool:
    return all(item is None or item is Ellipsis or isinstance(item, slice) or type(item) is int for item in items)


class IndexModel:
    """``IndexModel((2, 3), "x[[0, 1], [1, 2]]")`` or ``IndexModel((2, 3), "x[:, 0] = v", value_shape=(2,))``.

    Reading: ``sources`` holds, for every element of ``x[index]``, the flat position of the element
    of ``x`` it reads (``result_shape`` is its shape; ``is_view`` says whether torch returns a view).
    Writing: ``sources`` has ``x``'s shape and holds the flat position of the element of ``v`` each
    element of ``x`` receives, -1 where ``x`` keeps its value. ``error`` is torch's error, if any.
    """

    def __init__(self, shape: Sequence[int] = (2, 3), expression: str = "x[0]",
                 value_shape: Sequence[int] | None = None, library: Any = None) -> None:
        import tensorlab

        lib = tensorlab if library is None else library
        self.shape = tuple(int(size) for size in shape)
        self.expression = expression.strip()
        self.items, self.assigns = parse_index_expression(expression)
        self.value_shape = tuple(int(size) for size in (value_shape if value_shape is not None else ()))
        self.is_view = _is_basic(self.items)
        self.error = ""
        self.sources: np.ndarray = np.zeros((0,), dtype=np.int64)
        x = lib.arange(math.prod(self.shape)).view(self.shape)
        try:
            if self.assigns:
                target = lib.full(self.shape, -1)
                target[_resolve(self.items, x)] = lib.arange(math.prod(self.value_shape)).view(self.value_shape)
                self.sources = np.asarray(target.tolist(), dtype=np.int64).reshape(self.shape)
            else:
                self.sources = np.asarray(x[_resolve(self.items, x)].tolist(), dtype=np.int64)
                self.sources = self.sources.reshape(tuple(x[_resolve(self.items, x)].shape))
        except (IndexError, RuntimeError, ValueError, TypeError) as error:
            self.error = f"{type(error).__name__}: {error}"

    @property
    def result_shape(self) -> tuple[int, ...]:
        return tuple(self.sources.shape)

    def source_of(self, index: Sequence[int]) -> int:
        """Reading: the flat position in x that output element ``index`` reads. Writing: the flat
        position in v that element ``index`` of x receives (-1: untouched)."""
        return int(self.sources[tuple(index)])

    def describe(self) -> str:
        if self.error:
            return f"{self.expression} -> {self.error}"
        if self.assigns:
            written = int((self.sources >= 0).sum())
            return (f"{self.expression}: v of shape {list(self.value_shape)} broadcast into {written} of the "
                    f"{self.sources.size} elements of x (shape {list(self.shape)}), in place")
        kind = "basic index: a view of x's storage" if self.is_view else "advanced index: a copy"
        return f"{self.expression}: shape {list(self.result_shape)}, {kind}"


def _key(prefix: str, index: tuple[int, ...]) -> str:
    return f"{prefix}:" + ",".join(map(str, index))


def _indices(shape: tuple[int, ...]) -> list[tuple[int, ...]]:
    return [tuple(int(i) for i in index) for index in np.ndindex(*shape)] if shape else [()]


def _draw_tensor(svg: Svg, left: float, top: float, shape: tuple[int, ...], values: np.ndarray, prefix: str,
                 links: dict[str, list[str]], infos: dict[str, str], colour: str, unset: bool = False) -> float:
    """Draw one tensor as a grid (last dim to the right, earlier dims as blocks); return its width."""
    columns = shape[-1] if shape else 1
    for index in _indices(shape):
        block, row, column = _grid_position(index, shape)
        key = _key(prefix, index)
        value = int(values[index])
        faded = unset and value < 0
        svg.cell(left + block * (columns * CELL + GAP) + column * CELL, top + row * CELL, "" if faded else value,
                 "#f4f4f4" if faded else "#ffffff", key, links.get(key, []), infos.get(key, ""),
                 stroke=COLOURS["padded"] if faded else colour, dashed=faded)
    blocks = math.prod(shape[:-2]) if len(shape) > 2 else 1
    return blocks * (columns * CELL + GAP)


def render_svg(model: IndexModel) -> str:
    svg = Svg("tl-index")
    x_colour, out_colour = operand_colour(0), COLOURS["result"]
    svg.label(4, 16, model.describe(), COLOURS["error"] if model.error else COLOURS["text"], 12, class_="tl-outcome")
    numel = math.prod(model.shape)
    if model.error or numel > ELEMENT_LIMIT or model.sources.size > ELEMENT_LIMIT:
        if not model.error:
            svg.label(4, 34, f"(elements are drawn for at most {ELEMENT_LIMIT} elements)", COLOURS["muted"], 11)
        return str(svg)
    x_values = np.arange(numel).reshape(model.shape)
    links: dict[str, list[str]] = {}
    infos: dict[str, str] = {}
    if model.assigns:
        left_shape, left_values, left_name = model.value_shape, np.arange(math.prod(model.value_shape)).reshape(model.value_shape), f"v = arange({math.prod(model.value_shape)}).view({list(model.value_shape)})"
        right_name = f"x after {model.expression}"
        for index in _indices(model.shape):
            source = int(model.sources[index])
            key = _key("out", index)
            if source < 0:
                infos[key] = f"x{list(index)} is not written: it keeps its value"
                continue
            v_index = tuple(int(i) for i in np.unravel_index(source, model.value_shape)) if model.value_shape else ()
            links[key] = [_key("in", v_index)]
            links.setdefault(_key("in", v_index), []).append(key)
            infos[key] = f"x{list(index)} receives v{list(v_index)} (broadcast from shape {list(model.value_shape)})"
        for index in _indices(left_shape):
            key = _key("in", index)
            infos[key] = f"v{list(index)} is written to {len(links.get(key, []))} element(s) of x"
    else:
        left_shape, left_values, left_name = model.shape, x_values, f"x = arange({numel}).view({list(model.shape)})"
        right_name = f"{model.expression}  ({'view' if model.is_view else 'copy'})"
        for index in _indices(model.result_shape):
            source = int(model.sources[index])
            x_index = tuple(int(i) for i in np.unravel_index(source, model.shape)) if model.shape else ()
            key = _key("out", index)
            links[key] = [_key("in", x_index)]
            links.setdefault(_key("in", x_index), []).append(key)
            infos[key] = f"result{list(index)} reads x{list(x_index)} (storage slot {source})"
        for index in _indices(model.shape):
            key = _key("in", index)
            infos[key] = f"x{list(index)} is read by {len(links.get(key, []))} element(s) of the result"
    top = 44.0
    svg.label(4, top - 8, left_name, x_colour, 12, font_weight="bold")
    width = _draw_tensor(svg, 4, top, left_shape, left_values, "in", links, infos, x_colour)
    right = 4 + max(width, text_width(left_name, 12)) + 3 * GAP
    svg.label(right, top - 8, right_name, out_colour, 12, font_weight="bold")
    _draw_tensor(svg, right, top, model.result_shape, model.sources, "out", links, infos, out_colour, unset=model.assigns)
    return str(svg)


class IndexExplorer(ModelExplorer):
    """``IndexExplorer((2, 3), "x[:, [0, 2]]")``; ``IndexExplorer((2, 3), "x[0] = v", value_shape=(3,))``.

    Hover an element of the result: the element of x it came from lights up (for an assignment,
    the element of v that was written there).
    """

    render = staticmethod(render_svg)

    def __init__(self, shape: Sequence[int] = (2, 3), expression: str = "x[0]", value_shape: Sequence[int] | None = None) -> None:
        self.model = IndexModel(shape, expression, value_shape)
        self.problem = ""

    def _controls(self, widgets: Any) -> list:
        from .broadcast import parse_shape

        shape_box = widgets.Text(value=", ".join(map(str, self.model.shape)), description="x shape", continuous_update=False)
        index_box = widgets.Text(value=self.model.expression, description="index", continuous_update=False,
                                 placeholder="x[[0, 1], :]  or  x[:, 0] = v", layout=widgets.Layout(width="360px"))
        value_box = widgets.Text(value=", ".join(map(str, self.model.value_shape)), description="v shape", continuous_update=False)

        def update(_change: Any = None) -> None:
            try:
                self.model = IndexModel(parse_shape(shape_box.value), index_box.value, parse_shape(value_box.value))
                self.problem = ""
            except ValueError as error:
                self.problem = str(error)
            self._refresh()

        for box in (shape_box, index_box, value_box):
            box.observe(update, names="value")
        return [widgets.HBox([shape_box, index_box, value_box])]

