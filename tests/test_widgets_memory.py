"""MemoryExplorer: the bytes it says are stored are those torch's saved-tensor hooks see, and hovering
a module links its saved tensors."""

from __future__ import annotations

import re

import pytest
import torch
from torch.utils.checkpoint import checkpoint_sequential

from tensorlab.widgets import MemoryExplorer, MemoryModel


def torch_packed_bytes(depth: int, segments: int, width: int = 8, batch: int = 5) -> int:
    torch.manual_seed(0)
    model = torch.nn.Sequential(*[m for _ in range(depth) for m in (torch.nn.Linear(width, width), torch.nn.ReLU())])
    total = 0

    def pack(t: torch.Tensor) -> torch.Tensor:
        nonlocal total
        total += t.numel() * t.element_size()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        checkpoint_sequential(model, segments, torch.ones(batch, width, requires_grad=True), use_reentrant=False)
    return total


@pytest.mark.parametrize(("depth", "segments"), [(1, 1), (2, 2), (3, 2), (4, 3), (4, 8), (5, 4), (6, 12)])
def test_stored_bytes_are_what_torch_packs(depth: int, segments: int) -> None:
    assert MemoryModel(depth, 8, 5, segments).stored_bytes == torch_packed_bytes(depth, segments)


def test_checkpointed_modules_keep_only_segment_inputs() -> None:
    model = MemoryModel(depth=3, segments=3)  # 6 modules, segments of 2: modules 0-3 checkpointed
    assert model.recomputed_modules == 4 and model.boundaries == [0, 2]
    assert [t.what for t in model.tensors if t.stored and t.module < 4] == ["input", "input"]
    assert all(t.stored for t in model.tensors if t.module >= 4)


def test_hover_a_module_links_its_saved_tensors() -> None:
    svg = MemoryExplorer(depth=2, segments=2).to_svg()
    links = dict(re.findall(r'data-key="(module:\d+)" data-links="([^"]*)"', svg))
    assert links["module:0"].split() == ["saved:0,input", "saved:0,weight"]
    assert links["module:1"].split() == ["saved:1,output"]
    assert "not stored: recomputed in backward" in svg and "saved at its boundary" in svg


def test_out_of_range_and_controls() -> None:
    with pytest.raises(ValueError, match="segments"):
        MemoryModel(2, segments=5)
    with pytest.raises(ValueError, match="depth"):
        MemoryModel(0)
    explorer = MemoryExplorer(depth=2)
    slider = explorer.widget().children[0]
    slider.value = 2
    assert explorer.model.segments == 2 and "2 segments" in explorer._view.info
    assert explorer._repr_mimebundle_()["image/svg+xml"].startswith("<svg")
