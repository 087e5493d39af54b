"""``tensorlab exercise misconceptions DIR``: fingerprint each mutant's outcomes, for check()'s third tier.

Each mutant is graded on the public cases exactly as a learner's answer is (``check()``'s path), twice;
a mutant that fails by its values ("wrong", not refused by a rule), the same way both times, leaves a fingerprint
(``tensorlab/grading/misconceptions.py``). ``misconceptions.json`` in the exercise's folder maps each
graded function to ``[fingerprint, mistake, nudge]`` rows; the released cases file carries them in
the function's rules, so ``check()`` can name the mistake a learner's answer repeats. Run it again
after changing mutants or cases: ``tests/test_mutants.py`` fails on a stale row.
"""

from __future__ import annotations

import json

from tensorlab.grading.extract import program_of
from tensorlab.grading.verify import Grading, verify_program

from .exercise import MISCONCEPTIONS_FILE, ExerciseFolder
from .validate import code_cells, public

__all__ = ["mutant_fingerprints", "write_misconceptions"]


def mutant_fingerprints(folder: ExerciseFolder) -> dict[str, list[list[str]]]:
    """Function -> one row per distinct wrong outcome: [fingerprint, the first mutant's mistake, its nudge]."""
    grading, cases = public(folder)
    found: dict[str, list[list[str]]] = {}
    for mutant in folder.mutants():
        graded = grading.find(mutant.function)
        if graded.rules.ranks:  # real processes per case: too slow to fingerprint, and no such mutant is subtle
            continue
        one = Grading(grading.notebook, (graded,), grading.timeout, grading.memory_mb)
        program = program_of(code_cells(folder, mutant.function, mutant.source))
        first, again = (verify_program(program, one, {mutant.function: cases[mutant.function]}).functions[0]
                        for _ in range(2))
        rows = found.setdefault(mutant.function, [])
        steady = first.fingerprint == again.fingerprint  # a mutant that reads past an array's end differs run to run
        result = first
        if result.outcome == "wrong" and steady and all(row[0] != result.fingerprint for row in rows):
            rows.append([result.fingerprint, mutant.mistake, mutant.nudge])
    return {function: rows for function, rows in found.items() if rows}


def write_misconceptions(folder: ExerciseFolder) -> str:
    """Write the folder's misconceptions.json; its path."""
    path = folder.path / MISCONCEPTIONS_FILE
    path.write_text(json.dumps(mutant_fingerprints(folder), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return str(path)
