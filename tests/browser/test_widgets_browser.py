"""The explorers in a real JupyterLab 4: rendered, editable through their controls, linked on hover.

The scenarios live in ``harness.py`` and run unchanged in Notebook 7 (test_widgets_notebook7.py).
"""

from __future__ import annotations

import pytest

from . import harness

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

PREFIX = ""  # JupyterLab's screenshots keep their historical names


def test_widgets_render_without_errors(notebook_page) -> None:
    harness.check_all_rendered(notebook_page, PREFIX)


def test_broadcast_hover_and_edit(notebook_page) -> None:
    harness.check_broadcast_hover_and_edit(notebook_page, PREFIX)


def test_strides_edit_and_hover(notebook_page) -> None:
    harness.check_strides_edit_and_hover(notebook_page, PREFIX)


def test_graph_steps_through_backward(notebook_page) -> None:
    harness.check_graph_steps_through_backward(notebook_page, PREFIX)


def test_reduction_hover_and_edit(notebook_page) -> None:
    harness.check_reduction_hover_and_edit(notebook_page, PREFIX)


def test_strides_view_or_copy(notebook_page) -> None:
    """A copying reshape says which dims cannot merge; hovering an element of the copy lights its new slot."""
    widget = harness.explorer(notebook_page, 1)
    harness.set_text_control(widget, "view ops", "x.t().reshape(6)")
    widget.locator(".tl-why", has_text="dims 0 and 1 cannot merge").wait_for()
    harness.hover_and_check(widget, "el:1", "slot:1", "storage[1]")
    widget.screenshot(path=str(harness.ARTIFACTS / "strides-view-or-copy.png"))


def test_versions_step_and_hover(notebook_page) -> None:
    harness.check_versions_step_and_hover(notebook_page, PREFIX)
