"""Every exercise: the solution scores full marks, the released notebook zero, and plausible mistakes lose points.

Each mutant is the solution notebook with one line changed the way a learner might get it
wrong; it must lose points on the function it touches (graded out of kernel, as in the course).
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
UNITS = {"04-broadcasting": "broadcasting", "08-gather-scatter": "gather_scatter", "11-autograd": "autograd"}

# (exercise, function that must lose points, text in the solution, what a learner wrote instead)
MUTANTS = [
    ("04-broadcasting", "broadcast_shape", "(1,) * (ndim - len(a)) + tuple(a)", "tuple(a) + (1,) * (ndim - len(a))"),
    ("04-broadcasting", "broadcast_shape", "return tuple(shape)", "return shape"),
    ("04-broadcasting", "broadcast_add", "for dim in reversed(range(ndim)):", "for dim in range(0):"),
    ("04-broadcasting", "broadcast_add", "at non-singleton dimension {dim}", "at non-singleton dimension {dim - ndim}"),
    ("04-broadcasting", "expand_to", "x = np.repeat(x, target, axis=dim)", "x = np.repeat(x, target, axis=dim).astype(float)"),
    ("11-autograd", "sum_to_shape", "grad = grad.sum(axis=stretched, keepdims=True)", "grad = grad.sum(axis=stretched)"),
    ("11-autograd", "mul_backward", "return sum_to_shape(grad * y, x.shape), sum_to_shape(grad * x, y.shape)", "return grad * y, grad * x"),
    ("11-autograd", "matmul_backward", "return grad @ b.T, a.T @ grad", "return grad @ b.T, grad.T @ a"),
    ("11-autograd", "topological_order", "return order[::-1]", "return order"),
    ("11-autograd", "backprop", "grads[source] += grads[node] * local", "grads[source] = grads[node] * local"),
]


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


@pytest.mark.parametrize(("exercise", "function", "right", "wrong"), MUTANTS, ids=[f"{m[0]}-{m[1]}-{i}" for i, m in enumerate(MUTANTS)])
def test_mutant_loses_points(exercise: str, function: str, right: str, wrong: str, tmp_path: Path) -> None:
    notebook = nbformat.read(str(solution_path(exercise)), as_version=4)
    sources = [cell for cell in notebook.cells if right in cell.source]
    assert len(sources) == 1, f"the solution no longer contains {right!r}"
    sources[0].source = sources[0].source.replace(right, wrong)
    assert grade(exercise, notebook, tmp_path)[function] == 0


@pytest.mark.parametrize("exercise", UNITS)
def test_spec_points_match_the_notebooks_test_cells(exercise: str) -> None:
    spec = load_exercise(EXERCISES / exercise / "spec.py")
    notebook = nbformat.read(str(solution_path(exercise)), as_version=4)
    cells = {c.metadata["nbgrader"]["grade_id"]: c.metadata["nbgrader"]["points"]
             for c in notebook.cells if c.get("metadata", {}).get("nbgrader", {}).get("grade")}
    assert cells == {graded.grade_id: graded.points for graded in spec.graded}
