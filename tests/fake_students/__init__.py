"""Fake students for exercise 04 (broadcasting): honest, careless and hostile, each with its known score.

A student is a starting notebook (the solution or the released blank) plus replaced cells,
keyed by nbgrader grade_id (``None`` deletes the cell). ``expected`` is the score each graded
function must get: broadcast_shape 2, broadcast_add 3, expand_to 2.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import nbformat

FULL = {"broadcast_shape": 2, "broadcast_add": 3, "expand_to": 2}
ZERO = dict.fromkeys(FULL, 0)
TESTS = ("test_broadcast_shape", "test_broadcast_add", "test_expand_to")

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
import sys, warnings
def broadcast_add(a, b):
    warnings.warn("this add is slow", UserWarning)
    print("debugging output", file=sys.stderr)
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
