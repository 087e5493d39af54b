"""IndexExplorer in a real JupyterLab 4: hover a result element and the element of x it reads lights
up; type an assignment and hover again: the element of v written there lights up.

It has a notebook of its own (one explorer), so the demo notebook's scenarios stay as they are.
"""

from __future__ import annotations

from collections.abc import Iterator

import nbformat
import pytest

from . import harness

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

CELL = 'from tensorlab.widgets import IndexExplorer\nIndexExplorer((2, 3), "x[[0, 1, 0, 1], [0, 1, 0, 1]]")'


@pytest.fixture(scope="module")
def index_page(tmp_path_factory: pytest.TempPathFactory) -> Iterator:
    root = tmp_path_factory.mktemp("index-lab")
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(CELL)]), str(root / "index.ipynb"))
    lab_only = ("--LabApp.news_url=", "--LabServerApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate")
    with harness.jupyter_server("jupyterlab", root, *lab_only) as (base, token), harness.chromium_page() as page:
        try:
            page.goto(f"{base}/lab/tree/index.ipynb?token={token}")
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
            page.screenshot(path=str(harness.ARTIFACTS / "index-failed-to-render.png"))
            raise
        yield page


def test_index_hover_links_output_to_source_and_assignment_to_value(index_page) -> None:
    widget = harness.explorer(index_page, 0)
    harness.hover_and_check(widget, "out:1", "in:1,1", "result[1] reads x[1, 1]")
    harness.set_text_control(widget, "v shape", "2, 1")
    harness.set_text_control(widget, "index", "x[:, 1:] = v")
    widget.locator(".tl-outcome", has_text="broadcast into 4 of the 6 elements").wait_for()
    harness.hover_and_check(widget, "out:1,2", "in:1,0", "x[1, 2] receives v[1, 0]")
    widget.screenshot(path=str(harness.ARTIFACTS / "index-assignment.png"))
