"""JoinExplorer and GatherExplorer in a real JupyterLab 4: hovering an element lights up the elements
it is linked to (a piece's element and the element of x it is a view of; a gather output and the
input element it reads) and the info line explains it; changing a control redraws.

The explorers run in a notebook of their own (written into the server's folder), so the demo
notebook and its scenarios stay as they are.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest

from . import harness

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

CELLS = [
    "from tensorlab.widgets import GatherExplorer, JoinExplorer\nJoinExplorer('unbind', [(2, 3)], dim=1)",
    "GatherExplorer('gather', (3, 4), 1, [[0, 0], [2, 1], [3, 3]])",
]


@pytest.fixture(scope="module")
def explorers_page(tmp_path_factory: pytest.TempPathFactory) -> Iterator:
    root: Path = tmp_path_factory.mktemp("join")
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in CELLS],
                                            metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                                     "language": "python"}}), root / "join.ipynb")
    lab_only = ("--LabApp.news_url=", "--LabServerApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate")
    with harness.jupyter_server("jupyterlab", root, *lab_only) as (base, token), harness.chromium_page() as page:
        try:
            page.goto(f"{base}/lab/tree/join.ipynb?token={token}")
            page.locator(".jp-Notebook").wait_for()
            harness.accept_dialogs_until(page, harness.KERNEL_READY.replace("TOKEN", repr(token)))
            for attempt in range(3):  # a Run All sent while the kernel is still connecting can be lost: resend
                page.get_by_role("menuitem", name="Run", exact=True).click()
                page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
                try:
                    harness.accept_dialogs_until(page, "document.querySelectorAll('.tl-explorer svg').length >= 2", timeout=45)
                    break
                except TimeoutError:
                    if attempt == 2:
                        raise
        except Exception:
            page.screenshot(path=str(harness.ARTIFACTS / "join-failed-to-render.png"))
            raise
        yield page


def test_join_hover_links_a_view_to_its_storage_and_edit_redraws(explorers_page) -> None:
    widget = harness.explorer(explorers_page, 0)
    harness.hover_and_check(widget, "p2:1", "x:1,2", "storage slot 2 + 1*3 = 5")
    harness.hover_and_check(widget, "x:0,1", "p1:0", "x[0, 1] = 1, in p1:0")
    widget.get_by_role("button", name="cat", exact=True).click()
    widget.locator(".tl-outcome", has_text="a copy in new storage").wait_for()
    widget.screenshot(path=str(harness.ARTIFACTS / "join-cat.png"))


def test_gather_hover_links_an_output_to_the_input_it_reads_and_edit_redraws(explorers_page) -> None:
    widget = harness.explorer(explorers_page, 1)
    harness.hover_and_check(widget, "out:1,0", "input:1,2", "out[1, 0] = 6 = input[1, 2]")
    harness.set_text_control(widget, "index", "[[4, 0], [0, 0], [0, 0]]")
    widget.locator(".tl-outcome", has_text="index 4 is out of bounds for dimension 1 with size 4").wait_for()
    widget.screenshot(path=str(harness.ARTIFACTS / "gather-error.png"))
