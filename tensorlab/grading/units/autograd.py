"""Unit 11, autograd: un-broadcasting, two backward rules, and a tiny backward engine."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..compare import Tolerance
from ..tasks import Task, task
from .broadcasting import normal, random_shape

__all__ = ["BACKPROP", "MATMUL_BACKWARD", "MUL_BACKWARD", "SUM_TO_SHAPE", "TOPOLOGICAL_ORDER"]

Graph = dict[str, list[str]]
WeightedGraph = dict[str, list[tuple[str, float]]]
GRADIENT_TOLERANCE = Tolerance(rtol=1e-6, atol=1e-9)


def _tensor(array: np.ndarray, requires_grad: bool = False) -> Any:
    import tensorlab

    return tensorlab.tensor(array, requires_grad=requires_grad)


def sum_to_shape_reference(grad: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    from tensorlab.ops.broadcasting import sum_to_shape

    return sum_to_shape(_tensor(grad), shape).numpy().copy()


def mul_backward_reference(grad: np.ndarray, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    a, b = _tensor(x, True), _tensor(y, True)
    (a * b).backward(_tensor(grad))
    return a.grad.numpy().copy(), b.grad.numpy().copy()


def matmul_backward_reference(grad: np.ndarray, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    left, right = _tensor(a, True), _tensor(b, True)
    (left @ right).backward(_tensor(grad))
    return left.grad.numpy().copy(), right.grad.numpy().copy()


def topological_order_reference(graph: Graph, root: str) -> list[str]:
    """Reverse post-order of a depth-first walk: every node before the nodes it was computed from."""
    order: list[str] = []
    visited: set[str] = set()

    def visit(node: str) -> None:
        visited.add(node)
        for source in graph.get(node, []):
            if source not in visited:
                visit(source)
        order.append(node)

    visit(root)
    return order[::-1]


def accept_topological_order(case: tuple, expected: list[str], got: Any) -> str | None:
    """Any order is right that lists each reachable node once, each before its inputs."""
    graph, root = case
    if type(got) is not list or not all(type(node) is str for node in got):
        return f"expected a list of node names, got {type(got).__name__}: {got!r}"[:200]
    if sorted(got) != sorted(expected):
        return f"expected each of the nodes {sorted(expected)} exactly once, got {got}"
    if got[0] != root:
        return f"the output {root!r} must come first, got {got}"
    position = {node: i for i, node in enumerate(got)}
    for node in got:
        for source in graph.get(node, []):
            if position[source] < position[node]:
                return f"{source!r} comes before {node!r}, but {node!r} is computed from {source!r}"
    return None


def backprop_reference(graph: WeightedGraph, root: str) -> dict[str, float]:
    """d root / d node for every node, by building the same graph in tensorlab and calling backward."""
    values: dict[str, Any] = {}

    def value(node: str) -> Any:
        if node not in values:
            inputs = graph.get(node, [])
            if not inputs:
                values[node] = _tensor(np.array(1.0), True)
            else:
                total = sum((local * value(source) for source, local in inputs[1:]), inputs[0][1] * value(inputs[0][0]))
                total.retain_grad()
                values[node] = total
        return values[node]

    value(root).backward()
    return {node: float(tensor.grad.item()) for node, tensor in values.items()}


def broadcast_pair(rng: np.random.Generator) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A shape and a shape it broadcasts to."""
    small = random_shape(rng, 3)
    big = tuple(int(rng.integers(1, 4)) if size == 1 and rng.random() < 0.6 else size for size in small)
    return small, tuple(int(size) for size in rng.integers(1, 4, size=rng.integers(0, 2))) + big


def random_sum_to_shape_case(rng: np.random.Generator) -> tuple[np.ndarray, tuple[int, ...]]:
    small, big = broadcast_pair(rng)
    return normal(rng, big), small


def random_mul_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    small, big = broadcast_pair(rng)
    x, y = normal(rng, big), normal(rng, small)
    if rng.random() < 0.5:
        x, y = y, x
    return normal(rng, big), x, y


def random_matmul_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n, k, m = (int(size) for size in rng.integers(1, 5, size=3))
    return normal(rng, (n, m)), normal(rng, (n, k)), normal(rng, (k, m))


def random_graph(rng: np.random.Generator) -> tuple[dict[str, list[tuple[str, float]]], str]:
    """A random DAG of 3 to 8 named nodes, all reachable from the last one, with local derivatives."""
    count = int(rng.integers(3, 9))
    names = [str(name) for name in rng.permutation(list("abcdefghuvwxyz"))[:count]]
    graph: dict[str, list[tuple[str, float]]] = {}
    for i in range(1, count):
        sources = rng.choice(i, size=min(i, int(rng.integers(1, 3))), replace=False)
        graph[names[i]] = [(names[int(s)], float(np.round(rng.normal(), 2))) for s in sorted(sources)]
    root = names[-1]
    reachable = topological_order_reference({k: [s for s, _ in v] for k, v in graph.items()}, root)
    return {node: graph[node] for node in reachable if node in graph}, root


def random_order_case(rng: np.random.Generator) -> tuple[Graph, str]:
    graph, root = random_graph(rng)
    return {node: [source for source, _ in inputs] for node, inputs in graph.items()}, root


DIAMOND = {"loss": ["h", "w"], "h": ["x", "w"], "w": ["x"]}

SUM_TO_SHAPE = task(Task(
    name="sum_to_shape", reference=sum_to_shape_reference,
    examples=[(np.ones((2, 3)), (3,)), (np.arange(6.0).reshape(2, 3), (2, 1)), (np.arange(4.0).reshape(2, 2), ())],
    random_case=random_sum_to_shape_case, tolerance=GRADIENT_TOLERANCE,
    hint="Sum over the leading dimensions the shape does not have, then over every dimension where the "
    "shape has size 1 (keepdims=True); the result has exactly `shape`.",
))
MUL_BACKWARD = task(Task(
    name="mul_backward", reference=mul_backward_reference,
    examples=[(np.ones(3), np.array([1.0, 2.0, 3.0]), np.array([4.0, 5.0, 6.0])),
              (np.ones((2, 3)), np.ones((2, 3)) * 2.0, np.array([1.0, 2.0, 3.0]))],
    random_case=random_mul_case, tolerance=GRADIENT_TOLERANCE,
    hint="d(x*y)/dx = y and d(x*y)/dy = x, times the incoming grad, each summed back to its input's shape.",
))
MATMUL_BACKWARD = task(Task(
    name="matmul_backward", reference=matmul_backward_reference,
    examples=[(np.ones((2, 2)), np.array([[1.0, 2.0], [3.0, 4.0]]), np.eye(2)),
              (np.ones((1, 3)), np.ones((1, 2)), np.arange(6.0).reshape(2, 3))],
    random_case=random_matmul_case, tolerance=GRADIENT_TOLERANCE,
    hint="For out = a @ b: grad_a = grad @ b.T and grad_b = a.T @ grad; each has its input's shape.",
))
TOPOLOGICAL_ORDER = task(Task(
    name="topological_order", reference=topological_order_reference,
    examples=[(DIAMOND, "loss"), ({"y": ["x"]}, "y"), ({"z": ["x", "y"], "y": ["x"]}, "z")],
    random_case=random_order_case, accept=accept_topological_order,
    hint="Depth-first from the root; append a node after all of its inputs, then reverse the list.",
))
BACKPROP = task(Task(
    name="backprop", reference=backprop_reference,
    examples=[({"y": [("x", 3.0)]}, "y"), ({"loss": [("h", 2.0), ("w", 1.0)], "h": [("x", 3.0), ("w", 0.5)], "w": [("x", -1.0)]}, "loss")],
    random_case=lambda rng: random_graph(rng), tolerance=GRADIENT_TOLERANCE,
    hint="Visit nodes in topological order starting from the root (gradient 1.0); each node adds "
    "gradient * local derivative into each of its inputs. Accumulate: a node used twice gets both.",
))
