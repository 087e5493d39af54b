"""Every exercise folder: well formed, the solution scores full marks, the released notebook zero.

Known-wrong answers (mutants) and correct alternatives, under ten course seeds, are in
tests/test_mutants.py; both use the checks of ``tensorlab exercise validate``.
"""

from __future__ import annotations

import re

import pytest

from autograder.exercise import exercise_folders
from autograder.validate import code_cells, released_scores
from tensorlab.grading.extract import program_of
from tensorlab.grading.verify import verify_program

SEED = 20240613
FOLDERS = {folder.name: folder for folder in exercise_folders()}


def test_every_unit_has_its_exercise_folder() -> None:
    assert len(FOLDERS) == 19  # units 01-18, and unit 07's tensor puzzles


@pytest.mark.parametrize("exercise", FOLDERS)
def test_folder_is_well_formed(exercise: str) -> None:
    """Each task has its test cell (with points), its solution cell and clause cases, and nothing else is checked."""
    assert FOLDERS[exercise].problems() == []


@pytest.mark.parametrize("exercise", FOLDERS)
def test_solution_gets_full_marks(exercise: str) -> None:
    folder = FOLDERS[exercise]
    result = verify_program(program_of(code_cells(folder)), folder.grading, folder.cases(SEED))
    assert {f.name: f.score for f in result.functions} == {g.name: g.points for g in folder.grading.graded}


@pytest.mark.parametrize("exercise", FOLDERS)
def test_released_notebook_gets_zero(exercise: str) -> None:
    assert set(released_scores(FOLDERS[exercise], SEED).values()) == {0}


@pytest.mark.parametrize("exercise", FOLDERS)
def test_points_live_in_the_test_cells_only(exercise: str) -> None:
    """tasks.py holds no points; each function's points are its locked test cell's nbgrader points."""
    folder = FOLDERS[exercise]
    source = (folder.path / "tasks.py").read_text()
    assert re.search(r"\bpoints\s*=", source) is None
    cells = {cell.metadata["nbgrader"]["grade_id"]: cell.metadata["nbgrader"]["points"]
             for cell in folder.notebook.cells if cell.get("metadata", {}).get("nbgrader", {}).get("grade")}
    assert cells == {graded.grade_id: graded.points for graded in folder.grading.graded}
