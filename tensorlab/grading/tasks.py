"""What an exercise is made of: tasks (one per graded function), the cases they are graded on, and the
rules a learner may see.

A ``Task`` is the instructor's whole knowledge of one graded function: the reference that computes the
right answer, the example cases shown in the notebook, one fixed case per clause of the statement, a
generator of random cases, and the ``Rules`` (tolerance, building blocks, forbidden functions, loops,
views, hint). Tasks live in the exercise's own folder (``exercises/NN-topic/tasks.py``), never in this
package: only the types are here. What a student's ``check()`` reads is ``Rules`` and the public cases,
both as plain data in the released ``tensorlab-cases.json`` (``public_cases.py``).
"""

from __future__ import annotations

import ast
import copy
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from .acceptors import ACCEPTORS
from .compare import Raised, Tolerance, difference, pasteable
from .rules import PURE_STANDARD_LIBRARY, rule_violations

__all__ = [
    "PUBLIC_RANDOM_CASES", "PUBLIC_SEED", "Alternative", "Case", "Clause", "Exercise", "Mutant", "Rules", "Task",
    "expected_outcome",
]

PUBLIC_SEED = 0  # random cases anyone may see: the in-notebook check and `tensorlab check`
PUBLIC_RANDOM_CASES = 20
CALL_SHOWN = 800  # characters: a longer failing call is given as public_case(name, number) instead

Arguments = tuple  # the positional arguments of one call, as plain data


@dataclass(frozen=True)
class Clause:
    """A fixed case that tests one sentence of the exercise's statement (its feedback quotes it)."""

    says: str
    arguments: Arguments


@dataclass(frozen=True)
class Case:
    """One call to grade: its arguments, the reference's outcome, and what else the answer must honour."""

    arguments: Arguments
    expected: Any
    visible: bool  # may feedback describe it (examples, clauses, public cases) or is it secret
    clause: str = ""  # the statement's sentence this case tests, if it is a clause case
    view_strides: tuple[int, ...] | None = None  # the result must be a view with these element strides
    large: bool = False  # the large case of a vectorised part: its count of executed lines is compared (vectorised.py)


@dataclass(frozen=True, kw_only=True)
class Rules:
    """How one graded function is judged, beyond its values: all of it safe to hand to a learner."""

    name: str  # the function the learner writes
    hint: str
    tolerance: Tolerance = field(default_factory=Tolerance)
    forbidden: tuple[str, ...] = ()  # dotted names, e.g. "numpy.take_along_axis"
    vectorised: bool = False  # no Python-level loop over elements (see vectorised.py): lines counted on a large case
    loops_over_dimensions: bool = False  # a vectorised part may loop over dimensions: only the count decides
    building_blocks: tuple[str, ...] = ("numpy", *PURE_STANDARD_LIBRARY)  # the modules it may import
    view_of: int | None = None  # the result must be a view of this argument
    returns_itself: bool = False  # with view_of: the result must be that argument itself (an in-place op's self)
    keeps_inputs: bool = True  # the inputs must be unchanged after the call
    fresh_result: bool = False  # the result must be a new array: sharing memory with an input (or being it) fails
    accept: str | None = None  # the acceptor (acceptors.py) that judges a result, when one answer is not the only one
    only: tuple[str, ...] | None = None  # when set: the only attributes and builtins it may use (the puzzles)
    allowed: tuple[str, ...] | None = None  # its allow-list: NumPy functions, methods, builtins beyond COMMON_NAMES
    refused_operators: tuple[str, ...] = ()  # operators it may not use, as written: "**", "^" (rules.OPERATOR_SYMBOLS)
    no_mask_indexing: bool = False  # array arguments refuse a boolean array as a subscript (x[mask] by hand)
    ranks: int = 0  # >0: each case runs on this many real gloo processes on loopback, through ``harness``
    harness: str | None = None  # "module:function" the sandbox runs each case through (harnesses/)
    # ranks: (function, arguments, rank, groups) -> this rank's result or None; no ranks: (function, arguments)
    # -> the case's result (Triton launches); its file's prepare(), if any, runs once before lock-down
    at_least_seconds: float = 0.0  # the sandbox's time for this function is never less (starting torch and ranks)
    at_least_memory_mb: int = 0  # nor its address space (torch's libraries)
    # known wrong readings, recognised by their outcomes on the public cases (misconceptions.py):
    # (fingerprint, the mistake's name, a nudge); filled from the exercise's misconceptions.json, never by hand
    misconceptions: tuple[tuple[str, str, str], ...] = ()

    def problem(self, case: Arguments, expected: Any, got: Any) -> str | None:
        """None when ``got`` is right for ``case``; else what is wrong."""
        if self.accept is not None and not isinstance(expected, Raised) and not isinstance(got, Raised):
            return ACCEPTORS[self.accept](case, expected, got)
        return difference(expected, got, self.tolerance)

    def violations(self, statements: Sequence[ast.stmt]) -> list[str]:
        """What the code breaks of this function's static rules (rules.py): the grader and check() ask here."""
        return rule_violations(statements, self.name, self.forbidden, self.vectorised, self.building_blocks, self.only,
                               self.allowed, self.loops_over_dimensions, self.refused_operators)

    def describe_call(self, case: Arguments, number: int) -> str:
        """The failing call, whole, to paste into a cell; one that is too long to read is fetched by its number."""
        call = f"{self.name}({', '.join(pasteable(argument) for argument in case)})"
        if len(call) <= CALL_SHOWN:
            return call
        return (f"(its inputs are too long to print) args = public_case({self.name!r}, {number}); "
                f"{self.name}(*args)")


@dataclass(frozen=True, kw_only=True)
class Task(Rules):
    """One graded function as its author knows it: the rules, the reference and where its cases come from."""

    reference: Callable[..., Any]
    examples: Sequence[Arguments]
    random_case: Callable[[np.random.Generator], Arguments]
    inputs: str = ""  # the statement's sentence naming every kind of input random_case draws (the notebook quotes it)
    clauses: Sequence[Clause] = ()
    random_cases: int = 20  # secret random cases per course seed
    view_strides: Callable[..., tuple[int, ...]] | None = None  # a view's strides for a case (with view_of)
    large_case: Callable[[np.random.Generator], Arguments] | None = None  # a large input, for vectorised parts
    # (a few thousand elements: enough that a loop over them runs thousands of lines; public, like the others)

    def rules(self) -> Rules:
        """The part of the task a learner may see."""
        return Rules(**{spec.name: getattr(self, spec.name) for spec in fields(Rules)})

    def arguments(self, seed: int, random_cases: int) -> list[Arguments]:
        """The examples, the clause cases, then ``random_cases`` random cases drawn from ``seed`` (and the name)."""
        rng = self.rng(seed)
        fixed = list(self.examples) + [clause.arguments for clause in self.clauses]
        return fixed + [self.random_case(rng) for _ in range(random_cases)]

    def rng(self, seed: int) -> np.random.Generator:
        return np.random.default_rng([seed, zlib.crc32(self.name.encode())])

    def cases(self, seed: int, random_cases: int | None = None, visible: bool = False) -> list[Case]:
        """Every case graded under ``seed``, with expected outcomes; ``visible`` for the public seed."""
        random_cases = self.random_cases if random_cases is None else random_cases
        fixed = len(self.examples) + len(self.clauses)
        says = [""] * len(self.examples) + [clause.says for clause in self.clauses]
        cases = []
        for number, arguments in enumerate(self.arguments(seed, random_cases)):
            expected = expected_outcome(self, arguments)
            cases.append(Case(arguments, expected, visible or number < fixed, says[number] if number < fixed else "",
                              self.expected_strides(arguments, expected)))
        if self.vectorised and self.large_case is not None:
            arguments = self.large_case(self.rng(seed + 1))
            expected = expected_outcome(self, arguments)
            cases.append(Case(arguments, expected, visible, "", self.expected_strides(arguments, expected), large=True))
        return cases

    def public_cases(self) -> list[Case]:
        """What ``check()`` grades on, and the grader too (before the secret ones): examples, clauses, the
        public random cases and the large case of a vectorised part."""
        return self.cases(PUBLIC_SEED, PUBLIC_RANDOM_CASES, visible=True)

    def graded_cases(self, seed: int) -> list[Case]:
        """What the grader grades on under the course's secret ``seed``: every public case, then the secret
        ones (a bug that ``check()`` shows never earns marks because the secret seed missed it). Secret cases
        that repeat a public one (the examples and clauses) are left out."""
        public = self.public_cases()
        fixed = len(self.examples) + len(self.clauses)
        return public + self.cases(seed)[fixed:]

    def expected_strides(self, arguments: Arguments, expected: Any) -> tuple[int, ...] | None:
        if self.view_of is None or self.view_strides is None or isinstance(expected, Raised):
            return None
        return tuple(self.view_strides(*arguments))


@dataclass(frozen=True)
class Exercise:
    """An exercise's tasks, in the order of its notebook, and the sandbox's limits per graded function.

    Points are not here: they are the nbgrader points of the notebook's test cells, the one place
    nbgrader reads them from.
    """

    notebook: str  # the notebook's file name without .ipynb, in the same folder
    tasks: tuple[Task, ...]
    timeout: float = 10.0  # seconds per graded function (all of its cases)
    memory_mb: int = 1024


@dataclass(frozen=True)
class Mutant:
    """A known-wrong answer cell: it must lose its function's points in check() and in the grader."""

    function: str  # the graded function it gets wrong
    mistake: str  # what a learner did, in a few words (the test id; check() may name it to a learner)
    source: str  # the whole answer cell that replaces the solution's
    nudge: str = ""  # a question for a learner whose answer returns what this mutant returns (never the fix)


@dataclass(frozen=True)
class Alternative:
    """A correct answer cell written another way than the solution's: it must keep full marks."""

    function: str
    approach: str  # how it differs from the solution, in a few words (the test id)
    source: str


def expected_outcome(task: Task, case: Arguments) -> Any:
    """What the reference returns for ``case`` (a Raised for an exception)."""
    try:
        return task.reference(*copy.deepcopy(case))
    except Exception as error:  # the reference's exceptions are part of the specification
        return Raised(builtin_class_name(type(error)), str(error))


def builtin_class_name(kind: type) -> str:
    """The first built-in exception class in ``kind``'s ancestry (a subclass counts as its base)."""
    import builtins

    for base in kind.__mro__:
        if getattr(builtins, base.__name__, None) is base:
            return base.__name__
    return "Exception"
