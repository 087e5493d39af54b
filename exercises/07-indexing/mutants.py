"""Mutants of exercise 07 (indexing): plausible wrong versions of each graded function.

Most mutants are the solution with one learner's mistake edited in (:func:`variant` asserts the
edited text is there, so a change to the solution cannot silently turn a mutant into the
solution); the rest are written out whole.
"""

from __future__ import annotations

from pathlib import Path

import nbformat

from tensorlab.grading.tasks import Mutant

NOTEBOOK = Path(__file__).resolve().parent.parent.parent / "exercises" / "07-indexing" / "indexing.ipynb"


def solution(function: str) -> str:
    """The solution's answer cell for ``function``, without nbgrader's markers."""
    for cell in nbformat.read(str(NOTEBOOK), as_version=4).cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == f"{function}_solution":
            return "\n".join(line for line in cell.source.splitlines() if "### " not in line) + "\n"
    raise KeyError(function)


def variant(function: str, mistake: str, *edits: tuple[str, str], nudge: str) -> Mutant:
    source = solution(function)
    for old, new in edits:
        assert old in source, f"{function}/{mistake}: {old!r} is not in the solution"
        source = source.replace(old, new)
    return Mutant(function, mistake, source, nudge=nudge)


INDEX_SHAPE = [
    variant("index_shape", "numpy-placement-ints-count-as-arrays",
            ('''        else:
            if not -shape[dim] <= entry < shape[dim]:''', '''        else:
            kept.append("int")  # NumPy's rule: an int among index arrays is one more index array
            blocks.append(())
            if not -shape[dim] <= entry < shape[dim]:'''),
            ('''    places = [position for position, entry in enumerate(kept) if entry == "advanced"]
    rest = [entry for entry in kept if entry != "advanced"]''', '''    places = [position for position, entry in enumerate(kept) if entry in ("advanced", "int")]
    rest = [entry for entry in kept if entry not in ("advanced", "int")]'''),
            ("    if not blocks:\n        return tuple(kept)\n", "    if not blocks:\n        return tuple(kept)\n    if \"advanced\" not in kept:\n        return tuple(entry for entry in kept if entry != \"int\")\n"),
            nudge="Does torch count an int among the advanced entries when it decides whether they are adjacent, or apply it first as a select?"),
    variant("index_shape", "block-always-in-place",
            ("    at = places[0] if places[-1] - places[0] == len(places) - 1 else 0", "    at = places[0]"),
            nudge="When a full slice or a None separates the advanced entries, where does their block of dims go?"),
    variant("index_shape", "block-always-first",
            ("    at = places[0] if places[-1] - places[0] == len(places) - 1 else 0", "    at = 0"),
            nudge="When the advanced entries sit next to each other, does their block still move to the front?"),
    variant("index_shape", "arrays-make-a-grid-not-zipped",
            ('''    ndim = max(len(block) for block in blocks)
    block = [1] * ndim
    for other in blocks:
        other = (1,) * (ndim - len(other)) + tuple(other)
        for d, size in enumerate(other):
            if size != block[d] and 1 not in (size, block[d]):
                raise IndexError("shape mismatch: indexing tensors could not be broadcast together")
            if block[d] == 1:
                block[d] = size''', '''    block = [size for other in blocks for size in other]  # one dim per array, like a grid'''),
            nudge="Do two index arrays of length 2 pick 2 elements, paired up, or 4, every combination?"),
    variant("index_shape", "mask-keeps-its-shape",
            ("            blocks.append((int(entry.sum()),))", "            blocks.append(entry.shape)"),
            nudge="How many dims does a mask's selection make in the result: as many as the mask has, or one?"),
    variant("index_shape", "mask-uses-one-dim",
            ("            dim += entry.ndim", "            dim += 1"),
            ("            return entry.ndim", "            return 1"),
            ("            if entry.shape != tuple(shape[dim:dim + entry.ndim]):", "            if entry.shape[0] != shape[dim]:"),
            nudge="How many dims of x does a 2-d mask cover?"),
    variant("index_shape", "none-ignored",
            ("        if entry is None:\n            kept.append(1)", "        if entry is None:\n            pass"),
            nudge="What does None add to the result's shape, even though it uses up no dim of x?"),
    variant("index_shape", "no-range-check-for-ints",
            ('''            if not -shape[dim] <= entry < shape[dim]:
                raise IndexError(f"index {entry} is out of bounds for dimension {dim} with size {shape[dim]}")
''', ""), nudge="What should an int beyond its dim's size do?"),
    variant("index_shape", "negative-ints-refused",
            ("            if not -shape[dim] <= entry < shape[dim]:", "            if not 0 <= entry < shape[dim]:"),
            nudge="Is a negative int out of range, or does it count from the end?"),
    variant("index_shape", "returns-a-list",
            ("    return tuple(rest[:at]) + tuple(block) + tuple(rest[at:])", "    return rest[:at] + list(block) + rest[at:]"),
            ("        return tuple(kept)", "        return kept"),
            nudge="Which type does the statement ask you to return, and is a list that type?"),
    Mutant("index_shape", "indexes-an-array-of-that-shape", '''
def index_shape(shape, index):
    x = np.empty(shape, dtype=np.int8)
    return x[tuple(slice(None) if entry == ":" else entry for entry in index)].shape
''', nudge="Can you allocate an array of a shape far too large, and does NumPy place the block of advanced dims where torch does?"),
    Mutant("index_shape", "indexes-a-zero-stride-array", '''
def index_shape(shape, index):
    x = np.lib.stride_tricks.as_strided(np.zeros(1, dtype=np.int8), shape, (0,) * len(shape))
    first = tuple(entry if type(entry) is int else slice(None) for entry in index if entry is not None)
    return x[tuple(slice(None) if isinstance(entry, str) else entry for entry in index if type(entry) is not int)].shape
''', nudge="Is letting NumPy index a stand-in array the same as working out torch's rules from the shapes alone?"),
    Mutant("index_shape", "calls-the-reference", '''
import tensorlab
def index_shape(shape, index):
    items = tuple(slice(None) if isinstance(e, str) else tensorlab.tensor(e.tolist()) if isinstance(e, np.ndarray) else e for e in index)
    return tuple(tensorlab.zeros(shape)[items].shape)
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
]

MASK_SELECT = [
    Mutant("index_shape", "none-does-not-separate", '''
def index_shape(shape, index):
    def uses(entry):  # how many dims of x an entry uses up
        if entry is None:
            return 0
        if isinstance(entry, np.ndarray) and entry.dtype == bool:
            return entry.ndim
        return 1

    used = sum(uses(entry) for entry in index)
    if used > len(shape):
        raise IndexError(f"too many indices for tensor of dimension {len(shape)}")
    index = tuple(index) + (":",) * (len(shape) - used)
    kept = []  # what the result has once the ints are gone: sizes, and "advanced" markers
    blocks = []  # the shapes of the advanced entries, to broadcast together
    dim = 0
    for entry in index:
        if entry is None:
            kept.append(1)
        elif isinstance(entry, np.ndarray) and entry.dtype == bool:
            if entry.shape != tuple(shape[dim:dim + entry.ndim]):
                raise IndexError(f"the shape of the mask {list(entry.shape)} does not match {list(shape)} at dim {dim}")
            blocks.append((int(entry.sum()),))
            kept.append("advanced")
            dim += entry.ndim
        elif isinstance(entry, np.ndarray):
            if entry.size and (entry.min() < -shape[dim] or entry.max() >= shape[dim]):
                raise IndexError(f"a position is out of bounds for dimension {dim} with size {shape[dim]}")
            blocks.append(entry.shape)
            kept.append("advanced")
            dim += 1
        elif entry == ":":
            kept.append(shape[dim])
            dim += 1
        else:
            if not -shape[dim] <= entry < shape[dim]:
                raise IndexError(f"index {entry} is out of bounds for dimension {dim} with size {shape[dim]}")
            dim += 1
    if not blocks:
        return tuple(kept)
    ndim = max(len(block) for block in blocks)
    block = [1] * ndim
    for other in blocks:
        other = (1,) * (ndim - len(other)) + tuple(other)
        for d, size in enumerate(other):
            if size != block[d] and 1 not in (size, block[d]):
                raise IndexError("shape mismatch: indexing tensors could not be broadcast together")
            if block[d] == 1:
                block[d] = size
    places = [position for position, entry in enumerate(kept) if entry == "advanced"]
    rest = [entry for entry in kept if entry != "advanced"]
    start = 0
    while not isinstance(index[start], np.ndarray):
        start += 1
    if all(e is None or isinstance(e, (int, np.ndarray)) for e in index[start:]):  # only None between: adjacent
        places = list(range(places[0], places[0] + len(places)))
    at = places[0] if places[-1] - places[0] == len(places) - 1 else 0
    return tuple(rest[:at]) + tuple(block) + tuple(rest[at:])
''', nudge="Between two advanced entries, does a None count as something that separates them, the way a \":\" does?"),
    Mutant("mask_select", "calls-the-reference", '''
import tensorlab
def mask_select(x, mask):
    return tensorlab.tensor(x)[tensorlab.tensor(mask)].numpy()
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
    Mutant("mask_select", "masks-an-arange-instead-of-x", '''
def mask_select(x, mask):
    if mask.shape != x.shape[:mask.ndim]:
        raise IndexError("The shape of the mask does not match the shape of the indexed tensor")
    flat = mask.reshape(-1)
    rows = x.reshape((flat.size, *x.shape[mask.ndim:]))
    return rows.take(np.arange(flat.size)[flat], axis=0)
''', nudge="Is indexing a fresh range of positions with the mask any less a boolean-mask index than indexing x with it?"),
    Mutant("mask_select", "calls-nonzero", '''
def mask_select(x, mask):
    if mask.shape != x.shape[:mask.ndim]:
        raise IndexError("mask")
    return x[np.nonzero(mask)]
''', nudge="Is NumPy's nonzero among what this part lets you use, or is finding the positions of the Trues your job?"),
    Mutant("mask_select", "indexes-with-the-mask", '''
def mask_select(x, mask):
    if mask.shape != x.shape[:mask.ndim]:
        raise IndexError("mask")
    return x[mask]
''', nudge="Indexing with the mask is exactly what you are asked to write: can it be part of the answer?"),
    Mutant("mask_select", "indexes-a-reshape-with-the-flat-mask", '''
def mask_select(x, mask):
    if mask.shape != x.shape[:mask.ndim]:
        raise IndexError("mask")
    flat = mask.reshape(-1)
    rows = x.reshape((flat.size, *x.shape[mask.ndim:]))
    return rows[flat.astype(bool)].copy()
''', nudge="Is a flattened mask any less a boolean index than the mask itself?"),
    Mutant("mask_select", "loops-with-a-comprehension", '''
def mask_select(x, mask):
    if mask.shape != x.shape[:mask.ndim]:
        raise IndexError("mask")
    flat = mask.reshape(-1)
    rows = x.reshape((flat.size, *x.shape[mask.ndim:]))
    picked = [rows[k] for k in range(flat.size) if flat[k]]
    return np.array(picked, dtype=x.dtype).reshape((len(picked),) + x.shape[mask.ndim:])
''', nudge="Is a comprehension any less a loop over elements than a for statement?"),
    variant("mask_select", "column-major-order",
            ("    flat = mask.reshape(-1)\n    rows = x.reshape((flat.size, *x.shape[mask.ndim:]))",
             "    flat = mask.reshape(-1, order=\"F\")\n    rows = x.reshape((flat.size,) + x.shape[mask.ndim:], order=\"F\")"),
            nudge="In which order does torch list the selected elements: row by row, or column by column?"),
    variant("mask_select", "no-shape-check",
            ('''    if mask.shape != x.shape[:mask.ndim]:
        raise IndexError(f"The shape of the mask {list(mask.shape)} does not match the shape of the indexed tensor {list(x.shape)}")
''', ""), nudge="What should happen when the mask's shape differs from x's leading dims?"),
    variant("mask_select", "off-by-one-count",
            ("np.arange(1, count + 1)", "np.arange(count)"),
            nudge="What is the running count of Trues at the first True, and which counts does your search look for?"),
    variant("mask_select", "flattens-everything",
            ("    rows = x.reshape((flat.size, *x.shape[mask.ndim:]))", "    rows = x.reshape(-1)[: flat.size]"),
            nudge="When the mask covers fewer dims than x has, is each selected item one element or a whole sub-array?"),
    variant("mask_select", "result-as-float",
            ("    return rows[positions]", "    return rows[positions].astype(float)"),
            nudge="Does selecting elements change their dtype?"),
    variant("mask_select", "assumes-contiguous-memory",
            ("    rows = x.reshape((flat.size, *x.shape[mask.ndim:]))",
             "    rows = np.frombuffer(x.base if x.base is not None else x, dtype=x.dtype)[: x.size].reshape((flat.size,) + x.shape[mask.ndim:])"),
            nudge="Does x's memory hold its elements in row-major order when x is a transposed or strided view?"),
    Mutant("mask_select", "loops-with-while", '''
def mask_select(x, mask):
    if mask.shape != x.shape[:mask.ndim]:
        raise IndexError("mask")
    flat = mask.reshape(-1)
    rows = x.reshape((flat.size, *x.shape[mask.ndim:]))
    positions = []
    k = 0
    while k < flat.size:
        if flat[k]:
            positions.append(k)
        k += 1
    return rows[np.array(positions, dtype=np.int64)]
''', nudge="Is a while loop over the mask any less a loop over elements?"),
]

ASSIGNMENT_SOURCES = [
    Mutant("assignment_sources", "numpy-placement", '''
def assignment_sources(shape, index, value_shape):
    sources = np.full(shape, -1, dtype=np.int64)
    labels = np.arange(int(np.prod(value_shape)), dtype=np.int64).reshape(value_shape)
    try:
        sources[tuple(slice(None) if isinstance(entry, str) else entry for entry in index)] = labels
    except ValueError as error:
        raise RuntimeError(str(error)) from None
    return sources
''', nudge="Does NumPy's assignment apply the ints first, as torch does, when it decides where the block of advanced dims goes?"),
    variant("assignment_sources", "keeps-extra-leading-ones",
            ('''    while labels.ndim > ndim and labels.shape[0] == 1:  # torch drops v's extra leading 1s
        labels = labels[0]
''', ""), nudge="What does torch do with extra leading dims of size 1 in v that the target does not have?"),
    variant("assignment_sources", "numpy-error-class",
            ("    except ValueError as error:\n        raise RuntimeError(f\"shape mismatch: value of shape {list(value_shape)}: {error}\") from None",
             "    except ValueError:\n        raise"),
            nudge="Which exception class does torch raise when v does not broadcast to the target, and which does NumPy raise?"),
    variant("assignment_sources", "untouched-hold-zero",
            ("    sources = np.full(shape, -1, dtype=np.int64)", "    sources = np.zeros(shape, dtype=np.int64)"),
            nudge="What marks an element of x the assignment does not write, and can 0 mean that when 0 is also a flat position of v?"),
    variant("assignment_sources", "labels-column-major",
            (".reshape(value_shape)", ".reshape(value_shape, order=\"F\")"),
            nudge="In which order are v's flat positions numbered: row-major or column-major?"),
    variant("assignment_sources", "counts-from-one",
            ("np.arange(int(np.prod(value_shape)), dtype=np.int64)", "np.arange(1, int(np.prod(value_shape)) + 1, dtype=np.int64)"),
            nudge="Is the flat position of v's first element 0 or 1?"),
    variant("assignment_sources", "float-result",
            ("    sources = np.full(shape, -1, dtype=np.int64)", "    sources = np.full(shape, -1.0)"),
            nudge="Which dtype does the statement ask for, and is that the dtype of your result?"),
    variant("assignment_sources", "tiles-instead-of-broadcasting",
            ("        target[tuple(rest)] = labels  # NumPy broadcasts labels to target[rest], as torch does",
             "        picked = target[tuple(rest)]\n        target[tuple(rest)] = np.resize(labels, picked.shape)"),
            nudge="When v is smaller than the target, does torch repeat it to fill the space, or stretch only its size-1 dims?"),
    variant("assignment_sources", "every-error-is-a-runtime-error",
            ("    target = sources[(*first, ...)]", "    try:\n        target = sources[(*first, ...)]\n    except IndexError as error:\n        raise RuntimeError(str(error)) from None"),
            nudge="Is a wrong index the same kind of error as a value that does not broadcast?"),
    Mutant("assignment_sources", "calls-the-reference", '''
import torch
def assignment_sources(shape, index, value_shape):
    items = tuple(slice(None) if isinstance(e, str) else torch.from_numpy(e) if isinstance(e, np.ndarray) else e for e in index)
    target = torch.full(tuple(shape), -1, dtype=torch.int64)
    target[items] = torch.arange(int(np.prod(value_shape))).view(tuple(value_shape))
    return target.numpy()
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
]

STORAGE_POSITIONS = [
    Mutant("storage_positions", "numpy-placement", '''
def storage_positions(shape, strides, offset, index):
    positions = offset + np.tensordot(np.indices(shape, dtype=np.int64), np.asarray(strides, dtype=np.int64), axes=(0, 0))
    return np.asarray(positions[tuple(slice(None) if isinstance(e, str) else e for e in index)], dtype=np.int64)
''', nudge="Does NumPy's indexing apply the ints first, as torch does, before it places the block of advanced dims?"),
    variant("storage_positions", "forgets-the-offset",
            ("    positions = offset + np.tensordot(", "    positions = np.tensordot("),
            nudge="At which storage slot does x's first element sit?"),
    Mutant("storage_positions", "assumes-contiguous", '''
def storage_positions(shape, strides, offset, index):
    positions = offset + np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)
    first, rest = [], []
    for entry in index:
        if type(entry) is int:
            first.append(entry)
        else:
            uses = 0 if entry is None else entry.ndim if isinstance(entry, np.ndarray) and entry.dtype == bool else 1
            first.extend([slice(None)] * uses)
            rest.append(slice(None) if isinstance(entry, str) else entry)
    return np.asarray(positions[tuple(first)][tuple(rest)], dtype=np.int64)
''', nudge="Do the strides you are given always describe a contiguous layout of this shape?"),
    variant("storage_positions", "strides-reversed",
            ("np.asarray(strides, dtype=np.int64)", "np.asarray(strides[::-1], dtype=np.int64)"),
            nudge="Which dim does each stride belong to, in the order they are given?"),
    variant("storage_positions", "mask-uses-one-dim",
            ("            uses = 0 if entry is None else entry.ndim if isinstance(entry, np.ndarray) and entry.dtype == bool else 1",
             "            uses = 0 if entry is None else 1"),
            nudge="How many of x's dims does a 2-d mask cover?"),
    variant("storage_positions", "none-uses-a-dim",
            ("            uses = 0 if entry is None else entry.ndim", "            uses = 1 if entry is None else entry.ndim"),
            nudge="Does None use up a dim of x, or only insert a new one?"),
    variant("storage_positions", "float-positions",
            ("    return np.asarray(positions[tuple(first)][tuple(rest)], dtype=np.int64)",
             "    return np.asarray(positions[tuple(first)][tuple(rest)], dtype=float)"),
            nudge="What dtype should a storage slot number have?"),
    variant("storage_positions", "stride-zero-taken-as-one",
            ("np.asarray(strides, dtype=np.int64)", "np.maximum(np.asarray(strides, dtype=np.int64), 1)"),
            nudge="Along an expanded dim with stride 0, do the positions move through storage at all?"),
    variant("storage_positions", "errors-give-an-empty-result",
            ("    return np.asarray(positions[tuple(first)][tuple(rest)], dtype=np.int64)",
             "    try:\n        return np.asarray(positions[tuple(first)][tuple(rest)], dtype=np.int64)\n    except IndexError:\n        return np.zeros(0, dtype=np.int64)"),
            nudge="What should a wrong index do: give an empty result, or raise?"),
    Mutant("storage_positions", "calls-the-reference", '''
import tensorlab
def storage_positions(shape, strides, offset, index):
    span = offset + 1 + sum((size - 1) * stride for size, stride in zip(shape, strides))
    x = tensorlab.arange(max(span, 1)).as_strided(tuple(shape), tuple(strides), offset)
    items = tuple(slice(None) if isinstance(e, str) else tensorlab.tensor(e.tolist()) if isinstance(e, np.ndarray) else e for e in index)
    return x[items].numpy()
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
]

# Holes closed by issue 26: a view of x where a new array is promised, helpers that do the work under another
# name (refused by the allow-list), a NumPy scalar where a 0-d array is promised.
MASK_SELECT += [
    Mutant("mask_select", "all-true-returns-a-view-of-x", '''
def mask_select(x, mask):
    if mask.shape != x.shape[:mask.ndim]:
        raise IndexError("mask")
    flat = mask.reshape(-1)
    rows = x.reshape((flat.size, *x.shape[mask.ndim:]))
    if flat.all():
        return rows
    positions = np.searchsorted(np.cumsum(flat), np.arange(1, int(flat.sum()) + 1))
    return rows[positions]
''', nudge="When every entry of the mask is True, does your result share memory with x, when a new array is promised?"),
    Mutant("mask_select", "np-repeat-by-the-mask", '''
def mask_select(x, mask):
    if mask.shape != x.shape[:mask.ndim]:
        raise IndexError("mask")
    flat = mask.reshape(-1)
    return np.repeat(x.reshape((flat.size, *x.shape[mask.ndim:])), flat.astype(np.int64), axis=0)
''', nudge="Is NumPy's repeat on this part's list of what you may use, or is it selecting by the mask under another name?"),
    Mutant("mask_select", "nonzero-through-methodcaller", '''
import operator
def mask_select(x, mask):
    if mask.shape != x.shape[:mask.ndim]:
        raise IndexError("mask")
    flat = mask.reshape(-1)
    (positions,) = operator.methodcaller("nonzero")(flat)
    return x.reshape((flat.size, *x.shape[mask.ndim:]))[positions]
''', nudge="Is calling nonzero by name through a helper any different from calling it directly?"),
]
ASSIGNMENT_SOURCES += [
    Mutant("assignment_sources", "broadcast-to-in-disguise-with-as-strided", '''
def assignment_sources(shape, index, value_shape):
    sources = np.full(shape, -1, dtype=np.int64)
    first, rest = [], []
    for entry in index:
        if type(entry) is int:
            first.append(entry)
        else:
            uses = 0 if entry is None else entry.ndim if isinstance(entry, np.ndarray) and entry.dtype == bool else 1
            first.extend([slice(None)] * uses)
            rest.append(slice(None) if isinstance(entry, str) else entry)
    target = sources[(*first, ...)]
    labels = np.arange(int(np.prod(value_shape)), dtype=np.int64).reshape(value_shape)
    want = target[tuple(rest)].shape
    while labels.ndim > len(want) and labels.shape[0] == 1:
        labels = labels[0]
    pad = len(want) - labels.ndim
    if pad < 0 or not all(size in (1, goal) for size, goal in zip(labels.shape, want[pad:])):
        raise RuntimeError("shape mismatch")
    strides = (0,) * pad + tuple(0 if size == 1 else step for size, step in zip(labels.shape, labels.strides))
    target[tuple(rest)] = np.lib.stride_tricks.as_strided(labels, want, strides)
    return sources
''', nudge="Is broadcasting with zero strides by hand any different from the broadcast functions the statement rules out?"),
    Mutant("assignment_sources", "copyto-broadcasts-for-it", '''
def assignment_sources(shape, index, value_shape):
    sources = np.full(shape, -1, dtype=np.int64)
    first, rest = [], []
    for entry in index:
        if type(entry) is int:
            first.append(entry)
        else:
            uses = 0 if entry is None else entry.ndim if isinstance(entry, np.ndarray) and entry.dtype == bool else 1
            first.extend([slice(None)] * uses)
            rest.append(slice(None) if isinstance(entry, str) else entry)
    target = sources[(*first, ...)]
    labels = np.arange(int(np.prod(value_shape)), dtype=np.int64).reshape(value_shape)
    picked = np.empty(target[tuple(rest)].shape, dtype=np.int64)
    while labels.ndim > picked.ndim and labels.shape[0] == 1:
        labels = labels[0]
    try:
        np.copyto(picked, labels)
    except ValueError as error:
        raise RuntimeError(str(error)) from None
    target[tuple(rest)] = picked
    return sources
''', nudge="Is a copy function that broadcasts v for you on this part's list of what you may use?"),
]
STORAGE_POSITIONS += [
    variant("storage_positions", "0-d-result-as-a-numpy-scalar",
            ("    return np.asarray(positions[tuple(first)][tuple(rest)], dtype=np.int64)",
             "    return positions[tuple(first)][tuple(rest)]"),
            nudge="When the index is all ints, is what you return a 0-d array or a NumPy scalar?"),
]

MUTANTS = INDEX_SHAPE + MASK_SELECT + ASSIGNMENT_SOURCES + STORAGE_POSITIONS
