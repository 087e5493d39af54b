"""Every exercise proves its checks: the solution passes, and every known-wrong solution loses its points.

Each mutant (``tests/mutants/<notebook>.py``) replaces one answer cell of the solution notebook.
It must fail the notebook's ``check()`` (public cases) and score zero in the grader under each
of ten course seeds, so a wrong answer cannot pass by luck of the draw. The solution must pass
``check()`` and score full marks under the same ten seeds, so the checks are not simply strict.
"""

from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path

import nbformat
import pytest

from autograder.extract import is_locked_test_cell, program_of
from autograder.spec import Case, Exercise, Graded, load_exercise
from autograder.verify import judge, run_in_sandbox
from tensorlab.grading import CheckFailed
from tensorlab.grading.check import check_cells
from tensorlab.grading.rules import REFERENCE_MODULES, imported_modules, is_within, rule_violations
from tensorlab.grading.vectorised import loop_violations
from tests.mutants import Mutant

EXERCISES = Path(__file__).resolve().parent.parent / "exercises"
SEEDS = tuple(20240613 + 7919 * k for k in range(10))
MINIMUM_MUTANTS = 8


def exercise_folders() -> dict[str, Path]:
    """Notebook name -> exercise folder, for every exercise with a spec."""
    return {load_exercise(spec).notebook: spec.parent for spec in sorted(EXERCISES.glob("*/spec.py"))}


FOLDERS = exercise_folders()


@cache
def spec(notebook: str) -> Exercise:
    return load_exercise(FOLDERS[notebook] / "spec.py")


def graded(notebook: str, function: str) -> Graded:
    (found,) = [g for g in spec(notebook).graded if g.name == function]
    return found


def mutants(notebook: str) -> list[Mutant]:
    return list(importlib.import_module(f"tests.mutants.{notebook}").MUTANTS)


ALL_MUTANTS = [(notebook, mutant) for notebook in FOLDERS for mutant in mutants(notebook)]
ALL_FUNCTIONS = [(notebook, g.name) for notebook in FOLDERS for g in spec(notebook).graded]


@cache
def solution_cells(notebook: str) -> dict[int, tuple[str, str]]:
    """Cell number -> (grade_id, source) of the solution notebook's code cells, locked tests left out."""
    path = FOLDERS[notebook] / f"{notebook}.ipynb"
    cells = nbformat.read(str(path), as_version=4).cells
    return {number: (cell.metadata.get("nbgrader", {}).get("grade_id", ""), cell.source)
            for number, cell in enumerate(cells, start=1) if cell.cell_type == "code" and not is_locked_test_cell(cell)}


def cells_with(notebook: str, function: str, answer: str | None = None) -> dict[int, str]:
    """The solution's code cells, with ``function``'s answer cell replaced by ``answer``."""
    replaced = {number: answer if grade_id == f"{function}_solution" and answer is not None else source
                for number, (grade_id, source) in solution_cells(notebook).items()}
    assert answer is None or replaced != {n: s for n, (_, s) in solution_cells(notebook).items()}, "no answer cell"
    return replaced


@cache
def cases_per_seed(notebook: str, function: str) -> tuple[list[Case], ...]:
    task = graded(notebook, function).task
    return tuple(task.cases(seed, graded(notebook, function).random_cases) for seed in SEEDS)


def grader_scores(notebook: str, function: str, cells: dict[int, str]) -> list[float]:
    """The function's score under each seed, graded as the autograder does (one sandbox run for all seeds)."""
    program, chosen = program_of(cells), graded(notebook, function)
    task = chosen.task
    if rule_violations(program.statements, function, chosen.all_forbidden(), task.vectorised, task.building_blocks, task.only):
        return [0.0] * len(SEEDS)
    blocks = cases_per_seed(notebook, function)
    everything = [case for block in blocks for case in block]
    timeout = spec(notebook).timeout
    lines, ending = run_in_sandbox(program, [(chosen, everything)], timeout, spec(notebook).memory_mb)[function]
    scores, start = [], 0
    for block in blocks:
        mine = lines[start:start + len(block)]
        start += len(block)
        scores.append(judge(chosen, block, mine, ending if len(mine) < len(block) else "exited", timeout).score)
    return scores


def check_verdict(notebook: str, function: str, cells: dict[int, str]) -> str:
    try:
        check_cells(function, cells)
    except CheckFailed as failure:
        return str(failure)
    return "passed"


@pytest.mark.parametrize(("notebook", "function"), ALL_FUNCTIONS, ids=[f"{n}-{f}" for n, f in ALL_FUNCTIONS])
def test_solution_passes_check_and_full_marks_under_every_seed(notebook: str, function: str) -> None:
    cells = cells_with(notebook, function)
    assert check_verdict(notebook, function, cells) == "passed"
    assert grader_scores(notebook, function, cells) == [graded(notebook, function).points] * len(SEEDS)


@pytest.mark.parametrize(("notebook", "mutant"), ALL_MUTANTS, ids=[f"{n}-{m.function}-{m.mistake}" for n, m in ALL_MUTANTS])
def test_mutant_fails_check_and_scores_zero_under_every_seed(notebook: str, mutant: Mutant) -> None:
    cells = cells_with(notebook, mutant.function, mutant.source)
    assert check_verdict(notebook, mutant.function, cells) != "passed", "the notebook's check() accepts this mutant"
    scores = grader_scores(notebook, mutant.function, cells)
    assert scores == [0.0] * len(SEEDS), f"scores under the ten seeds: {scores}"


def calls_the_reference(mutant: Mutant) -> bool:
    """Does the mutant import the answer key (not merely mention it in a comment)?"""
    statements = program_of({1: mutant.source}).statements
    return any(is_within(module, REFERENCE_MODULES) for statement in statements for module in imported_modules(statement))


@pytest.mark.parametrize(("notebook", "function"), ALL_FUNCTIONS, ids=[f"{n}-{f}" for n, f in ALL_FUNCTIONS])
def test_every_function_has_its_mutants(notebook: str, function: str) -> None:
    """At least eight, among them a call into the reference and, for a vectorised part, a disguised loop."""
    own = [mutant for mutant in mutants(notebook) if mutant.function == function]
    assert len(own) >= MINIMUM_MUTANTS, f"{function} has {len(own)} mutants"
    assert any(calls_the_reference(m) for m in own), "no mutant that imports tensorlab, torch or the grader"
    if graded(notebook, function).task.vectorised:
        disguised = [m for m in own if "for " not in m.source and loop_violations(program_of({1: m.source}).statements)]
        assert disguised, "no mutant that loops without a for statement"
