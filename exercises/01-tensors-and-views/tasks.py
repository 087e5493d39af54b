"""Unit 01, tensors and views: a tensor's metadata (shape, strides, storage_offset), computed by hand.

Every task works on tuples of ints alone, never on data, so the graded answers are pure Python:
NumPy is not among the building blocks (``np.ndarray.transpose`` or ``as_strided`` would do the
work being taught). The random cases come from real views (permuted, sliced with a step,
expanded with stride 0, offset by ``select``), from zero-size shapes and, for ``permute_meta``
and ``broadcast_index``, from the mistakes torch refuses.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tensorlab.grading.rules import PURE_STANDARD_LIBRARY
from tensorlab.grading.tasks import Clause, Exercise, Task

__all__ = ["EXERCISE", "BROADCAST_INDEX", "CONTIGUOUS_STRIDES", "PERMUTE_META", "STORAGE_INDEX", "random_view"]

Shape = tuple[int, ...]
PURE_PYTHON = PURE_STANDARD_LIBRARY  # metadata needs no arrays: NumPy would hand over the answer
# The allow-list of every part (the notebook's introduction lists it): plain Python on tuples of ints.
# Nothing here does a part's work for it (``math.sumprod``, a dot product, is left out on purpose).
PYTHON_NAMES = (
    "sum", "map", "reversed", "sorted", "set", "append", "insert", "reverse", "index", "count", "add",
    "prod", "reduce", "mul", "accumulate", "zip_longest",
)


def _tensorlab() -> Any:
    import tensorlab

    return tensorlab


def _ints(values: Any) -> Shape:
    return tuple(int(value) for value in values)


def random_shape(rng: np.random.Generator, low: int = 1, max_ndim: int = 4) -> Shape:
    return _ints(rng.integers(low, 5, size=rng.integers(0, max_ndim + 1)))


def random_view(rng: np.random.Generator, shape: Shape) -> tuple[Shape, int]:
    """Strides and storage_offset of a view of ``shape`` as views really come: contiguous about one time
    in three, else a permuted, step-sliced or expanded (stride 0) layout cut out of a bigger tensor."""
    sizes = [max(size, 1) * int(rng.choice([1, 1, 2, 3])) for size in shape]  # the base tensor each view is cut from
    strides = [1] * len(shape)
    step = 1
    for dim in rng.permutation(len(shape)) if rng.random() < 0.5 else reversed(range(len(shape))):
        strides[int(dim)] = step
        step *= sizes[int(dim)] + int(rng.integers(0, 2))  # + 1 now and then: a column sliced off
    if rng.random() < 1 / 3:
        return _contiguous(shape), 0
    strides = [0 if shape[d] == 1 and rng.random() < 0.3 else stride for d, stride in enumerate(strides)]
    if shape and rng.random() < 0.2:
        strides[int(rng.integers(0, len(shape)))] = 0  # an expanded dim
    offset = 0 if rng.random() < 0.3 else int(rng.integers(1, 40))
    return tuple(strides), offset


def _contiguous(shape: Shape) -> Shape:
    from tensorlab._storage import contiguous_strides

    return contiguous_strides(shape)


def _strided(shape: Shape, strides: Shape, offset: int = 0) -> Any:
    """A tensorlab view with exactly this layout, over a storage just big enough (its slot numbers as values)."""
    span = offset + 1 + sum((size - 1) * stride for size, stride in zip(shape, strides, strict=True) if size > 0)
    return _tensorlab().arange(span).as_strided(shape, strides, offset)


# --- storage_index ------------------------------------------------------------------------------
def storage_index_reference(index: Shape, strides: Shape, offset: int) -> int:
    """Read element ``index`` of a view whose storage holds its own slot numbers: the value is the slot."""
    shape = tuple(i + 1 for i in index)
    return int(_strided(shape, strides, offset)[index].item())


def random_storage_index_case(rng: np.random.Generator) -> tuple[Shape, Shape, int]:
    shape = random_shape(rng)
    strides, offset = random_view(rng, shape)
    return _ints(rng.integers(0, size) for size in shape), strides, offset


STORAGE_INDEX = Task(
    name="storage_index",
    reference=storage_index_reference,
    examples=[((1, 2), (4, 1), 0), ((1, 2, 3), (12, 4, 1), 0), ((2, 1), (1, 3), 0)],
    clauses=[
        Clause("add the storage_offset: a view can start anywhere in the storage", ((1, 2), (4, 1), 5)),
        Clause("add the storage_offset: a view can start anywhere in the storage", ((0, 0), (4, 1), 8)),
        Clause("a 0-d tensor's one element is at storage_offset", ((), (), 7)),
        Clause("a 0-d tensor's one element is at storage_offset", ((), (), 0)),
        Clause("strides need not decrease (a transposed or permuted view)", ((2, 1), (1, 3), 0)),
        Clause("strides need not decrease (a transposed or permuted view)", ((3, 1, 0), (1, 12, 4), 2)),
        Clause("the last stride need not be 1 (a view sliced with a step)", ((1, 2), (8, 2), 1)),
        Clause("the last stride need not be 1 (a view sliced with a step)", ((4,), (3,), 0)),
        Clause("a stride 0 (an expanded view) reads the same slot for every index along that dim", ((2, 3), (0, 1), 0)),
        Clause("a stride 0 (an expanded view) reads the same slot for every index along that dim", ((1, 3, 2), (6, 0, 1), 4)),
        Clause("strides and offsets count elements, not bytes", ((1, 1, 1), (20, 5, 1), 3)),
    ],
    random_case=random_storage_index_case,
    inputs="indices of 0 to 4 dims (the 0-d index () included) with the strides of contiguous, transposed or "
    "permuted, step-sliced and expanded (stride 0) views, and storage offsets from 0 to 39.",
    hint="How many storage slots does one step along each dim move you, and where does the view's first "
    "element sit?",
    building_blocks=PURE_PYTHON, allowed=PYTHON_NAMES,
)


# --- contiguous_strides ---------------------------------------------------------------------------
def contiguous_strides_reference(shape: Shape) -> Shape:
    """torch's strides of a new tensor of ``shape`` (computed without allocating it: shapes may be huge)."""
    return _contiguous(tuple(shape))


def random_contiguous_case(rng: np.random.Generator) -> tuple[Shape]:
    shape = list(random_shape(rng, max_ndim=5))
    if shape and rng.random() < 0.25:
        for _ in range(int(rng.integers(1, 3))):
            shape[int(rng.integers(0, len(shape)))] = 0
    if shape and rng.random() < 0.2:
        shape[int(rng.integers(0, len(shape)))] = 1
    return (tuple(shape),)


CONTIGUOUS_STRIDES = Task(
    name="contiguous_strides",
    reference=contiguous_strides_reference,
    examples=[((3, 4),), ((2, 3, 4),), ((5,),)],
    clauses=[
        Clause("the last dim has stride 1", ((7,),)),
        Clause("each stride is the product of the sizes after it", ((2, 3, 4, 5),)),
        Clause("each stride is the product of the sizes after it", ((4, 2),)),
        Clause("a size-1 dim still gets the product of the sizes after it", ((2, 1, 3),)),
        Clause("a size-1 dim still gets the product of the sizes after it", ((1, 1),)),
        Clause("a size-0 dim counts as 1 in the products (torch's rule)", ((3, 0, 2),)),
        Clause("a size-0 dim counts as 1 in the products (torch's rule)", ((0, 3),)),
        Clause("a size-0 dim counts as 1 in the products (torch's rule)", ((2, 0, 0, 3),)),
        Clause("a 0-d shape has no strides: ()", ((),)),
        Clause("work from the sizes alone: the shape may be far too large to allocate", ((10**6, 10**6, 10**6),)),
        Clause("work from the sizes alone: the shape may be far too large to allocate (exact ints, never floats)",
               ((3, 10**16 + 1, 7),)),
    ],
    random_case=random_contiguous_case,
    inputs="shapes of 0 to 5 dims (the 0-d shape () included) with small sizes, size 0 and size 1 among them, "
    "and shapes far too large to allocate.",
    hint="In a row-major layout, how many elements does one step along a dim jump over, and what does a "
    "size-0 dim count as in that count?",
    building_blocks=PURE_PYTHON, allowed=PYTHON_NAMES,
)


# --- permute_meta ------------------------------------------------------------------------------------
def permute_meta_reference(shape: Shape, strides: Shape, dims: Shape) -> tuple[Shape, Shape]:
    view = _strided(tuple(shape), tuple(strides)).permute(tuple(dims))
    return tuple(view.shape), tuple(view.stride())


def random_dims(rng: np.random.Generator, ndim: int) -> Shape:
    """A permutation with some dims written negative; one time in four a mistake torch refuses."""
    dims = [int(d) - ndim if rng.random() < 0.3 else int(d) for d in rng.permutation(ndim)]
    if rng.random() < 0.25:
        mistake = rng.integers(0, 4)
        if mistake == 0 and dims:
            dims.pop(int(rng.integers(0, len(dims))))  # one dim forgotten
        elif mistake == 1:
            dims.insert(int(rng.integers(0, len(dims) + 1)), int(rng.integers(0, ndim + 1)))  # one too many
        elif mistake == 2 and ndim >= 2:
            at, twin = rng.choice(ndim, size=2, replace=False)
            dims[int(at)] = dims[int(twin)] - ndim if dims[int(twin)] >= 0 and rng.random() < 0.5 else dims[int(twin)]
        elif ndim:
            dims[int(rng.integers(0, ndim))] = int(rng.choice([ndim, ndim + 1, -ndim - 1]))  # out of range
        else:
            dims = [int(rng.choice([0, -1]))]  # a 0-d tensor takes dims () only
    return tuple(dims)


def random_permute_case(rng: np.random.Generator) -> tuple[Shape, Shape, Shape]:
    shape = list(random_shape(rng))
    if shape and rng.random() < 0.2:
        shape[int(rng.integers(0, len(shape)))] = 0
    strides, _ = random_view(rng, tuple(shape))
    return tuple(shape), strides, random_dims(rng, len(shape))


PERMUTE_META = Task(
    name="permute_meta",
    reference=permute_meta_reference,
    examples=[((3, 4, 5), (20, 5, 1), (2, 0, 1)), ((2, 3), (3, 1), (1, 0)), ((1, 2, 3, 4), (24, 12, 4, 1), (1, 2, 0, 3))],
    clauses=[
        Clause("dim i of the result is dim dims[i] of the input, size and stride together", ((2, 3, 4), (12, 4, 1), (1, 2, 0))),
        Clause("dim i of the result is dim dims[i] of the input, size and stride together", ((2, 3, 4), (12, 4, 1), (2, 0, 1))),
        Clause("the strides are the input's own, moved: no data moves (a non-contiguous input stays itself)",
               ((4, 3), (1, 8), (1, 0))),
        Clause("the strides are the input's own, moved: no data moves (a non-contiguous input stays itself)",
               ((2, 3, 2), (0, 2, 12), (2, 1, 0))),
        Clause("negative dims count from the end", ((2, 3, 4), (12, 4, 1), (-1, 0, -2))),
        Clause("zero-size dims move like any other", ((2, 0, 3), (3, 3, 1), (2, 0, 1))),
        Clause("a 0-d tensor permutes with dims ()", ((), (), ())),
        Clause("dims (0, 1, ...) gives the metadata back unchanged", ((3, 1, 2), (2, 6, 1), (0, 1, 2))),
        Clause("raise RuntimeError when dims has fewer entries than the tensor has dims", ((2, 3, 4), (12, 4, 1), (1, 0))),
        Clause("raise RuntimeError when dims has more entries than the tensor has dims", ((2, 3), (3, 1), (1, 0, 2))),
        Clause("raise RuntimeError when a dim repeats", ((2, 3, 4), (12, 4, 1), (0, 2, 2))),
        Clause("raise RuntimeError when a dim repeats (-1 and 2 are the same dim of a 3-d tensor)", ((2, 3, 4), (12, 4, 1), (2, 0, -1))),
        Clause("raise RuntimeError when a dim repeats (-1 and 2 are the same dim of a 3-d tensor)", ((2, 3, 4), (12, 4, 1), (-3, 1, 0))),
        Clause("raise IndexError when a dim is out of range", ((2, 3, 4), (12, 4, 1), (0, 3, 1))),
        Clause("raise IndexError when a dim is out of range", ((2, 3, 4), (12, 4, 1), (-4, 0, 1))),
        Clause("check the dims one at a time, left to right: the first problem found is the one raised", ((2, 3, 4), (12, 4, 1), (1, 1, 7))),
        Clause("check the dims one at a time, left to right: the first problem found is the one raised", ((2, 3, 4), (12, 4, 1), (7, 1, 1))),
    ],
    random_case=random_permute_case,
    inputs="tensors of 0 to 4 dims (0-d and zero-size dims included) with the strides of contiguous, "
    "permuted, step-sliced and expanded (stride 0) views, and dims with negative entries, or that are not a "
    "permutation: too few, too many, a repeat, out of range.",
    hint="A view moves numbers, it never recomputes them: which of the input's numbers travel with each "
    "dim, and which problems with dims must be refused first, in what order?",
    building_blocks=PURE_PYTHON, allowed=PYTHON_NAMES,
)


# --- broadcast_index ----------------------------------------------------------------------------------
def broadcast_index_reference(index: Shape, out_shape: Shape, in_shape: Shape) -> Shape:
    """Expand a tensor that holds its own flat positions to ``out_shape``, read ``index``, unravel the position."""
    tensorlab = _tensorlab()
    source = tensorlab.arange(math.prod(in_shape)).view(tuple(in_shape))
    position = int(source.expand(tuple(out_shape))[tuple(index)].item())
    return _ints(np.unravel_index(position, tuple(in_shape))) if in_shape else ()


def random_broadcast_case(rng: np.random.Generator) -> tuple[Shape, Shape, Shape]:
    """An output shape, an input that stretches to it (size-1 dims, fewer dims), one time in five one that does not."""
    out_shape = random_shape(rng, max_ndim=5)
    in_shape = [1 if rng.random() < 0.4 else size for size in out_shape][int(rng.integers(0, len(out_shape) + 1)):]
    if rng.random() < 0.2:
        if in_shape and rng.random() < 0.7:
            dim = int(rng.integers(0, len(in_shape)))
            target = out_shape[len(out_shape) - len(in_shape) + dim]
            in_shape[dim] = int(rng.choice([size for size in (0, 2, 3, 4, 5) if size != target]))
        else:
            in_shape = [int(size) for size in rng.integers(1, 4, size=len(out_shape) - len(in_shape) + 1)] + in_shape
    index = _ints(rng.integers(0, size) for size in out_shape)
    return index, out_shape, tuple(in_shape)


BROADCAST_INDEX = Task(
    name="broadcast_index",
    reference=broadcast_index_reference,
    examples=[((2, 3), (3, 4), (4,)), ((2, 3), (3, 4), (3, 1)), ((4, 1, 2, 0), (5, 3, 4, 1), (3, 1, 1))],
    clauses=[
        Clause("line the shapes up from the right: the input's missing leading dims are dropped", ((1, 2, 3), (2, 3, 4), (3, 4))),
        Clause("line the shapes up from the right: the input's missing leading dims are dropped", ((1, 2), (2, 3), (3,))),
        Clause("a size-1 dim of the input (stretched or not) is read at index 0", ((1, 3, 2), (2, 4, 3), (2, 1, 3))),
        Clause("a size-1 dim of the input (stretched or not) is read at index 0", ((0, 0, 5), (1, 1, 6), (1, 1, 1))),
        Clause("equal shapes: the index itself", ((1, 0, 2), (2, 3, 4), (2, 3, 4))),
        Clause("a 0-d input is read at ()", ((1, 2), (2, 3), ())),
        Clause("a 0-d output and a 0-d input: ()", ((), (), ())),
        Clause("raise RuntimeError when the input has more dims than the output", ((1,), (3,), (1, 3))),
        Clause("raise RuntimeError when a size of the input that is not 1 differs from the output's", ((1, 2), (2, 3), (2, 4))),
        Clause("raise RuntimeError when a size of the input that is not 1 differs from the output's", ((0, 1), (4, 5), (2, 5))),
        Clause("check every dim, even where the index would be in range", ((1,), (4,), (3,))),
        Clause("a size 0 cannot stretch: raise RuntimeError", ((2,), (3,), (0,))),
    ],
    random_case=random_broadcast_case,
    inputs="output shapes of 0 to 5 dims, input shapes with fewer dims, size-1 dims or equal to the output "
    "(0-d ones included), and input shapes that do not broadcast: more dims than the output, or a size that "
    "is neither 1 nor the output's (0 included).",
    hint="With the shapes lined up from the right, which output index sits in each input dim's column, and "
    "what index can a dim of size 1 possibly hold?",
    building_blocks=PURE_PYTHON, allowed=PYTHON_NAMES,
)

EXERCISE = Exercise(notebook="tensors_and_views", tasks=(STORAGE_INDEX, CONTIGUOUS_STRIDES, PERMUTE_META, BROADCAST_INDEX))
