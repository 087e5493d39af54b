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
''', nudge="A view that starts partway into its storage, like one row in: where does its first element sit?"),
    Mutant("storage_index", "strides-paired-from-the-wrong-end", '''
def storage_index(index, strides, offset):
    return offset + sum(i * s for i, s in zip(index, reversed(strides)))
''', nudge="Does each entry of the index travel with the stride of its own dim, counted from the same end?"),
    Mutant("storage_index", "strides-used-as-sizes", '''
def storage_index(index, strides, offset):
    position = 0
    for i, size in zip(index, strides):
        position = position * size + i
    return offset + position
''', nudge="Are the strides the sizes of the dims, or how far one step along each dim moves in storage?"),
    Mutant("storage_index", "assumes-the-last-dim-is-contiguous", '''
def storage_index(index, strides, offset):
    position = offset + index[-1]
    for i, s in zip(index[:-1], strides[:-1]):
        position += i * s
    return position
''', nudge="In a view sliced with a step, like every other column, how far apart in storage are neighbours along the last dim?"),
    Mutant("storage_index", "0-d-is-slot-0", '''
def storage_index(index, strides, offset):
    if not index:
        return 0
    return offset + sum(i * s for i, s in zip(index, strides))
''', nudge="A 0-d tensor has no index entries to add, but does its one element always sit at slot 0?"),
    Mutant("storage_index", "off-by-one-skips-the-last-dim", '''
def storage_index(index, strides, offset):
    position = offset
    for d in range(len(index) - 1):
        position += index[d] * strides[d]
    return position
''', nudge="Does every dim, the last one included, add its share to the position?"),
    Mutant("storage_index", "byte-strides-like-numpy", '''
def storage_index(index, strides, offset):
    return 8 * (offset + sum(i * s for i, s in zip(index, strides)))
''', nudge="Do torch's strides and offsets count bytes, as NumPy's do, or elements?"),
    Mutant("storage_index", "returns-a-float", '''
import math
def storage_index(index, strides, offset):
    return offset + math.fsum(i * s for i, s in zip(index, strides))
''', nudge="A storage slot counts elements: which Python type should it be?"),
    Mutant("storage_index", "numpy-dot", '''
import numpy as np
def storage_index(index, strides, offset):
    return offset + int(np.dot(index, strides))
''', nudge="Which names may this exercise use, and is a NumPy dot product among them?"),
    Mutant("storage_index", "calls-the-reference", '''
import tensorlab
def storage_index(index, strides, offset):
    shape = tuple(i + 1 for i in index)
    span = offset + 1 + sum(i * s for i, s in zip(index, strides))
    return int(tensorlab.arange(span).as_strided(shape, strides, offset)[index].item())
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
    # --- contiguous_strides -----------------------------------------------------------------
    Mutant("contiguous_strides", "column-major-order", '''
def contiguous_strides(shape):
    strides, step = [], 1
    for size in shape:
        strides.append(step)
        step *= max(size, 1)
    return tuple(strides)
''', nudge="In torch's default layout, which dim moves fastest through memory: the first or the last?"),
    Mutant("contiguous_strides", "includes-its-own-size", '''
import math
def contiguous_strides(shape):
    return tuple(math.prod(max(s, 1) for s in shape[d:]) for d in range(len(shape)))
''', nudge="Does a dim's stride count the elements of its own dim, or only those of the dims after it?"),
    Mutant("contiguous_strides", "size-0-multiplies-to-0", '''
import math
def contiguous_strides(shape):
    return tuple(math.prod(shape[d + 1:]) for d in range(len(shape)))
''', nudge="What does torch count a size 0 as when it multiplies up the strides?"),
    Mutant("contiguous_strides", "divides-the-total-in-floats", '''
import math
def contiguous_strides(shape):
    sizes = [max(size, 1) for size in shape]
    total, strides = math.prod(sizes), []
    for size in sizes:
        total = total / size
        strides.append(int(total))
    return tuple(strides)
''', nudge="How many digits can a float hold exactly, and how big can a product of sizes get?"),
    Mutant("contiguous_strides", "forgets-to-reverse", '''
def contiguous_strides(shape):
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(strides)
''', nudge="Walking the shape from the right, in which order did you collect the strides, and in which order must they come back?"),
    Mutant("contiguous_strides", "returns-a-list", '''
def contiguous_strides(shape):
    strides, step = [], 1
    for size in reversed(shape):
        strides.insert(0, step)
        step *= max(size, 1)
    return strides
''', nudge="Does a list compare equal to the tuple the statement asks for?"),
    Mutant("contiguous_strides", "0-d-gets-stride-1", '''
def contiguous_strides(shape):
    if not shape:
        return (1,)
    strides, step = [], 1
    for size in reversed(shape):
        strides.insert(0, step)
        step *= max(size, 1)
    return tuple(strides)
''', nudge="A 0-d shape has no dims: how many strides should it have?"),
    Mutant("contiguous_strides", "size-1-dims-get-stride-1", '''
def contiguous_strides(shape):
    strides, step = [], 1
    for size in reversed(shape):
        strides.insert(0, 1 if size == 1 else step)
        step *= max(size, 1)
    return tuple(strides)
''', nudge="Is a size-1 dim special, or does it get the product of the sizes after it like any other dim?"),
    Mutant("contiguous_strides", "numpy-strides-of-an-empty-array", '''
import numpy as np
def contiguous_strides(shape):
    return tuple(int(s) // 8 for s in np.empty((0, *shape)).strides[1:])
''', nudge="Which names may this exercise use, and is a NumPy array among them?"),
    Mutant("contiguous_strides", "calls-the-reference", '''
import tensorlab
def contiguous_strides(shape):
    return tuple(tensorlab.empty(shape).stride())
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
    # --- permute_meta ------------------------------------------------------------------------
    Mutant("permute_meta", "inverse-permutation", PERMUTE_CHECKS + '''
    new_shape, new_strides = [0] * n, [0] * n
    for i, d in enumerate(order):
        new_shape[d], new_strides[d] = shape[i], strides[i]
    return tuple(new_shape), tuple(new_strides)
''', nudge="Does entry i of dims say where the result's dim i comes from, or where the input's dim i goes to?"),
    Mutant("permute_meta", "moves-the-sizes-but-not-the-strides", PERMUTE_CHECKS + '''
    return tuple(shape[d] for d in order), tuple(strides)
''', nudge="When a dim moves to a new position, does its stride stay behind?"),
    Mutant("permute_meta", "recomputes-contiguous-strides-a-copy-not-a-view", PERMUTE_CHECKS + '''
    new_shape = tuple(shape[d] for d in order)
    strides, step = [], 1
    for size in reversed(new_shape):
        strides.insert(0, step)
        step *= max(size, 1)
    return new_shape, tuple(strides)
''', nudge="Is permute a view over the same memory, or a fresh contiguous copy with new strides?"),
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
''', nudge="What should happen when dims has more or fewer entries than the tensor has dims?"),
    Mutant("permute_meta", "no-duplicate-check", '''
def permute_meta(shape, strides, dims):
    if len(dims) != len(shape):
        raise RuntimeError("wrong number of dims")
    return tuple(shape[d] for d in dims), tuple(strides[d] for d in dims)
''', nudge="What should happen when dims names the same dim twice, or a dim that does not exist?"),
    Mutant("permute_meta", "duplicates-checked-before-wrapping-negatives", '''
def permute_meta(shape, strides, dims):
    if len(dims) != len(shape):
        raise RuntimeError("wrong number of dims")
    if len(set(dims)) != len(dims):
        raise RuntimeError("duplicate dims")
    return tuple(shape[d] for d in dims), tuple(strides[d] for d in dims)
''', nudge="Of a 3-d tensor, are -1 and 2 different dims or the same one?"),
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
''', nudge="Which exception does torch raise for a dim out of range, and is it the same one as for a repeat?"),
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
''', nudge="Which exception type does torch raise for a repeated dim?"),
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
''', nudge="When a repeat comes before an out-of-range dim, which problem does a left-to-right walk meet first?"),
    Mutant("permute_meta", "returns-lists", PERMUTE_CHECKS + '''
    return [shape[d] for d in order], [strides[d] for d in order]
''', nudge="Does a list compare equal to the tuple the statement asks for?"),
    Mutant("permute_meta", "numpy-transpose-of-a-strided-array", '''
import numpy as np
def permute_meta(shape, strides, dims):
    x = np.lib.stride_tricks.as_strided(np.zeros(1), shape, tuple(8 * s for s in strides))
    y = x.transpose(dims)
    return tuple(y.shape), tuple(s // 8 for s in y.strides)
''', nudge="Which names may this exercise use, and is NumPy's transpose among them?"),
    Mutant("permute_meta", "calls-the-reference", '''
import tensorlab
def permute_meta(shape, strides, dims):
    x = tensorlab.zeros(1).as_strided(shape, strides).permute(dims)
    return tuple(x.shape), tuple(x.stride())
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
    # --- broadcast_index ---------------------------------------------------------------------
    Mutant("broadcast_index", "lines-up-from-the-left", '''
def broadcast_index(index, out_shape, in_shape):
    if len(in_shape) > len(out_shape):
        raise RuntimeError("more dims")
    for dim, size in enumerate(in_shape):
        if size != 1 and size != out_shape[dim]:
            raise RuntimeError("clash")
    return tuple(0 if size == 1 else index[dim] for dim, size in enumerate(in_shape))
''', nudge="From which end are the input's dims lined up with the output's?"),
    Mutant("broadcast_index", "forgets-that-size-1-reads-index-0", BROADCAST_CHECKS + '''
    return tuple(index[lead + dim] for dim in range(len(in_shape)))
''', nudge="A size-1 dim holds one element: at which index can it be read, whatever the output's index?"),
    Mutant("broadcast_index", "keeps-the-leading-dims", BROADCAST_CHECKS + '''
    padded = (1,) * lead + tuple(in_shape)
    return tuple(0 if size == 1 else i for i, size in zip(index, padded))
''', nudge="The result has one entry per dim of the input: what becomes of the output's extra leading dims?"),
    Mutant("broadcast_index", "negative-slice-of-a-0-d-input", BROADCAST_CHECKS + '''
    tail = list(index[-len(in_shape):])
    for dim, size in enumerate(in_shape):
        if size == 1:
            tail[dim] = 0
    return tuple(tail)
''', nudge="For a 0-d input, what does a slice that starts at minus zero keep?"),
    Mutant("broadcast_index", "modulo-without-checks", '''
def broadcast_index(index, out_shape, in_shape):
    lead = len(out_shape) - len(in_shape)
    return tuple(index[lead + dim] % size for dim, size in enumerate(in_shape))
''', nudge="Does your function refuse an input that does not broadcast, or quietly pick some index anyway?"),
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
''', nudge="Does a clash in one dim make broadcasting fail even when this index happens to be in range?"),
    Mutant("broadcast_index", "size-0-stretches-like-1", '''
def broadcast_index(index, out_shape, in_shape):
    lead = len(out_shape) - len(in_shape)
    if lead < 0:
        raise RuntimeError("more dims")
    for dim, size in enumerate(in_shape):
        if size > 1 and size != out_shape[lead + dim]:
            raise RuntimeError("clash")
    return tuple(0 if size <= 1 else index[lead + dim] for dim, size in enumerate(in_shape))
''', nudge="Can a size 0 be stretched to a larger output size, as a size 1 can?"),
    Mutant("broadcast_index", "no-check-for-more-dims", '''
def broadcast_index(index, out_shape, in_shape):
    lead = max(len(out_shape) - len(in_shape), 0)
    for dim, size in enumerate(in_shape[:len(out_shape)]):
        if size != 1 and size != out_shape[lead + dim]:
            raise RuntimeError("clash")
    return tuple(0 if size == 1 else index[lead + dim] for dim, size in enumerate(in_shape[:len(out_shape)]))
''', nudge="What should happen when the input has more dims than the output?"),
    Mutant("broadcast_index", "returns-a-list", BROADCAST_CHECKS + '''
    return [0 if size == 1 else index[lead + dim] for dim, size in enumerate(in_shape)]
''', nudge="Does a list compare equal to the tuple the statement asks for?"),
    Mutant("broadcast_index", "numpy-broadcast-to", '''
import numpy as np
def broadcast_index(index, out_shape, in_shape):
    positions = np.arange(int(np.prod(in_shape))).reshape(in_shape)
    try:
        flat = int(np.broadcast_to(positions, out_shape)[index])
    except ValueError:
        raise RuntimeError("does not broadcast")
    return tuple(int(i) for i in np.unravel_index(flat, in_shape))
''', nudge="Which names may this exercise use, and are NumPy's broadcasting helpers among them?"),
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
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
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
''', nudge="What does wrapping with the modulo operator do to a dim that is out of range, like 3 of a 3-d tensor?"),
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
''', nudge="Zipping from the left, which of the output's dims meets each of the input's when the input has fewer dims?"),
]
