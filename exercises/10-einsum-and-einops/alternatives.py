"""Correct answers of exercise 10 (einsum and einops) written other ways than the solution: each must keep full marks."""

from tensorlab.grading import Alternative

ALTERNATIVES = [
    # --- einsum_shape ---------------------------------------------------------------------------
    Alternative("einsum_shape", "broadcast-shapes-for-ellipsis-and-counter", '''
from collections import Counter

import numpy as np

def einsum_labels(equation, shapes):
    """Labels per operand, output labels, sizes: the '...' blocks broadcast with np.broadcast_shapes."""
    if "->" in equation:
        lhs, rhs = equation.split("->")
    else:
        lhs, rhs = equation, None
    terms = lhs.split(",")
    blocks = []
    for term, shape in zip(terms, shapes):
        if "..." in term:
            head, tail = term.split("...")
            blocks.append(tuple(shape)[len(head):len(shape) - len(tail)])
    try:
        block = tuple(int(size) for size in np.broadcast_shapes(*blocks)) if blocks else ()
    except ValueError:
        raise RuntimeError("einsum(): the dims covered by '...' do not broadcast") from None
    dots = ["." + str(d) for d in range(len(block))]
    sizes = dict(zip(dots, block))
    inputs = []
    for term, shape in zip(terms, shapes):
        if "..." in term:
            head, tail = term.split("...")
            covered = len(shape) - len(head) - len(tail)
            labels = list(head) + dots[len(dots) - covered:] + list(tail)
        else:
            labels = list(term)
        inputs.append(labels)
        own = {}
        for label, size in zip(labels, shape):
            if label.startswith("."):
                continue
            if label in own and own[label] != size:
                raise RuntimeError(f"einsum(): subscript {label} repeated with sizes {own[label]} and {size}")
            own[label] = size
        for label, size in own.items():
            if label not in sizes or sizes[label] == 1:
                sizes[label] = size
            elif size != 1 and size != sizes[label]:
                raise RuntimeError(f"einsum(): subscript {label} has sizes {sizes[label]} and {size}")
    if rhs is None:
        counts = Counter(char for char in lhs if char.isalpha())
        output = dots + sorted(letter for letter, count in counts.items() if count == 1)
    else:
        head, has_dots, tail = rhs.partition("...")
        output = list(head) + (dots if has_dots else []) + list(tail)
        unknown = [label for label in output if label not in sizes]
        if unknown:
            raise RuntimeError(f"einsum(): output subscript {unknown[0]} appears in no input")
    return inputs, output, sizes


def einsum_shape(equation, shapes):
    _, output, sizes = einsum_labels(equation, shapes)
    return tuple(int(sizes[label]) for label in output)
'''),
    Alternative("einsum_shape", "right-aligned-reverse-zip-labels", '''
def einsum_labels(equation, shapes):
    """Each '...' dim is labelled by its distance from the right end of its block ('...1' is the last one),
    so that blocks of different lengths line up on the right without knowing the longest first."""
    arrow = equation.find("->")
    lhs = equation if arrow < 0 else equation[:arrow]
    rhs = None if arrow < 0 else equation[arrow + 2:]
    inputs = []
    for term, shape in zip(lhs.split(","), shapes):
        at = term.find("...")
        if at < 0:
            inputs.append(list(term))
            continue
        head, tail = term[:at], term[at + 3:]
        covered = len(shape) - len(head) - len(tail)
        inputs.append(list(head) + ["..." + str(covered - d) for d in range(covered)] + list(tail))
    sizes = {}
    for labels, shape in zip(inputs, shapes):
        first_seen = {}
        for label, size in zip(labels, shape):
            if first_seen.setdefault(label, size) != size:
                raise RuntimeError("einsum(): a repeated subscript has different sizes in one operand")
        for label, size in first_seen.items():
            old = sizes.get(label)
            if old is None or old == 1:
                sizes[label] = size
            elif size != 1 and size != old:
                raise RuntimeError("einsum(): operands do not broadcast for subscript " + label)
    deepest = 0
    for label in sizes:
        if label.startswith("..."):
            deepest = max(deepest, int(label[3:]))
    dots = ["..." + str(k) for k in range(deepest, 0, -1)]
    if rhs is None:
        letters = [char for char in lhs if char.isalpha()]
        single = sorted(set(char for char in letters if letters.count(char) == 1))
        output = dots + single
    else:
        output = []
        rest = rhs
        while rest:
            if rest.startswith("..."):
                output.extend(dots)
                rest = rest[3:]
            else:
                if rest[0] not in sizes:
                    raise RuntimeError("einsum(): output subscript " + rest[0] + " is in no operand")
                output.append(rest[0])
                rest = rest[1:]
    return inputs, output, sizes


def einsum_shape(equation, shapes):
    _, output, sizes = einsum_labels(equation, shapes)
    result = ()
    for label in output:
        result += (sizes[label],)
    return result
'''),
    # --- mini_einsum ----------------------------------------------------------------------------
    Alternative("mini_einsum", "fancy-index-every-operand-onto-a-label-grid", '''
def mini_einsum(equation, *operands):
    """Index each operand with one np.arange per dim, placed on the axis of its label in a common grid:
    a repeated letter reuses the same arange (the diagonal), a missing letter is a size-1 axis."""
    inputs, output, _ = einsum_labels(equation, [x.shape for x in operands])
    everything = list(output)
    for labels in inputs:
        for label in labels:
            if label not in everything:
                everything.append(label)
    axes = len(everything)
    product = None
    for x, labels in zip(operands, inputs):
        grid = []
        for label, size in zip(labels, x.shape):
            shape = [1] * axes
            shape[everything.index(label)] = size
            grid.append(np.arange(size).reshape(shape))
        aligned = x[tuple(grid)] if grid else x
        aligned = np.reshape(aligned, aligned.shape + (1,) * (axes - np.ndim(aligned)))
        product = aligned if product is None else product * aligned
    summed = tuple(range(len(output), axes))
    result = np.asarray(product).sum(axis=summed)
    return np.asarray(result.reshape(result.shape[:len(output)]))
'''),
    Alternative("mini_einsum", "moveaxis-expand-dims-and-early-sums", '''
def mini_einsum(equation, *operands):
    """Diagonals by indexing with one arange, alignment with moveaxis/expand_dims, and each summed label
    summed away (keepdims) as soon as no later operand has it."""
    inputs, output, _ = einsum_labels(equation, [x.shape for x in operands])
    summed = []
    for labels in inputs:
        for label in labels:
            if label not in output and label not in summed:
                summed.append(label)
    order = list(output) + summed
    aligned_operands = []
    for x, labels in zip(operands, inputs):
        labels = list(labels)
        repeated = [label for label in set(labels) if labels.count(label) > 1]
        for label in repeated:
            where = [d for d, other in enumerate(labels) if other == label]
            x = np.moveaxis(x, where, list(range(x.ndim - len(where), x.ndim)))
            labels = [other for other in labels if other != label]
            steps = np.arange(x.shape[-1])
            x = x[(Ellipsis,) + (steps,) * len(where)]
            labels.append(label)
        present = sorted(labels, key=order.index)
        x = np.transpose(x, [labels.index(label) for label in present])
        for axis, label in enumerate(order):
            if label not in present:
                x = np.expand_dims(x, axis)
        aligned_operands.append(x)
    product = None
    for k, x in enumerate(aligned_operands):
        product = x if product is None else product * x
        later = set(label for labels in inputs[k + 1:] for label in labels)
        done = tuple(order.index(label) for label in summed if label not in later)
        if done:
            product = product.sum(axis=done, keepdims=True)
    return np.asarray(product.reshape(product.shape[:len(output)]))
'''),
    # --- bilinear_by_matmul ---------------------------------------------------------------------
    Alternative("bilinear_by_matmul", "contract-r-first-then-l", '''
import numpy as np
def bilinear_by_matmul(l, A, r):
    right = A @ r.T                          # (O, N, B): A[a] @ r[b] for every b, as columns
    return (right * l.T).sum(axis=1).T       # times l[b, n], summed over n: (O, B), then (B, O)
'''),
    Alternative("bilinear_by_matmul", "outer-products-times-flattened-A", '''
import numpy as np
def bilinear_by_matmul(l, A, r):
    batch, n = l.shape
    outputs, _, m = A.shape
    pairs = (l[:, :, None] * r[:, None, :]).reshape(batch, n * m)   # l[b, n] * r[b, m], flattened
    return pairs @ A.reshape(outputs, n * m).T                       # (B, N*M) @ (N*M, O)
'''),
    Alternative("bilinear_by_matmul", "batched-row-times-matrix-times-column", '''
import numpy as np
def bilinear_by_matmul(l, A, r):
    rows = l[:, None, None, :]               # (B, 1, 1, N)
    columns = r[:, None, :, None]            # (B, 1, M, 1)
    scores = np.matmul(np.matmul(rows, A[None]), columns)   # (B, O, 1, 1)
    return scores[:, :, 0, 0]
'''),
    # --- attention_scores -----------------------------------------------------------------------
    Alternative("attention_scores", "keys-times-queries-then-transpose", '''
import numpy as np
def attention_scores(q, k):
    transposed = np.matmul(k, np.transpose(q, (0, 1, 3, 2)))    # (B, H, J, I) = k @ q^T
    return np.transpose(transposed, (0, 1, 3, 2))
'''),
    Alternative("attention_scores", "merge-batch-and-heads-3d-matmul", '''
import numpy as np
def attention_scores(q, k):
    b, h, i, d = q.shape
    j = k.shape[2]
    queries = q.reshape(b * h, i, d)
    keys_t = k.reshape(b * h, j, d).transpose(0, 2, 1)          # (B*H, D, J)
    return (queries @ keys_t).reshape(b, h, i, j)
'''),
    Alternative("attention_scores", "matrix-transpose-attribute-mT", '''
def attention_scores(q, k):
    return q @ k.mT                                              # .mT swaps the last two dims only
'''),
    Alternative("attention_scores", "operator-matmul", '''
import operator

import numpy as np
def attention_scores(q, k):
    return operator.matmul(q, np.moveaxis(k, -1, -2))
'''),
    # --- mini_rearrange -------------------------------------------------------------------------
    Alternative("mini_rearrange", "regex-groups-argsort-permutation", '''
import math
import re

import numpy as np

def mini_rearrange(x, pattern, sizes):
    def parse(side):
        return [group.split() if group else [word] for group, word in re.findall(r"\\(([^)]*)\\)|(\\w+)", side)]

    left_side, right_side = pattern.split("->")
    left, right = parse(left_side), parse(right_side)
    if len(left) != x.ndim:
        raise RuntimeError(f"the pattern has {len(left)} axes on the left, x has {x.ndim}")
    size_of = {}
    for group, length in zip(left, x.shape):
        unknown = [name for name in group if name not in sizes]
        known = 1
        for name in group:
            if name in sizes:
                known *= sizes[name]
        if not unknown:
            if known != length:
                raise RuntimeError(f"sizes {group} make {known}, not {length}")
        elif len(unknown) > 1 or known == 0 or length % known:
            raise RuntimeError(f"cannot split {length} into {group}")
        for name in group:
            size_of[name] = sizes[name] if name in sizes else length // known
    left_names = [name for group in left for name in group]
    right_names = [name for group in right for name in group]
    rank = {name: position for position, name in enumerate(right_names)}
    permutation = np.argsort([rank[name] for name in left_names])
    split = np.reshape(x, [size_of[name] for name in left_names])
    moved = np.transpose(split, permutation)
    return np.reshape(moved, [math.prod(size_of[name] for name in group) for group in right])
'''),
    Alternative("mini_rearrange", "permute-an-arange-of-positions-then-take", '''
import numpy as np

def mini_rearrange(x, pattern, sizes):
    """Rearrange the positions 0 .. x.size - 1 instead of x, then read x's flattened values there."""
    def groups(side):
        found, depth, word, current = [], False, "", []
        for char in side + " ":
            if char.isalnum() or char == "_":
                word += char
                continue
            if word:
                current.append(word)
                word = ""
            if char == "(":
                depth, current = True, []
            elif char == ")" or (not depth and current):
                found.append(current)
                depth, current = False, []
        return found

    arrow = pattern.index("->")
    left, right = groups(pattern[:arrow]), groups(pattern[arrow + 2:])
    if x.ndim != len(left):
        raise RuntimeError("x's dims do not match the left side of the pattern")
    size_of = dict(sizes)
    for group, length in zip(left, x.shape):
        free = [name for name in group if name not in size_of]
        product = int(np.prod([size_of[name] for name in group if name in size_of], dtype=np.int64))
        if len(free) == 0 and product == length:
            continue
        if len(free) == 1 and product > 0 and length % product == 0:
            size_of[free[0]] = length // product
            continue
        raise RuntimeError(f"axis of length {length} cannot be {group}")
    names = [name for group in left for name in group]
    positions = np.arange(x.size).reshape([size_of[name] for name in names])
    positions = positions.transpose([names.index(name) for group in right for name in group])
    shape = [int(np.prod([size_of[name] for name in group], dtype=np.int64)) for group in right]
    return x.reshape(-1)[positions.reshape(shape)]
'''),
]
