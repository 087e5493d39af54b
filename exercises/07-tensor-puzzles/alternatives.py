"""Correct answers of exercise 07 (tensor puzzles) written other ways than the solution: each must keep full marks.

Each answer uses only the building blocks (np.arange, np.where, np.newaxis or None, .shape, len,
arithmetic, comparisons, &, |, ~, @, indexing, slicing and broadcasting) and only the puzzles that
come before it in the notebook.
"""

from tensorlab.grading import Alternative

ALTERNATIVES = [
    # 1. ones
    Alternative("ones", "where-on-a-true-comparison", '''
def ones(i):
    return np.where(np.arange(i) >= 0, 1, 0)
'''),
    Alternative("ones", "difference-of-shifted-aranges", '''
def ones(i):
    return np.arange(i) - np.arange(-1, i - 1)
'''),
    # 2. total
    Alternative("total", "row-vector-times-ones", '''
def total(a):
    return a[np.newaxis, :] @ ones(len(a))
'''),
    Alternative("total", "dot-product-then-new-axis", '''
def total(a):
    return (a @ ones(len(a)))[np.newaxis]
'''),
    # 3. outer
    Alternative("outer", "column-times-row-matmul", '''
def outer(a, b):
    return a[:, np.newaxis] @ b[np.newaxis, :]
'''),
    Alternative("outer", "gather-with-broadcast-index-grids", '''
def outer(a, b):
    rows = np.arange(len(a))[:, np.newaxis]
    cols = np.arange(len(b))[np.newaxis, :]
    return a[rows + 0 * cols] * b[cols + 0 * rows]
'''),
    # 4. diag
    Alternative("diag", "boolean-mask-of-the-diagonal", '''
def diag(a):
    return a[np.arange(len(a))[:, np.newaxis] == np.arange(len(a))]
'''),
    Alternative("diag", "masked-matrix-row-sums", '''
def diag(a):
    n = len(a)
    return np.where(np.arange(n)[:, np.newaxis] == np.arange(n), a, 0) @ ones(n)
'''),
    # 5. eye
    Alternative("eye", "zeros-then-scatter-the-diagonal", '''
def eye(j):
    out = np.arange(j)[:, np.newaxis] * np.arange(j) * 0
    out[np.arange(j), np.arange(j)] = 1
    return out
'''),
    Alternative("eye", "one-minus-not-equal", '''
def eye(j):
    return 1 - (np.arange(j)[:, np.newaxis] != np.arange(j))
'''),
    # 6. triu
    Alternative("triu", "floor-division-of-the-offset", '''
def triu(j):
    return (np.arange(j) - np.arange(j)[:, np.newaxis] + j) // j
'''),
    Alternative("triu", "sliding-window-over-a-step", '''
def triu(j):
    step = np.where(np.arange(2 * j) >= j, 1, 0)  # j zeros then j ones
    return step[j - np.arange(j)[:, np.newaxis] + np.arange(j)]
'''),
    # 7. cumsum
    Alternative("cumsum", "lower-triangle-where-row-sums", '''
def cumsum(a):
    n = len(a)
    return np.where(np.arange(n) <= np.arange(n)[:, np.newaxis], a, 0) @ ones(n)
'''),
    Alternative("cumsum", "total-minus-suffix-sums", '''
def cumsum(a):
    n = len(a)
    after = np.where(np.arange(n)[:, np.newaxis] < np.arange(n), a, 0) @ ones(n)  # a[i+1:] summed
    return total(a) - after
'''),
    # 8. diff
    Alternative("diff", "difference-matrix", '''
def diff(a):
    n = len(a)
    before = np.where(np.arange(n)[:, np.newaxis] + 1 == np.arange(n), 1, 0)
    return a @ (eye(n) - before)
'''),
    Alternative("diff", "copy-then-assign-a-slice", '''
def diff(a):
    out = a * 1
    out[1:] = a[1:] - a[:-1]
    return out
'''),
    # 9. vstack
    Alternative("vstack", "basis-columns-times-rows", '''
def vstack(a, b):
    return outer(eye(2)[:, 0], a) + outer(eye(2)[:, 1], b)
'''),
    Alternative("vstack", "repeat-a-then-overwrite-row-one", '''
def vstack(a, b):
    out = outer(ones(2), a)
    out[1] = b
    return out
'''),
    # 10. roll
    Alternative("roll", "permutation-matrix", '''
def roll(a):
    n = len(a)
    return a @ np.where(np.arange(n)[:, np.newaxis] == (np.arange(n) + 1) % n, 1, 0)
'''),
    Alternative("roll", "slice-assignments", '''
def roll(a):
    out = a * 1
    out[:-1] = a[1:]
    out[-1:] = a[:1]
    return out
'''),
    # 11. flip
    Alternative("flip", "negative-step-slice", '''
def flip(a):
    return a[::-1] * 1
'''),
    Alternative("flip", "anti-identity-matrix", '''
def flip(a):
    n = len(a)
    return a @ np.where(np.arange(n)[:, np.newaxis] + np.arange(n) == n - 1, 1, 0)
'''),
    # 12. compress
    Alternative("compress", "scatter-kept-values-to-their-slots", '''
def compress(g, v, i):
    out = np.arange(i) * 0
    out[cumsum(g * 1)[g] - 1] = v[g]
    return out
'''),
    Alternative("compress", "gather-by-counting-the-rank", '''
def compress(g, v, i):
    n = len(g)
    seen = cumsum(np.where(g, 1, 0))  # Trues up to and including k
    source = ones(n) @ np.where(seen[:, np.newaxis] <= np.arange(i), 1, 0)  # where the (t+1)-th True is (n: none)
    return v @ np.where(np.arange(n)[:, np.newaxis] == source, 1, 0)
'''),
    # 13. pad_to
    Alternative("pad_to", "compress-the-first-j", '''
def pad_to(a, j):
    return compress(np.arange(len(a)) < j, a, j)
'''),
    Alternative("pad_to", "zeros-then-assign-the-overlap", '''
def pad_to(a, j):
    out = np.arange(j) * 0
    out[:len(a)] = a[:j]
    return out
'''),
    # 14. sequence_mask
    Alternative("sequence_mask", "lookup-in-triu", '''
def sequence_mask(values, lengths):
    n = values.shape[1]
    keep = triu(n + 1)[np.arange(n) + 1, lengths[:, np.newaxis]]  # 1 where j + 1 <= lengths[i]
    return values * keep
'''),
    Alternative("sequence_mask", "floor-division-of-the-gap", '''
def sequence_mask(values, lengths):
    n = values.shape[1]
    keep = (lengths[:, np.newaxis] - np.arange(n) + n) // (n + 1)  # 1 when j < lengths[i], else 0
    return values * keep
'''),
    # 15. bincount
    Alternative("bincount", "one-hot-rows-of-eye", '''
def bincount(a, j):
    return ones(len(a)) @ eye(j)[a]
'''),
    Alternative("bincount", "diff-of-cumulative-counts", '''
def bincount(a, j):
    at_most = ones(len(a)) @ np.where(a[:, np.newaxis] <= np.arange(j), 1, 0)  # how many a <= v
    return diff(at_most)
'''),
    # 16. scatter_add
    Alternative("scatter_add", "one-hot-rows-of-eye", '''
def scatter_add(values, link, j):
    return values @ eye(j)[link]
'''),
    Alternative("scatter_add", "where-values-row-sums", '''
def scatter_add(values, link, j):
    return np.where(np.arange(j)[:, np.newaxis] == link, values, 0) @ ones(len(values))
'''),
    # 17. flatten
    Alternative("flatten", "column-by-subtracting-the-row-starts", '''
def flatten(a):
    k = np.arange(len(a) * a.shape[1])
    rows = k // a.shape[1]
    return a[rows, k - rows * a.shape[1]]
'''),
    Alternative("flatten", "row-by-counting-the-row-starts-passed", '''
def flatten(a):
    n = a.shape[1]
    k = np.arange(len(a) * n)
    starts = np.arange(1, len(a)) * n  # where rows 1, 2, ... begin in the result
    rows = ones(len(a) - 1) @ np.where(starts[:, np.newaxis] <= k, 1, 0)
    return a[rows, k - rows * n]
'''),
    # 18. linspace
    Alternative("linspace", "step-first", '''
def linspace(i, j, n):
    step = (j - i) / np.where(n > 1, n - 1, 1)
    return i + np.arange(n) * step
'''),
    Alternative("linspace", "weighted-average-of-the-ends", '''
def linspace(i, j, n):
    k = np.arange(n)
    return np.where(n > 1, (i * (n - 1 - k) + j * k) / np.where(n > 1, n - 1, 1), i)
'''),
    Alternative("linspace", "from-both-ends-like-torch", '''
def linspace(i, j, n):
    k = np.arange(n)
    step = (j - i) / np.where(n > 1, n - 1, 1)
    return np.where(k < n / 2, i + k * step, j - (n - 1 - k) * step)
'''),
    # 19. heaviside
    Alternative("heaviside", "sum-of-masks", '''
def heaviside(a, b):
    return (a > 0) * 1 + (a == 0) * b
'''),
    Alternative("heaviside", "negatives-first", '''
def heaviside(a, b):
    return np.where(a < 0, 0, np.where(a > 0, 1, b))
'''),
    # 20. repeat
    Alternative("repeat", "broadcast-against-a-zero-column", '''
def repeat(a, d):
    return np.arange(d)[:, np.newaxis] * 0 + a
'''),
    Alternative("repeat", "gather-with-a-broadcast-index-grid", '''
def repeat(a, d):
    return a[np.arange(d)[:, np.newaxis] * 0 + np.arange(len(a))]
'''),
    Alternative("repeat", "where-on-an-always-true-column", '''
def repeat(a, d):
    return np.where(np.arange(d)[:, np.newaxis] >= 0, a, 0)
'''),
    # 21. bucketize
    Alternative("bucketize", "all-minus-the-boundaries-at-or-above", '''
def bucketize(v, boundaries):
    return len(boundaries) - np.where(boundaries >= v[:, np.newaxis], 1, 0) @ ones(len(boundaries))
'''),
    Alternative("bucketize", "ones-row-times-transposed-comparison", '''
def bucketize(v, boundaries):
    return ones(len(boundaries)) @ np.where(boundaries[:, np.newaxis] < v, 1, 0)
'''),
    Alternative("bucketize", "bool-table-times-ones", '''
def bucketize(v, boundaries):
    return (boundaries < v[:, np.newaxis]) @ ones(len(boundaries))
'''),
]
