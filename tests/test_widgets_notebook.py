"""The demo notebook runs headless with nbclient (as nbgrader autograde does): no cell blocks, and
every widget leaves two outputs, its static fallback and then the live view that hides it."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

DEMO = Path(__file__).resolve().parent.parent / "notebooks" / "widgets-demo.ipynb"
EXPLORERS_IN_DEMO = 4
WIDGETS_IN_DEMO = EXPLORERS_IN_DEMO + 1  # the explorers and a quiz


@pytest.mark.timeout(180)
def test_demo_notebook_executes_with_nbclient(tmp_path: Path) -> None:
    notebook = nbformat.read(DEMO, as_version=4)
    NotebookClient(notebook, timeout=60, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    widget_cells = [cell for cell in notebook.cells if cell.cell_type == "code" and cell.outputs]
    assert len(widget_cells) == WIDGETS_IN_DEMO
    for cell in widget_cells:
        fallback, live = (output["data"] for output in cell.outputs)
        assert [output["output_type"] for output in cell.outputs] == ["display_data", "display_data"]
        assert fallback["text/html"].startswith('<div class="tl-fallback" data-tl-fallback="tl-')
        assert "application/vnd.jupyter.widget-view+json" not in fallback  # so nbconvert cannot prefer it
        assert "application/vnd.jupyter.widget-view+json" in live
    explorers = [cell.outputs[0]["data"] for cell in widget_cells[:EXPLORERS_IN_DEMO]]
    assert all(data["image/svg+xml"].startswith("<svg") and "<svg" in data["text/html"] for data in explorers)
