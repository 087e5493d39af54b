"""GraphExplorer: the autograd graph behind a result, and backward one node at a time.

The model walks ``grad_fn.next_functions`` from the result down to the leaves' AccumulateGrad
nodes, collecting tensors (shape, requires_grad, leaf or not, grad), grad_fn nodes and the
tensors each node saved for backward. To show backward step by step it runs the real engine
once (``autograd.grad`` with ``retain_graph=True``, so no ``.grad`` is touched) with a hook on
every node that records, in execution order, the gradient each node received and sent on.

It works on torch tensors too, duck-typed: the engine used is the one of the package the
result's class comes from, found in ``sys.modules`` (nothing is imported). The layout is ours:
nodes sit in layers by their longest distance from the result, so no graphviz is needed.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .base import Explorer
from .svg import COLOURS, Svg

__all__ = ["GraphExplorer", "GraphModel", "GraphNode", "BackwardStep", "replay"]

NODE_WIDTH, NODE_GAP, LAYER_HEIGHT = 190, 16, 78


@dataclass
class GraphNode:
    """A box in the picture: a tensor, a grad_fn node, or a tensor saved by a node."""

    key: str
    kind: str  # "tensor" | "function" | "saved"
    title: str
    lines: list[str] = field(default_factory=list)
    leaf: bool = False
    obj: Any = None  # the tensor or autograd node itself
    layer: int = 0
    column: int = 0


@dataclass(frozen=True)
class BackwardStep:
    """One node run by backward: the gradient it received and what it sent along each edge."""

    key: str
    received: tuple  # one array (or None) per output of the node
    sent: tuple  # one array (or None) per entry of next_functions


def node_name(fn: Any) -> str:
    """``MulBackward0``; torch's C++ ``torch::autograd::AccumulateGrad`` without its namespace."""
    return fn.name().split("::")[-1]


def _as_array(t: Any) -> np.ndarray | None:
    return None if t is None else np.array(t.detach().tolist())


def short(values: np.ndarray | None) -> str:
    """A gradient in a few characters: all its numbers when small, else shape and mean."""
    if values is None:
        return "None"
    if values.size <= 6:
        return np.array2string(values, precision=4, separator=", ", suppress_small=True, floatmode="maxprec").replace("\n", "")
    return f"<{list(values.shape)}, mean {values.mean():.3g}>"


def _saved_tensors(fn: Any) -> list[tuple[str, Any]]:
    """What ``fn`` saved for backward: tensorlab's ``saved_tensors``, or torch's ``_saved_*`` attributes."""
    from ..autograd.function import BackwardNode

    if isinstance(fn, BackwardNode):  # a tensorlab op's node
        try:
            return [(f"[{i}]", t) for i, t in enumerate(fn.saved_tensors) if t is not None]
        except RuntimeError:  # freed by a backward without retain_graph
            return []
    saved = []
    for attribute in dir(fn):
        if attribute.startswith("_saved_"):
            try:
                value = getattr(fn, attribute)
            except RuntimeError:
                continue
            if hasattr(value, "shape") and hasattr(value, "requires_grad"):
                saved.append((attribute.removeprefix("_saved_"), value))
    return saved


class GraphModel:
    """``GraphModel(loss, {"x": x, "w": w})``: the graph of ``loss``; names label the tensors."""

    def __init__(self, root: Any, names: Mapping[str, Any] | None = None) -> None:
        self.root = root
        self.names = dict(names or {})
        self.nodes: dict[str, GraphNode] = {}
        self._keys: dict[int, str] = {}  # id(tensor or node) -> its key, numbered in discovery order
        self.edges: list[tuple[str, str, str]] = []  # (from, to, "flow" | "saved")
        self._build()
        self._layout()
        self.steps, self.error = self._record_backward()

    # --- the graph ------------------------------------------------------------------------
    def _name_of(self, tensor: Any) -> str | None:
        return next((name for name, t in self.names.items() if t is tensor), None)

    def key_of(self, obj: Any, prefix: str = "") -> str:
        """The stable key (``"t:0"``, ``"f:3"``) of a tensor or node: snapshots must not depend on ids."""
        if id(obj) not in self._keys:
            self._keys[id(obj)] = f"{prefix}:{len(self._keys)}"
        return self._keys[id(obj)]

    def _tensor_node(self, tensor: Any, fallback: str) -> str:
        key = self.key_of(tensor, "t")
        if key not in self.nodes:
            name = self._name_of(tensor) or fallback
            kind = "leaf" if tensor.is_leaf else "non-leaf"
            lines = [f"{kind}, requires_grad={tensor.requires_grad}"]
            self.nodes[key] = GraphNode(key, "tensor", f"{name} {list(tensor.shape)}", lines, tensor.is_leaf, tensor)
        return key

    def _function_node(self, fn: Any) -> str:
        key = self.key_of(fn, "f")
        if key not in self.nodes:
            self.nodes[key] = GraphNode(key, "function", node_name(fn), obj=fn)
        return key

    def _build(self) -> None:
        root_key = self._tensor_node(self.root, "output")
        fn = self.root.grad_fn
        if fn is None:
            return
        produced = {(id(t.grad_fn), getattr(t, "output_nr", getattr(t, "_output_nr", 0))): t
                    for t in self.names.values() if getattr(t, "grad_fn", None) is not None and t is not self.root}
        self.edges.append((root_key, self._function_node(fn), "flow"))
        queue, seen = [fn], {id(fn)}
        while queue:
            fn = queue.pop(0)
            here = self._function_node(fn)
            for i, (name, saved) in enumerate(_saved_tensors(fn)):
                label = self._name_of(saved)
                key = f"s:{here[2:]}:{i}"
                self.nodes[key] = GraphNode(key, "saved", f"saved {name}", [f"{label or 'tensor'} {list(saved.shape)}"], obj=saved)
                self.edges.append((here, key, "saved"))
            if node_name(fn) == "AccumulateGrad":
                self.edges.append((here, self._tensor_node(fn.variable, "leaf"), "flow"))
                continue
            for child, nr in fn.next_functions:
                if child is None:
                    continue
                target = self._function_node(child)
                named = produced.get((id(child), nr))
                if named is not None:
                    middle = self._tensor_node(named, "tensor")
                    if (middle, target, "flow") not in self.edges:
                        self.edges.append((middle, target, "flow"))
                    target = middle
                self.edges.append((here, target, "flow"))
                if id(child) not in seen:
                    seen.add(id(child))
                    queue.append(child)

    def _layout(self) -> None:
        """Layer = longest path from the result (so every edge points down); columns in discovery order."""
        children: dict[str, list[str]] = {key: [] for key in self.nodes}
        for source, target, _kind in self.edges:
            children[source].append(target)
        order: list[str] = []
        visited: set[str] = set()

        def visit(key: str) -> None:  # depth-first post-order = reverse topological order
            visited.add(key)
            for child in children[key]:
                if child not in visited:
                    visit(child)
            order.append(key)

        for key in self.nodes:
            if key not in visited:
                visit(key)
        for key in reversed(order):
            for child in children[key]:
                self.nodes[child].layer = max(self.nodes[child].layer, self.nodes[key].layer + 1)
        filled: dict[int, int] = {}
        for node in self.nodes.values():
            node.column = filled.get(node.layer, 0)
            filled[node.layer] = node.column + 1

    # --- backward, recorded ----------------------------------------------------------------
    def leaves(self) -> list[Any]:
        return [node.obj for node in self.nodes.values() if node.kind == "tensor" and node.leaf and node.obj.requires_grad]

    def _record_backward(self) -> tuple[list[BackwardStep], str]:
        functions = [n for n in self.nodes.values() if n.kind == "function" and n.title != "AccumulateGrad"]
        leaves = self.leaves()
        if not functions or not leaves:
            return [], ""
        library = sys.modules[type(self.root).__module__.split(".")[0]]
        steps: list[BackwardStep] = []

        def recorder(key: str) -> Any:
            def hook(grad_inputs: tuple, grad_outputs: tuple) -> None:
                steps.append(BackwardStep(key, tuple(map(_as_array, grad_outputs)), tuple(map(_as_array, grad_inputs))))
            return hook

        handles = [node.obj.register_hook(recorder(node.key)) for node in functions]
        try:
            seed = library.ones_like(self.root)
            library.autograd.grad([self.root], leaves, [seed], retain_graph=True, allow_unused=True)
        except RuntimeError as error:
            return [], f"{type(error).__name__}: {error}"
        finally:
            for handle in handles:
                handle.remove()
        return steps, ""

    def gradients_after(self, count: int) -> dict[str, np.ndarray]:
        """The gradient known for each tensor node after ``count`` backward steps.

        A leaf's gradient is accumulated: every edge into its AccumulateGrad adds to it, in
        the order the steps ran. A named intermediate gets its gradient when its grad_fn runs.
        """
        known: dict[str, np.ndarray] = {}
        if count > 0 and self.root.grad_fn is not None:
            known[self.key_of(self.root)] = np.ones(tuple(self.root.shape))
        targets = {source: [t for s, t, kind in self.edges if s == source and kind == "flow"] for source in self.nodes}
        for step in self.steps[:count]:
            fn = self.nodes[step.key].obj
            for tensor_key in (s for s, t, kind in self.edges if t == step.key and self.nodes[s].kind == "tensor"):
                known[tensor_key] = step.received[0]
            for (child, _nr), sent in zip(fn.next_functions, step.sent, strict=False):
                if child is None or sent is None or node_name(child) != "AccumulateGrad":
                    continue
                leaf_key = targets[self.key_of(child)][0]
                known[leaf_key] = known[leaf_key] + sent if leaf_key in known else sent
        return known

    def describe(self, count: int = 0) -> str:
        functions = sum(1 for n in self.nodes.values() if n.kind == "function")
        text = f"graph of {self.nodes[self.key_of(self.root)].title}: {functions} grad_fn node(s), {len(self.steps)} backward step(s)"
        if self.error:
            return f"{text}; cannot run backward: {self.error}"
        if count:
            step = self.steps[count - 1]
            text = (f"step {count}/{len(self.steps)}: {self.nodes[step.key].title} received {short(step.received[0])}, "
                    f"sent {', '.join(short(g) for g in step.sent)}")
        return text


def render_svg(model: GraphModel, count: int = 0) -> str:
    svg = Svg("tl-graph")
    known = model.gradients_after(count)
    ran = {step.key: number for number, step in enumerate(model.steps[:count], start=1)}
    current = model.steps[count - 1].key if count else None
    per_layer: dict[int, int] = {}
    for node in model.nodes.values():
        per_layer[node.layer] = per_layer.get(node.layer, 0) + 1
    widest = max(per_layer.values())

    def position(node: GraphNode) -> tuple[float, float]:
        shift = (widest - per_layer[node.layer]) * (NODE_WIDTH + NODE_GAP) / 2
        return 8 + shift + node.column * (NODE_WIDTH + NODE_GAP), 28 + node.layer * LAYER_HEIGHT

    svg.label(8, 16, f"backward step {count}/{len(model.steps)}" + (f" ({model.error})" if model.error else ""),
              COLOURS["error"] if model.error else COLOURS["text"], 12, class_="tl-outcome")
    for source, target, kind in model.edges:
        (x1, y1), (x2, y2) = position(model.nodes[source]), position(model.nodes[target])
        colour = COLOURS["saved"] if kind == "saved" else COLOURS["muted"]
        svg.add(svg.line(x1 + NODE_WIDTH / 2, y1 + 44, x2 + NODE_WIDTH / 2, y2, stroke=colour, stroke_width=1.5,
                         stroke_dasharray="4 3" if kind == "saved" else None, marker_end=None))
    for node in model.nodes.values():
        x, y = position(node)
        neighbours = [t for s, t, _k in model.edges if s == node.key] + [s for s, t, _k in model.edges if t == node.key]
        lines = list(node.lines)
        if node.kind == "tensor":
            stroke = COLOURS["leaf"] if node.leaf else COLOURS["nonleaf"]
            fill = "#ffffff"
            lines.append(f"grad: {short(known[node.key])}" if node.key in known else "grad: not yet")
        elif node.kind == "saved":
            stroke, fill = COLOURS["saved"], "#ffffff"
            same = next((k for k, n in model.nodes.items() if n.kind == "tensor" and n.obj is node.obj), None)
            neighbours += [same] if same else []
        else:
            stroke = COLOURS["error"] if node.key == current else COLOURS["muted"]
            fill = COLOURS["done"] if node.key in ran else COLOURS["function"]
            if node.key in ran:
                lines.append(f"ran as step {ran[node.key]}")
        info = f"{node.title}: " + "; ".join(lines) if lines else node.title
        if node.kind == "function":
            step = next((s for s in model.steps[:count] if s.key == node.key), None)
            info += f"; next_functions: {', '.join(model.nodes[t].title for s, t, k in model.edges if s == node.key and k == 'flow') or 'none'}"
            if step is not None:
                info += f"; received {short(step.received[0])}, sent {', '.join(short(g) for g in step.sent)}"
        box = svg.rect(x, y, NODE_WIDTH, 44, fill=fill, stroke=stroke, stroke_width=3 if node.key == current else 1.5, rx=6 if node.kind == "function" else 0)
        texts = [svg.text(x + 6, y + 14, node.title, font_size=11, font_weight="bold", fill=COLOURS["text"])]
        texts += [svg.text(x + 6, y + 27 + 12 * i, line[:30], font_size=10, fill=COLOURS["text"]) for i, line in enumerate(lines[:2])]
        svg.group([box, *texts], node.key, neighbours, info, class_=f"tl-node tl-{node.kind}")
    return str(svg)


# A learner's own engine (unit 11's exercise): each node has ``data``, ``requires_grad``, the ``parents`` it
# was computed from and the name of its ``op``; leaves have no parents.
REPLAYED_OPS: dict[str, Callable[..., Any]] = {"add": lambda a, b: a + b, "mul": lambda a, b: a * b, "matmul": lambda a, b: a @ b,
                "sum": lambda a: a.sum(), "relu": lambda a: a.relu(), "tanh": lambda a: a.tanh()}


def replay(root: Any, names: Mapping[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
    """A graph built by another engine, rebuilt op by op in tensorlab: ``(root, names)`` for GraphExplorer.

    Only the structure and the leaves' values are read; every op runs again in tensorlab, so the picture
    and its backward steps are tensorlab's, to compare with what the other engine computed.
    """
    from .. import tensor

    rebuilt: dict[int, Any] = {}

    def build(node: Any) -> Any:
        if id(node) not in rebuilt:
            if not node.parents:
                rebuilt[id(node)] = tensor(np.asarray(node.data), requires_grad=bool(node.requires_grad))
            else:
                rebuilt[id(node)] = REPLAYED_OPS[node.op](*(build(parent) for parent in node.parents))
        return rebuilt[id(node)]

    new_root = build(root)
    return new_root, {name: rebuilt[id(node)] for name, node in (names or {}).items() if id(node) in rebuilt}


class GraphExplorer(Explorer):
    """``GraphExplorer(loss, names={"x": x, "w": w})``; move the slider to run backward step by step.

    ``GraphExplorer.of_engine(out, names)`` draws a graph built by your own engine (see ``replay``).
    """

    def __init__(self, root: Any, names: Mapping[str, Any] | None = None, step: int = 0) -> None:
        self.model = GraphModel(root, names)
        self.step = max(0, min(step, len(self.model.steps)))

    @classmethod
    def of_engine(cls, root: Any, names: Mapping[str, Any] | None = None, step: int = 0) -> GraphExplorer:
        return cls(*replay(root, names), step=step)

    def to_svg(self) -> str:
        return render_svg(self.model, self.step)

    def summary(self) -> str:
        return self.model.describe(self.step)

    def _controls(self, widgets: Any) -> list:
        slider = widgets.IntSlider(value=self.step, min=0, max=len(self.model.steps), description="backward step", style={"description_width": "initial"})
        button = widgets.Button(description="next step", icon="step-forward")

        def update(change: Any) -> None:
            self.step = change["new"]
            self._refresh()

        def advance(_button: Any) -> None:
            slider.value = slider.value + 1 if slider.value < slider.max else 0

        slider.observe(update, names="value")
        button.on_click(advance)
        return [widgets.HBox([slider, button])]
