"""VmapExplorer: the ops it lists are the ops vmap ran, with the shapes torch's vmap shows the function,
and its picture links each op to the ops it read from; it displays in a notebook like every explorer."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
import torch
from nbclient import NotebookClient

from tensorlab.widgets import VmapExplorer, VmapModel


def torch_logical_shapes(function_source: str, shape: tuple[int, ...], in_dims: int) -> tuple[list[tuple[int, ...]], tuple[int, ...]]:
    """The shapes torch's vmap shows the function at each step it records, and the result's shape."""
    seen: list[tuple[int, ...]] = []
    body = eval(function_source, {"torch": torch})

    def watched(x: torch.Tensor) -> torch.Tensor:
        seen.append(tuple(x.shape))
        return body(x)

    result = torch.func.vmap(watched, in_dims=in_dims)(torch.zeros(shape))
    return seen, tuple(result.shape)


@pytest.mark.parametrize(
    ("source", "shape", "in_dims"),
    [
        ("lambda x: (x.sin() * x).sum(0) @ torch.ones(4, 2)", (5, 3, 4), 0),
        ("lambda x: x.T @ x", (2, 3, 4), 1),
        ("lambda x: x[0] + x.mean(-1, keepdim=True).squeeze(-1)", (4, 3, 3), 0),
        ("lambda x: torch.stack([x, x * 2]).reshape(-1)", (2, 3), -1),
    ],
)
def test_model_shapes_agree_with_torch(source: str, shape: tuple[int, ...], in_dims: int) -> None:
    model = VmapModel(source, shape, in_dims)
    seen, result_shape = torch_logical_shapes(source, shape, in_dims)
    batch = shape[in_dims]
    assert model.batch == batch and model.result_shape == result_shape
    first = model.steps[0].outputs[0]
    assert first == (seen[0], (batch, *seen[0]), True)  # the logical input is what torch's function saw
    for step in model.steps[1:-1]:
        for logical, physical, batched in (*step.inputs, *step.outputs):
            if batched:
                assert physical == (batch, *logical)  # the batch dim first, the rest the sample's
    assert all(step.rule == "batching rule" for step in model.steps[1:-1])


def test_an_op_without_a_rule_is_a_loop_and_the_summary_names_it() -> None:
    model = VmapModel("lambda x: x.roll(1).sum()", (4, 3))
    assert [s.op for s in model.steps] == ["input", "roll", "sum", "output"]
    assert [s.rule for s in model.steps[1:3]] == ["loop", "batching rule"]
    assert "no rule for roll" in model.describe() and any("roll" in w for w in model.warnings)


def test_each_op_reads_the_ops_that_made_its_operands() -> None:
    model = VmapModel("lambda x: (x.sin() * x).sum(0)", (5, 3, 4))
    reads = {s.op: s.reads for s in model.steps}
    assert reads["sin"] == (0,) and reads["mul"] == (0, 1) and reads["sum"] == (2,) and reads["output"] == (3,)


def test_bad_in_dims_is_refused() -> None:
    with pytest.raises(ValueError, match="in_dims=3"):
        VmapModel("lambda x: x", (2, 3), 3)


def test_the_picture_has_a_row_per_step_linked_to_what_it_reads() -> None:
    explorer = VmapExplorer("lambda x: (x.sin() * x).sum(0)", (5, 3, 4))
    svg = explorer.to_svg()
    rows = dict(re.findall(r'data-key="step:(\d+)"(?: data-links="([^"]*)")?', svg))
    assert set(rows) == {str(i) for i in range(len(explorer.model.steps))}
    assert rows["2"].split() == ["step:0", "step:1"]
    assert "(3, 4)" in svg and "(4,)" in svg and "loop" not in svg
    assert "loop ×4" in VmapExplorer("lambda x: x.roll(1)", (4, 3)).to_svg()
    assert "every op had a batching rule" in explorer.summary()


@pytest.mark.timeout(120)
def test_vmap_explorer_displays_its_picture_then_its_live_view(tmp_path: Path) -> None:
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        'from tensorlab.widgets import VmapExplorer\nVmapExplorer("lambda x: x.sum(0)", (5, 3, 4))')])
    NotebookClient(notebook, timeout=60, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    fallback, live = (output["data"] for output in notebook.cells[0].outputs)
    assert fallback["image/svg+xml"].startswith("<svg") and 'data-key="step:1"' in fallback["image/svg+xml"]
    assert "a batch of 5" in fallback["text/plain"]
    assert "application/vnd.jupyter.widget-view+json" in live
