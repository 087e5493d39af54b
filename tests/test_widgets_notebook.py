"""The demo notebook runs headless with nbclient (as nbgrader autograde does): no cell blocks."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

DEMO = Path(__file__).resolve().parent.parent / "notebooks" / "widgets-demo.ipynb"


@pytest.mark.timeout(180)
def test_demo_notebook_executes_with_nbclient(tmp_path: Path) -> None:
    notebook = nbformat.read(DEMO, as_version=4)
    NotebookClient(notebook, timeout=60, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    displays = [
        output["data"]
        for cell in notebook.cells if cell.cell_type == "code"
        for output in cell.outputs if output.get("output_type") == "execute_result"
    ]
    assert len(displays) == 3
    for data in displays:  # a live widget and, for static viewers, the picture
        assert data["image/svg+xml"].startswith("<svg")
        assert "application/vnd.jupyter.widget-view+json" in data
