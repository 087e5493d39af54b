"""Unit 08, gather and scatter_add: first with loops over the index, then vectorised."""

from __future__ import annotations

import numpy as np

from tensorlab.grading.random_cases import maybe_strided, normal
from tensorlab.grading.tasks import Clause, Exercise, Task

__all__ = ["EXERCISE", "GATHER_LOOPS", "GATHER_VECTORISED", "SCATTER_ADD_LOOPS", "SCATTER_ADD_VECTORISED"]

LIBRARY_GATHERS = (
    "numpy.take_along_axis", "numpy.take", "numpy.choose",
    "torch.gather", "torch.Tensor.gather", "torch.take_along_dim",
    "tensorlab.gather", "tensorlab.Tensor.gather", "tensorlab.take_along_dim",
)
LIBRARY_SCATTERS = (
    "numpy.put_along_axis", "torch.scatter_add", "torch.Tensor.scatter_add", "torch.Tensor.scatter_add_",
    "torch.index_add", "tensorlab.scatter_add", "tensorlab.Tensor.scatter_add", "tensorlab.Tensor.scatter_add_",
    "tensorlab.index_add",
)
LARGE_SHAPE = (1000, 6)  # the large case's index: a loop over its rows or positions runs thousands of lines
LARGE_DIM_SIZE = 16  # ...aimed at a dim of this size, so every target is hit many times


def gather_reference(x: np.ndarray, dim: int, index: np.ndarray) -> np.ndarray:
    """tensorlab's gather, on the arrays themselves (no copies)."""
    import tensorlab

    return tensorlab.gather(tensorlab.from_numpy(x), dim, tensorlab.from_numpy(index)).numpy()


def scatter_add_reference(x: np.ndarray, dim: int, index: np.ndarray, src: np.ndarray) -> np.ndarray:
    """tensorlab's out-of-place scatter_add (it leaves x alone), without copies, as gather_reference."""
    import tensorlab

    return tensorlab.from_numpy(x).scatter_add(dim, tensorlab.from_numpy(index), tensorlab.from_numpy(src)).numpy()


# --- random cases ---------------------------------------------------------------------------
def random_values(rng: np.random.Generator, shape: tuple[int, ...], integer: bool) -> np.ndarray:
    if integer:
        return rng.integers(-9, 10, size=shape).astype(np.int64)
    return normal(rng, shape)


def random_shapes(rng: np.random.Generator) -> tuple[list[int], int, list[int]]:
    """x's shape, a dim, and index's shape: no bigger than x off dim, any length along dim.

    One time in eight some dim of index has size 0 (and, half of those times, x's too).
    """
    shape = [int(size) for size in rng.integers(1, 5, size=rng.integers(1, 4))]
    dim = int(rng.integers(0, len(shape)))
    index_shape = [int(rng.integers(1, size + 1)) for size in shape]
    index_shape[dim] = int(rng.integers(1, 5))
    if rng.random() < 0.125:
        empty = int(rng.integers(0, len(shape)))
        index_shape[empty] = 0
        if rng.random() < 0.5:
            shape[empty] = 0
    return shape, dim, index_shape


def random_index(rng: np.random.Generator, size_along_dim: int, index_shape: list[int]) -> np.ndarray:
    """An int64 index with values in 0..size_along_dim - 1 (empty when there is nothing to point at)."""
    return rng.integers(0, max(size_along_dim, 1), size=index_shape).astype(np.int64)


def negative_sometimes(rng: np.random.Generator, dim: int, ndim: int) -> int:
    """One time in four, the same dim counted from the end, as torch allows."""
    return dim - ndim if rng.random() < 0.25 else dim


def random_gather_case(rng: np.random.Generator) -> tuple[np.ndarray, int, np.ndarray]:
    shape, dim, index_shape = random_shapes(rng)
    x = random_values(rng, tuple(shape), integer=rng.random() < 0.25)
    index = random_index(rng, shape[dim], index_shape)
    return maybe_strided(rng, x), negative_sometimes(rng, dim, len(shape)), maybe_strided(rng, index)


def random_scatter_case(rng: np.random.Generator) -> tuple[np.ndarray, int, np.ndarray, np.ndarray]:
    """x, dim, index as for gather, and src of x's dtype, index's shape or bigger by one in some dims."""
    x, dim, index = random_gather_case(rng)
    src_shape = tuple(size + int(rng.integers(0, 2)) for size in index.shape)
    src = random_values(rng, src_shape, integer=x.dtype.kind == "i")
    if x.dtype.kind == "i" and rng.random() < 0.3:  # past 2**53: a sum done in float64 comes out wrong
        x = x + BIG
    return x, dim, index, maybe_strided(rng, src)


def large_gather_case(rng: np.random.Generator) -> tuple[np.ndarray, int, np.ndarray]:
    """Six thousand positions: a Python loop over them runs thousands of lines, NumPy indexing a handful."""
    dim = int(rng.integers(0, 2))
    shape = list(LARGE_SHAPE)
    shape[dim] = LARGE_DIM_SIZE
    index = rng.integers(0, LARGE_DIM_SIZE, size=LARGE_SHAPE).astype(np.int64)
    return normal(rng, tuple(shape)), dim, index


def large_scatter_case(rng: np.random.Generator) -> tuple[np.ndarray, int, np.ndarray, np.ndarray]:
    x, dim, index = large_gather_case(rng)
    return x, dim, index, normal(rng, index.shape)


# --- fixed cases: the examples, and one case per clause of the statement -----------------------
GATHER_EXAMPLES = [
    (np.array([[1.0, 2.0], [3.0, 4.0]]), 1, np.array([[0, 0], [1, 0]])),
    (np.arange(12.0).reshape(3, 4), 0, np.array([[2, 1, 0, 0]])),
    (np.arange(6.0), 0, np.array([5, 5, 0])),
]
SCATTER_EXAMPLES = [
    (np.zeros(5), 0, np.array([0, 1, 0, 4]), np.ones(4)),
    (np.zeros((2, 3)), 1, np.array([[0, 0], [2, 1]]), np.array([[1.0, 2.0], [3.0, 4.0]])),
    (np.ones((3, 2)), 0, np.array([[2, 2], [0, 2]]), np.arange(6.0).reshape(3, 2)),
]
CUBE = np.arange(24.0).reshape(2, 3, 4)
CUBE_INDEX = np.array([[[2, 0, 1, 2]], [[1, 1, 0, 2]]])  # along dim 1 of CUBE: shape (2, 1, 4)
TRANSPOSED = np.arange(12.0).reshape(4, 3).T  # shape (3, 4), not contiguous
EVERY_OTHER_COLUMN = np.array([[2, 9, 0, 9, 1, 9], [2, 9, 1, 9, 0, 9]])[:, ::2]  # shape (2, 3), not contiguous

SAME_DIMS = "x and index have the same number of dims (at least one); every index value lies in 0 .. x.shape[dim] - 1."
INDEX_SHAPE = ("The output has index's shape: index may be longer than x along dim, and shorter than x "
               "in the other dims (then only x's leading part is read).")
EVERY_DIM = "dim may be any dim of x, e.g. the middle one of a 3-d x."
NEGATIVE_DIM = "dim may be negative and counts from the end, as in torch: -1 is the last dim."
GATHER_DTYPE = "The output has x's dtype: an int x gives an int output."
GATHER_EMPTY = "index may have a size-0 dim: the output is then empty, still with x's dtype."
ANY_STRIDES = ("x, index (and src) may be non-contiguous views (a transpose, every other column): index "
               "them as arrays, do not compute storage positions from their strides.")
REPEATS_READ = "An index value may repeat: the same element of x is read again."

GATHER_CLAUSES = [
    Clause(SAME_DIMS, (np.arange(5.0) * 1.5, 0, np.array([4, 0, 2]))),
    Clause(INDEX_SHAPE, (np.arange(12.0).reshape(3, 4), 1, np.array([[3, 0, 1, 1, 2, 0], [2, 2, 3, 0, 0, 1]]))),
    Clause(EVERY_DIM, (CUBE, 1, CUBE_INDEX)),
    Clause(NEGATIVE_DIM, (CUBE, -2, CUBE_INDEX)),
    Clause(NEGATIVE_DIM, (np.arange(12.0).reshape(3, 4), -1, np.array([[3, 1], [0, 0], [2, 3]]))),
    Clause(GATHER_DTYPE, (np.array([[7, -3, 5], [1, 0, 2]]), 1, np.array([[2, 0], [1, 1]]))),
    Clause(GATHER_EMPTY, (np.array([[7, -3, 5], [1, 0, 2]]), 0, np.zeros((0, 3), dtype=np.int64))),
    Clause(ANY_STRIDES, (TRANSPOSED, 0, EVERY_OTHER_COLUMN)),
    Clause(REPEATS_READ, (np.array([[1.5, -2.0, 4.0]]), 1, np.array([[2, 2, 2, 0, 0]]))),
]

REPEATS_ADD = "Repeated indices add up: every src value aimed at one element is added to it."
NEW_ARRAY = "Return a new array: x is unchanged."
SRC_BLOCK = "src may be bigger than index: use its leading block, src[:index.shape[0], :index.shape[1], ...]."
SCATTER_INDEX_SHAPE = ("index may be longer than x along dim, and shorter than x in the other dims "
                       "(then x's other elements are copied unchanged).")
SCATTER_DTYPE = "The result has x's dtype (src has the same one): int x and src give an int result."
SCATTER_EMPTY = "index (and src) may have a size-0 dim: then nothing is added, the result equals x."
EXACT_INTS = "int64 sums are exact, also for values past 2**53 (where float64 can no longer count by ones)."
BIG = 2**53 + 1  # the first int64 that float64 cannot hold

SCATTER_CLAUSES = [
    Clause(SAME_DIMS, (np.arange(4.0), 0, np.array([3, 0]), np.array([10.0, 20.0]))),
    Clause(REPEATS_ADD, (np.zeros(3), 0, np.array([1, 1, 1, 0, 1]), np.array([1.0, 2.0, 4.0, 8.0, 16.0]))),
    Clause(NEW_ARRAY, (np.array([[1.0, 2.0], [3.0, 4.0]]), 1, np.array([[1, 1], [0, 1]]), np.full((2, 2), 0.5))),
    Clause(SRC_BLOCK, (np.zeros((2, 3)), 1, np.array([[2, 0], [1, 1]]), np.arange(1.0, 13.0).reshape(3, 4))),
    Clause(SCATTER_INDEX_SHAPE, (np.zeros((3, 4)), 0, np.array([[2, 0], [2, 1], [0, 0], [1, 2], [2, 2]]),
                                 np.arange(1.0, 11.0).reshape(5, 2))),
    Clause(EVERY_DIM, (np.zeros((2, 3, 4)), 1, CUBE_INDEX, np.arange(1.0, 9.0).reshape(2, 1, 4))),
    Clause(NEGATIVE_DIM, (np.zeros((2, 3, 4)), -2, CUBE_INDEX, np.arange(1.0, 9.0).reshape(2, 1, 4))),
    Clause(NEGATIVE_DIM, (np.zeros((2, 3)), -1, np.array([[2, 2], [0, 1]]), np.array([[1.0, 2.0], [3.0, 4.0]]))),
    Clause(SCATTER_DTYPE, (np.array([[7, -3, 5], [1, 0, 2]]), 1, np.array([[2, 2], [0, 1]]), np.array([[1, 2], [3, 4]]))),
    Clause(SCATTER_EMPTY, (np.array([[7, -3, 5], [1, 0, 2]]), 0, np.zeros((0, 3), dtype=np.int64),
                           np.zeros((0, 3), dtype=np.int64))),
    Clause(ANY_STRIDES, (TRANSPOSED, 0, EVERY_OTHER_COLUMN, np.arange(1.0, 13.0).reshape(3, 4).T[:2, :3])),
    Clause(EXACT_INTS, (np.array([BIG, -BIG, 3]), 0, np.array([0, 0, 1, 2]), np.array([1, 1, 1, BIG]))),
    Clause(NEW_ARRAY, (np.array([[1.0, 2.0], [3.0, 4.0]]), 0, np.zeros((0, 2), dtype=np.int64), np.zeros((0, 2)))),
]

GATHER_INPUTS = ("Cases draw x of float64 or int64 with 1 to 3 dims (and one large 2-d case: an index of 6000 "
                 "positions), an int64 index with as many dims, a negative dim, a size-0 dim in index (sometimes "
                 "in x too), and non-contiguous views of x and index.")
SCATTER_INPUTS = ("Cases draw the same x, dim and index as for gather, and src of x's dtype with index's shape or "
                  "one more in some dims, sometimes a non-contiguous view; int64 x and src with values past 2**53.")

# What a loop over index's positions needs (the loops parts), and what whole-array indexing needs (vectorised).
LOOP_NAMES = ("ndindex", "ndenumerate", "empty", "zeros", "zeros_like", "copy", "array", "where", "moveaxis",
              "ascontiguousarray", "indices", "append", "product")
GATHER_LOOPS_ALLOWED = LOOP_NAMES
SCATTER_LOOPS_ALLOWED = (*LOOP_NAMES, "sum", "astype")
GATHER_VECTORISED_ALLOWED = ("indices", "arange", "reshape", "ravel", "unravel_index", "moveaxis", "copy")
SCATTER_VECTORISED_ALLOWED = ("indices", "arange", "reshape", "ravel", "unravel_index", "ravel_multi_index",
                              "moveaxis", "copy", "astype", "add", "at")

GATHER_LOOPS = Task(
    name="gather_loops", reference=gather_reference, examples=GATHER_EXAMPLES, clauses=GATHER_CLAUSES,
    random_case=random_gather_case, forbidden=LIBRARY_GATHERS, allowed=GATHER_LOOPS_ALLOWED, inputs=GATHER_INPUTS,
    hint="For one position of index, which coordinates of x does the output read there: which one of them "
    "changes, and what does it become?",
)
SCATTER_ADD_LOOPS = Task(
    name="scatter_add_loops", reference=scatter_add_reference, examples=SCATTER_EXAMPLES, clauses=SCATTER_CLAUSES,
    random_case=random_scatter_case, forbidden=LIBRARY_SCATTERS, allowed=SCATTER_LOOPS_ALLOWED,
    inputs=SCATTER_INPUTS, fresh_result=True,
    hint="For one position of index, which element of your copy receives src there, what happens when two "
    "positions aim at the same element, and in which dtype do you add?",
)
GATHER_VECTORISED = Task(
    name="gather_vectorised", reference=gather_reference, examples=GATHER_EXAMPLES, clauses=GATHER_CLAUSES,
    random_case=random_gather_case, forbidden=LIBRARY_GATHERS, vectorised=True, large_case=large_gather_case,
    allowed=GATHER_VECTORISED_ALLOWED, inputs=GATHER_INPUTS,
    hint="Could you build, for every output position at once, one array of coordinates per dim of x, and "
    "which of those arrays does index take the place of?",
)
SCATTER_ADD_VECTORISED = Task(
    name="scatter_add_vectorised", reference=scatter_add_reference, examples=SCATTER_EXAMPLES,
    clauses=SCATTER_CLAUSES, random_case=random_scatter_case, forbidden=LIBRARY_SCATTERS, vectorised=True,
    large_case=large_scatter_case, allowed=SCATTER_VECTORISED_ALLOWED, inputs=SCATTER_INPUTS, fresh_result=True,
    hint="Why does adding through one fancy-indexed assignment keep only one of several values aimed at the "
    "same element, and which ufunc method adds every one of them?",
)

EXERCISE = Exercise(notebook="gather_scatter", tasks=(GATHER_LOOPS, SCATTER_ADD_LOOPS, GATHER_VECTORISED, SCATTER_ADD_VECTORISED))
