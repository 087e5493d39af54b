"""JoinExplorer: its model against torch (shapes, errors, where every element comes from, the views'
strides and offsets), its SVG (snapshots, hover links) and its display in a headless notebook.

After an intended change to a picture, regenerate with ``UPDATE_SNAPSHOTS=1`` and review the
diff of ``tests/snapshots/``.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import nbformat
import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from tensorlab.widgets import JoinExplorer, JoinModel
from tensorlab.widgets.join import parse_split_argument
from tests.svg_snapshots import SNAPSHOTS, assert_matches_snapshot, hover_groups

small_shape = st.lists(st.integers(0, 3), min_size=0, max_size=3).map(tuple)


def torch_run(op: str, model: JoinModel) -> tuple:
    """(results, None) or (None, (class name, message)) of the same op on the model's inputs, in torch."""
    # torch.arange, not torch.tensor(array): torch gives an empty tensor made from NumPy stride 0
    tensors = [torch.arange(int(values.flat[0]) if values.size else 0, int(values.flat[0]) + values.size if values.size else 0)
               .reshape(values.shape) for values in model.inputs]
    try:
        if op == "cat":
            return (torch.cat(tensors, model.requested_dim),), None
        if op == "stack":
            return (torch.stack(tensors, model.requested_dim),), None
        if op == "split":
            return torch.split(tensors[0], model.argument, model.requested_dim), None
        if op == "chunk":
            return torch.chunk(tensors[0], model.argument, model.requested_dim), None
        return torch.unbind(tensors[0], model.requested_dim), None
    except (RuntimeError, IndexError, ValueError, TypeError) as error:
        return None, (type(error).__name__, str(error))


def check_against_torch(model: JoinModel) -> None:
    results, error = torch_run(model.op, model)
    assert model.error == error
    if error is not None:
        return
    assert [r.shape for r in model.results] == [tuple(r.shape) for r in results]
    for k, (ours, theirs) in enumerate(zip(model.results, results, strict=True)):
        np.testing.assert_array_equal(ours, theirs.numpy())
        for index in np.ndindex(*ours.shape):
            source, at = model.origin(k, index)
            assert model.inputs[source][at] == theirs[index].item(), (k, index, source, at)
        if not model.copies:  # the pieces are views: torch's strides and offsets
            assert model.strides[k] == theirs.stride() and model.offsets[k] == theirs.storage_offset()


@settings(max_examples=60, deadline=None)
@given(shapes=st.lists(small_shape, min_size=1, max_size=3), dim=st.integers(-4, 3), op=st.sampled_from(["cat", "stack"]))
def test_join_model_is_torchs(shapes, dim, op) -> None:
    check_against_torch(JoinModel(op, shapes, dim=dim))


@settings(max_examples=60, deadline=None)
@given(shape=st.lists(st.integers(0, 6), min_size=0, max_size=3).map(tuple), dim=st.integers(-3, 2),
       op=st.sampled_from(["split", "chunk", "unbind"]), size=st.integers(-1, 7),
       sections=st.lists(st.integers(0, 4), min_size=1, max_size=3))
def test_split_model_is_torchs(shape, dim, op, size, sections) -> None:
    argument = sections if op == "split" and size % 2 else size
    check_against_torch(JoinModel(op, [shape], argument, dim))


@pytest.mark.parametrize(("op", "shapes", "argument", "dim"), [
    ("cat", [(3, 4), (3, 4)], None, 0), ("cat", [(3, 4), (3, 4)], None, 1),
    ("stack", [(3, 4), (3, 4)], None, 0), ("stack", [(3, 4), (3, 4)], None, 1), ("stack", [(3, 4), (3, 4)], None, 2),
    ("split", [(5, 2)], 2, 0), ("split", [(5, 2)], [1, 4], 0),
    ("chunk", [(6,)], 2, 0), ("chunk", [(6, 5)], 2, 0), ("chunk", [(5, 5)], 2, 0), ("chunk", [(6,)], 4, 0),
    ("unbind", [(2, 3)], None, 0), ("unbind", [(2, 3)], None, 1),
    ("cat", [(2, 3), (0,)], None, 1),  # the legacy rule: a (0,) tensor is skipped whatever dim says
])
def test_seed_examples_are_torchs(op, shapes, argument, dim) -> None:
    check_against_torch(JoinModel(op, shapes, argument, dim))


def test_describe_says_copy_or_views_in_torchs_words() -> None:
    assert JoinModel("cat", [(2, 3), (1, 3)]).describe().endswith("torch.Size([3, 3]), a copy in new storage")
    assert JoinModel("chunk", [(6, 2)], 4).describe().endswith("3 view(s) of x: [2, 2], [2, 2], [2, 2]")
    assert "Sizes of tensors must match except in dimension 0" in JoinModel("cat", [(2, 3), (2, 1)]).describe()


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="op must be"):
        JoinModel("concat", [(2,)])
    with pytest.raises(ValueError, match="takes one shape"):
        JoinModel("split", [(2,), (2,)], 1)
    assert parse_split_argument("2") == 2 and parse_split_argument("1, 4") == [1, 4] == parse_split_argument("[1, 4]")
    with pytest.raises(ValueError):
        parse_split_argument("two")


# --- SVG ----------------------------------------------------------------------------------------
CASES = {
    "join_cat_dim0": lambda: JoinExplorer("cat", [(2, 3), (1, 3)], dim=0),
    "join_stack_dim1": lambda: JoinExplorer("stack", [(2, 3), (2, 3)], dim=1),
    "join_cat_error": lambda: JoinExplorer("cat", [(2, 3), (2, 1)], dim=0),
    "join_chunk_fewer": lambda: JoinExplorer("chunk", [(6, 2)], 4),
    "join_unbind_dim1": lambda: JoinExplorer("unbind", [(2, 3)], dim=1),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_svg_matches_snapshot(name: str) -> None:
    svg = CASES[name]().to_svg()
    ET.fromstring(svg)
    assert svg == CASES[name]().to_svg(), "not deterministic"
    path = SNAPSHOTS / f"{name}.svg"
    assert_matches_snapshot(svg, path)



def test_svg_links_each_element_to_its_source_both_ways() -> None:
    groups = hover_groups(JoinExplorer("cat", [(2, 3), (1, 3)], dim=0).to_svg())
    assert groups["out:2,1"].get("data-links") == "b:0,1"
    assert groups["b:0,1"].get("data-links") == "out:2,1"
    assert "copied from b[0, 1]" in groups["out:2,1"].get("data-info")


def test_svg_marks_pieces_as_views_with_their_offset_arithmetic() -> None:
    svg = JoinExplorer("unbind", [(2, 3)], dim=1).to_svg()
    groups = hover_groups(svg)
    assert groups["p2:1"].get("data-links") == "x:1,2"
    assert groups["p2:1"].get("data-info").endswith("storage slot 2 + 1*3 = 5")
    assert "p2 [2] view: offset 2, strides (3,)" in svg
    assert 'stroke-dasharray="3 2"' in svg  # views are drawn dashed: they own no memory


def test_svg_of_an_error_shows_torchs_message_and_no_grid() -> None:
    svg = JoinExplorer("stack", [(2, 3), (3, 2)]).to_svg()
    assert "stack expects each tensor to be equal size" in svg and "data-key" not in svg


def test_mimebundle_has_the_picture_and_the_summary() -> None:
    bundle = JoinExplorer("chunk", [(6, 2)], 4)._repr_mimebundle_()
    assert bundle["image/svg+xml"].startswith("<svg")
    assert bundle["text/plain"].endswith("3 view(s) of x: [2, 2], [2, 2], [2, 2]")


def test_controls_rebuild_the_model() -> None:
    explorer = JoinExplorer("cat", [(2, 3), (1, 3)])
    box = explorer.widget()
    operation, (shapes, argument, dim) = box.children[0], box.children[1].children
    operation.value = "chunk"
    shapes.value = "5, 2"
    argument.value = "2"
    assert explorer.summary().endswith("2 view(s) of x: [3, 2], [2, 2]")
    argument.value = "oops"
    assert "not a size" in explorer.summary()
    argument.value = "2"
    dim.value = 1
    assert explorer.summary().endswith("2 view(s) of x: [5, 1], [5, 1]")


# --- in a headless notebook -----------------------------------------------------------------------
@pytest.mark.timeout(180)
def test_join_explorer_displays_fallback_then_live_view(tmp_path: Path) -> None:
    from nbclient import NotebookClient

    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "from tensorlab.widgets import JoinExplorer\nJoinExplorer('split', [(5, 2)], [1, 4])")])
    NotebookClient(notebook, timeout=60, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    fallback, live = (output["data"] for output in notebook.cells[0].outputs)
    assert fallback["text/html"].startswith('<div class="tl-fallback" data-tl-fallback="tl-')
    assert "p1 [4, 2] view: offset 2, strides (2, 1)" in fallback["image/svg+xml"]
    assert "application/vnd.jupyter.widget-view+json" in live
