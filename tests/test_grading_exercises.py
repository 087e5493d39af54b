"""Every exercise: the solution notebook scores full marks, the released notebook zero, and the spec matches it.

Known-wrong answers (mutants), under ten course seeds, are in tests/test_mutants.py.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbgrader.preprocessors import ClearSolutions

from autograder.spec import load_exercise
from autograder.verify import exercise_cases, verify_notebook

EXERCISES = Path(__file__).resolve().parent.parent / "exercises"
SEED = 20240613
# Exercise folder -> its notebook name, for every exercise with a spec.
UNITS = {spec.parent.name: load_exercise(spec).notebook for spec in sorted(EXERCISES.glob("*/spec.py"))}



def solution_path(exercise: str) -> Path:
    return EXERCISES / exercise / f"{UNITS[exercise]}.ipynb"


def grade(exercise: str, notebook: nbformat.NotebookNode, tmp_path: Path) -> dict[str, float]:
    path = tmp_path / f"{UNITS[exercise]}.ipynb"
    nbformat.write(notebook, str(path))
    spec = load_exercise(EXERCISES / exercise / "spec.py")
    result = verify_notebook(path, spec, exercise_cases(spec, SEED), timeout=10)
    return {function.name: function.score for function in result.functions}


@pytest.mark.parametrize("exercise", UNITS)
def test_solution_gets_full_marks(exercise: str, tmp_path: Path) -> None:
    spec = load_exercise(EXERCISES / exercise / "spec.py")
    scores = grade(exercise, nbformat.read(str(solution_path(exercise)), as_version=4), tmp_path)
    assert scores == {graded.name: graded.points for graded in spec.graded}


@pytest.mark.parametrize("exercise", UNITS)
def test_released_notebook_gets_zero(exercise: str, tmp_path: Path) -> None:
    notebook = nbformat.read(str(solution_path(exercise)), as_version=4)
    released, _ = ClearSolutions().preprocess(notebook, {})
    assert set(grade(exercise, released, tmp_path).values()) == {0}


@pytest.mark.parametrize("exercise", UNITS)
def test_spec_points_match_the_notebooks_test_cells(exercise: str) -> None:
    spec = load_exercise(EXERCISES / exercise / "spec.py")
    notebook = nbformat.read(str(solution_path(exercise)), as_version=4)
    cells = {c.metadata["nbgrader"]["grade_id"]: c.metadata["nbgrader"]["points"]
             for c in notebook.cells if c.get("metadata", {}).get("nbgrader", {}).get("grade")}
    assert cells == {graded.grade_id: graded.points for graded in spec.graded}
