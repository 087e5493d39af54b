"""TileExplorer: its models (program order = the matmul kernel's ``grouped_tile``, every block of C
computed once, mask counts, and the tiling run in NumPy against torch.matmul / torch.softmax), its
SVG (snapshots, hover links, masked offsets grey) and its display in a notebook.

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

from tensorlab.kernels.tiles import grouped_tile
from tensorlab.widgets import TileExplorer
from tensorlab.widgets.tiles import MatmulTiles, RowTiles, next_power_of_two
from tests.svg_snapshots import SNAPSHOTS, SVG_KEY, assert_matches_snapshot, hover_groups


@st.composite
def matmuls(draw: st.DrawFn) -> MatmulTiles:
    sizes = [draw(st.integers(1, 13)) for _ in range(3)]
    blocks = [draw(st.sampled_from([1, 2, 4, 8])) for _ in range(3)]
    return MatmulTiles(*sizes, *blocks, draw(st.integers(1, 4)))


@settings(max_examples=60, deadline=None)
@given(model=matmuls())
def test_program_order_is_the_kernels_and_covers_every_block_once(model: MatmulTiles) -> None:
    order = model.order()
    assert order == [grouped_tile(pid, model.num_pid_m, model.num_pid_n, model.group_m) for pid in range(model.programs)]
    assert sorted(order) == [(i, j) for i in range(model.num_pid_m) for j in range(model.num_pid_n)]
    # a group is GROUP_M block-rows, walked column by column: its programs stay inside those rows
    per_group = model.group_m * model.num_pid_n
    for pid, (pid_m, _) in enumerate(order):
        assert pid_m // model.group_m == pid // per_group


def test_group_m_1_is_row_major_and_a_big_group_is_column_major() -> None:
    assert MatmulTiles(4, 6, 2, 2, 2, 2, group_m=1).order() == [(i, j) for i in range(2) for j in range(3)]
    assert MatmulTiles(4, 6, 2, 2, 2, 2, group_m=8).order() == [(i, j) for j in range(3) for i in range(2)]


@settings(max_examples=60, deadline=None)
@given(model=matmuls())
def test_mask_counts_are_the_offsets_past_each_edge(model: MatmulTiles) -> None:
    for pid in range(model.programs):
        pid_m, pid_n = model.program(pid)
        rows_in = min(model.block_m, model.m - pid_m * model.block_m)
        cols_in = min(model.block_n, model.n - pid_n * model.block_n)
        padded_k = model.k_steps * model.block_k
        assert model.mask_counts(pid) == {
            "c": model.block_m * model.block_n - rows_in * cols_in,
            "a": model.block_m * padded_k - rows_in * model.k,
            "b": padded_k * model.block_n - model.k * cols_in,
        }


@settings(max_examples=40, deadline=None)
@given(model=matmuls(), seed=st.integers(0, 2**16))
def test_the_tiled_loop_computes_torchs_matmul(model: MatmulTiles, seed: int) -> None:
    generator = torch.Generator().manual_seed(seed)
    a, b = torch.randn(model.m, model.k, generator=generator), torch.randn(model.k, model.n, generator=generator)
    np.testing.assert_allclose(model.run(a.numpy(), b.numpy()), (a @ b).numpy(), rtol=1e-5, atol=1e-5)


@settings(max_examples=40, deadline=None)
@given(rows=st.integers(1, 5), cols=st.integers(1, 40), block=st.sampled_from([None, 1, 2, 4, 8, 16]),
       seed=st.integers(0, 2**16))
def test_the_row_tiling_computes_torchs_softmax(rows: int, cols: int, block: int | None, seed: int) -> None:
    model = RowTiles(rows, cols, block)
    x = torch.randn(rows, cols, generator=torch.Generator().manual_seed(seed)) * 30  # large: the max matters
    np.testing.assert_allclose(model.run(x.numpy()), torch.softmax(x, dim=-1).numpy(), rtol=1e-5, atol=1e-6)
    assert model.chunks * model.block >= cols > (model.chunks - 1) * model.block
    assert all(model.mask_counts(pid) == {"x": model.chunks * model.block - cols} for pid in range(rows))


def test_block_is_the_next_power_of_two_and_bad_sizes_are_refused() -> None:
    assert [next_power_of_two(n) for n in (1, 2, 3, 5, 8, 9, 1000)] == [1, 2, 4, 8, 8, 16, 1024]
    assert RowTiles(2, 5).block == 8
    with pytest.raises(ValueError, match="power of two"):
        RowTiles(2, 5, block=6)
    with pytest.raises(ValueError, match="at least 1"):
        MatmulTiles(0, 4, 4)
    with pytest.raises(ValueError, match="programs"):
        MatmulTiles(1000, 1000, 8, 1, 1, 1)


def test_describe_says_the_grid_and_the_masks() -> None:
    assert TileExplorer().summary().endswith("grid (3 * 2 = 6,) programs, 2 K step(s) each; 18 of the 48 C offsets are masked")
    assert "grid (3,): one program per row, one chunk; 3 masked offset(s) per row" in TileExplorer.rows(3, 5).summary()
    assert "3 chunks (online softmax)" in TileExplorer.rows(2, 11, block=4).summary()


# --- SVG ----------------------------------------------------------------------------------------
CASES = {
    "tiles_matmul": lambda: TileExplorer(),
    "tiles_matmul_group_1": lambda: TileExplorer(4, 4, 3, 2, 2, 2, group_m=1),
    "tiles_softmax_rows": lambda: TileExplorer.rows(3, 5),
    "tiles_too_big": lambda: TileExplorer(64, 64, 64, 8, 8, 8),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_svg_matches_snapshot(name: str) -> None:
    svg = CASES[name]().to_svg()
    ET.fromstring(svg)
    assert svg == CASES[name]().to_svg(), "not deterministic"
    path = SNAPSHOTS / f"{name}.svg"
    assert_matches_snapshot(svg, path)



def test_a_program_lights_up_its_block_and_the_tiles_it_loads() -> None:
    model = MatmulTiles()
    groups = hover_groups(TileExplorer().to_svg())
    links = set(groups["pid:3"].get("data-links").split())  # program 3 -> pid_m=1, pid_n=1
    assert model.program(3) == (1, 1)
    assert {f"c:{i},{j}" for i in (2, 3) for j in range(4, 8)} == {k for k in links if k.startswith("c:")}
    assert {f"a:{i},{kk}" for i in (2, 3) for kk in range(8)} == {k for k in links if k.startswith("a:")}
    assert {f"b:{kk},{j}" for kk in range(8) for j in range(4, 8)} == {k for k in links if k.startswith("b:")}
    assert "C[2:4, 4:8]" in groups["pid:3"].get("data-info")
    assert groups["c:2,5"].get("data-links").split()[0] == "pid:3"
    assert groups["a:0,0"].get("data-links") == "pid:0 pid:2"  # block-row 0 is loaded by programs 0 and 2


def test_masked_offsets_are_grey_and_dashed_and_say_so() -> None:
    groups = hover_groups(TileExplorer().to_svg())
    for key in ("c:0,6", "c:5,0", "a:0,7", "a:5,0", "b:7,0", "b:0,6"):  # past N, M, K, M, K, N
        rect = groups[key].find(f"{SVG_KEY}rect")
        assert rect.get("stroke") == "#bab0ac" and rect.get("stroke-dasharray"), key
        assert "masked" in groups[key].get("data-info"), key
    assert groups["c:4,5"].find(f"{SVG_KEY}rect").get("stroke") != "#bab0ac"
    rows = hover_groups(TileExplorer.rows(3, 5).to_svg())
    assert "loaded as -inf" in rows["x:1,5"].get("data-info") and "masked" not in rows["x:1,4"].get("data-info")
    assert set(rows["pid:1"].get("data-links").split()) == {f"x:1,{c}" for c in range(8)}


def test_controls_rebuild_the_model() -> None:
    explorer = TileExplorer()
    sizes, blocks, group = explorer.widget().children[0].children
    group.value = "1"
    assert explorer.model.order()[:2] == [(0, 0), (0, 1)]
    sizes.value = "8, 8"
    assert "M, N, K: 3 number(s)" in explorer.summary()
    sizes.value = "8, 8, 8"
    blocks.value = "4, 4, 8"
    assert explorer.model.programs == 4 and explorer.model.k_steps == 1
    rows = TileExplorer.rows()
    _, block_box = rows.widget().children[0].children
    block_box.value = "2"
    assert rows.model.chunks == 3
    block_box.value = "3"
    assert "power of two" in rows.summary()


@pytest.mark.timeout(180)
def test_tile_explorer_displays_fallback_then_live_view(tmp_path: Path) -> None:
    from nbclient import NotebookClient

    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "from tensorlab.widgets import TileExplorer\nTileExplorer()")])
    NotebookClient(notebook, timeout=60, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    fallback, live = (output["data"] for output in notebook.cells[0].outputs)
    assert fallback["text/html"].startswith('<div class="tl-fallback" data-tl-fallback="tl-')
    assert 'data-key="pid:5"' in fallback["image/svg+xml"] and "18 of the 48 C offsets are masked" in fallback["text/plain"]
    assert "application/vnd.jupyter.widget-view+json" in live
