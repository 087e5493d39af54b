"""``tensorlab check NOTEBOOK``: the notebook's public checks, run the way the grader runs them.

The learner's functions run in the same sandbox as in grading, on the public cases that came with
the exercise (``tensorlab-cases.json`` in the notebook's folder, or ``--cases FILE``), and each result
is printed with its message. Nothing here is secret, so it needs no course directory.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

from tensorlab.grading.public_cases import CASES_FILE, PublicCasesError, read_cases_file
from tensorlab.grading.verify import verify_notebook

__all__ = ["check_notebook"]


def check_notebook(path: Path, timeout: float | None = None, cases_path: Path | None = None) -> int:
    """Print each graded function's verdict on the public cases; 0 when all pass, 1 when not, 2 on bad input."""
    if not path.is_file():
        print(f"{path}: no such notebook", file=sys.stderr)
        return 2
    try:
        grading, cases = read_cases_file(cases_path or path.parent / CASES_FILE)
    except PublicCasesError as error:
        print(error, file=sys.stderr)
        return 2
    if timeout is not None:
        grading = replace(grading, timeout=timeout)
    result = verify_notebook(path, grading, cases)
    for cell in result.broken_cells:
        print(f"! skipped {cell}")
    for function in result.functions:
        mark = "✓" if function.outcome == "passed" else "✗"
        print(f"{mark} {function.name} ({function.score:g}/{function.max_score:g}): {function.feedback}")
    print(f"public checks: {result.score:g}/{grading.max_score:g} points (grading adds hidden cases; "
          f"your code ran isolated by {result.isolation})")
    return 0 if result.score == grading.max_score else 1
