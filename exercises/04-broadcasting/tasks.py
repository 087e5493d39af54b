"""Unit 04, broadcasting: the shape rule, an add that broadcasts, and stretching to a shape as a view.

Each task's clauses test one sentence of the statement in ``exercises/04-broadcasting`` (the
clash nearest to the right, size 0 against 1, shapes too large to allocate, torch's strides of
a view...); the random cases mix broadcasting pairs with clashes in one or several dims,
zero-size dims, several dtypes and non-contiguous inputs.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tensorlab.grading.compare import Tolerance
from tensorlab.grading.plain import element_strides
from tensorlab.grading.random_cases import normal, random_array, random_shape
from tensorlab.grading.tasks import Clause, Exercise, Task

__all__ = ["EXERCISE", "BROADCAST_ADD", "BROADCAST_SHAPE", "EXPAND_TO", "normal", "random_shape"]

NUMPY_BROADCASTING = ("numpy.broadcast_shapes", "numpy.broadcast", "numpy.broadcast_to", "numpy.broadcast_arrays")
DTYPES = (np.float64, np.float64, np.int64, np.float32, np.int32)  # float64 twice: the usual case


def _tensorlab() -> Any:
    import tensorlab

    return tensorlab


def random_shape_pair(rng: np.random.Generator, huge: bool = False) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Two shapes that broadcast (three times in four) or clash in one or more dims.

    Both sides stretch (either may hold the 1), one is often shorter, one pair in six has a
    zero-size dim; with ``huge``, one pair in eight has sizes no array of that shape could fit.
    """
    full = [int(size) for size in rng.integers(1, 5, size=rng.integers(0, 6))]
    if full and rng.random() < 1 / 6:
        full[int(rng.integers(0, len(full)))] = 0
    a = [1 if rng.random() < 0.3 else size for size in full]
    b = [1 if rng.random() < 0.3 else size for size in full]
    if full and rng.random() < 0.25:
        clashing = rng.choice(len(full), size=int(rng.integers(1, len(full) + 1)), replace=False)
        for dim in clashing:
            a[dim], b[dim] = (int(size) for size in rng.choice([0, 2, 3, 4, 5], size=2, replace=False))
    if rng.random() < 0.5:
        b = b[int(rng.integers(0, len(b) + 1)):]
    if huge and rng.random() < 1 / 8:
        a, b = [size * 100_003 if size > 1 else size for size in a], [size * 100_003 if size > 1 else size for size in b]
    return (tuple(a), tuple(b)) if rng.random() < 0.5 else (tuple(b), tuple(a))


def random_shapes_case(rng: np.random.Generator) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return random_shape_pair(rng, huge=True)


def random_add_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    a, b = random_shape_pair(rng)
    dtype = DTYPES[int(rng.integers(0, len(DTYPES)))]
    return random_array(rng, a, dtype), random_array(rng, b, dtype)


def random_expand_case(rng: np.random.Generator) -> tuple[np.ndarray, tuple[int, ...]]:
    """A target and an x that stretches to it (size-1 dims, fewer dims); one time in five x does not fit.

    No target has a zero-size dim: an empty result shares no memory, so it could not be graded as a view.
    """
    target = random_shape(rng, max_ndim=5)
    small = [1 if rng.random() < 0.5 else size for size in target][int(rng.integers(0, len(target) + 1)):]
    if rng.random() < 0.2:
        if small and rng.random() < 0.6:
            dim = int(rng.integers(0, len(small)))
            small[dim] = int(rng.choice([size for size in (0, 2, 3, 4, 5) if size != target[len(target) - len(small) + dim]]))
        else:
            small = [int(size) for size in rng.integers(1, 4, size=len(target) - len(small) + 1)] + small
    dtype = DTYPES[int(rng.integers(0, len(DTYPES)))]
    return random_array(rng, tuple(small), dtype), target


def broadcast_shape_reference(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(_tensorlab().broadcast_shapes(a, b))


def broadcast_add_reference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    tensorlab = _tensorlab()
    return (tensorlab.tensor(a) + tensorlab.tensor(b)).numpy()


def expand_to_reference(x: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    return _tensorlab().tensor(x).expand(tuple(shape)).numpy().copy()


def expand_to_strides(x: np.ndarray, shape: tuple[int, ...]) -> tuple[int, ...]:
    """torch's strides of x.expand(shape), for x laid out as it arrives in the sandbox."""
    strides = element_strides(x)
    span = 1 + sum((size - 1) * stride for size, stride in zip(x.shape, strides, strict=True))
    tensorlab = _tensorlab()
    return tuple(tensorlab.zeros(span).as_strided(x.shape, strides).expand(tuple(shape)).stride())


# What the cases draw, as the notebook says it (each statement quotes its sentence).
SHAPE_INPUTS = ("`a` and `b` are tuples of 0 to 5 sizes ≥ 0: the empty shape `()`, sizes 0 and 1, shapes of "
                "different lengths, pairs that clash in one or several dims, and sizes far too large to allocate.")
ADD_INPUTS = ("`a` and `b` are arrays of one dtype (float64, float32, int64 or int32) with 0 to 5 dims: 0-d arrays, "
              "size-0 dims, shapes of different lengths, shapes that clash in one or several dims, and "
              "non-contiguous views (a transpose, every other column).")
EXPAND_INPUTS = ("`x` is an array of float64, float32, int64 or int32 with 0 to 6 dims (sizes 0 to 5, possibly a "
                 "non-contiguous view: a transpose, every other column) and `shape` a tuple of 0 to 5 sizes ≥ 1; "
                 "`x` may not fit `shape`: more dims than it, or a size other than 1 (0 included) that differs.")


BROADCAST_SHAPE = Task(
    name="broadcast_shape",
    reference=broadcast_shape_reference,
    examples=[((3, 1), (4,)), ((5, 1, 4, 1), (3, 1, 1)), ((), (2, 3)), ((5, 2, 4, 1), (3, 1, 1))],
    clauses=[
        Clause("pad the shorter with 1s on the left", ((2, 3), (4, 1, 1))),
        Clause("pad the shorter with 1s on the left", ((4, 1, 1), (2, 3))),
        Clause("a size 1 stretches to the other size, in either shape", ((1, 3, 1), (2, 1, 4))),
        Clause("equal sizes stay", ((2, 3), (2, 3))),
        Clause("two 0-d shapes give ()", ((), ())),
        Clause("a size 0 against a 1 gives 0", ((0, 1), (1, 3))),
        Clause("a size 0 against a size other than 0 or 1 clashes: raise RuntimeError", ((2, 0), (3,))),
        Clause("if a pair clashes, raise RuntimeError", ((2, 3), (3,))),
        Clause("if a pair clashes, raise RuntimeError (also in a leading dim)", ((2, 1, 4), (3, 5, 4))),
        Clause("work from the shapes alone: they may be far too large to allocate",
               ((1_000_000, 1, 1_000_000), (1, 1_000_000, 1))),
        Clause("work from the shapes alone: sizes are exact ints, however large", ((10**16 + 1, 1), (1, 3))),
    ],
    random_case=random_shapes_case,
    hint="Lined up from the right, which pairs of sizes can share a dimension (and what may a size 0 pair "
    "with), and what does the shorter shape hold where it has no size?",
    inputs=SHAPE_INPUTS,
    allowed=("append", "insert", "reverse", "pop", "reversed", "set", "zip_longest", "array", "ones", "where",
             "any", "tolist", "warn"),
    forbidden=(*NUMPY_BROADCASTING, "torch.broadcast_shapes", "tensorlab.broadcast_shapes"),
)

BROADCAST_ADD = Task(
    name="broadcast_add",
    reference=broadcast_add_reference,
    examples=[
        (np.array([[2], [4], [6]]), np.array([10, 20, 30, 40])),
        (np.ones((2, 3)), np.arange(3.0)),
        (np.ones((5, 2, 4, 1)), np.ones((3, 1, 1))),
    ],
    clauses=[
        Clause("raise torch's error rather than NumPy's ValueError", (np.ones(2), np.ones(3))),
        Clause("the dimension counts from the left of the broadcast result", (np.ones((2, 3)), np.ones((5, 4, 3)))),
        Clause("the dimension counts from the left of the broadcast result", (np.ones((5, 4, 3)), np.ones((2, 3)))),
        Clause("report the clash nearest to the right", (np.ones((2, 3)), np.ones((3, 4)))),
        Clause("report the clash nearest to the right", (np.ones((2, 3, 1, 5)), np.ones((4, 1, 6)))),
        Clause("a clash in a leading dimension raises too", (np.ones((2, 3, 4)), np.ones((5, 3, 4)))),
        Clause("a size 0 against a 1 gives 0", (np.ones((0, 1)), np.arange(3.0).reshape(1, 3))),
        Clause("a size 0 against a size other than 0 or 1 is a clash", (np.ones((2, 0)), np.ones(3))),
        Clause("0-d inputs broadcast like any other", (np.array(2.5), np.arange(6.0).reshape(2, 3))),
        Clause("both inputs 0-d: the result is a 0-d array (NumPy's a + b gives a scalar there)",
               (np.array(2.5), np.array(-1.0))),
        Clause("both inputs 0-d: the result is a 0-d array (NumPy's a + b gives a scalar there)",
               (np.array(3, np.int32), np.array(4, np.int32))),
        Clause("the result keeps the inputs' dtype", (np.arange(6).reshape(2, 3), np.array([[10], [20]]))),
        Clause("the result keeps the inputs' dtype", (np.ones((3, 1), np.float32), np.arange(4, dtype=np.float32))),
        Clause("a and b are left unchanged", (np.arange(6.0).reshape(2, 3), np.ones((2, 3)))),
        Clause("return a new array, never a or b itself (even when b adds nothing)",
               (np.arange(6.0).reshape(2, 3), np.zeros((2, 3)))),
        Clause("return a new array, never a or b itself (even when b adds nothing)",
               (np.zeros((1, 3)), np.arange(3.0))),
        Clause("inputs may be non-contiguous views", (np.arange(12.0).reshape(3, 4)[:, ::2], np.arange(6.0).reshape(2, 3).T)),
    ],
    random_case=random_add_case,
    hint="When several dimensions clash, which one does torch report, and is its number counted in a's own "
    "shape or in the broadcast result's?",
    inputs=ADD_INPUTS,
    allowed=("asarray", "array", "add", "reversed", "flatnonzero", "copy", "warn"),
    tolerance=Tolerance(match_message=True, scalar_for_0d=False), fresh_result=True,
)

EXPAND_TO = Task(
    name="expand_to",
    reference=expand_to_reference,
    examples=[(np.array([[1], [2], [3]]), (3, 4)), (np.arange(3.0), (2, 3)), (np.array(7.0), (2, 2))],
    clauses=[
        Clause("a stretched dimension has stride 0", (np.arange(3.0).reshape(3, 1), (3, 5))),
        Clause("a new leading dimension that is stretched has stride 0", (np.arange(6).reshape(2, 3), (4, 2, 3))),
        Clause("a new leading dimension of size 1 takes the size × stride of the dimension to its right",
               (np.arange(6.0).reshape(2, 3), (1, 1, 2, 3))),
        Clause("a new leading dimension of size 1 takes the size × stride of the dimension to its right",
               (np.arange(3.0).reshape(1, 3), (1, 4, 3))),
        Clause("a dimension that is not stretched keeps x's stride (x may be a non-contiguous view)",
               (np.arange(24.0).reshape(4, 6)[:1, ::2], (2, 5, 3))),
        Clause("a dimension that is not stretched keeps x's stride (x may be a non-contiguous view)",
               (np.arange(12).reshape(3, 4).T, (2, 4, 3))),
        Clause("keep the dtype", (np.array([[1.5], [2.5]], np.float32), (2, 3))),
        Clause("a 0-d x stretches to any shape", (np.array(3), (2, 1, 3))),
        Clause("raise RuntimeError when shape has fewer dimensions than x", (np.ones((2, 3)), (3,))),
        Clause("raise RuntimeError when shape has fewer dimensions than x", (np.ones((1, 3)), (3,))),
        Clause("raise RuntimeError when a size that is not 1 differs from the target", (np.ones((2, 3)), (2, 4))),
        Clause("raise RuntimeError when a size that is not 1 differs from the target", (np.ones((2, 1)), (3, 1))),
        Clause("raise RuntimeError when a size that is not 1 differs from the target (0 is not 1)", (np.ones((0, 3)), (2, 3))),
        Clause("x is left unchanged", (np.arange(4.0), (3, 2, 4))),
    ],
    random_case=random_expand_case,
    hint="Which stride makes every index along a dimension read the same element, and which dimensions of "
    "the target really repeat an element, as opposed to a new leading one of size 1 that torch still lays out?",
    inputs=EXPAND_INPUTS,
    allowed=("strides", "lib", "stride_tricks", "as_strided", "array", "where", "any", "tolist", "insert", "append",
             "reversed", "zip_longest"),
    forbidden=(*NUMPY_BROADCASTING, "torch.broadcast_to", "tensorlab.broadcast_to"),
    view_of=0,
    view_strides=expand_to_strides,
)

EXERCISE = Exercise(notebook="broadcasting", tasks=(BROADCAST_SHAPE, BROADCAST_ADD, EXPAND_TO))
