"""``tensorlab exercise new|validate`` and the course commands on bad input: one line naming the problem and the
file, exit status 2, never a traceback, and nothing changed."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import nbformat
import pytest

from autograder.cli import main
from autograder.exercise import load_folder
from autograder.scaffold import new_exercise

pytestmark = pytest.mark.timeout(300)


def one_line_error(capsys: pytest.CaptureFixture, *argv: str) -> str:
    assert main(list(argv)) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err, captured.err
    return lines[0]


@pytest.fixture
def scaffold(tmp_path: Path) -> Path:
    folder = tmp_path / "exercises" / "01-row-sums"
    new_exercise(folder)
    return folder


def edit_notebook(folder: Path, change: Callable[[nbformat.NotebookNode], None]) -> None:
    path = folder / "row_sums.ipynb"
    notebook = nbformat.read(str(path), as_version=4)
    change(notebook)
    nbformat.write(notebook, str(path))


def cell_with(notebook: nbformat.NotebookNode, grade_id: str) -> nbformat.NotebookNode:
    (cell,) = [c for c in notebook.cells if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == grade_id]
    return cell


def drop_solution(notebook: nbformat.NotebookNode) -> None:
    notebook.cells.remove(cell_with(notebook, "row_sums_solution"))


def drop_test(notebook: nbformat.NotebookNode) -> None:
    notebook.cells.remove(cell_with(notebook, "test_row_sums"))


def no_points(notebook: nbformat.NotebookNode) -> None:
    del cell_with(notebook, "test_row_sums").metadata["nbgrader"]["points"]


def prose_disagrees(notebook: nbformat.NotebookNode) -> None:
    notebook.cells[0].source = notebook.cells[0].source.replace("(2 points)", "(3 points)")


def checks_unknown(notebook: nbformat.NotebookNode) -> None:
    cell_with(notebook, "test_row_sums").source = 'check("col_sums", col_sums)'


@pytest.mark.parametrize(("change", "says", "file"), [
    (drop_solution, "no solution cell with grade_id row_sums_solution", "row_sums.ipynb"),
    (drop_test, "no locked test cell calls check('row_sums', row_sums)", "row_sums.ipynb"),
    (no_points, "needs nbgrader points above 0", "row_sums.ipynb"),
    (prose_disagrees, "the statement says row_sums is worth 3 points, its test cell 2", "row_sums.ipynb"),
    (checks_unknown, "a test cell checks 'col_sums', which EXERCISE.tasks does not define", "row_sums.ipynb"),
], ids=["missing-solution", "missing-test-cell", "no-points", "points-disagree", "unknown-function"])
def test_a_malformed_notebook_is_named_by_validate_and_init(scaffold: Path, capsys: pytest.CaptureFixture,
                                                           change: Callable, says: str, file: str) -> None:
    edit_notebook(scaffold, change)
    line = one_line_error(capsys, "exercise", "validate", str(scaffold))
    assert says in line and file in line, line
    course = scaffold.parent.parent / "course"
    line = one_line_error(capsys, "course", "init", str(course), "--exercises", str(scaffold.parent))
    assert says in line and file in line, line
    assert not course.exists(), "init wrote a course from a malformed exercise"


def test_a_notebook_that_is_not_json(scaffold: Path, capsys: pytest.CaptureFixture) -> None:
    (scaffold / "row_sums.ipynb").write_text("{ not json")
    line = one_line_error(capsys, "exercise", "validate", str(scaffold))
    assert "row_sums.ipynb: not a notebook" in line


@pytest.mark.parametrize(("tasks", "says"), [
    ("raise ValueError('oops')\n", "tasks.py: ValueError: oops"),
    ("x = 1\n", "must define EXERCISE = Exercise("),
], ids=["raises", "no-exercise"])
def test_a_broken_tasks_file(scaffold: Path, capsys: pytest.CaptureFixture, tasks: str, says: str) -> None:
    (scaffold / "tasks.py").write_text(tasks)
    assert says in one_line_error(capsys, "exercise", "validate", str(scaffold))


def test_a_task_without_clause_cases(scaffold: Path, capsys: pytest.CaptureFixture) -> None:
    text = (scaffold / "tasks.py").read_text()
    start = text.index("    clauses=[")
    (scaffold / "tasks.py").write_text(text[:start] + text[text.index("    ],\n", start) + len("    ],\n"):])
    assert "task 'row_sums' has no clause cases" in one_line_error(capsys, "exercise", "validate", str(scaffold))


def test_missing_folders_and_files(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert "no such exercise folder" in one_line_error(capsys, "exercise", "validate", str(tmp_path / "nope"))
    line = one_line_error(capsys, "course", "init", str(tmp_path / "course"), "--exercises", str(tmp_path / "nope"))
    assert "no exercise folders" in line and not (tmp_path / "course").exists()
    assert "is not a course directory" in one_line_error(capsys, "course", "release", str(tmp_path / "nope"))
    assert "no such notebook" in one_line_error(capsys, "check", str(tmp_path / "missing.ipynb"))
    nbformat.write(nbformat.v4.new_notebook(), str(tmp_path / "a.ipynb"))
    (tmp_path / "tensorlab-cases.json").write_text("not json")
    assert "is not JSON" in one_line_error(capsys, "check", str(tmp_path / "a.ipynb"))
    (tmp_path / "tensorlab-cases.json").write_text(json.dumps({"tensorlab_cases": 99}))
    assert "is not a tensorlab cases file" in one_line_error(capsys, "check", str(tmp_path / "a.ipynb"))


def test_new_refuses_a_folder_with_files(scaffold: Path, capsys: pytest.CaptureFixture) -> None:
    before = (scaffold / "tasks.py").read_text()
    assert "already exists and is not empty" in one_line_error(capsys, "exercise", "new", str(scaffold))
    assert (scaffold / "tasks.py").read_text() == before


def test_release_names_a_mistyped_assignment(scaffold: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    course = tmp_path / "course"
    assert main(["course", "init", str(course), "--exercises", str(scaffold.parent)]) == 0
    capsys.readouterr()
    line = one_line_error(capsys, "course", "release", str(course), "01-row-sum")
    assert "no assignment 01-row-sum; the course has 01-row-sums" in line
    assert not (course / "release").exists()


def test_the_scaffold_is_valid_and_its_mutants_and_alternatives_prove_it(scaffold: Path, capsys: pytest.CaptureFixture) -> None:
    folder = load_folder(scaffold)
    assert [g.points for g in folder.grading.graded] == [2.0]
    assert len(folder.mutants()) >= 3 and len(folder.alternatives()) >= 2
    assert main(["exercise", "validate", str(scaffold), "--seeds", "3"]) == 0
    out = capsys.readouterr().out
    assert "✗" not in out and out.strip().endswith("01-row-sums: valid")


def test_validate_fails_on_a_mutant_that_passes(scaffold: Path, capsys: pytest.CaptureFixture) -> None:
    """A right answer listed as a mutant, and a wrong one as an alternative: validate says both, exit 1."""
    mutants, alternatives = (scaffold / "mutants.py").read_text(), (scaffold / "alternatives.py").read_text()
    shutil.copyfile(scaffold / "alternatives.py", scaffold / "swap.py")
    (scaffold / "mutants.py").write_text(alternatives.replace("Alternative", "Mutant").replace("ALTERNATIVES", "MUTANTS"))
    (scaffold / "alternatives.py").write_text(mutants.replace("Mutant", "Alternative").replace("MUTANTS", "ALTERNATIVES"))
    assert main(["exercise", "validate", str(scaffold), "--seeds", "2"]) == 1
    out = capsys.readouterr().out
    assert "✗ mutant row_sums: ufunc-reduce: check() passes it; the grader gives it [2.0, 2.0]" in out
    assert "✗ alternative row_sums: sums-columns" in out
