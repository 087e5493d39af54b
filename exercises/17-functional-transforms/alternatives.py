"""Correct answers of exercise 17 (functional transforms) written other ways than the solution: each must keep full marks."""

from tensorlab.grading import Alternative

ALTERNATIVES = [
    Alternative("per_example_grads", "logsumexp-einsum-outer", '''
import numpy as np

def per_example_grads(weight, b, features, y):
    logits = np.einsum("cd,nd->nc", weight, features) + b
    top = np.max(logits, axis=-1, keepdims=True)
    log_normaliser = top + np.log(np.sum(np.exp(logits - top), axis=-1, keepdims=True))
    probabilities = np.exp(logits - log_normaliser)
    one_hot = (y[:, None] == np.arange(weight.shape[0])[None, :]).astype(probabilities.dtype)
    dlogits = probabilities - one_hot
    dweight = np.einsum("nc,nd->ncd", dlogits, features)
    return dweight, dlogits
'''),
    Alternative("per_example_grads", "fancy-index-subtract-batched-matmul", '''
import numpy as np

def per_example_grads(weight, b, features, y):
    n = features.shape[0]
    z = np.matmul(features, weight.T) + b[None, :]
    z = z - z.max(axis=1)[:, None]
    e = np.exp(z)
    dlogits = e / e.sum(axis=1)[:, None]
    dlogits[np.arange(n), y] -= 1.0          # softmax - one_hot: one fancy-indexed subtraction
    dweight = np.matmul(dlogits[:, :, np.newaxis], features[:, np.newaxis, :])   # (N, C, 1) @ (N, 1, D)
    return dweight, dlogits
'''),
    Alternative("per_example_grads", "log-softmax-then-exp-tensordot", '''
import numpy as np

def per_example_grads(weight, b, features, y):
    classes = weight.shape[0]
    logits = np.tensordot(features, weight, axes=([1], [1])) + b
    log_p = logits - logits.max(-1, keepdims=True)
    log_p = log_p - np.log(np.exp(log_p).sum(-1, keepdims=True))
    one_hot = np.zeros((len(y), classes))
    np.put_along_axis(one_hot, y.reshape(-1, 1), 1.0, axis=1)
    g = np.exp(log_p) - one_hot
    return np.expand_dims(g, 2) * np.expand_dims(features, 1), g
'''),
    Alternative("sum_batch_rule", "sum-in-place-then-move-batch", '''
import numpy as np

def sum_batch_rule(x, bdim, dim, keepdim):
    """Sum the sample dims where they are in x, then move the batch dim (wherever it ended up) to 0."""
    bdim = bdim % x.ndim
    if dim is None:
        axes = np.delete(np.arange(x.ndim), bdim)
        return np.sum(x, axis=tuple(axes.tolist()))          # only the batch dim is left
    sample_dims = np.asarray(dim).reshape(-1) % (x.ndim - 1)
    axes = sample_dims + (sample_dims >= bdim)                # skip over the batch dim
    summed = np.sum(x, axis=tuple(axes.tolist()), keepdims=keepdim)
    new_bdim = bdim if keepdim else bdim - int(np.count_nonzero(axes < bdim))
    return np.moveaxis(summed, new_bdim, 0)
'''),
    Alternative("sum_batch_rule", "transpose-summed-last-reshape", '''
import numpy as np

def sum_batch_rule(x, bdim, dim, keepdim):
    """Batch first, the summed dims last, flattened into one, summed; keepdim puts size-1 dims back."""
    batch_first = np.moveaxis(x, bdim, 0)
    ndim = batch_first.ndim - 1
    if dim is None:
        return batch_first.reshape(batch_first.shape[0], int(np.prod(batch_first.shape[1:]))).sum(axis=1)
    summed = np.unique(np.asarray(dim).ravel() % ndim) + 1
    kept = np.setdiff1d(np.arange(batch_first.ndim), summed)
    shape = np.array(batch_first.shape, dtype=np.int64)
    order = np.concatenate([kept, summed])
    flat = np.transpose(batch_first, order.tolist()).reshape(*shape[kept].tolist(), int(np.prod(shape[summed])))
    out = flat.sum(axis=-1)
    if keepdim:
        out = np.expand_dims(out, tuple(summed.tolist()))
    return out
'''),
    Alternative("matmul_batch_rule", "einsum-subscripts", '''
import numpy as np

def matmul_batch_rule(a, a_bdim, b, b_bdim):
    """One einsum: z is the batch, i/k/j the rows, contraction and columns; unbatched operands have no z."""
    a_vector = a.ndim - (0 if a_bdim is None else 1) == 1
    b_vector = b.ndim - (0 if b_bdim is None else 1) == 1
    a_spec = "k" if a_vector else "ik"
    b_spec = "k" if b_vector else "kj"
    if a_bdim is not None:
        a, a_spec = np.moveaxis(a, a_bdim, 0), "z" + a_spec
    if b_bdim is not None:
        b, b_spec = np.moveaxis(b, b_bdim, 0), "z" + b_spec
    out_spec = "z" + ("" if a_vector else "i") + ("" if b_vector else "j")
    return np.einsum(f"{a_spec},{b_spec}->{out_spec}", a, b)
'''),
    Alternative("matmul_batch_rule", "broadcast-multiply-sum", '''
import numpy as np

def as_four_dims(operand, bdim, vector, vector_axis):
    """The operand as (batch or 1, rows, k, cols) with size-1 dims where it has none."""
    operand = np.moveaxis(operand, bdim, 0) if bdim is not None else np.expand_dims(operand, 0)
    if vector:
        operand = np.expand_dims(operand, vector_axis)
    return operand

def matmul_batch_rule(a, a_bdim, b, b_bdim):
    a_vector = (a.ndim == 1) or (a.ndim == 2 and a_bdim is not None)
    b_vector = (b.ndim == 1) or (b.ndim == 2 and b_bdim is not None)
    a3 = as_four_dims(a, a_bdim, a_vector, 1)       # (B, n, k)
    b3 = as_four_dims(b, b_bdim, b_vector, 2)       # (B, k, m)
    product = (a3[:, :, :, None] * b3[:, None, :, :]).sum(axis=2)   # (B, n, m)
    drop = (1,) * a_vector + (2,) * b_vector
    return product.squeeze(axis=drop) if drop else product
'''),
    Alternative("tanh_layer_jacobian", "closed-form-einsum-block-diagonal", '''
import numpy as np

def tanh_layer_jacobian(weight, x):
    """J[p, i, q, j] = [p == q] (1 - out[p, i]^2) weight[i, j]; a 1-d x is a batch of one row."""
    rows = np.atleast_2d(x)
    slope = 1.0 - np.tanh(rows @ weight.T) ** 2                     # (k, m)
    k = rows.shape[0]
    full = np.einsum("pq,pi,ij->piqj", np.eye(k), slope, weight)    # (k, m, k, n)
    out_shape = x.shape[:-1] + weight.shape[:1]
    return full.reshape(out_shape + x.shape)
'''),
    Alternative("tanh_layer_jacobian", "forward-mode-jvp-columns", '''
import numpy as np

def tanh_layer_jacobian(weight, x):
    """jacfwd: push every one-hot tangent of x through the jvp, then put the input axes last."""
    out = np.tanh(x @ weight.T)
    tangents = np.eye(x.size).reshape(x.size, *x.shape)            # one per input element
    jvps = (1 - out * out) * (tangents @ weight.T)                 # (x.size, *out.shape): columns of J
    return jvps.reshape(x.size, out.size).T.reshape(out.shape + x.shape)
'''),
    Alternative("sum_batch_rule", "loop-over-dims-normalises-each", '''
import numpy as np

def sum_batch_rule(x, bdim, dim, keepdim):
    """A comprehension over the few dims to sum (never over the batch or the elements): the statement allows it."""
    moved = np.moveaxis(x, bdim, 0)
    ndim = moved.ndim - 1
    dims = range(ndim) if dim is None else ((dim,) if isinstance(dim, int) else dim)
    axes = tuple(sorted(d % ndim + 1 for d in dims))
    return moved.sum(axis=axes, keepdims=keepdim and dim is not None)
'''),
    Alternative("matmul_batch_rule", "loop-over-the-two-operands", '''
import numpy as np

def matmul_batch_rule(a, a_bdim, b, b_bdim):
    """One loop over the two operands (a dim-level loop): batch first, a vector made a matrix."""
    operands = ()
    for array, bdim, vector_axis in ((a, a_bdim, 1), (b, b_bdim, 2)):
        vector = array.ndim - (bdim is not None) == 1
        array = np.moveaxis(array, bdim, 0) if bdim is not None else array[None]
        operands += ((np.expand_dims(array, vector_axis) if vector else array, vector),)
    (left, a_vector), (right, b_vector) = operands
    out = left @ right
    for axis, vector in ((2, b_vector), (1, a_vector)):
        if vector:
            out = out.squeeze(axis)
    return out
'''),
    Alternative('per_example_grads', 'put-along-axis-one-hot-einsum', '''
def per_example_grads(weight, b, features, y):
    logits = np.einsum("cd,nd->nc", weight, features) + b
    logits = logits - np.max(logits, axis=1, keepdims=True)
    p = np.exp(logits)
    p = p / np.sum(p, axis=1, keepdims=True)
    one_hot = np.zeros_like(p)
    np.put_along_axis(one_hot, y[:, None], 1.0, axis=1)
    d = p - one_hot
    return np.einsum("nc,nd->ncd", d, features), d
'''),
]
