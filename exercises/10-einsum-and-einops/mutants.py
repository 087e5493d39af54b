"""Mutants of exercise 10 (einsum and einops): plausible wrong versions of each graded function.

A mutant of ``einsum_shape`` replaces the cell that also defines ``einsum_labels``; a mutant of
``mini_einsum`` keeps the solution's ``einsum_labels`` (its mistakes are in the computing steps).
"""

from tensorlab.grading.tasks import Mutant

# The solution's parsing with one step changed, for einsum_shape mutants that differ in one rule.
LABELS = '''
def einsum_labels(equation, shapes):
    lhs, arrow, rhs = equation.partition("->")
    terms = lhs.split(",")
    covered = [len(shape) - len(term.replace("...", "")) for term, shape in zip(terms, shapes)]
    rank = max((n for term, n in zip(terms, covered) if "..." in term), default=0)
    inputs = []
    for term, n in zip(terms, covered):
        before, _, after = term.partition("...")
        inputs.append(list(before) + [f".{ALIGN}" for d in range(n if "..." in term else 0)] + list(after))
    sizes = {}
    for labels, shape in zip(inputs, shapes):
        here = {}
        for label, size in zip(labels, shape):
            if CHECK_REPEATS and here.setdefault(label, size) != size:
                raise RuntimeError("repeated with other sizes")
        for label, size in zip(labels, shape):
            seen = sizes.get(label, 1)
            if BAD_PAIR:
                raise RuntimeError(f"subscript {label} has sizes {seen} and {size}")
            sizes[label] = KEEP
    dots = [f".{d}" for d in range(rank)]
    if arrow:
        before, has_dots, after = rhs.partition("...")
        output = list(before) + (dots if DOTS_KEPT else []) + list(after)
    else:
        letters = [label for labels in inputs for label in labels if label.isalpha()]
        output = dots + IMPLICIT
    for label in output:
        if CHECK_OUTPUT and label not in sizes:
            raise RuntimeError(f"output subscript {label} does not appear in the equation for any input operand")
    return inputs, output, sizes


def einsum_shape(equation, shapes):
    _, output, sizes = einsum_labels(equation, shapes)
    return tuple(sizes.get(label, 1) for label in output)
'''
RIGHT = {
    "ALIGN": "rank - n + d", "CHECK_REPEATS": "True", "BAD_PAIR": "size != seen and 1 not in (size, seen)",
    "KEEP": "size if seen == 1 else seen", "DOTS_KEPT": "has_dots",
    "IMPLICIT": "sorted(label for label in set(letters) if letters.count(label) == 1)", "CHECK_OUTPUT": "True",
}


def labels_with(**changes: str) -> str:
    """The solution's einsum_labels and einsum_shape with the named steps replaced."""
    source = LABELS
    for name, right in RIGHT.items():
        source = source.replace(name, changes.get(name, right))
    return source


# The solution's mini_einsum with one step changed.
COMPUTE = '''
def mini_einsum(equation, *operands):
    inputs, output, _ = einsum_labels(equation, [x.shape for x in operands])
    summed = sorted({label for labels in inputs for label in labels} - set(output))
    everything = EVERYTHING
    product = None
    for x, labels in zip(operands, inputs):
        labels = list(labels)
        while len(set(labels)) < len(labels):
            label = next(label for label in labels if labels.count(label) > 1)
            first = labels.index(label)
            second = labels.index(label, first + 1)
            x = np.diagonal(x, axis1=first, axis2=second)
            labels = DIAGONAL_LABELS
        present = [label for label in everything if label in labels]
        x = x.transpose([labels.index(label) for label in present])
        size = dict(zip(present, x.shape))
        x = x.reshape([size.get(label, 1) for label in everything])
        MULTIPLY
    return RESULT
'''
COMPUTE_RIGHT = {
    "EVERYTHING": "output + summed",
    "DIAGONAL_LABELS": "[other for d, other in enumerate(labels) if d not in (first, second)] + [label]",
    "MULTIPLY": "product = x if product is None else product * x",
    "RESULT": "np.asarray(product.sum(axis=tuple(range(len(output), len(everything)))))",
}


def compute_with(**changes: str) -> str:
    source = COMPUTE
    for name, right in COMPUTE_RIGHT.items():
        source = source.replace(name, changes.get(name, right))
    return source


BILINEAR_RIGHT = '''
def bilinear_by_matmul(l, A, r):
    left = np.matmul(l, A)
    return (left * r).sum(axis=-1).T
'''

REARRANGE = '''
def mini_rearrange(x, pattern, sizes):
    def groups(side):
        found, current = [], None
        for token in side.replace("(", " ( ").replace(")", " ) ").split():
            if token == "(":
                current = []
            elif token == ")":
                found.append(current)
                current = None
            elif current is None:
                found.append([token])
            else:
                current.append(token)
        return found

    left_text, right_text = pattern.split("->")
    left, right = groups(left_text), groups(right_text)
    NDIM_CHECK
    known = dict(sizes)
    for group, length in zip(left, x.shape):
        missing = [name for name in group if name not in known]
        product = math.prod(known[name] for name in group if name in known)
        if len(missing) == 1 and product and length % product == 0:
            known[missing[0]] = length // product
        elif MISMATCH:
            raise RuntimeError("cannot make the axis")
    names = [name for group in left for name in group]
    x = x.reshape(SPLIT_SHAPE)
    x = x.transpose(ORDER)
    return x.reshape([math.prod(known[name] for name in group) for group in right])
'''
REARRANGE_RIGHT = {
    "NDIM_CHECK": 'if x.ndim != len(left):\n        raise RuntimeError("wrong number of dims")',
    "MISMATCH": "missing or product != length",
    "SPLIT_SHAPE": "[known[name] for name in names]",
    "ORDER": "[names.index(name) for group in right for name in group]",
}


def rearrange_with(**changes: str) -> str:
    source = REARRANGE
    for name, right in REARRANGE_RIGHT.items():
        source = source.replace(name, changes.get(name, right))
    return source


MUTANTS = [
    # --- einsum_shape ---------------------------------------------------------------------------
    Mutant("einsum_shape", "calls-torch-on-meta-tensors", '''
import torch
def einsum_shape(equation, shapes):
    return tuple(torch.einsum(equation, *[torch.empty(shape, device="meta") for shape in shapes]).shape)
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
    Mutant("einsum_shape", "implicit-output-in-order-of-appearance",
           labels_with(IMPLICIT="[label for label in dict.fromkeys(letters) if letters.count(label) == 1]"),
           nudge="Without an arrow, in which order does torch list the output letters?"),
    Mutant("einsum_shape", "implicit-output-keeps-every-letter", labels_with(IMPLICIT="sorted(set(letters))"),
           nudge="Without an arrow, does a letter that appears twice stay in the output, or is it summed away?"),
    Mutant("einsum_shape", "implicit-output-lowercase-first",
           labels_with(IMPLICIT="sorted((label for label in set(letters) if letters.count(label) == 1), key=lambda c: (c.isupper(), c))"),
           nudge="In torch's alphabetical order, do all the capitals come before the lowercase letters?"),
    Mutant("einsum_shape", "implicit-output-sorted-ignoring-case",
           labels_with(IMPLICIT="sorted((label for label in set(letters) if letters.count(label) == 1), key=str.lower)"),
           nudge="In torch's alphabetical order, do all the capitals come before the lowercase letters?"),
    Mutant("einsum_shape", "implicit-output-sorted-ignoring-case-in-order-of-appearance",
           labels_with(IMPLICIT="sorted((label for label in dict.fromkeys(letters) if letters.count(label) == 1), key=str.lower)"),
           nudge="In torch's alphabetical order, do all the capitals come before the lowercase letters?"),
    Mutant("einsum_shape", "size-1-does-not-broadcast", labels_with(BAD_PAIR="label in sizes and size != sizes[label]"),
           nudge="When a letter has size 1 in one operand and 3 in another, is that a clash, or does the 1 broadcast?"),
    Mutant("einsum_shape", "first-size-wins", labels_with(KEEP="sizes.get(label, size)"),
           nudge="When a letter has size 1 in the first operand and 3 in a later one, which size does the result take?"),
    Mutant("einsum_shape", "ellipsis-dims-aligned-on-the-left", labels_with(ALIGN="d"),
           nudge="When the operands' ellipses cover different numbers of dims, do those dims line up on the left or on the right?"),
    Mutant("einsum_shape", "explicit-output-always-keeps-ellipsis", labels_with(DOTS_KEPT="True"),
           nudge="With an explicit output that has no ellipsis, what happens to the dims the ellipsis stood for?"),
    Mutant("einsum_shape", "unknown-output-letter-gets-size-1", labels_with(CHECK_OUTPUT="False"),
           nudge="What should an output letter that no operand has do?"),
    Mutant("einsum_shape", "repeated-letter-sizes-unchecked", labels_with(CHECK_REPEATS="False"),
           nudge="When a letter repeats within one operand, must its sizes there agree?"),
    Mutant("einsum_shape", "allocates-the-operands", '''
def einsum_shape(equation, shapes):
    operands = [np.zeros(shape) for shape in shapes]
    lhs, arrow, rhs = equation.partition("->")
    sizes = {}
    for term, x in zip(lhs.split(","), operands):
        for label, size in zip(term, x.shape):
            sizes[label] = max(sizes.get(label, 1), size)
    return tuple(sizes[label] for label in rhs)
''', nudge="Can you allocate operands whose shapes may be far too large, and does your parse follow every rule of the statement?"),

    # --- mini_einsum ----------------------------------------------------------------------------
    Mutant("mini_einsum", "calls-np-einsum", '''
def mini_einsum(equation, *operands):
    return np.einsum(equation, *operands)
''', nudge="Is NumPy's einsum among what this part lets you use, when the contraction is yours to build?"),
    Mutant("mini_einsum", "calls-tensorlab", '''
import tensorlab
def mini_einsum(equation, *operands):
    return tensorlab.einsum(equation, *[tensorlab.tensor(x) for x in operands]).numpy()
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
    Mutant("mini_einsum", "contracts-pairs-with-matmul", '''
def mini_einsum(equation, *operands):
    lhs, _, rhs = equation.partition("->")
    if len(operands) == 2:
        return np.matmul(operands[0], operands[1])
    return operands[0].sum()
''', nudge="Does matmul follow the letters of the equation, or only the last two dims of each operand?"),
    Mutant("mini_einsum", "forgets-to-sum", compute_with(RESULT="product"),
           nudge="What happens to the axes of the letters missing from the output?"),
    Mutant("mini_einsum", "sums-the-leading-axes", compute_with(RESULT="np.asarray(product.sum(axis=tuple(range(len(everything) - len(output)))))"),
           nudge="In your common order of labels, do the summed ones come first or last?"),
    Mutant("mini_einsum", "letters-in-alphabetical-order-not-the-outputs",
           compute_with(EVERYTHING="sorted(output) + summed"),
           nudge="In which order must the result's dims come: alphabetical, or as the output term lists them?"),
    Mutant("mini_einsum", "diagonal-assumed-first", compute_with(
        DIAGONAL_LABELS="[label] + [other for d, other in enumerate(labels) if d not in (first, second)]"),
           nudge="Where does NumPy's diagonal put the axis it makes: first or last?"),
    Mutant("mini_einsum", "float-accumulator", compute_with(
        MULTIPLY="product = (np.ones(x.shape) if product is None else product) * x"),
           nudge="What dtype does an array of ones get by default, and what does multiplying an int64 array by it give?"),
    Mutant("mini_einsum", "multiplies-in-place-into-the-first-operand", compute_with(
        MULTIPLY="if product is None:\n            product = x\n        else:\n            product *= x"),
           nudge="Can an in-place multiply write into the caller's operand, which must stay unchanged?"),
    Mutant("mini_einsum", "python-number-for-a-0-d-result", compute_with(
        RESULT="product.sum(axis=tuple(range(len(output), len(everything)))).tolist()"),
           nudge="What does tolist give for a 0-d array, and is that an array?"),
    Mutant("mini_einsum", "numpy-scalar-for-a-0-d-result", compute_with(
        RESULT="product.sum(axis=tuple(range(len(output), len(everything))))"),
           nudge="When the output has no letters, does summing every axis give a 0-d array or a NumPy scalar?"),
    Mutant("mini_einsum", "int64-summed-in-float64-then-cast-back", compute_with(
        RESULT="np.asarray(product.astype(np.float64).sum(axis=tuple(range(len(output), len(everything)))).astype(product.dtype))"),
           nudge="Can float64 hold int64 sums exactly beyond 2**53?"),
    Mutant("mini_einsum", "c-einsum-from-a-private-module", '''
from numpy._core.multiarray import c_einsum
def mini_einsum(equation, *operands):
    return np.asarray(c_einsum(equation, *operands))
''', nudge="Is einsum reached through a NumPy module any less the einsum this part rules out?"),
    Mutant("mini_einsum", "c-einsum-through-np-core", '''
def mini_einsum(equation, *operands):
    return np.asarray(np.core.multiarray.c_einsum(equation, *operands))
''', nudge="Is einsum reached through a NumPy module any less the einsum this part rules out?"),
    Mutant("mini_einsum", "tensordot-with-ones-for-the-sum", compute_with(
        RESULT="np.asarray(np.tensordot(product, np.ones(product.shape[len(output):], dtype=product.dtype), "
               "axes=len(everything) - len(output)))"),
           nudge="Is a product with a vector of ones still a matrix product, in a part that leaves the product and the sum to you?"),
    Mutant("mini_einsum", "vecdot-with-ones-for-the-sum", compute_with(
        RESULT="np.asarray(np.vecdot(product.reshape(product.shape[:len(output)] + (-1,)), "
               "np.ones(math.prod(product.shape[len(output):]), dtype=product.dtype)))"),
           nudge="Is a product with a vector of ones still a matrix product, in a part that leaves the product and the sum to you?"),
    Mutant("mini_einsum", "loops-without-broadcasting-size-1", '''
def mini_einsum(equation, *operands):
    inputs, output, sizes = einsum_labels(equation, [x.shape for x in operands])
    everything = output + sorted({label for labels in inputs for label in labels} - set(output))
    out = np.zeros([sizes[label] for label in output], dtype=operands[0].dtype)
    for values in np.ndindex(*[sizes[label] for label in everything]):
        at = dict(zip(everything, values))
        term = 1
        for x, labels in zip(operands, inputs):
            term = term * x[tuple(at[label] for label in labels)]
        out[tuple(at[label] for label in output)] += term
    return out
''', nudge="When a letter has size 1 in one operand and 3 in another, what does visiting position 2 of that operand do?"),

    # --- bilinear_by_matmul -------------------------------------------------------------------------
    Mutant("bilinear_by_matmul", "calls-np-einsum", '''
def bilinear_by_matmul(l, A, r):
    return np.einsum("bn,anm,bm->ba", l, A, r)
''', nudge="Is einsum among what this part lets you use, when the point is to rewrite it with matmul?"),
    Mutant("bilinear_by_matmul", "calls-torch-bilinear", '''
import torch
def bilinear_by_matmul(l, A, r):
    return torch.nn.functional.bilinear(torch.from_numpy(l), torch.from_numpy(r), torch.from_numpy(A)).numpy()
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
    Mutant("bilinear_by_matmul", "for-loop-over-the-batch", '''
def bilinear_by_matmul(l, A, r):
    out = np.zeros((l.shape[0], A.shape[0]), dtype=l.dtype)
    for b in range(l.shape[0]):
        out[b] = np.matmul(np.matmul(A, r[b]), l[b])
    return out
''', nudge="What would one broadcast matmul do here, instead of visiting the batch one sample at a time?"),
    Mutant("bilinear_by_matmul", "map-over-the-batch", '''
def bilinear_by_matmul(l, A, r):
    rows = list(map(lambda b: np.matmul(np.matmul(A, r[b]), l[b]), range(l.shape[0])))
    return np.array(rows, dtype=l.dtype).reshape(l.shape[0], A.shape[0])
''', nudge="Is map over the batch any less a Python loop than a for statement?"),
    Mutant("bilinear_by_matmul", "vecdot-instead-of-multiply-and-sum",
           "def bilinear_by_matmul(l, A, r):\n    return np.vecdot(np.matmul(l, A), r).T\n",
           nudge="Is NumPy's vecdot among what this part lets you use?"),
    Mutant("bilinear_by_matmul", "matvec-instead-of-matmul",
           "def bilinear_by_matmul(l, A, r):\n    return (np.matvec(A[:, None], r) * l).sum(axis=-1).T\n",
           nudge="Is NumPy's matvec among what this part lets you use?"),
    Mutant("bilinear_by_matmul", "forgets-the-transpose", BILINEAR_RIGHT.replace(".sum(axis=-1).T", ".sum(axis=-1)"),
           nudge="After the matmul, which dim of your result is the batch and which the output, and in which order does the result want them?"),
    Mutant("bilinear_by_matmul", "sums-the-wrong-axis", BILINEAR_RIGHT.replace(".sum(axis=-1).T", ".sum(axis=1).T"),
           nudge="Which axis of your product holds M, the one summed away?"),
    Mutant("bilinear_by_matmul", "reshape-instead-of-transpose", BILINEAR_RIGHT.replace(
        ".sum(axis=-1).T", ".sum(axis=-1).reshape(l.shape[0], A.shape[0])"),
           nudge="Does reshape swap two dims, or only read the same elements, in the same order, into a new shape?"),
    Mutant("bilinear_by_matmul", "transposes-A", BILINEAR_RIGHT.replace("np.matmul(l, A)", "np.matmul(l, A.transpose(0, 2, 1))"),
           nudge="Which of A's dims does l meet in the product, and which does r meet?"),
    Mutant("bilinear_by_matmul", "float64-result", BILINEAR_RIGHT.replace("(left * r).sum(axis=-1).T", "(left * r).sum(axis=-1).T.astype(float)"),
           nudge="Which dtype must the result keep, when the inputs are float32?"),
    Mutant("bilinear_by_matmul", "forgets-r", BILINEAR_RIGHT.replace("(left * r).sum(axis=-1).T", "left.sum(axis=-1).T"),
           nudge="Where does r come into out[b, a]?"),

    # --- attention_scores ------------------------------------------------------------------------------
    Mutant("attention_scores", "calls-np-einsum", '''
def attention_scores(q, k):
    return np.einsum("bhid,bhjd->bhij", q, k)
''', nudge="Is einsum among what this part lets you use, when the point is to rewrite it with matmul?"),
    Mutant("attention_scores", "calls-torch", '''
import torch
def attention_scores(q, k):
    return (torch.from_numpy(q) @ torch.from_numpy(k).transpose(-2, -1)).numpy()
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
    Mutant("attention_scores", "for-loop-over-heads", '''
def attention_scores(q, k):
    out = np.zeros(q.shape[:3] + (k.shape[2],), dtype=q.dtype)
    for h in range(q.shape[1]):
        out[:, h] = np.matmul(q[:, h], k[:, h].swapaxes(-1, -2))
    return out
''', nudge="What would one broadcast matmul do here, instead of visiting the heads one at a time?"),
    Mutant("attention_scores", "recursion-over-the-batch", '''
def attention_scores(q, k):
    if q.ndim == 2:
        return np.matmul(q, k.T)
    return np.stack(list(map(attention_scores, q, k)))
''', nudge="Is recursion over the batch any less a Python loop?"),
    Mutant("attention_scores", "vecdot-over-broadcast-pairs",
           "def attention_scores(q, k):\n    return np.vecdot(q[:, :, :, None, :], k[:, :, None, :, :])\n",
           nudge="Is NumPy's vecdot among what this part lets you use?"),
    Mutant("attention_scores", "matmul-through-np-linalg",
           "def attention_scores(q, k):\n    return np.linalg.matmul(q, np.swapaxes(k, -1, -2))\n",
           nudge="Is the matmul of NumPy's linalg module one of the names this part lets you use?"),
    Mutant("attention_scores", "no-transpose", "def attention_scores(q, k):\n    return np.matmul(q, k)\n",
           nudge="Which dim of k has to meet the last dim of q in the product?"),
    Mutant("attention_scores", ".T-reverses-every-dim", "def attention_scores(q, k):\n    return np.matmul(q, k.T)\n",
           nudge="On a 4-d array, which dims does .T swap: the last two, or all of them?"),
    Mutant("attention_scores", "reshape-instead-of-transpose",
           "def attention_scores(q, k):\n    return np.matmul(q, k.reshape(k.shape[:2] + (k.shape[3], k.shape[2])))\n",
           nudge="Does reshape swap two dims, or only read the same elements, in the same order, into a new shape?"),
    Mutant("attention_scores", "keys-and-queries-swapped", "def attention_scores(q, k):\n    return np.matmul(k, q.swapaxes(-1, -2))\n",
           nudge="Whose positions run down the rows of the scores: the queries' or the keys'?"),
    Mutant("attention_scores", "elementwise-then-sum", "def attention_scores(q, k):\n    return (q * k).sum(axis=-1)\n",
           nudge="Does your product pair every query with every key, or only query i with key i?"),
    Mutant("attention_scores", "float64-result",
           "def attention_scores(q, k):\n    return np.matmul(q, k.swapaxes(-1, -2)).astype(np.float64)\n",
           nudge="Which dtype must the result keep, when the inputs are float32?"),

    # --- mini_rearrange -------------------------------------------------------------------------------
    Mutant("mini_rearrange", "calls-einops", '''
import einops
def mini_rearrange(x, pattern, sizes):
    return einops.rearrange(x, pattern, **sizes)
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
    Mutant("mini_rearrange", "calls-tensorlab", '''
import tensorlab.einops
def mini_rearrange(x, pattern, sizes):
    return tensorlab.einops.rearrange(tensorlab.tensor(x), pattern, **sizes).numpy()
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
    Mutant("mini_rearrange", "split-with-the-last-name-outermost", rearrange_with(
        SPLIT_SHAPE="[known[name] for group in left for name in reversed(group)]"),
           nudge="When a left group splits an axis, which name is outermost: the first or the last?"),
    Mutant("mini_rearrange", "merge-with-the-last-name-outermost", rearrange_with(
        ORDER="[names.index(name) for group in right for name in reversed(group)]"),
           nudge="When a right group merges axes, which name runs slowest?"),
    Mutant("mini_rearrange", "reshape-without-transpose", rearrange_with(ORDER="list(range(len(names)))"),
           nudge="Can reshape alone put axes into another order?"),
    Mutant("mini_rearrange", "needs-every-size-given", rearrange_with(
        MISMATCH="False", SPLIT_SHAPE="[sizes[name] if name in sizes else x.shape[[n for g in left for n in g].index(name)] "
        "for name in names]"),
           nudge="When a group's sizes leave one name out, can you work it out from the axis' size?"),
    Mutant("mini_rearrange", "lets-numpy-raise-value-error", rearrange_with(MISMATCH="False"),
           nudge="Which exception class does the statement ask for when a group's sizes cannot make its axis?"),
    Mutant("mini_rearrange", "given-size-of-a-whole-axis-unchecked", rearrange_with(MISMATCH="len(missing) > 1"),
           nudge="When a size is given for a name that is a whole axis, must it agree with that axis?"),
    Mutant("mini_rearrange", "no-check-of-the-number-of-dims", rearrange_with(NDIM_CHECK="pass"),
           nudge="What should happen when x has more or fewer dims than the left side has groups?"),
    Mutant("mini_rearrange", "float-result", rearrange_with(SPLIT_SHAPE="[known[name] for name in names]").replace(
        "    x = x.reshape(", "    x = x.astype(float).reshape(", 1),
           nudge="Which dtype must the result keep, and does converting x along the way keep it?"),
    Mutant("mini_einsum", "sums-with-@-and-a-ones-vector", '''
def mini_einsum(equation, *operands):
    """torch.einsum for NumPy arrays: diagonals, align, broadcast multiply, sum."""
    inputs, output, _ = einsum_labels(equation, [x.shape for x in operands])
    summed = sorted({label for labels in inputs for label in labels} - set(output))
    everything = output + summed  # one axis per label: the output's first
    product = None
    for x, labels in zip(operands, inputs, strict=True):
        labels = list(labels)
        while len(set(labels)) < len(labels):  # a repeated letter: keep its diagonal, as the last axis
            label = next(label for label in labels if labels.count(label) > 1)
            first = labels.index(label)
            second = labels.index(label, first + 1)
            x = np.diagonal(x, axis1=first, axis2=second)
            labels = [other for d, other in enumerate(labels) if d not in (first, second)] + [label]
        present = [label for label in everything if label in labels]
        x = x.transpose([labels.index(label) for label in present])
        size = dict(zip(present, x.shape, strict=True))
        x = x.reshape([size.get(label, 1) for label in everything])
        product = x if product is None else product * x
    kept = product.shape[:len(output)]
    rows = product.reshape(*kept, -1) if product.ndim else product.reshape(1)
    return np.asarray(rows @ np.ones(rows.shape[-1], dtype=rows.dtype))

''', nudge="Is a product with a vector of ones still a matrix product, in a part that leaves the product and the sum to you?"),
]
