"""The browser half of every explorer: one anywidget that shows an SVG and links hovers.

The JavaScript and CSS ship inside this package (no CDN, no JupyterLab extension). The view
knows nothing about tensors: it draws the ``svg`` it is given and, on hover, lights up the
elements named in the hovered element's ``data-links`` and shows its ``data-info``
(conventions in :mod:`tensorlab.widgets.svg`). Hovering never calls the kernel, so it stays
instant and cannot block a running notebook.
"""

from __future__ import annotations

from pathlib import Path

import anywidget
import traitlets

__all__ = ["SvgView"]

HERE = Path(__file__).parent


class SvgView(anywidget.AnyWidget):
    _esm = HERE / "explorer.js"
    _css = HERE / "explorer.css"
    svg = traitlets.Unicode("").tag(sync=True)
    info = traitlets.Unicode("").tag(sync=True)
