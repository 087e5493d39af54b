"""Mutants of exercise 17 (functional_transforms): per-example gradients, batching rules and a jacrev gone wrong."""

from tensorlab.grading.tasks import Mutant

PER_EXAMPLE = '''
def per_example_grads(weight, b, features, y):
    logits = {logits}
    shifted = {shifted}
    probabilities = np.exp(shifted)
    probabilities /= probabilities.sum(axis=1, keepdims=True)
    dlogits = {dlogits}
    return {dweight}, {db}
'''
PER_EXAMPLE_RIGHT = {
    "logits": "features @ weight.T + b", "shifted": "logits - logits.max(axis=1, keepdims=True)",
    "dlogits": "probabilities - np.eye(weight.shape[0])[y]", "dweight": "dlogits[:, :, None] * features[:, None, :]", "db": "dlogits",
}


def per_example(**changed: str) -> str:
    return PER_EXAMPLE.format(**{**PER_EXAMPLE_RIGHT, **changed})


SUM_RULE = '''
def sum_batch_rule(x, bdim, dim, keepdim):
    moved = {moved}
    ndim = moved.ndim - 1
    if dim is None:
        return moved.sum(axis={all_dims})
    dims = np.atleast_1d(np.asarray(dim))
    return moved.sum(axis=tuple(({shift}).tolist()), keepdims={keep})
'''
SUM_RIGHT = {"moved": "np.moveaxis(x, bdim, 0)", "all_dims": "tuple(range(1, ndim + 1))", "shift": "dims % ndim + 1", "keep": "keepdim"}


def sum_rule(**changed: str) -> str:
    return SUM_RULE.format(**{**SUM_RIGHT, **changed})


MATMUL_RULE = '''
def matmul_batch_rule(a, a_bdim, b, b_bdim):
    a_is_vector = {a_vector}
    b_is_vector = b.ndim - (b_bdim is not None) == 1
    a = {a_moved}
    b = {b_moved}
    if a_is_vector:
        a = a[:, None, :]
    if b_is_vector:
        b = {b_column}
    out = {product}
    if b_is_vector:
        out = out[:, :, 0]
    if a_is_vector:
        out = out[:, 0]
    return {result}
'''
MATMUL_RIGHT = {
    "a_vector": "a.ndim - (a_bdim is not None) == 1",
    "a_moved": "np.moveaxis(a, a_bdim, 0) if a_bdim is not None else a[None]",
    "b_moved": "np.moveaxis(b, b_bdim, 0) if b_bdim is not None else b[None]",
    "b_column": "b[:, :, None]", "product": "a @ b", "result": "out",
}


def matmul_rule(**changed: str) -> str:
    return MATMUL_RULE.format(**{**MATMUL_RIGHT, **changed})


JACOBIAN = '''
def tanh_layer_jacobian(weight, x):
    out = {out}
    cotangents = np.eye(out.size).reshape(out.size, *out.shape)
    vjps = {vjps}
    return {result}
'''
JACOBIAN_RIGHT = {"out": "np.tanh(x @ weight.T)", "vjps": "(cotangents * (1 - out**2)) @ weight", "result": "vjps.reshape(*out.shape, *x.shape)"}


def jacobian(**changed: str) -> str:
    return JACOBIAN.format(**{**JACOBIAN_RIGHT, **changed})


MUTANTS = [
    # --- per_example_grads -----------------------------------------------------------------------------
    Mutant("per_example_grads", "calls tensorlab.func (vmap of grad)", '''
import tensorlab


def per_example_grads(weight, b, features, y):
    def loss(weight, bias, x, label):
        return -((label == tensorlab.arange(weight.shape[0])) * (weight @ x + bias).log_softmax(-1)).sum()

    grads = tensorlab.func.vmap(tensorlab.func.grad(loss, argnums=(0, 1)), in_dims=(None, None, 0, 0))
    dweight, db = grads(tensorlab.tensor(weight), tensorlab.tensor(b), tensorlab.tensor(features), tensorlab.tensor(y))
    return dweight.numpy(), db.numpy()
''', nudge="Which libraries does this exercise refuse while graded code runs, and which parts are yours to write?"),
    Mutant("per_example_grads", "the batch's gradient (summed over examples), not one per example",
           per_example(dweight="(dlogits[:, :, None] * features[:, None, :]).sum(axis=0)", db="dlogits.sum(axis=0)"),
        nudge="Does the statement ask for the batch's gradient, or for one gradient per example?"),
    Mutant("per_example_grads", "divides by N, as the gradient of a mean loss",
           per_example(dlogits="(probabilities - np.eye(weight.shape[0])[y]) / len(features)"),
        nudge="Each example's loss is its own cross-entropy, not a share of a mean: is there any N in its gradient?"),
    Mutant("per_example_grads", "no max subtracted: exp overflows for large logits", per_example(shifted="logits"),
        nudge="What does the exponential of a logit in the hundreds give, and what can you subtract first without changing the softmax?"),
    Mutant("per_example_grads", "dweight transposed: (N, D, C)", per_example(dweight="features[:, :, None] * dlogits[:, None, :]"),
        nudge="A weight has shape (C, D): in which order must the two factors of each example's gradient meet?"),
    Mutant("per_example_grads", "forgets the one-hot: softmax alone", per_example(dlogits="probabilities"),
        nudge="What does the label contribute to the gradient of the loss with respect to the logits?"),
    Mutant("per_example_grads", "the sign flipped (one_hot - softmax)", per_example(dlogits="np.eye(weight.shape[0])[y] - probabilities"),
        nudge="Does a gradient step push the right class's logit up, and which sign must the gradient carry for that?"),
    Mutant("per_example_grads", "subtracts 1 in the column of every label (probabilities[:, y])", '''
def per_example_grads(weight, b, features, y):
    logits = features @ weight.T + b
    probabilities = np.exp(logits - logits.max(axis=1, keepdims=True))
    probabilities /= probabilities.sum(axis=1, keepdims=True)
    dlogits = probabilities.copy()
    dlogits[:, y] -= 1
    return dlogits[:, :, None] * features[:, None, :], dlogits
''', nudge="When you index rows with a slice and columns with the labels, how many entries of each row change?"),
    Mutant("per_example_grads", "the max subtracted over the whole batch, not per example",
           per_example(shifted="logits - logits.max()"),
        nudge="Does one large logit in another example keep this example's exponentials from underflowing to zero?"),
    Mutant("per_example_grads", "a loop over the examples", '''
def per_example_grads(weight, b, features, y):
    dweight, db = np.zeros((len(features), *weight.shape)), np.zeros((len(features), len(b)))
    for n in range(len(features)):
        logits = weight @ features[n] + b
        p = np.exp(logits - logits.max())
        p /= p.sum()
        p[y[n]] -= 1
        dweight[n], db[n] = np.outer(p, features[n]), p
    return dweight, db
''', nudge="What would whole-array operations over the batch do instead of visiting the examples one at a time?"),
    Mutant("per_example_grads", "a loop dressed as map", '''
def per_example_grads(weight, b, features, y):
    def one(x, label):
        logits = weight @ x + b
        p = np.exp(logits - logits.max())
        p = p / p.sum() - np.eye(len(b))[label]
        return np.outer(p, x), p

    pairs = list(map(one, features, y))
    if not pairs:
        return np.zeros((0, *weight.shape)), np.zeros((0, len(b)))
    dweights, dbs = zip(*pairs)
    return np.stack(dweights), np.stack(dbs)
''', nudge="Is a map over the examples anything other than a Python loop, and what would whole-array operations do instead?"),
    Mutant("per_example_grads", "normalises the probabilities in features's place (changes an input)", '''
def per_example_grads(weight, b, features, y):
    logits = features @ weight.T + b
    probabilities = np.exp(logits - logits.max(axis=1, keepdims=True))
    probabilities /= probabilities.sum(axis=1, keepdims=True)
    dlogits = probabilities - np.eye(weight.shape[0])[y]
    features *= 1.0 + (dlogits.size > 0)
    return dlogits[:, :, None] * (features[:, None, :] / 2), dlogits
''', nudge="May your function change the arrays it was handed?"),
    # --- sum_batch_rule ------------------------------------------------------------------------------------
    Mutant("sum_batch_rule", "calls tensorlab.func.vmap", '''
import tensorlab


def sum_batch_rule(x, bdim, dim, keepdim):
    def f(sample):
        return sample.sum() if dim is None else sample.sum(dim, keepdim=keepdim)

    return tensorlab.func.vmap(f, in_dims=bdim)(tensorlab.tensor(x)).numpy()
''', nudge="Which libraries does this exercise refuse while graded code runs, and which parts are yours to write?"),
    Mutant("sum_batch_rule", "does not shift dim past the batch dim", sum_rule(shift="dims % ndim"),
        nudge="Once the batch dim sits at 0, which axis of the batched array is a sample's dim 0?"),
    Mutant("sum_batch_rule", "normalises a negative dim with the batched array's ndim",
           sum_rule(shift="dims % moved.ndim + 1"),
        nudge="A negative dim counts from the end of one sample: how many dims does a sample have?"),
    Mutant("sum_batch_rule", "shifts dims by one but leaves the batch dim where it was", sum_rule(moved="x"),
        nudge="When the batch dim is not at 0, does adding one to a sample's dim find the right axis?"),
    Mutant("sum_batch_rule", "dim=None sums the batch dim too", sum_rule(all_dims="None"),
        nudge="When a sample sums every one of its dims, is the batch dim one of them?"),
    Mutant("sum_batch_rule", "forgets keepdim", sum_rule(keep="False"),
        nudge="What should happen to each summed dim when keepdim is True?"),
    Mutant("sum_batch_rule", "only an int dim (a tuple breaks)", '''
def sum_batch_rule(x, bdim, dim, keepdim):
    moved = np.moveaxis(x, bdim, 0)
    ndim = moved.ndim - 1
    if dim is None:
        return moved.sum(axis=tuple(range(1, ndim + 1)))
    return moved.sum(axis=int(dim) % ndim + 1, keepdims=keepdim)
''', nudge="What may dim be besides an int?"),
    Mutant("sum_batch_rule", "puts the batch dim back where it came from", '''
def sum_batch_rule(x, bdim, dim, keepdim):
    moved = np.moveaxis(x, bdim, 0)
    ndim = moved.ndim - 1
    if dim is None:
        return moved.sum(axis=tuple(range(1, ndim + 1)))
    dims = np.atleast_1d(np.asarray(dim))
    out = moved.sum(axis=tuple((dims % ndim + 1).tolist()), keepdims=keepdim)
    return np.moveaxis(out, 0, min(bdim % x.ndim, out.ndim - 1))
''', nudge="Where do batching rules return their batch dim?"),
    Mutant("sum_batch_rule", "casts to float", '''
def sum_batch_rule(x, bdim, dim, keepdim):
    moved = np.moveaxis(x, bdim, 0).astype(np.float64)
    ndim = moved.ndim - 1
    if dim is None:
        return moved.sum(axis=tuple(range(1, ndim + 1)))
    dims = np.atleast_1d(np.asarray(dim))
    return moved.sum(axis=tuple((dims % ndim + 1).tolist()), keepdims=keepdim)
''', nudge="What dtype is a sum of integers, and does yours keep it?"),
    Mutant("sum_batch_rule", "a loop over the batch", '''
def sum_batch_rule(x, bdim, dim, keepdim):
    moved = np.moveaxis(x, bdim, 0)
    results = []
    for sample in moved:
        results.append(sample.sum() if dim is None else sample.sum(axis=dim, keepdims=keepdim))
    return np.array(results, dtype=x.dtype).reshape(len(moved), *np.shape(results[0])) if results else moved.sum(axis=tuple(range(1, moved.ndim)))
''', nudge="What would a single sum over the right axes of the batched array do instead of visiting the samples one at a time?"),
    Mutant("sum_batch_rule", "a loop over the batch dressed as map", '''
def sum_batch_rule(x, bdim, dim, keepdim):
    moved = np.moveaxis(x, bdim, 0)
    one = (lambda s: np.sum(s)) if dim is None else (lambda s: np.sum(s, axis=dim, keepdims=keepdim))
    return np.stack(list(map(one, moved))) if len(moved) else moved.sum(axis=tuple(range(1, moved.ndim)))
''', nudge="Is a map over the samples anything other than a Python loop, and what would one sum over the batched array do instead?"),
    # --- matmul_batch_rule ---------------------------------------------------------------------------------
    Mutant("matmul_batch_rule", "calls tensorlab.func.vmap", '''
import tensorlab


def matmul_batch_rule(a, a_bdim, b, b_bdim):
    return tensorlab.func.vmap(tensorlab.matmul, in_dims=(a_bdim, b_bdim))(tensorlab.tensor(a), tensorlab.tensor(b)).numpy()
''', nudge="Which libraries does this exercise refuse while graded code runs, and which parts are yours to write?"),
    Mutant("matmul_batch_rule", "moves the batch dims to the front and calls @ (vectors break)", '''
def matmul_batch_rule(a, a_bdim, b, b_bdim):
    a = np.moveaxis(a, a_bdim, 0) if a_bdim is not None else a
    b = np.moveaxis(b, b_bdim, 0) if b_bdim is not None else b
    return a @ b
''', nudge="What does a matmul do with a batch of vectors: treat each as a vector, or the batch as one matrix?"),
    Mutant("matmul_batch_rule", "assumes both operands are batched", '''
def matmul_batch_rule(a, a_bdim, b, b_bdim):
    a_is_vector, b_is_vector = a.ndim == 2, b.ndim == 2
    a, b = np.moveaxis(a, a_bdim or 0, 0), np.moveaxis(b, b_bdim or 0, 0)
    if a_is_vector:
        a = a[:, None, :]
    if b_is_vector:
        b = b[:, :, None]
    out = a @ b
    if b_is_vector:
        out = out[:, :, 0]
    if a_is_vector:
        out = out[:, 0]
    return out
''', nudge="What does a bdim of None say about an operand, and does it have a batch dim to move?"),
    Mutant("matmul_batch_rule", "assumes the batch dim is at 0", matmul_rule(
        a_moved="a if a_bdim is not None else a[None]", b_moved="b if b_bdim is not None else b[None]"),
        nudge="Can an operand's batch dim sit somewhere other than at 0?"),
    Mutant("matmul_batch_rule", "a vector b made a row, not a column", matmul_rule(
        b_column="b[:, None, :]", product="np.swapaxes(a @ np.swapaxes(b, 1, 2), 1, 2) if b_is_vector else a @ b"),
        nudge="For a matrix times a vector, which shape must the vector take so that k meets k?"),
    Mutant("matmul_batch_rule", "decides 'vector' from the batched array's ndim", matmul_rule(a_vector="a.ndim == 1"),
        nudge="Is a sample's number of dims the same as the batched array's?"),
    Mutant("matmul_batch_rule", "np.moveaxis's source and destination swapped", matmul_rule(
        a_moved="np.moveaxis(a, 0, a_bdim) if a_bdim is not None else a[None]",
        b_moved="np.moveaxis(b, 0, b_bdim) if b_bdim is not None else b[None]"),
        nudge="Which argument of a move-axis call says where the axis is now, and which says where it goes?"),
    Mutant("matmul_batch_rule", "a loop over the batch written with while", '''
def matmul_batch_rule(a, a_bdim, b, b_bdim):
    size = a.shape[a_bdim] if a_bdim is not None else b.shape[b_bdim]
    out, i = [], 0
    while i < size:
        left = np.take(a, i, axis=a_bdim) if a_bdim is not None else a
        right = np.take(b, i, axis=b_bdim) if b_bdim is not None else b
        out.append(np.asarray(left @ right))
        i += 1
    return np.stack(out)
''', nudge="Is a while loop over the samples anything other than a Python loop, and what would one batched matmul do instead?"),
    Mutant("matmul_batch_rule", "leaves the batch dim where @ put it for a 2-d a times a batched vector", '''
def matmul_batch_rule(a, a_bdim, b, b_bdim):
    a_is_vector = a.ndim - (a_bdim is not None) == 1
    b_is_vector = b.ndim - (b_bdim is not None) == 1
    if a_bdim is None and not a_is_vector and b_is_vector:
        return a @ np.moveaxis(b, b_bdim, -1)
    a = np.moveaxis(a, a_bdim, 0) if a_bdim is not None else a[None]
    b = np.moveaxis(b, b_bdim, 0) if b_bdim is not None else b[None]
    if a_is_vector:
        a = a[:, None, :]
    if b_is_vector:
        b = b[:, :, None]
    out = a @ b
    if b_is_vector:
        out = out[:, :, 0]
    if a_is_vector:
        out = out[:, 0]
    return out
''', nudge="Where does the batch dim of your result end up, and where must a batching rule return it?"),
    Mutant("matmul_batch_rule", "an unbatched operand tiled with a Python loop", '''
def matmul_batch_rule(a, a_bdim, b, b_bdim):
    a_is_vector = a.ndim - (a_bdim is not None) == 1
    b_is_vector = b.ndim - (b_bdim is not None) == 1
    size = a.shape[a_bdim] if a_bdim is not None else b.shape[b_bdim]
    a = np.moveaxis(a, a_bdim, 0) if a_bdim is not None else np.array([a for _ in range(size)])
    b = np.moveaxis(b, b_bdim, 0) if b_bdim is not None else np.array([b for _ in range(size)])
    if a_is_vector:
        a = a[:, None, :]
    if b_is_vector:
        b = b[:, :, None]
    out = a @ b
    if b_is_vector:
        out = out[:, :, 0]
    if a_is_vector:
        out = out[:, 0]
    return out
''', nudge="Does an unbatched operand need a copy per sample, or can broadcasting share one?"),
    Mutant("matmul_batch_rule", "a loop over the batch", '''
def matmul_batch_rule(a, a_bdim, b, b_bdim):
    size = a.shape[a_bdim] if a_bdim is not None else b.shape[b_bdim]
    out = []
    for i in range(size):
        left = np.take(a, i, axis=a_bdim) if a_bdim is not None else a
        right = np.take(b, i, axis=b_bdim) if b_bdim is not None else b
        out.append(left @ right)
    return np.array(out)
''', nudge="What would one batched matmul do instead of visiting the samples one at a time?"),
    # --- tanh_layer_jacobian -------------------------------------------------------------------------------
    Mutant("tanh_layer_jacobian", "calls tensorlab.func.jacrev", '''
import tensorlab


def tanh_layer_jacobian(weight, x):
    weight = tensorlab.tensor(weight)
    return tensorlab.func.jacrev(lambda t: (t @ weight.T).tanh())(tensorlab.tensor(x)).numpy()
''', nudge="Which libraries does this exercise refuse while graded code runs, and which parts are yours to write?"),
    Mutant("tanh_layer_jacobian", "the transpose: input dims first", jacobian(
        result="np.moveaxis(vjps, 0, -1).reshape(*x.shape, *out.shape)"),
        nudge="Does the Jacobian have one row per output and one column per input, or the other way round?"),
    Mutant("tanh_layer_jacobian", "forgets the derivative of tanh", jacobian(vjps="cotangents @ weight"),
        nudge="Where does the derivative of tanh enter the vjp?"),
    Mutant("tanh_layer_jacobian", "tanh's derivative as 1 - z**2 on the pre-activation", jacobian(
        out="x @ weight.T", vjps="(cotangents * (1 - out**2)) @ weight"),
        nudge="Is the derivative of tanh written in terms of its input, or of its output?"),
    Mutant("tanh_layer_jacobian", "reshapes to x.shape + out.shape", jacobian(result="vjps.reshape(*x.shape, *out.shape)"),
        nudge="In which order do the output's dims and the input's dims come in the Jacobian's shape?"),
    Mutant("tanh_layer_jacobian", "treats a batch of rows as one row (only 1-d x)", '''
def tanh_layer_jacobian(weight, x):
    out = np.tanh(x @ weight.T)
    J = (1 - out**2)[..., :, None] * weight
    return J
''', nudge="For a batch of rows, what shape must the Jacobian have, and where are its zero blocks?"),
    Mutant("tanh_layer_jacobian", "the vjp of a cotangent of ones, not of each one-hot", jacobian(
        result="np.broadcast_to(((1 - out**2) @ weight), (*out.shape, *x.shape)).copy()"),
        nudge="Which cotangents give the rows of the Jacobian: one array of ones, or each one-hot?"),
    Mutant("tanh_layer_jacobian", "a loop over the rows of the identity", '''
def tanh_layer_jacobian(weight, x):
    out = np.tanh(x @ weight.T)
    rows = []
    for i in range(out.size):
        u = np.zeros(out.size)
        u[i] = 1
        rows.append((u.reshape(out.shape) * (1 - out**2)) @ weight)
    return np.array(rows).reshape(*out.shape, *x.shape)
''', nudge="What would applying the vjp to every row of the identity at once do instead of one row at a time?"),
    Mutant("tanh_layer_jacobian", "a loop dressed as a comprehension", '''
def tanh_layer_jacobian(weight, x):
    out = np.tanh(x @ weight.T)
    eye = np.eye(out.size)
    return np.array([(eye[i].reshape(out.shape) * (1 - out**2)) @ weight for i in range(out.size)]).reshape(*out.shape, *x.shape)
''', nudge="Is a comprehension over the rows of the identity anything other than a Python loop?"),
    Mutant("tanh_layer_jacobian", "a loop over the identity's rows dressed as np.apply_along_axis", '''
def tanh_layer_jacobian(weight, x):
    out = np.tanh(x @ weight.T)

    def row(u):
        return ((u.reshape(out.shape) * (1 - out**2)) @ weight).ravel()

    rows = np.apply_along_axis(row, 1, np.eye(out.size)) if out.size else np.zeros((0, x.size))
    return rows.reshape(*out.shape, *x.shape)
''', nudge="Does applying a function along an axis call it once per row, and is that anything other than a Python loop?"),
]

# Loops over the elements of a dim, now that a loop over dims is allowed (loops_over_dimensions): only the line
# count on the large case catches them, in check() and in the grader alike.
MUTANTS += [
    Mutant("sum_batch_rule", "a for loop along the summed dim", '''
def sum_batch_rule(x, bdim, dim, keepdim):
    moved = np.moveaxis(x, bdim, 0)
    ndim = moved.ndim - 1
    if dim is None:
        return moved.sum(axis=tuple(range(1, ndim + 1)))
    if not isinstance(dim, int):
        return moved.sum(axis=tuple(d % ndim + 1 for d in dim), keepdims=keepdim)
    axis = dim % ndim + 1
    along = np.moveaxis(moved, axis, 0)
    total = np.zeros(along.shape[1:], dtype=moved.dtype)
    for i in range(along.shape[0]):
        total = total + along[i]
    return np.expand_dims(total, axis) if keepdim else total
''', nudge="How many lines does adding up the slices of a long dim one at a time run, and what does a sum over that axis do instead?"),
    Mutant("per_example_grads", "a for loop over the classes", '''
def per_example_grads(weight, b, features, y):
    logits = features @ weight.T + b
    probabilities = np.exp(logits - logits.max(axis=1, keepdims=True))
    probabilities /= probabilities.sum(axis=1, keepdims=True)
    for c in range(weight.shape[0]):
        probabilities[:, c] -= y == c
    return probabilities[:, :, None] * features[:, None, :], probabilities
''', nudge="How many lines does a loop over 120 classes run, and could one whole-array operation pick each label's column instead?"),
    Mutant("matmul_batch_rule", "a for loop along the contracted dim k", '''
def matmul_batch_rule(a, a_bdim, b, b_bdim):
    a_is_vector = a.ndim - (a_bdim is not None) == 1
    b_is_vector = b.ndim - (b_bdim is not None) == 1
    a = np.moveaxis(a, a_bdim, 0) if a_bdim is not None else a[None]
    b = np.moveaxis(b, b_bdim, 0) if b_bdim is not None else b[None]
    if a_is_vector:
        a = a[:, None, :]
    if b_is_vector:
        b = b[:, :, None]
    out = np.zeros((max(a.shape[0], b.shape[0]), a.shape[1], b.shape[2]))
    for j in range(a.shape[2]):
        out = out + a[:, :, j:j + 1] * b[:, j:j + 1, :]
    if b_is_vector:
        out = out[:, :, 0]
    if a_is_vector:
        out = out[:, 0]
    return out
''', nudge="How many lines does a loop along a long k run, and what does a matmul already sum over?"),
    Mutant("tanh_layer_jacobian", "a for loop over the rows of x (the diagonal blocks)", '''
def tanh_layer_jacobian(weight, x):
    out = np.tanh(x @ weight.T)
    if x.ndim == 1:
        return (1 - out**2)[:, None] * weight
    jacobian = np.zeros((x.shape[0], weight.shape[0], x.shape[0], x.shape[1]))
    for p in range(x.shape[0]):
        jacobian[p, :, p, :] = (1 - out[p] ** 2)[:, None] * weight
    return jacobian
''', nudge="How many lines does a loop over 150 rows of x run, and could whole-array operations fill every diagonal block at once?"),
]
