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
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
    Mutant("cat", "calls-np-concatenate", '''
def cat(tensors, dim):
    return np.concatenate(tensors, axis=dim)
''', nudge="The statement asks for cat built from an empty array and slice assignment: is NumPy's own joining function among what this part lets you use?"),
    Mutant("cat", "joins-with-np-r_", CAT_CHECKS + '''
    moved = [np.moveaxis(array, dim, 0) for array in tensors]
    return np.ascontiguousarray(np.moveaxis(np.r_[tuple(moved)], 0, dim))
''', nudge="Is a joining helper reached under another name any less a joining function than the ones the statement rules out?"),
    Mutant("cat", "joins-with-np-append", CAT_CHECKS + '''
    out = first
    for array in tensors[1:]:
        out = np.append(out, array, axis=dim)
    return out.copy()
''', nudge="What does NumPy's append do under the hood, and is it on this part's list of what you may use?"),
    Mutant("cat", "np-empty-without-dtype", CAT_CHECKS + '''
    shape = list(first.shape)
    shape[dim] = sum(array.shape[dim] for array in tensors)
    out = np.empty(shape)
    start = 0
    for array in tensors:
        out[(slice(None),) * dim + (slice(start, start + array.shape[dim]),)] = array
        start += array.shape[dim]
    return out
''', nudge="What dtype does an array allocated without naming one get, and is it the dtype of the arrays you join?"),
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
''', nudge="A negative dim passes the range check, but how many full slices does it put in front of the slice you copy into?"),
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
''', nudge="When an array with a size 1 is assigned into a larger slice, does the copy refuse it or stretch it, and does torch.cat allow that?"),
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
''', nudge="Which exception classes does torch raise for a 0-d array, a dim out of range and mismatched sizes, and which does your code raise?"),
    Mutant("cat", "start-never-moves", CAT_CHECKS + '''
    shape = list(first.shape)
    shape[dim] = sum(array.shape[dim] for array in tensors)
    out = np.zeros(shape, dtype=first.dtype)
    for array in tensors:
        out[(slice(None),) * dim + (slice(0, array.shape[dim]),)] = array
    return out
''', nudge="Where along dim does the second array's slice begin, and does it land on top of the first?"),
    Mutant("cat", "result-sized-by-the-first-array", CAT_CHECKS + '''
    shape = list(first.shape)
    shape[dim] = first.shape[dim] * len(tensors)
    out = np.empty(shape, dtype=first.dtype)
    start = 0
    for array in tensors:
        out[(slice(None),) * dim + (slice(start, start + array.shape[dim]),)] = array
        start += array.shape[dim]
    return out
''', nudge="When the arrays have different sizes along dim, how long must the result be along that dim?"),
    Mutant("cat", "checks-only-the-first-two-arrays", CAT_CHECKS.replace("for array in tensors:", "for array in tensors[:2]:") + '''
    kept = [array for array in tensors if array.ndim == first.ndim]
    shape = list(first.shape)
    shape[dim] = sum(array.shape[dim] for array in kept)
    out = np.empty(shape, dtype=first.dtype)
    start = 0
    for array in kept:
        out[(slice(None),) * dim + (slice(start, start + array.shape[dim]),)] = array
        start += array.shape[dim]
    return out
''', nudge="Which of the arrays did your checks look at, and could the third one be the odd one out?"),
    Mutant("cat", "skips-empty-arrays-of-another-rank", '''
def cat(tensors, dim):
    first = tensors[0]
    if any(array.ndim == 0 for array in tensors):
        raise RuntimeError("zero-dimensional tensor cannot be concatenated")
    ndim = first.ndim
    if not -ndim <= dim < ndim:
        raise IndexError("Dimension out of range")
    dim = dim % ndim
    tensors = [array for array in tensors if array.ndim == ndim or array.size]
    for array in tensors:
        if array.ndim != ndim or any(array.shape[d] != first.shape[d] for d in range(ndim) if d != dim):
            raise RuntimeError("Sizes of tensors must match except in dimension")
    shape = list(first.shape)
    shape[dim] = sum(array.shape[dim] for array in tensors)
    out = np.empty(shape, dtype=first.dtype)
    start = 0
    for array in tensors:
        out[(slice(None),) * dim + (slice(start, start + array.shape[dim]),)] = array
        start += array.shape[dim]
    return out
''', nudge="Does an array with no elements still have a number of dims, and what must that number be?"),
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
''', nudge="Does an array with a size 0 get a pass on the shape check, or must its other sizes still match the others'?"),
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
''', nudge="Can a 0-d array be joined along an existing dim, when it has no dims at all?"),

    # --- stack ----------------------------------------------------------------------------
    Mutant("stack", "calls-the-reference", '''
import torch
def stack(tensors, dim):
    return torch.stack([torch.from_numpy(array.copy()) for array in tensors], dim).numpy()
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
    Mutant("stack", "calls-np-stack", '''
def stack(tensors, dim):
    return np.stack(tensors, axis=dim)
''', nudge="The statement asks for stack built from an empty array and slice assignment: is NumPy's own stack among what this part lets you use?"),
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
''', nudge="The result has one dim more than the inputs: which count does a negative dim wrap around for stack?"),
    Mutant("stack", "np-array-of-the-list-then-transpose", STACK_CHECKS + '''
    stacked = np.array(tensors)
    order = list(range(1, stacked.ndim))
    order.insert(dim, 0)
    return stacked.transpose(order).copy()
''', nudge="Which function turns your list of arrays into one array here, and is it on this part's list of what you may use?"),
    Mutant("stack", "np-empty-without-dtype", STACK_CHECKS + '''
    shape = first.shape[:dim] + (len(tensors),) + first.shape[dim:]
    out = np.empty(shape)
    for i, array in enumerate(tensors):
        out[(slice(None),) * dim + (i,)] = array
    return out
''', nudge="What dtype does an array allocated without naming one get, and is it the dtype of the arrays you stack?"),
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
''', nudge="If one array has a size 1 where the others have 3, does slice assignment refuse it or quietly stretch it, and what does torch.stack demand?"),
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
''', nudge="What should happen when dim lies beyond the last position the new dim can take, or below the most negative one?"),
    Mutant("stack", "joins-along-an-existing-dim", STACK_CHECKS + '''
    dim = min(dim, first.ndim - 1)
    shape = list(first.shape)
    shape[dim] = shape[dim] * len(tensors)
    out = np.empty(shape, dtype=first.dtype)
    size = first.shape[dim]
    for i, array in enumerate(tensors):
        out[(slice(None),) * dim + (slice(i * size, (i + 1) * size),)] = array
    return out
''', nudge="Does stack lengthen a dim the inputs already have, or add a new one?"),
    Mutant("stack", "swaps-the-new-dim-into-place", STACK_CHECKS + '''
    out = np.empty((len(tensors), *first.shape), dtype=first.dtype)
    for i, array in enumerate(tensors):
        out[i] = array
    return np.swapaxes(out, 0, dim)
''', nudge="Swapping the new dim with the one at position dim moves two dims: where does the dim that was at position dim end up?"),
    Mutant("stack", "fails-on-0-d-arrays", STACK_CHECKS + '''
    if first.ndim == 0:
        raise RuntimeError("nothing to stack along")
    shape = first.shape[:dim] + (len(tensors),) + first.shape[dim:]
    out = np.empty(shape, dtype=first.dtype)
    for i, array in enumerate(tensors):
        out[(slice(None),) * dim + (i,)] = array
    return out
''', nudge="Does stacking need an existing dim, when it makes a new one?"),

    # --- chunk_sizes ----------------------------------------------------------------------
    Mutant("chunk_sizes", "calls-the-reference", '''
import tensorlab
def chunk_sizes(size, chunks):
    return tuple(int(piece.shape[0]) for piece in tensorlab.zeros(1).expand(size).chunk(chunks))
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
    Mutant("chunk_sizes", "allocates-and-calls-array-split", '''
def chunk_sizes(size, chunks):
    if chunks < 1:
        raise RuntimeError("chunks must be positive")
    return tuple(len(piece) for piece in np.array_split(np.zeros(size), chunks))
''', nudge="Can you allocate a dim of 2**61 elements, and does NumPy's array_split cut pieces by torch's rule?"),
    Mutant("chunk_sizes", "empty-dim-before-the-chunks-check", '''
def chunk_sizes(size, chunks):
    if size == 0:
        return (0,) * max(chunks, 0)
    if chunks < 1:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    piece = -(-size // chunks)
    full, rest = divmod(size, piece)
    return (piece,) * full + ((rest,) if rest else ())
''', nudge="For a dim of size 0 and chunks of 0 or less, which comes first: the empty pieces, or the check on chunks?"),
    Mutant("chunk_sizes", "spreads-the-rest-like-tensor-split", '''
def chunk_sizes(size, chunks):
    if chunks < 1:
        raise RuntimeError("chunks must be positive")
    base, rest = divmod(size, chunks)
    return tuple(base + 1 if i < rest else base for i in range(chunks))
''', nudge="Does chunk share the remainder out one by one over the first pieces, or make every piece but the last the same length?"),
    Mutant("chunk_sizes", "floor-instead-of-ceil", '''
def chunk_sizes(size, chunks):
    if chunks < 1:
        raise RuntimeError("chunks must be positive")
    if size == 0:
        return (0,) * chunks
    piece = max(size // chunks, 1)
    full, rest = divmod(size, piece)
    return (piece,) * full + ((rest,) if rest else ())
''', nudge="When the size does not divide evenly, is a piece's length rounded down or up, and how many pieces does that make?"),
    Mutant("chunk_sizes", "always-makes-chunks-pieces", '''
def chunk_sizes(size, chunks):
    if chunks < 1:
        raise RuntimeError("chunks must be positive")
    piece = -(-size // chunks)
    return (piece,) * (chunks - 1) + (size - piece * (chunks - 1),)
''', nudge="When pieces of full length use up the dim early, does torch still hand out as many pieces as chunks asks for?"),
    Mutant("chunk_sizes", "empty-last-piece-when-it-divides", '''
def chunk_sizes(size, chunks):
    if chunks < 1:
        raise RuntimeError("chunks must be positive")
    if size == 0:
        return (0,) * chunks
    piece = -(-size // chunks)
    full, rest = divmod(size, piece)
    return (piece,) * full + (rest,) if full < chunks else (piece,) * full
''', nudge="When the size divides evenly into pieces, is there still a piece of length 0 at the end?"),
    Mutant("chunk_sizes", "one-piece-for-an-empty-dim", '''
def chunk_sizes(size, chunks):
    if chunks < 1:
        raise RuntimeError("chunks must be positive")
    if size == 0:
        return (0,)
    piece = -(-size // chunks)
    full, rest = divmod(size, piece)
    return (piece,) * full + ((rest,) if rest else ())
''', nudge="How many pieces does a dim of size 0 give: one, or one per chunk?"),
    Mutant("chunk_sizes", "returns-a-list", '''
def chunk_sizes(size, chunks):
    if chunks < 1:
        raise RuntimeError("chunks must be positive")
    if size == 0:
        return [0] * chunks
    piece = -(-size // chunks)
    full, rest = divmod(size, piece)
    return [piece] * full + ([rest] if rest else [])
''', nudge="Which type does the statement ask you to return, and is a list that type?"),
    Mutant("chunk_sizes", "no-check-on-chunks", '''
def chunk_sizes(size, chunks):
    if size == 0:
        return (0,) * max(chunks, 0)
    piece = -(-size // chunks)
    full, rest = divmod(size, piece)
    return (piece,) * full + ((rest,) if rest else ())
''', nudge="What should chunks of 0, or a negative number of chunks, do?"),
    Mutant("chunk_sizes", "value-error-for-bad-chunks", '''
def chunk_sizes(size, chunks):
    if chunks < 1:
        raise ValueError("chunks must be positive")
    if size == 0:
        return (0,) * chunks
    piece = -(-size // chunks)
    full, rest = divmod(size, piece)
    return (piece,) * full + ((rest,) if rest else ())
''', nudge="Which exception class does torch raise when chunks is less than 1?"),
    Mutant("chunk_sizes", "float-division", '''
def chunk_sizes(size, chunks):
    if chunks < 1:
        raise RuntimeError("chunks must be positive")
    if size == 0:
        return (0,) * chunks
    piece = int(np.ceil(size / chunks))
    full, rest = divmod(size, piece)
    return (piece,) * full + ((rest,) if rest else ())
''', nudge="Can a float hold every integer up to 2**61 exactly, and what does that do to a ceiling computed through floats?"),

    # --- unbind_views ---------------------------------------------------------------------
    Mutant("unbind_views", "calls-the-reference", '''
import tensorlab
def unbind_views(shape, strides, offset, dim):
    x = tensorlab.zeros(offset + 1 + sum((n - 1) * s for n, s in zip(shape, strides) if n)).as_strided(shape, strides, offset)
    return tuple((tuple(p.shape), tuple(p.stride()), p.storage_offset()) for p in x.unbind(dim))
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
    Mutant("unbind_views", "forgets-the-base-offset", UNBIND_CHECKS + '''
    rest = lambda values: tuple(values[:dim]) + tuple(values[dim + 1:])
    return tuple((rest(shape), rest(strides), i * strides[dim]) for i in range(shape[dim]))
''', nudge="Where in storage does x itself start, and do the pieces start counting from there?"),
    Mutant("unbind_views", "steps-one-slot-per-piece", UNBIND_CHECKS + '''
    rest = lambda values: tuple(values[:dim]) + tuple(values[dim + 1:])
    return tuple((rest(shape), rest(strides), offset + i) for i in range(shape[dim]))
''', nudge="How far apart in storage are two neighbours along dim: one slot, or something the layout tells you?"),
    Mutant("unbind_views", "contiguous-strides-like-a-copy", UNBIND_CHECKS + '''
    piece_shape = tuple(shape[:dim]) + tuple(shape[dim + 1:])
    piece_strides = [1] * len(piece_shape)
    for d in reversed(range(len(piece_shape) - 1)):
        piece_strides[d] = piece_strides[d + 1] * piece_shape[d + 1]
    return tuple((piece_shape, tuple(piece_strides), offset + i * strides[dim]) for i in range(shape[dim]))
''', nudge="A view copies nothing: do its strides come from its own shape, or from x's layout?"),
    Mutant("unbind_views", "drops-the-last-stride", UNBIND_CHECKS + '''
    piece_shape = tuple(shape[:dim]) + tuple(shape[dim + 1:])
    return tuple((piece_shape, tuple(strides[:-1]), offset + i * strides[dim]) for i in range(shape[dim]))
''', nudge="Which entry of strides belongs to the dim you unbind, and is it always the last one?"),
    Mutant("unbind_views", "wraps-a-negative-dim-with-ndim-plus-1", '''
def unbind_views(shape, strides, offset, dim):
    ndim = len(shape)
    if ndim == 0 or not -ndim <= dim < ndim:
        raise IndexError("Dimension out of range")
    if dim < 0:
        dim = min(dim + ndim + 1, ndim - 1)
    rest = lambda values: tuple(values[:dim]) + tuple(values[dim + 1:])
    return tuple((rest(shape), rest(strides), offset + i * strides[dim]) for i in range(shape[dim]))
''', nudge="Unbind removes a dim rather than adding one: which count does a negative dim wrap around?"),
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
''', nudge="Does a 0-d x have any dim to unbind, and what does torch do when asked to?"),
    Mutant("unbind_views", "no-range-check-on-dim", '''
def unbind_views(shape, strides, offset, dim):
    if len(shape) == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    dim = dim % len(shape)
    rest = lambda values: tuple(values[:dim]) + tuple(values[dim + 1:])
    return tuple((rest(shape), rest(strides), offset + i * strides[dim]) for i in range(shape[dim]))
''', nudge="What should a dim beyond x's dims do: wrap around, or raise?"),
    Mutant("unbind_views", "returns-lists", UNBIND_CHECKS + '''
    rest = lambda values: list(values[:dim]) + list(values[dim + 1:])
    return [(rest(shape), rest(strides), offset + i * strides[dim]) for i in range(shape[dim])]
''', nudge="Which types does the statement ask for, for the pieces and for each shape and strides?"),
    Mutant("unbind_views", "uses-the-stride-of-dim-0", UNBIND_CHECKS + '''
    rest = lambda values: tuple(values[:dim]) + tuple(values[dim + 1:])
    return tuple((rest(shape), rest(strides), offset + i * strides[0]) for i in range(shape[dim]))
''', nudge="Which dim's stride separates piece i from piece i + 1?"),
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
''', nudge="With only one array in the list, does your result share memory with it, when the statement promises a new array?"),
    Mutant("stack", "one-array-as-a-view-with-a-new-axis", STACK_CHECKS + '''
    if len(tensors) == 1:
        return first[(slice(None),) * dim + (np.newaxis,)]
    out = np.empty(first.shape[:dim] + (len(tensors),) + first.shape[dim:], dtype=first.dtype)
    for i, array in enumerate(tensors):
        out[(slice(None),) * dim + (i,)] = array
    return out
''', nudge="With only one array in the list, does your result share memory with it, when the statement promises a new array?"),
]
