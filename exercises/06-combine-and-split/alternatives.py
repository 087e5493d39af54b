"""Correct answers of exercise 06 (combine and split) written other ways than the solution: each must keep full marks."""

from tensorlab.grading import Alternative

ALTERNATIVES = [
    # --- cat ------------------------------------------------------------------------------
    Alternative("cat", "swapaxes-view-of-out", '''
import numpy as np

def cat(tensors, dim):
    """The arrays joined along the existing dim ``dim`` (torch.cat)."""
    if any(np.ndim(array) == 0 for array in tensors):
        raise RuntimeError("zero-dimensional tensor cannot be concatenated")
    ndim = tensors[0].ndim
    if dim < -ndim or dim >= ndim:
        raise IndexError("Dimension out of range")
    if dim < 0:
        dim += ndim
    others = tensors[0].shape[:dim] + tensors[0].shape[dim + 1:]
    for array in tensors:
        if array.ndim != ndim:
            raise RuntimeError("Tensors must have same number of dimensions")
        if array.shape[:dim] + array.shape[dim + 1:] != others:
            raise RuntimeError("Sizes of tensors must match except in dimension")
    total = 0
    for array in tensors:
        total += array.shape[dim]
    out = np.empty(others[:dim] + (total,) + others[dim:], dtype=tensors[0].dtype)
    front = np.swapaxes(out, 0, dim)  # a view of out with dim first
    start = 0
    for array in tensors:
        size = array.shape[dim]
        front[start:start + size] = np.swapaxes(array, 0, dim)
        start += size
    return out
'''),
    Alternative("cat", "2d-blocks-outer-by-columns", '''
import math
import numpy as np

def cat(tensors, dim):
    """The arrays joined along the existing dim ``dim`` (torch.cat)."""
    for array in tensors:
        if array.shape == ():
            raise RuntimeError("zero-dimensional tensor cannot be concatenated")
    shape = list(tensors[0].shape)
    dim = range(len(shape))[dim]  # IndexError when dim is out of range
    for array in tensors:
        if len(array.shape) != len(shape):
            raise RuntimeError("Tensors must have same number of dimensions")
        for d, (mine, theirs) in enumerate(zip(array.shape, shape)):
            if d != dim and mine != theirs:
                raise RuntimeError("Sizes of tensors must match except in dimension")
    # every array is an (outer, its size * inner) block of columns of the result
    outer = math.prod(shape[:dim])
    inner = math.prod(shape[dim + 1:])
    shape[dim] = sum(array.shape[dim] for array in tensors)
    out = np.empty((outer, shape[dim] * inner), dtype=tensors[0].dtype)
    column = 0
    for array in tensors:
        width = array.shape[dim] * inner
        out[:, column:column + width] = array.reshape(outer, width)
        column += width
    return out.reshape(shape)
'''),
    # --- stack ----------------------------------------------------------------------------
    Alternative("stack", "size-one-slices-with-a-new-axis", '''
import numpy as np

def stack(tensors, dim):
    """The arrays side by side along a new dim inserted at ``dim`` (torch.stack)."""
    first = tensors[0]
    ndim = first.ndim + 1
    if dim < -ndim or dim >= ndim:
        raise IndexError("Dimension out of range")
    if dim < 0:
        dim += ndim
    for array in tensors:
        if array.shape != first.shape:
            raise RuntimeError("stack expects each tensor to be equal size")
    out = np.empty(first.shape[:dim] + (len(tensors),) + first.shape[dim:], dtype=first.dtype)
    before = (slice(None),) * dim
    for i, array in enumerate(tensors):
        # like cat of arrays that have a size 1 at dim: array[..., np.newaxis, ...] fills out[..., i:i+1, ...]
        out[before + (slice(i, i + 1),)] = array[before + (np.newaxis,)]
    return out
'''),
    Alternative("stack", "outer-count-inner-3d", '''
import math
import numpy as np

def stack(tensors, dim):
    """The arrays side by side along a new dim inserted at ``dim`` (torch.stack)."""
    first = tensors[0]
    try:
        dim = range(first.ndim + 1)[dim]
    except IndexError:
        raise IndexError(f"Dimension out of range, got {dim}") from None
    if any(array.shape != first.shape for array in tensors):
        raise RuntimeError("stack expects each tensor to be equal size")
    outer = math.prod(first.shape[:dim])
    inner = math.prod(first.shape[dim:])
    out = np.empty((outer, len(tensors), inner), dtype=first.dtype)
    for i, array in enumerate(tensors):
        out[:, i, :] = array.reshape(outer, inner)
    return out.reshape(first.shape[:dim] + (len(tensors),) + first.shape[dim:])
'''),
    # --- chunk_sizes ----------------------------------------------------------------------
    Alternative("chunk_sizes", "while-loop-cutting", '''
def chunk_sizes(size, chunks):
    """The lengths of the pieces of x.chunk(chunks) along a dim of ``size`` elements."""
    if chunks <= 0:
        raise RuntimeError("chunk expects `chunks` to be greater than 0")
    if size == 0:
        return tuple([0] * chunks)
    piece = (size + chunks - 1) // chunks
    sizes = []
    left = size
    while left > 0:
        sizes.append(min(piece, left))
        left -= piece
    return tuple(sizes)
'''),
    Alternative("chunk_sizes", "range-of-starts", '''
def chunk_sizes(size, chunks):
    """The lengths of the pieces of x.chunk(chunks) along a dim of ``size`` elements."""
    if chunks < 1:
        raise RuntimeError("chunks must be at least 1")
    if not size:
        return tuple(0 for _ in range(chunks))
    q, r = divmod(size, chunks)
    step = q + (r > 0)
    return tuple(min(step, size - start) for start in range(0, size, step))
'''),
    # --- unbind_views ---------------------------------------------------------------------
    Alternative("unbind_views", "list-pop-and-loop", '''
def unbind_views(shape, strides, offset, dim):
    """(shape, strides, storage offset) of every piece of x.unbind(dim), for x with this layout."""
    if len(shape) == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    if dim >= len(shape) or dim < -len(shape):
        raise IndexError("Dimension out of range")
    piece_shape = list(shape)
    piece_strides = list(strides)
    count = piece_shape.pop(dim)
    step = piece_strides.pop(dim)
    pieces = []
    start = offset
    for _ in range(count):
        pieces.append((tuple(piece_shape), tuple(piece_strides), start))
        start += step
    return tuple(pieces)
'''),
    Alternative("unbind_views", "real-view-with-as-strided", '''
import numpy as np
from numpy.lib.stride_tricks import as_strided

def unbind_views(shape, strides, offset, dim):
    """(shape, strides, storage offset) of every piece of x.unbind(dim), for x with this layout."""
    ndim = len(shape)
    if ndim == 0 or not -ndim <= dim < ndim:
        raise IndexError("Dimension out of range")
    # build x for real, over a storage of one byte per element, and let NumPy slice it
    span = offset + 1 + sum((n - 1) * s for n, s in zip(shape, strides) if n > 0)
    storage = np.zeros(span, dtype=np.uint8)
    base = storage.__array_interface__["data"][0]
    x = as_strided(storage[offset:], shape=tuple(shape), strides=tuple(strides))
    pieces = []
    for i in range(shape[dim]):
        piece = x[(slice(None),) * (dim % ndim) + (i, ...)]  # the ... keeps a 0-d piece a view
        start = piece.__array_interface__["data"][0] - base
        pieces.append((tuple(int(n) for n in piece.shape), tuple(int(s) for s in piece.strides), int(start)))
    return tuple(pieces)
'''),
]
