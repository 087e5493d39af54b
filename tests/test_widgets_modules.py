"""ModuleExplorer: its model against torch (the tree named_modules gives, parameter counts, the order
a forward pass enters and leaves modules, where hooks fire), its SVG (snapshot, hover links) and its
display in a headless notebook.

After an intended change to the picture, regenerate with ``UPDATE_SNAPSHOTS=1`` and review the
diff of ``tests/snapshots/``.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import OrderedDict
from pathlib import Path
from types import ModuleType
from typing import Any

import nbformat
import pytest
import torch

import tensorlab as tl
from tensorlab.widgets import ModuleExplorer, ModuleModel
from tests.svg_snapshots import SNAPSHOTS, SVG_KEY, assert_matches_snapshot


def seed_model(lib: ModuleType) -> Any:
    """The notes' MyModel, verbatim apart from its sizes' home."""
    nn, F = lib.nn, lib.nn.functional  # noqa: N806 - the seed's names

    class MyModel(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.cl1 = nn.Linear(25, 60)
            self.cl2 = nn.Linear(60, 16)
            self.fc1 = nn.Linear(16, 120)
            self.fc2 = nn.Linear(120, 84)
            self.fc3 = nn.Linear(84, 10)

        def forward(self, x: Any) -> Any:
            x = F.relu(self.cl1(x))
            x = F.relu(self.cl2(x))
            x = F.relu(self.fc1(x))
            x = F.relu(self.fc2(x))
            return F.log_softmax(self.fc3(x), dim=1)

    return MyModel()


def nested_model(lib: ModuleType) -> Any:
    """Sequentials inside a Sequential, a LayerNorm, a module without parameters, and one Linear used twice."""
    nn = lib.nn
    shared = nn.Linear(4, 4)
    return nn.Sequential(OrderedDict([
        ("embed", nn.Linear(3, 4)),
        ("block", nn.Sequential(nn.LayerNorm(4), shared, nn.ReLU(), shared)),
        ("head", nn.Sequential(nn.Dropout(0.0), nn.Linear(4, 2, bias=False))),
    ]))


def summary_of(lib: ModuleType, build: Any, shape: tuple[int, ...]) -> tuple:
    module = build(lib)
    module.get_submodule(next(name for name, _ in module.named_modules() if name)).register_forward_hook(lambda *a: None)
    model = ModuleModel(module, lib.ones(*shape))
    nodes = [(n.path, n.depth, n.kind, n.extra, n.parameters, n.total, n.hooks) for n in model.nodes]
    calls = [(c.path, c.phase, c.shapes) for c in model.calls]
    truth = (sum(p.numel() for p in module.parameters()), [name for name, _ in module.named_modules()])
    return nodes, calls, truth


@pytest.mark.parametrize(("build", "shape"), [(seed_model, (2, 25)), (nested_model, (1, 3))])
def test_model_is_torchs(build: Any, shape: tuple[int, ...]) -> None:
    """Same tree, parameters, hooks and call order in torch and in tensorlab; counts are torch's own."""
    nodes_t, calls_t, (total_t, names_t) = summary_of(torch, build, shape)
    nodes_m, calls_m, _ = summary_of(tl, build, shape)
    assert nodes_m == nodes_t and calls_m == calls_t
    assert [node[0] for node in nodes_t] == names_t and nodes_t[0][5] == total_t


def test_shared_module_appears_once_in_the_tree_and_at_each_call() -> None:
    model = ModuleModel(nested_model(tl), tl.ones(1, 3))
    assert [node.path for node in model.nodes] == [name for name, _ in nested_model(torch).named_modules()]
    assert "block.3" not in [node.path for node in model.nodes]  # the second use of the shared Linear
    assert [c.phase for c in model.calls if c.path == "block.1"] == ["enter", "leave", "enter", "leave"]
    assert model.total == sum(p.numel() for p in nested_model(torch).parameters())


def test_recording_leaves_the_users_hooks_alone_and_they_fire_once() -> None:
    module = seed_model(tl)
    activation: dict = {}
    module.fc2.register_forward_hook(lambda mod, args, output: activation.setdefault("fc2", []).append(output.shape))
    model = ModuleModel(module, tl.randn(3, 25))
    assert activation == {"fc2": [(3, 84)]}  # the explorer's one forward pass ran the user's hook once
    assert all(len(m._forward_hooks) == (1 if name == "fc2" else 0) and not m._forward_pre_hooks
               for name, m in module.named_modules())
    leave_fc2 = next(c for c in model.calls if c.path == "fc2" and c.phase == "leave")
    assert model.hooks_at(leave_fc2) == ["1 forward hook"] and leave_fc2.shapes == "(3, 84)"
    assert "hooks on fc2" in model.describe() and "15,590 parameters" in model.describe()


def test_without_an_example_only_the_tree_is_drawn() -> None:
    model = ModuleModel(tl.nn.Linear(2, 3))
    assert model.calls == [] and model.describe() == "Linear holds 1 modules and 9 parameters"
    assert "call:" not in ModuleExplorer(tl.nn.Linear(2, 3)).to_svg()


def snapshot_explorer() -> ModuleExplorer:
    tl.manual_seed(0)
    module = seed_model(tl)
    module.fc2.register_forward_hook(lambda *a: None)
    return ModuleExplorer(module, tl.ones(2, 25))


def test_svg_matches_snapshot() -> None:
    svg = snapshot_explorer().to_svg()
    ET.fromstring(svg)
    assert svg == snapshot_explorer().to_svg(), "not deterministic"
    path = SNAPSHOTS / "modules_seed_model.svg"
    assert_matches_snapshot(svg, path)


def test_svg_links_modules_and_calls_both_ways() -> None:
    groups = {g.get("data-key"): g for g in ET.fromstring(snapshot_explorer().to_svg()).iter(f"{SVG_KEY}g")}
    assert groups["module:fc2"].get("data-links") == "call:7 call:8"
    assert "10,164 parameters" in groups["module:fc2"].get("data-info") and "hooks: forward ×1" in groups["module:fc2"].get("data-info")
    assert groups["call:8"].get("data-links") == "module:fc2"
    assert "1 forward hook fires here" in groups["call:8"].get("data-info")
    assert "no hook of yours fires here" in groups["call:7"].get("data-info")
    assert groups["module:"].get("data-links") == "call:0 call:11"


def test_mimebundle_has_the_picture_and_the_summary() -> None:
    bundle = snapshot_explorer()._repr_mimebundle_()
    assert bundle["image/svg+xml"].startswith("<svg") and bundle["text/plain"].startswith("MyModel holds 6 modules")


@pytest.mark.timeout(120)
def test_module_explorer_displays_fallback_then_live_view(tmp_path: Path) -> None:
    from nbclient import NotebookClient

    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "import tensorlab as tl\nfrom tensorlab.widgets import ModuleExplorer\n"
        "net = tl.nn.Sequential(tl.nn.Linear(3, 4), tl.nn.ReLU(), tl.nn.Linear(4, 2))\n"
        "ModuleExplorer(net, tl.ones(1, 3))")])
    NotebookClient(notebook, timeout=60, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    fallback, live = (output["data"] for output in notebook.cells[0].outputs)
    assert 'data-key="module:0"' in fallback["image/svg+xml"] and "26 parameters" in fallback["text/plain"]
    assert "application/vnd.jupyter.widget-view+json" in live
