"""What every explorer shares: a static SVG picture, and an interactive view built on demand.

An explorer subclass holds a pure-Python *model* and says how to draw it (:meth:`to_svg`),
what to say about it (:meth:`summary`) and which controls change it (:meth:`_controls`).
Displaying an explorer in a notebook gives Jupyter both a picture (``image/svg+xml``, for
nbconvert, GitHub and static pages) and, inside a live kernel, the interactive widget.
ipywidgets and anywidget are imported only when that widget is first built, so
``import tensorlab`` (and even ``tensorlab.widgets``) stays light.
"""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["Explorer"]


def _in_kernel() -> bool:
    """True inside a running Jupyter kernel (where a widget has a frontend to talk to)."""
    if "ipykernel" not in sys.modules or "IPython" not in sys.modules:
        return False
    shell = sys.modules["IPython"].get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


class Explorer:
    """Base class: subclasses define ``to_svg``, ``summary`` and ``_controls``."""

    _view: Any = None  # the anywidget SvgView, once built
    _box: Any = None  # controls + view, once built

    def to_svg(self) -> str:
        raise NotImplementedError

    def summary(self) -> str:
        """One line of text describing the current state (shown under the picture)."""
        raise NotImplementedError

    def _controls(self, widgets: Any) -> list:
        """The ipywidgets controls that edit this explorer (``widgets`` is the ipywidgets module)."""
        return []

    def widget(self) -> Any:
        """The interactive view: controls above, hoverable picture and info line below."""
        if self._box is None:
            import ipywidgets

            from .view import SvgView

            self._view = SvgView(svg=self.to_svg(), info=self.summary())
            self._box = ipywidgets.VBox([*self._controls(ipywidgets), self._view])
            self._box.add_class("tl-explorer-box")
        return self._box

    def _refresh(self) -> None:
        """Redraw after the model changed (a no-op until the widget exists)."""
        if self._view is not None:
            self._view.svg = self.to_svg()
            self._view.info = self.summary()

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict:
        bundle = {"text/plain": self.summary(), "image/svg+xml": self.to_svg()}
        if _in_kernel():
            bundle.update({k: v for k, v in self.widget()._repr_mimebundle_().items() if k != "text/plain"})
        return bundle
