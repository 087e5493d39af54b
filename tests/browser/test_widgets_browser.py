"""The explorers in a real JupyterLab: rendered, editable through their controls, linked on hover."""

from __future__ import annotations

import pytest

from .conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def explorer(page, index: int):
    """The ``index``-th explorer on the page (0 broadcast, 1 strides, 2 graph)."""
    return page.locator(".jp-OutputArea-output").filter(has=page.locator(".tl-explorer")).nth(index)


def hover_and_check(widget, key: str, linked: str, info_part: str) -> None:
    widget.locator(f'[data-key="{key}"]').hover()
    widget.locator(f'[data-key="{key}"].tl-hl').wait_for(timeout=10_000)
    widget.locator(f'[data-key="{linked}"].tl-linked').first.wait_for(timeout=10_000)
    assert info_part in widget.locator(".tl-info").inner_text()


def test_widgets_render_without_errors(notebook_page) -> None:
    page = notebook_page
    assert page.locator(".tl-explorer").count() == 3
    assert "Error displaying widget" not in page.locator(".jp-Notebook").inner_text()
    page.screenshot(path=str(ARTIFACTS / "widgets-all.png"))


def test_broadcast_hover_and_edit(notebook_page) -> None:
    widget = explorer(notebook_page, 0)
    hover_and_check(widget, "out:2,3", "a:2,0", "out[2,3] = 32")
    widget.locator(".widget-text", has_text="b shape").locator("input").fill("2, 4")
    widget.locator(".widget-text", has_text="b shape").locator("input").press("Enter")
    widget.locator(".tl-outcome", has_text="The size of tensor a (3) must match the size of tensor b (2)").wait_for()
    widget.screenshot(path=str(ARTIFACTS / "broadcast-error.png"))
    widget.locator(".widget-text", has_text="b shape").locator("input").fill("1, 4")
    widget.locator(".widget-text", has_text="b shape").locator("input").press("Enter")
    widget.locator(".tl-outcome", has_text="torch.Size([3, 4])").wait_for()
    hover_and_check(widget, "b:0,1", "out:2,1", "read by 3 output")


def test_strides_edit_and_hover(notebook_page) -> None:
    widget = explorer(notebook_page, 1)
    ops = widget.locator(".widget-text", has_text="view ops").locator("input")
    ops.fill("x.t()[::2]")
    ops.press("Enter")
    widget.locator(".tl-layout", has_text="stride (2, 3)").wait_for()
    hover_and_check(widget, "el:1,0", "slot:2", "storage[2]")
    ops.fill("x.t().view(6)")
    ops.press("Enter")
    widget.locator(".tl-outcome", has_text="view size is not compatible").wait_for()
    widget.screenshot(path=str(ARTIFACTS / "strides-view-fails.png"))


def test_graph_steps_through_backward(notebook_page) -> None:
    widget = explorer(notebook_page, 2)
    for _ in range(4):
        widget.get_by_role("button", name="next step").click()
    widget.locator(".tl-outcome", has_text="backward step 4/4").wait_for()
    assert "ran as step 4" in widget.locator(".tl-function", has_text="MulBackward0").text_content()
    leaf = widget.locator(".tl-tensor", has_text="w [3]")
    assert "grad: [" in leaf.text_content()
    leaf.hover()
    widget.locator(".tl-tensor.tl-hl", has_text="w [3]").wait_for()
    assert "w [3]" in widget.locator(".tl-info").inner_text()
    widget.screenshot(path=str(ARTIFACTS / "graph-backward.png"))
