"""CollectiveExplorer: the ring all-reduce it draws is the simulator's, step by step, and its picture links cells to ranks."""

from __future__ import annotations

import re

import numpy as np
import pytest

from tensorlab.distributed import ring_all_reduce, ring_reduce_scatter
from tensorlab.widgets import CollectiveExplorer, CollectiveModel


@pytest.mark.parametrize("world_size", [1, 2, 3, 5, 8])
def test_every_chunk_holds_every_rank_after_the_last_step(world_size: int) -> None:
    model = CollectiveModel(world_size)
    _, trace = ring_all_reduce([np.zeros(world_size)] * world_size)
    assert model.last_step == trace.steps == 2 * (world_size - 1)
    everyone = frozenset(range(world_size))
    assert all(held == everyone for row in model.steps[-1].holds for held in row)
    assert all(len(state.messages) == world_size for state in model.steps[1:])


@pytest.mark.parametrize("world_size", [2, 3, 4, 6])
def test_after_the_reduce_scatter_rank_r_owns_chunk_r_like_the_simulator(world_size: int) -> None:
    """Rank r's buffer is 2**r: a chunk's value in the simulator spells the set of ranks it sums."""
    model = CollectiveModel(world_size)
    halfway = model.steps[world_size - 1]
    owned, _ = ring_reduce_scatter([np.full(world_size, 2.0**rank) for rank in range(world_size)])
    for rank in range(world_size):
        assert halfway.holds[rank][rank] == frozenset(range(world_size))
        assert owned[rank][0] == sum(2.0**r for r in halfway.holds[rank][rank])
    assert {state.phase for state in model.steps[1:world_size]} == {"reduce-scatter"}
    assert {state.phase for state in model.steps[world_size:]} == {"all-gather"}


def test_a_reduce_scatter_step_adds_and_an_all_gather_step_copies() -> None:
    model = CollectiveModel(3)
    first = model.steps[1]
    for source, target, chunk in first.messages:
        assert first.holds[target][chunk] == frozenset({source, target})
    gather = model.steps[3]
    for source, target, chunk in gather.messages:
        assert gather.holds[target][chunk] == model.steps[2].holds[source][chunk] == frozenset({0, 1, 2})


def test_the_picture_links_each_cell_to_the_ranks_it_sums() -> None:
    svg = CollectiveExplorer(4, step=2).to_svg()
    cells = re.findall(r'data-key="cell:(\d),(\d)" data-links="([^"]*)"', svg)
    assert len(cells) == 16
    model = CollectiveModel(4)
    for rank, chunk, links in cells:
        assert links.split() == [f"rank:{r}" for r in sorted(model.steps[2].holds[int(rank)][int(chunk)])]
    assert svg.count("← chunk") == 4  # one message arrived at each rank
    assert all(f'data-key="rank:{rank}"' in svg for rank in range(4))


def test_summary_and_static_output() -> None:
    explorer = CollectiveExplorer(3, step=99)
    assert explorer.step == 4 and "step 4/4 (all-gather)" in explorer.summary()
    bundle = explorer._repr_mimebundle_()
    assert bundle["image/svg+xml"].startswith("<svg") and "step 4/4" in bundle["text/plain"]
    assert "2(N-1) = 2 steps" in CollectiveExplorer(2).summary()


def test_sizes_out_of_range_are_refused() -> None:
    for size in (0, 13):
        with pytest.raises(ValueError, match="world_size"):
            CollectiveModel(size)


def test_the_controls_change_the_step_and_the_number_of_ranks() -> None:
    explorer = CollectiveExplorer(4, step=6)
    box = explorer.widget()
    ranks, slider = box.children[0].children
    slider.value = 3
    assert explorer.step == 3 and "step 3/6" in explorer._view.info
    ranks.value = 2
    assert explorer.model.world_size == 2 and slider.max == 2 and explorer.step == 2
