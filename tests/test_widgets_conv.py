"""ConvExplorer: its model against torch (outputs, output sizes, errors, and the receptive field of
every output element, read off torch's own gradient), its SVG (snapshots, hover links) and its
display in a notebook.

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
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st

from tensorlab.widgets import ConvExplorer, ConvModel
from tensorlab.widgets.conv import kernel_text, parse_kernel
from tensorlab.widgets.grid import indices
from tests.svg_snapshots import SNAPSHOTS, SVG_KEY, assert_matches_snapshot, hover_groups


def torch_run(model: ConvModel) -> tuple:
    """((torch's output, its input x requiring grad), None) or (None, (class name, message))."""
    x = torch.tensor(model.x.reshape(1, 1, *model.shape), requires_grad=True)
    w = torch.tensor(model.weight.reshape(1, 1, *model.weight.shape))
    conv = F.conv1d if model.dims == 1 else F.conv2d
    try:
        out = conv(x, w, stride=model.stride, padding=model.padding, dilation=model.dilation)
    except (RuntimeError, ValueError) as error:
        return None, (type(error).__name__, str(error))
    return (out, x), None


@st.composite
def cases(draw: st.DrawFn) -> ConvModel:
    """1-d or 2-d, kernel 1..4 per dim with non-zero taps, padding 0..4, stride 1..3, dilation 1..3
    (sometimes a kernel that does not fit, which torch refuses)."""
    n = draw(st.sampled_from([1, 2]))
    shape = tuple(draw(st.integers(1, 6)) for _ in range(n))
    kernel_shape = tuple(draw(st.integers(1, 4)) for _ in range(n))
    taps = draw(st.lists(st.integers(1, 5), min_size=int(np.prod(kernel_shape)), max_size=int(np.prod(kernel_shape))))
    kernel = np.array(taps, dtype=np.float32).reshape(kernel_shape)
    triple = [tuple(draw(st.integers(low, high)) for _ in range(n)) for low, high in ((0, 4), (1, 3), (1, 3))]
    return ConvModel(shape, kernel.tolist(), *triple)


@settings(max_examples=80, deadline=None)
@given(model=cases())
def test_model_is_torchs_and_its_receptive_fields_are_torchs_gradients(model: ConvModel) -> None:
    ran, error = torch_run(model)
    assert model.error == error
    if error is not None:
        return
    out, x = ran
    expected = out.detach().numpy().reshape(out.shape[2:])
    assert model.result is not None and model.output_size() == model.result.shape == expected.shape
    np.testing.assert_array_equal(model.result, expected)
    for o in indices(expected.shape):
        # the gradient of out[o] with respect to x is the kernel, laid over o's receptive field
        (grad,) = torch.autograd.grad(out[(0, 0, *o)], x, retain_graph=True)
        from_model = np.zeros(model.shape, np.float32)
        for position, tap in model.taps(o):
            if not model.is_padding(position):
                from_model[model.original(position)] += model.weight[tap]
        np.testing.assert_array_equal(from_model, grad.numpy().reshape(model.shape))


def test_the_seed_examples_are_torchs() -> None:
    """Unit 09's examples: conv1d of [0, 1, 2, 3] with [1, 1, 1] and padding 0 to 4."""
    x = torch.tensor([[0.0, 1, 2, 3]])
    for padding in range(5):
        model = ConvModel((4,), [1, 1, 1], padding=padding)
        assert model.result.tolist() == F.conv1d(x, torch.tensor([[[1.0, 1, 1]]]), padding=padding)[0].tolist()
    assert ConvModel((4,), [1, 1, 1], padding=1).taps((0,)) == [((0,), (0,)), ((1,), (1,)), ((2,), (2,))]
    assert ConvModel((7,), [1, 1], stride=2, dilation=3).taps((1,)) == [((2,), (0,)), ((5,), (1,))]


def test_describe_gives_the_formula_and_torchs_errors() -> None:
    assert ConvModel((4,), [1, 1, 1], padding=1).describe().endswith("(4 + 2*1 - 1*(3-1) - 1) // 1 + 1 = 4")
    assert "Kernel size can't be greater than actual input size" in ConvModel((2,), [1, 1, 1]).describe()
    assert "stride=2, padding=(1, 0)" in ConvModel((4, 4), [[1]], padding=(1, 0), stride=2).describe()


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="same number of dims"):
        ConvModel((4,), [[1, 1]])
    with pytest.raises(ValueError, match="one number per spatial dim"):
        ConvModel((4, 4), [[1]], padding=(1, 2, 3))
    assert parse_kernel("[1, 0.5]") == [1.0, 0.5] and parse_kernel("[[1], [2]]") == [[1.0], [2.0]]
    for text in ("[[1, 2], [3]]", "import os", "3", "[[[1]]]", "['a']"):
        with pytest.raises(ValueError):
            parse_kernel(text)
    assert kernel_text(np.array([[1.0, 0.5]])) == "[[1, 0.5]]"


# --- SVG ----------------------------------------------------------------------------------------
CASES = {
    "conv1d_padding_1": lambda: ConvExplorer((4,), [1, 1, 1], padding=1),
    "conv1d_stride_dilation": lambda: ConvExplorer((7,), [1, 2], padding=1, stride=2, dilation=3),
    "conv2d_padded": lambda: ConvExplorer((3, 3), [[1, 0], [0, 1]], padding=1),
    "conv1d_kernel_too_big": lambda: ConvExplorer((2,), [1, 1, 1]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_svg_matches_snapshot(name: str) -> None:
    svg = CASES[name]().to_svg()
    ET.fromstring(svg)
    assert svg == CASES[name]().to_svg(), "not deterministic"
    path = SNAPSHOTS / f"{name}.svg"
    assert_matches_snapshot(svg, path)



def test_an_output_links_its_receptive_field_and_the_kernel_taps() -> None:
    groups = hover_groups(CASES["conv1d_stride_dilation"]().to_svg())
    # out[1] reads padded positions 1*2 + 0*3 = 2 and 2 + 3 = 5 (x[1] and x[4])
    assert groups["out:1"].get("data-links") == "xp:2 xp:5 w:0 w:1"
    assert "out[1] = 9 = 1*1 + 4*2" in groups["out:1"].get("data-info")
    assert groups["xp:0"].get("data-links") == "out:0 w:0" and "a padding zero" in groups["xp:0"].get("data-info")
    assert groups["xp:1"].get("data-links") is None  # no window starts or lands there


def test_padding_cells_are_grey() -> None:
    groups = hover_groups(CASES["conv2d_padded"]().to_svg())
    assert groups["xp:0,0"].find(f"{SVG_KEY}rect").get("stroke") == "#bab0ac"
    assert groups["xp:1,1"].find(f"{SVG_KEY}rect").get("stroke") != "#bab0ac"
    assert groups["out:0,0"].get("data-links") == "xp:0,0 xp:0,1 xp:1,0 xp:1,1 w:0,0 w:0,1 w:1,0 w:1,1"


def test_controls_rebuild_the_model() -> None:
    explorer = ConvExplorer()
    box = explorer.widget()
    (shape, kernel), (padding, stride, dilation) = box.children[0].children, box.children[1].children
    padding.value = "2"
    assert explorer.model.result.tolist() == [0, 1, 3, 6, 5, 3]
    stride.value = "2"
    dilation.value = "2"
    assert explorer.model.result.shape == (2,)
    kernel.value = "[1, oops]"
    assert "not a list of numbers" in explorer.summary()
    shape.value = "3, 3"
    kernel.value = "[[1, 1], [1, 1]]"
    padding.value, stride.value, dilation.value = "0", "1", "1"
    assert explorer.model.result.tolist() == [[8, 12], [20, 24]]


@pytest.mark.timeout(180)
def test_conv_explorer_displays_fallback_then_live_view(tmp_path: Path) -> None:
    from nbclient import NotebookClient

    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "from tensorlab.widgets import ConvExplorer\nConvExplorer((4,), [1, 1, 1], padding=1)")])
    NotebookClient(notebook, timeout=60, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    fallback, live = (output["data"] for output in notebook.cells[0].outputs)
    assert fallback["text/html"].startswith('<div class="tl-fallback" data-tl-fallback="tl-')
    assert "x padded by 1 [6]" in fallback["image/svg+xml"]
    assert "application/vnd.jupyter.widget-view+json" in live
