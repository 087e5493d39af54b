"""Small tensors drawn as grids of hoverable cells, the way every element-level explorer draws them.

The last dim runs left to right, the dim before it top to bottom, and a leading third dim makes
side-by-side blocks (docs/widgets.md). Each cell is named ``"<tensor>:i,j"`` so that other cells
can link to it (:mod:`tensorlab.widgets.svg`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .svg import CELL, COLOURS, GAP, Svg, text_width

__all__ = ["TINT", "Index", "block_size", "draw_grid", "indices", "key"]

Index = tuple[int, ...]
TINT = "26"  # alpha appended to a block's colour to fill its cells (#rrggbbaa): a pale version of it


def key(name: str, index: Sequence[int]) -> str:
    """The hover key of element ``index`` of the tensor called ``name``: ``"out:1,2"``."""
    return f"{name}:{','.join(str(i) for i in index)}"


def indices(shape: tuple[int, ...]) -> list[Index]:
    """Every index of ``shape`` in row-major order (``[()]`` for a 0-d shape, none if a size is 0)."""
    return [tuple(int(i) for i in index) for index in np.ndindex(*shape)] if shape else [()]


def block_size(shape: tuple[int, ...]) -> tuple[float, float]:
    """Width and height in px of the cells of a tensor of ``shape`` (at most 3 dims)."""
    blocks, rows, columns = (1,) * (3 - len(shape)) + shape
    width = blocks * max(columns, 1) * CELL + max(blocks - 1, 0) * GAP / 2
    return max(width, 2 * CELL), max(rows, 1) * CELL


def draw_grid(svg: Svg, x: float, y: float, title: str, array: np.ndarray, name: str, colour: str,
              links: dict[Index, list[str]], infos: dict[Index, str], cell_colours: dict[Index, str] | None = None,
              dashed: bool = False) -> float:
    """``array`` (at most 3 dims) under its title; returns the width it takes.

    Each cell is outlined and tinted in ``cell_colours[index]`` when given (the block it belongs
    to), else in ``colour``; ``links`` and ``infos`` give each cell's hover keys and sentence.
    """
    shape = tuple(array.shape)
    svg.label(x, y + 12, title, colour, 12, font_weight="bold")
    columns = max(((1,) * (3 - len(shape)) + shape)[2], 1)
    for index in indices(shape) if array.size else []:
        block, row, column = (0,) * (3 - len(index)) + index
        left = x + block * (columns * CELL + GAP / 2) + column * CELL
        outline = (cell_colours or {}).get(index, colour)
        svg.cell(left, y + 20 + row * CELL, _shown(array[index]), f"{outline}{TINT}", key(name, index),
                 links.get(index, []), infos.get(index, ""), stroke=outline, dashed=dashed)
    if array.size == 0:
        svg.label(x, y + 20 + CELL / 2 + 4, "(empty)", COLOURS["muted"], 11)
    return max(block_size(shape)[0], text_width(title, 12))


def _shown(value: object) -> str:
    """An element as its cell shows it: integers plainly, other numbers with at most 3 significant digits."""
    number = float(value)  # type: ignore[arg-type]
    return str(int(number)) if number.is_integer() else f"{number:.3g}"
