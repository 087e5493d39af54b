"""Mutants of the tensor puzzles (exercise 07-tensor-puzzles): plausible wrong answers to each puzzle.

Every puzzle gets the same three cheats, each written for that puzzle (the answer key imported, the
NumPy function that does it, the specification's loop rewritten with ``while``), and five honest
mistakes in whole-array code: off-by-one ranges, a strict comparison for a non-strict one, the
wrong operand, a transposed or unsummed result, a bool or float result instead of int64 (for
``linspace``, the one float64 puzzle: floor division's int64 result instead of float64).
"""

from tensorlab.grading.tasks import Mutant

ARGUMENTS = {
    "ones": "i", "total": "a", "outer": "a, b", "diag": "a", "eye": "j", "triu": "j", "cumsum": "a", "diff": "a",
    "vstack": "a, b", "roll": "a", "flip": "a", "compress": "g, v, i", "pad_to": "a, j",
    "sequence_mask": "values, lengths", "bincount": "a, j", "scatter_add": "values, link, j", "flatten": "a",
    "linspace": "i, j, n", "heaviside": "a, b", "repeat": "a, d", "bucketize": "v, boundaries",
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
    "flatten": "return a.flatten()",
    "linspace": "return np.linspace(i, j, n)",
    "heaviside": "return np.heaviside(a, b).astype(np.int64)",
    "repeat": "return np.tile(a, (d, 1))",
    "bucketize": "return np.searchsorted(boundaries, v)",
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
    "flatten": "out = np.arange(len(a) * a.shape[1]) * 0\n    k = 0\n    while k < len(out):\n"
               "        out[k] = a[k // a.shape[1], k % a.shape[1]]\n        k += 1\n    return out",
    "linspace": "out = np.arange(n) * 0.0\n    k = 0\n    while k < n:\n"
                "        out[k] = i if n == 1 else i + (j - i) * k / (n - 1)\n        k += 1\n    return out",
    "heaviside": "out = a * 0\n    k = 0\n    while k < len(a):\n        if a[k] > 0:\n            out[k] = 1\n"
                 "        elif a[k] == 0:\n            out[k] = b[k]\n        k += 1\n    return out",
    "repeat": "out = np.where(np.arange(d)[:, np.newaxis] < 0, a, 0)\n    row = 0\n    while row < d:\n"
              "        out[row] = a\n        row += 1\n    return out",
    "bucketize": "out = v * 0\n    k = 0\n    while k < len(v):\n"
                 "        out[k] = np.where(boundaries < v[k], 1, 0) @ ones(len(boundaries))\n        k += 1\n    return out",
}

# The nudges of the two dtype mistakes, which every puzzle can make.
FLOAT_NUDGE = "What dtype does a float anywhere in the expression give the result, and which dtype must every answer return?"
BOOL_NUDGE = "What dtype does a comparison give, and which dtype must every answer return?"

# Honest whole-array mistakes: (what went wrong, the body, the nudge check() shows for it).
MISTAKES: dict[str, list[tuple[str, str, str]]] = {
    "ones": [
        ("zeros", "return np.arange(i) * 0", "What value should every element hold?"),
        ("bool result", "return np.arange(i) > -1", BOOL_NUDGE),
        ("one too many", "return np.arange(i + 1) * 0 + 1",
         "How many elements does an array of i ones have?"),
        ("first is zero", "return np.where(np.arange(i) > 0, 1, 0)",
         "Is the element at position 0 a one too?"),
        ("float result", "return np.arange(i) * 0 + 1.0", FLOAT_NUDGE),
    ],
    "total": [
        ("0-d instead of shape (1,)", "return ones(len(a)) @ a",
         "What shape does a row times a vector give, compared with a row times a column?"),
        ("skips the last", "return ones(len(a) - 1) @ a[:-1, np.newaxis]",
         "Which element does your slice leave out of the sum?"),
        ("skips the first", "return ones(len(a) - 1) @ a[1:, np.newaxis]",
         "Which element does your slice leave out of the sum?"),
        ("positives only", "return ones(len(a)) @ np.where(a > 0, a, 0)[:, np.newaxis]",
         "Do the negative values count toward the sum?"),
        ("float result", "return ones(len(a)) @ a[:, np.newaxis] * 1.0", FLOAT_NUDGE),
    ],
    "outer": [
        ("elementwise product", "return a * b",
         "Does out[i, j] pair every element of a with every element of b, or only a[i] with b[i]?"),
        ("transposed", "return b[:, np.newaxis] * a[np.newaxis, :]",
         "Which of a and b runs down the rows of the result?"),
        ("sum instead of product", "return a[:, np.newaxis] + b[np.newaxis, :]",
         "Which operation combines a[i] and b[j]?"),
        ("inner product", "return a @ b",
         "Is the result a matrix of all the pairs, or one number summed over them?"),
        ("float result", "return a[:, np.newaxis] * b[np.newaxis, :] * 1.0", FLOAT_NUDGE),
    ],
    "diag": [
        ("rows instead of elements", "return a[np.arange(len(a))]",
         "With a single index array, do you pick elements or whole rows?"),
        ("anti-diagonal", "return a[np.arange(len(a)), len(a) - 1 - np.arange(len(a))]",
         "On the diagonal, which column goes with row i?"),
        ("first row", "return a[0, np.arange(len(a))]",
         "Does the row stay the same as you walk along the diagonal?"),
        ("indices broadcast to the whole matrix", "return a[np.arange(len(a))[:, np.newaxis], np.arange(len(a))]",
         "Do a column of row indices and a row of column indices pick n elements, or an n by n grid?"),
        ("one too few", "return a[np.arange(len(a) - 1), np.arange(len(a) - 1)]",
         "How many elements does the diagonal of an n by n matrix have?"),
    ],
    "eye": [
        ("bool result", "return np.arange(j)[:, np.newaxis] == np.arange(j)", BOOL_NUDGE),
        ("upper triangle", "return np.where(np.arange(j)[:, np.newaxis] <= np.arange(j), 1, 0)",
         "Which comparison of row and column holds only on the diagonal?"),
        ("aranges not crossed", "return np.where(np.arange(j) == np.arange(j), 1, 0)",
         "Does comparing two 1-d ranges give a matrix, or a vector?"),
        ("anti-identity", "return np.where(np.arange(j)[:, np.newaxis] + np.arange(j) == j - 1, 1, 0)",
         "Which diagonal runs from the top-left corner to the bottom-right one?"),
        ("one too big", "return np.where(np.arange(j + 1)[:, np.newaxis] == np.arange(j + 1), 1, 0)",
         "How many rows and columns does a j by j matrix have?"),
    ],
    "triu": [
        ("diagonal left out", "return np.where(np.arange(j)[:, np.newaxis] < np.arange(j), 1, 0)",
         "Is the diagonal part of the upper triangle here?"),
        ("lower triangle", "return np.where(np.arange(j)[:, np.newaxis] >= np.arange(j), 1, 0)",
         "Above the diagonal, is the row index smaller or larger than the column index?"),
        ("bool result", "return np.arange(j)[:, np.newaxis] <= np.arange(j)", BOOL_NUDGE),
        ("compared with j, a column", "return np.where(np.arange(j)[:, np.newaxis] <= j, 1, 0)",
         "What do you compare each row index with: the size j, or the column index?"),
        ("float result", "return np.where(np.arange(j)[:, np.newaxis] <= np.arange(j), 1.0, 0.0)", FLOAT_NUDGE),
    ],
    "cumsum": [
        ("sums from the right", "return triu(len(a)) @ a",
         "Does out[i] add up the elements up to i, or from i to the end, and on which side of the matrix does a go?"),
        ("identity matrix", "return a @ eye(len(a))",
         "Which matrix adds up a prefix of a, rather than copying each element?"),
        ("exclusive sums", "return a @ (triu(len(a)) - eye(len(a)))",
         "Does the running sum at position i include a[i] itself?"),
        ("total everywhere", "return (ones(len(a)) @ a[:, np.newaxis]) * ones(len(a))",
         "Is every running sum the same total?"),
        ("float result", "return a @ triu(len(a)) * 1.0", FLOAT_NUDGE),
    ],
    "diff": [
        ("drops the first", "return a[1:] - a[:-1]",
         "How long is the result, and what is its first element?"),
        ("wraps around at the first", "return a - a[np.arange(len(a)) - 1]",
         "At position 0, which element does the previous position index?"),
        ("sign flipped", "return np.where(np.arange(len(a)) > 0, a[np.arange(len(a)) - 1] - a, a)",
         "Which neighbour is subtracted from which?"),
        ("first becomes zero", "return a - np.where(np.arange(len(a)) > 0, a[np.arange(len(a)) - 1], a[0])",
         "What should the first element of the result be?"),
        ("off by one", "return a - np.where(np.arange(len(a)) > 1, a[np.arange(len(a)) - 1], 0)",
         "At position 1, is the previous element subtracted?"),
    ],
    "vstack": [
        ("rows swapped", "return np.where(np.arange(2)[:, np.newaxis] == 0, b, a)", "Which array is row 0?"),
        ("arange not a column", "return np.where(np.arange(2) == 0, a, b)",
         "Does a 1-d arange of length 2 vary along the rows of the result, or along its columns?"),
        ("a twice", "return np.where(np.arange(2)[:, np.newaxis] == 0, a, a)",
         "Where does b appear in your result?"),
        ("arange of the wrong length", "return np.where(np.arange(len(a))[:, np.newaxis] == 0, a, b)",
         "How many rows does the result have?"),
        ("float result", "return np.where(np.arange(2)[:, np.newaxis] == 0, a, b) * 1.0", FLOAT_NUDGE),
    ],
    "roll": [
        ("rolls right", "return a[(np.arange(len(a)) - 1) % len(a)]",
         "Does element i take its value from the next position, or the previous one?"),
        ("no wrap", "return a[np.arange(len(a)) + 1]",
         "Which index does the last element read, and does it exist?"),
        ("rolls by two", "return a[(np.arange(len(a)) + 2) % len(a)]",
         "How many places does each element move?"),
        ("wrap at the wrong length", "return a[(np.arange(len(a)) + 1) % (len(a) + 1)]",
         "Wrapping around by which number brings an index past the end back to 0?"),
        ("last becomes zero", "return np.where(np.arange(len(a)) < len(a) - 1, a[(np.arange(len(a)) + 1) % len(a)], 0)",
         "Where does the first element go, rather than disappearing?"),
    ],
    "flip": [
        ("off by one", "return a[len(a) - np.arange(len(a))]",
         "Which index does position 0 read: the length, or the last valid position?"),
        ("negated arange", "return a[-np.arange(len(a))]",
         "Negative indices count from the end, but which element does minus zero pick?"),
        ("identity", "return a[np.arange(len(a))]", "Does your index run backwards at all?"),
        ("float result", "return a[len(a) - 1 - np.arange(len(a))] * 1.0", FLOAT_NUDGE),
        ("indices, not values", "return len(a) - 1 - np.arange(len(a))",
         "Does your answer return positions, or the elements at those positions?"),
    ],
    "compress": [
        ("ignores g", "return v @ np.where(np.arange(len(g))[:, np.newaxis] == np.arange(i), 1, 0)",
         "Where does g decide which values survive?"),
        ("slots one too far",
         "slot = cumsum(np.where(g, 1, 0))\n    return v @ np.where((slot[:, np.newaxis] == np.arange(i)) & g[:, np.newaxis], 1, 0)",
         "Which slot does the first kept value land in?"),
        ("dropped values still land",
         "slot = cumsum(np.where(g, 1, 0)) - 1\n    return v @ np.where(slot[:, np.newaxis] == np.arange(i), 1, 0)",
         "Does a value whose g is False still get a slot?"),
        ("zeroes instead of moving", "return np.where(g, v, 0)",
         "Do the kept values stay where they were, or move to the front?"),
        ("float result",
         "slot = cumsum(np.where(g, 1, 0)) - 1\n"
         "    return v @ np.where((slot[:, np.newaxis] == np.arange(i)) & g[:, np.newaxis], 1.0, 0.0)", FLOAT_NUDGE),
    ],
    "pad_to": [
        ("indexes past the end", "return a[np.arange(j)]",
         "What happens when j is larger than the length of a?"),
        ("wraps instead of padding", "return np.where(np.arange(j) < len(a), a[np.arange(j) % len(a)], 0)",
         "What fills the positions past the end of a: a repeat of a, or zeros?"),
        ("shifted by one", "return a @ np.where(np.arange(len(a))[:, np.newaxis] == np.arange(j) + 1, 1, 0)",
         "Which slot should a[0] land in?"),
        ("running sums", "return a @ np.where(np.arange(len(a))[:, np.newaxis] <= np.arange(j), 1, 0)",
         "Does each slot take one element of a, or a sum of several?"),
        ("float result", "return a @ np.where(np.arange(len(a))[:, np.newaxis] == np.arange(j), 1.0, 0.0)", FLOAT_NUDGE),
    ],
    "sequence_mask": [
        ("keeps one too many", "return np.where(np.arange(values.shape[1]) <= lengths[:, np.newaxis], values, 0)",
         "Is the entry at position lengths[i] itself kept?"),
        ("lengths as a row", "return np.where(np.arange(values.shape[1])[:, np.newaxis] < lengths, values, 0)",
         "Does lengths vary along the rows or along the columns of the comparison?"),
        ("the mask, not the values", "return np.where(np.arange(values.shape[1]) < lengths[:, np.newaxis], 1, 0)",
         "Does your answer keep the values, or only mark where they are?"),
        ("mask inverted", "return np.where(np.arange(values.shape[1]) >= lengths[:, np.newaxis], values, 0)",
         "Which side of the length is kept?"),
        ("float result", "return values * (np.arange(values.shape[1]) < lengths[:, np.newaxis]) * 1.0", FLOAT_NUDGE),
    ],
    "bincount": [
        ("one bin short", "return ones(len(a)) @ np.where(a[:, np.newaxis] == np.arange(j - 1), 1, 0)",
         "How many bins do the values 0 up to j minus 1 need?"),
        ("not summed", "return np.where(a[:, np.newaxis] == np.arange(j), 1, 0)",
         "Does your answer count over the elements of a, or stop at the table of matches?"),
        ("ones of the wrong length", "return ones(j) @ np.where(a[:, np.newaxis] == np.arange(j), 1, 0)",
         "Which axis of the table of matches do you add up, and how long is it?"),
        ("cumulative counts", "return ones(len(a)) @ np.where(a[:, np.newaxis] <= np.arange(j), 1, 0)",
         "Does bin k count the values equal to k, or up to k?"),
        ("sums values instead of counting", "return a @ np.where(a[:, np.newaxis] == np.arange(j), 1, 0)",
         "Does each occurrence add one to its bin, or its value?"),
    ],
    "scatter_add": [
        ("counts instead of adding", "return ones(len(values)) @ np.where(link[:, np.newaxis] == np.arange(j), 1, 0)",
         "Does slot k add up the values linked to it, or count them?"),
        ("adds the links", "return link @ np.where(link[:, np.newaxis] == np.arange(j), 1, 0)",
         "What is summed into each slot: the values, or the links?"),
        ("slots of the wrong length", "return values @ np.where(link[:, np.newaxis] == np.arange(len(values)), 1, 0)",
         "How many slots does the result have?"),
        ("last write wins", "out = np.arange(j) * 0\n    out[link] = values\n    return out",
         "When two values share a link, does an assignment keep both?"),
        ("float result", "return values @ np.where(link[:, np.newaxis] == np.arange(j), 1.0, 0.0)", FLOAT_NUDGE),
    ],
    "flatten": [
        ("column by column", "k = np.arange(len(a) * a.shape[1])\n    return a[k % len(a), k // len(a)]",
         "Does the result read a row by row, or column by column?"),
        ("divides by the number of rows", "k = np.arange(len(a) * a.shape[1])\n    return a[k // len(a), k % len(a)]",
         "How many elements does each row of a hold: as many as a has rows, or as it has columns?"),
        ("row index wraps too", "k = np.arange(len(a) * a.shape[1])\n    return a[k % len(a), k % a.shape[1]]",
         "Does the row change every step, or only once a whole row has been read?"),
        ("index grids not flattened", "return a[np.arange(len(a))[:, np.newaxis], np.arange(a.shape[1])]",
         "Does your result have one axis, or still two?"),
        ("columns counted in the first row", "k = np.arange(len(a) * len(a[0]))\n    return a[k // a.shape[1], k % a.shape[1]]",
         "Does a matrix with no rows have a first row to count its columns in?"),
        ("one element short", "k = np.arange(len(a) * a.shape[1] - 1)\n    return a[k // a.shape[1], k % a.shape[1]]",
         "How many elements does a matrix of m rows and n columns hold?"),
        ("float result", "k = np.arange(len(a) * a.shape[1])\n    return a[k // a.shape[1], k % a.shape[1]] * 1.0",
         FLOAT_NUDGE),
    ],
    "linspace": [
        ("divides by n", "return i + (j - i) * np.arange(n) / n",
         "How many gaps lie between n points, and does your last point reach j?"),
        ("floor division", "return i + (j - i) * np.arange(n) // np.where(n > 1, n - 1, 1)",
         "What does floor division do to the fractions between i and j, and which dtype does this puzzle return?"),
        ("divides by zero for one point", "return i + (j - i) * np.arange(n) / (n - 1)",
         "How many gaps are there when n is 1, and what is the single point then?"),
        ("runs from j to i", "return j + (i - j) * np.arange(n) / np.where(n > 1, n - 1, 1)",
         "Which end does the first point sit at?"),
        ("starts at zero", "return (j - i) * np.arange(n) / np.where(n > 1, n - 1, 1)",
         "Is the first point 0, or i?"),
        ("one point too many", "return i + (j - i) * np.arange(n + 1) / np.where(n > 0, n, 1)",
         "How many points does the result hold?"),
    ],
    "heaviside": [
        ("zero counts as positive", "return np.where(a >= 0, 1, 0)",
         "Where a is 0, does the result come from b, or is it simply 1?"),
        ("b for every non-positive", "return np.where(a > 0, 1, b)",
         "Which elements of a read their value from b: only the zeros, or the negatives too?"),
        ("b and 1 swapped", "return np.where(a > 0, b, np.where(a == 0, 1, 0))",
         "Is it the positive elements of a or its zeros that take their value from b?"),
        ("sign instead of step", "return np.where(a > 0, 1, np.where(a < 0, -1, b))",
         "What does a negative element of a give: -1, like a sign, or 0?"),
        ("a and b swapped", "return np.where(b > 0, 1, np.where(b == 0, a, 0))",
         "Which argument's sign decides the step, and which one only fills in at zero?"),
        ("float result", "return np.where(a > 0, 1.0, np.where(a == 0, b, 0))", FLOAT_NUDGE),
    ],
    "repeat": [
        ("copies as columns", "return outer(a, ones(d))", "Is each copy of a a row of the result, or a column?"),
        ("tiled end to end", "return a[np.arange(d * len(a)) % len(a)]",
         "Does the result have one axis, with the copies end to end, or one row per copy?"),
        ("each element repeated in place", "return a[np.arange(d * len(a)) // d]",
         "Does the result hold d copies of a, or each element of a d times in a row?"),
        ("one copy too many", "return outer(ones(d + 1), a)", "How many rows do d copies of a make?"),
        ("positions, not values", "return np.arange(d)[:, np.newaxis] * 0 + np.arange(len(a))",
         "Does your answer hold the elements of a, or their positions?"),
        ("adds the row number", "return np.arange(d)[:, np.newaxis] + a", "Should row i differ from row 0 at all?"),
        ("float result", "return outer(ones(d), a) * 1.0", FLOAT_NUDGE),
    ],
    "bucketize": [
        ("right-closed buckets", "return np.where(boundaries <= v[:, np.newaxis], 1, 0) @ ones(len(boundaries))",
         "Does a value equal to a boundary count that boundary as below it?"),
        ("counts the boundaries above", "return np.where(boundaries > v[:, np.newaxis], 1, 0) @ ones(len(boundaries))",
         "Does the bucket number count the boundaries below the value, or above it?"),
        ("summed over the values", "return ones(len(v)) @ np.where(boundaries < v[:, np.newaxis], 1, 0)",
         "Which axis of the table of comparisons runs over the boundaries, and which one should the sum remove?"),
        ("not summed", "return np.where(boundaries < v[:, np.newaxis], 1, 0)",
         "Does your answer count, or stop at the table of comparisons?"),
        ("index of the last boundary at or below",
         "return np.where(boundaries <= v[:, np.newaxis], 1, 0) @ ones(len(boundaries)) - 1",
         "Is the bucket number the position of a boundary next to the value, or the number of boundaries below it?"),
        ("float result", "return np.where(boundaries < v[:, np.newaxis], 1.0, 0.0) @ ones(len(boundaries))",
         FLOAT_NUDGE),
    ],
}


# Right answers that call a puzzle that comes LATER in the notebook: not a building block yet.
LATER_PUZZLES: list[tuple[str, str, str]] = [
    ("ones", "calls the later triu", "return triu(i)[np.arange(i) * 0, np.arange(i)]"),
    ("total", "calls the later pad_to", "return ones(len(a)) @ pad_to(a, len(a))[:, np.newaxis]"),
    ("eye", "calls the later triu", "return triu(j) - np.where(np.arange(j)[:, np.newaxis] < np.arange(j), 1, 0)"),
    ("diff", "calls the later flip and pad_to", "return a - flip(pad_to(flip(a)[1:], len(a)))"),
    ("compress", "calls the later pad_to", "return pad_to(v[g], i)"),
    ("vstack", "calls the later repeat", "return np.where(np.arange(2)[:, np.newaxis] == 0, repeat(a, 2), repeat(b, 2))"),
    ("diag", "calls the later flatten", "return flatten(a)[np.arange(len(a)) * (len(a) + 1)]"),
]


# The nudges of the cheats every puzzle gets, and of a call to a later puzzle.
SPEC_NUDGE = "The specification is what your answer is checked against: can it also be your answer?"
NUMPY_NUDGE = "Is the NumPy function that does the whole puzzle one of the building blocks the statement lists?"
WHILE_NUDGE = "Is a while loop any less a loop than the specification's for loop, when the answer must be whole-array code?"
LATER_NUDGE = "Which puzzles have you solved by this point in the notebook, and is the one you call among them?"


def answer(name: str, body: str, header: str = "") -> str:
    return f"{header}def {name}({ARGUMENTS[name]}):\n    {body}\n"


def mutants_of(name: str) -> list[Mutant]:
    key = 'from autograder.exercise import folder_of\nSPECS = folder_of("puzzles").tasks_module.SPECS\n\n\n'
    return [
        Mutant(name, "calls the specification", answer(name, f'return SPECS["{name}"]({ARGUMENTS[name]})', key),
               nudge=SPEC_NUDGE),
        Mutant(name, "the NumPy function that does it", answer(name, NUMPY_CHEATS[name]), nudge=NUMPY_NUDGE),
        Mutant(name, "the loop written with while", answer(name, WHILE_LOOPS[name]), nudge=WHILE_NUDGE),
        *(Mutant(name, mistake, answer(name, body), nudge=nudge) for mistake, body, nudge in MISTAKES[name]),
        *(Mutant(name, mistake, answer(name, body), nudge=LATER_NUDGE)
          for puzzle, mistake, body in LATER_PUZZLES if puzzle == name),
    ]


MUTANTS = [mutant for name in ARGUMENTS for mutant in mutants_of(name)]
MUTANTS += [  # operators the statement's arithmetic leaves out (refused_operators)
    Mutant("ones", "a power of zero instead of the building blocks", """
import numpy as np
def ones(i):
    return np.arange(i) ** 0
""", nudge="Is the power operator among the arithmetic the building blocks allow?"),
    Mutant("eye", "xor of two comparisons for the diagonal", """
import numpy as np
def eye(j):
    a = np.arange(j)
    return np.where((a[:, None] < a) ^ (a[:, None] <= a), 1, 0)
""", nudge="Is xor among the operators the building blocks allow?"),
]
