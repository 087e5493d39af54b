"""Mutants of the tensor puzzles (exercise 07-tensor-puzzles): plausible wrong answers to each puzzle.

Every puzzle gets the same three cheats, each written for that puzzle (the answer key imported, the
NumPy function that does it, the specification's loop rewritten with ``while``), and five honest
mistakes in whole-array code: off-by-one ranges, a strict comparison for a non-strict one, the
wrong operand, a transposed or unsummed result, a bool or float result instead of int64.
"""

from tensorlab.grading.tasks import Mutant

ARGUMENTS = {
    "ones": "i", "total": "a", "outer": "a, b", "diag": "a", "eye": "j", "triu": "j", "cumsum": "a", "diff": "a",
    "vstack": "a, b", "roll": "a", "flip": "a", "compress": "g, v, i", "pad_to": "a, j",
    "sequence_mask": "values, lengths", "bincount": "a, j", "scatter_add": "values, link, j",
}

# The NumPy (or ndarray) function that solves the puzzle: not one of the building blocks.
NUMPY_CHEATS = {
    "ones": "return np.ones(i, dtype=np.int64)",
    "total": "return a.sum(keepdims=True)",
    "outer": "return np.outer(a, b)",
    "diag": "return a.diagonal()",
    "eye": "return np.eye(j, dtype=np.int64)",
    "triu": "return np.triu(np.ones((j, j), dtype=np.int64))",
    "cumsum": "return a.cumsum()",
    "diff": "return np.diff(a, prepend=0)",
    "vstack": "return np.vstack([a, b])",
    "roll": "return np.roll(a, -1)",
    "flip": "return np.flip(a)",
    "compress": "kept = v[g]\n    return np.concatenate([kept, np.zeros(i - len(kept), dtype=np.int64)])",
    "pad_to": "return np.pad(a[:j], (0, max(0, j - len(a))))",
    "sequence_mask": "return values * (np.arange(values.shape[1]) < lengths[:, np.newaxis]).astype(np.int64)",
    "bincount": "return np.bincount(a, minlength=j)",
    "scatter_add": "out = np.arange(j) * 0\n    np.add.at(out, link, values)\n    return out",
}

# The specification's loop with `while` instead of `for`: still a loop over elements.
WHILE_LOOPS = {
    "ones": "out = np.arange(i) * 0\n    k = 0\n    while k < i:\n        out[k] = 1\n        k += 1\n    return out",
    "total": "out = ones(1) * 0\n    k = 0\n    while k < len(a):\n        out[0] += a[k]\n        k += 1\n    return out",
    "outer": "out = np.where(np.arange(len(a))[:, np.newaxis] < 0, np.arange(len(b)), 0)\n    i = 0\n"
             "    while i < len(a):\n        out[i] = a[i] * b\n        i += 1\n    return out",
    "diag": "out = np.arange(len(a)) * 0\n    k = 0\n    while k < len(a):\n        out[k] = a[k, k]\n        k += 1\n"
            "    return out",
    "eye": "out = np.where(np.arange(j)[:, np.newaxis] < 0, np.arange(j), 0)\n    k = 0\n    while k < j:\n"
           "        out[k, k] = 1\n        k += 1\n    return out",
    "triu": "out = np.where(np.arange(j)[:, np.newaxis] < 0, np.arange(j), 0)\n    k = 0\n    while k < j:\n"
            "        out[k, k:] = 1\n        k += 1\n    return out",
    "cumsum": "out = a * 0\n    running, k = 0, 0\n    while k < len(a):\n        running += a[k]\n        out[k] = running\n"
              "        k += 1\n    return out",
    "diff": "out = a * 1\n    k = 1\n    while k < len(a):\n        out[k] = a[k] - a[k - 1]\n        k += 1\n    return out",
    "vstack": "out = np.where(np.arange(2)[:, np.newaxis] < 0, a, 0)\n    k = 0\n    while k < len(a):\n"
              "        out[0, k], out[1, k] = a[k], b[k]\n        k += 1\n    return out",
    "roll": "out = a * 0\n    k = 0\n    while k < len(a):\n        out[k] = a[(k + 1) % len(a)]\n        k += 1\n    return out",
    "flip": "out = a * 0\n    k = 0\n    while k < len(a):\n        out[k] = a[len(a) - 1 - k]\n        k += 1\n    return out",
    "compress": "out = np.arange(i) * 0\n    filled, k = 0, 0\n    while k < len(g):\n        if g[k]:\n"
                "            out[filled] = v[k]\n            filled += 1\n        k += 1\n    return out",
    "pad_to": "out = np.arange(j) * 0\n    k = 0\n    while k < j and k < len(a):\n        out[k] = a[k]\n        k += 1\n"
              "    return out",
    "sequence_mask": "out = values * 0\n    row = 0\n    while row < values.shape[0]:\n"
                     "        out[row, :lengths[row]] = values[row, :lengths[row]]\n        row += 1\n    return out",
    "bincount": "out = np.arange(j) * 0\n    k = 0\n    while k < len(a):\n        out[a[k]] += 1\n        k += 1\n    return out",
    "scatter_add": "out = np.arange(j) * 0\n    k = 0\n    while k < len(values):\n        out[link[k]] += values[k]\n"
                   "        k += 1\n    return out",
}

# Honest whole-array mistakes: (what went wrong, the body).
MISTAKES: dict[str, list[tuple[str, str]]] = {
    "ones": [
        ("zeros", "return np.arange(i) * 0"),
        ("bool result", "return np.arange(i) > -1"),
        ("one too many", "return np.arange(i + 1) * 0 + 1"),
        ("first is zero", "return np.where(np.arange(i) > 0, 1, 0)"),
        ("float result", "return np.arange(i) * 0 + 1.0"),
    ],
    "total": [
        ("0-d instead of shape (1,)", "return ones(len(a)) @ a"),
        ("skips the last", "return ones(len(a) - 1) @ a[:-1, np.newaxis]"),
        ("skips the first", "return ones(len(a) - 1) @ a[1:, np.newaxis]"),
        ("positives only", "return ones(len(a)) @ np.where(a > 0, a, 0)[:, np.newaxis]"),
        ("float result", "return ones(len(a)) @ a[:, np.newaxis] * 1.0"),
    ],
    "outer": [
        ("elementwise product", "return a * b"),
        ("transposed", "return b[:, np.newaxis] * a[np.newaxis, :]"),
        ("sum instead of product", "return a[:, np.newaxis] + b[np.newaxis, :]"),
        ("inner product", "return a @ b"),
        ("float result", "return a[:, np.newaxis] * b[np.newaxis, :] * 1.0"),
    ],
    "diag": [
        ("rows instead of elements", "return a[np.arange(len(a))]"),
        ("anti-diagonal", "return a[np.arange(len(a)), len(a) - 1 - np.arange(len(a))]"),
        ("first row", "return a[0, np.arange(len(a))]"),
        ("indices broadcast to the whole matrix", "return a[np.arange(len(a))[:, np.newaxis], np.arange(len(a))]"),
        ("one too few", "return a[np.arange(len(a) - 1), np.arange(len(a) - 1)]"),
    ],
    "eye": [
        ("bool result", "return np.arange(j)[:, np.newaxis] == np.arange(j)"),
        ("upper triangle", "return np.where(np.arange(j)[:, np.newaxis] <= np.arange(j), 1, 0)"),
        ("aranges not crossed", "return np.where(np.arange(j) == np.arange(j), 1, 0)"),
        ("anti-identity", "return np.where(np.arange(j)[:, np.newaxis] + np.arange(j) == j - 1, 1, 0)"),
        ("one too big", "return np.where(np.arange(j + 1)[:, np.newaxis] == np.arange(j + 1), 1, 0)"),
    ],
    "triu": [
        ("diagonal left out", "return np.where(np.arange(j)[:, np.newaxis] < np.arange(j), 1, 0)"),
        ("lower triangle", "return np.where(np.arange(j)[:, np.newaxis] >= np.arange(j), 1, 0)"),
        ("bool result", "return np.arange(j)[:, np.newaxis] <= np.arange(j)"),
        ("compared with j, a column", "return np.where(np.arange(j)[:, np.newaxis] <= j, 1, 0)"),
        ("float result", "return np.where(np.arange(j)[:, np.newaxis] <= np.arange(j), 1.0, 0.0)"),
    ],
    "cumsum": [
        ("sums from the right", "return triu(len(a)) @ a"),
        ("identity matrix", "return a @ eye(len(a))"),
        ("exclusive sums", "return a @ (triu(len(a)) - eye(len(a)))"),
        ("total everywhere", "return (ones(len(a)) @ a[:, np.newaxis]) * ones(len(a))"),
        ("float result", "return a @ triu(len(a)) * 1.0"),
    ],
    "diff": [
        ("drops the first", "return a[1:] - a[:-1]"),
        ("wraps around at the first", "return a - a[np.arange(len(a)) - 1]"),
        ("sign flipped", "return np.where(np.arange(len(a)) > 0, a[np.arange(len(a)) - 1] - a, a)"),
        ("first becomes zero", "return a - np.where(np.arange(len(a)) > 0, a[np.arange(len(a)) - 1], a[0])"),
        ("off by one", "return a - np.where(np.arange(len(a)) > 1, a[np.arange(len(a)) - 1], 0)"),
    ],
    "vstack": [
        ("rows swapped", "return np.where(np.arange(2)[:, np.newaxis] == 0, b, a)"),
        ("arange not a column", "return np.where(np.arange(2) == 0, a, b)"),
        ("a twice", "return np.where(np.arange(2)[:, np.newaxis] == 0, a, a)"),
        ("arange of the wrong length", "return np.where(np.arange(len(a))[:, np.newaxis] == 0, a, b)"),
        ("float result", "return np.where(np.arange(2)[:, np.newaxis] == 0, a, b) * 1.0"),
    ],
    "roll": [
        ("rolls right", "return a[(np.arange(len(a)) - 1) % len(a)]"),
        ("no wrap", "return a[np.arange(len(a)) + 1]"),
        ("rolls by two", "return a[(np.arange(len(a)) + 2) % len(a)]"),
        ("wrap at the wrong length", "return a[(np.arange(len(a)) + 1) % (len(a) + 1)]"),
        ("last becomes zero", "return np.where(np.arange(len(a)) < len(a) - 1, a[(np.arange(len(a)) + 1) % len(a)], 0)"),
    ],
    "flip": [
        ("off by one", "return a[len(a) - np.arange(len(a))]"),
        ("negated arange", "return a[-np.arange(len(a))]"),
        ("identity", "return a[np.arange(len(a))]"),
        ("float result", "return a[len(a) - 1 - np.arange(len(a))] * 1.0"),
        ("indices, not values", "return len(a) - 1 - np.arange(len(a))"),
    ],
    "compress": [
        ("ignores g", "return v @ np.where(np.arange(len(g))[:, np.newaxis] == np.arange(i), 1, 0)"),
        ("slots one too far",
         "slot = cumsum(np.where(g, 1, 0))\n    return v @ np.where((slot[:, np.newaxis] == np.arange(i)) & g[:, np.newaxis], 1, 0)"),
        ("dropped values still land",
         "slot = cumsum(np.where(g, 1, 0)) - 1\n    return v @ np.where(slot[:, np.newaxis] == np.arange(i), 1, 0)"),
        ("zeroes instead of moving", "return np.where(g, v, 0)"),
        ("float result",
         "slot = cumsum(np.where(g, 1, 0)) - 1\n"
         "    return v @ np.where((slot[:, np.newaxis] == np.arange(i)) & g[:, np.newaxis], 1.0, 0.0)"),
    ],
    "pad_to": [
        ("indexes past the end", "return a[np.arange(j)]"),
        ("wraps instead of padding", "return np.where(np.arange(j) < len(a), a[np.arange(j) % len(a)], 0)"),
        ("shifted by one", "return a @ np.where(np.arange(len(a))[:, np.newaxis] == np.arange(j) + 1, 1, 0)"),
        ("running sums", "return a @ np.where(np.arange(len(a))[:, np.newaxis] <= np.arange(j), 1, 0)"),
        ("float result", "return a @ np.where(np.arange(len(a))[:, np.newaxis] == np.arange(j), 1.0, 0.0)"),
    ],
    "sequence_mask": [
        ("keeps one too many", "return np.where(np.arange(values.shape[1]) <= lengths[:, np.newaxis], values, 0)"),
        ("lengths as a row", "return np.where(np.arange(values.shape[1])[:, np.newaxis] < lengths, values, 0)"),
        ("the mask, not the values", "return np.where(np.arange(values.shape[1]) < lengths[:, np.newaxis], 1, 0)"),
        ("mask inverted", "return np.where(np.arange(values.shape[1]) >= lengths[:, np.newaxis], values, 0)"),
        ("float result", "return values * (np.arange(values.shape[1]) < lengths[:, np.newaxis]) * 1.0"),
    ],
    "bincount": [
        ("one bin short", "return ones(len(a)) @ np.where(a[:, np.newaxis] == np.arange(j - 1), 1, 0)"),
        ("not summed", "return np.where(a[:, np.newaxis] == np.arange(j), 1, 0)"),
        ("ones of the wrong length", "return ones(j) @ np.where(a[:, np.newaxis] == np.arange(j), 1, 0)"),
        ("cumulative counts", "return ones(len(a)) @ np.where(a[:, np.newaxis] <= np.arange(j), 1, 0)"),
        ("sums values instead of counting", "return a @ np.where(a[:, np.newaxis] == np.arange(j), 1, 0)"),
    ],
    "scatter_add": [
        ("counts instead of adding", "return ones(len(values)) @ np.where(link[:, np.newaxis] == np.arange(j), 1, 0)"),
        ("adds the links", "return link @ np.where(link[:, np.newaxis] == np.arange(j), 1, 0)"),
        ("slots of the wrong length", "return values @ np.where(link[:, np.newaxis] == np.arange(len(values)), 1, 0)"),
        ("last write wins", "out = np.arange(j) * 0\n    out[link] = values\n    return out"),
        ("float result", "return values @ np.where(link[:, np.newaxis] == np.arange(j), 1.0, 0.0)"),
    ],
}


# Right answers that call a puzzle that comes LATER in the notebook: not a building block yet.
LATER_PUZZLES: list[tuple[str, str, str]] = [
    ("ones", "calls the later triu", "return triu(i)[np.arange(i) * 0, np.arange(i)]"),
    ("total", "calls the later pad_to", "return ones(len(a)) @ pad_to(a, len(a))[:, np.newaxis]"),
    ("eye", "calls the later triu", "return triu(j) - np.where(np.arange(j)[:, np.newaxis] < np.arange(j), 1, 0)"),
    ("diff", "calls the later flip and pad_to", "return a - flip(pad_to(flip(a)[1:], len(a)))"),
    ("compress", "calls the later pad_to", "return pad_to(v[g], i)"),
]


def answer(name: str, body: str, header: str = "") -> str:
    return f"{header}def {name}({ARGUMENTS[name]}):\n    {body}\n"


def mutants_of(name: str) -> list[Mutant]:
    key = 'from autograder.exercise import folder_of\nSPECS = folder_of("puzzles").tasks_module.SPECS\n\n\n'
    return [
        Mutant(name, "calls the specification", answer(name, f'return SPECS["{name}"]({ARGUMENTS[name]})', key)),
        Mutant(name, "the NumPy function that does it", answer(name, NUMPY_CHEATS[name])),
        Mutant(name, "the loop written with while", answer(name, WHILE_LOOPS[name])),
        *(Mutant(name, mistake, answer(name, body)) for mistake, body in MISTAKES[name]),
        *(Mutant(name, mistake, answer(name, body)) for puzzle, mistake, body in LATER_PUZZLES if puzzle == name),
    ]


MUTANTS = [mutant for name in ARGUMENTS for mutant in mutants_of(name)]
MUTANTS += [  # operators the statement's arithmetic leaves out (refused_operators)
    Mutant("ones", "a power of zero instead of the building blocks", """
import numpy as np
def ones(i):
    return np.arange(i) ** 0
"""),
    Mutant("eye", "xor of two comparisons for the diagonal", """
import numpy as np
def eye(j):
    a = np.arange(j)
    return np.where((a[:, None] < a) ^ (a[:, None] <= a), 1, 0)
"""),
]
