"""Every walkthrough notebook runs top to bottom in a fresh kernel, without a browser.

The kernel is this interpreter's own: this environment's kernelspec directory is searched first
(``JUPYTER_PATH``), its ``python3`` spec runs ``python``, which jupyter_client replaces with
``sys.executable``; and a first cell (added in memory only) asserts that the kernel really runs
in this environment, so a notebook can never pass against another Python.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
import pytest

nbclient = pytest.importorskip("nbclient")

REPO_ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted(
    path for path in (REPO_ROOT / "notebooks").glob("*.ipynb") if ".ipynb_checkpoints" not in path.parts
)
TIMEOUT_S = 120  # per notebook, whole run; each cell should take well under a second


def test_there_are_notebooks_to_execute() -> None:
    assert NOTEBOOKS, "no .ipynb under notebooks/"


@pytest.mark.timeout(TIMEOUT_S + 60)
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_notebook_executes_top_to_bottom(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JUPYTER_PATH", str(Path(sys.prefix, "share", "jupyter")))
    notebook = nbformat.read(path, as_version=4)
    guard = f"import sys\nassert sys.prefix == {sys.prefix!r}, f'kernel runs in {{sys.prefix}}, not the test environment'"
    notebook.cells.insert(0, nbformat.v4.new_code_cell(guard))
    client = nbclient.NotebookClient(
        notebook,
        kernel_name="python3",
        timeout=TIMEOUT_S,
        startup_timeout=60,
        resources={"metadata": {"path": str(path.parent)}},  # the notebook's folder is its working directory
    )
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as error:
        pytest.fail(f"{path.name} failed:\n{error}", pytrace=False)
