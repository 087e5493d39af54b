"""Correct answers of exercise 01 (tensors and views) written other ways than the solution: each must keep full marks."""

from tensorlab.grading import Alternative

ALTERNATIVES = [
    Alternative("storage_index", "functools-reduce-over-pairs", '''
import functools


def storage_index(index, strides, offset):
    """The storage slot of element ``index`` of a view with these strides and storage_offset."""
    return functools.reduce(lambda slot, pair: slot + pair[0] * pair[1], zip(index, strides), offset)
'''),
    Alternative("storage_index", "recursion-on-the-first-dim", '''
def storage_index(index, strides, offset):
    """The storage slot of element ``index`` of a view with these strides and storage_offset."""
    if len(index) == 0:
        return offset
    return storage_index(index[1:], strides[1:], offset + index[0] * strides[0])
'''),
    Alternative("storage_index", "sum-of-operator-mul-map", '''
import operator


def storage_index(index, strides, offset):
    """The storage slot of element ``index`` of a view with these strides and storage_offset."""
    return offset + sum(map(operator.mul, index, strides))
'''),
    Alternative("contiguous_strides", "math-prod-of-the-sizes-after", '''
import math


def contiguous_strides(shape):
    """The row-major strides of a new tensor of this shape."""
    sizes = [max(size, 1) for size in shape]
    return tuple(math.prod(sizes[dim + 1:]) for dim in range(len(sizes)))
'''),
    Alternative("contiguous_strides", "itertools-accumulate-from-the-right", '''
import itertools
import operator


def contiguous_strides(shape):
    """The row-major strides of a new tensor of this shape."""
    if not shape:
        return ()
    tail = [max(size, 1) for size in reversed(shape[1:])]
    running = list(itertools.accumulate(tail, operator.mul, initial=1))
    return tuple(reversed(running))
'''),
    Alternative("contiguous_strides", "recursion-on-the-tail", '''
def contiguous_strides(shape):
    """The row-major strides of a new tensor of this shape."""
    shape = tuple(shape)
    if not shape:
        return ()
    rest = contiguous_strides(shape[1:])
    if not rest:
        return (1,)
    return (rest[0] * max(shape[1], 1),) + rest
'''),
    Alternative("permute_meta", "seen-flags-and-index-loop", '''
def permute_meta(shape, strides, dims):
    """(shape, strides) of x.permute(dims), or torch's error."""
    n = len(shape)
    if len(dims) != n:
        raise RuntimeError("number of dims don't match in permute")
    seen = [False] * n
    order = []
    i = 0
    while i < len(dims):
        d = dims[i]
        if d < -n or d > n - 1:
            raise IndexError("Dimension out of range")
        d = d % n
        if seen[d]:
            raise RuntimeError("repeated dim in permute")
        seen[d] = True
        order.append(d)
        i += 1
    new_shape = tuple(map(lambda d: shape[d], order))
    new_strides = tuple(map(lambda d: strides[d], order))
    return new_shape, new_strides
'''),
    Alternative("permute_meta", "range-indexing-wraps-dims", '''
def permute_meta(shape, strides, dims):
    """(shape, strides) of x.permute(dims), or torch's error."""
    if len(dims) != len(shape):
        raise RuntimeError("permute: dims must list every dim once")
    axes = range(len(shape))
    pairs = []
    used = set()
    for d in dims:
        wrapped = axes[d]  # range indexing counts from the end and raises IndexError out of range
        if wrapped in used:
            raise RuntimeError("permute(): duplicate dims are not allowed.")
        used.add(wrapped)
        pairs.append((shape[wrapped], strides[wrapped]))
    if not pairs:
        return (), ()
    new_shape, new_strides = zip(*pairs)
    return tuple(new_shape), tuple(new_strides)
'''),
    Alternative("broadcast_index", "modulo-on-the-trailing-index", '''
def broadcast_index(index, out_shape, in_shape):
    """The index of the input element that element ``index`` of the broadcast result reads."""
    if len(in_shape) > len(out_shape):
        raise RuntimeError("the input has more dims than the output")
    skip = len(out_shape) - len(in_shape)
    tail_out, tail_index = out_shape[skip:], index[skip:]
    if any(size != 1 and size != out for size, out in zip(in_shape, tail_out)):
        raise RuntimeError("the input does not broadcast to the output shape")
    # a size-1 dim reads 0 == i % 1; an equal size reads i == i % size
    return tuple(i % size for i, size in zip(tail_index, in_shape))
'''),
    Alternative("broadcast_index", "walk-from-the-right-negative-indices", '''
def broadcast_index(index, out_shape, in_shape):
    """The index of the input element that element ``index`` of the broadcast result reads."""
    if len(in_shape) > len(out_shape):
        raise RuntimeError("expand: the target has fewer dims than the input")
    result = []
    for k in range(1, len(in_shape) + 1):
        size, target = in_shape[-k], out_shape[-k]
        if size == 1:
            result.append(0)
        elif size == target:
            result.append(index[-k])
        else:
            raise RuntimeError(f"size {size} cannot be expanded to {target}")
    result.reverse()
    return tuple(result)
'''),
    Alternative("broadcast_index", "zip-longest-from-the-right", '''
import itertools


def broadcast_index(index, out_shape, in_shape):
    """The index of the input element that element ``index`` of the broadcast result reads."""
    if len(in_shape) > len(out_shape):
        raise RuntimeError("the input has more dims than the output")
    picked = []
    columns = itertools.zip_longest(reversed(index), reversed(out_shape), reversed(in_shape))
    for i, out_size, in_size in columns:
        if in_size is None:  # the input's dims are used up: the rest are its missing leading dims
            break
        if in_size != 1 and in_size != out_size:
            raise RuntimeError(f"size {in_size} cannot broadcast to {out_size}")
        picked.append(0 if in_size == 1 else i)
    return tuple(reversed(picked))
'''),
    Alternative("contiguous_strides", "integer-division-of-the-total", '''
import math


def contiguous_strides(shape):
    """The row-major strides of a new tensor of this shape."""
    sizes = [max(size, 1) for size in shape]
    remaining, strides = math.prod(sizes), []
    for size in sizes:
        remaining //= size  # what is left after this dim: the product of the sizes after it, exactly
        strides.append(remaining)
    return tuple(strides)
'''),
]
