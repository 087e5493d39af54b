"""Unit 11, autograd: un-broadcasting, two backward rules, and a tiny backward engine; then a tensor-level
engine built from those pieces, a finite-difference gradcheck, and backprop by hand through an MLP.

The first five references ask tensorlab's own autograd (a forward pass, then ``backward``), so their
answer key is the library the course teaches, reached only through its public API; the last three ask
torch's autograd itself (``.grad``, ``torch.autograd.gradcheck``, ``retain_grad``), the oracle.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tensorlab.grading.compare import Tolerance
from tensorlab.grading.random_cases import normal, random_shape
from tensorlab.grading.tasks import Clause, Exercise, Task

__all__ = ["EXERCISE", "BACKPROP", "ENGINE_GRADIENTS", "GRADCHECK", "MATMUL_BACKWARD", "MLP_BACKWARD", "MUL_BACKWARD",
           "SUM_TO_SHAPE", "TOPOLOGICAL_ORDER"]

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


# --- Part 2: a tensor-level engine, a finite-difference gradcheck, and backprop through an MLP by hand. ---
# These references ask torch's autograd itself: the oracle the unit compares every engine with.

Program = list[tuple[str, str, tuple[str, ...]]]  # steps (name, op, input names); the last one is the output
Leaves = dict[str, np.ndarray]
ENGINE_OPS = ("add", "mul", "matmul", "sum", "relu", "tanh")
SMOOTH_OPS = ("add", "mul", "matmul", "tanh")  # no kink: finite differences across relu's 0 would be wrong
GRADCHECK_EPS, GRADCHECK_ATOL, GRADCHECK_RTOL = 1e-6, 1e-5, 1e-3  # torch.autograd.gradcheck's defaults


def torch_program(program: Program, leaves: dict[str, Any]) -> dict[str, Any]:
    """Every value of ``program`` run by torch on ``leaves`` (torch tensors), by name."""
    import torch

    ops = {"add": torch.add, "mul": torch.mul, "matmul": torch.matmul, "sum": torch.sum, "relu": torch.relu,
           "tanh": torch.tanh}
    values = dict(leaves)
    for name, op, inputs in program:
        values[name] = ops[op](*(values[source] for source in inputs))
    return values


def torch_leaves(leaves: Leaves, requires_grad: list[str]) -> dict[str, Any]:
    import torch

    return {name: torch.tensor(array, dtype=torch.float64, requires_grad=name in requires_grad)
            for name, array in leaves.items()}


def engine_gradients_reference(program: Program, leaves: Leaves, requires_grad: list[str]) -> dict[str, Any]:
    """Every leaf's ``.grad`` after torch's ``backward()`` from the program's output (None where none arrived)."""
    values = torch_program(program, torch_leaves(leaves, requires_grad))
    values[program[-1][0]].backward()
    return {name: None if values[name].grad is None else values[name].grad.numpy().copy() for name in leaves}


def gradcheck_reference(program: Program, leaves: Leaves, grads: dict[str, np.ndarray]) -> bool:
    """torch.autograd.gradcheck of a function whose backward returns the claimed gradients.

    The function runs the program on the checked leaves (the others held fixed); its backward hands back
    ``grads``, so torch compares exactly those against its own central differences, elementwise.
    """
    import torch

    names = list(grads)
    if any(np.shape(grads[name]) != leaves[name].shape for name in names):
        return False
    fixed = torch_leaves(leaves, [])
    claimed = [torch.tensor(grads[name], dtype=torch.float64) for name in names]

    class Claimed(torch.autograd.Function):
        @staticmethod
        def forward(ctx: Any, *checked: Any) -> Any:
            return torch_program(program, {**fixed, **dict(zip(names, checked, strict=True))})[program[-1][0]]

        @staticmethod
        def backward(ctx: Any, grad: Any) -> Any:
            return tuple(grad * value for value in claimed)

    inputs = tuple(torch.tensor(leaves[name], dtype=torch.float64, requires_grad=True) for name in names)
    return bool(torch.autograd.gradcheck(Claimed.apply, inputs, eps=GRADCHECK_EPS, atol=GRADCHECK_ATOL,
                                         rtol=GRADCHECK_RTOL, raise_exception=False, check_undefined_grad=False))


MLP_GRADIENTS = ("logits", "h", "h_pre", "w2", "b2", "w1", "b1")


def mlp_backward_reference(x: np.ndarray, target: np.ndarray, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray,
                           b2: np.ndarray) -> dict[str, np.ndarray]:
    """d loss / d every intermediate of tanh-MLP + mean cross-entropy, by torch's autograd (retain_grad)."""
    import torch

    params = {name: torch.tensor(value, dtype=torch.float64, requires_grad=True)
              for name, value in (("w1", w1), ("b1", b1), ("w2", w2), ("b2", b2))}
    h_pre = torch.tensor(x, dtype=torch.float64) @ params["w1"] + params["b1"]
    h = torch.tanh(h_pre)
    logits = h @ params["w2"] + params["b2"]
    for intermediate in (h_pre, h, logits):
        intermediate.retain_grad()
    torch.nn.functional.cross_entropy(logits, torch.tensor(target, dtype=torch.int64)).backward()
    found = {"logits": logits, "h": h, "h_pre": h_pre, **params}
    return {name: found[name].grad.numpy().copy() for name in MLP_GRADIENTS}


def leaf_pool(rng: np.random.Generator) -> dict[str, Shape]:
    """Leaves of shapes that meet in a small network: x (n, m) @ w (m, k), plus biases and scales to broadcast."""
    n, m, k = (int(size) for size in rng.integers(1, 5, size=3))
    pool = {"x": (n, m), "w": (m, k), "b": (k,) if rng.random() < 0.5 else (1, k), "c": (), "y": (n, k),
            "s": (n, 1), "v": (m,)}
    chosen = rng.permutation(list(pool))[:int(rng.integers(3, 7))]
    return {str(name): pool[str(name)] for name in sorted(chosen)}


def operands(op: str, shapes: dict[str, Shape], last: str, rng: np.random.Generator) -> tuple[str, ...] | None:
    """Inputs for ``op`` among the values so far: the latest value first when it fits, so the program is deep."""
    names = list(shapes)
    if op in ("relu", "tanh"):
        return (last,) if rng.random() < 0.7 else (str(rng.choice(names)),)
    if op == "matmul":
        pairs = [(a, b) for a in names for b in names
                 if len(shapes[a]) == 2 and len(shapes[b]) == 2 and shapes[a][1] == shapes[b][0]]
    else:
        pairs = [(a, b) for a in names for b in names if broadcasts(shapes[a], shapes[b])]
    if not pairs:
        return None
    with_last = [pair for pair in pairs if last in pair]
    chosen = with_last if with_last and rng.random() < 0.7 else pairs
    return tuple(chosen[int(rng.integers(len(chosen)))])


def broadcasts(a: Shape, b: Shape) -> bool:
    try:
        np.broadcast_shapes(a, b)
    except ValueError:
        return False
    return True


def result_shape(op: str, shapes: list[Shape]) -> Shape:
    if op == "matmul":
        return (shapes[0][0], shapes[1][1])
    return tuple(np.broadcast_shapes(*shapes))


def random_program(rng: np.random.Generator, ops: tuple[str, ...] = ENGINE_OPS) -> tuple[Program, Leaves]:
    """2 to 6 steps over 3 to 6 leaves, then a sum to a scalar output; a value may feed a step twice (x * x)."""
    shapes = leaf_pool(rng)
    leaves = {name: normal(rng, shape) for name, shape in shapes.items()}
    program: Program = []
    last = str(rng.choice(list(shapes)))
    for step in range(int(rng.integers(2, 7))):
        op = str(rng.choice([op for op in ops if op != "sum"]))
        inputs = operands(op, shapes, last, rng)
        if inputs is None:
            continue
        last = f"h{step}"
        shapes[last] = result_shape(op, [shapes[source] for source in inputs])
        program.append((last, op, inputs))
    program.append(("out", "sum", (last,)))
    return program, leaves


def used_leaves(program: Program, leaves: Leaves) -> set[str]:
    """The leaves the output depends on."""
    reached, inputs = {program[-1][0]}, {name: sources for name, _, sources in program}
    for name, _, _ in reversed(program):
        if name in reached:
            reached.update(inputs[name])
    return reached & set(leaves)


def random_engine_case(rng: np.random.Generator) -> tuple[Program, Leaves, list[str]]:
    """A random program; each leaf requires grad with probability 2/3, at least one the output uses does."""
    program, leaves = random_program(rng)
    requires_grad = sorted(name for name in leaves if rng.random() < 0.67)
    used = sorted(used_leaves(program, leaves))
    if not set(requires_grad) & set(used):
        requires_grad = sorted({*requires_grad, used[int(rng.integers(len(used)))]})
    return program, leaves, requires_grad


def violation(claimed: np.ndarray, true: np.ndarray) -> float:
    """How far a claimed gradient is outside gradcheck's tolerance (< 1: inside), against the true gradient."""
    if claimed.size == 0:
        return 0.0
    return float(np.max(np.abs(claimed - true) / (GRADCHECK_ATOL + GRADCHECK_RTOL * np.abs(true))))


def wrong_gradient(rng: np.random.Generator, true: np.ndarray) -> np.ndarray:
    """A gradient as a wrong backward rule gives it: a forgotten path, a sign, a broadcast, or one element."""
    mistake = int(rng.integers(4))
    if mistake == 0:
        return true * 2.0  # a reused value's gradient counted twice (or half: the other path forgotten)
    if mistake == 1:
        return -true
    if mistake == 2 and true.ndim == 2 and true.shape[0] == true.shape[1]:
        return np.ascontiguousarray(true.T)  # a square matmul's gradient, transposed
    wrong = true.copy()
    wrong.flat[int(rng.integers(max(wrong.size, 1)))] += 0.05 + 0.1 * abs(float(wrong.flat[-1]) if wrong.size else 0)
    return wrong


def random_gradcheck_case(rng: np.random.Generator) -> tuple[Program, Leaves, dict[str, np.ndarray]]:
    """A smooth random program and claimed gradients of 1 to 3 leaves: right (torch's) half the time, else one
    of them wrong by a clear margin (so finite differences and torch agree on the verdict)."""
    while True:
        program, leaves = random_program(rng, SMOOTH_OPS)
        used = sorted(used_leaves(program, leaves))
        checked = [str(name) for name in rng.permutation(used)[:int(rng.integers(1, 4))]]
        true = engine_gradients_reference(program, leaves, checked)
        grads = {name: true[name] for name in checked if true[name] is not None}
        if not grads or max(float(np.max(np.abs(g), initial=0.0)) for g in grads.values()) > 1e3:
            continue
        if rng.random() < 0.5:
            name = str(rng.choice(list(grads)))
            grads[name] = wrong_gradient(rng, grads[name])
            if not violation(grads[name], true[name]) > 10:
                continue
        return program, leaves, grads


def random_mlp_case(rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    """N 1 to 6 samples of D features, H hidden units, C classes (1 to 5 each); now and then large weights."""
    n, d, h, c = (int(size) for size in rng.integers(1, 6, size=4))
    n = int(rng.integers(1, 7))
    scale = 30.0 if rng.random() < 0.15 else 1.0
    return (normal(rng, (n, d)), rng.integers(0, c, size=n).astype(np.int64), normal(rng, (d, h)) / np.sqrt(d),
            normal(rng, (h,)) * 0.1, normal(rng, (h, c)) * scale / np.sqrt(h), normal(rng, (c,)) * 0.1)


# Fixed cases for part 2.
def grid(*shape: int, scale: float = 0.25) -> np.ndarray:
    """Distinct small values of ``shape``, some negative, none 0 (relu's kink)."""
    return (np.arange(float(np.prod(shape))).reshape(shape) - 2.6) * scale


LINEAR: Program = [("h", "matmul", ("x", "w")), ("z", "add", ("h", "b")), ("out", "sum", ("z",))]
LINEAR_LEAVES = {"x": grid(2, 3), "w": grid(3, 2, scale=0.5), "b": np.array([0.5, -1.0])}
SQUARED: Program = [("h", "mul", ("x", "x")), ("out", "sum", ("h",))]
TWO_PATHS: Program = [("h", "tanh", ("x",)), ("p", "mul", ("h", "w")), ("q", "add", ("p", "h")),
                      ("out", "sum", ("q",))]
BROADCAST_BOTH: Program = [("h", "mul", ("s", "v")), ("z", "add", ("h", "c")), ("r", "relu", ("z",)),
                           ("out", "sum", ("r",))]
SHORT_AND_LONG: Program = [("h", "tanh", ("x",)), ("p", "mul", ("h", "w")), ("t", "tanh", ("p",)),
                           ("q", "add", ("h", "t")), ("out", "sum", ("q",))]  # h reaches q directly and via p, t
TWO_LAYERS: Program = [("h", "matmul", ("x", "w")), ("z", "add", ("h", "b")), ("a", "relu", ("z",)),
                       ("p", "matmul", ("a", "u")), ("out", "sum", ("p",))]
TWO_LAYERS_LEAVES = {"x": grid(3, 2), "w": grid(2, 4, scale=0.3), "b": np.array([[0.1, -0.2, 0.3, 0.05]]),
                     "u": grid(4, 2, scale=0.2)}
CUBE: Program = [("h", "mul", ("x", "x")), ("k", "mul", ("h", "c")), ("out", "sum", ("k",))]
DRIFT: Program = [("h", "mul", ("x", "z")), ("q", "add", ("h", "y")), ("out", "sum", ("q",))]
SCALED: Program = [("h", "mul", ("x", "w")), ("out", "sum", ("h",))]
SQUARE_MATMUL: Program = [("h", "matmul", ("x", "w")), ("t", "tanh", ("h",)), ("out", "sum", ("t",))]
SQUARE_LEAVES = {"x": grid(2, 2, scale=0.3) + np.eye(2), "w": np.array([[0.4, -1.2], [0.9, 0.3]])}


def square_matmul_grads(transposed: bool) -> dict[str, np.ndarray]:
    grad = engine_gradients_reference(SQUARE_MATMUL, SQUARE_LEAVES, ["w"])["w"]
    return {"w": np.ascontiguousarray(grad.T) if transposed else grad}


def torch_grads(program: Program, leaves: Leaves, names: list[str]) -> dict[str, np.ndarray]:
    grads = engine_gradients_reference(program, leaves, names)
    return {name: grads[name] for name in names}


def one_element_off(program: Program, leaves: Leaves, name: str) -> dict[str, np.ndarray]:
    grads = torch_grads(program, leaves, [name])
    grads[name] = grads[name].copy()
    grads[name].flat[-1] += 0.01
    return grads


def mlp_case(n: int, d: int, h: int, c: int, scale: float = 1.0, seed: int = 11) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    return (grid(n, d, scale=0.3), (np.arange(n) * 2 % c).astype(np.int64), normal(rng, (d, h)) / np.sqrt(d),
            normal(rng, (h,)) * 0.1, normal(rng, (h, c)) * scale / np.sqrt(h), normal(rng, (c,)) * 0.1)


ENGINE_ALLOWED = (*MUL_ALLOWED, *MATMUL_ALLOWED, *ORDER_ALLOWED, "tanh", "maximum", "where", "ones", "ones_like")
GRADCHECK_ALLOWED = (*ENGINE_ALLOWED, "ndindex", "allclose", "isclose", "flat", "all", "float64", "item", "ravel")
MLP_ALLOWED = (*MUL_ALLOWED, *MATMUL_ALLOWED, "tanh", "exp", "log", "max", "mean", "eye", "zeros_like",
               "take_along_axis", "logaddexp", "ones")

ENGINE_INPUTS = ("The cases draw programs of 2 to 6 steps over 3 to 6 float64 leaves of 0 to 2 dims (sizes 1 to 4) "
                 "with every op, broadcasting (a bias, a scale, a column times a row), a value used twice, leaves "
                 "that need no grad and leaves the output does not use.")
GRADCHECK_INPUTS = ("The cases draw programs of smooth ops (add, mul, matmul, tanh, then sum) over float64 leaves, "
                    "and claimed gradients of 1 to 3 leaves: right (torch's) or wrong (doubled, negated, "
                    "transposed, one element off, the wrong shape), right ones off by a tiny relative error, and "
                    "gradients near 0.")
MLP_INPUTS = ("The cases draw N from 1 to 6 samples, D, H and C from 1 to 5 (square ones too), int64 targets, "
              "and now and then second-layer weights 30 times larger (logits in the tens).")

ENGINE_HINT = ("When a value feeds two later steps, what must happen to the two gradients that come back to it, "
               "and when may a node hand its gradient on?")
GRADCHECK_HINT = ("How large is the error of a one-sided difference next to a central one, and when is an absolute "
                  "difference of 1e-4 small or large?")
MLP_HINT = ("Which gradient does the mean cross-entropy send into the logits, and which shape must each gradient "
            "have to match the value it belongs to?")

ENGINE_GRADIENTS = Task(
    name="engine_gradients", reference=engine_gradients_reference,
    examples=[(LINEAR, LINEAR_LEAVES, ["w", "b"]), (SQUARED, {"x": np.array([1.0, -2.0, 3.0])}, ["x"])],
    clauses=[
        Clause("a value used twice gets both gradients, added (the second does not replace the first)",
               (TWO_PATHS, {"x": grid(2, 3), "w": grid(3, scale=0.4)}, ["x", "w"])),
        Clause("a value used twice gets both gradients, added (the second does not replace the first)",
               (SQUARED, {"x": grid(2, 2)}, ["x"])),
        Clause("add and mul broadcast: each gradient is summed back to its input's shape (`sum_to_shape`)",
               (BROADCAST_BOTH, {"s": grid(3, 1), "v": grid(4, scale=0.3), "c": np.asarray(0.3)}, ["s", "v", "c"])),
        Clause("a node runs only once every gradient has reached it (topological order: a short and a long path)",
               (SHORT_AND_LONG, {"x": grid(2, 3), "w": grid(2, 3, scale=0.4)}, ["x", "w"])),
        Clause("a node runs only once every gradient has reached it (topological order: a short and a long path)",
               (TWO_LAYERS, TWO_LAYERS_LEAVES, ["x", "w", "b", "u"])),
        Clause("a leaf that does not require grad gets no gradient: None, and none is sent into it",
               (LINEAR, LINEAR_LEAVES, ["w"])),
        Clause("`matmul`'s gradients have their inputs' shapes (not square)",
               (TWO_LAYERS, TWO_LAYERS_LEAVES, ["w", "u"])),
        Clause("a leaf the output does not use keeps grad None",
               (LINEAR, {**LINEAR_LEAVES, "c": np.asarray(2.0)}, ["x", "c"])),
        Clause("relu passes the gradient where its input is positive; tanh multiplies by 1 - tanh²",
               ([("h", "relu", ("x",)), ("t", "tanh", ("h",)), ("out", "sum", ("t",))], {"x": grid(2, 3)}, ["x"])),
        Clause("return a dict of every leaf's grad (a float64 array, or None)",
               ([("out", "sum", ("x",))], {"x": grid(4), "y": grid(2)}, ["x", "y"])),
    ],
    random_case=random_engine_case, tolerance=GRADIENT_TOLERANCE,
    hint=ENGINE_HINT, allowed=ENGINE_ALLOWED, inputs=ENGINE_INPUTS,
)
GRADCHECK = Task(
    name="gradcheck", reference=gradcheck_reference,
    examples=[(SQUARED, {"x": np.array([1.0, -2.0])}, {"x": np.array([2.0, -4.0])}),
              (SQUARED, {"x": np.array([1.0, -2.0])}, {"x": np.array([1.0, -2.0])})],
    clauses=[
        Clause("accept right gradients (here the transposes of a square matmul's are right)", (
            SQUARE_MATMUL, SQUARE_LEAVES, square_matmul_grads(False))),
        Clause("reject a wrong one: compare element by element (a transposed gradient has the same sum)", (
            SQUARE_MATMUL, SQUARE_LEAVES, square_matmul_grads(True))),
        Clause("reject a wrong one: compare every element (here only the last is wrong)",
               (TWO_PATHS, {"x": grid(2, 3), "w": grid(3, scale=0.4)}, one_element_off(
                   TWO_PATHS, {"x": grid(2, 3), "w": grid(3, scale=0.4)}, "x"))),
        Clause("check every leaf in `grads` (here the second one is wrong)",
               (LINEAR, LINEAR_LEAVES, {**torch_grads(LINEAR, LINEAR_LEAVES, ["w"]),
                                        "b": torch_grads(LINEAR, LINEAR_LEAVES, ["b"])["b"] * 2})),
        Clause("central differences (f(x + eps) - f(x - eps)) / (2 eps): a one-sided one is off by eps f''/2",
               (CUBE, {"x": np.array([1e-4, -2e-4, 3e-4]), "c": np.asarray(2e4)},
                torch_grads(CUBE, {"x": np.array([1e-4, -2e-4, 3e-4]), "c": np.asarray(2e4)}, ["x"]))),
        Clause("|claimed - numeric| <= atol + rtol * |numeric|: a tiny relative error of a large gradient passes",
               (SCALED, {"x": grid(2, 3), "w": grid(2, 3, scale=40.0) + 150.0},
                {"x": (grid(2, 3, scale=40.0) + 150.0) * (1 + 1e-4)})),
        Clause("|claimed - numeric| <= atol + rtol * |numeric|: near 0, atol decides",
               (DRIFT, {"x": grid(2, 2), "z": np.full((2, 2), 1e-20), "y": grid(2, 2) + 1.0},
                {"x": np.full((2, 2), 1e-20)})),
        Clause("a claimed gradient whose shape is not its leaf's is wrong: return False (do not raise)",
               (LINEAR, LINEAR_LEAVES, {"w": torch_grads(LINEAR, LINEAR_LEAVES, ["w"])["w"].T.copy()})),
        Clause("return a Python bool; do not change `leaves`", (SQUARED, {"x": grid(3, 2)}, torch_grads(
            SQUARED, {"x": grid(3, 2)}, ["x"]))),
    ],
    random_case=random_gradcheck_case, tolerance=GRADIENT_TOLERANCE,
    hint=GRADCHECK_HINT, allowed=GRADCHECK_ALLOWED, inputs=GRADCHECK_INPUTS,
)
MLP_BACKWARD = Task(
    name="mlp_backward", reference=mlp_backward_reference,
    examples=[mlp_case(4, 3, 5, 2), mlp_case(2, 2, 3, 4, seed=3)],
    clauses=[
        Clause("`logits`: softmax minus the one-hot target, divided by N (the loss is a mean)", mlp_case(5, 2, 3, 3)),
        Clause("`w2`, `w1` have the weights' shapes and are not transposed (square layers)", mlp_case(3, 4, 4, 4)),
        Clause("`b2`, `b1`: summed over the batch, shaped like the biases", mlp_case(6, 3, 2, 5, seed=5)),
        Clause("`h_pre`: `h`'s gradient times tanh's derivative, 1 - h²", mlp_case(4, 3, 6, 2, scale=3.0)),
        Clause("compute the softmax stably: logits in the thousands still give finite gradients",
               mlp_case(3, 2, 3, 3, scale=3000.0)),
        Clause("N may be 1", mlp_case(1, 3, 2, 3, seed=8)),
        Clause("C may be 1: the softmax is then 1 and every gradient 0", mlp_case(3, 2, 2, 1)),
    ],
    random_case=random_mlp_case, tolerance=GRADIENT_TOLERANCE,
    hint=MLP_HINT, allowed=MLP_ALLOWED, inputs=MLP_INPUTS,
)

EXERCISE = Exercise(notebook="autograd", tasks=(SUM_TO_SHAPE, MUL_BACKWARD, MATMUL_BACKWARD, TOPOLOGICAL_ORDER, BACKPROP,
                                                ENGINE_GRADIENTS, GRADCHECK, MLP_BACKWARD))
