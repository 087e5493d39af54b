"""A failing case drawn, the way the explorers draw tensors: its inputs, what was expected, what came back.

For the tensor puzzles above all (Tensor-Puzzles' habit): "expected [0 1 1 2], got [0 1 2 3]" is read
faster as two grids with the wrong cells in red. Only small arrays (at most 3 dims and ``MAX_CELLS``
elements each) are drawn; ``check()`` shows the picture in the notebook beside its text feedback,
never instead of it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["MAX_CELLS", "drawable", "failure_svg"]

MAX_CELLS = 64


def drawable(value: Any) -> bool:
    """A small array of numbers (at most 3 dims, ``MAX_CELLS`` elements): what a grid can show."""
    return isinstance(value, np.ndarray) and value.ndim <= 3 and 0 < value.size <= MAX_CELLS and value.dtype.kind in "biuf"


def failure_svg(arguments: tuple, expected: Any, got: Any) -> str | None:
    """The SVG of one failing call: each array argument, the expected array and the one returned, the
    returned cells that differ outlined in red; None when the values are not small arrays."""
    if not (drawable(expected) and drawable(got)):
        return None
    from tensorlab.widgets.grid import draw_grid  # the explorers' grid, imported only to draw a failure
    from tensorlab.widgets.svg import COLOURS, GAP, Svg

    svg, x = Svg("tl-check-failure"), 0.0
    for number, argument in enumerate(arguments):
        if drawable(argument):
            colour = COLOURS["operands"][number % len(COLOURS["operands"])]
            x += draw_grid(svg, x, 0, f"argument {number + 1}", argument, f"arg{number}", colour, {}, {}) + GAP
    x += draw_grid(svg, x, 0, "expected", expected, "expected", COLOURS["result"], {}, {}) + GAP
    wrong = {}
    if expected.shape == got.shape:
        differs = ~np.isclose(got.astype(float), expected.astype(float), equal_nan=True)
        wrong = {tuple(int(i) for i in index): COLOURS["error"] for index in np.argwhere(differs)}
    draw_grid(svg, x, 0, "got", got, "got", COLOURS["muted"], {}, {}, cell_colours=wrong)
    return str(svg)
