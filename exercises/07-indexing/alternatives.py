"""Correct answers of exercise 07 (indexing) written other ways than the solution: each must keep full marks."""

from tensorlab.grading import Alternative

ALTERNATIVES = [
    # --- index_shape ----------------------------------------------------------------------
    Alternative("index_shape", "pattern-string-and-zip-longest-broadcast", '''
import itertools
import re
import numpy as np

def index_shape(shape, index):
    """The shape of x[index] for a tensor x of this shape, by torch's rules."""
    shape = tuple(shape)

    def is_mask(entry):
        return isinstance(entry, np.ndarray) and entry.dtype == np.bool_

    needed = 0
    for entry in index:
        if is_mask(entry):
            needed += entry.ndim
        elif entry is not None:
            needed += 1
    if needed > len(shape):
        raise IndexError("too many indices for tensor")
    entries = list(index) + [":"] * (len(shape) - needed)

    pattern = ""  # one letter per entry that survives the ints: s for a size, A for an advanced entry
    sizes = []  # the sizes of the s letters, in order
    advanced = []  # the shapes to broadcast together
    dim = 0
    for entry in entries:
        if entry is None:
            pattern += "s"
            sizes.append(1)
        elif isinstance(entry, str):
            pattern += "s"
            sizes.append(shape[dim])
            dim += 1
        elif is_mask(entry):
            if entry.shape != shape[dim:dim + entry.ndim]:
                raise IndexError("the shape of the mask does not match the shape of the indexed tensor")
            pattern += "A"
            advanced.append((int(np.count_nonzero(entry)),))
            dim += entry.ndim
        elif isinstance(entry, np.ndarray):
            size = shape[dim]
            if entry.size and (np.any(entry >= size) or np.any(entry < -size)):
                raise IndexError(f"index out of bounds for dimension {dim} with size {size}")
            pattern += "A"
            advanced.append(tuple(entry.shape))
            dim += 1
        else:  # an int: a select, gone before anything else is placed
            if entry >= shape[dim] or entry < -shape[dim]:
                raise IndexError(f"index {entry} is out of bounds for dimension {dim} with size {shape[dim]}")
            dim += 1
    if not advanced:
        return tuple(sizes)

    block = []
    for column in itertools.zip_longest(*[s[::-1] for s in advanced], fillvalue=1):
        others = set(column) - {1}
        if len(others) > 1:
            raise IndexError("shape mismatch: indexing tensors could not be broadcast together")
        block.append(others.pop() if others else 1)
    block = tuple(block[::-1])

    together = re.fullmatch("(s*)A+s*", pattern)  # all the A letters side by side?
    at = len(together.group(1)) if together else 0
    return tuple(sizes[:at]) + block + tuple(sizes[at:])
'''),
    Alternative("index_shape", "two-passes-with-np-broadcast-shapes", '''
import numpy as np

def index_shape(shape, index):
    """The shape of x[index] for a tensor x of this shape, by torch's rules."""
    # first pass: which dims of x each entry covers, checked, with the ints left out
    placed = []  # (entry, first dim of x it covers) for every entry that is not an int
    dim = 0
    for entry in index:
        if type(entry) is int:
            if dim >= len(shape):
                raise IndexError("too many indices for tensor")
            if not -shape[dim] <= entry <= shape[dim] - 1:
                raise IndexError("index out of range")
            dim += 1
            continue
        placed.append((entry, dim))
        if entry is None:
            continue
        width = entry.ndim if isinstance(entry, np.ndarray) and entry.dtype == bool else 1
        if dim + width > len(shape):
            raise IndexError("too many indices for tensor")
        dim += width
    for rest in range(dim, len(shape)):
        placed.append((":", rest))

    # second pass: the result, with the advanced entries zipped into one block
    out, shapes, where = [], [], []
    for entry, start in placed:
        if entry is None:
            out.append(1)
        elif isinstance(entry, str):
            out.append(shape[start])
        elif entry.dtype == bool:
            if tuple(entry.shape) != tuple(shape[start:start + entry.ndim]):
                raise IndexError("mask shape mismatch")
            where.append(len(out))
            shapes.append((int(entry.sum()),))
        else:
            if entry.size > 0 and not (entry.min() >= -shape[start] and entry.max() < shape[start]):
                raise IndexError("index out of range")
            where.append(len(out))
            shapes.append(entry.shape)
    if not shapes:
        return tuple(out)
    try:
        block = np.broadcast_shapes(*shapes)
    except ValueError:
        raise IndexError("shape mismatch: indexing tensors could not be broadcast together") from None
    # where[k] is how many non-advanced dims come before the k-th advanced entry
    at = where[0] if where[0] == where[-1] else 0
    return tuple(out[:at]) + tuple(int(n) for n in block) + tuple(out[at:])
'''),
    # --- mask_select ----------------------------------------------------------------------
    Alternative("mask_select", "stable-argsort-of-the-falses", '''
import numpy as np

def mask_select(x, mask):
    """torch's x[mask], from running counts and integer positions."""
    if mask.shape != x.shape[:mask.ndim]:
        raise IndexError("The shape of the mask does not match the shape of the indexed tensor")
    rest = x.shape[mask.ndim:]
    flat = mask.ravel()
    rows = x.reshape((flat.size,) + rest)
    count = int(np.count_nonzero(flat))
    # a stable sort puts the Trues (key False) first, each group in its original order
    order = np.argsort(np.logical_not(flat), kind="stable")
    return rows[order[:count]]
'''),
    Alternative("mask_select", "sort-the-masked-positions", '''
def mask_select(x, mask):
    if mask.shape != x.shape[:mask.ndim]:
        raise IndexError("The shape of the mask does not match the shape of the indexed tensor")
    flat = mask.reshape(-1)
    rows = x.reshape((flat.size, *x.shape[mask.ndim:]))
    ranked = np.sort(np.arange(1, flat.size + 1) * flat)  # 0 for a False, position + 1 for a True
    return rows.take(ranked[flat.size - int(flat.sum()):] - 1, axis=0)
'''),
    Alternative("mask_select", "scatter-rows-to-their-rank", '''
import numpy as np

def mask_select(x, mask):
    """torch's x[mask], from running counts and integer positions."""
    if tuple(mask.shape) != tuple(x.shape[:mask.ndim]):
        raise IndexError("mask shape mismatch")
    rest = x.shape[mask.ndim:]
    keep = mask.reshape(-1).astype(np.int64)
    rows = x.reshape((keep.size,) + rest)
    count = int(keep.sum())
    # each kept row goes to slot (running count - 1); every dropped row to the spare slot `count`
    slot = (np.cumsum(keep) - 1) * keep + count * (1 - keep)
    out = np.empty((count + 1,) + rest, dtype=x.dtype)
    out[slot] = rows
    return out[:count].copy()
'''),
    Alternative("mask_select", "sort-keys-trues-first", '''
import numpy as np

def mask_select(x, mask):
    """torch's x[mask], from running counts and integer positions."""
    if mask.shape != x.shape[:mask.ndim]:
        raise IndexError("mask does not fit x")
    n = mask.size
    falses = np.invert(mask.reshape(n)).astype(np.int64)
    keys = np.arange(n, dtype=np.int64) + n * falses  # a False row sorts after every True row
    picked = np.sort(keys)[: n - int(falses.sum())]
    return x.reshape((n,) + x.shape[mask.ndim:]).take(picked, axis=0)
'''),
    # --- assignment_sources ---------------------------------------------------------------
    Alternative("assignment_sources", "flat-targets-and-stride-zero-labels", '''
import math
import numpy as np

def assignment_sources(shape, index, value_shape):
    """For each element of x, the flat position of the element of v that x[index] = v puts there (-1: none)."""
    # the flat position in x of every element of x[index], ints applied first
    where = np.arange(math.prod(shape), dtype=np.int64).reshape(shape)
    ints, others = [], []
    for entry in index:
        if isinstance(entry, int):
            ints.append(entry)
        elif entry is None:
            others.append(None)
        elif isinstance(entry, str):
            ints.append(slice(None))
            others.append(slice(None))
        else:
            ints.extend([slice(None)] * (entry.ndim if entry.dtype == np.bool_ else 1))
            others.append(entry)
    targets = np.asarray(where[tuple(ints) + (Ellipsis,)][tuple(others)])

    # torch's broadcasting of v to targets.shape, as strides: 0 where v's size 1 stretches
    v = list(value_shape)
    while len(v) > targets.ndim and v[0] == 1:
        v.pop(0)
    if len(v) > targets.ndim:
        raise RuntimeError("shape mismatch: value tensor cannot be broadcast to indexing result")
    v = [1] * (targets.ndim - len(v)) + v
    v_strides = [0] * len(v)
    step = 1
    for d in range(len(v) - 1, -1, -1):
        if v[d] != targets.shape[d] and v[d] != 1:
            raise RuntimeError(f"shape mismatch: value tensor of shape {list(value_shape)} cannot be broadcast "
                               f"to indexing result of shape {list(targets.shape)}")
        v_strides[d] = 0 if v[d] == 1 else step
        step *= v[d]
    labels = np.zeros(targets.shape, dtype=np.int64)
    grid = np.indices(targets.shape, dtype=np.int64)
    for d in range(targets.ndim):
        labels += grid[d] * v_strides[d]

    sources = np.full(math.prod(shape), -1, dtype=np.int64)
    sources[targets.reshape(-1)] = labels.reshape(-1)
    return sources.reshape(shape)
'''),
    Alternative("assignment_sources", "select-ints-one-by-one-and-repeat-v", '''
import numpy as np

def assignment_sources(shape, index, value_shape):
    """For each element of x, the flat position of the element of v that x[index] = v puts there (-1: none)."""
    sources = -np.ones(shape, dtype=np.int64)
    view = sources
    rest = []
    dim = 0  # the dim of view the next entry indexes
    for entry in index:
        if type(entry) is int:
            view = view[(slice(None),) * dim + (entry, Ellipsis)]  # a view without that dim
        elif entry is None:
            rest.append(None)
        elif isinstance(entry, str):
            rest.append(slice(None))
            dim += 1
        else:
            rest.append(entry)
            dim += entry.ndim if entry.dtype == bool else 1
    rest = tuple(rest)
    target_shape = view[rest].shape  # a copy, just to read the shape of x[index]

    labels = np.arange(int(np.prod(value_shape, dtype=np.int64)), dtype=np.int64).reshape(value_shape)
    while labels.ndim > len(target_shape) and labels.shape[0] == 1:
        labels = labels.reshape(labels.shape[1:])
    if labels.ndim > len(target_shape):
        raise RuntimeError("shape mismatch: value tensor cannot be broadcast to indexing result")
    labels = labels.reshape((1,) * (len(target_shape) - labels.ndim) + labels.shape)
    for d, (have, want) in enumerate(zip(labels.shape, target_shape)):
        if have == want:
            continue
        if have != 1:
            raise RuntimeError("shape mismatch: value tensor cannot be broadcast to indexing result")
        labels = np.repeat(labels, want, axis=d)
    view[rest] = labels
    return sources
'''),
    # --- storage_positions ----------------------------------------------------------------
    Alternative("storage_positions", "as-strided-over-an-arange", '''
import numpy as np
from numpy.lib.stride_tricks import as_strided

def storage_positions(shape, strides, offset, index):
    """The storage slot that each element of x[index] reads, for x laid out by shape, strides and offset."""
    # a real storage whose slot k holds k, and x laid over it
    if 0 in shape:
        span = offset + 1
    else:
        span = offset + 1 + sum((n - 1) * s for n, s in zip(shape, strides))
    storage = np.arange(span, dtype=np.int64)
    itemsize = storage.itemsize
    x = as_strided(storage[offset:], shape=tuple(shape), strides=tuple(s * itemsize for s in strides), writeable=False)
    # torch selects with the ints first, then the rest
    selects, others = [], []
    for entry in index:
        if isinstance(entry, int):
            selects.append(entry)
            continue
        if entry is not None:
            width = entry.ndim if isinstance(entry, np.ndarray) and entry.dtype == bool else 1
            selects += [slice(None)] * width
        others.append(slice(None) if isinstance(entry, str) else entry)
    picked = x[tuple(selects)][tuple(others)]
    return np.array(picked, dtype=np.int64)
'''),
    Alternative("storage_positions", "sum-of-dim-ramps-and-stepwise-selects", '''
import numpy as np

def storage_positions(shape, strides, offset, index):
    """The storage slot that each element of x[index] reads, for x laid out by shape, strides and offset."""
    ndim = len(shape)
    slots = np.full(shape, offset, dtype=np.int64)
    for d in range(ndim):
        ramp = np.arange(shape[d], dtype=np.int64) * strides[d]
        slots = slots + ramp.reshape((1,) * d + (shape[d],) + (1,) * (ndim - d - 1))
    if sum(0 if e is None else e.ndim if isinstance(e, np.ndarray) and e.dtype == bool else 1 for e in index) > ndim:
        raise IndexError("too many indices for tensor")
    # apply each int as a select (torch does them first), keeping track of the dim it falls on
    rest = []
    dim = 0
    for entry in index:
        if type(entry) is int:
            if not -slots.shape[dim] <= entry < slots.shape[dim]:
                raise IndexError(f"index {entry} is out of bounds for dimension {dim}")
            slots = np.take(slots, entry, axis=dim)
        elif entry is None:
            rest.append(None)
        elif isinstance(entry, str):
            rest.append(slice(None))
            dim += 1
        else:
            rest.append(entry)
            dim += entry.ndim if entry.dtype == bool else 1
    return np.asarray(slots[tuple(rest)], dtype=np.int64)
'''),
    Alternative("storage_positions", "dtype-kind-and-issubdtype-to-sort-entries", '''
import numpy as np

def storage_positions(shape, strides, offset, index):
    """The storage slot that each element of x[index] reads, for x laid out by shape, strides and offset."""
    slots = offset + np.tensordot(np.indices(shape, dtype=np.int64), np.asarray(strides, dtype=np.int64), axes=(0, 0))
    selects, rest = [], []
    for entry in index:
        if isinstance(entry, np.ndarray) and entry.dtype.kind == "b":
            selects.extend([slice(None)] * entry.ndim)
            rest.append(entry)
        elif isinstance(entry, np.ndarray) and np.issubdtype(entry.dtype, np.integer):
            selects.append(slice(None))
            rest.append(entry)
        elif entry is None:
            rest.append(None)
        elif isinstance(entry, str):
            selects.append(slice(None))
            rest.append(slice(None))
        else:
            selects.append(entry)
    return np.asarray(slots[tuple(selects)][tuple(rest)], dtype=np.int64)
'''),
]
