"""ModuleExplorer (unit 12) in a real JupyterLab 4: hover a module of the tree and the forward-pass
steps that enter and leave it light up; hover the step where a forward hook fires and the info line
says so.

It has a notebook and a server of its own, so the other explorers' pages stay as they are.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest

from . import harness

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

CELL = (
    "import tensorlab as tl\n"
    "from tensorlab.widgets import ModuleExplorer\n"
    "net = tl.nn.Sequential(tl.nn.Linear(3, 4), tl.nn.ReLU(), tl.nn.Linear(4, 2))\n"
    "net[2].register_forward_hook(lambda module, args, output: None)\n"
    "ModuleExplorer(net, tl.ones(1, 3))"
)


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Iterator:
    root: Path = tmp_path_factory.mktemp("modules")
    kernelspec = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(CELL)], metadata={"kernelspec": kernelspec})
    nbformat.write(notebook, root / "modules.ipynb")
    lab_only = ("--LabApp.news_url=", "--LabServerApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate")
    with harness.jupyter_server("jupyterlab", root, *lab_only) as (base, token), harness.chromium_page() as browser:
        harness.open_and_run_all(browser, f"{base}/lab/tree/modules.ipynb?token={token}", token,
                                 "modules-failed-to-render.png", explorers=1)
        yield browser


def test_hover_a_module_lights_its_calls_and_a_call_names_the_hook_that_fires(page) -> None:
    widget = harness.explorer(page, 0)
    harness.hover_and_check(widget, "module:2", "call:5", "2 is Linear(in_features=4, out_features=2, bias=True): 10 parameters")
    harness.hover_and_check(widget, "call:6", "module:2", "1 forward hook fires here")
    widget.screenshot(path=str(harness.ARTIFACTS / "module-explorer.png"))
