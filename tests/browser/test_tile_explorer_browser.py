"""TileExplorer (unit 13) in a real JupyterLab 4: hover a program and the block of C it stores and the
tiles of A and B it loads light up; editing GROUP_M redraws in the new program order.

A notebook of its own (one explorer), so that the shared unit-explorer notebook stays as it is.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest

from . import harness

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

CELL = "from tensorlab.widgets import TileExplorer\nTileExplorer(5, 6, 7, 2, 4, 4, group_m=2)"


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Iterator:
    root: Path = tmp_path_factory.mktemp("tiles")
    kernelspec = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(CELL)], metadata={"kernelspec": kernelspec})
    nbformat.write(notebook, root / "tiles.ipynb")
    lab_only = ("--LabApp.news_url=", "--LabServerApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate")
    with harness.jupyter_server("jupyterlab", root, *lab_only) as (base, token), harness.chromium_page() as browser:
        harness.open_and_run_all(browser, f"{base}/lab/tree/tiles.ipynb?token={token}", token,
                                 "tiles-failed-to-render.png", explorers=1)
        yield browser


def test_tiles_hover_a_program_lights_its_block_and_tiles_and_group_edit_redraws(page) -> None:
    widget = harness.explorer(page, 0)
    harness.hover_and_check(widget, "pid:3", "c:2,5", "program 3 (group 0) -> pid_m=1, pid_n=1: C[2:4, 4:8]")
    harness.hover_and_check(widget, "pid:3", "b:6,4", "masked: 4 C stores, 2 A loads, 18 B loads")
    harness.hover_and_check(widget, "c:5,0", "a:4,3", "C[5, 0]: masked (past M or N)")
    harness.set_text_control(widget, "GROUP_M", "1")
    widget.locator('[data-key="pid:1"]').hover()
    widget.locator(".tl-info", has_text="program 1 (group 0) -> pid_m=0, pid_n=1").wait_for()
    widget.screenshot(path=str(harness.ARTIFACTS / "tiles-group-1.png"))
