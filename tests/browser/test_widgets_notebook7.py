"""The explorers in a real Notebook 7 (``jupyter notebook``, the /notebooks/<name>.ipynb page):
rendered, editable through their controls, linked on hover — the same scenarios as in JupyterLab.
"""

from __future__ import annotations

import pytest

from . import harness

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

PREFIX = "notebook7-"


def test_widgets_render_without_errors(notebook7_page) -> None:
    harness.check_all_rendered(notebook7_page, PREFIX)


def test_broadcast_hover_and_edit(notebook7_page) -> None:
    harness.check_broadcast_hover_and_edit(notebook7_page, PREFIX)


def test_strides_edit_and_hover(notebook7_page) -> None:
    harness.check_strides_edit_and_hover(notebook7_page, PREFIX)


def test_graph_steps_through_backward(notebook7_page) -> None:
    harness.check_graph_steps_through_backward(notebook7_page, PREFIX)
