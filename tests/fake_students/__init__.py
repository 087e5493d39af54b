"""Fake students of the three pilot exercises, each with its known score.

Exercise 04 (broadcasting) has the whole cast: honest, careless and hostile (``STUDENTS``).
Exercises 08 (gather/scatter) and 11 (autograd) have a perfect, a blank and plausible wrong
solutions, and 08 a forbidden library call (``STUDENTS_08``, ``STUDENTS_11``); exercise 13
(Triton kernels) a perfect, a blank and one with an unmasked store and a forbidden conversion. A student is a
starting notebook (the solution or the released blank) plus replaced cells, keyed by nbgrader
grade_id (``None`` deletes the cell). ``expected`` is the score each graded function must get;
``ROSTERS`` maps each assignment to its notebook name and its students.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import nbformat

FULL = {"broadcast_shape": 2, "broadcast_add": 3, "expand_to": 2}
FULL_08 = {"gather_loops": 2, "scatter_add_loops": 2, "gather_vectorised": 3, "scatter_add_vectorised": 3}
FULL_11 = {"sum_to_shape": 2, "mul_backward": 2, "matmul_backward": 2, "topological_order": 2, "backprop": 2,
           "engine_gradients": 3, "gradcheck": 2, "mlp_backward": 3}
ZERO = dict.fromkeys(FULL, 0)
TESTS = ("test_broadcast_shape", "test_broadcast_add", "test_expand_to")


def losing(full: dict[str, int], *functions: str) -> dict[str, int]:
    """``full`` marks except zero for ``functions``."""
    return {**full, **dict.fromkeys(functions, 0)}


@dataclass(frozen=True)
class FakeStudent:
    name: str
    start: str  # "solution" or "released"
    cells: dict[str, str | None] = field(default_factory=dict)
    expected: dict[str, int] = field(default_factory=lambda: dict(FULL))

    def write(self, solution: Path, released: Path, destination: Path) -> None:
        notebook = nbformat.read(str(solution if self.start == "solution" else released), as_version=4)
        kept = []
        for cell in notebook.cells:
            grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
            if grade_id in self.cells:
                if self.cells[grade_id] is None:
                    continue
                cell.source = self.cells[grade_id]
            kept.append(cell)
        notebook.cells = kept
        destination.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(notebook, str(destination))


STUDENTS = [
    FakeStudent("perfect", "solution"),
    FakeStudent("blank", "released", expected=dict(ZERO)),
    FakeStudent("warns", "solution", cells={
        "broadcast_add_solution": '''
import warnings
def broadcast_add(a, b):
    warnings.warn("this add is slow", UserWarning)
    print("debugging output")
    ndim = max(a.ndim, b.ndim)
    sa, sb = (1,) * (ndim - a.ndim) + a.shape, (1,) * (ndim - b.ndim) + b.shape
    for dim in reversed(range(ndim)):
        if sa[dim] != sb[dim] and 1 not in (sa[dim], sb[dim]):
            raise RuntimeError(f"The size of tensor a ({sa[dim]}) must match the size of tensor b ({sb[dim]}) at non-singleton dimension {dim}")
    return np.asarray(a + b)
'''}),
    FakeStudent("patcher", "released", expected=dict(ZERO), cells={
        "broadcast_shape_solution": '''
import numpy
import tensorlab.grading
tensorlab.grading.check = lambda *args, **kwargs: None
numpy.testing.assert_allclose = lambda *args, **kwargs: None
numpy.allclose = lambda *args, **kwargs: True
numpy.array_equal = lambda *args, **kwargs: True
tensorlab.grading.compare.difference = lambda *args, **kwargs: None
def broadcast_shape(a, b):
    return (1,)
''',
        "test_broadcast_shape": "check = lambda *args: None\ncheck('broadcast_shape', broadcast_shape)",
    }),
    FakeStudent("always_equal", "released", expected=dict(ZERO), cells={
        "broadcast_shape_solution": '''
class Anything(tuple):
    def __eq__(self, other): return True
    def __ne__(self, other): return False
def broadcast_shape(a, b):
    return Anything()
''',
        "broadcast_add_solution": '''
class AnyArray(np.ndarray):
    def __eq__(self, other): return np.ones(np.shape(other), bool)
def broadcast_add(a, b):
    return np.zeros(1).view(AnyArray)
''',
        "expand_to_solution": "def expand_to(x, shape):\n    return type('Same', (), {'__eq__': lambda s, o: True})()",
    }),
    FakeStudent("infinite_loop", "solution", expected={**FULL, "broadcast_shape": 0}, cells={
        "broadcast_shape_solution": "def broadcast_shape(a, b):\n    while True:\n        pass",
    }),
    FakeStudent("crasher", "solution", expected={**FULL, "broadcast_add": 0, "expand_to": 0}, cells={
        "broadcast_add_solution": "import os\ndef broadcast_add(a, b):\n    os._exit(1)",
        "expand_to_solution": "import ctypes\ndef expand_to(x, shape):\n    return ctypes.string_at(0)",
    }),
    FakeStudent("memory_hog", "solution", expected={**FULL, "expand_to": 0}, cells={
        "expand_to_solution": "def expand_to(x, shape):\n    hog = []\n    while True:\n        hog.append(bytearray(50_000_000))",
    }),
    FakeStudent("syntax_error", "solution", expected={**FULL, "broadcast_add": 0}, cells={
        "broadcast_add_solution": "def broadcast_add(a, b)\n    return a + b",
    }),
    FakeStudent("deleted_tests", "solution", cells=dict.fromkeys(TESTS)),
    FakeStudent("edited_tests_correct", "solution", cells=dict.fromkeys(TESTS, "print('all tests pass')")),
    FakeStudent("edited_tests_blank", "released", expected=dict(ZERO), cells=dict.fromkeys(TESTS, "assert True")),
    FakeStudent("forbidden", "solution", expected={**FULL, "broadcast_shape": 0, "expand_to": 0}, cells={
        "broadcast_shape_solution": "def broadcast_shape(a, b):\n    return tuple(np.broadcast_shapes(a, b))",
        "expand_to_solution": "def expand_to(x, shape):\n    return getattr(np, 'broadcast_' + 'to')(x, shape).copy()",
    }),
]

STUDENTS_08 = [
    FakeStudent("perfect", "solution", expected=dict(FULL_08)),
    FakeStudent("blank", "released", expected=losing(FULL_08, *FULL_08)),
    FakeStudent("overwrites_repeats", "solution", expected=losing(FULL_08, "scatter_add_loops"), cells={
        "scatter_add_loops_solution": """
def scatter_add_loops(x, dim, index, src):
    out = x.copy()
    for position in np.ndindex(*index.shape):
        target = list(position)
        target[dim] = index[position]
        out[tuple(target)] = src[position]
    return out
""",
    }),
    FakeStudent("fancy_index_add", "solution", expected=losing(FULL_08, "scatter_add_vectorised"), cells={
        "scatter_add_vectorised_solution": """
def scatter_add_vectorised(x, dim, index, src):
    out = x.copy()
    coordinates = list(np.indices(index.shape, sparse=True))
    coordinates[dim] = index
    out[tuple(coordinates)] += src[tuple(slice(0, size) for size in index.shape)]
    return out
""",
    }),
    FakeStudent("forbidden", "solution", expected=losing(FULL_08, "gather_loops", "gather_vectorised"), cells={
        "gather_loops_solution": "def gather_loops(x, dim, index):\n    return getattr(np, 'take_along_' + 'axis')(x, index, dim)",
        "gather_vectorised_solution": "def gather_vectorised(x, dim, index):\n    return np.take_along_axis(x, index, axis=dim)",
    }),
    # loops dressed as vectorised: a helper with a for loop, and np.frompyfunc (a loop per element)
    FakeStudent("loops_in_vectorised", "solution", expected=losing(FULL_08, "gather_vectorised", "scatter_add_vectorised"), cells={
        "gather_vectorised_solution": "def gather_vectorised(x, dim, index):\n    return gather_loops(x, dim, index)",
        "scatter_add_vectorised_solution": """
def scatter_add_vectorised(x, dim, index, src):
    out = x.copy()
    def add(*position):
        target = list(position)
        target[dim] = index[position]
        out[tuple(target)] += src[position]
    np.frompyfunc(add, index.ndim, 1)(*np.indices(index.shape))
    return out
""",
    }),
]

STUDENTS_11 = [
    FakeStudent("perfect", "solution", expected=dict(FULL_11)),
    FakeStudent("blank", "released", expected=losing(FULL_11, *FULL_11)),
    # sums shape's size-1 dims at the same positions of grad, before the leading dims are gone; once
    # passed the public checks; mul_backward and the Tensor engine call it, so it costs all three (not the
    # MLP's biases: summing over the batch alone, it lines up)
    FakeStudent("misaligned_unbroadcast", "solution", expected=losing(FULL_11, "sum_to_shape", "mul_backward",
                                                                       "engine_gradients"), cells={
        "sum_to_shape_solution": """
def sum_to_shape(grad, shape):
    stretched = tuple(dim for dim, size in enumerate(shape) if size == 1 and grad.shape[dim] != 1)
    if stretched:
        grad = grad.sum(axis=stretched, keepdims=True)
    return np.asarray(grad.sum(axis=tuple(range(grad.ndim - len(shape)))))
""",
    }),
    # backprop calls the learner's own topological_order, so one mistake costs both
    FakeStudent("unreversed_order", "solution", expected=losing(FULL_11, "topological_order", "backprop"), cells={
        "topological_order_solution": """
def topological_order(graph, root):
    order, visited = [], set()
    def visit(node):
        visited.add(node)
        for source in graph.get(node, []):
            if source not in visited:
                visit(source)
        order.append(node)
    visit(root)
    return order
""",
    }),
    # the Tensor engine and the MLP by hand call matmul_backward, so they lose theirs too
    FakeStudent("transposed_matmul_grad", "solution", expected=losing(FULL_11, "matmul_backward", "engine_gradients",
                                                                       "mlp_backward"), cells={
        "matmul_backward_solution": "def matmul_backward(grad, a, b):\n    return grad @ b.T, grad.T @ a",
    }),
]

FULL_13 = {"bias_relu_kernel": 2, "row_softmax_kernel": 3, "matmul_tile_kernel": 3, "round_to_format": 3}
STUDENTS_13 = [  # Triton kernels graded on the interpreter: each submission starts torch and triton once
    FakeStudent("perfect", "solution", expected=dict(FULL_13)),
    FakeStudent("blank", "released", expected=losing(FULL_13, *FULL_13)),
    # the store is not masked (it writes past the rows' ends: the canaries say so), and fp16 by astype
    FakeStudent("unmasked_store_and_astype", "solution", expected=losing(FULL_13, "bias_relu_kernel", "round_to_format"),
                cells={
        "bias_relu_kernel_solution": """
@triton.jit
def bias_relu_kernel(x_ptr, bias_ptr, out_ptr, n_rows, n_cols, stride_x_row, stride_out_row,
                     BLOCK_ROWS: tl.constexpr, BLOCK_COLS: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_ROWS + tl.arange(0, BLOCK_ROWS)
    cols = tl.program_id(1) * BLOCK_COLS + tl.arange(0, BLOCK_COLS)
    inside = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    x = tl.load(x_ptr + rows[:, None] * stride_x_row + cols[None, :], mask=inside)
    bias = tl.load(bias_ptr + cols, mask=cols < n_cols)
    tl.store(out_ptr + rows[:, None] * stride_out_row + cols[None, :], tl.maximum(x + bias[None, :], 0.0))
""",
        "round_to_format_solution": """
def round_to_format(x, fmt):
    return np.asarray(x, dtype=np.float64).astype(np.float32).astype(np.float16).astype(np.float64)
""",
    }),
]

ROSTERS = {
    "04-broadcasting": ("broadcasting", STUDENTS),
    "08-gather-scatter": ("gather_scatter", STUDENTS_08),
    "11-autograd": ("autograd", STUDENTS_11),
    "13-kernels-and-precision": ("kernels_precision", STUDENTS_13),
}
