"""Tensor puzzles: twenty-one one-line functions built from ``arange``, ``where``, indexing and broadcasting.

Each puzzle's reference is its *specification*, written as the plainest loop over elements, so a
learner can read exactly what the answer must compute; the answer must compute the same with
whole-array code only. The building blocks are a short list (``ONLY``): ``np.arange``,
``np.where``, ``np.newaxis``, ``.shape``, ``len``, arithmetic, comparisons, ``@`` and indexing
— and every puzzle solved before (``cumsum`` may call ``triu``). Every answer returns an int64
array but one: ``linspace``'s points fall between the integers (0 to 3 in 5 points is 0, 0.75, 1.5, ...),
and rounding them to int64 would need a rule nobody can guess (torch truncates toward zero, computing the
first half from ``i`` and the second from ``j``), so it returns float64, compared within the default
``Tolerance``, and true division ``/`` is the arithmetic it needs. ``tests/test_puzzles.py`` checks each
specification against torch's own op.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tensorlab.grading.tasks import Clause, Exercise, Task

__all__ = ["EXERCISE", "ONLY", "PUZZLES", "SPECS"]

ONLY = ("arange", "where", "newaxis", "shape", "len")
INT = np.int64
FLOAT = np.float64  # linspace's dtype only


# --- the specifications: one loop each --------------------------------------------------------
def ones_spec(i: int) -> np.ndarray:
    out = np.zeros(i, dtype=INT)
    for k in range(i):
        out[k] = 1
    return out


def total_spec(a: np.ndarray) -> np.ndarray:
    out = np.zeros(1, dtype=INT)
    for k in range(len(a)):
        out[0] += a[k]
    return out


def outer_spec(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out = np.zeros((len(a), len(b)), dtype=INT)
    for i in range(len(a)):
        for j in range(len(b)):
            out[i, j] = a[i] * b[j]
    return out


def diag_spec(a: np.ndarray) -> np.ndarray:
    out = np.zeros(len(a), dtype=INT)
    for i in range(len(a)):
        out[i] = a[i, i]
    return out


def eye_spec(j: int) -> np.ndarray:
    out = np.zeros((j, j), dtype=INT)
    for i in range(j):
        out[i, i] = 1
    return out


def triu_spec(j: int) -> np.ndarray:
    out = np.zeros((j, j), dtype=INT)
    for i in range(j):
        for k in range(j):
            if i <= k:
                out[i, k] = 1
    return out


def cumsum_spec(a: np.ndarray) -> np.ndarray:
    out = np.zeros(len(a), dtype=INT)
    running = 0
    for i in range(len(a)):
        running += a[i]
        out[i] = running
    return out


def diff_spec(a: np.ndarray) -> np.ndarray:
    out = np.zeros(len(a), dtype=INT)
    for i in range(len(a)):
        out[i] = a[i] - a[i - 1] if i > 0 else a[0]
    return out


def vstack_spec(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out = np.zeros((2, len(a)), dtype=INT)
    for i in range(len(a)):
        out[0, i] = a[i]
        out[1, i] = b[i]
    return out


def roll_spec(a: np.ndarray) -> np.ndarray:
    out = np.zeros(len(a), dtype=INT)
    for i in range(len(a)):
        out[i] = a[(i + 1) % len(a)]
    return out


def flip_spec(a: np.ndarray) -> np.ndarray:
    out = np.zeros(len(a), dtype=INT)
    for i in range(len(a)):
        out[i] = a[len(a) - 1 - i]
    return out


def compress_spec(g: np.ndarray, v: np.ndarray, i: int) -> np.ndarray:
    out = np.zeros(i, dtype=INT)
    filled = 0
    for k in range(len(g)):
        if g[k]:
            out[filled] = v[k]
            filled += 1
    return out


def pad_to_spec(a: np.ndarray, j: int) -> np.ndarray:
    out = np.zeros(j, dtype=INT)
    for k in range(min(j, len(a))):
        out[k] = a[k]
    return out


def sequence_mask_spec(values: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    out = np.zeros(values.shape, dtype=INT)
    for i in range(values.shape[0]):
        for j in range(values.shape[1]):
            if j < lengths[i]:
                out[i, j] = values[i, j]
    return out


def bincount_spec(a: np.ndarray, j: int) -> np.ndarray:
    out = np.zeros(j, dtype=INT)
    for k in range(len(a)):
        out[a[k]] += 1
    return out


def scatter_add_spec(values: np.ndarray, link: np.ndarray, j: int) -> np.ndarray:
    out = np.zeros(j, dtype=INT)
    for k in range(len(values)):
        out[link[k]] += values[k]
    return out


def flatten_spec(a: np.ndarray) -> np.ndarray:
    out = np.zeros(a.shape[0] * a.shape[1], dtype=INT)
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            out[i * a.shape[1] + j] = a[i, j]
    return out


def linspace_spec(i: int, j: int, n: int) -> np.ndarray:
    out = np.zeros(n, dtype=FLOAT)
    for k in range(n):
        if n == 1:
            out[k] = i
        else:
            out[k] = i + (j - i) * k / (n - 1)
    return out


def heaviside_spec(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out = np.zeros(len(a), dtype=INT)
    for k in range(len(a)):
        if a[k] > 0:
            out[k] = 1
        elif a[k] == 0:
            out[k] = b[k]
    return out


def repeat_spec(a: np.ndarray, d: int) -> np.ndarray:
    out = np.zeros((d, len(a)), dtype=INT)
    for i in range(d):
        for k in range(len(a)):
            out[i, k] = a[k]
    return out


def bucketize_spec(v: np.ndarray, boundaries: np.ndarray) -> np.ndarray:
    out = np.zeros(len(v), dtype=INT)
    for k in range(len(v)):
        for m in range(len(boundaries)):
            if boundaries[m] < v[k]:
                out[k] += 1
    return out


# --- random inputs ------------------------------------------------------------------------------
def ints(rng: np.random.Generator, size: Any, low: int = -9, high: int = 10) -> np.ndarray:
    """Small ints; one 1-d array in four is a non-contiguous view (every other element)."""
    if isinstance(size, int) and rng.random() < 0.25:
        return np.asarray(rng.integers(low, high, size=2 * size), dtype=INT)[::2]
    return np.asarray(rng.integers(low, high, size=size), dtype=INT)


def length(rng: np.random.Generator, low: int = 0) -> int:
    """Mostly 3 to 9; sometimes the edge (``low``, often 0)."""
    return low if rng.random() < 0.1 else int(rng.integers(max(low, 3), 10))


def square(rng: np.random.Generator) -> np.ndarray:
    n = length(rng)
    matrix = np.asarray(rng.integers(-9, 10, size=(n, n)), dtype=INT)
    return matrix.T if rng.random() < 0.25 else matrix


def compress_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, int]:
    n = length(rng)
    g = rng.random(n) < 0.5
    return g, ints(rng, n), int(g.sum() + rng.integers(0, 3))


def sequence_mask_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    m, n = length(rng, 1), length(rng)
    return ints(rng, (m, n)), np.asarray(rng.integers(0, n + 1, size=m), dtype=INT)


def bincount_case(rng: np.random.Generator) -> tuple[np.ndarray, int]:
    j = int(rng.integers(1, 8))
    return ints(rng, length(rng), 0, j), j


def scatter_add_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, int]:
    n, j = length(rng), int(rng.integers(1, 8))
    return ints(rng, n), ints(rng, n, 0, j), j


def matrix(rng: np.random.Generator) -> np.ndarray:
    """0 to 9 rows and 0 to 9 columns; one in four a transposed view."""
    m, n = length(rng), length(rng)
    return ints(rng, (n, m)).T if rng.random() < 0.25 else ints(rng, (m, n))


def linspace_case(rng: np.random.Generator) -> tuple[int, int, int]:
    i, j = (int(end) for end in rng.integers(-9, 10, size=2))
    return i, j, int(rng.integers(0, 10))  # n = 0 and n = 1 one time in ten each


def heaviside_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    n = length(rng)
    return ints(rng, n, -2, 3), ints(rng, n)  # a from -2 to 2: zeros in most cases


def bucketize_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    m, view = length(rng), rng.random() < 0.25  # a view: every other element of 2 * m sorted values
    boundaries = np.sort(np.asarray(rng.integers(-5, 6, size=2 * m if view else m), dtype=INT))  # repeats happen
    boundaries = boundaries[::2] if view else boundaries
    return ints(rng, length(rng), -5, 6), boundaries


RANDOM_CASES: dict[str, Callable[[np.random.Generator], tuple]] = {
    "ones": lambda rng: (length(rng),),
    "total": lambda rng: (ints(rng, length(rng)),),
    "outer": lambda rng: (ints(rng, length(rng)), ints(rng, length(rng))),
    "diag": lambda rng: (square(rng),),
    "eye": lambda rng: (length(rng),),
    "triu": lambda rng: (length(rng),),
    "cumsum": lambda rng: (ints(rng, length(rng)),),
    "diff": lambda rng: (ints(rng, length(rng, 1)),),
    "vstack": lambda rng: (lambda n: (ints(rng, n), ints(rng, n)))(length(rng)),
    "roll": lambda rng: (ints(rng, length(rng, 1)),),
    "flip": lambda rng: (ints(rng, length(rng)),),
    "compress": compress_case,
    "pad_to": lambda rng: (ints(rng, length(rng)), int(rng.integers(0, 10))),
    "sequence_mask": sequence_mask_case,
    "bincount": bincount_case,
    "scatter_add": scatter_add_case,
    "flatten": lambda rng: (matrix(rng),),
    "linspace": linspace_case,
    "heaviside": heaviside_case,
    "repeat": lambda rng: (ints(rng, length(rng)), length(rng)),
    "bucketize": bucketize_case,
}

A = np.array([3, -1, 4, 1, -5], dtype=INT)
EXAMPLES: dict[str, list[tuple]] = {
    "ones": [(5,)],
    "total": [(A,)],
    "outer": [(np.array([1, 2, 3], dtype=INT), np.array([10, 20], dtype=INT))],
    "diag": [(np.arange(9, dtype=INT).reshape(3, 3),)],
    "eye": [(4,)],
    "triu": [(4,)],
    "cumsum": [(A,)],
    "diff": [(A,)],
    "vstack": [(np.array([1, 2, 3], dtype=INT), np.array([4, 5, 6], dtype=INT))],
    "roll": [(A,)],
    "flip": [(A,)],
    "compress": [(np.array([True, False, True, True, False]), A, 5)],
    "pad_to": [(A, 3), (A, 7)],
    "sequence_mask": [(np.arange(12, dtype=INT).reshape(3, 4) + 1, np.array([0, 2, 4], dtype=INT))],
    "bincount": [(np.array([1, 3, 1, 0, 3, 3], dtype=INT), 5)],
    "scatter_add": [(np.array([5, 1, 7, 2], dtype=INT), np.array([0, 2, 0, 1], dtype=INT), 4)],
    "flatten": [(np.array([[3, -1, 4], [1, -5, 9]], dtype=INT),)],
    "linspace": [(0, 3, 5)],
    "heaviside": [(np.array([-3, 0, 4, 0, -5], dtype=INT), np.array([9, 2, 9, -1, 9], dtype=INT))],
    "repeat": [(np.array([4, -1, 7], dtype=INT), 3)],
    "bucketize": [(A, np.array([-1, 1, 4], dtype=INT))],
}
EMPTY = np.zeros(0, dtype=INT)
CLAUSES: dict[str, list[Clause]] = {
    "ones": [Clause("ones(0) is an empty int64 array", (0,))],
    "total": [Clause("total returns an array of shape (1,), also for an empty a", (EMPTY,))],
    "outer": [Clause("outer of an empty a has shape (0, len(b))", (EMPTY, np.array([1, 2], dtype=INT)))],
    "diag": [Clause("diag reads a[i, i] of any square a, a transposed view included",
                    (np.arange(16, dtype=INT).reshape(4, 4).T,))],
    "eye": [Clause("eye(1) is [[1]]", (1,)), Clause("eye(0) has shape (0, 0)", (0,))],
    "triu": [Clause("triu(j)[i, k] is 1 when i <= k: the diagonal is included", (2,))],
    "cumsum": [Clause("cumsum of a single element is that element", (np.array([7], dtype=INT),))],
    "diff": [Clause("diff keeps a[0] as its first element", (np.array([4], dtype=INT),))],
    "vstack": [Clause("vstack of two empty arrays has shape (2, 0)", (EMPTY, EMPTY))],
    "roll": [Clause("roll moves every element one place to the left, the first to the end",
                    (np.array([1, 2], dtype=INT),))],
    "flip": [Clause("flip of an empty array is empty", (EMPTY,))],
    "compress": [Clause("compress fills zeros after the kept values, up to length i",
                        (np.array([False, True, True]), np.array([1, 2, 3], dtype=INT), 4))],
    "pad_to": [Clause("pad_to shortens a when j < len(a)", (A, 0)),
               Clause("pad_to pads an empty a with zeros", (EMPTY, 2))],
    "sequence_mask": [Clause("a length 0 zeroes the whole row; a length n keeps it",
                             (np.array([[1, 2], [3, 4]], dtype=INT), np.array([0, 2], dtype=INT)))],
    "bincount": [Clause("bincount counts every value in 0..j-1, zeros included, even when a is empty", (EMPTY, 3))],
    "scatter_add": [Clause("scatter_add adds every value that links to the same slot",
                           (np.array([1, 1, 1], dtype=INT), np.array([2, 2, 2], dtype=INT), 3))],
    "flatten": [Clause("flatten reads a row by row, a transposed view included",
                       (np.arange(6, dtype=INT).reshape(2, 3).T,)),
                Clause("flatten of a matrix with rows but no columns is empty", (np.zeros((3, 0), dtype=INT),)),
                Clause("flatten of a matrix with no rows is empty, however many columns it has",
                       (np.zeros((0, 4), dtype=INT),))],
    "linspace": [Clause("linspace(i, j, 1) is the single point i", (4, -2, 1)),
                 Clause("linspace(i, j, 0) is an empty float64 array", (4, -2, 0)),
                 Clause("linspace runs from i down to j when j < i, both ends included", (5, -4, 4))],
    "heaviside": [Clause("heaviside is 0 where a is negative and 1 where a is positive, whatever b holds there",
                         (np.array([-3, 5, -1, 2], dtype=INT), np.array([7, 7, -7, -7], dtype=INT))),
                  Clause("heaviside is b where a is 0, b's zeros and negatives included",
                         (np.array([0, 0, 0], dtype=INT), np.array([-4, 0, 6], dtype=INT))),
                  Clause("heaviside of two empty arrays is empty", (EMPTY, EMPTY))],
    "repeat": [Clause("repeat(a, 1) is a as a single row, of shape (1, len(a))", (np.array([2, -7], dtype=INT), 1)),
               Clause("repeat(a, 0) has shape (0, len(a))", (A, 0)),
               Clause("repeat of an empty a has shape (d, 0)", (EMPTY, 3))],
    "bucketize": [Clause("a value equal to a boundary goes in that boundary's bucket: boundaries[i - 1] < v <= "
                         "boundaries[i]", (np.array([1, 3, 4], dtype=INT), np.array([1, 3], dtype=INT))),
                  Clause("a value at or below the first boundary is in bucket 0; above the last, in bucket "
                         "len(boundaries)", (np.array([-9, -2, 9], dtype=INT), np.array([-2, 0, 2], dtype=INT))),
                  Clause("a value equal to repeated boundaries goes before the first of them",
                         (np.array([2], dtype=INT), np.array([0, 2, 2, 2, 5], dtype=INT))),
                  Clause("with no boundaries every value is in bucket 0", (np.array([3, -1], dtype=INT), EMPTY))],
}

SPECS: dict[str, Callable[..., np.ndarray]] = {
    "ones": ones_spec, "total": total_spec, "outer": outer_spec, "diag": diag_spec, "eye": eye_spec,
    "triu": triu_spec, "cumsum": cumsum_spec, "diff": diff_spec, "vstack": vstack_spec, "roll": roll_spec,
    "flip": flip_spec, "compress": compress_spec, "pad_to": pad_to_spec, "sequence_mask": sequence_mask_spec,
    "bincount": bincount_spec, "scatter_add": scatter_add_spec, "flatten": flatten_spec, "linspace": linspace_spec,
    "heaviside": heaviside_spec, "repeat": repeat_spec, "bucketize": bucketize_spec,
}

# Each puzzle's hint: a question about the idea, never the answer (shown after a repeated failure).
HINTS: dict[str, str] = {
    "ones": "Which whole-array expression built on an arange has the same value at every position, whatever "
            "the arange holds?",
    "total": "How can a matrix product between a row of ones and a column add up every element of that column?",
    "outer": "If a stands as a column and b as a row, what does broadcasting make of their product?",
    "diag": "Which pairs of row and column positions name the diagonal, and can two index arrays pick all of "
            "them at once?",
    "eye": "When is a row position equal to a column position, and how do you compare every row position with "
           "every column position at once?",
    "triu": "Which comparison between a row position and a column position holds exactly on and above the "
            "diagonal?",
    "cumsum": "Which 0/1 matrix from an earlier puzzle, multiplied with a, adds up exactly the elements up to "
              "each position?",
    "diff": "How do you read every element's left neighbour with one index array, and what stands in for the "
            "missing neighbour of the first element?",
    "vstack": "How can a column of two row positions choose, row by row, between a and b?",
    "roll": "Which position of a does each output slot read, and how does the last slot wrap back to the start?",
    "flip": "Which position of a does output slot k read, counting from the end?",
    "compress": "For each kept value, how many kept values come before it, which earlier puzzle counts that, and "
                "how does a 0/1 matrix move each value to its slot?",
    "pad_to": "How can a 0/1 matrix that pairs each position of a with an output slot copy a, and what do the "
              "slots that no position pairs with receive?",
    "sequence_mask": "Which comparison between a column position and a row's length says whether an entry is "
                     "kept, and how do you make it for every row at once?",
    "bincount": "If every element of a became a one-hot row over the values 0 to j-1, how would you add those "
                "rows up?",
    "scatter_add": "How does bincount change when each one-hot row is weighted by its value instead of by 1?",
    "flatten": "When every row holds as many elements as a has columns, which row and which column does position "
               "k of the result come from?",
    "linspace": "How wide is each of the gaps between n evenly spaced points from i to j, how many gaps are "
                "there, and how many are there when the only point is i?",
    "heaviside": "Into which three cases does the sign of an element of a fall, and how can one whole-array choice "
                 "sit inside another?",
    "repeat": "Which earlier puzzle pairs every element of one array with every element of another, and what "
              "should the first array hold for each row to come out as a copy of a?",
    "bucketize": "Since the boundaries are sorted, how many of them lie strictly below a value, and how do you "
                 "compare every value with every boundary at once?",
}

# What each puzzle's cases draw (its statement quotes this sentence).
ARRAY = ("an int64 array of length 0 to 9 (small values, negative too), sometimes a non-contiguous view "
         "(every other element)")
INPUTS: dict[str, str] = {
    "ones": "Inputs: i is an int from 0 to 9.",
    "total": f"Inputs: a is {ARRAY}.",
    "outer": f"Inputs: a and b are each {ARRAY}.",
    "diag": "Inputs: a is a square int64 matrix of size 0 to 9 (small values, negative too), sometimes a "
            "transposed view.",
    "eye": "Inputs: j is an int from 0 to 9.",
    "triu": "Inputs: j is an int from 0 to 9.",
    "cumsum": f"Inputs: a is {ARRAY}.",
    "diff": "Inputs: a is an int64 array of length 1 to 9 (small values, negative too), sometimes a non-contiguous "
            "view (every other element).",
    "vstack": f"Inputs: a and b are each {ARRAY}, both of the same length.",
    "roll": "Inputs: a is an int64 array of length 1 to 9 (small values, negative too), sometimes a non-contiguous "
            "view (every other element).",
    "flip": f"Inputs: a is {ARRAY}.",
    "compress": f"Inputs: g is a bool array of length 0 to 9; v is {ARRAY}, as long as g; i is an int from "
                "the number of Trues in g to that number + 2.",
    "pad_to": f"Inputs: a is {ARRAY}; j is an int from 0 to 9.",
    "sequence_mask": "Inputs: values is a 2-d int64 array of 1 to 9 rows and 0 to 9 columns (small values, "
                     "negative too); lengths is an int64 array, one length per row, each from 0 to the number of "
                     "columns.",
    "bincount": "Inputs: a is an int64 array of length 0 to 9 with values from 0 to j - 1, sometimes a "
                "non-contiguous view (every other element); j is an int from 1 to 7.",
    "scatter_add": f"Inputs: values is {ARRAY}; link is an int64 array as long as values, with values from 0 to "
                   "j - 1, sometimes a non-contiguous view; j is an int from 1 to 7.",
    "flatten": "Inputs: a is a 2-d int64 array of 0 to 9 rows and 0 to 9 columns (small values, negative too), "
               "sometimes a transposed view.",
    "linspace": "Inputs: i and j are ints from -9 to 9 (j may be below i, or equal to it); n is an int from 0 to 9.",
    "heaviside": "Inputs: a is an int64 array of length 0 to 9 with values from -2 to 2 (zeros are common), "
                 f"sometimes a non-contiguous view (every other element); b is {ARRAY}, as long as a.",
    "repeat": f"Inputs: a is {ARRAY}; d is an int from 0 to 9.",
    "bucketize": "Inputs: v is an int64 array of length 0 to 9 with values from -5 to 5, sometimes a "
                 "non-contiguous view (every other element); boundaries is an int64 array of length 0 to 9 "
                 "with values from -5 to 5, sorted (non-decreasing: repeats happen), sometimes a non-contiguous "
                 "view.",
}

NAMES = tuple(SPECS)  # the puzzles in the notebook's order: an answer may call an earlier one, never a later one

PUZZLES: dict[str, Task] = {
    name: Task(
        name=name,
        reference=spec,
        examples=EXAMPLES[name],
        clauses=CLAUSES[name],
        random_case=RANDOM_CASES[name],
        hint=HINTS[name],
        inputs=INPUTS[name],
        vectorised=True,
        only=ONLY,
        refused_operators=("**", "^", "<<", ">>"),  # the statement's arithmetic has no powers or bit tricks
        forbidden=NAMES[NAMES.index(name) + 1:],
    )
    for name, spec in SPECS.items()
}

EXERCISE = Exercise(notebook="puzzles", tasks=tuple(PUZZLES.values()))
