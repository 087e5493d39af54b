"""Unit 07, indexing: the shape of any index, mask selection, index assignment, storage positions.

An index arrives as plain data, a tuple with one entry per item of torch's ``x[...]``: an ``int``,
the string ``":"`` (a full slice), ``None`` (a new dim of size 1), an int64 array (positions,
any number of dims) or a bool array (a mask over as many dims as it has). :func:`as_torch_index`
turns it into the index tensorlab and torch take.

Each task's clauses test one sentence of the statement in ``exercises/07-indexing``; the theme
running through them is torch's rule that an int is applied first (a select) and separates
nothing, where NumPy would count it among the index arrays.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tensorlab.grading.compare import Tolerance
from tensorlab.grading.random_cases import normal
from tensorlab.grading.tasks import Clause, Exercise, Task

__all__ = [
    "EXERCISE", "ASSIGNMENT_SOURCES", "INDEX_SHAPE", "MASK_SELECT", "STORAGE_POSITIONS", "as_torch_index",
    "index_shape_reference", "random_index",
]

NUMPY_BROADCASTING = ("numpy.broadcast_shapes", "numpy.broadcast", "numpy.broadcast_to", "numpy.broadcast_arrays")
NONZERO_FAMILY = (
    "numpy.nonzero", "numpy.flatnonzero", "numpy.argwhere", "numpy.where", "numpy.extract", "numpy.compress",
    "numpy.ma", "torch.masked_select", "tensorlab.masked_select",
)
DTYPES = (np.float64, np.float64, np.int64, np.float32, np.int32)

# The allow-lists (besides rules.COMMON_NAMES): what each part's own work needs, never the operation it writes.
LIST_METHODS = ("append", "extend", "insert", "pop", "index", "count", "type", "sum", "set", "sorted", "reversed",
                "kind", "issubdtype", "integer")  # and what tells a mask from an index array
INDEX_SHAPE_ALLOWED = (*LIST_METHODS, "count_nonzero", "broadcast_shapes", "prod", "zip_longest", "fullmatch", "group")
MASK_SELECT_ALLOWED = ("reshape", "ravel", "flatten", "cumsum", "searchsorted", "arange", "count_nonzero", "argsort",
                       "sort", "logical_not", "invert", "astype", "copy", "empty", "zeros", "take", "sum")
ASSIGNMENT_SOURCES_ALLOWED = (*LIST_METHODS, "arange", "full", "ones", "zeros", "empty", "asarray", "array",
                              "reshape", "prod", "indices", "repeat", "squeeze", "expand_dims")
STORAGE_POSITIONS_ALLOWED = (*LIST_METHODS, "arange", "full", "zeros", "asarray", "array", "reshape", "indices",
                             "tensordot", "dot", "take", "lib", "stride_tricks", "as_strided")

# What each part's cases draw (its statement quotes these sentences).
INDEX_INPUTS = ("Cases draw index entries of every kind: ints (negative too), the string \":\", None, int64 index "
                "arrays of 1 or 2 dims (empty ones too), bool masks over 1 or 2 dims, and wrong indices: positions "
                "out of range, index arrays that do not broadcast, masks of the wrong shape, too many entries.")
INDEX_SHAPE_INPUTS = INDEX_INPUTS + " shape has 1 to 4 dims of size 0 to 4, or sizes far too large to allocate."
MASK_SELECT_INPUTS = ("Cases draw x of float64, float32, int64 or int32 with 1 to 4 dims (the last may have size 0), "
                      "sometimes a non-contiguous view (a transpose, every other column); mask is bool over x's "
                      "leading 1 to x.ndim dims, sometimes a non-contiguous view, sometimes of the wrong shape; one "
                      "large case is 1500 x 8.")
ASSIGNMENT_SOURCES_INPUTS = (INDEX_INPUTS + " shape has 1 to 4 dims of size 1 to 4; an index never writes a position twice. value_shape may be () "
                             "(a number), have sizes 1 that stretch, fewer dims, extra leading 1s, or not fit at all.")
STORAGE_POSITIONS_INPUTS = (INDEX_INPUTS + " Layouts have 1 to 4 dims: contiguous, with gaps (as after slicing), "
                            "transposed, with stride 0 (expanded), and an offset from 0 to 5.")


def _tensorlab() -> Any:
    import tensorlab

    return tensorlab


def as_torch_index(index: tuple, library: Any = None) -> tuple:
    """The plain-data index as torch's (``":"`` -> ``slice(None)``, arrays -> tensors of ``library``)."""
    lib = _tensorlab() if library is None else library

    def item(entry: Any) -> Any:
        if isinstance(entry, np.ndarray):
            return lib.tensor(entry.tolist(), dtype=lib.bool if entry.dtype == np.bool_ else lib.int64)
        return slice(None) if entry == ":" else entry

    return tuple(item(entry) for entry in index)


# --- the reference of index_shape: shapes only (the shapes may be far too large to allocate) ---
def _consumed(entry: Any) -> int:
    if entry is None:
        return 0
    return entry.ndim if isinstance(entry, np.ndarray) and entry.dtype == np.bool_ else 1


def _broadcast(shapes: list[tuple[int, ...]]) -> tuple[int, ...]:
    ndim = max((len(shape) for shape in shapes), default=0)
    result = [1] * ndim
    for shape in shapes:
        for dim, size in enumerate((1,) * (ndim - len(shape)) + shape):
            if size != result[dim] and 1 not in (size, result[dim]):
                listed = ", ".join(str(list(s)) for s in shapes)
                raise IndexError(f"shape mismatch: indexing tensors could not be broadcast together with shapes {listed}")
            result[dim] = size if result[dim] == 1 else result[dim]
    return tuple(result)


def index_shape_reference(shape: tuple[int, ...], index: tuple) -> tuple[int, ...]:
    """The shape of ``x[index]`` for x of ``shape``, with torch's IndexErrors (tested against torch)."""
    shape = tuple(shape)
    if sum(_consumed(entry) for entry in index) > len(shape):
        raise IndexError(f"too many indices for tensor of dimension {len(shape)}")
    index = tuple(index) + (":",) * (len(shape) - sum(_consumed(entry) for entry in index))
    kept: list[Any] = []  # what is left after the ints: sizes, None's 1s, and advanced markers
    advanced: list[tuple[int, ...]] = []
    dim = 0
    for entry in index:
        if entry is None:
            kept.append(1)
        elif isinstance(entry, np.ndarray) and entry.dtype == np.bool_:
            covered = shape[dim:dim + entry.ndim]
            for offset, (mask_size, size) in enumerate(zip(entry.shape, covered, strict=True)):
                if mask_size != size:
                    raise IndexError(f"The shape of the mask {list(entry.shape)} at index {offset} does not match "
                                     f"the shape of the indexed tensor {list(shape)} at index {dim + offset}")
            advanced.append((int(entry.sum()),))
            kept.append("advanced")
            dim += entry.ndim
        elif isinstance(entry, np.ndarray):
            if entry.size and not (-shape[dim] <= entry.min() and entry.max() < shape[dim]):
                bad = int(entry.max()) if entry.max() >= shape[dim] else int(entry.min())
                raise IndexError(f"index {bad} is out of bounds for dimension {dim} with size {shape[dim]}")
            advanced.append(tuple(entry.shape))
            kept.append("advanced")
            dim += 1
        elif entry == ":":
            kept.append(shape[dim])
            dim += 1
        else:
            if not -shape[dim] <= entry < shape[dim]:
                raise IndexError(f"index {entry} is out of bounds for dimension {dim} with size {shape[dim]}")
            dim += 1
    if not advanced:
        return tuple(kept)
    block = _broadcast(advanced)
    places = [position for position, entry in enumerate(kept) if entry == "advanced"]
    rest = [entry for entry in kept if entry != "advanced"]
    adjacent = places == list(range(places[0], places[0] + len(places)))
    at = places[0] if adjacent else 0
    return tuple(rest[:at]) + block + tuple(rest[at:])


# --- references computed by tensorlab -----------------------------------------------------------
def mask_select_reference(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    tensorlab = _tensorlab()
    return tensorlab.tensor(x)[tensorlab.tensor(mask)].numpy()


def assignment_sources_reference(shape: tuple[int, ...], index: tuple, value_shape: tuple[int, ...]) -> np.ndarray:
    """Label v's elements 0, 1, 2, ... and assign them into -1s: each element then names its source."""
    tensorlab = _tensorlab()
    target = tensorlab.full(tuple(shape), -1, dtype=tensorlab.int64)
    target[as_torch_index(index)] = tensorlab.arange(math.prod(value_shape)).view(tuple(value_shape))
    return target.numpy()


def storage_span(shape: tuple[int, ...], strides: tuple[int, ...], offset: int) -> int:
    """How many storage slots a layout needs (its last slot + 1)."""
    if 0 in shape:
        return offset
    return offset + 1 + sum((size - 1) * stride for size, stride in zip(shape, strides, strict=True))


def storage_positions_reference(shape: tuple[int, ...], strides: tuple[int, ...], offset: int, index: tuple) -> np.ndarray:
    tensorlab = _tensorlab()
    storage = tensorlab.arange(max(storage_span(shape, strides, offset), 1))
    x = storage.as_strided(tuple(shape), tuple(strides), offset)
    return np.asarray(x[as_torch_index(index)].numpy(), dtype=np.int64).copy()


# --- random cases -------------------------------------------------------------------------------
def random_shape(rng: np.random.Generator, low: int = 1, high: int = 4) -> tuple[int, ...]:
    return tuple(int(size) for size in rng.integers(1, 5, size=rng.integers(low, high + 1)))


def random_index(rng: np.random.Generator, shape: tuple[int, ...], unique: bool = False, fail: bool = True) -> tuple:
    """An index for ``shape``: ints, ":", None, int arrays and masks, mostly valid.

    Advanced entries are often separated (by ":" or None) and often mixed with ints, so both of
    torch's placements and its int-first rule come up; one time in six (with ``fail``) something
    is wrong: a position out of range, arrays that do not broadcast, a mask of the wrong shape, or
    too many entries. With ``unique`` the arrays are 1-d, of one length (or 1), without repeated
    positions: no element is written twice in an assignment.
    """
    entries: list[Any] = []
    dim = 0
    length = int(rng.integers(1, 4))
    while dim < len(shape) and rng.random() < 0.85:
        size = shape[dim]
        choice = rng.random()
        if choice < 0.12:
            entries.append(None)
            continue
        if choice < 0.32 and size > 0:
            entries.append(int(rng.integers(-size, size)))
        elif choice < 0.55:
            entries.append(":")
        elif choice < 0.72 and dim + 1 <= len(shape):
            covers = int(rng.integers(1, min(2, len(shape) - dim) + 1))
            mask = rng.random(shape[dim:dim + covers]) < 0.5
            if unique and int(mask.sum()) not in (1, length):  # keep the broadcast lengths compatible
                mask = np.zeros(shape[dim:dim + covers], dtype=bool)
                mask.reshape(-1)[: min(length, mask.size)] = True
                if mask.sum() not in (1, length):
                    entries.append(":")
                    dim += 1
                    continue
            entries.append(mask)
            dim += covers
            continue
        elif size > 0:
            if unique:
                count = min(length, size) if rng.random() < 0.8 else 1
                if count not in (1, length):
                    entries.append(":")
                    dim += 1
                    continue
                positions = rng.permutation(size)[:count] - (size if rng.random() < 0.3 else 0)
                entries.append(positions.astype(np.int64))
            else:
                array_shape = (length,) if rng.random() < 0.7 else tuple(int(s) for s in rng.integers(1, 3, size=2))
                entries.append(rng.integers(-size, size, size=array_shape).astype(np.int64))
        else:
            entries.append(":")
        dim += 1
    if fail and rng.random() < 1 / 6:
        entries = _spoil(rng, shape, entries)
    return tuple(entries)


def _spoil(rng: np.random.Generator, shape: tuple[int, ...], entries: list[Any]) -> list[Any]:
    """One mistake torch raises IndexError for."""
    kind = int(rng.integers(0, 4))
    if kind == 0:  # too many entries
        return entries + [0] * (len(shape) + 1 - sum(_consumed(entry) for entry in entries))
    if kind == 1:  # an int out of range on the first dim
        return [shape[0] + int(rng.integers(0, 2)), *entries[1:]] if entries and entries[0] is not None else [shape[0]]
    if kind == 2:  # two index arrays that do not broadcast
        return [np.array([0, 0], np.int64), np.array([0, 0, 0], np.int64)] if len(shape) >= 2 else [np.array([shape[0]], np.int64)]
    return [np.ones(shape[0] + 1, dtype=bool)]  # a mask of the wrong length


def random_index_shape_case(rng: np.random.Generator) -> tuple[tuple[int, ...], tuple]:
    shape = random_shape(rng)
    if rng.random() < 0.1:
        shape = tuple(0 if dim == 0 else size for dim, size in enumerate(shape))
    return shape, random_index(rng, shape)


def random_array(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """Values of a random dtype; one time in four a non-contiguous view (a transpose or every other column)."""
    dtype = DTYPES[int(rng.integers(0, len(DTYPES)))]

    def values(of_shape: tuple[int, ...]) -> np.ndarray:
        if np.dtype(dtype).kind == "i":
            return np.asarray(rng.integers(-9, 10, size=of_shape), dtype=dtype)
        return normal(rng, of_shape).astype(dtype)

    if rng.random() >= 0.25:
        return values(shape)
    if len(shape) >= 2 and rng.random() < 0.5:
        return values(shape[::-1]).T
    return values((*shape[:-1], 2 * shape[-1]))[..., ::2]


def random_mask_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    shape = random_shape(rng)
    if rng.random() < 0.1:
        shape = tuple(0 if dim == len(shape) - 1 else size for dim, size in enumerate(shape))
    covers = int(rng.integers(1, len(shape) + 1))
    mask = rng.random(shape[:covers]) < rng.choice([0.2, 0.5, 0.8])
    if rng.random() < 0.1:  # a mask that does not fit x
        mask = np.ones(tuple(size + 1 if dim == covers - 1 else size for dim, size in enumerate(shape[:covers])), dtype=bool)
    elif rng.random() < 0.2:
        mask = np.ascontiguousarray(mask.T).T if mask.ndim >= 2 else np.repeat(mask, 2)[::2]
    return random_array(rng, shape), mask


def random_assignment_case(rng: np.random.Generator) -> tuple[tuple[int, ...], tuple, tuple[int, ...]]:
    """A shape, an index without repeated positions and a value shape that broadcasts to x[index]
    (stretched dims, fewer dims, extra leading 1s); one time in five a value that does not fit."""
    shape = random_shape(rng)
    index = random_index(rng, shape, unique=True, fail=rng.random() < 0.3)
    try:
        target = index_shape_reference(shape, index)
    except IndexError:
        return shape, index, (1,)
    value = [1 if rng.random() < 0.3 else size for size in target][int(rng.integers(0, len(target) + 1)):]
    if rng.random() < 0.15:
        value = [1] * int(rng.integers(1, 3)) + value
    if rng.random() < 0.2:
        value = [*value, int(rng.integers(2, 4))] if not target or rng.random() < 0.5 else [size + 1 for size in target]
    return shape, index, tuple(value)


def random_layout(rng: np.random.Generator) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """A shape, element strides (contiguous, transposed, sliced or stretched with stride 0) and an offset."""
    shape = random_shape(rng)
    strides = [0] * len(shape)
    step = 1
    for dim in reversed(range(len(shape))):
        strides[dim] = step
        step *= shape[dim] + (1 if rng.random() < 0.3 else 0)  # gaps, as after slicing
    if len(shape) >= 2 and rng.random() < 0.3:
        strides = strides[::-1]
    strides = [0 if rng.random() < 0.1 else stride for stride in strides]  # an expanded dim
    return shape, tuple(strides), int(rng.integers(0, 6))


def random_storage_case(rng: np.random.Generator) -> tuple[tuple[int, ...], tuple[int, ...], int, tuple]:
    shape, strides, offset = random_layout(rng)
    return shape, strides, offset, random_index(rng, shape)


def large_mask_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    return normal(rng, (1500, 8)), rng.random((1500, 8)) < 0.5


# --- the tasks --------------------------------------------------------------------------------
def _ints(*values: int) -> np.ndarray:
    return np.array(values, dtype=np.int64)


def _bools(*values: int) -> np.ndarray:
    return np.array(values, dtype=bool)


INDEX_SHAPE = Task(
    name="index_shape",
    reference=index_shape_reference,
    examples=[
        ((2, 3), (0, 0)),
        ((2, 3), (_ints(0, 1, 0, 1), _ints(0, 1, 0, 1))),
        ((2, 3), (":", _ints(0, 1, 0, 1))),
        ((2, 3), (_bools(0, 1), _bools(0, 1, 1))),
    ],
    clauses=[
        Clause("an int picks one position and drops the dim", ((2, 3, 4), (1,))),
        Clause("an int may be negative (counting from the end)", ((2, 3), (-1, -1))),
        Clause("dims the index does not reach are kept whole, as if by ':'", ((2, 3, 4), (":", 0))),
        Clause("None inserts a dim of size 1", ((2, 3), (None, ":", None))),
        Clause("an index array keeps its dim, with the array's shape in its place", ((2, 3), (_ints(0, 0, 1),))),
        Clause("an index array of several dims puts all of them in its place", ((4, 3), (":", np.zeros((2, 2), np.int64)))),
        Clause("index arrays are broadcast together (zipped)", ((3, 4), (np.zeros((2, 1), np.int64), _ints(0, 1, 2)))),
        Clause("adjacent advanced entries: the broadcast block stays in their place", ((2, 3, 4, 5), (":", _ints(0, 1), _ints(1, 2)))),
        Clause("separated by ':': the broadcast block goes first", ((2, 3, 4), (_ints(0, 1), ":", _ints(1, 2)))),
        Clause("separated by ':': the broadcast block goes first", ((5, 3, 4, 6), (":", _ints(0, 1), ":", _ints(1, 2)))),
        Clause("separated by None: the block goes first", ((2, 3, 4), (_ints(0, 1), None, _ints(1, 2)))),
        Clause("separated by None: the block goes first", ((3, 4, 5), (":", _ints(0, 1), None, _ints(1, 2)))),
        Clause("an int is applied first and separates nothing", ((2, 3, 4), (_ints(0, 1), 0, _ints(1, 2)))),
        Clause("an int is applied first: x[0, :, [0, 1]] is (3, 2) in torch", ((2, 3, 4), (0, ":", _ints(0, 1)))),
        Clause("a single advanced entry stays in its place", ((2, 3, 4), (":", ":", _ints(0, 1, 2)))),
        Clause("a bool array means the positions of its Trues", ((2, 3), (":", _bools(0, 1, 1)))),
        Clause("a mask covers as many dims as it has", ((2, 3, 4), (np.array([[1, 0, 1], [0, 1, 1]], dtype=bool),))),
        Clause("a mask is zipped with the other advanced entries", ((2, 3, 4), (":", _bools(1, 0, 1), _ints(0, 3)))),
        Clause("an empty index array gives a dim of size 0", ((2, 3), (np.zeros(0, np.int64), ":"))),
        Clause("a zero-size dim of x", ((0, 3), (":", _ints(2, 0)))),
        Clause("raise IndexError when an int is out of range", ((2, 3), (0, 3))),
        Clause("raise IndexError when an int is out of range", ((2, 3), (-3,))),
        Clause("raise IndexError when a position in an index array is out of range", ((2, 3), (":", _ints(0, 3)))),
        Clause("raise IndexError when the index arrays do not broadcast", ((2, 3), (_ints(0, 1), _ints(0, 1, 2)))),
        Clause("raise IndexError when a mask's shape does not match the dims it covers", ((2, 3), (":", _bools(1, 0)))),
        Clause("raise IndexError when there are more entries than dims (None does not count)", ((2, 3), (0, None, 0, 0))),
        Clause("work from the shapes alone: they may be far too large to allocate",
               ((1_000_000, 1_000_000, 1_000_000), (":", _ints(0, 1), ":"))),
    ],
    random_case=random_index_shape_case,
    hint="Which entries keep, drop or add a dim, how do all the advanced entries combine into one block, and "
    "where does torch put that block once the ints are gone?",
    allowed=INDEX_SHAPE_ALLOWED,
    inputs=INDEX_SHAPE_INPUTS,
)

MASK_SELECT = Task(
    name="mask_select",
    reference=mask_select_reference,
    examples=[
        (np.arange(6).reshape(2, 3), np.array([[True, False, True], [False, True, False]])),
        (np.arange(6).reshape(2, 3), _bools(0, 1)),
        (np.arange(24.0).reshape(2, 3, 4), np.array([[1, 0, 0], [1, 1, 0]], dtype=bool)),
    ],
    clauses=[
        Clause("the selected elements come in row-major order", (np.arange(9.0).reshape(3, 3), np.eye(3, dtype=bool)[::-1])),
        Clause("a mask over fewer dims selects whole sub-arrays", (np.arange(12).reshape(3, 4), _bools(1, 0, 1))),
        Clause("a mask over fewer dims selects whole sub-arrays", (np.arange(24).reshape(2, 3, 4), _bools(0, 1))),
        Clause("no True: a dim of size 0", (np.arange(6.0).reshape(2, 3), np.zeros((2, 3), dtype=bool))),
        Clause("every element True", (np.arange(6.0).reshape(2, 3), np.ones((2, 3), dtype=bool))),
        Clause("keep x's dtype", (np.arange(6, dtype=np.int32).reshape(3, 2), _bools(1, 1, 0))),
        Clause("keep x's dtype", (np.arange(4, dtype=np.float32), _bools(0, 1, 1, 0))),
        Clause("x and mask may be non-contiguous views", (np.arange(24.0).reshape(4, 6)[:, ::2], np.arange(12).reshape(3, 4).T % 3 == 0)),
        Clause("x may have a zero-size dim", (np.ones((2, 0)), _bools(1, 0))),
        Clause("raise IndexError when the mask's shape does not match x's leading dims", (np.ones((2, 3)), np.ones((2, 4), dtype=bool))),
        Clause("raise IndexError when the mask's shape does not match x's leading dims", (np.ones((2, 3)), np.ones(3, dtype=bool))),
        Clause("x and mask are left unchanged", (np.arange(5.0), _bools(1, 0, 1, 0, 1))),
    ],
    random_case=random_mask_case,
    hint="If you count the Trues as you walk along the flattened mask, at which position does the count first "
    "reach 1, then 2, then 3, and how do those integer positions pick the rows to keep?",
    allowed=MASK_SELECT_ALLOWED,
    inputs=MASK_SELECT_INPUTS,
    fresh_result=True,
    forbidden=NONZERO_FAMILY,
    no_mask_indexing=True,
    vectorised=True,
    large_case=large_mask_case,
)

ASSIGNMENT_SOURCES = Task(
    name="assignment_sources",
    reference=assignment_sources_reference,
    examples=[
        ((2, 3), (":", 0), ()),
        ((2, 3), (":",), (1, 3)),
        ((2, 3), (_ints(0, 1), _ints(2, 0)), (2,)),
    ],
    clauses=[
        Clause("elements of x that the index does not reach hold -1", ((3, 4), (1,), (4,))),
        Clause("v broadcasts to the shape of x[index]: a size 1 stretches", ((2, 3), (":", ":"), (2, 1))),
        Clause("v broadcasts to the shape of x[index]: fewer dims", ((2, 3, 2), (":",), (3, 1))),
        Clause("v may have extra leading dims of size 1", ((2, 3), (0,), (1, 1, 3))),
        Clause("v may have extra leading dims of size 1, even for a single element", ((2, 3), (0, 1), (1,))),
        Clause("v may have extra leading dims of size 1, even for a single element", ((2, 3), (1, -1), (1, 1))),
        Clause("a 0-d v (a number) fills every element the index reaches", ((2, 3), (_bools(1, 0),), ())),
        Clause("zipped index arrays write one element per pair", ((3, 3), (_ints(0, 1, 2), _ints(2, 1, 0)), (3,))),
        Clause("a mask writes its True positions, in row-major order", ((2, 3), (np.array([[0, 1, 1], [1, 0, 0]], dtype=bool),), (3,))),
        Clause("separated advanced entries: their block comes first in x[index]", ((2, 3, 4), (_ints(0, 1), ":", _ints(1, 3)), (2, 3))),
        Clause("an int is applied first, as in torch (not NumPy)", ((2, 3, 4), (0, ":", _ints(0, 1)), (3, 2))),
        Clause("None adds a dim of size 1 to x[index]", ((2, 3), (None, 1), (1, 3))),
        Clause("raise RuntimeError when v does not broadcast to the shape of x[index]", ((2, 3), (":", 0), (3,))),
        Clause("raise RuntimeError when v does not broadcast to the shape of x[index]", ((2, 3), (_ints(0, 1), _ints(0, 1)), (3,))),
        Clause("raise RuntimeError when v has more dims that are not 1", ((2, 3), (0,), (2, 3))),
        Clause("raise IndexError when the index is wrong for x", ((2, 3), (2,), ())),
    ],
    random_case=random_assignment_case,
    hint="If every element of v held its own flat position, what would x hold after the assignment, and where do "
    "torch's rules (ints first, extra leading 1s, the error's class) part from NumPy's?",
    allowed=ASSIGNMENT_SOURCES_ALLOWED,
    inputs=ASSIGNMENT_SOURCES_INPUTS,
    forbidden=NUMPY_BROADCASTING,
)

STORAGE_POSITIONS = Task(
    name="storage_positions",
    reference=storage_positions_reference,
    examples=[
        ((2, 3), (3, 1), 0, (_ints(0, 1, 0, 1), _ints(0, 1, 0, 1))),
        ((3, 2), (1, 3), 0, (":", _ints(1, 1))),
        ((2, 3), (3, 1), 2, (_bools(0, 1),)),
    ],
    clauses=[
        Clause("a basic index reads offset + sum of index * stride", ((2, 3), (3, 1), 0, (1, ":"))),
        Clause("the offset is added to every position", ((2, 2), (2, 1), 5, (":", 0))),
        Clause("a stride of 0 reads the same slot again", ((3, 2), (0, 1), 1, (_ints(0, 2, 1), ":"))),
        Clause("a transposed layout", ((3, 2), (1, 3), 0, (_ints(2, 0),))),
        Clause("separated advanced entries: their block comes first", ((2, 3, 4), (12, 4, 1), 0, (_ints(0, 1), ":", _ints(1, 3)))),
        Clause("an int is applied first, as in torch (not NumPy)", ((2, 3, 4), (12, 4, 1), 0, (1, ":", _ints(0, 3)))),
        Clause("a mask reads its True positions in row-major order", ((2, 2), (1, 2), 0, (np.array([[1, 1], [0, 1]], dtype=bool),))),
        Clause("None adds a dim of size 1", ((2, 3), (3, 1), 0, (None, ":", 2))),
        Clause("a mask covers as many dims as it has", ((2, 3, 4), (12, 4, 1), 0, (np.array([[1, 0, 1], [0, 1, 1]], dtype=bool), 1))),
        Clause("separated advanced entries: their block comes first", ((5, 3, 4), (1, 20, 5), 2, (":", _ints(0, 2), _bools(1, 0, 0, 1)))),
        Clause("an empty result", ((2, 3), (3, 1), 0, (np.zeros(0, np.int64),))),
        Clause("an index of ints only reads one slot: a 0-d int64 array (not a NumPy scalar)", ((2, 3), (3, 1), 4, (1, 2))),
        Clause("raise IndexError when the index is wrong for x", ((2, 3), (3, 1), 0, (_ints(0, 1), _ints(0, 1, 2)))),
    ],
    random_case=random_storage_case,
    tolerance=Tolerance(scalar_for_0d=False),
    hint="Which storage slot does each element of x read, written as one array over the whole of x, and what "
    "do you get when you index that array the way torch indexes x?",
    allowed=STORAGE_POSITIONS_ALLOWED,
    inputs=STORAGE_POSITIONS_INPUTS,
)

EXERCISE = Exercise(notebook="indexing", tasks=(INDEX_SHAPE, MASK_SELECT, ASSIGNMENT_SOURCES, STORAGE_POSITIONS))
