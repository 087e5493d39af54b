"""Every widget is displayed twice: a static fallback first, then the live view, which hides it.

A notebook output chooses one MIME type per display. Were the picture and the widget in one
display, nbconvert's HTML export (which ranks the widget view first whenever the notebook saved
widget state) would keep only the widget view, and that needs the widget manager's JavaScript
from a CDN: offline, or on a static page, the output would be empty. So each tensorlab widget
makes two displays:

1. the **fallback**: HTML (plus plain text) that shows the picture or the question without
   any JavaScript, wrapped in ``<div class="tl-fallback" data-tl-fallback="ID">``;
2. inside a live kernel, the **live view**, which carries a tiny :class:`~.view.FallbackHider`
   whose browser code hides every fallback marked ``ID`` once the live view has rendered.

Where no live view renders (nbconvert, GitHub, a notebook reopened without its kernel or
widget state) the fallback simply stays.
"""

from __future__ import annotations

import sys
import uuid
from collections.abc import Callable
from html import escape
from typing import Any

__all__ = ["fallback_html", "hider", "in_kernel", "new_fallback_id", "show"]


def in_kernel() -> bool:
    """True inside a running Jupyter kernel (where a widget has a frontend to talk to)."""
    if "ipykernel" not in sys.modules or "IPython" not in sys.modules:
        return False
    shell = sys.modules["IPython"].get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def new_fallback_id() -> str:
    """A name that links one widget's live view to its fallbacks (unique per widget object)."""
    return f"tl-{uuid.uuid4().hex[:12]}"


def fallback_html(body: str, fallback_id: str) -> str:
    """``body`` (trusted HTML) wrapped so that the live view can find and hide it."""
    return f'<div class="tl-fallback" data-tl-fallback="{escape(fallback_id, quote=True)}">{body}</div>'


def show(fallback: dict[str, str], live_view: Callable[[], Any]) -> None:
    """Display ``fallback`` (a MIME bundle), then, in a live kernel, the widget ``live_view()``
    (which holds the :func:`hider` of the fallback's id; built only here, so ipywidgets stays
    unimported outside a kernel)."""
    from IPython.display import display

    display(fallback, raw=True)
    if in_kernel():
        display(live_view())


def hider(fallback_id: str) -> Any:
    """The invisible widget that, in the browser, hides the fallbacks marked ``fallback_id``."""
    from .view import FallbackHider

    return FallbackHider(fallback_id=fallback_id, layout={"display": "none"})
