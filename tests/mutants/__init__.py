"""Known-wrong solutions of every exercise: each must lose its points in check() and in the grader.

A mutant is the whole answer cell of one graded function, written the way a learner really
gets it wrong (an off-by-one dim, a forgotten keepdim, a copy where a view is asked, a loop
dressed as vectorised, a call into the reference). ``tests/test_mutants.py`` puts it in place
of the solution cell of the exercise's notebook and asserts that the in-notebook ``check()``
refuses it and that the grader gives the function zero under each of ten course seeds.
Adding an exercise: write ``tests/mutants/<notebook>.py`` with ``MUTANTS = [Mutant(...), ...]``,
at least eight per graded function (see docs/instructors.md).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Mutant"]


@dataclass(frozen=True)
class Mutant:
    function: str  # the graded function it gets wrong
    mistake: str  # what a learner did, in a few words (the test id)
    source: str  # the whole answer cell that replaces the solution's
