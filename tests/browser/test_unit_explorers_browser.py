"""The explorers of units 01, 06, 07, 08, 14, 15, 16 and 17 in a real JupyterLab 4: hover an element and the
elements it is linked to light up, with the info line explaining it; a control edit redraws.

They share one notebook of their own (written into a private server's folder), so the demo
notebook and its scenarios stay as they are, and one server and one browser serve them all.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest

from . import harness

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

CELLS = [  # one explorer per cell, in this order on the page
    "from tensorlab.widgets import CollectiveExplorer, GatherExplorer, IndexExplorer, JoinExplorer, StrideDrill, VmapExplorer\n"
    "StrideDrill([((3, 4), 'x.t()')])",
    'IndexExplorer((2, 3), "x[[0, 1, 0, 1], [0, 1, 0, 1]]")',
    "JoinExplorer('unbind', [(2, 3)], dim=1)",
    "GatherExplorer('gather', (3, 4), 1, [[0, 0], [2, 1], [3, 3]])",
    "CollectiveExplorer(3, step=2)",
    'VmapExplorer("lambda x: (x.sin() * x).sum(0)", (5, 3, 4))',
    "from tensorlab.widgets import GraphBreakExplorer\nGraphBreakExplorer('two_breaks')",
    "from tensorlab.widgets import MemoryExplorer\nMemoryExplorer(depth=2, segments=2)",
]
DRILL, INDEX, JOIN, GATHER, COLLECTIVE, VMAP, GRAPH_BREAKS, MEMORY = range(len(CELLS))


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Iterator:
    root: Path = tmp_path_factory.mktemp("units")
    kernelspec = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in CELLS],
                                        metadata={"kernelspec": kernelspec})
    nbformat.write(notebook, root / "units.ipynb")
    lab_only = ("--LabApp.news_url=", "--LabServerApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate")
    with harness.jupyter_server("jupyterlab", root, *lab_only) as (base, token), harness.chromium_page() as browser:
        harness.open_and_run_all(browser, f"{base}/lab/tree/units.ipynb?token={token}", token,
                                 "units-failed-to-render.png", explorers=len(CELLS))
        yield browser


def test_drill_hides_the_strides_until_answered_then_links_elements_to_slots(page) -> None:
    widget = harness.explorer(page, DRILL)
    widget.locator(".tl-layout", has_text="stride ?").wait_for()
    harness.set_text_control(widget, "y.stride()", "4, 1")
    widget.locator(".tl-info", has_text="wrong order").wait_for()
    widget.locator(".tl-layout", has_text="stride ?").wait_for()  # still hidden after a wrong answer
    harness.set_text_control(widget, "y.stride()", "1, 4")
    widget.locator(".tl-layout", has_text="stride (1, 4)").wait_for()
    harness.hover_and_check(widget, "el:1,0", "slot:1", "storage[1]")
    widget.screenshot(path=str(harness.ARTIFACTS / "stride-drill-answered.png"))


def test_index_hover_links_output_to_source_and_assignment_to_value(page) -> None:
    widget = harness.explorer(page, INDEX)
    harness.hover_and_check(widget, "out:1", "in:1,1", "result[1] reads x[1, 1]")
    harness.set_text_control(widget, "v shape", "2, 1")
    harness.set_text_control(widget, "index", "x[:, 1:] = v")
    widget.locator(".tl-outcome", has_text="broadcast into 4 of the 6 elements").wait_for()
    harness.hover_and_check(widget, "out:1,2", "in:1,0", "x[1, 2] receives v[1, 0]")
    widget.screenshot(path=str(harness.ARTIFACTS / "index-assignment.png"))


def test_join_hover_links_a_view_to_its_storage_and_edit_redraws(page) -> None:
    widget = harness.explorer(page, JOIN)
    harness.hover_and_check(widget, "p2:1", "x:1,2", "storage slot 2 + 1*3 = 5")
    harness.hover_and_check(widget, "x:0,1", "p1:0", "x[0, 1] = 1, in p1:0")
    widget.get_by_role("button", name="cat", exact=True).click()
    widget.locator(".tl-outcome", has_text="a copy in new storage").wait_for()
    widget.screenshot(path=str(harness.ARTIFACTS / "join-cat.png"))


def test_gather_hover_links_an_output_to_the_input_it_reads_and_edit_redraws(page) -> None:
    widget = harness.explorer(page, GATHER)
    harness.hover_and_check(widget, "out:1,0", "input:1,2", "out[1, 0] = 6 = input[1, 2]")
    harness.set_text_control(widget, "index", "[[4, 0], [0, 0], [0, 0]]")
    widget.locator(".tl-outcome", has_text="index 4 is out of bounds for dimension 1 with size 4").wait_for()
    widget.screenshot(path=str(harness.ARTIFACTS / "gather-error.png"))


def test_collective_hover_lights_the_ranks_a_chunk_sums_and_the_slider_steps(page) -> None:
    widget = harness.explorer(page, COLLECTIVE)
    harness.hover_and_check(widget, "cell:0,0", "rank:2", "the sum of the parts of ranks [0, 1, 2] (complete)")
    handle = widget.locator(".widget-slider", has_text="step").locator(".noUi-handle")
    handle.hover()  # off the picture: the info line goes back to describing the step
    handle.focus()
    handle.press("ArrowRight")
    widget.locator(".tl-info", has_text="step 3/4 (all-gather)").wait_for()
    widget.screenshot(path=str(harness.ARTIFACTS / "collective-all-gather.png"))


def test_vmap_hover_lights_the_ops_an_op_reads_and_an_edit_redraws(page) -> None:
    widget = harness.explorer(page, VMAP)
    harness.hover_and_check(widget, "step:2", "step:1", "mul: logical [3, 4], physical [5, 3, 4]")
    widget.locator(".widget-text", has_text="function").locator("input").hover()  # off the picture: the info line describes the whole run
    harness.set_text_control(widget, "function", "lambda x: x.roll(1, 0)")
    widget.locator(".tl-info", has_text="no rule for roll").wait_for()
    widget.screenshot(path=str(harness.ARTIFACTS / "vmap-loop.png"))


def test_graph_breaks_hover_lights_up_the_lines_of_one_graph(page) -> None:
    widget = harness.explorer(page, GRAPH_BREAKS)
    harness.hover_and_check(widget, "line:3", "line:2", "line 3 breaks graph 1")
    widget.screenshot(path=str(harness.ARTIFACTS / "graph-breaks.png"))


def test_memory_hover_a_module_lights_its_saved_tensors(page) -> None:
    widget = harness.explorer(page, MEMORY)
    harness.hover_and_check(widget, "module:0", "saved:0,weight", "checkpointed: recomputed in backward")
    harness.hover_and_check(widget, "saved:0,input", "module:0", "saved at its boundary")
