"""Mutants of exercise 05 (reductions): plausible wrong versions of each graded function."""

from tensorlab.grading.tasks import Mutant

# The right dims handling of sum_dims_loops; a mutant appends its own (wrong) loop and return.
LOOPS_DIMS = '''
def normalise(x, dims):
    if isinstance(dims, int):
        dims = [dims]
    for dim in dims:
        if not -x.ndim <= dim < x.ndim:
            raise IndexError("Dimension out of range")
    normalised = []
    for dim in dims:
        dim = dim % x.ndim
        if dim in normalised:
            raise RuntimeError("dim appears multiple times in the list of dims")
        normalised.append(dim)
    return normalised
'''

# The right dims handling of sum_dims_vectorised (loop-free); a mutant gets the arithmetic wrong.
VECTORISED_DIMS = '''
def normalise(x, dims):
    dims = np.array(dims, dtype=np.int64).reshape(-1)
    if ((dims < -x.ndim) | (dims >= x.ndim)).any():
        raise IndexError("Dimension out of range")
    is_summed = np.zeros(x.ndim, dtype=bool)
    is_summed[dims % x.ndim] = True
    if np.count_nonzero(is_summed) != len(dims):
        raise RuntimeError("dim appears multiple times in the list of dims")
    return np.flatnonzero(is_summed), np.flatnonzero(~is_summed)
'''

# The right walk of argmax over one slice; mutants get dims, dtype, keepdim or errors wrong.
FIRST_LARGEST = '''
def first_largest(row):
    best = 0
    for i in range(1, len(row)):
        if np.isnan(row[best]):
            break
        if np.isnan(row[i]) or row[i] > row[best]:
            best = i
    return best
'''

MUTANTS = [
    # --- sum_dims_loops --------------------------------------------------------------------------
    Mutant("sum_dims_loops", "calls-torch", '''
import torch
def sum_dims_loops(x, dims, keepdim):
    return torch.from_numpy(x).sum(dims, keepdim=keepdim).numpy()
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
    Mutant("sum_dims_loops", "np-sum-on-a-tuple-of-axes", '''
def sum_dims_loops(x, dims, keepdim):
    dims = (dims,) if isinstance(dims, int) else tuple(dims)
    return np.asarray(np.sum(x, axis=dims, keepdims=keepdim, dtype=np.int64 if x.dtype.kind in "biu" else x.dtype))
''', nudge="Which functions does the statement forbid here, and does one of them do the summing for you?"),
    Mutant("sum_dims_loops", "forgets-keepdim", LOOPS_DIMS + '''
def sum_dims_loops(x, dims, keepdim):
    dims = normalise(x, dims)
    dtype = np.int64 if x.dtype.kind in "biu" else x.dtype
    out = np.zeros(tuple(1 if d in dims else s for d, s in enumerate(x.shape)), dtype=dtype)
    for position in np.ndindex(*x.shape):
        out[tuple(0 if d in dims else i for d, i in enumerate(position))] += x[position]
    return out.reshape(tuple(s for d, s in enumerate(x.shape) if d not in dims))
''', nudge="When keepdim is true, what becomes of the summed dims in the result's shape?"),
    Mutant("sum_dims_loops", "squeeze-drops-kept-size-1-dims", LOOPS_DIMS + '''
def sum_dims_loops(x, dims, keepdim):
    dims = normalise(x, dims)
    dtype = np.int64 if x.dtype.kind in "biu" else x.dtype
    out = np.zeros(tuple(1 if d in dims else s for d, s in enumerate(x.shape)), dtype=dtype)
    for position in np.ndindex(*x.shape):
        out[tuple(0 if d in dims else i for d, i in enumerate(position))] += x[position]
    return out if keepdim else np.asarray(out.squeeze())
''', nudge="Does squeezing remove only the summed dims, or also size-1 dims that were never summed?"),
    Mutant("sum_dims_loops", "negative-dims-not-normalised", '''
def sum_dims_loops(x, dims, keepdim):
    dims = [dims] if isinstance(dims, int) else list(dims)
    for dim in dims:
        if not -x.ndim <= dim < x.ndim:
            raise IndexError("Dimension out of range")
    if len(set(dims)) != len(dims):
        raise RuntimeError("dim appears multiple times")
    dtype = np.int64 if x.dtype.kind in "biu" else x.dtype
    out = np.zeros(tuple(1 if d in dims else s for d, s in enumerate(x.shape)), dtype=dtype)
    for position in np.ndindex(*x.shape):
        out[tuple(0 if d in dims else i for d, i in enumerate(position))] += x[position]
    return out if keepdim else out.reshape(tuple(s for d, s in enumerate(x.shape) if d not in dims))
''', nudge="Of a 3-d x, are -1 and 2 different dims or the same one?"),
    Mutant("sum_dims_loops", "repeated-dim-summed-once", '''
def sum_dims_loops(x, dims, keepdim):
    dims = [dims] if isinstance(dims, int) else list(dims)
    for dim in dims:
        if not -x.ndim <= dim < x.ndim:
            raise IndexError("Dimension out of range")
    dims = {dim % x.ndim for dim in dims}
    dtype = np.int64 if x.dtype.kind in "biu" else x.dtype
    out = np.zeros(tuple(1 if d in dims else s for d, s in enumerate(x.shape)), dtype=dtype)
    for position in np.ndindex(*x.shape):
        out[tuple(0 if d in dims else i for d, i in enumerate(position))] += x[position]
    return out if keepdim else out.reshape(tuple(s for d, s in enumerate(x.shape) if d not in dims))
''', nudge="What should happen when the same dim is named twice?"),
    Mutant("sum_dims_loops", "keeps-the-integer-dtype", LOOPS_DIMS + '''
def sum_dims_loops(x, dims, keepdim):
    dims = normalise(x, dims)
    out = np.zeros(tuple(1 if d in dims else s for d, s in enumerate(x.shape)), dtype=x.dtype)
    for position in np.ndindex(*x.shape):
        out[tuple(0 if d in dims else i for d, i in enumerate(position))] += x[position]
    return out if keepdim else out.reshape(tuple(s for d, s in enumerate(x.shape) if d not in dims))
''', nudge="Which dtype does torch give the sum of an int32 or bool array?"),
    Mutant("sum_dims_loops", "always-float64", LOOPS_DIMS + '''
def sum_dims_loops(x, dims, keepdim):
    dims = normalise(x, dims)
    out = np.zeros(tuple(1 if d in dims else s for d, s in enumerate(x.shape)))
    for position in np.ndindex(*x.shape):
        out[tuple(0 if d in dims else i for d, i in enumerate(position))] += x[position]
    return out if keepdim else out.reshape(tuple(s for d, s in enumerate(x.shape) if d not in dims))
''', nudge="Should a float32 or integer x come back as float64?"),
    Mutant("sum_dims_loops", "adds-integers-in-float64-then-casts", LOOPS_DIMS + '''
def sum_dims_loops(x, dims, keepdim):
    dims = normalise(x, dims)
    out = np.zeros(tuple(1 if d in dims else s for d, s in enumerate(x.shape)))
    for position in np.ndindex(*x.shape):
        out[tuple(0 if d in dims else i for d, i in enumerate(position))] += x[position]
    if x.dtype.kind in "biu":
        out = out.astype(np.int64)
    return out if keepdim else out.reshape(tuple(s for d, s in enumerate(x.shape) if d not in dims))
''', nudge="Can float64 hold every integer beyond 2**53 exactly?"),
    Mutant("sum_dims_loops", "only-the-first-dim-of-a-list", LOOPS_DIMS + '''
def sum_dims_loops(x, dims, keepdim):
    dims = normalise(x, dims)[:1]
    dtype = np.int64 if x.dtype.kind in "biu" else x.dtype
    out = np.zeros(tuple(1 if d in dims else s for d, s in enumerate(x.shape)), dtype=dtype)
    for position in np.ndindex(*x.shape):
        out[tuple(0 if d in dims else i for d, i in enumerate(position))] += x[position]
    return out if keepdim else out.reshape(tuple(s for d, s in enumerate(x.shape) if d not in dims))
''', nudge="When dims is a list, are all of its dims summed?"),
    Mutant("sum_dims_loops", "wraps-dims-before-checking-their-range", '''
def sum_dims_loops(x, dims, keepdim):
    dims = [dims] if isinstance(dims, int) else list(dims)
    wrapped = [dim % x.ndim for dim in dims]
    if len(set(wrapped)) != len(wrapped):
        raise RuntimeError("dim appears multiple times in the list of dims")
    for dim in dims:
        if not -x.ndim <= dim < x.ndim:
            raise IndexError("Dimension out of range")
    dtype = np.int64 if x.dtype.kind in "biu" else x.dtype
    out = np.zeros(tuple(1 if d in wrapped else s for d, s in enumerate(x.shape)), dtype=dtype)
    for position in np.ndindex(*x.shape):
        out[tuple(0 if d in wrapped else i for d, i in enumerate(position))] += x[position]
    return out if keepdim else out.reshape(tuple(s for d, s in enumerate(x.shape) if d not in wrapped))
''', nudge="Once a dim out of range has been wrapped with %, which dim does it pretend to be, and what does torch look at first?"),
    Mutant("sum_dims_loops", "out-of-range-raises-runtime-error", '''
def sum_dims_loops(x, dims, keepdim):
    dims = [dims] if isinstance(dims, int) else list(dims)
    normalised = []
    for dim in dims:
        if not -x.ndim <= dim < x.ndim or dim % x.ndim in normalised:
            raise RuntimeError("bad dims")
        normalised.append(dim % x.ndim)
    dtype = np.int64 if x.dtype.kind in "biu" else x.dtype
    out = np.zeros(tuple(1 if d in normalised else s for d, s in enumerate(x.shape)), dtype=dtype)
    for position in np.ndindex(*x.shape):
        out[tuple(0 if d in normalised else i for d, i in enumerate(position))] += x[position]
    return out if keepdim else out.reshape(tuple(s for d, s in enumerate(x.shape) if d not in normalised))
''', nudge="Which exception does torch raise for a dim out of range, and is it the same one as for a repeat?"),
    Mutant("sum_dims_loops", "walks-the-storage-not-the-indices", LOOPS_DIMS + '''
def sum_dims_loops(x, dims, keepdim):
    dims = normalise(x, dims)
    dtype = np.int64 if x.dtype.kind in "biu" else x.dtype
    out = np.zeros(tuple(1 if d in dims else s for d, s in enumerate(x.shape)), dtype=dtype)
    values = x.ravel(order="K")
    for number, position in enumerate(np.ndindex(*x.shape)):
        out[tuple(0 if d in dims else i for d, i in enumerate(position))] += values[number]
    return out if keepdim else out.reshape(tuple(s for d, s in enumerate(x.shape) if d not in dims))
''', nudge="For a non-contiguous view, does memory order visit the elements in the same order as their indices?"),
    # --- sum_dims_vectorised ---------------------------------------------------------------------
    Mutant("sum_dims_vectorised", "calls-tensorlab", '''
import tensorlab
def sum_dims_vectorised(x, dims, keepdim):
    return tensorlab.from_numpy(x).sum(dims, keepdim=keepdim).numpy()
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
    Mutant("sum_dims_vectorised", "kept-dims-in-reverse-order", VECTORISED_DIMS + '''
def sum_dims_vectorised(x, dims, keepdim):
    summed, kept = normalise(x, dims)
    kept = kept[::-1]
    sizes = np.array(x.shape, dtype=np.int64)
    k = int(np.prod(sizes[summed]))
    dtype = np.int64 if x.dtype.kind in "biu" else x.dtype
    rows = np.transpose(x, np.concatenate([kept, summed])).reshape((*tuple(sizes[kept]), k)).astype(dtype)
    out = np.asarray(rows @ np.ones(k, dtype=dtype))
    if keepdim:
        sizes[summed] = 1
        return out.reshape(tuple(sizes))
    return out
''', nudge="After the transpose, in which order do the dims that are not summed come out, and in which order does x have them?"),
    Mutant("sum_dims_vectorised", "np-add-reduce", VECTORISED_DIMS + '''
def sum_dims_vectorised(x, dims, keepdim):
    summed, kept = normalise(x, dims)
    dtype = np.int64 if x.dtype.kind in "biu" else x.dtype
    return np.asarray(np.add.reduce(x.astype(dtype), axis=tuple(summed), keepdims=keepdim))
''', nudge="Which functions does the statement forbid here, and does one of them do the summing for you?"),
    Mutant("sum_dims_vectorised", "while-loop-over-the-rows", VECTORISED_DIMS + '''
def sum_dims_vectorised(x, dims, keepdim):
    summed, kept = normalise(x, dims)
    sizes = np.array(x.shape, dtype=np.int64)
    k = int(np.prod(sizes[summed]))
    dtype = np.int64 if x.dtype.kind in "biu" else x.dtype
    rows = np.transpose(x, np.concatenate([kept, summed])).reshape(-1, k).astype(dtype)
    out = np.zeros(len(rows), dtype=dtype)
    i = 0
    while i < len(rows):
        out[i] = rows[i] @ np.ones(k, dtype=dtype)
        i += 1
    if keepdim:
        sizes[summed] = 1
    else:
        sizes = sizes[kept]
    return out.reshape(tuple(sizes))
''', nudge="What would a single matrix product do here instead of visiting the rows one at a time?"),
    Mutant("sum_dims_vectorised", "comprehension-for-the-dims", '''
def sum_dims_vectorised(x, dims, keepdim):
    dims = [dims] if isinstance(dims, int) else list(dims)
    if any(not -x.ndim <= d < x.ndim for d in dims):
        raise IndexError("Dimension out of range")
    summed = sorted({d % x.ndim for d in dims})
    if len(summed) != len(dims):
        raise RuntimeError("dim appears multiple times")
    kept = [d for d in range(x.ndim) if d not in summed]
    k = int(np.prod([x.shape[d] for d in summed]))
    dtype = np.int64 if x.dtype.kind in "biu" else x.dtype
    out = np.transpose(x, kept + summed).reshape(tuple(x.shape[d] for d in kept) + (k,)).astype(dtype) @ np.ones(k, dtype)
    if keepdim:
        return np.asarray(out).reshape(tuple(1 if d in summed else s for d, s in enumerate(x.shape)))
    return np.asarray(out)
''', nudge="Does the statement count a comprehension as a Python loop?"),
    Mutant("sum_dims_vectorised", "reshape-infers-minus-one", VECTORISED_DIMS + '''
def sum_dims_vectorised(x, dims, keepdim):
    summed, kept = normalise(x, dims)
    sizes = np.array(x.shape, dtype=np.int64)
    dtype = np.int64 if x.dtype.kind in "biu" else x.dtype
    rows = np.transpose(x, np.concatenate([kept, summed])).reshape(tuple(sizes[kept]) + (-1,)).astype(dtype)
    out = rows @ np.ones(rows.shape[-1], dtype=dtype)
    if keepdim:
        sizes[summed] = 1
        return np.asarray(out).reshape(tuple(sizes))
    return np.asarray(out)
''', nudge="Can reshape infer a -1 when another size is 0?"),
    Mutant("sum_dims_vectorised", "reshape-without-transposing", VECTORISED_DIMS + '''
def sum_dims_vectorised(x, dims, keepdim):
    summed, kept = normalise(x, dims)
    sizes = np.array(x.shape, dtype=np.int64)
    k = int(np.prod(sizes[summed]))
    dtype = np.int64 if x.dtype.kind in "biu" else x.dtype
    out = x.reshape(tuple(sizes[kept]) + (k,)).astype(dtype) @ np.ones(k, dtype=dtype)
    if keepdim:
        sizes[summed] = 1
        return np.asarray(out).reshape(tuple(sizes))
    return np.asarray(out)
''', nudge="Before you reshape, are the summed dims together at the end?"),
    Mutant("sum_dims_vectorised", "float-ones-for-integers", VECTORISED_DIMS + '''
def sum_dims_vectorised(x, dims, keepdim):
    summed, kept = normalise(x, dims)
    sizes = np.array(x.shape, dtype=np.int64)
    k = int(np.prod(sizes[summed]))
    out = np.transpose(x, np.concatenate([kept, summed])).reshape(tuple(sizes[kept]) + (k,)) @ np.ones(k)
    if keepdim:
        sizes[summed] = 1
        return np.asarray(out).reshape(tuple(sizes))
    return np.asarray(out)
''', nudge="Which dtype does a product with float ones give an integer x?"),
    Mutant("sum_dims_vectorised", "float64-product-then-cast-to-int64", VECTORISED_DIMS + '''
def sum_dims_vectorised(x, dims, keepdim):
    summed, kept = normalise(x, dims)
    sizes = np.array(x.shape, dtype=np.int64)
    k = int(np.prod(sizes[summed]))
    rows = np.transpose(x, np.concatenate([kept, summed])).reshape(tuple(sizes[kept]) + (k,))
    if x.dtype.kind in "biu":
        out = (rows.astype(np.float64) @ np.ones(k)).astype(np.int64)
    else:
        out = rows @ np.ones(k, dtype=x.dtype)
    if keepdim:
        sizes[summed] = 1
        return np.asarray(out).reshape(tuple(sizes))
    return np.asarray(out)
''', nudge="Can float64 hold every integer beyond 2**53 exactly?"),
    Mutant("sum_dims_vectorised", "log-of-a-product-of-exps", VECTORISED_DIMS + '''
def sum_dims_vectorised(x, dims, keepdim):
    summed, kept = normalise(x, dims)
    total = np.log(np.prod(np.exp(x.astype(np.float64)), axis=tuple(summed.tolist()), keepdims=keepdim))
    return np.asarray(np.rint(total).astype(np.int64) if x.dtype.kind in "biu" else total.astype(x.dtype))
''', nudge="What happens to large values, and to large integers, on a trip through exp, a product and log?"),
    Mutant("sum_dims_vectorised", "bincount-with-weights", VECTORISED_DIMS + '''
def sum_dims_vectorised(x, dims, keepdim):
    summed, kept = normalise(x, dims)
    moved = np.transpose(x, np.concatenate([kept, summed]))
    kept_shape = moved.shape[:len(kept)]
    k = int(np.prod(moved.shape[len(kept):]))
    rows = int(np.prod(kept_shape))
    groups = np.repeat(np.arange(rows), k)
    out = np.bincount(groups, weights=moved.reshape(-1), minlength=rows).reshape(kept_shape)
    out = out.astype(np.int64) if x.dtype.kind in "biu" else out.astype(x.dtype)
    return np.expand_dims(out, tuple(summed.tolist())) if keepdim else out
''', nudge="In which dtype does a weighted bincount add, and is it among the names this part allows?"),
    Mutant("sum_dims_vectorised", "forgets-keepdim", VECTORISED_DIMS + '''
def sum_dims_vectorised(x, dims, keepdim):
    summed, kept = normalise(x, dims)
    sizes = np.array(x.shape, dtype=np.int64)
    k = int(np.prod(sizes[summed]))
    dtype = np.int64 if x.dtype.kind in "biu" else x.dtype
    rows = np.transpose(x, np.concatenate([kept, summed])).reshape(tuple(sizes[kept]) + (k,)).astype(dtype)
    return np.asarray(rows @ np.ones(k, dtype=dtype))
''', nudge="When keepdim is true, what becomes of the summed dims in the result's shape?"),
    Mutant("sum_dims_vectorised", "repeated-dim-summed-once", '''
def sum_dims_vectorised(x, dims, keepdim):
    dims = np.array(dims, dtype=np.int64).reshape(-1)
    if ((dims < -x.ndim) | (dims >= x.ndim)).any():
        raise IndexError("Dimension out of range")
    is_summed = np.zeros(x.ndim, dtype=bool)
    is_summed[dims % x.ndim] = True
    summed, kept = np.flatnonzero(is_summed), np.flatnonzero(~is_summed)
    sizes = np.array(x.shape, dtype=np.int64)
    k = int(np.prod(sizes[summed]))
    dtype = np.int64 if x.dtype.kind in "biu" else x.dtype
    out = np.transpose(x, np.concatenate([kept, summed])).reshape(tuple(sizes[kept]) + (k,)).astype(dtype) @ np.ones(k, dtype)
    if keepdim:
        sizes[summed] = 1
        return np.asarray(out).reshape(tuple(sizes))
    return np.asarray(out)
''', nudge="What should happen when the same dim is named twice?"),
    Mutant("sum_dims_vectorised", "sums-the-dims-one-after-another-with-shifted-indices", VECTORISED_DIMS + '''
def sum_dims_vectorised(x, dims, keepdim):
    summed, kept = normalise(x, dims)
    dtype = np.int64 if x.dtype.kind in "biu" else x.dtype
    first = np.moveaxis(x, int(summed[0]), -1).astype(dtype)
    out = first @ np.ones(first.shape[-1], dtype=dtype)
    if len(summed) > 1:
        second = np.moveaxis(out, int(summed[1]), -1)
        out = second @ np.ones(second.shape[-1], dtype=dtype)
    return np.asarray(out) if not keepdim else np.asarray(out).reshape(tuple(np.where(np.isin(np.arange(x.ndim), summed), 1, x.shape)))
''', nudge="Once one dim has been summed away, do the dims after it keep their numbers?"),
    # --- logsumexp -------------------------------------------------------------------------------
    Mutant("logsumexp", "calls-torch", '''
import torch
def logsumexp(x, dim):
    return torch.logsumexp(torch.from_numpy(x), dim).numpy()
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
    Mutant("logsumexp", "naive-formula-overflows", '''
def logsumexp(x, dim):
    with np.errstate(divide="ignore", over="ignore"):
        return np.log(np.sum(np.exp(x), axis=dim))
''', nudge="What does exp of 1000 give in floating point?"),
    Mutant("logsumexp", "global-max", '''
def logsumexp(x, dim):
    m = np.max(x, initial=-np.inf)
    m = m if np.isfinite(m) else 0
    with np.errstate(divide="ignore"):
        return (np.log(np.sum(np.exp(x - m), axis=dim)) + m).astype(x.dtype)
''', nudge="When rows sit at very different heights, does one max for the whole array keep every row in range?"),
    Mutant("logsumexp", "forgets-to-add-the-max-back", '''
def logsumexp(x, dim):
    m = np.max(x, axis=dim, keepdims=True, initial=-np.inf)
    m = np.where(np.isfinite(m), m, 0).astype(x.dtype)
    with np.errstate(divide="ignore"):
        return np.squeeze(np.log(np.sum(np.exp(x - m), axis=dim, keepdims=True)), axis=dim)
''', nudge="If every value is lowered by the max before exp, is the log of the sum lowered too?"),
    Mutant("logsumexp", "infinite-max-not-replaced", '''
def logsumexp(x, dim):
    m = np.max(x, axis=dim, keepdims=True, initial=-np.inf)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.squeeze(np.log(np.sum(np.exp(x - m), axis=dim, keepdims=True)) + m, axis=dim)
''', nudge="What is inf minus inf, and what happens when a slice's max is infinite?"),
    Mutant("logsumexp", "max-without-keepdims", '''
def logsumexp(x, dim):
    m = np.max(x, axis=dim, initial=-np.inf)
    m = np.where(np.isfinite(m), m, 0).astype(x.dtype)
    with np.errstate(divide="ignore"):
        return np.log(np.sum(np.exp(x - m), axis=dim)) + m
''', nudge="Once the max has lost its dim, does it still line up with x when you subtract it?"),
    Mutant("logsumexp", "float64-result", '''
def logsumexp(x, dim):
    x = x.astype(np.float64)
    m = np.max(x, axis=dim, keepdims=True, initial=-np.inf)
    m = np.where(np.isfinite(m), m, 0)
    with np.errstate(divide="ignore"):
        return np.squeeze(np.log(np.sum(np.exp(x - m), axis=dim, keepdims=True)) + m, axis=dim)
''', nudge="Should a float32 x come back as float64?"),
    Mutant("logsumexp", "keeps-dim", '''
def logsumexp(x, dim):
    m = np.max(x, axis=dim, keepdims=True, initial=-np.inf)
    m = np.where(np.isfinite(m), m, 0).astype(x.dtype)
    with np.errstate(divide="ignore"):
        return np.log(np.sum(np.exp(x - m), axis=dim, keepdims=True)) + m
''', nudge="Should the reduced dim stay in the result's shape?"),
    Mutant("logsumexp", "max-fails-on-a-size-0-dim", '''
def logsumexp(x, dim):
    m = np.max(x, axis=dim, keepdims=True)
    m = np.where(np.isfinite(m), m, 0).astype(x.dtype)
    with np.errstate(divide="ignore"):
        return np.squeeze(np.log(np.sum(np.exp(x - m), axis=dim, keepdims=True)) + m, axis=dim)
''', nudge="What is the max of an empty slice, and what should a size-0 dim give?"),
    Mutant("logsumexp", "np-logaddexp-reduce", '''
def logsumexp(x, dim):
    return np.logaddexp.reduce(x, axis=dim)
''', nudge="Which NumPy function does the statement forbid for this part?"),
    Mutant("logsumexp", "while-loop-over-the-slices", '''
def logsumexp(x, dim):
    moved = np.moveaxis(x, dim, -1)
    out = np.empty(moved.shape[:-1], dtype=x.dtype).reshape(-1)
    rows = moved.reshape(-1, moved.shape[-1])
    i = 0
    while i < len(rows):
        m = np.max(rows[i], initial=-np.inf)
        m = m if np.isfinite(m) else 0
        with np.errstate(divide="ignore"):
            out[i] = np.log(np.sum(np.exp(rows[i] - m))) + m
        i += 1
    return out.reshape(moved.shape[:-1])
''', nudge="What would a single whole-array operation do here instead of visiting elements one at a time?"),
    # --- softmax ---------------------------------------------------------------------------------
    Mutant("softmax", "calls-torch", '''
import torch
def softmax(x, dim):
    return torch.softmax(torch.from_numpy(x), dim).numpy()
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
    Mutant("softmax", "naive-formula-overflows", '''
def softmax(x, dim):
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(x)
        return e / np.sum(e, axis=dim, keepdims=True)
''', nudge="What does exp of 1000 give in floating point?"),
    Mutant("softmax", "global-max", '''
def softmax(x, dim):
    with np.errstate(invalid="ignore"):
        e = np.exp(x - np.max(x))
        return e / np.sum(e, axis=dim, keepdims=True)
''', nudge="When rows sit at very different heights, does one max for the whole array keep every row in range?"),
    Mutant("softmax", "sum-without-keepdims", '''
def softmax(x, dim):
    with np.errstate(invalid="ignore"):
        e = np.exp(x - np.max(x, axis=dim, keepdims=True))
        return e / np.sum(e, axis=dim)
''', nudge="Once the sum has lost its dim, does it still line up with the exps when you divide?"),
    Mutant("softmax", "normalises-along-the-last-dim", '''
def softmax(x, dim):
    with np.errstate(invalid="ignore"):
        e = np.exp(x - np.max(x, axis=dim, keepdims=True))
        return e / np.sum(e, axis=-1, keepdims=True)
''', nudge="Along which dim should each slice sum to 1?"),
    Mutant("softmax", "float64-result", '''
def softmax(x, dim):
    x = x.astype(np.float64)
    with np.errstate(invalid="ignore"):
        e = np.exp(x - np.max(x, axis=dim, keepdims=True))
        return e / np.sum(e, axis=dim, keepdims=True)
''', nudge="Should a float32 x come back as float64?"),
    Mutant("softmax", "divides-by-the-max-not-the-sum", '''
def softmax(x, dim):
    with np.errstate(invalid="ignore"):
        e = np.exp(x - np.max(x, axis=dim, keepdims=True))
        return e / np.max(e, axis=dim, keepdims=True)
''', nudge="Do your slices sum to 1?"),
    Mutant("softmax", "returns-log-softmax", '''
def softmax(x, dim):
    m = np.max(x, axis=dim, keepdims=True)
    with np.errstate(invalid="ignore"):
        return x - m - np.log(np.sum(np.exp(x - m), axis=dim, keepdims=True))
''', nudge="Are your values probabilities between 0 and 1, or their logs?"),
    Mutant("softmax", "nan-rows-turned-into-zeros", '''
def softmax(x, dim):
    with np.errstate(invalid="ignore"):
        e = np.exp(x - np.max(x, axis=dim, keepdims=True))
        return np.nan_to_num(e / np.sum(e, axis=dim, keepdims=True))
''', nudge="What does torch give for a slice that is all -inf, with no probability to share out?"),
    Mutant("softmax", "while-loop-over-the-slices", '''
def softmax(x, dim):
    moved = np.moveaxis(x, dim, -1).copy()
    rows = moved.reshape(-1, moved.shape[-1])
    i = 0
    while i < len(rows):
        with np.errstate(invalid="ignore"):
            e = np.exp(rows[i] - np.max(rows[i]))
            rows[i] = e / np.sum(e)
        i += 1
    return np.moveaxis(rows.reshape(moved.shape), -1, dim)
''', nudge="What would a single whole-array operation do here instead of visiting elements one at a time?"),
    # --- argmax ----------------------------------------------------------------------------------
    Mutant("argmax", "calls-torch", '''
import torch
def argmax(x, dim, keepdim):
    return torch.argmax(torch.from_numpy(x), dim, keepdim=keepdim).numpy()
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
    Mutant("argmax", "np-argmax", '''
def argmax(x, dim, keepdim):
    if x.size == 0 and (dim is None or x.shape[dim] == 0):
        raise IndexError("empty")
    out = np.argmax(x, axis=dim, keepdims=keepdim)
    return np.asarray(out, dtype=np.int64)
''', nudge="Which NumPy functions does the statement forbid for this part?"),
    Mutant("argmax", "last-of-the-ties", '''
def argmax(x, dim, keepdim):
    if dim is None:
        if x.size == 0:
            raise IndexError("empty")
        flat = argmax(x.reshape(-1), 0, False)
        return flat.reshape((1,) * x.ndim) if keepdim else flat
    if not -x.ndim <= dim < x.ndim or x.shape[dim] == 0:
        raise IndexError("bad dim")
    moved = np.moveaxis(x, dim, -1)
    out = np.zeros(moved.shape[:-1], dtype=np.int64)
    for position in np.ndindex(*moved.shape[:-1]):
        row = moved[position]
        best = 0
        for i in range(1, len(row)):
            if np.isnan(row[best]):
                break
            if np.isnan(row[i]) or row[i] >= row[best]:
                best = i
        out[position] = best
    return np.expand_dims(out, dim) if keepdim else out
''', nudge="When several values tie for the largest, which of their indices does torch pick?"),
    Mutant("argmax", "nan-never-wins", '''
def argmax(x, dim, keepdim):
    if dim is None:
        if x.size == 0:
            raise IndexError("empty")
        flat = argmax(x.reshape(-1), 0, False)
        return flat.reshape((1,) * x.ndim) if keepdim else flat
    if not -x.ndim <= dim < x.ndim or x.shape[dim] == 0:
        raise IndexError("bad dim")
    moved = np.moveaxis(x, dim, -1)
    out = np.zeros(moved.shape[:-1], dtype=np.int64)
    for position in np.ndindex(*moved.shape[:-1]):
        row = moved[position]
        best = 0
        for i in range(1, len(row)):
            if row[i] > row[best]:
                best = i
        out[position] = best
    return np.expand_dims(out, dim) if keepdim else out
''', nudge="How does a NaN rank against every number, as torch counts it?"),
    Mutant("argmax", "first-index-equal-to-the-max", '''
def argmax(x, dim, keepdim):
    if dim is None:
        if x.size == 0:
            raise IndexError("empty")
        flat = argmax(x.reshape(-1), 0, False)
        return flat.reshape((1,) * x.ndim) if keepdim else flat
    if not -x.ndim <= dim < x.ndim or x.shape[dim] == 0:
        raise IndexError("bad dim")
    moved = np.moveaxis(x, dim, -1)
    out = np.zeros(moved.shape[:-1], dtype=np.int64)
    for position in np.ndindex(*moved.shape[:-1]):
        row = moved[position]
        out[position] = np.flatnonzero(row == np.max(row))[0]
    return np.expand_dims(out, dim) if keepdim else out
''', nudge="Is a NaN ever equal to anything, and how does torch rank it against the numbers?"),
    Mutant("argmax", "dim-none-in-memory-order", FIRST_LARGEST + '''
def argmax(x, dim, keepdim):
    if dim is None:
        if x.size == 0:
            raise IndexError("empty")
        flat = np.array(first_largest(x.ravel(order="K")), dtype=np.int64)
        return flat.reshape((1,) * x.ndim) if keepdim else flat
    if not -x.ndim <= dim < x.ndim or x.shape[dim] == 0:
        raise IndexError("bad dim")
    moved = np.moveaxis(x, dim, -1)
    out = np.zeros(moved.shape[:-1], dtype=np.int64)
    for position in np.ndindex(*moved.shape[:-1]):
        out[position] = first_largest(moved[position])
    return np.expand_dims(out, dim) if keepdim else out
''', nudge="With dim None, is the index counted in memory order, or in the row-major order of the indices?"),
    Mutant("argmax", "dim-none-ignores-keepdim", FIRST_LARGEST + '''
def argmax(x, dim, keepdim):
    if dim is None:
        if x.size == 0:
            raise IndexError("empty")
        return np.array(first_largest(x.reshape(-1)), dtype=np.int64)
    if not -x.ndim <= dim < x.ndim or x.shape[dim] == 0:
        raise IndexError("bad dim")
    moved = np.moveaxis(x, dim, -1)
    out = np.zeros(moved.shape[:-1], dtype=np.int64)
    for position in np.ndindex(*moved.shape[:-1]):
        out[position] = first_largest(moved[position])
    return np.expand_dims(out, dim) if keepdim else out
''', nudge="With dim None and keepdim true, what shape does the result have?"),
    Mutant("argmax", "ignores-keepdim", FIRST_LARGEST + '''
def argmax(x, dim, keepdim):
    if dim is None:
        if x.size == 0:
            raise IndexError("empty")
        return np.array(first_largest(x.reshape(-1)), dtype=np.int64)
    if not -x.ndim <= dim < x.ndim or x.shape[dim] == 0:
        raise IndexError("bad dim")
    moved = np.moveaxis(x, dim, -1)
    out = np.zeros(moved.shape[:-1], dtype=np.int64)
    for position in np.ndindex(*moved.shape[:-1]):
        out[position] = first_largest(moved[position])
    return out
''', nudge="When keepdim is true, what becomes of the reduced dim in the result's shape?"),
    Mutant("argmax", "result-in-the-dtype-of-x", FIRST_LARGEST + '''
def argmax(x, dim, keepdim):
    if dim is None:
        if x.size == 0:
            raise IndexError("empty")
        flat = np.array(first_largest(x.reshape(-1)), dtype=x.dtype)
        return flat.reshape((1,) * x.ndim) if keepdim else flat
    if not -x.ndim <= dim < x.ndim or x.shape[dim] == 0:
        raise IndexError("bad dim")
    moved = np.moveaxis(x, dim, -1)
    out = np.zeros(moved.shape[:-1], dtype=x.dtype)
    for position in np.ndindex(*moved.shape[:-1]):
        out[position] = first_largest(moved[position])
    return np.expand_dims(out, dim) if keepdim else out
''', nudge="Which dtype does an index have, whatever the dtype of x?"),
    Mutant("argmax", "empty-dim-gives-zeros", FIRST_LARGEST + '''
def argmax(x, dim, keepdim):
    if dim is None:
        flat = np.array(first_largest(x.reshape(-1)) if x.size else 0, dtype=np.int64)
        return flat.reshape((1,) * x.ndim) if keepdim else flat
    if not -x.ndim <= dim < x.ndim:
        raise IndexError("bad dim")
    moved = np.moveaxis(x, dim, -1)
    out = np.zeros(moved.shape[:-1], dtype=np.int64)
    for position in np.ndindex(*moved.shape[:-1]):
        if len(moved[position]):
            out[position] = first_largest(moved[position])
    return np.expand_dims(out, dim) if keepdim else out
''', nudge="When the dim to reduce is empty, is there any index to point at?"),
]
