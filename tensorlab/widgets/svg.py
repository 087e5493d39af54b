"""The one drawing vocabulary every explorer uses: colours, cell sizes and a tiny SVG builder.

The convention is written down for learners in ``docs/widgets.md``; this module is its code.
Every interactive element is an SVG group with three data attributes, which is all the
browser side (``explorer.js``) needs to link elements on hover:

- ``data-key``: the element's own name (``"a:0,1"``, ``"slot:4"``, ``"node:3"``);
- ``data-links``: space-separated keys of the elements that light up with it;
- ``data-info``: the sentence shown under the figure while the element is hovered.

Text is measured, not rendered: the picture pins a monospace font stack (:data:`FONT_FAMILY`)
whose fonts all advance at most :data:`ADVANCE` em per character, so the size Python computes
holds every label in every browser and in static exports (no clipping, no JavaScript).

Output is deterministic (fixed float formatting, insertion-ordered attributes), so SVG
snapshots stay stable.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from html import escape
from typing import TypedDict

__all__ = ["ADVANCE", "COLOURS", "CELL", "FONT_FAMILY", "FONT_SIZE", "GAP", "Svg", "operand_colour", "text_width"]

class Palette(TypedDict):
    """One colour per role (``operands``: one per operand, a, b, c)."""

    operands: tuple[str, str, str]
    result: str
    padded: str
    stretched: str
    error: str
    highlight: str
    leaf: str
    nonleaf: str
    function: str
    saved: str
    done: str
    text: str
    muted: str


# One palette for every explorer (see docs/widgets.md).
COLOURS: Palette = {
    "operands": ("#4c78a8", "#f58518", "#54a24b"),  # a, b, c: blue, orange, green
    "result": "#b279a2",  # purple: whatever the operation produces
    "padded": "#bab0ac",  # grey, dashed: an implicit size-1 dim added on the left
    "stretched": "#fff3bf",  # pale yellow: a size-1 dim repeated (stride 0), no memory used
    "error": "#e45756",  # red: the dim or op that makes torch raise
    "highlight": "#ffc107",  # amber: the hovered element and everything linked to it
    "leaf": "#54a24b",  # green: a leaf tensor (user-created)
    "nonleaf": "#4c78a8",  # blue: a tensor computed by an op
    "function": "#eeeeee",  # light grey box: a grad_fn node
    "saved": "#f58518",  # orange: a tensor saved for backward
    "done": "#d4edda",  # pale green: a backward step already run
    "text": "#222222",
    "muted": "#777777",
}
CELL = 28  # side of one tensor element, in px
GAP = 12  # space between blocks

# Monospace fonts that ship with Linux, macOS and Windows, then the generic family. Their glyphs
# advance 0.55 em (Consolas) to 0.602 em (DejaVu Sans Mono, Menlo); ADVANCE adds a margin on top.
FONT_FAMILY = "DejaVu Sans Mono, Menlo, Consolas, Liberation Mono, monospace"
FONT_SIZE = 12  # px, for text that names no size (pinned on <svg>, so the page's size never leaks in)
ADVANCE = 0.62  # em per character, at least every font above
WIDE_ADVANCE = 1.0  # em per East Asian wide character (drawn from a fallback font)
ASCENT, DESCENT = 1.0, 0.3  # em above and below the baseline that a line of text may cover


def operand_colour(index: int) -> str:
    """Colour of operand ``index`` (a, b, c) in every explorer."""
    return COLOURS["operands"][index % len(COLOURS["operands"])]


def _number(value: float) -> str:
    """Coordinates printed the same way on every machine (snapshot-stable)."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _attributes(attributes: dict) -> str:
    parts = []
    for name, value in attributes.items():
        if value is None:
            continue
        text = _number(value) if isinstance(value, float) else str(value)
        parts.append(f'{name.rstrip("_").replace("_", "-")}="{escape(text, quote=True)}"')
    return " ".join(parts)


def text_width(content: str, size: float) -> float:
    """Width in px of ``content`` at font size ``size``: an upper bound for every font in FONT_FAMILY."""
    ems = sum(WIDE_ADVANCE if unicodedata.east_asian_width(char) in "WF" else ADVANCE
              for char in content if not unicodedata.combining(char))
    return ems * size


class Svg:
    """Collects SVG elements; ``str(svg)`` is the finished picture, sized to fit its content."""

    def __init__(self, css_class: str) -> None:
        self.css_class = css_class
        self.parts: list[str] = []
        self.left = self.top = 0.0  # the picture starts at (0, 0) unless something reaches further
        self.width = 0.0  # right edge of the content
        self.height = 0.0  # bottom edge of the content

    def _grow(self, x: float, y: float) -> None:
        self.left, self.top = min(self.left, x), min(self.top, y)
        self.width = max(self.width, x)
        self.height = max(self.height, y)

    def rect(self, x: float, y: float, w: float, h: float, **attributes: object) -> str:
        self._grow(x + w, y + h)
        return f"<rect {_attributes({'x': float(x), 'y': float(y), 'width': float(w), 'height': float(h), **attributes})}/>"

    def text(self, x: float, y: float, content: object, **attributes: object) -> str:
        """``<text>`` with its baseline at ``y``; the picture grows to hold its measured extent."""
        size = attributes.get("font_size", FONT_SIZE)
        assert isinstance(size, (int, float)), "font_size is a number of px"
        width = text_width(str(content), size)
        start = {"middle": x - width / 2, "end": x - width}.get(str(attributes.get("text_anchor")), x)
        self._grow(start, y - ASCENT * size)
        self._grow(start + width, y + DESCENT * size)
        return f"<text {_attributes({'x': float(x), 'y': float(y), **attributes})}>{escape(str(content))}</text>"

    def line(self, x1: float, y1: float, x2: float, y2: float, **attributes: object) -> str:
        self._grow(max(x1, x2), max(y1, y2))
        coordinates = {"x1": float(x1), "y1": float(y1), "x2": float(x2), "y2": float(y2)}
        return f"<line {_attributes({**coordinates, **attributes})}/>"

    def add(self, *elements: str) -> None:
        self.parts.extend(elements)

    def group(
        self, elements: Iterable[str], key: str, links: Sequence[str] = (), info: str = "", **attributes: object
    ) -> None:
        """A hoverable element: its own key, the keys it lights up, and what it says."""
        head = _attributes({"data_key": key, "data_links": " ".join(links) or None, "data_info": info or None, **attributes})
        self.parts.append(f"<g {head}>{''.join(elements)}</g>")

    def cell(
        self, x: float, y: float, label: object, fill: str, key: str, links: Sequence[str] = (), info: str = "",
        stroke: str = "#555555", dashed: bool = False, size: float = CELL,
    ) -> None:
        """One tensor element (or shape entry): a labelled square that can be hovered."""
        box = self.rect(x, y, size, size, fill=fill, stroke=stroke, stroke_dasharray="3 2" if dashed else None)
        caption = self.text(x + size / 2, y + size / 2 + 4, label, text_anchor="middle", font_size=11)
        self.group([box, caption], key, links, info, class_="tl-cell")

    def label(self, x: float, y: float, content: object, colour: str = COLOURS["text"], size: int = 12, **attributes: object) -> None:
        self.add(self.text(x, y, content, fill=colour, font_size=size, **attributes))

    def __str__(self) -> str:
        width, height = _number(self.width + GAP - self.left), _number(self.height + GAP - self.top)
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" class="tl-svg {self.css_class}" width="{width}" '
            f'height="{height}" viewBox="{_number(self.left)} {_number(self.top)} {width} {height}" '
            f'font-family="{FONT_FAMILY}" font-size="{FONT_SIZE}">'
            + "".join(self.parts)
            + "</svg>"
        )
