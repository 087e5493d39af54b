"""The browser half of every widget: two anywidgets, one that shows an SVG and links hovers, one
that hides a widget's static fallback once the live view is on the page.

The JavaScript and CSS ship inside this package (no CDN, no JupyterLab extension). The SVG view
knows nothing about tensors: it draws the ``svg`` it is given and, on hover, lights up the
elements named in the hovered element's ``data-links`` and shows its ``data-info``
(conventions in :mod:`tensorlab.widgets.svg`). Hovering never calls the kernel, so it stays
instant and cannot block a running notebook. Why fallbacks exist: :mod:`tensorlab.widgets.fallback`.
"""

from __future__ import annotations

from pathlib import Path

import anywidget
import traitlets

__all__ = ["FallbackHider", "SvgView"]

HERE = Path(__file__).parent


class SvgView(anywidget.AnyWidget):
    _esm = HERE / "explorer.js"
    _css = HERE / "explorer.css"
    svg = traitlets.Unicode("").tag(sync=True)
    info = traitlets.Unicode("").tag(sync=True)


class FallbackHider(anywidget.AnyWidget):
    """Draws nothing; in the browser, hides the outputs marked ``data-tl-fallback=fallback_id``."""

    _esm = HERE / "fallback.js"
    fallback_id = traitlets.Unicode("").tag(sync=True)
