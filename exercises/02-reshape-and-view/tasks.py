"""Unit 02, reshape and view: the -1 of a shape, when a view exists, flatten and unflatten, on metadata.

Every task works on shapes and strides alone (tuples of ints), as torch's own shape functions
do: ``infer_shape`` (the -1 and torch's four errors), ``view_strides`` (the strides of
``x.view(new_shape)`` or None exactly when torch's ``view`` raises), ``flatten_meta`` and
``unflatten_meta`` (the shape and strides of ``flatten``/``unflatten``, the copy included).
Random layouts are what views of a row-major tensor really have: transposed, sliced with a
step or narrowed, expanded (stride 0), size-1 dims with any stride, zero-size dims, 0-d.
The stride of a size-1 dim never moves the pointer, so any int is accepted there.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from tensorlab.grading.compare import Tolerance
from tensorlab.grading.tasks import Clause, Exercise, Task

__all__ = ["EXERCISE", "FLATTEN_META", "INFER_SHAPE", "UNFLATTEN_META", "VIEW_STRIDES", "random_layout", "regroup"]

Shape = tuple[int, ...]

# The allow-list of every part (the notebook's introduction lists it; later parts call earlier ones, so
# they share it): plain Python on tuples of ints and a few NumPy functions on shapes. NumPy's reshaping
# (``reshape``, ``view``, ``ravel``, ``flatten``, ``resize``, ``as_strided``, ``.strides``, setting
# ``.shape``) is not on it: the exercise is to find the strides yourself. It replaces the ban-list these
# parts had, which also refused a learner's own variable named ``view`` or ``flatten``.
SHAPE_NAMES = (
    "sum", "map", "reversed", "sorted", "append", "insert", "extend", "pop", "reverse", "index", "count",
    "prod", "reduce", "mul", "accumulate", "array", "cumprod", "maximum", "searchsorted", "tolist",
)


def _tensorlab() -> Any:
    import tensorlab

    return tensorlab


def row_major(shape: Sequence[int]) -> Shape:
    """Row-major strides (a size 0 counts as 1), as torch gives a new contiguous tensor."""
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


def random_layout(rng: np.random.Generator) -> tuple[Shape, Shape]:
    """The shape and strides of a random view of a row-major tensor.

    A third are contiguous; the others are transposed, sliced with a step, narrowed, expanded
    (stride 0) or carry a size-1 dim with an odd stride. One in eight has a zero-size dim,
    one in twelve is 0-d.
    """
    if rng.random() < 1 / 12:
        return (), ()
    shape = [int(rng.choice([1, 2, 2, 3, 3, 4, 4])) for _ in range(int(rng.integers(1, 5)))]
    if rng.random() < 1 / 8:
        shape[int(rng.integers(0, len(shape)))] = 0
    kind = rng.random()
    dim = int(rng.integers(0, len(shape)))
    strides: list[int]
    if kind < 0.35:
        return tuple(shape), row_major(shape)
    if kind < 0.6 and len(shape) >= 2:  # a permutation of the dims
        order = [int(d) for d in rng.permutation(len(shape))]
        permuted = row_major([shape[d] for d in order])
        inverse = [order.index(d) for d in range(len(shape))]
        return tuple(shape), tuple(permuted[i] for i in inverse)
    if kind < 0.8:  # x[..., ::step, ...] or x[..., :size, ...] of a larger row-major tensor
        base = list(shape)
        step = int(rng.integers(2, 4)) if rng.random() < 0.5 else 1
        base[dim] = shape[dim] * step + (0 if step > 1 else int(rng.integers(1, 3)))
        strides = list(row_major(base))
        strides[dim] *= step
        return tuple(shape), tuple(strides)
    if kind < 0.9:  # expanded: a stretched dim reads one element again and again
        strides = list(row_major(shape))
        strides[dim] = 0
        if rng.random() < 0.3:
            strides = [0] * len(shape)
        return tuple(shape), tuple(strides)
    shape[dim] = 1  # a size-1 dim whose stride is anything (x[:, 1:2] keeps its stride)
    strides = list(row_major(shape))
    strides[dim] = int(rng.integers(0, 30))
    return tuple(shape), tuple(strides)


def _factor(rng: np.random.Generator, size: int) -> list[int]:
    """``size`` as a product of two ints (a 1 when size is prime or 0)."""
    divisors = [d for d in range(1, size + 1) if size % d == 0] if size > 0 else [0]
    first = int(rng.choice(divisors))
    return [first, size // first] if size > 0 else ([0, int(rng.integers(1, 4))] if rng.random() < 0.5 else [0, 0])


def regroup(rng: np.random.Generator, shape: Sequence[int], merge: float = 0.4) -> Shape:
    """A shape with as many elements as ``shape``: neighbours merged (with probability ``merge``),
    a dim split, 1s added or dropped, or (one time in five) any factorisation of the count."""
    numel = math.prod(shape)
    if rng.random() < 0.2:
        if numel == 0:
            return tuple(int(s) for s in rng.permutation([0, *rng.integers(0, 4, size=rng.integers(0, 3))]))
        sizes = [numel]
        for _ in range(int(rng.integers(0, 3))):
            last = sizes.pop()
            sizes += _factor(rng, last)
        return tuple(int(s) for s in rng.permutation(sizes))
    new = list(shape)
    for _ in range(int(rng.integers(1, 3))):
        move = rng.random()
        if move < merge and len(new) >= 2:
            start = int(rng.integers(0, len(new) - 1))
            stop = int(rng.integers(start + 2, len(new) + 1))
            new[start:stop] = [math.prod(new[start:stop])]
        elif move < merge + (1 - merge) * 0.6 and new:
            dim = int(rng.integers(0, len(new)))
            new[dim : dim + 1] = _factor(rng, new[dim])
        elif 1 in new and rng.random() < 0.5:
            new.remove(1)
        else:
            new.insert(int(rng.integers(0, len(new) + 1)), 1)
    return tuple(new)


LAYOUTS = ("Layouts are 0-d, contiguous, transposed or permuted, step-sliced or narrowed, or expanded (stride "
           "0, even every stride), with size-1 dims of any stride and zero-size dims.")


# --- infer_shape ------------------------------------------------------------------------------
def infer_shape_reference(shape: Sequence[int], numel: int) -> Shape:
    from tensorlab.ops.views import infer_size

    return infer_size(shape, numel)


def random_infer_case(rng: np.random.Generator) -> tuple[Any, int]:
    """A shape with one -1 (most of the time) for a count that fits, or one of torch's four errors."""
    sizes = [int(size) for size in rng.integers(1, 6, size=rng.integers(0, 5))]
    if sizes and rng.random() < 1 / 8:
        sizes[int(rng.integers(0, len(sizes)))] = 0
    numel = math.prod(sizes)
    shape: list[int] = list(regroup(rng, sizes))
    trouble = rng.random()
    if shape and rng.random() < 0.75:
        shape[int(rng.integers(0, len(shape)))] = -1
    if trouble < 0.1 and shape:  # a second -1
        shape.insert(int(rng.integers(0, len(shape) + 1)), -1)
    elif trouble < 0.18:  # a negative size that is not -1
        shape.insert(int(rng.integers(0, len(shape) + 1)), -int(rng.integers(2, 5)))
    elif trouble < 0.33:  # a count that does not fit
        numel = numel + int(rng.integers(1, 4)) if rng.random() < 0.5 else numel * int(rng.integers(2, 4)) + 1
    return (shape if rng.random() < 0.25 else tuple(shape)), numel


INFER_SHAPE = Task(
    name="infer_shape",
    reference=infer_shape_reference,
    examples=[((2, 12), 24), ((3, -1), 24), ((-1,), 24), ((-1, 3), 24), ((2, 1, 3, 4, 1), 24)],
    clauses=[
        Clause("-1 becomes the count divided by the product of the other sizes", ((4, -1), 24)),
        Clause("-1 may stand in any position", ((2, -1, 3), 24)),
        Clause("shape may be a list; return a tuple", ([2, -1], 6)),
        Clause("without -1 the sizes must multiply to numel, else RuntimeError(\"shape '[...]' is invalid "
               "for input of size N\")", ((2, 5), 12)),
        Clause("without -1 the sizes must multiply to numel", ((2, 6), 12)),
        Clause("when numel is not a multiple of the other sizes: invalid for input of size N", ((5, -1), 24)),
        Clause("a second -1: RuntimeError('only one dimension can be inferred')", ((-1, 2, -1), 6)),
        Clause("a negative size other than -1: RuntimeError('invalid shape dimension S at index I of shape "
               "[...]')", ((2, -3), 6)),
        Clause("the sizes are checked from left to right: the first problem is the error", ((-2, -1, -1), 6)),
        Clause("the sizes are checked from left to right: the first problem is the error", ((-1, -1, -2), 6)),
        Clause("-1 with a 0 among the other sizes and numel 0 is ambiguous: RuntimeError('cannot reshape "
               "tensor of 0 elements ...')", ((-1, 0), 0)),
        Clause("-1 with a 0 among the other sizes and numel 0 is ambiguous", ((2, 0, -1), 0)),
        Clause("-1 with a 0 among the other sizes and numel not 0 is invalid for input of size N", ((0, -1), 5)),
        Clause("-1 with numel 0 and no 0 among the other sizes becomes 0", ((2, -1), 0)),
        Clause("the empty shape () holds one element", ((), 1)),
        Clause("the empty shape () holds one element", ((), 2)),
        Clause("numel may be far too large to allocate: the sizes are exact ints", ((3, -1), 3 * (10**16 + 1))),
        Clause("numel may be far too large to allocate: the sizes are exact ints", ((-1, 7, 1), 7 * (2**53 + 1))),
    ],
    random_case=random_infer_case,
    inputs="shapes as tuples or lists (the empty shape () included) with sizes from 0 up, most with one -1, "
    "some with a second -1 or another negative size, and counts that fit them or do not (0 included, and counts "
    "far too large to allocate).",
    hint="Which sizes do you need to see before you know the product of the others, and when does the count "
    "leave the -1 free to be anything?",
    tolerance=Tolerance(match_message=True),
    allowed=SHAPE_NAMES,
)


# --- view_strides ------------------------------------------------------------------------------
def view_strides_reference(shape: Shape, strides: Shape, new_shape: Shape) -> Shape | None:
    from tensorlab._storage import view_strides

    return view_strides(shape, strides, new_shape)


def random_view_case(rng: np.random.Generator) -> tuple[Shape, Shape, Shape]:
    """A layout and a regrouping of it; one time in four the 1-d ``view(-1)`` (a view only if all dims form one run)."""
    shape, strides = random_layout(rng)
    if shape and rng.random() < 0.25:
        return shape, strides, (math.prod(shape),)
    return shape, strides, regroup(rng, shape, merge=0.6)


VIEW_STRIDES = Task(
    name="view_strides",
    reference=view_strides_reference,
    examples=[((2, 3, 4), (12, 4, 1), (4, 6)), ((3, 2), (1, 3), (6,)), ((3, 2), (4, 2), (6,))],
    clauses=[
        Clause("a contiguous tensor takes any shape: the row-major strides", ((2, 3, 4), (12, 4, 1), (2, 1, 12))),
        Clause("dims d, d+1 with stride[d] == stride[d+1] * size[d+1] merge (x[:, ::2] of a (3, 4))",
               ((3, 2), (4, 2), (6,))),
        Clause("dims that do not form one run cannot merge: return None (a transpose)", ((3, 2), (1, 3), (6,))),
        Clause("dims that do not form one run cannot merge: return None (a narrowed row)", ((4, 3), (6, 1), (12,))),
        Clause("splitting a dim always works, even in a non-contiguous tensor", ((3, 2, 4), (4, 12, 1), (3, 2, 2, 2))),
        Clause("a new dim may not span two runs: return None", ((3, 2, 4), (4, 12, 1), (6, 4))),
        Clause("a new dim may not span two runs: return None", ((2, 3, 4), (12, 1, 3), (6, 4))),
        Clause("merging inside a run and keeping the other runs apart works", ((2, 3, 4), (24, 4, 1), (2, 12))),
        Clause("the same shape is always a view, with the same strides", ((3, 2), (1, 3), (3, 2))),
        Clause("size-1 dims can be added anywhere", ((2, 3), (1, 2), (2, 1, 3, 1))),
        Clause("size-1 dims can be removed, whatever their stride", ((3, 1, 4), (4, 100, 1), (3, 4))),
        Clause("a size-1 dim in the middle never breaks a run, whatever its stride", ((2, 1, 3), (3, 100, 1), (6,))),
        Clause("a stride-0 (expanded) dim merges only when the rule holds", ((2, 3), (0, 1), (6,))),
        Clause("a stride-0 (expanded) dim merges only when the rule holds", ((2, 3), (0, 0), (6,))),
        Clause("a 0-d tensor becomes any all-ones shape", ((), (), (1, 1))),
        Clause("with no elements, new_shape == shape keeps the strides", ((0, 3), (1, 0), (0, 3))),
        Clause("with no elements, another new_shape gets row-major strides (a 0 counts as 1)",
               ((0, 3), (1, 0), (3, 0))),
    ],
    random_case=random_view_case,
    inputs=LAYOUTS + " New shapes merge neighbouring dims, split one, add or drop size-1 dims, or regroup "
    "the count any other way.",
    hint="Which neighbouring old dims step through memory as one run, and can each new dim be cut out of a "
    "single run?",
    allowed=SHAPE_NAMES,
    accept="view_strides",
)


# --- flatten_meta ------------------------------------------------------------------------------
def flatten_meta_reference(shape: Shape, strides: Shape, start_dim: int = 0, end_dim: int = -1) -> tuple[Shape, Shape]:
    tensorlab = _tensorlab()
    base = tensorlab.zeros(_span(shape, strides)).as_strided(shape, strides)
    result = base.flatten(start_dim, end_dim)
    return tuple(result.shape), tuple(result.stride())


def _span(shape: Sequence[int], strides: Sequence[int]) -> int:
    """Storage elements a layout reads: one past its furthest element (at least 1)."""
    if 0 in shape:
        return 1
    return 1 + sum((size - 1) * stride for size, stride in zip(shape, strides, strict=True))


def random_dims(rng: np.random.Generator, ndim: int, count: int) -> list[int]:
    """``count`` dims of an ``ndim``-d tensor, negative half the time; one time in ten one is out of range."""
    wrap = max(ndim, 1)  # a 0-d tensor accepts dims 0 and -1
    dims = [int(rng.integers(0, wrap)) for _ in range(count)]
    dims = [dim - wrap if rng.random() < 0.5 else dim for dim in dims]
    if rng.random() < 0.1:
        dims[int(rng.integers(0, count))] = int(rng.choice([wrap, wrap + 1, -wrap - 1]))
    return dims


def random_flatten_case(rng: np.random.Generator) -> tuple:
    shape, strides = random_layout(rng)
    start, end = random_dims(rng, len(shape), 2)
    if rng.random() < 0.3:
        start, end = 0, -1  # the whole tensor: a copy unless every dim is in one run
    if rng.random() < 0.8 and (start % max(len(shape), 1)) > (end % max(len(shape), 1)):
        start, end = end, start  # mostly a valid order
    return shape, strides, start, end


FLATTEN_META = Task(
    name="flatten_meta",
    reference=flatten_meta_reference,
    examples=[((8, 3, 4, 5), (60, 20, 5, 1), 1, -1), ((2, 3, 4), (12, 4, 1), 0, -1), ((8, 4, 5, 3), (60, 5, 1, 20), 1, 2)],
    clauses=[
        Clause("start_dim defaults to 0 and end_dim to -1", ((2, 3, 4), (12, 4, 1))),
        Clause("end_dim defaults to -1", ((2, 3, 4), (12, 4, 1), 1)),
        Clause("the dims start_dim..end_dim, both included, become one", ((2, 3, 4, 5), (60, 20, 5, 1), 1, 2)),
        Clause("negative dims count from the end", ((2, 3, 4, 5), (60, 20, 5, 1), -3, -2)),
        Clause("a view when the merged dims form one run (strides of view_strides)", ((3, 2, 4), (4, 12, 1), 0, 0)),
        Clause("a view when the merged dims form one run (strides of view_strides)", ((3, 2), (4, 2), 0, 1)),
        Clause("a copy when they do not: row-major strides of the new shape", ((8, 4, 5, 3), (60, 5, 1, 20), 2, 3)),
        Clause("a copy when they do not: row-major strides of the new shape", ((3, 2), (1, 3), 0, -1)),
        Clause("start_dim == end_dim returns the layout unchanged", ((3, 2), (1, 3), 1, 1)),
        Clause("a 0-d tensor flattens to shape (1,)", ((), (), 0, -1)),
        Clause("a 0-d tensor accepts the dims 0 and -1 only: IndexError", ((), (), 1, -1)),
        Clause("a dim out of range: IndexError", ((2, 3), (3, 1), 0, 2)),
        Clause("a dim out of range: IndexError", ((2, 3), (3, 1), -3, 1)),
        Clause("start_dim after end_dim: RuntimeError", ((2, 3, 4), (12, 4, 1), 2, 1)),
        Clause("start_dim after end_dim once both are wrapped: RuntimeError", ((2, 3, 4), (12, 4, 1), -1, 1)),
        Clause("zero-size dims merge like any other", ((2, 0, 3), (3, 3, 1), 1, 2)),
    ],
    random_case=random_flatten_case,
    inputs=LAYOUTS + " start_dim and end_dim are left out, negative, out of range, or in the wrong order.",
    hint="Flatten is a reshape: when can the merged dims still be read over the same storage, and what "
    "strides does a tensor get when torch has to copy it?",
    allowed=SHAPE_NAMES,
    accept="layout",
)


# --- unflatten_meta ----------------------------------------------------------------------------
def unflatten_meta_reference(shape: Shape, strides: Shape, dim: int, sizes: Sequence[int]) -> tuple[Shape, Shape]:
    tensorlab = _tensorlab()
    base = tensorlab.zeros(_span(shape, strides)).as_strided(shape, strides)
    result = base.unflatten(dim, tuple(sizes))
    return tuple(result.shape), tuple(result.stride())


def random_unflatten_case(rng: np.random.Generator) -> tuple:
    shape, strides = random_layout(rng)
    if not shape:
        shape, strides = (6,), (1,)
    (dim,) = random_dims(rng, len(shape), 1)
    size = shape[dim] if -len(shape) <= dim < len(shape) else 4
    sizes = _factor(rng, size) if rng.random() < 0.8 else [size]
    if rng.random() < 0.3:
        sizes.insert(int(rng.integers(0, len(sizes) + 1)), 1)
    if rng.random() < 0.5:
        sizes[int(rng.integers(0, len(sizes)))] = -1
    trouble = rng.random()
    if trouble < 0.08:
        sizes = [size + 1]
    elif trouble < 0.13:
        sizes = []
    elif trouble < 0.18:
        sizes = [-1, -1]
    return shape, strides, dim, tuple(sizes)


UNFLATTEN_META = Task(
    name="unflatten_meta",
    reference=unflatten_meta_reference,
    examples=[((2, 12), (12, 1), 1, (3, 4)), ((8, 60), (60, 1), 1, (3, -1)), ((3, 4), (1, 3), 0, (3, 1))],
    clauses=[
        Clause("dim of size n becomes sizes, which multiply to n", ((2, 12), (12, 1), 1, (2, 3, 2))),
        Clause("one size may be -1: it is inferred from the others", ((2, 12), (12, 1), 1, (-1, 4))),
        Clause("negative dims count from the end", ((2, 12), (12, 1), -2, (1, 2))),
        Clause("always a view: a split dim of stride s gets s times the product of the sizes to its right",
               ((3, 4), (1, 3), 1, (2, 2))),
        Clause("always a view: a split dim of stride s gets s times the product of the sizes to its right",
               ((2, 6), (0, 2), 1, (3, 2))),
        Clause("the other dims keep their strides", ((4, 3, 2), (1, 8, 4), 0, (2, 2))),
        Clause("sizes that do not multiply to n: RuntimeError", ((2, 12), (12, 1), 1, (5, 2))),
        Clause("an empty sizes: RuntimeError", ((2, 12), (12, 1), 1, ())),
        Clause("an empty sizes: RuntimeError (also for a dim of size 1)", ((2, 1, 3), (3, 3, 1), 1, ())),
        Clause("an empty sizes is refused first, before the dim is checked", ((2, 12), (12, 1), 5, ())),
        Clause("two -1 in sizes: RuntimeError", ((2, 12), (12, 1), 1, (-1, -1))),
        Clause("a dim out of range: IndexError", ((2, 12), (12, 1), 2, (3, 4))),
        Clause("a 0-d tensor has no dim to split: RuntimeError", ((), (), 0, (1,))),
        Clause("a zero-size dim splits too", ((3, 0), (1, 1), 1, (2, -1))),
        Clause("a -1 next to a 0 in sizes is ambiguous: RuntimeError", ((3, 0), (1, 1), 1, (0, -1))),
        Clause("a tensor with no elements gets the strides view_strides gives", ((0, 6), (6, 1), 1, (2, 3))),
    ],
    random_case=random_unflatten_case,
    inputs=LAYOUTS + " dim is negative or out of range; sizes hold a -1 or 1s, or do not fit: a wrong product, "
    "none at all, two -1, a -1 next to a 0.",
    hint="Is splitting one dim ever impossible as a view, and which of your earlier functions already "
    "infer the sizes and find the strides?",
    allowed=SHAPE_NAMES,
    accept="layout",
)

EXERCISE = Exercise(notebook="reshape_and_view", tasks=(INFER_SHAPE, VIEW_STRIDES, FLATTEN_META, UNFLATTEN_META))
