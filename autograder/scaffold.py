"""``tensorlab exercise new DIR``: a small exercise that already works, to be rewritten into your own.

It writes the four files of an exercise folder (see ``exercise.py``) for one graded function,
``row_sums``, with its statement, solution, locked test cell, task, three mutants and two correct
alternatives. ``tensorlab exercise validate DIR`` passes on it as it is; replace the function with
yours, keeping the shape of each file.
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["new_exercise"]

STATEMENT = """\
# Exercise — {title}

Write each function below in NumPy. Run its test cell to check it on the public cases: the same
rules and the same comparison as the grader, which adds hidden cases.

## 1. `row_sums(x)` (2 points)

`x` is a 2-d array. Return the sum of each row, as a 1-d array of `x`'s dtype. Raise `ValueError`
when `x` is not 2-d. An empty row sums to 0. The cases hold float64 and int64 arrays of 0 to 4 rows
and columns, and arrays that are not 2-d.

You may use `.sum`, `np.add.reduce`, `np.ones`, `@` and Python's plain builtins.
"""

SETUP = "import numpy as np\nfrom tensorlab.grading import check"

SOLUTION = '''\
def row_sums(x):
    """The sum of each row of the 2-d array x."""
    ### BEGIN SOLUTION
    if x.ndim != 2:
        raise ValueError(f"x must be 2-d, got {x.ndim} dims")
    return x.sum(axis=1)
    ### END SOLUTION'''

TASKS = '''\
"""{title}: the tasks (answer keys) of this exercise. Never give this file to students."""

from __future__ import annotations

import numpy as np

from tensorlab.grading import Clause, Exercise, Task


def row_sums_reference(x: np.ndarray) -> np.ndarray:
    if x.ndim != 2:
        raise ValueError("x must be 2-d")
    return x.sum(axis=1)


def random_row_sums_case(rng: np.random.Generator) -> tuple[np.ndarray]:
    """Rows and columns 0 to 4, float64 or int64; one case in six is not 2-d (it must raise)."""
    shape = tuple(int(size) for size in rng.integers(0, 5, size=1 if rng.random() < 1 / 6 else 2))
    if rng.random() < 0.5:
        return (np.asarray(rng.integers(-9, 10, size=shape), dtype=np.int64),)
    return (np.round(rng.normal(size=shape), 3),)


ROW_SUMS = Task(
    name="row_sums",
    reference=row_sums_reference,
    examples=[(np.arange(6.0).reshape(2, 3),)],
    clauses=[
        Clause("the sum of each row, not of each column", (np.arange(12.0).reshape(3, 4),)),
        Clause("keep x's dtype", (np.arange(6).reshape(3, 2),)),
        Clause("an empty row sums to 0", (np.ones((2, 0)),)),
        Clause("raise ValueError when x is not 2-d", (np.arange(3.0),)),
    ],
    random_case=random_row_sums_case,
    inputs=("The cases hold float64 and int64 arrays of 0 to 4 rows and columns, and arrays that are not "
            "2-d."),
    allowed=("sum", "add", "reduce", "ones", "matmul"),  # the statement lists the same names (@ is matmul)
    hint="Which axis runs along a row, and what should happen before any sum when x is not 2-d?",
)

EXERCISE = Exercise(notebook="{notebook}", tasks=(ROW_SUMS,))
'''

MUTANTS = '''\
"""Known-wrong answers of {title}: each must lose its points in check() and in the grader."""

from tensorlab.grading import Mutant

MUTANTS = [
    Mutant("row_sums", "sums-columns", """
def row_sums(x):
    if x.ndim != 2:
        raise ValueError("x must be 2-d")
    return x.sum(axis=0)
"""),
    Mutant("row_sums", "no-error-for-1-d", """
def row_sums(x):
    return x.sum(axis=-1)
"""),
    Mutant("row_sums", "calls-the-reference", """
import tensorlab
def row_sums(x):
    if x.ndim != 2:
        raise ValueError("x must be 2-d")
    return tensorlab.tensor(x).sum(1).numpy()
"""),
]
'''

ALTERNATIVES = '''\
"""Correct answers of {title} written other ways than the solution: each must keep full marks."""

from tensorlab.grading import Alternative

ALTERNATIVES = [
    Alternative("row_sums", "ufunc-reduce", """
import numpy as np
def row_sums(x):
    if x.ndim != 2:
        raise ValueError("not 2-d")
    return np.add.reduce(x, axis=1)
"""),
    Alternative("row_sums", "matmul-with-ones", """
import numpy as np
def row_sums(x):
    if len(x.shape) != 2:
        raise ValueError("not 2-d")
    return x @ np.ones(x.shape[1], dtype=x.dtype)
"""),
]
'''


def cell_metadata(grade_id: str, solution: bool = False, grade: bool = False, points: float | None = None) -> dict:
    """nbgrader's metadata for a cell: an answer (solution), a locked test (grade, with points) or a locked cell."""
    metadata = {"grade": grade, "grade_id": grade_id, "locked": not solution, "schema_version": 3,
                "solution": solution, "task": False}
    if points is not None:
        metadata["points"] = points
    return {"nbgrader": metadata}


def new_exercise(path: Path) -> list[Path]:
    """Write a working exercise folder at ``path`` (which must not exist, or be empty); return the files."""
    import nbformat

    if path.exists() and any(path.iterdir()):
        raise FileExistsError(f"{path} already exists and is not empty: choose a new folder")
    stem = re.sub(r"^\d+-", "", path.name) or "exercise"
    notebook = re.sub(r"\W", "_", stem).strip("_").lower() or "exercise"
    title = stem.replace("-", " ").replace("_", " ")
    book = nbformat.v4.new_notebook()
    book.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    book.cells = [
        nbformat.v4.new_markdown_cell(STATEMENT.format(title=title)),
        nbformat.v4.new_code_cell(SETUP, metadata=cell_metadata("setup")),
        nbformat.v4.new_code_cell(SOLUTION, metadata=cell_metadata("row_sums_solution", solution=True)),
        nbformat.v4.new_code_cell('check("row_sums", row_sums)', metadata=cell_metadata("test_row_sums", grade=True, points=2)),
    ]
    for cell in book.cells:
        cell.pop("id", None)  # nbformat 4.5 ids are optional; nbgrader keys cells by grade_id
    book.nbformat_minor = 4
    path.mkdir(parents=True, exist_ok=True)
    files = {
        path / f"{notebook}.ipynb": nbformat.writes(book) + "\n",
        path / "tasks.py": TASKS.format(title=title, notebook=notebook),
        path / "mutants.py": MUTANTS.format(title=title),
        path / "alternatives.py": ALTERNATIVES.format(title=title),
    }
    for file, text in files.items():
        file.write_text(text, encoding="utf-8")
    return list(files)
