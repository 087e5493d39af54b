"""PrecisionExplorer (unit 13) in a real JupyterLab 4: hover a tick of the number line and the info
line shows that value's bits; the tick x rounds to also lights up x and the bit fields.

A notebook of its own (one explorer), so that the shared unit-explorer notebook stays as it is.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest

from . import harness

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

CELL = 'from tensorlab.widgets import PrecisionExplorer\nPrecisionExplorer(0.1, "bf16")'


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Iterator:
    root: Path = tmp_path_factory.mktemp("precision")
    kernelspec = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(CELL)], metadata={"kernelspec": kernelspec})
    nbformat.write(notebook, root / "precision.ipynb")
    lab_only = ("--LabApp.news_url=", "--LabServerApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate")
    with harness.jupyter_server("jupyterlab", root, *lab_only) as (base, token), harness.chromium_page() as browser:
        harness.open_and_run_all(browser, f"{base}/lab/tree/precision.ipynb?token={token}", token,
                                 "precision-failed-to-render.png", explorers=1)
        yield browser


def test_hovering_a_tick_shows_its_bits(page) -> None:
    widget = harness.explorer(page, 0)
    # 4 ticks on each side: tick 4 is the value 0.1 rounds to, tick 5 the next bf16 value (2**-11 above)
    widget.locator('[data-key="tick:5"]').hover()
    widget.locator('[data-key="tick:5"].tl-hl').wait_for(timeout=10_000)
    widget.locator(".tl-info", has_text="0.1005859375 = 0 01111011 1001110 in bf16").wait_for(timeout=10_000)
    harness.hover_and_check(widget, "tick:4", "exponent", "0.10009765625 = 0 01111011 1001101 in bf16 (x rounds to this)")
    widget.screenshot(path=str(harness.ARTIFACTS / "precision-hover.png"))
