"""``tensorlab check NOTEBOOK``: the notebook's visible checks, run the way the grader runs them.

The learner's functions run in the same sandbox as in grading, on the public cases (the
examples and the public random cases that ``check(...)`` cells use), and each result is
printed with its message. Nothing here is secret, so it needs no course directory.
"""

from __future__ import annotations

import ast
from pathlib import Path

import nbformat

from .spec import Exercise, Graded
from .verify import exercise_cases, verify_notebook

__all__ = ["check_notebook"]


def checked_functions(notebook: nbformat.NotebookNode) -> list[Graded]:
    """The functions named by ``check("name", ...)`` calls, with their test cells' points."""
    graded = []
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        try:
            tree = ast.parse(cell.source)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "check" and node.args
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                points = cell.get("metadata", {}).get("nbgrader", {}).get("points", 1)
                if node.args[0].value not in {g.name for g in graded}:
                    graded.append(Graded(node.args[0].value, float(points)))
    return graded


def check_notebook(path: Path, timeout: float = 10.0) -> int:
    notebook = nbformat.read(str(path), as_version=4)
    graded = checked_functions(notebook)
    if not graded:
        print(f"{path}: no check(...) cells found")
        return 2
    exercise = Exercise(notebook=path.stem, graded=tuple(graded), timeout=timeout)
    result = verify_notebook(path, exercise, exercise_cases(exercise, None))
    for cell in result.broken_cells:
        print(f"! skipped {cell}")
    for function in result.functions:
        mark = "✓" if function.outcome == "passed" else "✗"
        print(f"{mark} {function.name} ({function.score:g}/{function.max_score:g}): {function.message}")
    print(f"visible checks: {result.score:g}/{exercise.max_score:g} points (grading adds hidden cases)")
    return 0 if result.score == exercise.max_score else 1
