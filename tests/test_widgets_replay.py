"""GraphExplorer.of_engine: a graph built by a learner's own engine, rebuilt in tensorlab, gives torch's gradients.

Unit 11's learners build their own ``Tensor`` (``data``, ``requires_grad``, ``parents``, ``op``); the explorer
draws it by replaying each op in tensorlab. The replayed graph must be the same computation: its leaves'
gradients are torch's for the same program.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch

from tensorlab.widgets import GraphExplorer
from tensorlab.widgets.graph import replay


@dataclass(eq=False)
class Node:
    """The least a learner's engine records: a value, whether it needs grad, its parents and its op's name."""

    data: np.ndarray
    requires_grad: bool = False
    parents: tuple = ()
    op: str = ""
    grad: Any = field(default=None)


def test_replayed_graph_has_torchs_gradients_and_names() -> None:
    rng = np.random.default_rng(0)
    x, w, b = (Node(rng.normal(size=shape), requires_grad=needs) for shape, needs in
               (((4, 3), False), ((3, 2), True), ((2,), True)))
    h = Node(np.zeros(0), parents=(Node(np.zeros(0), parents=(x, w), op="matmul"), b), op="add")
    a = Node(np.zeros(0), parents=(h,), op="tanh")
    out = Node(np.zeros(0), parents=(Node(np.zeros(0), parents=(a, a), op="mul"),), op="sum")  # a used twice

    root, names = replay(out, {"x": x, "w": w, "b": b, "a": a, "out": out})
    root.backward()

    theirs = {name: torch.tensor(node.data, requires_grad=node.requires_grad) for name, node in
              (("x", x), ("w", w), ("b", b))}
    hidden = torch.tanh(theirs["x"] @ theirs["w"] + theirs["b"])
    (hidden * hidden).sum().backward()
    assert names["x"].grad is None and theirs["x"].grad is None
    for name in ("w", "b"):
        np.testing.assert_allclose(names[name].grad.numpy(), theirs[name].grad.numpy(), rtol=1e-6)
    assert set(names) == {"x", "w", "b", "a", "out"}


def test_the_explorer_draws_a_replayed_graph() -> None:
    x = Node(np.array([1.0, 2.0]), requires_grad=True)
    out = Node(np.zeros(0), parents=(Node(np.zeros(0), parents=(x, x), op="mul"),), op="sum")
    explorer = GraphExplorer.of_engine(out, names={"x": x, "out": out})
    assert "x [2]" in explorer.to_svg()
    assert explorer.model.steps, "backward ran on the replayed graph"
