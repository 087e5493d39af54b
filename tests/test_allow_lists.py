"""Every graded function names what it may use, says so in its statement, and hints without answering.

An allow-list (``Task.allowed``, or the puzzles' ``only``) closes the holes a ban-list leaves: a helper
reached under another name, a private NumPy module, a joining function nobody thought to list. The
statement above the answer cell lists the same names (so a learner reads the rule before the grader
applies it), and the hint asks a question instead of giving the fix (it is shown on a repeated failure).
"""

from __future__ import annotations

import re

import pytest

from autograder.exercise import ExerciseFolder, exercise_folders
from tensorlab.grading.rules import COMMON_NAMES

FOLDERS = exercise_folders()
TASKS = [(folder, name) for folder in FOLDERS for name in folder.tasks]
IDS = [f"{folder.name}-{name}" for folder, name in TASKS]


def statement_of(folder: ExerciseFolder, name: str) -> str:
    """The markdown between the previous answer cell and this function's answer cell (and the
    notebook's introduction, for rules that hold for every part)."""
    cells = folder.notebook.cells
    answers = [number for number, cell in enumerate(cells)
               if cell.get("metadata", {}).get("nbgrader", {}).get("solution") and cell.cell_type == "code"]
    mine = next(number for number in answers
                if cells[number].metadata["nbgrader"].get("grade_id") == f"{name}_solution")
    previous = max((number for number in answers if number < mine), default=-1)
    intro = [cell.source for cell in cells[:answers[0]] if cell.cell_type == "markdown"] if answers else []
    return "\n".join([*intro, *(cell.source for cell in cells[previous + 1:mine] if cell.cell_type == "markdown")])


@pytest.mark.parametrize(("folder", "name"), TASKS, ids=IDS)
def test_every_graded_function_has_an_allow_list(folder: ExerciseFolder, name: str) -> None:
    task = folder.tasks[name]
    assert task.allowed is not None or task.only is not None, f"{name} has no allow-list (Task.allowed)"


@pytest.mark.parametrize(("folder", "name"), TASKS, ids=IDS)
def test_the_statement_names_every_allowed_name(folder: ExerciseFolder, name: str) -> None:
    task = folder.tasks[name]
    names = task.allowed if task.allowed is not None else task.only or ()
    prose = re.sub(r"```.*?```", " ", statement_of(folder, name), flags=re.DOTALL)  # fenced code is not a list of names
    spans = " ".join(re.findall(r"`([^`]+)`", prose))
    missing = [allowed for allowed in names if allowed not in COMMON_NAMES and not re.search(rf"\b{re.escape(allowed)}\b", spans)]
    assert not missing, f"the statement of {name} does not name (in `code`) what it may use: {missing}"


CODE_IN_A_HINT = re.compile(r"`[^`]*[(=\[][^`]*`|\bnp\.\w+\(|\w+\([^)]*\)\s*[-+*/@]")


@pytest.mark.parametrize(("folder", "name"), TASKS, ids=IDS)
def test_the_hint_asks_and_never_answers(folder: ExerciseFolder, name: str) -> None:
    hint, solution = folder.tasks[name].hint, folder.solution_cells[name]
    assert hint.rstrip().endswith("?"), f"the hint of {name} should be a question that points at the concept: {hint!r}"
    assert not CODE_IN_A_HINT.search(hint), f"the hint of {name} contains code: {hint!r}"
    lines = {" ".join(line.split()) for line in solution.splitlines() if len(line.strip()) >= 12}
    copied = [line for line in lines if line in " ".join(hint.split())]
    assert not copied, f"the hint of {name} repeats the solution's lines: {copied}"


@pytest.mark.parametrize(("folder", "name"), TASKS, ids=IDS)
def test_the_statement_names_every_kind_of_input_the_cases_draw(folder: ExerciseFolder, name: str) -> None:
    """``Task.inputs`` sits beside the case generator and the notebook quotes it: the two cannot drift."""
    inputs = " ".join(folder.tasks[name].inputs.split())
    assert inputs, f"{name} does not say what kinds of input its cases draw (Task.inputs)"
    statement = " ".join(statement_of(folder, name).split())
    assert inputs in statement, f"the statement of {name} does not quote its Task.inputs: {inputs!r}"


MUTANTS = [(folder, mutant) for folder in FOLDERS for mutant in folder.mutants()]


@pytest.mark.parametrize(("folder", "mutant"), MUTANTS, ids=[f"{f.name}-{m.function}-{m.mistake}" for f, m in MUTANTS])
def test_every_known_mistake_carries_a_nudge_that_asks(folder: ExerciseFolder, mutant: object) -> None:
    """check()'s third tier names a mistake with its nudge: a question about the misconception, never the fix."""
    nudge = getattr(mutant, "nudge", "")
    assert nudge.rstrip().endswith("?"), f"{mutant!r} needs a nudge that is a question"
    assert not CODE_IN_A_HINT.search(nudge), f"the nudge contains code: {nudge!r}"
