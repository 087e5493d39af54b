"""EinsumExplorer (unit 10) in a real JupyterLab 4: hover a letter and all its uses light up, in the
spec, the shapes and the loops, with the info line saying what the letter does; a spec edit redraws.

It has a notebook and a server of its own, so the other explorers' pages stay as they are.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest

from . import harness

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

CELL = 'from tensorlab.widgets import EinsumExplorer\nEinsumExplorer("bij,bjk->bik", (3, 2, 5), (3, 5, 4))'


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Iterator:
    root: Path = tmp_path_factory.mktemp("einsum")
    kernelspec = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(CELL)], metadata={"kernelspec": kernelspec})
    nbformat.write(notebook, root / "einsum.ipynb")
    lab_only = ("--LabApp.news_url=", "--LabServerApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate")
    with harness.jupyter_server("jupyterlab", root, *lab_only) as (base, token), harness.chromium_page() as browser:
        harness.open_and_run_all(browser, f"{base}/lab/tree/einsum.ipynb?token={token}", token,
                                 "einsum-failed-to-render.png", explorers=1)
        yield browser


def test_einsum_hover_links_every_use_of_a_letter_and_edit_redraws(page) -> None:
    widget = harness.explorer(page, 0)
    harness.hover_and_check(widget, "spec0.2:j", "loop3:j", "j: size 5, summed (not in the output)")
    assert widget.locator('[data-key="shape1.1:j"].tl-linked').count() == 1  # op1's dim 1 is j too
    assert widget.locator('[data-key="stmt0.2:k"].tl-linked').count() == 0  # k is another letter
    harness.set_text_control(widget, "spec", "ii")
    harness.set_text_control(widget, "shapes", "(4, 4)")
    widget.locator(".tl-outcome", has_text="torch.Size([]): sums over i").wait_for()
    harness.hover_and_check(widget, "loop0:i", "stmt1.1:i", "its diagonal")
    widget.screenshot(path=str(harness.ARTIFACTS / "einsum-trace.png"))
