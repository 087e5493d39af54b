"""``tensorlab check NOTEBOOK``: the notebook's public checks, run the way the grader runs them.

The learner's functions run in the same sandbox as in grading, on the public cases that came with
the exercise (``tensorlab-cases.json`` in the notebook's folder, or ``--cases FILE``), and each result
is printed with its message. Nothing here is secret, so it needs no course directory.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from tensorlab.grading.extract import read_program
from tensorlab.grading.public_cases import CASES_FILE, PublicCasesError, read_cases_file
from tensorlab.grading.student_library import describe, unit_number, uses_library
from tensorlab.grading.verify import verify_notebook

from .exercise import ExerciseError

__all__ = ["check_notebook"]


def readable(path: Path) -> None:
    """``path`` is a notebook file nbformat can read, or one line saying what it is instead."""
    import nbformat

    if not path.is_file():
        what = "a folder, not a notebook" if path.is_dir() else "no such notebook"
        raise ExerciseError(f"{path}: {what}: give the saved .ipynb file, e.g. tensorlab check broadcasting.ipynb")
    try:
        nbformat.read(str(path), as_version=4)
    except Exception as error:  # nbformat raises several kinds (JSON, schema, encoding)
        raise ExerciseError(f"{path}: not a notebook ({type(error).__name__}); save it again from Jupyter, or "
                            "fetch a fresh copy of the exercise") from None


def check_notebook(path: Path, timeout: float | None = None, cases_path: Path | None = None) -> int:
    """Print each graded function's verdict on the public cases; 0 when all pass, 1 when not.

    Bad input (no such file, a file that is not a notebook, no or broken public cases) is an
    ExerciseError, one line: a student must not read "0 points" for a file they mistyped."""
    readable(path)
    try:
        grading, cases = read_cases_file(cases_path or path.parent / CASES_FILE)
    except PublicCasesError as error:
        raise ExerciseError(str(error)) from None
    if timeout is not None:
        grading = replace(grading, timeout=timeout)
    if uses_library(read_program(path)):  # its ``import mytorch``: the student's own pieces, as check() gives them
        grading = replace(grading, library=describe(path.parent, unit_number(path.resolve().parent.name)))
    result = verify_notebook(path, grading, cases)
    for cell in result.broken_cells:
        print(f"! skipped {cell}")
    for function in result.functions:
        mark = "✓" if function.outcome == "passed" else "✗"
        print(f"{mark} {function.name} ({function.score:g}/{function.max_score:g}): {function.feedback}")
    print(f"public checks: {result.score:g}/{grading.max_score:g} points (grading adds hidden cases; "
          f"your code ran isolated by {result.isolation})")
    return 0 if result.score == grading.max_score else 1
