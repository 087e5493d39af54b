"""SVG snapshots: fixed inputs draw the same picture, byte for byte, on every machine.

After an intended change to a picture, regenerate with ``UPDATE_SNAPSHOTS=1`` and review the
diff of ``tests/snapshots/``.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

import tensorlab
from tensorlab.widgets import (
    BroadcastExplorer,
    GraphExplorer,
    IndexExplorer,
    ReductionExplorer,
    StrideDrill,
    StrideExplorer,
    VersionExplorer,
)
from tensorlab.widgets.einsum import EinsumExplorer
from tensorlab.widgets.svg import Svg, text_width
from tests.svg_snapshots import SNAPSHOTS, assert_matches_snapshot


def graph_explorer(step: int) -> GraphExplorer:
    x = tensorlab.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = tensorlab.tensor([0.5, -1.0, 2.0], requires_grad=True)
    h = x * w
    loss = (h.exp() + x).sum()
    return GraphExplorer(loss, names={"x": x, "w": w, "h": h, "loss": loss}, step=step)


def answered_drill() -> StrideDrill:
    drill = StrideDrill([((2, 3, 4), "x.permute(2, 0, 1)")])
    drill.check((1, 12, 4))
    return drill


VERSION_PROGRAM = [("new", "a"), ("view", "b", "a"), ("add_", "b"), ("clone", "c", "a"), ("index_iadd", "a"), ("add", "a", "a")]

CASES = {
    "broadcast_3x1_4": lambda: BroadcastExplorer((3, 1), (4,)),
    "broadcast_error": lambda: BroadcastExplorer((2, 3), (4,)),
    "broadcast_three_shapes": lambda: BroadcastExplorer((2, 1), (3,), "1, 1, 3"),
    "broadcast_matmul_batch": lambda: BroadcastExplorer((2, 1, 2, 3), (4, 3, 2), matmul=True),
    "broadcast_matmul_grid": lambda: BroadcastExplorer((2, 3), (3, 2), matmul=True),
    "strides_transpose_slice": lambda: StrideExplorer((2, 3), "x.t()[::2]"),
    "strides_view_fails": lambda: StrideExplorer((2, 3), "x.t().view(6)"),
    "strides_reshape_copies": lambda: StrideExplorer((2, 3), "x.t().reshape(6)"),
    "strides_flatten_copies_why": lambda: StrideExplorer((2, 3, 2), "x.permute(1, 0, 2).flatten(1)"),
    "strides_expand_3d": lambda: StrideExplorer((2, 2), "x.unsqueeze(0).expand(2, 2, 2)"),
    "reduction_keepdim_3d": lambda: ReductionExplorer((2, 3, 4), [0, 2], keepdim=True),
    "reduction_every_dim": lambda: ReductionExplorer((2, 3), None),
    "reduction_repeated_dim": lambda: ReductionExplorer((2, 3), [1, -1]),
    "index_zipped": lambda: IndexExplorer((2, 3), "x[[0, 1, 0, 1], [0, 1, 0, 1]]"),
    "index_separated_3d": lambda: IndexExplorer((2, 3, 2), "x[[0, 1], :, [1, 0]]"),
    "index_assign_broadcast": lambda: IndexExplorer((2, 3), "x[:, [0, 2]] = v", value_shape=(2, 1)),
    "index_error": lambda: IndexExplorer((2, 3), "x[[0, 1], [0, 1, 2]]"),
    "stride_drill_hidden": lambda: StrideDrill([((2, 3, 4), "x.permute(2, 0, 1)")]),
    "stride_drill_revealed": lambda: answered_drill(),
    "graph_step0": lambda: graph_explorer(0),
    "graph_step3": lambda: graph_explorer(3),
    "versions_view_then_rebind": lambda: VersionExplorer(VERSION_PROGRAM),
    "versions_step2": lambda: VersionExplorer(VERSION_PROGRAM, step=2),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_svg_matches_snapshot(name: str) -> None:
    svg = CASES[name]().to_svg()
    ET.fromstring(svg)  # well-formed XML, so browsers and nbconvert can show it
    assert svg == CASES[name]().to_svg(), "not deterministic"
    path = SNAPSHOTS / f"{name}.svg"
    assert_matches_snapshot(svg, path)


def test_static_mimebundle_has_the_picture_and_a_summary() -> None:
    explorer = BroadcastExplorer((2, 3), (4,))
    bundle = explorer._repr_mimebundle_()
    assert bundle["image/svg+xml"].startswith("<svg")
    assert bundle["text/plain"].endswith("at non-singleton dimension 1")
    html = bundle["text/html"]  # what nbconvert's HTML export shows: the picture and its info line
    assert html.startswith(f'<div class="tl-fallback" data-tl-fallback="{explorer._id()}"><svg')
    assert "at non-singleton dimension 1</div></div>" in html
    assert "application/vnd.jupyter.widget-view+json" not in bundle  # the widget is a display of its own


def test_text_width_bounds_every_pinned_font() -> None:
    """DejaVu Sans Mono / Menlo advance 1233/2048 em per glyph, the widest of FONT_FAMILY."""
    assert text_width("x" * 100, 12) >= 100 * 12 * 1233 / 2048
    assert text_width("\u5f20", 10) == 10  # a wide character, drawn by a fallback font: a full em


@pytest.mark.parametrize(("anchor", "left", "right"), [(None, 50, 50 + 74.4), ("middle", 50 - 37.2, 50 + 37.2), ("end", 50 - 74.4, 50)])
def test_picture_grows_to_hold_a_label_on_either_side(anchor: str | None, left: float, right: float) -> None:
    svg = Svg("tl-test")
    svg.label(50, 30, "a" * 10, text_anchor=anchor)  # 10 characters at 12 px: 74.4 px wide
    assert svg.left == min(0, left) and svg.width == pytest.approx(right)
    assert svg.top == 0 and svg.height == pytest.approx(30 + 0.3 * 12)
    svg.label(-20, 5, "long label")
    view_left, view_top, _width, _height = map(float, ET.fromstring(str(svg)).get("viewBox").split())
    assert (view_left, view_top) == (pytest.approx(min(left, -20)), -7)  # what lies left of or above (0, 0) stays in view


def test_reduction_svg_links_each_output_to_the_inputs_it_adds() -> None:
    """The picture carries the model's links both ways: out -> the inputs it adds, x -> its output."""
    root = ET.fromstring(ReductionExplorer((2, 3), 0).to_svg())
    groups = {g.get("data-key"): g for g in root.iter("{http://www.w3.org/2000/svg}g")}
    assert groups["out:2"].get("data-links") == "x:0,2 x:1,2"
    assert "2 + 5 = 7" in groups["out:2"].get("data-info")
    assert groups["x:1,0"].get("data-links") == "out:0"
def test_index_explorer_links_each_result_element_to_its_source() -> None:
    """Hover data: result element (1,) of the zipped index reads x[1, 1], and x[1, 1] lists both readers."""
    svg = ET.fromstring(IndexExplorer((2, 3), "x[[0, 1, 0, 1], [0, 1, 0, 1]]").to_svg())
    groups = {g.get("data-key"): g for g in svg.iter("{http://www.w3.org/2000/svg}g")}
    assert groups["out:1"].get("data-links") == "in:1,1"
    assert groups["in:1,1"].get("data-links") == "out:1 out:3"
    assert "reads x[1, 1]" in groups["out:1"].get("data-info")
    assigned = ET.fromstring(IndexExplorer((2, 3), "x[:, 1:] = v", value_shape=(2, 1)).to_svg())
    groups = {g.get("data-key"): g for g in assigned.iter("{http://www.w3.org/2000/svg}g")}
    assert groups["out:1,2"].get("data-links") == "in:1,0"
    assert groups["out:0,0"].get("data-links") is None and "not written" in groups["out:0,0"].get("data-info")


def test_view_or_copy_line_names_the_dims_that_cannot_merge() -> None:
    root = ET.fromstring(StrideExplorer((2, 3, 2), "x.permute(1, 0, 2).flatten(1)").to_svg())
    whys = ["".join(element.itertext()) for element in root.iter() if "tl-why" in element.get("class", "")]
    assert whys == ["no view of shape [3, 4]: runs of memory (0) (1) (2); dims 1 and 2 cannot merge: "
                    "stride[1] = 6, not stride[2] * size[2] = 2"]
    plain = ET.fromstring(StrideExplorer((2, 3), "x.reshape(6)").to_svg())
    assert not [element for element in plain.iter() if "tl-why" in element.get("class", "")]


def test_stride_drill_hides_the_answer_until_it_is_given() -> None:
    """Hidden: no strides, no offset, no element values (each is its own slot), no element-to-slot links."""
    drill = StrideDrill([((3, 4), "x[1:, ::2]")])  # torch: stride (4, 2), storage_offset 4
    hidden = drill.to_svg()
    assert "stride ?" in hidden and "(4, 2)" not in hidden and "storage_offset 4" not in hidden
    assert "data-links" not in hidden
    elements = [g for g in ET.fromstring(hidden).iter("{http://www.w3.org/2000/svg}g") if g.get("data-key", "").startswith("el:")]
    assert len(elements) == 4 and all("".join(g.itertext()) == "?" for g in elements)
    drill.check("4, 2")
    shown = drill.to_svg()
    assert "stride (4, 2), storage_offset 4" in shown and 'data-key="el:1,1" data-links="slot:10"' in shown


def test_version_picture_links_names_to_their_storage() -> None:
    """Hovering a name lights up its storage and the other names of that storage; the storage its names."""
    svg = VersionExplorer(VERSION_PROGRAM, step=3).to_svg()
    root = ET.fromstring(svg)
    links = {g.get("data-key"): (g.get("data-links") or "").split() for g in root.iter("{http://www.w3.org/2000/svg}g")}
    assert links["name:b"] == ["storage:0", "name:a"]
    assert links["storage:0"] == ["name:a", "name:b"]
    assert links["name:c"] == ["storage:3"]
    assert "_version 1" in svg and ">3: c = a.clone()</text>" in svg


# --- EinsumExplorer (unit 10) --------------------------------------------------------------------
EINSUM_CASES = {
    "einsum_bmm": lambda: EinsumExplorer("bij,bjk->bik", (3, 2, 5), (3, 5, 4)),
    "einsum_bilinear": lambda: EinsumExplorer("bn,anm,bm->ba", (2, 5), (3, 5, 4), (2, 4)),
    "einsum_ellipsis_broadcast": lambda: EinsumExplorer("...ij,...jk", (5, 1, 2, 3), (4, 3, 2)),
    "einsum_trace": lambda: EinsumExplorer("ii", (4, 4)),
    "einsum_error": lambda: EinsumExplorer("i,i", (2,), (3,)),
}


@pytest.mark.parametrize("name", sorted(EINSUM_CASES))
def test_einsum_svg_matches_snapshot(name: str) -> None:
    svg = EINSUM_CASES[name]().to_svg()
    ET.fromstring(svg)
    assert svg == EINSUM_CASES[name]().to_svg(), "not deterministic"
    path = SNAPSHOTS / f"{name}.svg"
    assert_matches_snapshot(svg, path)


def test_einsum_svg_links_every_use_of_a_letter() -> None:
    """Hovering j in the spec lights up j in op0's and op1's shapes and in the loops; k never lights up j."""
    root = ET.fromstring(EinsumExplorer("bij,bjk->bik", (3, 2, 5), (3, 5, 4)).to_svg())
    groups = {g.get("data-key"): g for g in root.iter("{http://www.w3.org/2000/svg}g")}
    j_links = set(groups["spec0.2:j"].get("data-links").split())
    assert {"spec1.1:j", "shape0.2:j", "shape1.1:j", "loop3:j", "stmt1.2:j", "stmt2.1:j"} <= j_links
    assert not any(key.endswith(":k") or key.endswith(":b") for key in j_links)
    assert "summed (not in the output)" in groups["loop3:j"].get("data-info")
    assert "kept as output dim 2" in groups["spec1.2:k"].get("data-info")
    error = ET.fromstring(EinsumExplorer("i,i", (2,), (3,)).to_svg())
    assert "does not broadcast with previously seen size 2" in "".join(error.itertext())
    assert not list(error.iter("{http://www.w3.org/2000/svg}g"))
