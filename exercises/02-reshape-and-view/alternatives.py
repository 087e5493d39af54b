"""Correct answers of exercise 02 (reshape and view) written other ways than the solution: each must keep full marks."""

from tensorlab.grading import Alternative

ALTERNATIVES = [
    Alternative("infer_shape", "positions-of-problems-then-prod", '''
import math


def infer_shape(shape, numel):
    """shape with its -1 (if any) replaced so that the sizes multiply to numel, or torch's error."""
    shape = tuple(shape)
    minus_ones = [i for i, size in enumerate(shape) if size == -1]
    negatives = [i for i, size in enumerate(shape) if size < -1]
    second_minus_one = minus_ones[1] if len(minus_ones) > 1 else len(shape)
    first_negative = negatives[0] if negatives else len(shape)
    if second_minus_one < first_negative:
        raise RuntimeError("only one dimension can be inferred")
    if negatives:
        raise RuntimeError(f"invalid shape dimension {shape[first_negative]} at index {first_negative} of shape {list(shape)}")
    invalid = f"shape '{list(shape)}' is invalid for input of size {numel}"
    known = math.prod(size for size in shape if size != -1)
    if not minus_ones:
        if known != numel:
            raise RuntimeError(invalid)
        return shape
    if known == 0:
        if numel == 0:
            raise RuntimeError(f"cannot reshape tensor of 0 elements into shape {list(shape)} because the "
                               "unspecified dimension size -1 can be any value and is ambiguous")
        raise RuntimeError(invalid)
    if numel % known != 0:
        raise RuntimeError(invalid)
    where = minus_ones[0]
    return shape[:where] + (numel // known,) + shape[where + 1:]
'''),
    Alternative("infer_shape", "index-of-minus-one-and-divmod", '''
import math


def infer_shape(shape, numel):
    """shape with its -1 (if any) replaced so that the sizes multiply to numel, or torch's error."""
    sizes = list(shape)
    written = list(shape)  # as the messages print it
    free = None
    for i in range(len(sizes)):
        if sizes[i] < -1:
            raise RuntimeError(f"invalid shape dimension {sizes[i]} at index {i} of shape {written}")
        if sizes[i] == -1:
            if free is not None:
                raise RuntimeError("only one dimension can be inferred")
            free = i
    invalid = RuntimeError(f"shape '{written}' is invalid for input of size {numel}")
    if free is None:
        if math.prod(sizes) != numel:
            raise invalid
        return tuple(sizes)
    others = math.prod(sizes[:free] + sizes[free + 1:])
    if others == 0:
        if numel != 0:
            raise invalid
        raise RuntimeError(f"cannot reshape tensor of 0 elements into shape {written} because the unspecified "
                           "dimension size -1 can be any value and is ambiguous")
    count, left_over = divmod(numel, others)
    if left_over:
        raise invalid
    sizes[free] = count
    return tuple(sizes)
'''),
    Alternative("view_strides", "runs-left-to-right-then-deal-new-dims", '''
def row_major(shape):
    """The strides of a new contiguous tensor of this shape (a size 0 counts as 1)."""
    strides = []
    step = 1
    for size in shape[::-1]:
        strides.insert(0, step)
        step *= max(size, 1)
    return tuple(strides)


def view_strides(shape, strides, new_shape):
    """The strides of x.view(new_shape) for x of this shape and strides, or None when view must raise."""
    shape, strides, new_shape = tuple(shape), tuple(strides), tuple(new_shape)
    if 0 in shape:
        return strides if new_shape == shape else row_major(new_shape)
    # size-1 dims never break a run and their stride never matters: leave them out
    dims = [(size, stride) for size, stride in zip(shape, strides) if size != 1]
    runs = []  # [element count, stride of its rightmost dim], left to right
    for i, (size, stride) in enumerate(dims):
        if i > 0 and dims[i - 1][1] == stride * size:
            runs[-1][0] *= size
            runs[-1][1] = stride
        else:
            runs.append([size, stride])
    new_strides = []
    run = 0
    covered = 1  # product of the new sizes given to the current run so far
    for size in new_shape:
        if size == 1:
            new_strides.append(1)  # never moves the pointer
            continue
        if run == len(runs):
            return None
        count, last_stride = runs[run]
        covered *= size
        if count % covered != 0:  # this new dim would reach into the next run
            return None
        new_strides.append(last_stride * (count // covered))
        if covered == count:
            run, covered = run + 1, 1
    if run != len(runs):
        return None
    return tuple(new_strides)
'''),
    Alternative("view_strides", "numpy-suffix-products-and-searchsorted", '''
import numpy as np


def row_major(shape):
    """The strides of a new contiguous tensor of this shape (a size 0 counts as 1)."""
    if len(shape) == 0:
        return ()
    sizes = np.maximum(np.array(shape, dtype=np.int64), 1)
    return tuple(np.append(np.cumprod(sizes[::-1])[::-1][1:], 1).tolist())


def view_strides(shape, strides, new_shape):
    """The strides of x.view(new_shape) for x of this shape and strides, or None when view must raise."""
    shape, strides, new_shape = tuple(shape), tuple(strides), tuple(new_shape)
    if 0 in shape:
        return strides if new_shape == shape else row_major(new_shape)
    old = np.array(shape, dtype=np.int64)
    stride = np.array(strides, dtype=np.int64)
    keep = old != 1
    sizes, stride = old[keep], stride[keep]
    if sizes.size == 0:  # one element: every new dim has size 1
        return row_major(new_shape)
    # elements to the right of each old dim; a run ends where the next dim does not continue it
    after = np.append(np.cumprod(sizes[::-1])[::-1][1:], 1)
    continues = stride[:-1] == stride[1:] * sizes[1:]
    ends = np.append(~continues, True)
    lows = after[ends][::-1]  # elements to the right of each run, smallest first
    last = stride[ends][::-1]  # stride of each run's rightmost dim
    highs = np.append(lows[1:], np.prod(sizes))
    new = np.array(new_shape, dtype=np.int64)
    new_after = np.append(np.cumprod(new[::-1])[::-1][1:], 1) if new.size else new
    run = np.searchsorted(lows, new_after, side="right") - 1
    if np.any(new_after * new > highs[run]):  # a new dim would span two runs
        return None
    return tuple((last[run] * (new_after // lows[run])).tolist())
'''),
    Alternative("flatten_meta", "check-the-run-directly", '''
import math


def flatten_meta(shape, strides, start_dim=0, end_dim=-1):
    """(shape, strides) of x.flatten(start_dim, end_dim): a view when possible, else a row-major copy."""
    shape, strides = tuple(shape), tuple(strides)
    n = max(len(shape), 1)
    if not (-n <= start_dim < n) or not (-n <= end_dim < n):
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}])")
    first = start_dim + n if start_dim < 0 else start_dim
    last = end_dim + n if end_dim < 0 else end_dim
    if first > last:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if len(shape) == 0:
        return (1,), (1,)
    if first == last:
        return shape, strides
    block = shape[first:last + 1]
    new_shape = shape[:first] + (math.prod(block),) + shape[last + 1:]
    copy_strides = []
    step = 1
    for size in reversed(new_shape):
        copy_strides.append(step)
        step *= max(size, 1)
    copy_strides = tuple(reversed(copy_strides))
    if 0 in shape:  # no elements: always a view, laid out row-major
        return new_shape, copy_strides
    merged = [(size, stride) for size, stride in zip(block, strides[first:last + 1]) if size != 1]
    one_run = all(merged[i][1] == merged[i + 1][1] * merged[i + 1][0] for i in range(len(merged) - 1))
    if not one_run:
        return new_shape, copy_strides
    merged_stride = merged[-1][1] if merged else 1
    return new_shape, strides[:first] + (merged_stride,) + strides[last + 1:]
'''),
    Alternative("flatten_meta", "range-indexing-and-slice-assignment", '''
import math


def flatten_meta(shape, strides, start_dim=0, end_dim=-1):
    """(shape, strides) of x.flatten(start_dim, end_dim): a view when possible, else a row-major copy."""
    shape, strides = tuple(shape), tuple(strides)
    dims = range(len(shape) or 1)  # a 0-d tensor takes the dims of a 1-d one
    start, end = dims[start_dim], dims[end_dim]  # range indexing wraps, and raises IndexError out of range
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if not shape:
        return (1,), (1,)
    if start == end:
        return shape, strides
    sizes = list(shape)
    sizes[start:end + 1] = [math.prod(sizes[start:end + 1])]
    new_shape = tuple(sizes)
    found = view_strides(shape, strides, new_shape)
    if found is None:
        found = row_major(new_shape)
    return new_shape, found
'''),
    Alternative("unflatten_meta", "split-strides-by-hand", '''
def unflatten_meta(shape, strides, dim, sizes):
    """(shape, strides) of x.unflatten(dim, sizes): always a view."""
    shape, strides = tuple(shape), tuple(strides)
    if len(sizes) == 0:
        raise RuntimeError("unflatten: sizes must be non-empty")
    n = max(len(shape), 1)
    if dim < -n or dim >= n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    if len(shape) == 0:
        raise RuntimeError("unflatten: a 0-d tensor has no dim to split")
    d = dim + n if dim < 0 else dim
    sizes = infer_shape(sizes, shape[d])
    new_shape = shape[:d] + sizes + shape[d + 1:]
    if 0 in shape and new_shape != shape:
        return new_shape, row_major(new_shape)
    split = []
    step = strides[d]
    for size in reversed(sizes):
        split.insert(0, step)
        step *= size
    return new_shape, strides[:d] + tuple(split) + strides[d + 1:]
'''),
    Alternative("unflatten_meta", "own-inference-then-view-strides", '''
import math


def unflatten_meta(shape, strides, dim, sizes):
    """(shape, strides) of x.unflatten(dim, sizes): always a view."""
    shape, strides, sizes = tuple(shape), tuple(strides), list(sizes)
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    d = range(len(shape) or 1)[dim]  # IndexError when dim is out of range
    if not shape:
        raise RuntimeError("unflatten: cannot split a 0-d tensor")
    total = shape[d]
    if sizes.count(-1) > 1 or any(size < -1 for size in sizes):
        raise RuntimeError(f"unflatten: invalid sizes {sizes}")
    if -1 in sizes:
        known = math.prod(size for size in sizes if size != -1)
        if known == 0 or total % known:
            raise RuntimeError(f"unflatten: cannot infer -1 in {sizes} for a dim of size {total}")
        sizes[sizes.index(-1)] = total // known
    if math.prod(sizes) != total:
        raise RuntimeError(f"unflatten: sizes {sizes} do not multiply to {total}")
    new_shape = shape[:d] + tuple(sizes) + shape[d + 1:]
    return new_shape, view_strides(shape, strides, new_shape)
'''),
    Alternative("flatten_meta", "a-local-variable-named-view", '''
def flatten_meta(shape, strides, start_dim=0, end_dim=-1):
    """(shape, strides) of x.flatten(start_dim, end_dim): a view when possible, else a row-major copy."""
    shape, strides = tuple(shape), tuple(strides)
    ndim = max(len(shape), 1)
    if not (-ndim <= start_dim < ndim and -ndim <= end_dim < ndim):
        raise IndexError("Dimension out of range")
    start, end = start_dim % ndim, end_dim % ndim
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if not shape:
        return (1,), (1,)
    if start == end:
        return shape, strides
    flatten = shape[:start] + (math.prod(shape[start:end + 1]),) + shape[end + 1:]
    view = view_strides(shape, strides, flatten)  # None: torch copies
    return flatten, row_major(flatten) if view is None else view
'''),
    Alternative("unflatten_meta", "a-local-variable-named-view", '''
def unflatten_meta(shape, strides, dim, sizes):
    """(shape, strides) of x.unflatten(dim, sizes): always a view."""
    if len(sizes) == 0:
        raise RuntimeError("unflatten: sizes must be non-empty")
    n = max(len(shape), 1)
    if dim < -n or dim >= n:
        raise IndexError("Dimension out of range")
    if len(shape) == 0:
        raise RuntimeError("unflatten: a 0-d tensor has no dimension to split")
    dim = dim % n
    reshape = tuple(shape[:dim]) + infer_shape(sizes, shape[dim]) + tuple(shape[dim + 1:])
    view = view_strides(shape, strides, reshape)
    return reshape, view
'''),
]
