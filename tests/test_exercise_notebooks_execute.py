"""Every exercise notebook runs top to bottom in a real kernel: the solution version and the released one.

The solution version (``exercises/<unit>/<notebook>.ipynb``) must run clean: every ``check(...)``
cell passes. The released version (nbgrader's ClearSolutions, what students get) "runs" when
every cell that is not a locked test cell runs without an error — the setup, the stubs the
learner fills in — and every test cell runs too: ``check()`` prints its friendly verdict ("not
written yet (it raises NotImplementedError)") to stderr and raises nothing, so Run All reaches the
last cell. No Python traceback, no frames, no ``----`` rule. The kernel is this environment's Python,
as in test_notebooks_execute.py.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import nbformat
import pytest
from nbgrader.preprocessors import ClearSolutions

from autograder.exercise import ExerciseFolder, exercise_folders
from tensorlab.grading.public_cases import CASES_FILE
from tensorlab.grading.student_library import LIBRARY_UNITS, unit_number

nbclient = pytest.importorskip("nbclient")

EXERCISES = Path(__file__).resolve().parent.parent / "exercises"
NOTEBOOKS = sorted(folder.notebook_path for folder in exercise_folders())
TIMEOUT_S = 120
pytestmark = [pytest.mark.slow, pytest.mark.timeout(TIMEOUT_S + 60)]


def is_test_cell(cell: nbformat.NotebookNode) -> bool:
    grading = cell.get("metadata", {}).get("nbgrader", {})
    return bool(grading.get("grade")) and not grading.get("solution")


def execute(notebook: nbformat.NotebookNode, source: Path, tmp_path: Path,
            monkeypatch: pytest.MonkeyPatch, allow_errors: bool = True) -> list[nbformat.NotebookNode]:
    """Run every cell (errors recorded, not raised, unless ``allow_errors`` is False: then the first error is
    nbclient's CellExecutionError, as Run All stops) in this environment's kernel, in a folder that holds only
    the exercise's public cases (as a student's does); the code cells afterwards."""
    monkeypatch.setenv("JUPYTER_PATH", str(Path(sys.prefix, "share", "jupyter")))
    monkeypatch.delenv("TENSORLAB_CASES", raising=False)  # check() reads the file beside the notebook
    folder = tmp_path / "student"
    if "mytorch" in source.read_text(encoding="utf-8"):  # a student's tree: the saved notebooks of units 01-12 beside it
        folder = tmp_path / "exercises" / source.parent.name
        for earlier in exercise_folders():
            if unit_number(earlier.name) in LIBRARY_UNITS:
                (tmp_path / "exercises" / earlier.name).mkdir(parents=True)
                shutil.copy(earlier.notebook_path, tmp_path / "exercises" / earlier.name)
    folder.mkdir()
    (folder / CASES_FILE).write_text(ExerciseFolder(source.parent).public_text())
    guard = f"import sys\nassert sys.prefix == {sys.prefix!r}, f'kernel runs in {{sys.prefix}}, not the test environment'"
    notebook.cells.insert(0, nbformat.v4.new_code_cell(guard))
    client = nbclient.NotebookClient(
        notebook, kernel_name="python3", timeout=TIMEOUT_S, startup_timeout=60, allow_errors=allow_errors,
        resources={"metadata": {"path": str(folder)}},
    )
    client.execute()
    return [cell for cell in notebook.cells if cell.cell_type == "code"]


def errors(cell: nbformat.NotebookNode) -> list[nbformat.NotebookNode]:
    return [output for output in cell.get("outputs", []) if output.output_type == "error"]


def printed(cell: nbformat.NotebookNode, stream: str = "stdout") -> str:
    return "".join(output.get("text", "") for output in cell.get("outputs", [])
                   if output.output_type == "stream" and output.get("name") == stream)


def test_there_are_exercise_notebooks() -> None:
    assert len(NOTEBOOKS) >= 3, f"expected the three pilot exercises under {EXERCISES}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.parent.name)
def test_solution_version_runs_clean(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cells = execute(nbformat.read(path, as_version=4), path, tmp_path, monkeypatch)
    failed = {index: errors(cell)[0].evalue for index, cell in enumerate(cells) if errors(cell)}
    assert not failed, f"{path.name}: cells raised {failed}"
    test_cells = [cell for cell in cells if is_test_cell(cell)]
    assert test_cells and all(printed(cell).startswith("✓ ") for cell in test_cells)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.parent.name)
def test_released_version_runs_and_its_checks_fail_kindly(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    released, _ = ClearSolutions().preprocess(nbformat.read(path, as_version=4), {})
    cells = execute(released, path, tmp_path, monkeypatch)
    failed = {index: errors(cell)[0].evalue for index, cell in enumerate(cells) if errors(cell)}
    assert not failed, f"{path.name}: cells raised {failed}"
    test_cells = [cell for cell in cells if is_test_cell(cell)]
    assert test_cells
    for cell in test_cells:
        shown = printed(cell, "stderr")
        assert shown.startswith("✗ ") and "not written yet (it raises NotImplementedError)" in shown, cell.source
        assert "Traceback" not in shown and "-----" not in shown and 'File "' not in shown
        assert not printed(cell) and not [output for output in cell.outputs if output.output_type == "execute_result"]
