"""Every exercise proves its checks: the solution passes, every known-wrong solution loses its points,
and every correct alternative keeps them.

Each mutant and alternative (``exercises/NN-topic/mutants.py``, ``alternatives.py``) replaces one answer
cell of the solution notebook. A mutant must fail the notebook's ``check()`` (on the public cases as
released, read back from their JSON) and score zero in the grader under each of ten course seeds, so a
wrong answer cannot pass by luck of the draw; an alternative must pass both and keep full marks. These
are the checks of ``tensorlab exercise validate`` (``autograder/validate.py``), one test each.
"""

from __future__ import annotations

import pytest

from autograder.exercise import MISCONCEPTIONS_FILE, exercise_folders
from autograder.misconceptions import made_from
from autograder.validate import DEFAULT_SEEDS, check_failure, check_verdict, code_cells, grader_scores
from tensorlab.grading.extract import program_of
from tensorlab.grading.rules import REFERENCE_MODULES, imported_modules, is_within
from tensorlab.grading.tasks import Mutant
from tensorlab.grading.vectorised import loop_violations

FOLDERS = {folder.name: folder for folder in exercise_folders()}
MINIMUM_MUTANTS = 8

ALL_FUNCTIONS = [(name, task) for name, folder in FOLDERS.items() for task in folder.tasks]
ALL_MUTANTS = [(name, mutant) for name, folder in FOLDERS.items() for mutant in folder.mutants()]
ALL_ALTERNATIVES = [(name, alternative) for name, folder in FOLDERS.items() for alternative in folder.alternatives()]


def points(exercise: str, function: str) -> float:
    return FOLDERS[exercise].grading.find(function).points


@pytest.mark.parametrize(("exercise", "function"), ALL_FUNCTIONS, ids=[f"{e}-{f}" for e, f in ALL_FUNCTIONS])
def test_solution_passes_check_and_full_marks_under_every_seed(exercise: str, function: str) -> None:
    folder = FOLDERS[exercise]
    cells = code_cells(folder)
    assert check_verdict(folder, function, cells) == "passed"
    assert grader_scores(folder, function, cells) == [points(exercise, function)] * len(DEFAULT_SEEDS)


@pytest.mark.parametrize(("exercise", "mutant"), ALL_MUTANTS, ids=[f"{e}-{m.function}-{m.mistake}" for e, m in ALL_MUTANTS])
def test_mutant_fails_check_and_scores_zero_under_every_seed(exercise: str, mutant: Mutant) -> None:
    folder = FOLDERS[exercise]
    cells = code_cells(folder, mutant.function, mutant.source)
    assert cells != code_cells(folder), "the mutant replaced no answer cell"
    assert check_failure(folder, mutant.function, cells) is not None, "the notebook's check() accepts this mutant"
    scores = grader_scores(folder, mutant.function, cells)
    assert scores == [0.0] * len(DEFAULT_SEEDS), f"scores under the ten seeds: {scores}"


@pytest.mark.parametrize(("exercise", "alternative"), ALL_ALTERNATIVES,
                         ids=[f"{e}-{a.function}-{a.approach}" for e, a in ALL_ALTERNATIVES])
def test_alternative_passes_check_and_full_marks_under_every_seed(exercise: str, alternative: Mutant) -> None:
    folder = FOLDERS[exercise]
    cells = code_cells(folder, alternative.function, alternative.source)
    assert check_verdict(folder, alternative.function, cells) == "passed"
    assert grader_scores(folder, alternative.function, cells) == [points(exercise, alternative.function)] * len(DEFAULT_SEEDS)


def calls_the_reference(mutant: Mutant) -> bool:
    """Does the mutant import the library or the grader (not merely mention it in a comment)?"""
    statements = program_of({1: mutant.source}).statements
    return any(is_within(module, REFERENCE_MODULES) for statement in statements for module in imported_modules(statement))


@pytest.mark.parametrize(("exercise", "function"), ALL_FUNCTIONS, ids=[f"{e}-{f}" for e, f in ALL_FUNCTIONS])
def test_every_function_has_its_mutants(exercise: str, function: str) -> None:
    """At least eight, among them a call into the reference and, for a vectorised part, a disguised loop."""
    own = [mutant for mutant in FOLDERS[exercise].mutants() if mutant.function == function]
    assert len(own) >= MINIMUM_MUTANTS, f"{function} has {len(own)} mutants"
    assert any(calls_the_reference(m) for m in own), "no mutant that imports tensorlab, torch or the grader"
    if FOLDERS[exercise].tasks[function].vectorised:
        disguised = [m for m in own if "for " not in m.source and loop_violations(program_of({1: m.source}).statements)]
        assert disguised, "no mutant that loops without a for statement"


@pytest.mark.parametrize("exercise", FOLDERS)
def test_the_known_mistakes_were_fingerprinted_from_these_cases_and_mutants(exercise: str) -> None:
    """check()'s third tier names a mutant by its outcomes on the public cases: misconceptions.json must have
    been written from the cases and mutants as they are now (a fingerprint itself may differ run to run, for a
    mutant that reads uninitialised memory, so the file records what it was made from)."""
    import json

    folder = FOLDERS[exercise]
    written = json.loads((folder.path / MISCONCEPTIONS_FILE).read_text())
    assert written["made_from"] == made_from(folder), (
        f"misconceptions.json is stale: run tensorlab exercise misconceptions exercises/{exercise}")


@pytest.mark.parametrize(("exercise", "function"), ALL_FUNCTIONS, ids=[f"{e}-{f}" for e, f in ALL_FUNCTIONS])
def test_every_function_has_two_correct_alternatives(exercise: str, function: str) -> None:
    """A false negative weighs as much as a false positive: at least two other right answers keep full marks."""
    own = [alternative for alternative in FOLDERS[exercise].alternatives() if alternative.function == function]
    assert len(own) >= 2, f"{function} has {len(own)} correct alternatives"
