"""The demo notebook runs headless with nbclient (as nbgrader autograde does): no cell blocks, and
every widget leaves two outputs, its static fallback and then the live view that hides it."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

DEMO = Path(__file__).resolve().parent.parent / "notebooks" / "widgets-demo.ipynb"
EXPLORERS_IN_DEMO = 5
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


@pytest.mark.timeout(180)
def test_index_explorer_displays_its_picture_then_its_live_view(tmp_path: Path) -> None:
    """IndexExplorer, as unit 07 shows it: a static picture with its info line, then the widget."""
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        'from tensorlab.widgets import IndexExplorer\nIndexExplorer((2, 3), "x[[0, 1], [2, 0]] = v", value_shape=(2,))'
    )])
    NotebookClient(notebook, timeout=60, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    fallback, live = (output["data"] for output in notebook.cells[0].outputs)
    assert fallback["image/svg+xml"].startswith("<svg") and 'data-key="out:1,0"' in fallback["image/svg+xml"]
    assert "broadcast into 2 of the 6 elements of x" in fallback["text/plain"]
    assert "application/vnd.jupyter.widget-view+json" in live


@pytest.mark.timeout(120)
def test_stride_explorer_view_or_copy_shows_in_a_notebook(tmp_path: Path) -> None:
    """Unit 02's use: the static fallback of a copying reshape carries the picture and says which dims cannot merge."""
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        'from tensorlab.widgets import StrideExplorer\nStrideExplorer((2, 3), "x.t().reshape(-1)")')])
    NotebookClient(notebook, timeout=60, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    fallback, live = (output["data"] for output in notebook.cells[0].outputs)
    assert "dims 0 and 1 cannot merge" in fallback["image/svg+xml"]
    assert "dims 0 and 1 cannot merge" in fallback["text/plain"]
    assert "application/vnd.jupyter.widget-view+json" in live


@pytest.mark.timeout(120)
def test_stride_drill_displays_its_question_then_the_live_view(tmp_path: Path) -> None:
    """The drill of unit 01 leaves the two outputs of every widget; its static picture hides the answer."""
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "from tensorlab.widgets import StrideDrill\nStrideDrill([((3, 4), 'x.t()')])")])
    NotebookClient(notebook, timeout=60, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    fallback, live = (output["data"] for output in notebook.cells[0].outputs)
    assert fallback["text/html"].startswith('<div class="tl-fallback" data-tl-fallback="tl-')
    assert "y.stride() = ?" in fallback["text/plain"] and "stride ?" in fallback["image/svg+xml"]
    assert "(1, 4)" not in fallback["text/html"]
    assert "application/vnd.jupyter.widget-view+json" in live


@pytest.mark.timeout(120)
def test_einsum_explorer_displays_its_loops_then_its_live_view(tmp_path: Path) -> None:
    """EinsumExplorer, as unit 10 shows it: the static picture (spec, shapes, loops) with its info line, then the widget."""
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        'from tensorlab.widgets import EinsumExplorer\nEinsumExplorer("bij,bjk->bik", (3, 2, 5), (3, 5, 4))')])
    NotebookClient(notebook, timeout=60, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    fallback, live = (output["data"] for output in notebook.cells[0].outputs)
    assert fallback["image/svg+xml"].startswith("<svg") and 'data-key="loop3:j"' in fallback["image/svg+xml"]
    assert "torch.Size([3, 2, 4]): sums over j" in fallback["text/plain"]
    assert "application/vnd.jupyter.widget-view+json" in live


@pytest.mark.timeout(180)
def test_graph_break_explorer_displays_its_picture_then_its_live_view(tmp_path: Path) -> None:
    """GraphBreakExplorer, as unit 14 shows it: the coloured source with its breaks, then the widget."""
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        'from tensorlab.widgets import GraphBreakExplorer\nGraphBreakExplorer("with_branch")'
    )])
    NotebookClient(notebook, timeout=60, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    fallback, live = (output["data"] for output in notebook.cells[0].outputs)
    assert fallback["image/svg+xml"].startswith("<svg") and 'data-key="line:2"' in fallback["image/svg+xml"]
    assert "with_branch: 2 graphs, 1 graph break" in fallback["text/plain"]
    assert "application/vnd.jupyter.widget-view+json" in live
