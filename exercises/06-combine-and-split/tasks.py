"""Unit 06, combine and split: cat and stack from an empty array and slice assignment, torch's chunk
sizes for any number of chunks, and the pieces of unbind as views (their shape, strides and offset).

Each task's clauses test one sentence of the statement in ``exercises/06-combine-and-split`` (a
size 1 does not stretch, negative dims, 0-d inputs, fewer chunks than asked, an empty dim...);
the random cases mix lists of several dtypes and dims, zero-size dims, non-contiguous inputs
and torch's errors.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tensorlab.grading.random_cases import random_array
from tensorlab.grading.tasks import Clause, Exercise, Task

__all__ = ["EXERCISE", "CAT", "CHUNK_SIZES", "STACK", "UNBIND_VIEWS"]

DTYPES = (np.float64, np.float64, np.int64, np.float32, np.int32)  # float64 twice: the usual case
NUMPY_JOINS = (
    "numpy.concatenate", "numpy.concat", "numpy.stack", "numpy.hstack", "numpy.vstack", "numpy.dstack",
    "numpy.column_stack", "numpy.row_stack", "numpy.block", "numpy.r_", "numpy.c_",
)  # (np.append joins too, but a name-based ban on "append" would refuse list.append: see the grading issue)
NUMPY_SPLITS = ("numpy.array_split", "numpy.split", "numpy.hsplit", "numpy.vsplit", "numpy.dsplit")

Layout = tuple[tuple[int, ...], tuple[int, ...], int]  # (shape, strides, storage offset) of one view


def _tensorlab() -> Any:
    import tensorlab

    return tensorlab


# --- references: tensorlab, which the test suite holds to torch ---------------------------------
def cat_reference(tensors: list[np.ndarray], dim: int) -> np.ndarray:
    tensorlab = _tensorlab()
    return tensorlab.cat([tensorlab.tensor(array) for array in tensors], dim).numpy()


def stack_reference(tensors: list[np.ndarray], dim: int) -> np.ndarray:
    tensorlab = _tensorlab()
    return tensorlab.stack([tensorlab.tensor(array) for array in tensors], dim).numpy()


def chunk_sizes_reference(size: int, chunks: int) -> tuple[int, ...]:
    """The lengths of ``x.chunk(chunks)`` for an x of ``size`` elements (a stride-0 x: no memory, and one
    byte per element as far as NumPy's size limit is concerned, so sizes up to 2**63 - 1)."""
    tensorlab = _tensorlab()
    x = tensorlab.zeros(1, dtype=tensorlab.bool).expand(size)
    return tuple(int(piece.shape[0]) for piece in x.chunk(chunks))


def unbind_views_reference(shape: tuple[int, ...], strides: tuple[int, ...], offset: int, dim: int) -> tuple[Layout, ...]:
    """The layout of every piece of ``x.unbind(dim)``, for x with that shape, strides and offset."""
    span = offset + 1 + sum((size - 1) * stride for size, stride in zip(shape, strides, strict=True) if size > 0)
    x = _tensorlab().zeros(span).as_strided(tuple(shape), tuple(strides), offset)
    return tuple((tuple(piece.shape), tuple(piece.stride()), int(piece.storage_offset())) for piece in x.unbind(dim))


# --- random cases -------------------------------------------------------------------------------
def random_shape(rng: np.random.Generator, ndim: int, zero: float = 1 / 8) -> list[int]:
    """Sizes 1 to 4, and one time in eight a size 0 somewhere."""
    shape = [int(size) for size in rng.integers(1, 5, size=ndim)]
    if shape and rng.random() < zero:
        shape[int(rng.integers(0, ndim))] = 0
    return shape


def random_dim(rng: np.random.Generator, ndim: int, wrong: float = 0.08) -> int:
    """A dim in range, negative one time in three; ``wrong`` of the time one just out of range."""
    if rng.random() < wrong or ndim == 0:
        return int(rng.choice([ndim, ndim + 1, -ndim - 1]))
    dim = int(rng.integers(0, ndim))
    return dim - ndim if rng.random() < 1 / 3 else dim


def random_cat_case(rng: np.random.Generator) -> tuple[list[np.ndarray], int]:
    """1 to 4 arrays of one dtype and 1 to 4 dims, agreeing except along dim (sizes 0 to 4 there).

    One case in six with dim in range breaks one more rule: another size differs (often a 1, which
    must not stretch), or the number of dims differs. A 1-d array of size 0 appears only where torch's
    legacy rule (cat skips such an array, whatever the other shapes and dim) changes nothing.
    """
    ndim = int(rng.integers(1, 5))
    dim = random_dim(rng, ndim)
    along = dim % ndim if -ndim <= dim < ndim else None
    base = random_shape(rng, ndim, zero=0 if ndim == 1 else 1 / 8)
    shapes = []
    for _ in range(int(rng.integers(1, 5))):
        shape = list(base)
        if along is not None:
            shape[along] = int(rng.integers(0, 5))
        shapes.append(shape)
    if len(shapes) > 1 and along is not None and rng.random() < 1 / 6:
        victim = shapes[int(rng.integers(1, len(shapes)))]
        others = [d for d in range(ndim) if d != along]
        if others and rng.random() < 0.7:
            d = others[int(rng.integers(0, len(others)))]
            victim[d] = 1 if victim[d] != 1 and rng.random() < 0.5 else victim[d] + 1
        elif ndim > 1:
            del victim[int(rng.integers(0, ndim))]
            victim[:] = [max(size, 1) for size in victim]
        else:
            for shape in shapes:
                shape[0] = max(shape[0], 1)
            victim[:] = [*victim, 2]
    dtype = DTYPES[int(rng.integers(0, len(DTYPES)))]
    return [random_array(rng, tuple(shape), dtype) for shape in shapes], dim


def random_stack_case(rng: np.random.Generator) -> tuple[list[np.ndarray], int]:
    """1 to 4 arrays of one shape (0 to 3 dims) and dtype; with dim in range, one case in six a shape differs."""
    ndim = int(rng.integers(0, 4))
    dim = random_dim(rng, ndim + 1)
    shape = random_shape(rng, ndim)
    shapes = [list(shape) for _ in range(int(rng.integers(1, 5)))]
    if len(shapes) > 1 and -ndim - 1 <= dim <= ndim and rng.random() < 1 / 6:
        victim = shapes[int(rng.integers(1, len(shapes)))]
        if victim and rng.random() < 0.7:
            d = int(rng.integers(0, ndim))
            victim[d] = 1 if victim[d] != 1 and rng.random() < 0.5 else victim[d] + 1
        else:
            victim.append(1)
    dtype = DTYPES[int(rng.integers(0, len(DTYPES)))]
    return [random_array(rng, tuple(shape), dtype) for shape in shapes], dim


def random_chunk_case(rng: np.random.Generator) -> tuple[int, int]:
    """Mostly small sizes and counts (fewer pieces than asked happens often); also an empty dim,
    a count larger than the size, a huge size (float division is not exact there), and counts below 1."""
    kind = rng.random()
    if kind < 0.08:
        return 0, int(rng.integers(1, 6))
    if kind < 0.16:
        return int(rng.integers(0, 10)), int(rng.integers(-2, 1))
    if kind < 0.22:
        return int(rng.integers(2**53, 2**61)), int(rng.integers(2, 9))  # beyond float64's exact integers
    size = int(rng.integers(1, 40))
    return size, int(rng.integers(1, size + 4))


def random_unbind_case(rng: np.random.Generator) -> tuple[tuple[int, ...], tuple[int, ...], int, int]:
    """A shape of 1 to 4 dims (sometimes a size 0 or 1), strides of any view: contiguous, permuted,
    sliced (gaps) or expanded (stride 0), a storage offset, and a dim (sometimes out of range or a 0-d x)."""
    if rng.random() < 0.05:
        return (), (), int(rng.integers(0, 5)), int(rng.choice([0, -1]))
    ndim = int(rng.integers(1, 5))
    shape = random_shape(rng, ndim)
    strides = [1] * ndim
    for d in reversed(range(ndim - 1)):
        strides[d] = strides[d + 1] * max(shape[d + 1], 1)
    if rng.random() < 0.4:
        strides = [stride * int(rng.integers(1, 4)) for stride in strides]  # a slice with steps
    if rng.random() < 0.3:
        strides = [int(strides[d]) for d in rng.permutation(ndim)]  # a permuted view
    if rng.random() < 0.2:
        strides[int(rng.integers(0, ndim))] = 0  # an expanded dim
    offset = int(rng.integers(0, 20)) if rng.random() < 0.6 else 0
    return tuple(shape), tuple(strides), offset, random_dim(rng, ndim)


# --- what the cases draw, as each statement says it ------------------------------------------
CAT_INPUTS = ("`tensors` is a list of 1 to 4 arrays of one dtype (float64, float32, int64 or int32) with 0 to 4 "
              "dims (sizes 0 to 5, possibly non-contiguous views: a transpose, every other column), sometimes "
              "with another size that differs (often a 1) or another number of dims; `dim` is positive or "
              "negative, sometimes out of range.")
STACK_INPUTS = ("`tensors` is a list of 1 to 4 arrays of one dtype (float64, float32, int64 or int32) with 0 to 3 "
                "dims (sizes 0 to 5, possibly non-contiguous views: a transpose, every other column), sometimes one "
                "of another shape (often a size 1, or one more dim); `dim` is positive or negative, sometimes out "
                "of range.")
CHUNK_INPUTS = ("`size` is 0 to 39, or far too large to allocate (up to `2**61`, beyond float64's exact "
                "integers); `chunks` is 1 to 42, or 0 or negative.")
UNBIND_INPUTS = ("`shape` has 0 to 4 sizes (0 to 4); `strides` (each ≥ 0) are any view's: contiguous, with gaps, "
                 "permuted, or 0 from an expand; `offset` is 0 to 19; `dim` is positive or negative, sometimes "
                 "out of range.")

# What each part may use besides rules.COMMON_NAMES (the statements list the same names). Not ``append`` or
# ``insert`` in cat and stack: as leaf names they are np.append and np.insert too, which join arrays; nor
# np.array (it stacks a list of arrays), transpose or swapaxes in stack (the new dim moved into place).
CAT_ALLOWED = ("empty", "zeros", "sum", "prod", "reshape", "swapaxes", "copy", "astype")
STACK_ALLOWED = ("empty", "zeros", "prod", "reshape", "copy", "astype")
CHUNK_ALLOWED = ("append", "ceil")  # math.ceil of a float division is wrong on large sizes: the cases say so
UNBIND_ALLOWED = (
    "append", "insert", "pop", "reverse", "reversed", "sum", "zeros", "lib", "stride_tricks", "as_strided", "strides",
    "__array_interface__",
)


# --- the tasks ------------------------------------------------------------------------------
CAT = Task(
    name="cat",
    reference=cat_reference,
    examples=[
        ([np.zeros((3, 4)), np.ones((3, 4))], 0),
        ([np.zeros((3, 4)), np.ones((3, 4))], 1),
        ([np.arange(6).reshape(2, 3), np.arange(3).reshape(1, 3)], 0),
    ],
    clauses=[
        Clause("dim may be negative: -1 is the last dim", ([np.arange(6.0).reshape(2, 3), np.ones((2, 2))], -1)),
        Clause("dim may be negative: -1 is the last dim", ([np.arange(24.0).reshape(2, 3, 4), np.ones((2, 3, 1))], -1)),
        Clause("dim may be negative: -1 is the last dim", ([np.arange(6.0).reshape(2, 3), np.ones((4, 3))], -2)),
        Clause("the sizes along dim add up; any number of arrays (one too)", ([np.arange(4).reshape(2, 2)], 1)),
        Clause("the sizes along dim add up; any number of arrays (one too)",
               ([np.ones((1, 2)), np.zeros((3, 2)), np.full((2, 2), 7.0), np.arange(2.0).reshape(1, 2)], 0)),
        Clause("an array may have size 0 along dim", ([np.ones((2, 3)), np.ones((0, 3)), np.zeros((1, 3))], 0)),
        Clause("other sizes may be 0 as well", ([np.ones((0, 3)), np.ones((0, 2))], 1)),
        Clause("the result keeps the dtype", ([np.arange(3, dtype=np.int32), np.arange(2, dtype=np.int32)], 0)),
        Clause("the result keeps the dtype", ([np.ones((2, 1), np.float32), np.zeros((2, 2), np.float32)], 1)),
        Clause("the arrays are left unchanged, and may be non-contiguous views",
               ([np.arange(12.0).reshape(3, 4)[:, ::2], np.arange(6.0).reshape(2, 3).T], 0)),
        Clause("every other size must be equal, else RuntimeError: a size 1 does not stretch",
               ([np.ones((2, 3)), np.ones((2, 1))], 0)),
        Clause("every other size must be equal, else RuntimeError: a size 1 does not stretch",
               ([np.ones((2, 3)), np.ones((1, 3))], 1)),
        Clause("every other size must be equal, else RuntimeError", ([np.ones((2, 3, 4)), np.ones((2, 5, 4))], 2)),
        Clause("every other size must be equal, else RuntimeError (also next to an empty array)",
               ([np.ones((2, 3)), np.ones((0, 4))], 0)),
        Clause("all arrays must have the same number of dims, else RuntimeError", ([np.ones((2, 3)), np.ones(3)], 0)),
        Clause("all arrays must have the same number of dims, else RuntimeError", ([np.ones((3, 3)), np.ones((1, 3, 3))], 0)),
        Clause("all arrays must have the same number of dims, else RuntimeError (an empty one too)",
               ([np.ones((2, 3)), np.zeros((0, 0, 3))], 0)),
        Clause("every array is checked, not only the first two",
               ([np.ones((2, 3)), np.ones((1, 3)), np.ones((2, 4))], 0)),
        Clause("every array is checked, not only the first two",
               ([np.ones((2, 3)), np.ones((2, 1)), np.ones((2, 2)), np.ones((2, 2, 1))], 1)),
        Clause("0-d arrays cannot be concatenated: RuntimeError", ([np.array(1.0), np.array(2.0)], 0)),
        Clause("a dim out of range raises IndexError", ([np.ones((2, 3)), np.ones((2, 3))], 2)),
        Clause("a dim out of range raises IndexError", ([np.ones((2, 3)), np.ones((2, 3))], -3)),
    ],
    random_case=random_cat_case,
    hint="Which sizes must agree before you copy anything, given that slice assignment would quietly stretch "
    "a size 1, and where along dim does each array's slice start and stop?",
    inputs=CAT_INPUTS,
    allowed=CAT_ALLOWED,
    fresh_result=True,
    forbidden=NUMPY_JOINS,
)

STACK = Task(
    name="stack",
    reference=stack_reference,
    examples=[
        ([np.zeros((3, 4)), np.ones((3, 4))], 0),
        ([np.zeros((3, 4)), np.ones((3, 4))], 1),
        ([np.zeros((3, 4)), np.ones((3, 4))], 2),
    ],
    clauses=[
        Clause("the new dim may go after the last one; dim may be negative (-1 is the new last dim)",
               ([np.arange(6.0).reshape(2, 3), np.ones((2, 3))], -1)),
        Clause("the new dim may go after the last one; dim may be negative (-1 is the new last dim)",
               ([np.arange(6).reshape(2, 3), np.zeros((2, 3), np.int64), np.ones((2, 3), np.int64)], -2)),
        Clause("the new dim may go after the last one; dim may be negative (-1 is the new last dim)",
               ([np.arange(6.0).reshape(2, 3), np.ones((2, 3))], -3)),
        Clause("any number of arrays (one too)", ([np.arange(4).reshape(2, 2)], 1)),
        Clause("0-d arrays stack into a 1-d array", ([np.array(1.5), np.array(2.5), np.array(-1.0)], 0)),
        Clause("0-d arrays stack into a 1-d array", ([np.array(3)], -1)),
        Clause("arrays with a size 0 stack too", ([np.ones((2, 0)), np.ones((2, 0))], 1)),
        Clause("the result keeps the dtype", ([np.arange(3, dtype=np.int32), np.arange(3, dtype=np.int32)], 1)),
        Clause("the result keeps the dtype", ([np.ones(2, np.float32), np.zeros(2, np.float32)], 0)),
        Clause("the arrays are left unchanged, and may be non-contiguous views",
               ([np.arange(12.0).reshape(3, 4)[:, ::2], np.arange(6.0).reshape(2, 3).T], 1)),
        Clause("all arrays must have the same shape, else RuntimeError: a size 1 does not stretch",
               ([np.ones((2, 3)), np.ones((1, 3))], 0)),
        Clause("all arrays must have the same shape, else RuntimeError", ([np.ones((2, 3)), np.ones((3, 2))], 0)),
        Clause("all arrays must have the same shape, else RuntimeError", ([np.ones(3), np.ones((1, 3))], 1)),
        Clause("a dim out of range raises IndexError", ([np.ones((2, 3)), np.ones((2, 3))], 3)),
        Clause("a dim out of range raises IndexError", ([np.ones((2, 3)), np.ones((2, 3))], -4)),
        Clause("a dim out of range raises IndexError", ([np.array(1.0), np.array(2.0)], 2)),
    ],
    random_case=random_stack_case,
    hint="How many dims does the result have (so which range may a negative dim wrap into), and which index "
    "of the new dim does each array fill?",
    inputs=STACK_INPUTS,
    allowed=STACK_ALLOWED,
    fresh_result=True,
    forbidden=(*NUMPY_JOINS, "numpy.moveaxis", "numpy.rollaxis"),
)

CHUNK_SIZES = Task(
    name="chunk_sizes",
    reference=chunk_sizes_reference,
    examples=[(6, 2), (5, 2), (10, 4)],
    clauses=[
        Clause("every piece is ceil(size / chunks) long except the last, which holds what is left", (10, 3)),
        Clause("every piece is ceil(size / chunks) long except the last, which holds what is left", (7, 3)),
        Clause("when the size divides evenly, all pieces are equal and there is no empty last piece", (12, 4)),
        Clause("there may be fewer pieces than chunks", (6, 4)),
        Clause("there may be fewer pieces than chunks", (10, 6)),
        Clause("more chunks than elements: one piece per element", (3, 5)),
        Clause("one chunk is the whole dim", (9, 1)),
        Clause("a dim of size 0 gives chunks empty pieces", (0, 3)),
        Clause("a dim of size 0 gives chunks empty pieces", (0, 1)),
        Clause("work from the numbers alone: size may be far too large to allocate", (10**12 + 1, 2)),
        Clause("work from the numbers alone: size may be far too large to allocate (or to divide as floats)",
               (2**60 + 1, 2)),
        Clause("raise RuntimeError when chunks is less than 1", (5, 0)),
        Clause("raise RuntimeError when chunks is less than 1", (5, -2)),
        Clause("raise RuntimeError when chunks is less than 1 (also for a dim of size 0)", (0, 0)),
        Clause("raise RuntimeError when chunks is less than 1 (also for a dim of size 0)", (0, -1)),
    ],
    random_case=random_chunk_case,
    hint="How long is every piece but the last, computed with integers only (a float cannot hold every "
    "large int), and how many pieces of that length fit before nothing is left?",
    inputs=CHUNK_INPUTS,
    allowed=CHUNK_ALLOWED,
    forbidden=NUMPY_SPLITS,
)

UNBIND_VIEWS = Task(
    name="unbind_views",
    reference=unbind_views_reference,
    examples=[((2, 3), (3, 1), 0, 0), ((2, 3), (3, 1), 0, 1), ((5, 2), (2, 1), 0, 0)],
    clauses=[
        Clause("each piece keeps the strides of the other dims", ((2, 3, 4), (12, 4, 1), 0, 1)),
        Clause("piece i starts at offset + i * strides[dim]", ((3, 2), (2, 1), 5, 0)),
        Clause("piece i starts at offset + i * strides[dim]", ((2, 3), (1, 2), 7, 1)),
        Clause("x may be any view: strides with gaps, permuted, or 0 (expanded)", ((4, 2), (1, 8), 0, 0)),
        Clause("x may be any view: strides with gaps, permuted, or 0 (expanded)", ((3, 2, 2), (0, 6, 2), 3, 0)),
        Clause("x may be any view: strides with gaps, permuted, or 0 (expanded)", ((3, 2, 2), (0, 6, 2), 3, 2)),
        Clause("dim may be negative: -1 is the last dim", ((2, 3, 4), (12, 4, 1), 0, -1)),
        Clause("dim may be negative: -1 is the last dim", ((2, 3, 4), (12, 4, 1), 2, -3)),
        Clause("a 1-d x gives 0-d pieces", ((3,), (2,), 1, 0)),
        Clause("size 0 along dim: no pieces", ((0, 3), (3, 1), 0, 0)),
        Clause("a size 0 elsewhere: pieces with no elements", ((2, 0), (1, 1), 4, 0)),
        Clause("a dim out of range raises IndexError", ((2, 3), (3, 1), 0, 2)),
        Clause("a dim out of range raises IndexError", ((2, 3), (3, 1), 0, -3)),
        Clause("a 0-d x cannot be unbound: IndexError", ((), (), 2, 0)),
    ],
    random_case=random_unbind_case,
    hint="Which entry of shape and of strides does a piece lose, and how far into the storage does the next "
    "piece start when a step along dim moves by that dim's stride?",
    inputs=UNBIND_INPUTS,
    allowed=UNBIND_ALLOWED,
)

EXERCISE = Exercise(notebook="combine_split", tasks=(CAT, STACK, CHUNK_SIZES, UNBIND_VIEWS))
