"""``tensorlab exercise validate DIR``: an exercise proves its checks before any student sees it.

What it proves, each through the same two paths a student's answer takes (the notebook's ``check()``
on the released public cases, and the autograder under several course seeds):

- the folder is well formed: every task has its test cell, its solution cell and clause cases, and
  every test cell checks a task (``ExerciseFolder.problems``);
- the solution passes ``check()`` and scores full marks under every seed;
- the released notebook (solutions replaced by nbgrader's stub) scores zero;
- every mutant fails ``check()`` and scores zero under every seed;
- every correct alternative passes ``check()`` and keeps full marks under every seed.

``tests/test_mutants.py`` runs the same functions, one test per mutant.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from tensorlab.grading.check import CheckFailed, check_cells
from tensorlab.grading.extract import is_locked_test_cell, program_of
from tensorlab.grading.public_cases import decode_document
from tensorlab.grading.tasks import Case
from tensorlab.grading.verify import Grading, judge, run_in_sandbox

from .exercise import ExerciseFolder, load_folder

__all__ = ["DEFAULT_SEEDS", "Finding", "check_failure", "check_verdict", "code_cells", "grader_scores", "released_scores", "validate"]

DEFAULT_SEEDS = tuple(20240613 + 7919 * k for k in range(10))


@dataclass(frozen=True)
class Finding:
    """One thing validate proved or failed to prove."""

    what: str  # "solution of f", "mutant f: off-by-one", ...
    ok: bool
    detail: str = ""


@cache
def public(folder: ExerciseFolder) -> tuple[Grading, dict[str, list[Case]]]:
    """The public cases exactly as a student's check() reads them: through the released JSON."""
    grading, cases = decode_document(json.loads(folder.public_text()))
    return replace(grading, library=folder.grading.library), cases  # its mytorch: the course's, as in grading


def code_cells(folder: ExerciseFolder, function: str | None = None, answer: str | None = None) -> dict[int, str]:
    """The solution notebook's code cells (locked tests left out), ``function``'s answer cell replaced by ``answer``."""
    cells = {}
    for number, cell in enumerate(folder.notebook.cells, start=1):
        if cell.cell_type != "code" or is_locked_test_cell(cell):
            continue
        grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id", "")
        cells[number] = answer if answer is not None and grade_id == f"{function}_solution" else cell.source
    return cells


def check_failure(folder: ExerciseFolder, function: str, cells: dict[int, str]) -> CheckFailed | None:
    """What ``check()`` stops with (its message and verdict), or None when it passes."""
    try:
        check_cells(function, cells, public(folder))
    except CheckFailed as failure:
        return failure
    return None


def check_verdict(folder: ExerciseFolder, function: str, cells: dict[int, str]) -> str:
    """``"passed"``, or the message ``check()`` stops with."""
    failure = check_failure(folder, function, cells)
    return "passed" if failure is None else str(failure)


@cache
def cases_per_seed(folder: ExerciseFolder, function: str, seeds: tuple[int, ...]) -> tuple[list[Case], ...]:
    """The public cases, then each seed's secret cases: the grader grades on both (``Task.graded_cases``),
    and the public block runs once for every seed."""
    task = folder.tasks[function]
    return (task.public_cases(), *(task.cases(seed) for seed in seeds))


def grader_scores(folder: ExerciseFolder, function: str, cells: dict[int, str],
                  seeds: tuple[int, ...] = DEFAULT_SEEDS) -> list[float]:
    """The function's score under each seed, graded as the autograder does (one sandbox run for all seeds)."""
    program, grading = program_of(cells), folder.grading
    chosen = grading.find(function)
    rules = chosen.rules
    if rules.violations(program.statements):
        return [0.0] * len(seeds)
    blocks = cases_per_seed(folder, function, seeds)
    everything = [case for block in blocks for case in block]
    lines, ending = run_in_sandbox(program, [(chosen, everything)], grading.timeout, grading.memory_mb,
                                   library=grading.library)[function]
    scores, start = [], 0
    for block in blocks:
        mine = lines[start:start + len(block)]
        start += len(block)
        scores.append(judge(chosen, block, mine, ending if len(mine) < len(block) else "exited", grading.timeout).score)
    public, *secret = scores
    return [score if public == chosen.points else 0.0 for score in secret]


def released_scores(folder: ExerciseFolder, seed: int = DEFAULT_SEEDS[0]) -> dict[str, float]:
    """Each function's score for the notebook exactly as students get it (nbgrader's release preprocessors)."""
    import nbformat

    from tensorlab.grading.verify import verify_program

    from .student_tree import released_notebook

    released = nbformat.reads(released_notebook(folder.notebook_path), as_version=4)
    cells = {number: cell.source for number, cell in enumerate(released.cells, start=1)
             if cell.cell_type == "code" and not is_locked_test_cell(cell)}
    result = verify_program(program_of(cells), folder.grading, folder.cases(seed))
    return {function.name: function.score for function in result.functions}


def findings(folder: ExerciseFolder, seeds: tuple[int, ...]) -> Iterator[Finding]:
    """Every proof, in order: solution, released notebook, mutants, alternatives."""
    grading, cells = folder.grading, code_cells(folder)
    for graded in grading.graded:
        verdict, scores = check_verdict(folder, graded.name, cells), grader_scores(folder, graded.name, cells, seeds)
        problems = ([verdict] if verdict != "passed" else []) + (
            [f"the grader gives it {scores}"] if scores != [graded.points] * len(seeds) else [])
        yield Finding(f"solution of {graded.name}", not problems, "; ".join(problems))
    released = released_scores(folder, seeds[0])
    earned = {name: score for name, score in released.items() if score}
    yield Finding("released notebook scores zero", not earned, f"it earns {earned}" if earned else "")
    for mutant in folder.mutants():
        cells = code_cells(folder, mutant.function, mutant.source)
        verdict, scores = check_verdict(folder, mutant.function, cells), grader_scores(folder, mutant.function, cells, seeds)
        problems = (["check() passes it"] if verdict == "passed" else []) + (
            [f"the grader gives it {scores}"] if any(scores) else [])
        yield Finding(f"mutant {mutant.function}: {mutant.mistake}", not problems, "; ".join(problems))
    for alternative in folder.alternatives():
        cells = code_cells(folder, alternative.function, alternative.source)
        points = grading.find(alternative.function).points
        verdict = check_verdict(folder, alternative.function, cells)
        scores = grader_scores(folder, alternative.function, cells, seeds)
        problems = ([verdict] if verdict != "passed" else []) + (
            [f"the grader gives it {scores}"] if scores != [points] * len(seeds) else [])
        yield Finding(f"alternative {alternative.function}: {alternative.approach}", not problems, "; ".join(problems))


def validate(path: Path, seeds: tuple[int, ...] = DEFAULT_SEEDS, say: Callable[[str], None] = print) -> bool:
    """Prove the exercise in ``path``, saying each finding; True when every one holds."""
    folder = load_folder(path)
    mutants, alternatives = folder.mutants(), folder.alternatives()
    say(f"{folder.name}: {len(folder.tasks)} graded functions, {folder.grading.max_score:g} points, "
        f"{len(mutants)} mutants, {len(alternatives)} alternatives, {len(seeds)} course seeds")
    failed = 0
    for finding in findings(folder, seeds):
        failed += not finding.ok
        say(f"{'✓' if finding.ok else '✗'} {finding.what}" + (f": {finding.detail}" if finding.detail else ""))
    say(f"{folder.name}: {'valid' if not failed else f'{failed} check(s) failed'}")
    return not failed
