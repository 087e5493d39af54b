"""The stride drill of unit 01 in a real JupyterLab 4: hidden until answered, then linked on hover.

Its own one-cell notebook in a private server (the demo notebook and its scenarios stay as they are).
"""

from __future__ import annotations

from collections.abc import Iterator

import nbformat
import pytest

from . import harness

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

DRILL_CELL = "from tensorlab.widgets import StrideDrill\nStrideDrill([((3, 4), 'x.t()')])"


@pytest.fixture(scope="module")
def drill_page(tmp_path_factory: pytest.TempPathFactory) -> Iterator:
    root = tmp_path_factory.mktemp("drill")
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(DRILL_CELL)]), str(root / "drill.ipynb"))
    lab_only = ("--LabApp.news_url=", "--LabServerApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate")
    with harness.jupyter_server("jupyterlab", root, *lab_only) as (base, token), harness.chromium_page() as page:
        try:
            page.goto(f"{base}/lab/tree/drill.ipynb?token={token}")
            page.locator(".jp-Notebook").wait_for()
            harness.accept_dialogs_until(page, harness.KERNEL_READY.replace("TOKEN", repr(token)))
            for attempt in range(3):  # a Run All sent while the kernel is still connecting can be lost: resend
                page.get_by_role("menuitem", name="Run", exact=True).click()
                page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
                try:
                    harness.accept_dialogs_until(page, "document.querySelectorAll('.tl-explorer svg').length >= 1", timeout=45)
                    break
                except TimeoutError:
                    if attempt == 2:
                        raise
        except Exception:
            page.screenshot(path=str(harness.ARTIFACTS / "drill-failed-to-render.png"))
            raise
        yield page


def test_drill_hides_the_strides_until_answered_then_links_elements_to_slots(drill_page) -> None:
    widget = harness.explorer(drill_page, 0)
    widget.locator(".tl-layout", has_text="stride ?").wait_for()
    harness.set_text_control(widget, "y.stride()", "4, 1")
    widget.locator(".tl-info", has_text="wrong order").wait_for()
    widget.locator(".tl-layout", has_text="stride ?").wait_for()  # still hidden after a wrong answer
    harness.set_text_control(widget, "y.stride()", "1, 4")
    widget.locator(".tl-layout", has_text="stride (1, 4)").wait_for()
    harness.hover_and_check(widget, "el:1,0", "slot:1", "storage[1]")
    widget.screenshot(path=str(harness.ARTIFACTS / "stride-drill-answered.png"))
