"""What every explorer shares: a static SVG picture, and an interactive view built on demand.

An explorer subclass holds a pure-Python *model* and says how to draw it (:meth:`to_svg`),
what to say about it (:meth:`summary`) and which controls change it (:meth:`_controls`).
Displaying an explorer in a notebook makes two outputs (:mod:`tensorlab.widgets.fallback`):
the picture with its info line, as HTML that nbconvert, GitHub and static pages show, and,
inside a live kernel, the interactive widget, which hides that picture once it is drawn.
ipywidgets and anywidget are imported only when that widget is first built, so
``import tensorlab`` (and even ``tensorlab.widgets``) stays light.
"""

from __future__ import annotations

from html import escape
from typing import Any

from .fallback import fallback_html, hider, new_fallback_id, show
from .svg import FONT_FAMILY

__all__ = ["Explorer", "ModelExplorer"]


class Explorer:
    """Base class: subclasses define ``to_svg``, ``summary`` and ``_controls``."""

    _view: Any = None  # the anywidget SvgView, once built
    _box: Any = None  # controls + view, once built
    _fallback_id: str = ""  # links the live view to its static fallbacks, made on first display

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
            self._box = ipywidgets.VBox([*self._controls(ipywidgets), self._view, hider(self._id())])
            self._box.add_class("tl-explorer-box")
        return self._box

    def _refresh(self) -> None:
        """Redraw after the model changed (a no-op until the widget exists)."""
        if self._view is not None:
            self._view.svg = self.to_svg()
            self._view.info = self.summary()

    def _id(self) -> str:
        if not self._fallback_id:
            self._fallback_id = new_fallback_id()
        return self._fallback_id

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict:
        """The static picture: SVG with its info line as HTML, the SVG alone, the info line as text."""
        svg, summary = self.to_svg(), self.summary()
        info = f'<div class="tl-info" style="font: 12px {FONT_FAMILY}; white-space: pre-wrap">{escape(summary)}</div>'
        body = f"{svg}{info}"
        return {"text/plain": summary, "text/html": fallback_html(body, self._id()), "image/svg+xml": svg}

    def _ipython_display_(self) -> None:
        """In a notebook: the static picture, then (in a live kernel) the widget that replaces it."""
        show(self._repr_mimebundle_(), self.widget)


class ModelExplorer(Explorer):
    """An explorer drawn from one model: ``render(model)`` makes the picture and ``model.describe()``
    the info line, unless a control holds a typing mistake (``problem``), which is shown instead."""

    model: Any
    problem: str = ""

    @staticmethod
    def render(model: Any) -> str:
        """The picture of ``model`` (each explorer sets its module's ``render_svg``)."""
        raise NotImplementedError

    def to_svg(self) -> str:
        return self.render(self.model)

    def summary(self) -> str:
        return self.problem or self.model.describe()
