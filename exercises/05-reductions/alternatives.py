"""Correct answers of exercise 05 (reductions) written other ways than the solution: each must keep full marks."""

from tensorlab.grading import Alternative

ALTERNATIVES = [
    Alternative("sum_dims_loops", "gather-per-output-element", '''
def sum_dims_loops(x, dims, keepdim):
    """torch.sum(x, dims, keepdim=keepdim), one element at a time."""
    n = x.ndim
    listed = [dims] if isinstance(dims, int) else list(dims)
    for dim in listed:
        if dim < -n or dim >= n:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    wrapped = [dim % n for dim in listed]
    if len(set(wrapped)) != len(wrapped):
        raise RuntimeError("dim appears multiple times in the list of dims")
    summed = sorted(wrapped)
    kept = [d for d in range(n) if d not in summed]
    dtype = np.int64 if x.dtype.kind in "biu" else x.dtype
    if keepdim:
        out = np.zeros(tuple(1 if d in summed else x.shape[d] for d in range(n)), dtype=dtype)
    else:
        out = np.zeros(tuple(x.shape[d] for d in kept), dtype=dtype)
    index = [0] * n
    for kept_position in np.ndindex(*[x.shape[d] for d in kept]):
        for d, i in zip(kept, kept_position):
            index[d] = i
        target = tuple(index[d] if d in kept else 0 for d in range(n)) if keepdim else kept_position
        for summed_position in np.ndindex(*[x.shape[d] for d in summed]):
            for d, i in zip(summed, summed_position):
                index[d] = i
            out[target] += x[tuple(index)]
    return out
'''),
    Alternative("sum_dims_loops", "itertools-product-straight-into-the-result-shape", '''
import itertools


def sum_dims_loops(x, dims, keepdim):
    """torch.sum(x, dims, keepdim=keepdim), one element at a time."""
    dims = [dims] if isinstance(dims, int) else list(dims)
    n = x.ndim
    if any(not -n <= dim < n for dim in dims):
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}])")
    summed = set()
    for dim in dims:
        if dim % n in summed:
            raise RuntimeError(f"dim {dim % n} appears multiple times in the list of dims")
        summed.add(dim % n)

    def where(position):
        if keepdim:
            return tuple(0 if d in summed else i for d, i in enumerate(position))
        return tuple(i for d, i in enumerate(position) if d not in summed)

    shape = where(x.shape) if not keepdim else tuple(1 if d in summed else s for d, s in enumerate(x.shape))
    out = np.zeros(shape, dtype=np.int64 if x.dtype.kind in "biu" else x.dtype)
    for position in itertools.product(*(range(size) for size in x.shape)):
        out[where(position)] += x[position]
    return out
'''),
    Alternative("sum_dims_vectorised", "moveaxis-to-the-end-and-np-inner", '''
def sum_dims_vectorised(x, dims, keepdim):
    """torch.sum(x, dims, keepdim=keepdim) as moveaxis + reshape + an inner product with ones."""
    n = x.ndim
    listed = np.atleast_1d(np.asarray(dims, dtype=np.int64))
    if np.any((listed < -n) | (listed >= n)):
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}])")
    summed = np.sort(listed % n)
    if np.unique(summed).size != summed.size:
        raise RuntimeError("a dim appears multiple times in the list of dims")
    moved = np.moveaxis(x, summed, np.arange(n - summed.size, n))
    kept_shape = moved.shape[:n - summed.size]
    k = int(np.prod(moved.shape[n - summed.size:], dtype=np.int64))
    dtype = np.int64 if x.dtype.kind in "biu" else x.dtype
    rows = moved.reshape(kept_shape + (k,)).astype(dtype)
    out = np.inner(rows, np.ones(k, dtype=dtype))
    if keepdim:
        out = np.expand_dims(out, tuple(summed.tolist()))
    return np.asarray(out)
'''),
    Alternative("sum_dims_vectorised", "summed-dims-first-ones-on-the-left", '''
def sum_dims_vectorised(x, dims, keepdim):
    """torch.sum(x, dims, keepdim=keepdim): summed dims to the front, then ones @ (k, m)."""
    n = x.ndim
    listed = np.array([dims] if isinstance(dims, int) else dims, dtype=np.int64)
    wrapped = np.where(listed < 0, listed + n, listed)
    if np.any((wrapped < 0) | (wrapped >= n)):
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}])")
    if np.unique(wrapped).size != wrapped.size:
        raise RuntimeError("a dim appears multiple times in the list of dims")
    is_summed = np.isin(np.arange(n), wrapped)
    order = np.concatenate([np.flatnonzero(is_summed), np.flatnonzero(~is_summed)])
    sizes = np.array(x.shape, dtype=np.int64)
    k = int(np.prod(sizes[is_summed]))
    m = int(np.prod(sizes[~is_summed]))
    dtype = np.int64 if x.dtype.kind in "biu" else x.dtype
    columns = np.transpose(x, order).reshape(k, m).astype(dtype)
    flat = np.dot(np.ones(k, dtype=dtype), columns)
    shape = np.where(is_summed, 1, sizes) if keepdim else sizes[~is_summed]
    return flat.reshape(tuple(shape.tolist()))
'''),
    Alternative("logsumexp", "fix-infinite-rows-afterwards-matmul-ones", '''
def logsumexp(x, dim):
    """log(sum(exp(x))) along dim, without overflow."""
    moved = np.moveaxis(x, dim, -1)
    m = np.max(moved, axis=-1, initial=-np.inf)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        total = np.exp(moved - m[..., np.newaxis]) @ np.ones(moved.shape[-1], dtype=x.dtype)
        # a row whose max is -inf (all masked, or empty) or +inf is its max; nan from inf - inf is discarded
        return np.where(np.isinf(m), m, m + np.log(total))
'''),
    Alternative("logsumexp", "log1p-of-the-terms-besides-the-max", '''
def logsumexp(x, dim):
    """log(sum(exp(x))) along dim, without overflow."""
    moved = np.moveaxis(x, dim, -1)
    peak = np.amax(moved, axis=-1, initial=-np.inf)
    shift = np.nan_to_num(peak, posinf=0.0, neginf=0.0)  # an infinite max shifts nothing
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        # the max contributes exp(0) = 1 to the sum: add log1p of everything else
        rest = np.exp(moved - shift[..., np.newaxis]).sum(axis=-1) - 1
        return shift + np.log1p(rest)
'''),
    Alternative("logsumexp", "ufunc-reduce-along-axis-0-nan-to-num", '''
def logsumexp(x, dim):
    """log(sum(exp(x))) along dim, without overflow."""
    moved = np.moveaxis(x, dim, 0)
    top = np.maximum.reduce(moved, axis=0, initial=-np.inf)
    shift = np.nan_to_num(top, posinf=0.0, neginf=0.0)  # an infinite max shifts nothing
    with np.errstate(divide="ignore", over="ignore"):
        return np.log(np.add.reduce(np.exp(moved - shift), axis=0)) + shift
'''),
    Alternative("softmax", "log-softmax-then-exp", '''
def softmax(x, dim):
    """exp(x) / sum(exp(x)) along dim, without overflow."""
    with np.errstate(invalid="ignore", divide="ignore"):
        shifted = x - np.max(x, axis=dim, keepdims=True)
        log_total = np.log(np.exp(shifted).sum(axis=dim, keepdims=True))
        return np.exp(shifted - log_total)
'''),
    Alternative("softmax", "moveaxis-and-matmul-ones-normaliser", '''
def softmax(x, dim):
    """exp(x) / sum(exp(x)) along dim, without overflow."""
    moved = np.moveaxis(x, dim, -1)
    with np.errstate(invalid="ignore"):
        e = np.exp(moved - moved.max(axis=-1, keepdims=True))
        p = e / (e @ np.ones(e.shape[-1], dtype=e.dtype))[..., np.newaxis]
    return np.moveaxis(p, -1, dim)
'''),
    Alternative("argmax", "vectorised-first-hit-by-reversed-rank", '''
def first_largest(rows):
    """For each row along the last axis: the index of the first NaN, else of the first maximum."""
    n = rows.shape[-1]
    is_nan = rows != rows
    top = rows.max(axis=-1, keepdims=True)
    hits = np.where(is_nan.any(axis=-1, keepdims=True), is_nan, rows == top)
    rank = np.where(hits, n - np.arange(n), 0)  # the earliest hit has the largest rank
    return (n - rank.max(axis=-1)).astype(np.int64)


def argmax(x, dim, keepdim):
    """torch.argmax(x, dim, keepdim=keepdim): the first largest value wins, NaN beats everything."""
    if dim is None:
        if x.size == 0:
            raise IndexError("argmax(): Expected reduction dim to be specified for input.numel() == 0.")
        found = first_largest(x.reshape(-1))
        return np.reshape(found, (1,) * x.ndim) if keepdim else np.asarray(found)
    if dim < -x.ndim or dim >= x.ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-x.ndim}, {x.ndim - 1}], but got {dim})")
    dim = dim % x.ndim
    if x.shape[dim] == 0:
        raise IndexError(f"argmax(): Expected reduction dim {dim} to have non-zero size.")
    found = np.asarray(first_largest(np.moveaxis(x, dim, -1)))
    return np.expand_dims(found, dim) if keepdim else found
'''),
    Alternative("argmax", "python-max-with-a-nan-first-key", '''
def order_key(value):
    """NaN above every number; among numbers, the value itself."""
    return (True, 0) if value != value else (False, value)


def argmax(x, dim, keepdim):
    """torch.argmax(x, dim, keepdim=keepdim): the first largest value wins, NaN beats everything."""
    if dim is None:
        if x.size == 0:
            raise IndexError("argmax(): Expected reduction dim to be specified for input.numel() == 0.")
        values = list(x.flat)  # row-major, whatever the strides
        best = np.array(max(range(len(values)), key=lambda i: order_key(values[i])), dtype=np.int64)
        return best.reshape((1,) * x.ndim) if keepdim else best
    if not -x.ndim <= dim < x.ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-x.ndim}, {x.ndim - 1}], but got {dim})")
    if dim < 0:
        dim += x.ndim
    if x.shape[dim] == 0:
        raise IndexError(f"argmax(): Expected reduction dim {dim} to have non-zero size.")
    moved = np.moveaxis(x, dim, -1)
    out = np.zeros(moved.shape[:-1], dtype=np.int64)
    for position in np.ndindex(*out.shape):
        row = moved[position]
        out[position] = max(range(len(row)), key=lambda i: order_key(row[i]))  # max keeps the first of equals
    return np.expand_dims(out, dim) if keepdim else out
'''),
    Alternative("sum_dims_vectorised", "isin-unique-and-inner", '''
def sum_dims_vectorised(x, dims, keepdim):
    """torch.sum(x, dims, keepdim=keepdim) as transpose + reshape + a product with ones."""
    wanted = np.atleast_1d(np.asarray(dims, dtype=np.int64))
    if ((wanted < -x.ndim) | (wanted >= x.ndim)).any():
        raise IndexError("Dimension out of range")
    wanted = wanted % x.ndim
    if len(np.unique(wanted)) != len(wanted):
        raise RuntimeError("a dim appears multiple times in the list of dims")
    every = np.arange(x.ndim)
    is_summed = np.isin(every, wanted)
    summed, kept = every[is_summed], every[~is_summed]
    sizes = np.array(x.shape, dtype=np.int64)
    k = int(np.prod(sizes[summed]))
    dtype = np.int64 if np.issubdtype(x.dtype, np.integer) or x.dtype.kind == "b" else x.dtype
    rows = np.transpose(x, np.concatenate([kept, summed])).reshape((*tuple(sizes[kept]), k)).astype(dtype)
    out = np.asarray(np.inner(rows, np.ones(k, dtype=dtype)))
    if keepdim:
        sizes[summed] = 1
        return out.reshape(tuple(sizes))
    return out
'''),
    Alternative("logsumexp", "maximum-reduce-and-add-reduce", '''
def logsumexp(x, dim):
    """log(sum(exp(x))) along dim, without overflow."""
    with np.errstate(divide="ignore", invalid="ignore"):
        peak = np.maximum.reduce(x, axis=dim, keepdims=True, initial=-np.inf)
        peak = np.where(np.isfinite(peak), peak, 0).astype(x.dtype)
        out = np.log(np.add.reduce(np.exp(x - peak), axis=dim, keepdims=True)) + peak
    return np.squeeze(out, axis=dim)
'''),
]
