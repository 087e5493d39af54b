"""Unit 11, autograd: un-broadcasting, two backward rules, and a tiny backward engine.

Every reference asks tensorlab's own autograd (a forward pass, then ``backward``), so the
answer key is the library the course teaches, reached only through its public API.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tensorlab.grading.compare import Tolerance
from tensorlab.grading.random_cases import normal, random_shape
from tensorlab.grading.tasks import Clause, Exercise, Task

__all__ = ["EXERCISE", "BACKPROP", "MATMUL_BACKWARD", "MUL_BACKWARD", "SUM_TO_SHAPE", "TOPOLOGICAL_ORDER"]

Shape = tuple[int, ...]
Graph = dict[str, list[str]]
WeightedGraph = dict[str, list[tuple[str, float]]]
GRADIENT_TOLERANCE = Tolerance(rtol=1e-6, atol=1e-9)


def _tensor(array: np.ndarray, requires_grad: bool = False) -> Any:
    import tensorlab

    return tensorlab.tensor(array, requires_grad=requires_grad)


def sum_to_shape_reference(grad: np.ndarray, shape: Shape) -> np.ndarray:
    """Broadcast a tensor of ``shape`` to ``grad``'s shape and backpropagate ``grad`` through it."""
    x = _tensor(np.zeros(shape, dtype=grad.dtype), True)
    x.expand(grad.shape).backward(_tensor(grad))
    return np.asarray(x.grad.numpy().copy())


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


# Random cases. Mostly ordinary shapes; now and then a size 0, a float32 gradient, or an
# input that is a non-contiguous view, so that answers assuming otherwise are caught.

def gradient_values(rng: np.random.Generator, shape: Shape, dtype: Any = np.float64) -> np.ndarray:
    """Float64 normals, or float32 quarters (exact in float32, so any summation order gives the same sum)."""
    if np.dtype(dtype) == np.float32:
        return np.asarray(np.round(rng.normal(size=shape) * 4) / 4, dtype=np.float32)
    return normal(rng, shape)


def maybe_strided(rng: np.random.Generator, shape: Shape, dtype: Any = np.float64) -> np.ndarray:
    """An array of ``shape``; one time in four a non-contiguous view (every other element of a wider array)."""
    if not shape or rng.random() >= 0.25:
        return gradient_values(rng, shape, dtype)
    return gradient_values(rng, (*shape[:-1], 2 * shape[-1]), dtype)[..., ::2]


def with_a_zero(rng: np.random.Generator, shape: Shape, chance: float = 0.1) -> Shape:
    """``shape``, except that with probability ``chance`` one of its sizes becomes 0."""
    if not shape or rng.random() >= chance:
        return shape
    where = int(rng.integers(0, len(shape)))
    return (*shape[:where], 0, *shape[where + 1:])


def shrunk(rng: np.random.Generator, target: Shape, ones: float = 0.4) -> Shape:
    """A shape that broadcasts to ``target``: often fewer leading dims, some sizes turned into 1."""
    dropped = int(rng.choice(len(target) + 1)) if rng.random() < 0.6 else 0
    return tuple(1 if rng.random() < ones else size for size in target[dropped:])


def random_sum_to_shape_case(rng: np.random.Generator) -> tuple[np.ndarray, Shape]:
    """A gradient and the shape it was broadcast from: mostly both new leading dims and stretched 1s."""
    shape = [1 if rng.random() < 0.4 else int(rng.integers(2, 5)) for _ in range(int(rng.integers(0, 4)))]
    stretched = [int(rng.integers(2, 5)) if size == 1 and rng.random() < 0.7 else size for size in shape]
    if shape and rng.random() < 0.1:  # a size 0: stretched from 1, or 0 in both
        where = int(rng.integers(0, len(shape)))
        stretched[where], shape[where] = 0, shape[where] if shape[where] == 1 else 0
    leading = [int(size) for size in rng.integers(1, 5, size=rng.choice(3, p=[0.25, 0.4, 0.35]))]
    dtype = np.float32 if rng.random() < 0.2 else np.float64
    return maybe_strided(rng, tuple(leading + stretched), dtype), tuple(shape)


def random_mul_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """x and y that broadcast to each other: one of them full-size half the time, else both stretched."""
    target = with_a_zero(rng, random_shape(rng, 4))
    x_shape, y_shape = shrunk(rng, target), shrunk(rng, target)
    if rng.random() < 0.5:
        x_shape, y_shape = (target, y_shape) if rng.random() < 0.5 else (x_shape, target)
    out_shape = tuple(np.broadcast_shapes(x_shape, y_shape))
    return maybe_strided(rng, out_shape), maybe_strided(rng, x_shape), maybe_strided(rng, y_shape)


def maybe_transposed(rng: np.random.Generator, rows: int, columns: int) -> np.ndarray:
    """A (rows, columns) matrix; one time in four the transpose of a (columns, rows) one (not contiguous)."""
    if rng.random() < 0.25:
        return normal(rng, (columns, rows)).T
    return normal(rng, (rows, columns))


def random_matmul_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Shapes (n, k) @ (k, m), sizes 1 to 5, mostly not square; rarely a size 0."""
    n, k, m = with_a_zero(rng, tuple(int(size) for size in rng.integers(1, 6, size=3)), chance=0.08)
    return maybe_transposed(rng, n, m), maybe_transposed(rng, n, k), maybe_transposed(rng, k, m)


def random_graph(rng: np.random.Generator) -> tuple[WeightedGraph, str]:
    """A random DAG of 2 to 9 nodes with local derivatives (now and then 0); a node may feed another twice.

    The root is usually the last node; one time in three an earlier one, so some nodes are unreachable.
    """
    count = int(rng.integers(2, 10))
    names = [str(name) for name in rng.permutation(list("abcdefghpquvwxyz"))[:count]]
    graph: WeightedGraph = {}
    for i in range(1, count):
        sources = sorted(int(s) for s in rng.choice(i, size=min(i, int(rng.integers(1, 4))), replace=False))
        if rng.random() < 0.15:
            sources.append(sources[0])  # used twice, as x in x * x
        graph[names[i]] = [(names[s], 0.0 if rng.random() < 0.1 else float(np.round(rng.normal(), 2)))
                           for s in sources]
    root = names[-1] if count < 4 or rng.random() < 0.67 else names[int(rng.integers(2, count - 1))]
    return graph, root


def unweighted(graph: WeightedGraph) -> Graph:
    return {node: [source for source, _ in inputs] for node, inputs in graph.items()}


def random_order_case(rng: np.random.Generator) -> tuple[Graph, str]:
    graph, root = random_graph(rng)
    return unweighted(graph), root


# Fixed cases: the statement's examples, then one case per promise of the statement.

def ramp(*shape: int) -> np.ndarray:
    """Distinct values of ``shape``, some negative: a sum over the wrong dims cannot match by luck."""
    return np.arange(float(np.prod(shape))).reshape(shape) - 2.5


DIAMOND = {"loss": ["h", "w"], "h": ["x", "w"], "w": ["x"]}
# x reaches loss by a short path (loss <- c) and a long one (loss <- a <- b <- c): walking nodes
# in breadth-first order visits c before b, which is wrong.
LONG_AND_SHORT: WeightedGraph = {"loss": [("a", 2.0), ("c", 3.0)], "a": [("b", 5.0)], "b": [("c", 7.0)],
                                 "c": [("x", 11.0)]}
SQUARE: WeightedGraph = {"y": [("x", 6.0), ("x", 6.0)]}  # y = x * x at x = 6: x is used twice
TWO_OUTPUTS: WeightedGraph = {"loss": [("h", 2.0)], "h": [("x", 3.0)], "other": [("h", 5.0), ("z", 1.0)]}
DEAD_END: WeightedGraph = {"loss": [("h", 0.0), ("w", 2.0)], "h": [("x", 4.0)], "w": [("x", 1.5)]}

# What each part may use, besides the common names (shape, ndim, dtype, len, range, enumerate, ...): the
# statement lists them. A later part may call an earlier one (mul_backward your sum_to_shape, backprop your
# topological_order), so its list holds the earlier part's too. graphlib is not a building block.
ARRAY_RESULT = Tolerance(rtol=1e-6, atol=1e-9, scalar_for_0d=False)  # "return an array" (np.asarray for ()): not a NumPy scalar
SUM_ALLOWED = ("sum", "asarray", "array", "reshape", "squeeze", "expand_dims", "add", "reduce", "copy", "astype",
               "append", "extend", "insert", "reversed")
MUL_ALLOWED = (*SUM_ALLOWED, "multiply", "broadcast_to", "arange", "zeros", "at", "prod", "flatnonzero")
MATMUL_ALLOWED = ("matmul", "dot", "einsum", "transpose", "mT", "swapaxes", "sum")
ORDER_ALLOWED = ("get", "append", "extend", "insert", "pop", "popleft", "appendleft", "add", "remove", "discard",
                 "reverse", "reversed", "sorted", "set", "deque", "defaultdict", "iter", "next", "items", "keys",
                 "values", "setdefault", "update", "index", "count", "copy", "cache", "lru_cache")
BACKPROP_ALLOWED = (*ORDER_ALLOWED, "sum")

SUM_INPUTS = ("The cases draw grad of 0 to 5 dims, float64 or float32, with sizes 0, 1 and more, sometimes a "
              "non-contiguous view (every other element, a transpose), and shape with fewer dims than grad, "
              "size-1 dims, or ().")
MUL_INPUTS = ("The cases draw float64 x and y of 0 to 4 dims that broadcast to each other (one of them full-size, "
              "or both stretched), 0-d arrays, sizes 0, and non-contiguous views (every other element).")
MATMUL_INPUTS = ("The cases draw float64 a (n, k) and b (k, m) with n, k, m from 0 to 5, and transposes "
                 "(non-contiguous views).")
ORDER_INPUTS = ("The cases draw graphs of 1 to 9 nodes, a node listed twice in one list, several paths to one node, "
                "nodes that root does not reach, and a root computed from nothing.")
BACKPROP_INPUTS = ("The cases draw graphs of 1 to 9 nodes, a node listed twice in one list, several paths to one "
                   "node, nodes that root does not reach, a root computed from nothing, and local derivatives "
                   "that are 0.")

SUM_HINT = ("Which dims of grad did broadcasting add or stretch, counting from the right, and which of them "
            "must survive with size 1?")
MUL_HINT = ("If x had not been broadcast, what would the derivative of the product with respect to x be, and "
            "what must happen to it when x was broadcast?")
MATMUL_HINT = ("Which shapes must the two gradients have, and which product of grad with the other input "
               "(transposed or not) has exactly that shape?")
ORDER_HINT = ("If a node is finished only after all the nodes it was computed from are finished, in which order "
              "do the nodes finish, and how do you keep from visiting a node twice?")
BACKPROP_HINT = ("When has a node received all of its gradient, so that it may pass it on, and what happens to "
                 "the gradient of a node that several paths reach?")

SUM_TO_SHAPE = Task(
    name="sum_to_shape", reference=sum_to_shape_reference,
    examples=[(np.ones((2, 3)), (3,)), (ramp(2, 3), (2, 1)), (ramp(2, 2), ())],
    clauses=[
        Clause("sum over the leading dimensions `shape` does not have (the first `grad.ndim - len(shape)`)", (ramp(2, 3, 4), (4,))),
        Clause("sum over the leading dimensions `shape` does not have (not the trailing ones)", (ramp(3, 2, 2), (2, 2))),
        Clause("then over each dimension where `shape` has size 1 (keeping it)", (ramp(3, 4), (1, 4))),
        Clause("then over each dimension where `shape` has size 1 (keeping it)", (ramp(3, 4, 2), (3, 1, 2))),
        Clause("then over each dimension where `shape` has size 1, the dimensions of `grad` and `shape` lined up from the right",
               (ramp(2, 3, 4), (3, 1))),
        Clause("then over each dimension where `shape` has size 1, the dimensions of `grad` and `shape` lined up from the right",
               (ramp(4, 2, 3), (1, 3))),
        Clause("a size 1 in `grad` too is not stretched (summing it changes nothing)", (ramp(2, 1, 3), (1, 1, 3))),
        Clause("return an array of exactly `shape` (`np.asarray` for `()`)", (ramp(3), ())),
        Clause("return an array of exactly `shape` (`np.asarray` for `()`)", (np.asarray(2.5), ())),
        Clause("return an array of exactly `shape` (`np.asarray` for `()`)", (ramp(2, 3), (1, 1))),
        Clause("when there is nothing to sum, the result is `grad` as it is (the same array or a copy)", (ramp(2, 3), (2, 3))),
        Clause("sizes may be 0: a size 1 stretched to 0 sums nothing, giving zeros", (np.zeros((2, 0)), (2, 1))),
        Clause("sizes may be 0: a size 1 stretched to 0 sums nothing, giving zeros", (np.zeros((0, 3)), (3,))),
        Clause("sizes may be 0: a size 1 stretched to 0 sums nothing, giving zeros", (np.zeros((3, 0)), (0,))),
        Clause("return an array of exactly `shape` that keeps `grad`'s dtype", (np.arange(12, dtype=np.float32).reshape(3, 4), (1, 4))),
        Clause("`grad` may be a non-contiguous view; do not change it", (ramp(4, 6)[:, ::2], (4, 1))),
        Clause("`grad` may be a non-contiguous view; do not change it", (ramp(3, 2, 4).transpose(1, 2, 0), (1, 3))),
    ],
    random_case=random_sum_to_shape_case, tolerance=ARRAY_RESULT,
    hint=SUM_HINT, allowed=SUM_ALLOWED, inputs=SUM_INPUTS,
)
MUL_BACKWARD = Task(
    name="mul_backward", reference=mul_backward_reference,
    examples=[(np.ones(3), np.array([1.0, 2.0, 3.0]), np.array([4.0, 5.0, 6.0])),
              (np.ones((2, 3)), np.ones((2, 3)) * 2.0, np.array([1.0, 2.0, 3.0]))],
    clauses=[
        Clause("`x`, `y` or both may have been broadcast (here `y`)",
               (ramp(2, 3), ramp(2, 3) / 2, np.array([[3.0], [-1.0]]))),
        Clause("`x`, `y` or both may have been broadcast (here `x`)",
               (ramp(4, 3), np.array([0.5, -2.0, 3.0]), ramp(4, 3) / 4)),
        Clause("`x`, `y` or both may have been broadcast (here both)",
               (ramp(3, 4), np.array([[1.0], [-2.0], [0.5]]), np.array([2.0, 3.0, -1.0, 0.25]))),
        Clause("`x`, `y` or both may have been broadcast (here both)",
               (ramp(2, 2, 3), np.array([[[1.5, -1.0, 2.0]], [[0.5, 3.0, -2.0]]]), np.array([[2.0], [-3.0]]))),
        Clause("either may be 0-d", (ramp(2, 3), np.asarray(1.5), ramp(2, 3) / 3)),
        Clause("sizes may be 0", (np.zeros((0, 3)), np.zeros((0, 3)), np.array([1.0, 2.0, 3.0]))),
        Clause("return the tuple `(grad_x, grad_y)`", (ramp(2, 2), ramp(2, 2) + 1, ramp(2, 2) * 3)),
    ],
    random_case=random_mul_case, tolerance=ARRAY_RESULT,
    hint=MUL_HINT, allowed=MUL_ALLOWED, inputs=MUL_INPUTS,
)
MATMUL_BACKWARD = Task(
    name="matmul_backward", reference=matmul_backward_reference,
    examples=[(np.ones((2, 2)), np.array([[1.0, 2.0], [3.0, 4.0]]), np.eye(2)),
              (np.ones((1, 3)), np.ones((1, 2)), ramp(2, 3))],
    clauses=[
        Clause("`a` and `b` need not be square: `grad_a` has `a`'s shape, `grad_b` has `b`'s",
               (ramp(2, 4) / 3, ramp(2, 3), ramp(3, 4) / 2)),
        Clause("`grad_a` has `a`'s shape, `grad_b` has `b`'s (a square product: right shapes, and still the right transposes)", (ramp(3, 3) / 2, ramp(3, 3), ramp(3, 3) + 1)),
        Clause("Any size may be 1 (a row times a column)", (np.array([[2.0]]), np.array([[1.0, -2.0, 3.0]]), np.array([[0.5], [4.0], [-1.0]]))),
        Clause("Any size may be 1 (a column times a row)", (ramp(3, 2), np.array([[1.0], [-2.0], [3.0]]), np.array([[0.5, 4.0]]))),
        Clause("Any size may be 1 [...] or 0", (np.zeros((2, 3)), np.zeros((2, 0)), np.zeros((0, 3)))),
        Clause("Any size may be 1 [...] or 0", (np.zeros((0, 2)), np.zeros((0, 3)), ramp(3, 2))),
        Clause("`a` or `b` may be a non-contiguous view (a transpose)", (ramp(2, 4), ramp(3, 2).T, ramp(4, 3).T / 2)),
    ],
    random_case=random_matmul_case, tolerance=GRADIENT_TOLERANCE,
    hint=MATMUL_HINT, allowed=MATMUL_ALLOWED, inputs=MATMUL_INPUTS,
)
TOPOLOGICAL_ORDER = Task(
    name="topological_order", reference=topological_order_reference,
    examples=[(DIAMOND, "loss"), ({"y": ["x"]}, "y"), ({"z": ["x", "y"], "y": ["x"]}, "z")],
    clauses=[
        Clause("every node before all the nodes it was computed from (a short and a long path reach c)",
               (unweighted(LONG_AND_SHORT), "loss")),
        Clause("each once (a node may appear twice in one list)", (unweighted(SQUARE), "y")),
        Clause("each once (a node may appear twice in one list)", ({"loss": ["y", "x"], "y": ["x", "x"]}, "loss")),
        Clause("A root computed from nothing is the whole order", ({}, "x")),
        Clause("A root computed from nothing is the whole order", ({"y": ["x"]}, "x")),
        Clause("every node reachable from `root` (and no other)", (unweighted(TWO_OUTPUTS), "loss")),
        Clause("`root` first", ({"b": ["a"], "c": ["a"], "d": ["b", "c"]}, "d")),
        Clause("Any such order is accepted", ({"out": ["p", "q", "r"], "p": ["x"], "q": ["x"], "r": ["y"]}, "out")),
    ],
    random_case=random_order_case, accept="topological_order",
    hint=ORDER_HINT, allowed=ORDER_ALLOWED, inputs=ORDER_INPUTS,
)
BACKPROP = Task(
    name="backprop", reference=backprop_reference,
    examples=[({"y": [("x", 3.0)]}, "y"), ({"loss": [("h", 2.0), ("w", 1.0)], "h": [("x", 3.0), ("w", 0.5)], "w": [("x", -1.0)]}, "loss")],
    clauses=[
        Clause("Walk the nodes in topological order (a short and a long path reach c)", (LONG_AND_SHORT, "loss")),
        Clause("each node adds `its gradient * local derivative` into each of its inputs, so a node used twice gets both",
               (SQUARE, "y")),
        Clause("every node reachable from `root` (and no other)", (TWO_OUTPUTS, "loss")),
        Clause("A local derivative may be 0: the node still gets its gradient, 0.0", (DEAD_END, "loss")),
        Clause("the root's is `1.0`", ({}, "x")),
        Clause("the root's is `1.0`", ({"y": [("x", 2.0)]}, "x")),
    ],
    random_case=random_graph, tolerance=GRADIENT_TOLERANCE,
    hint=BACKPROP_HINT, allowed=BACKPROP_ALLOWED, inputs=BACKPROP_INPUTS,
)

EXERCISE = Exercise(notebook="autograd", tasks=(SUM_TO_SHAPE, MUL_BACKWARD, MATMUL_BACKWARD, TOPOLOGICAL_ORDER, BACKPROP))
