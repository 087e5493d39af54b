"""ConvExplorer (unit 09) in a real JupyterLab 4: hover an output element and its receptive field in
the padded input and the kernel taps light up; editing the stride redraws with the new formula.

A notebook of its own (one explorer), so that the shared unit-explorer notebook stays as it is.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest

from . import harness

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

CELL = "from tensorlab.widgets import ConvExplorer\nConvExplorer((7,), [1, 2], padding=1, stride=2, dilation=3)"


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Iterator:
    root: Path = tmp_path_factory.mktemp("conv")
    kernelspec = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(CELL)], metadata={"kernelspec": kernelspec})
    nbformat.write(notebook, root / "conv.ipynb")
    lab_only = ("--LabApp.news_url=", "--LabServerApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate")
    with harness.jupyter_server("jupyterlab", root, *lab_only) as (base, token), harness.chromium_page() as browser:
        harness.open_and_run_all(browser, f"{base}/lab/tree/conv.ipynb?token={token}", token,
                                 "conv-failed-to-render.png", explorers=1)
        yield browser


def test_conv_hover_lights_the_receptive_field_and_kernel_taps_and_stride_edit_redraws(page) -> None:
    widget = harness.explorer(page, 0)
    harness.hover_and_check(widget, "out:1", "xp:5", "out[1] = 9 = 1*1 + 4*2")
    harness.hover_and_check(widget, "out:1", "w:1", "padded positions [2], [5]")
    harness.set_text_control(widget, "stride", "1")
    widget.locator(".tl-outcome", has_text="(7 + 2*1 - 3*(2-1) - 1) // 1 + 1 = 6").wait_for()
    widget.screenshot(path=str(harness.ARTIFACTS / "conv-stride-1.png"))
