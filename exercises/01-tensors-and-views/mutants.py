"""Mutants of exercise 01 (tensors_and_views): plausible wrong versions of each graded function."""

from tensorlab.grading.tasks import Mutant

# The right checks of permute_meta, for the mutants that only get the result wrong.
PERMUTE_CHECKS = '''
def permute_meta(shape, strides, dims):
    n = len(shape)
    if len(dims) != n:
        raise RuntimeError("wrong number of dims")
    order = []
    for dim in dims:
        if not -n <= dim < n:
            raise IndexError("Dimension out of range")
        if dim < 0:
            dim += n
        if dim in order:
            raise RuntimeError("permute(): duplicate dims are not allowed.")
        order.append(dim)
'''

# The right checks of broadcast_index, for the mutants that only get the index wrong.
BROADCAST_CHECKS = '''
def broadcast_index(index, out_shape, in_shape):
    lead = len(out_shape) - len(in_shape)
    if lead < 0:
        raise RuntimeError("more dims")
    for dim, size in enumerate(in_shape):
        if size != 1 and size != out_shape[lead + dim]:
            raise RuntimeError("clash")
'''

MUTANTS = [
    # --- storage_index ----------------------------------------------------------------------
    Mutant("storage_index", "forgets-the-offset", '''
def storage_index(index, strides, offset):
    return sum(i * s for i, s in zip(index, strides))
'''),
    Mutant("storage_index", "strides-paired-from-the-wrong-end", '''
def storage_index(index, strides, offset):
    return offset + sum(i * s for i, s in zip(index, reversed(strides)))
'''),
    Mutant("storage_index", "strides-used-as-sizes", '''
def storage_index(index, strides, offset):
    position = 0
    for i, size in zip(index, strides):
        position = position * size + i
    return offset + position
'''),
    Mutant("storage_index", "assumes-the-last-dim-is-contiguous", '''
def storage_index(index, strides, offset):
    position = offset + index[-1]
    for i, s in zip(index[:-1], strides[:-1]):
        position += i * s
    return position
'''),
    Mutant("storage_index", "0-d-is-slot-0", '''
def storage_index(index, strides, offset):
    if not index:
        return 0
    return offset + sum(i * s for i, s in zip(index, strides))
'''),
    Mutant("storage_index", "off-by-one-skips-the-last-dim", '''
def storage_index(index, strides, offset):
    position = offset
    for d in range(len(index) - 1):
        position += index[d] * strides[d]
    return position
'''),
    Mutant("storage_index", "byte-strides-like-numpy", '''
def storage_index(index, strides, offset):
    return 8 * (offset + sum(i * s for i, s in zip(index, strides)))
'''),
    Mutant("storage_index", "returns-a-float", '''
import math
def storage_index(index, strides, offset):
    return offset + math.fsum(i * s for i, s in zip(index, strides))
'''),
    Mutant("storage_index", "numpy-dot", '''
import numpy as np
def storage_index(index, strides, offset):
    return offset + int(np.dot(index, strides))
'''),
    Mutant("storage_index", "calls-the-reference", '''
import tensorlab
def storage_index(index, strides, offset):
    shape = tuple(i + 1 for i in index)
    span = offset + 1 + sum(i * s for i, s in zip(index, strides))
    return int(tensorlab.arange(span).as_strided(shape, strides, offset)[index].item())
'''),
    # --- contiguous_strides -----------------------------------------------------------------
    Mutant("contiguous_strides", "column-major-order", '''
def contiguous_strides(shape):
    strides, step = [], 1
    for size in shape:
        strides.append(step)
        step *= max(size, 1)
    return tuple(strides)
'''),
    Mutant("contiguous_strides", "includes-its-own-size", '''
import math
def contiguous_strides(shape):
    return tuple(math.prod(max(s, 1) for s in shape[d:]) for d in range(len(shape)))
'''),
    Mutant("contiguous_strides", "size-0-multiplies-to-0", '''
import math
def contiguous_strides(shape):
    return tuple(math.prod(shape[d + 1:]) for d in range(len(shape)))
'''),
    Mutant("contiguous_strides", "forgets-to-reverse", '''
def contiguous_strides(shape):
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(strides)
'''),
    Mutant("contiguous_strides", "returns-a-list", '''
def contiguous_strides(shape):
    strides, step = [], 1
    for size in reversed(shape):
        strides.insert(0, step)
        step *= max(size, 1)
    return strides
'''),
    Mutant("contiguous_strides", "0-d-gets-stride-1", '''
def contiguous_strides(shape):
    if not shape:
        return (1,)
    strides, step = [], 1
    for size in reversed(shape):
        strides.insert(0, step)
        step *= max(size, 1)
    return tuple(strides)
'''),
    Mutant("contiguous_strides", "size-1-dims-get-stride-1", '''
def contiguous_strides(shape):
    strides, step = [], 1
    for size in reversed(shape):
        strides.insert(0, 1 if size == 1 else step)
        step *= max(size, 1)
    return tuple(strides)
'''),
    Mutant("contiguous_strides", "numpy-strides-of-an-empty-array", '''
import numpy as np
def contiguous_strides(shape):
    return tuple(int(s) // 8 for s in np.empty((0, *shape)).strides[1:])
'''),
    Mutant("contiguous_strides", "calls-the-reference", '''
import tensorlab
def contiguous_strides(shape):
    return tuple(tensorlab.empty(shape).stride())
'''),
    # --- permute_meta ------------------------------------------------------------------------
    Mutant("permute_meta", "inverse-permutation", PERMUTE_CHECKS + '''
    new_shape, new_strides = [0] * n, [0] * n
    for i, d in enumerate(order):
        new_shape[d], new_strides[d] = shape[i], strides[i]
    return tuple(new_shape), tuple(new_strides)
'''),
    Mutant("permute_meta", "moves-the-sizes-but-not-the-strides", PERMUTE_CHECKS + '''
    return tuple(shape[d] for d in order), tuple(strides)
'''),
    Mutant("permute_meta", "recomputes-contiguous-strides-a-copy-not-a-view", PERMUTE_CHECKS + '''
    new_shape = tuple(shape[d] for d in order)
    strides, step = [], 1
    for size in reversed(new_shape):
        strides.insert(0, step)
        step *= max(size, 1)
    return new_shape, tuple(strides)
'''),
    Mutant("permute_meta", "no-length-check", '''
def permute_meta(shape, strides, dims):
    n = len(shape)
    order = []
    for dim in dims:
        if not -n <= dim < n:
            raise IndexError("Dimension out of range")
        dim = dim % n
        if dim in order:
            raise RuntimeError("duplicate")
        order.append(dim)
    return tuple(shape[d] for d in order), tuple(strides[d] for d in order)
'''),
    Mutant("permute_meta", "no-duplicate-check", '''
def permute_meta(shape, strides, dims):
    if len(dims) != len(shape):
        raise RuntimeError("wrong number of dims")
    return tuple(shape[d] for d in dims), tuple(strides[d] for d in dims)
'''),
    Mutant("permute_meta", "duplicates-checked-before-wrapping-negatives", '''
def permute_meta(shape, strides, dims):
    if len(dims) != len(shape):
        raise RuntimeError("wrong number of dims")
    if len(set(dims)) != len(dims):
        raise RuntimeError("duplicate dims")
    return tuple(shape[d] for d in dims), tuple(strides[d] for d in dims)
'''),
    Mutant("permute_meta", "out-of-range-raises-runtime-error", '''
def permute_meta(shape, strides, dims):
    n = len(shape)
    if len(dims) != n:
        raise RuntimeError("wrong number of dims")
    order = []
    for dim in dims:
        if not -n <= dim < n:
            raise RuntimeError("dim out of range")
        dim = dim % n
        if dim in order:
            raise RuntimeError("duplicate")
        order.append(dim)
    return tuple(shape[d] for d in order), tuple(strides[d] for d in order)
'''),
    Mutant("permute_meta", "duplicate-raises-value-error", '''
def permute_meta(shape, strides, dims):
    n = len(shape)
    if len(dims) != n:
        raise RuntimeError("wrong number of dims")
    order = []
    for dim in dims:
        if not -n <= dim < n:
            raise IndexError("Dimension out of range")
        dim = dim % n
        if dim in order:
            raise ValueError("repeated dim")
        order.append(dim)
    return tuple(shape[d] for d in order), tuple(strides[d] for d in order)
'''),
    Mutant("permute_meta", "checks-all-ranges-before-repeats", '''
def permute_meta(shape, strides, dims):
    n = len(shape)
    if len(dims) != n:
        raise RuntimeError("wrong number of dims")
    for dim in dims:
        if not -n <= dim < n:
            raise IndexError("Dimension out of range")
    order = [dim % n for dim in dims]
    if len(set(order)) != n:
        raise RuntimeError("duplicate")
    return tuple(shape[d] for d in order), tuple(strides[d] for d in order)
'''),
    Mutant("permute_meta", "returns-lists", PERMUTE_CHECKS + '''
    return [shape[d] for d in order], [strides[d] for d in order]
'''),
    Mutant("permute_meta", "numpy-transpose-of-a-strided-array", '''
import numpy as np
def permute_meta(shape, strides, dims):
    x = np.lib.stride_tricks.as_strided(np.zeros(1), shape, tuple(8 * s for s in strides))
    y = x.transpose(dims)
    return tuple(y.shape), tuple(s // 8 for s in y.strides)
'''),
    Mutant("permute_meta", "calls-the-reference", '''
import tensorlab
def permute_meta(shape, strides, dims):
    x = tensorlab.zeros(1).as_strided(shape, strides).permute(dims)
    return tuple(x.shape), tuple(x.stride())
'''),
    # --- broadcast_index ---------------------------------------------------------------------
    Mutant("broadcast_index", "lines-up-from-the-left", '''
def broadcast_index(index, out_shape, in_shape):
    if len(in_shape) > len(out_shape):
        raise RuntimeError("more dims")
    for dim, size in enumerate(in_shape):
        if size != 1 and size != out_shape[dim]:
            raise RuntimeError("clash")
    return tuple(0 if size == 1 else index[dim] for dim, size in enumerate(in_shape))
'''),
    Mutant("broadcast_index", "forgets-that-size-1-reads-index-0", BROADCAST_CHECKS + '''
    return tuple(index[lead + dim] for dim in range(len(in_shape)))
'''),
    Mutant("broadcast_index", "keeps-the-leading-dims", BROADCAST_CHECKS + '''
    padded = (1,) * lead + tuple(in_shape)
    return tuple(0 if size == 1 else i for i, size in zip(index, padded))
'''),
    Mutant("broadcast_index", "negative-slice-of-a-0-d-input", BROADCAST_CHECKS + '''
    tail = list(index[-len(in_shape):])
    for dim, size in enumerate(in_shape):
        if size == 1:
            tail[dim] = 0
    return tuple(tail)
'''),
    Mutant("broadcast_index", "modulo-without-checks", '''
def broadcast_index(index, out_shape, in_shape):
    lead = len(out_shape) - len(in_shape)
    return tuple(index[lead + dim] % size for dim, size in enumerate(in_shape))
'''),
    Mutant("broadcast_index", "checks-only-the-dims-the-index-leaves", '''
def broadcast_index(index, out_shape, in_shape):
    lead = len(out_shape) - len(in_shape)
    if lead < 0:
        raise RuntimeError("more dims")
    result = []
    for dim, size in enumerate(in_shape):
        i = 0 if size == 1 else index[lead + dim]
        if i >= size:
            raise RuntimeError("out of range")
        result.append(i)
    return tuple(result)
'''),
    Mutant("broadcast_index", "size-0-stretches-like-1", '''
def broadcast_index(index, out_shape, in_shape):
    lead = len(out_shape) - len(in_shape)
    if lead < 0:
        raise RuntimeError("more dims")
    for dim, size in enumerate(in_shape):
        if size > 1 and size != out_shape[lead + dim]:
            raise RuntimeError("clash")
    return tuple(0 if size <= 1 else index[lead + dim] for dim, size in enumerate(in_shape))
'''),
    Mutant("broadcast_index", "no-check-for-more-dims", '''
def broadcast_index(index, out_shape, in_shape):
    lead = max(len(out_shape) - len(in_shape), 0)
    for dim, size in enumerate(in_shape[:len(out_shape)]):
        if size != 1 and size != out_shape[lead + dim]:
            raise RuntimeError("clash")
    return tuple(0 if size == 1 else index[lead + dim] for dim, size in enumerate(in_shape[:len(out_shape)]))
'''),
    Mutant("broadcast_index", "returns-a-list", BROADCAST_CHECKS + '''
    return [0 if size == 1 else index[lead + dim] for dim, size in enumerate(in_shape)]
'''),
    Mutant("broadcast_index", "numpy-broadcast-to", '''
import numpy as np
def broadcast_index(index, out_shape, in_shape):
    positions = np.arange(int(np.prod(in_shape))).reshape(in_shape)
    try:
        flat = int(np.broadcast_to(positions, out_shape)[index])
    except ValueError:
        raise RuntimeError("does not broadcast")
    return tuple(int(i) for i in np.unravel_index(flat, in_shape))
'''),
    Mutant("broadcast_index", "calls-the-reference", '''
import tensorlab
def broadcast_index(index, out_shape, in_shape):
    n = 1
    for size in in_shape:
        n *= size
    flat = int(tensorlab.arange(n).view(in_shape).expand(out_shape)[index].item())
    result = []
    for size in reversed(in_shape):
        result.insert(0, flat % size)
        flat //= size
    return tuple(result)
'''),
    Mutant("permute_meta", "python-modulo-wraps-out-of-range-dims", '''
def permute_meta(shape, strides, dims):
    n = len(shape)
    if len(dims) != n:
        raise RuntimeError("number of dims don't match in permute")
    order = []
    for dim in dims:
        dim = dim % n if n else dim  # 3 % 3 is 0: an out-of-range dim turns into a repeat
        if not 0 <= dim < n:
            raise IndexError("Dimension out of range")
        if dim in order:
            raise RuntimeError("repeated dim in permute")
        order.append(dim)
    return tuple(shape[d] for d in order), tuple(strides[d] for d in order)
'''),
    Mutant("broadcast_index", "zip-longest-pads-the-input-on-the-right", '''
import itertools


def broadcast_index(index, out_shape, in_shape):
    if len(in_shape) > len(out_shape):
        raise RuntimeError("the input has more dims than the output")
    picked = []
    for i, out_size, in_size in itertools.zip_longest(index, out_shape, in_shape):  # lined up from the left
        if in_size is None:
            break
        if in_size != 1 and in_size != out_size:
            raise RuntimeError("does not broadcast")
        picked.append(0 if in_size == 1 else i)
    return tuple(picked)
'''),
]
