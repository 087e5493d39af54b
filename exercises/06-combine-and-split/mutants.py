"""Mutants of exercise 06 (combine and split): plausible wrong versions of each graded function."""

from tensorlab.grading.tasks import Mutant

# The checks of a right cat, for the mutants that only get the copying wrong (``dim`` is wrapped after it).
CAT_CHECKS = '''
def cat(tensors, dim):
    first = tensors[0]
    if any(array.ndim == 0 for array in tensors):
        raise RuntimeError("zero-dimensional tensor cannot be concatenated")
    ndim = first.ndim
    if not -ndim <= dim < ndim:
        raise IndexError("Dimension out of range")
    dim = dim % ndim
    for array in tensors:
        if array.ndim != ndim or any(array.shape[d] != first.shape[d] for d in range(ndim) if d != dim):
            raise RuntimeError("Sizes of tensors must match except in dimension")
'''

# The checks of a right stack, for the mutants that only get the layout wrong.
STACK_CHECKS = '''
def stack(tensors, dim):
    first = tensors[0]
    ndim = first.ndim + 1
    if not -ndim <= dim < ndim:
        raise IndexError("Dimension out of range")
    dim = dim % ndim
    if any(array.shape != first.shape for array in tensors):
        raise RuntimeError("stack expects each tensor to be equal size")
'''

# The checks of a right unbind_views, for the mutants that only get the layout wrong.
UNBIND_CHECKS = '''
def unbind_views(shape, strides, offset, dim):
    ndim = len(shape)
    if ndim == 0 or not -ndim <= dim < ndim:
        raise IndexError("Dimension out of range")
    dim = dim % ndim
'''

MUTANTS = [
    # --- cat ------------------------------------------------------------------------------
    Mutant("cat", "calls-the-reference", '''
import tensorlab
def cat(tensors, dim):
    return tensorlab.cat([tensorlab.tensor(array) for array in tensors], dim).numpy()
'''),
    Mutant("cat", "calls-np-concatenate", '''
def cat(tensors, dim):
    return np.concatenate(tensors, axis=dim)
'''),
    Mutant("cat", "joins-with-np-r_", CAT_CHECKS + '''
    moved = [np.moveaxis(array, dim, 0) for array in tensors]
    return np.ascontiguousarray(np.moveaxis(np.r_[tuple(moved)], 0, dim))
'''),
    Mutant("cat", "joins-with-np-append", CAT_CHECKS + '''
    out = first
    for array in tensors[1:]:
        out = np.append(out, array, axis=dim)
    return out.copy()
'''),
    Mutant("cat", "np-empty-without-dtype", CAT_CHECKS + '''
    shape = list(first.shape)
    shape[dim] = sum(array.shape[dim] for array in tensors)
    out = np.empty(shape)
    start = 0
    for array in tensors:
        out[(slice(None),) * dim + (slice(start, start + array.shape[dim]),)] = array
        start += array.shape[dim]
    return out
'''),
    Mutant("cat", "negative-dim-not-wrapped", '''
def cat(tensors, dim):
    first = tensors[0]
    if any(array.ndim == 0 for array in tensors):
        raise RuntimeError("zero-dimensional tensor cannot be concatenated")
    ndim = first.ndim
    if not -ndim <= dim < ndim:
        raise IndexError("Dimension out of range")
    for array in tensors:
        if array.ndim != ndim or any(array.shape[d] != first.shape[d] for d in range(ndim) if d != dim % ndim):
            raise RuntimeError("Sizes of tensors must match")
    shape = list(first.shape)
    shape[dim] = sum(array.shape[dim] for array in tensors)
    out = np.empty(shape, dtype=first.dtype)
    start = 0
    for array in tensors:
        out[(slice(None),) * dim + (slice(start, start + array.shape[dim]),)] = array
        start += array.shape[dim]
    return out
'''),
    Mutant("cat", "lets-a-size-1-stretch", '''
def cat(tensors, dim):
    first = tensors[0]
    if any(array.ndim == 0 for array in tensors):
        raise RuntimeError("zero-dimensional tensor cannot be concatenated")
    ndim = first.ndim
    if not -ndim <= dim < ndim:
        raise IndexError("Dimension out of range")
    dim = dim % ndim
    shape = list(first.shape)
    shape[dim] = sum(array.shape[dim] for array in tensors)
    out = np.empty(shape, dtype=first.dtype)
    start = 0
    for array in tensors:
        try:
            out[(slice(None),) * dim + (slice(start, start + array.shape[dim]),)] = array
        except ValueError as error:
            raise RuntimeError(str(error)) from None
        start += array.shape[dim]
    return out
'''),
    Mutant("cat", "numpy-errors-not-torch-s", '''
def cat(tensors, dim):
    first = tensors[0]
    dim = dim % first.ndim if first.ndim else dim
    shape = list(first.shape)
    shape[dim] = sum(array.shape[dim] for array in tensors)
    out = np.empty(shape, dtype=first.dtype)
    start = 0
    for array in tensors:
        if array.shape[:dim] + array.shape[dim + 1:] != first.shape[:dim] + first.shape[dim + 1:]:
            raise ValueError("shapes do not match")
        out[(slice(None),) * dim + (slice(start, start + array.shape[dim]),)] = array
        start += array.shape[dim]
    return out
'''),
    Mutant("cat", "start-never-moves", CAT_CHECKS + '''
    shape = list(first.shape)
    shape[dim] = sum(array.shape[dim] for array in tensors)
    out = np.zeros(shape, dtype=first.dtype)
    for array in tensors:
        out[(slice(None),) * dim + (slice(0, array.shape[dim]),)] = array
    return out
'''),
    Mutant("cat", "result-sized-by-the-first-array", CAT_CHECKS + '''
    shape = list(first.shape)
    shape[dim] = first.shape[dim] * len(tensors)
    out = np.empty(shape, dtype=first.dtype)
    start = 0
    for array in tensors:
        out[(slice(None),) * dim + (slice(start, start + array.shape[dim]),)] = array
        start += array.shape[dim]
    return out
'''),
    Mutant("cat", "skips-empty-arrays-before-checking", '''
def cat(tensors, dim):
    if any(array.ndim == 0 for array in tensors):
        raise RuntimeError("zero-dimensional tensor cannot be concatenated")
    ndim = tensors[0].ndim
    if not -ndim <= dim < ndim:
        raise IndexError("Dimension out of range")
    dim = dim % ndim
    kept = [array for array in tensors if array.size > 0] or tensors[:1]
    first = kept[0]
    for array in kept:
        if array.ndim != ndim or any(array.shape[d] != first.shape[d] for d in range(ndim) if d != dim):
            raise RuntimeError("Sizes of tensors must match")
    shape = list(first.shape)
    shape[dim] = sum(array.shape[dim] for array in kept)
    out = np.empty(shape, dtype=first.dtype)
    start = 0
    for array in kept:
        out[(slice(None),) * dim + (slice(start, start + array.shape[dim]),)] = array
        start += array.shape[dim]
    return out
'''),
    Mutant("cat", "forgets-0-d-arrays", '''
def cat(tensors, dim):
    first = tensors[0]
    ndim = first.ndim
    if not -ndim <= dim < max(ndim, 1):
        raise IndexError("Dimension out of range")
    dim = dim % max(ndim, 1)
    for array in tensors:
        if array.ndim != ndim or any(array.shape[d] != first.shape[d] for d in range(ndim) if d != dim):
            raise RuntimeError("Sizes of tensors must match")
    if ndim == 0:
        return np.array([array[()] for array in tensors], dtype=first.dtype)
    shape = list(first.shape)
    shape[dim] = sum(array.shape[dim] for array in tensors)
    out = np.empty(shape, dtype=first.dtype)
    start = 0
    for array in tensors:
        out[(slice(None),) * dim + (slice(start, start + array.shape[dim]),)] = array
        start += array.shape[dim]
    return out
'''),

    # --- stack ----------------------------------------------------------------------------
    Mutant("stack", "calls-the-reference", '''
import torch
def stack(tensors, dim):
    return torch.stack([torch.from_numpy(array.copy()) for array in tensors], dim).numpy()
'''),
    Mutant("stack", "calls-np-stack", '''
def stack(tensors, dim):
    return np.stack(tensors, axis=dim)
'''),
    Mutant("stack", "wraps-a-negative-dim-with-ndim", '''
def stack(tensors, dim):
    first = tensors[0]
    ndim = first.ndim + 1
    if not -ndim <= dim < ndim:
        raise IndexError("Dimension out of range")
    dim = dim % first.ndim if dim < 0 and first.ndim else dim % ndim
    if any(array.shape != first.shape for array in tensors):
        raise RuntimeError("stack expects each tensor to be equal size")
    shape = first.shape[:dim] + (len(tensors),) + first.shape[dim:]
    out = np.empty(shape, dtype=first.dtype)
    for i, array in enumerate(tensors):
        out[(slice(None),) * dim + (i,)] = array
    return out
'''),
    Mutant("stack", "np-array-of-the-list-then-transpose", STACK_CHECKS + '''
    stacked = np.array(tensors)
    order = list(range(1, stacked.ndim))
    order.insert(dim, 0)
    return stacked.transpose(order).copy()
'''),
    Mutant("stack", "np-empty-without-dtype", STACK_CHECKS + '''
    shape = first.shape[:dim] + (len(tensors),) + first.shape[dim:]
    out = np.empty(shape)
    for i, array in enumerate(tensors):
        out[(slice(None),) * dim + (i,)] = array
    return out
'''),
    Mutant("stack", "lets-a-size-1-stretch", '''
def stack(tensors, dim):
    first = tensors[0]
    ndim = first.ndim + 1
    if not -ndim <= dim < ndim:
        raise IndexError("Dimension out of range")
    dim = dim % ndim
    shape = first.shape[:dim] + (len(tensors),) + first.shape[dim:]
    out = np.empty(shape, dtype=first.dtype)
    for i, array in enumerate(tensors):
        try:
            out[(slice(None),) * dim + (i,)] = array
        except ValueError as error:
            raise RuntimeError(str(error)) from None
    return out
'''),
    Mutant("stack", "no-range-check-on-dim", '''
def stack(tensors, dim):
    first = tensors[0]
    if any(array.shape != first.shape for array in tensors):
        raise RuntimeError("stack expects each tensor to be equal size")
    if dim < 0:
        dim += first.ndim + 1
    shape = first.shape[:dim] + (len(tensors),) + first.shape[dim:]
    out = np.empty(shape, dtype=first.dtype)
    for i, array in enumerate(tensors):
        out[(slice(None),) * dim + (i,)] = array
    return out
'''),
    Mutant("stack", "joins-along-an-existing-dim", STACK_CHECKS + '''
    dim = min(dim, first.ndim - 1)
    shape = list(first.shape)
    shape[dim] = shape[dim] * len(tensors)
    out = np.empty(shape, dtype=first.dtype)
    size = first.shape[dim]
    for i, array in enumerate(tensors):
        out[(slice(None),) * dim + (slice(i * size, (i + 1) * size),)] = array
    return out
'''),
    Mutant("stack", "swaps-the-new-dim-into-place", STACK_CHECKS + '''
    out = np.empty((len(tensors), *first.shape), dtype=first.dtype)
    for i, array in enumerate(tensors):
        out[i] = array
    return np.swapaxes(out, 0, dim)
'''),
    Mutant("stack", "fails-on-0-d-arrays", STACK_CHECKS + '''
    if first.ndim == 0:
        raise RuntimeError("nothing to stack along")
    shape = first.shape[:dim] + (len(tensors),) + first.shape[dim:]
    out = np.empty(shape, dtype=first.dtype)
    for i, array in enumerate(tensors):
        out[(slice(None),) * dim + (i,)] = array
    return out
'''),

    # --- chunk_sizes ----------------------------------------------------------------------
    Mutant("chunk_sizes", "calls-the-reference", '''
import tensorlab
def chunk_sizes(size, chunks):
    return tuple(int(piece.shape[0]) for piece in tensorlab.zeros(1).expand(size).chunk(chunks))
'''),
    Mutant("chunk_sizes", "allocates-and-calls-array-split", '''
def chunk_sizes(size, chunks):
    if chunks < 1:
        raise RuntimeError("chunks must be positive")
    return tuple(len(piece) for piece in np.array_split(np.zeros(size), chunks))
'''),
    Mutant("chunk_sizes", "empty-dim-before-the-chunks-check", '''
def chunk_sizes(size, chunks):
    if size == 0:
        return (0,) * max(chunks, 0)
    if chunks < 1:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    piece = -(-size // chunks)
    full, rest = divmod(size, piece)
    return (piece,) * full + ((rest,) if rest else ())
'''),
    Mutant("chunk_sizes", "spreads-the-rest-like-tensor-split", '''
def chunk_sizes(size, chunks):
    if chunks < 1:
        raise RuntimeError("chunks must be positive")
    base, rest = divmod(size, chunks)
    return tuple(base + 1 if i < rest else base for i in range(chunks))
'''),
    Mutant("chunk_sizes", "floor-instead-of-ceil", '''
def chunk_sizes(size, chunks):
    if chunks < 1:
        raise RuntimeError("chunks must be positive")
    if size == 0:
        return (0,) * chunks
    piece = max(size // chunks, 1)
    full, rest = divmod(size, piece)
    return (piece,) * full + ((rest,) if rest else ())
'''),
    Mutant("chunk_sizes", "always-makes-chunks-pieces", '''
def chunk_sizes(size, chunks):
    if chunks < 1:
        raise RuntimeError("chunks must be positive")
    piece = -(-size // chunks)
    return (piece,) * (chunks - 1) + (size - piece * (chunks - 1),)
'''),
    Mutant("chunk_sizes", "empty-last-piece-when-it-divides", '''
def chunk_sizes(size, chunks):
    if chunks < 1:
        raise RuntimeError("chunks must be positive")
    if size == 0:
        return (0,) * chunks
    piece = -(-size // chunks)
    full, rest = divmod(size, piece)
    return (piece,) * full + (rest,) if full < chunks else (piece,) * full
'''),
    Mutant("chunk_sizes", "one-piece-for-an-empty-dim", '''
def chunk_sizes(size, chunks):
    if chunks < 1:
        raise RuntimeError("chunks must be positive")
    if size == 0:
        return (0,)
    piece = -(-size // chunks)
    full, rest = divmod(size, piece)
    return (piece,) * full + ((rest,) if rest else ())
'''),
    Mutant("chunk_sizes", "returns-a-list", '''
def chunk_sizes(size, chunks):
    if chunks < 1:
        raise RuntimeError("chunks must be positive")
    if size == 0:
        return [0] * chunks
    piece = -(-size // chunks)
    full, rest = divmod(size, piece)
    return [piece] * full + ([rest] if rest else [])
'''),
    Mutant("chunk_sizes", "no-check-on-chunks", '''
def chunk_sizes(size, chunks):
    if size == 0:
        return (0,) * max(chunks, 0)
    piece = -(-size // chunks)
    full, rest = divmod(size, piece)
    return (piece,) * full + ((rest,) if rest else ())
'''),
    Mutant("chunk_sizes", "value-error-for-bad-chunks", '''
def chunk_sizes(size, chunks):
    if chunks < 1:
        raise ValueError("chunks must be positive")
    if size == 0:
        return (0,) * chunks
    piece = -(-size // chunks)
    full, rest = divmod(size, piece)
    return (piece,) * full + ((rest,) if rest else ())
'''),
    Mutant("chunk_sizes", "float-division", '''
def chunk_sizes(size, chunks):
    if chunks < 1:
        raise RuntimeError("chunks must be positive")
    if size == 0:
        return (0,) * chunks
    piece = int(np.ceil(size / chunks))
    full, rest = divmod(size, piece)
    return (piece,) * full + ((rest,) if rest else ())
'''),

    # --- unbind_views ---------------------------------------------------------------------
    Mutant("unbind_views", "calls-the-reference", '''
import tensorlab
def unbind_views(shape, strides, offset, dim):
    x = tensorlab.zeros(offset + 1 + sum((n - 1) * s for n, s in zip(shape, strides) if n)).as_strided(shape, strides, offset)
    return tuple((tuple(p.shape), tuple(p.stride()), p.storage_offset()) for p in x.unbind(dim))
'''),
    Mutant("unbind_views", "forgets-the-base-offset", UNBIND_CHECKS + '''
    rest = lambda values: tuple(values[:dim]) + tuple(values[dim + 1:])
    return tuple((rest(shape), rest(strides), i * strides[dim]) for i in range(shape[dim]))
'''),
    Mutant("unbind_views", "steps-one-slot-per-piece", UNBIND_CHECKS + '''
    rest = lambda values: tuple(values[:dim]) + tuple(values[dim + 1:])
    return tuple((rest(shape), rest(strides), offset + i) for i in range(shape[dim]))
'''),
    Mutant("unbind_views", "contiguous-strides-like-a-copy", UNBIND_CHECKS + '''
    piece_shape = tuple(shape[:dim]) + tuple(shape[dim + 1:])
    piece_strides = [1] * len(piece_shape)
    for d in reversed(range(len(piece_shape) - 1)):
        piece_strides[d] = piece_strides[d + 1] * piece_shape[d + 1]
    return tuple((piece_shape, tuple(piece_strides), offset + i * strides[dim]) for i in range(shape[dim]))
'''),
    Mutant("unbind_views", "drops-the-last-stride", UNBIND_CHECKS + '''
    piece_shape = tuple(shape[:dim]) + tuple(shape[dim + 1:])
    return tuple((piece_shape, tuple(strides[:-1]), offset + i * strides[dim]) for i in range(shape[dim]))
'''),
    Mutant("unbind_views", "wraps-a-negative-dim-with-ndim-plus-1", '''
def unbind_views(shape, strides, offset, dim):
    ndim = len(shape)
    if ndim == 0 or not -ndim <= dim < ndim:
        raise IndexError("Dimension out of range")
    if dim < 0:
        dim = min(dim + ndim + 1, ndim - 1)
    rest = lambda values: tuple(values[:dim]) + tuple(values[dim + 1:])
    return tuple((rest(shape), rest(strides), offset + i * strides[dim]) for i in range(shape[dim]))
'''),
    Mutant("unbind_views", "no-error-for-0-d-x", '''
def unbind_views(shape, strides, offset, dim):
    ndim = len(shape)
    if ndim == 0:
        return ()
    if not -ndim <= dim < ndim:
        raise IndexError("Dimension out of range")
    dim = dim % ndim
    rest = lambda values: tuple(values[:dim]) + tuple(values[dim + 1:])
    return tuple((rest(shape), rest(strides), offset + i * strides[dim]) for i in range(shape[dim]))
'''),
    Mutant("unbind_views", "no-range-check-on-dim", '''
def unbind_views(shape, strides, offset, dim):
    if len(shape) == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    dim = dim % len(shape)
    rest = lambda values: tuple(values[:dim]) + tuple(values[dim + 1:])
    return tuple((rest(shape), rest(strides), offset + i * strides[dim]) for i in range(shape[dim]))
'''),
    Mutant("unbind_views", "returns-lists", UNBIND_CHECKS + '''
    rest = lambda values: list(values[:dim]) + list(values[dim + 1:])
    return [(rest(shape), rest(strides), offset + i * strides[dim]) for i in range(shape[dim])]
'''),
    Mutant("unbind_views", "uses-the-stride-of-dim-0", UNBIND_CHECKS + '''
    rest = lambda values: tuple(values[:dim]) + tuple(values[dim + 1:])
    return tuple((rest(shape), rest(strides), offset + i * strides[0]) for i in range(shape[dim]))
'''),
]

# Returning an input (or a view of one) where the statement promises a new array: fresh_result looks
# inside the list of arrays too.
MUTANTS += [
    Mutant("cat", "returns-the-only-array-itself", CAT_CHECKS + '''
    if len(tensors) == 1:
        return first
    shape = list(first.shape)
    shape[dim] = sum(array.shape[dim] for array in tensors)
    out = np.empty(shape, dtype=first.dtype)
    start = 0
    for array in tensors:
        out[(slice(None),) * dim + (slice(start, start + array.shape[dim]),)] = array
        start += array.shape[dim]
    return out
'''),
    Mutant("stack", "one-array-as-a-view-with-a-new-axis", STACK_CHECKS + '''
    if len(tensors) == 1:
        return first[(slice(None),) * dim + (np.newaxis,)]
    out = np.empty(first.shape[:dim] + (len(tensors),) + first.shape[dim:], dtype=first.dtype)
    for i, array in enumerate(tensors):
        out[(slice(None),) * dim + (i,)] = array
    return out
'''),
]
