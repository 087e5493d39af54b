"""``tensorlab exercise misconceptions DIR``: fingerprint each mutant's outcomes, for check()'s third tier.

Each mutant is graded on the public cases exactly as a learner's answer is (``check()``'s path), twice;
a mutant that fails by its values ("wrong", not refused by a rule), the same way both times, leaves a fingerprint
(``tensorlab/grading/misconceptions.py``). ``misconceptions.json`` in the exercise's folder maps each
graded function to ``[fingerprint, mistake, nudge]`` rows, and records what they were made from (a
digest of the public cases and the mutants, ``made_from``); the released cases file carries the rows in
the function's rules, so ``check()`` can name the mistake a learner's answer repeats. Run it again
after changing mutants or cases: ``tests/test_mutants.py`` fails when ``made_from`` no longer matches.
"""

from __future__ import annotations

import hashlib
import json

from tensorlab.grading.extract import program_of
from tensorlab.grading.public_cases import encode_case
from tensorlab.grading.verify import Grading, verify_program

from .exercise import MISCONCEPTIONS_FILE, ExerciseFolder
from .validate import code_cells, public

__all__ = ["made_from", "mutant_fingerprints", "write_misconceptions"]


def made_from(folder: ExerciseFolder) -> str:
    """A digest of what the fingerprints depend on: every public case and every mutant (not the rows themselves)."""
    cases = {name: [encode_case(case) for case in found] for name, found in folder.cases(None).items()}
    mutants = [[mutant.function, mutant.mistake, mutant.source, mutant.nudge] for mutant in folder.mutants()]
    return hashlib.sha256(json.dumps([cases, mutants], sort_keys=True).encode()).hexdigest()[:20]


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
    """Write the folder's misconceptions.json (``folder`` must not have read the old one yet); its path."""
    path = folder.path / MISCONCEPTIONS_FILE
    path.unlink(missing_ok=True)  # made again from scratch: an old or damaged file is never read on the way
    document = {"made_from": made_from(folder), "functions": mutant_fingerprints(folder)}
    path.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return str(path)
