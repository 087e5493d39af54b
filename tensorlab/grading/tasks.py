"""Tasks: the functions exercises ask learners to write, each with its reference and its cases.

A task knows everything about one graded function that is safe for learners to see: the
reference that computes the right answer (tensorlab itself), the example cases shown in the
notebook, one fixed case per clause of the statement, a generator of random cases, the
tolerance, the building blocks it may use and the functions it may not call, whether it must
be vectorised or return a view, and a hint. Which tasks an exercise grades, for how many points and on how many secret random cases
is the grader's business (``exercises/<unit>/spec.py``).
"""

from __future__ import annotations

import copy
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .compare import Raised, Tolerance, difference
from .rules import PURE_STANDARD_LIBRARY

__all__ = ["PUBLIC_SEED", "Case", "Clause", "Task", "all_tasks", "expected_outcome", "find_task", "task"]

PUBLIC_SEED = 0  # random cases anyone may see: the in-notebook check and `tensorlab check`
PUBLIC_RANDOM_CASES = 20
TIME_FACTOR = 25.0  # a vectorised answer may take this many times the reference on the timed case...
TIME_FLOOR = 0.3  # ...or this many seconds, whichever is more: a slow machine never fails a right answer

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
    time_limit: float | None = None  # seconds, for the timed case of a vectorised part


@dataclass(frozen=True)
class Task:
    name: str
    reference: Callable[..., Any]
    examples: Sequence[Arguments]
    random_case: Callable[[np.random.Generator], Arguments]
    hint: str
    tolerance: Tolerance = field(default_factory=Tolerance)
    forbidden: tuple[str, ...] = ()  # dotted names, e.g. "numpy.take_along_axis"
    vectorised: bool = False  # no Python-level loop over elements (see vectorised.py), and a timed case
    building_blocks: tuple[str, ...] = ("numpy", *PURE_STANDARD_LIBRARY)  # the modules it may import
    clauses: Sequence[Clause] = ()
    view_of: int | None = None  # the result must be a view of this argument...
    view_strides: Callable[..., tuple[int, ...]] | None = None  # ...with the strides this gives for the case
    keeps_inputs: bool = True  # the inputs must be unchanged after the call
    timed_case: Callable[[np.random.Generator], Arguments] | None = None  # a large input, for vectorised parts
    accept: Callable[[Arguments, Any, Any], str | None] | None = None  # (case, expected, got) -> problem
    only: tuple[str, ...] | None = None  # when set: the only attributes and builtins it may use (the puzzles)
    no_mask_indexing: bool = False  # array arguments refuse a boolean array as a subscript (x[mask] by hand)
    ranks: int = 0  # >0: each case runs on this many real gloo processes on loopback, through ``harness``
    harness: Callable[..., Any] | None = None  # ranks: (function, arguments, rank, groups) -> this rank's result or None;
    # no ranks: (function, arguments) -> the case's result, in the function's sandboxed process (Triton launches);
    # its file's prepare(), if any, runs once before lock-down
    at_least_seconds: float = 0.0  # the sandbox's time for this function is never less (starting torch and ranks)
    at_least_memory_mb: int = 0  # nor its address space (torch's libraries)

    def arguments(self, seed: int, random_cases: int) -> list[Arguments]:
        """The examples, the clause cases, then ``random_cases`` random cases drawn from ``seed`` (and the name)."""
        rng = self.rng(seed)
        fixed = list(self.examples) + [clause.arguments for clause in self.clauses]
        return fixed + [self.random_case(rng) for _ in range(random_cases)]

    def rng(self, seed: int) -> np.random.Generator:
        return np.random.default_rng([seed, zlib.crc32(self.name.encode())])

    def cases(self, seed: int, random_cases: int, visible: bool = False) -> list[Case]:
        """Every case graded under ``seed``, with expected outcomes; ``visible`` for the public seed."""
        fixed = len(self.examples) + len(self.clauses)
        says = [""] * len(self.examples) + [clause.says for clause in self.clauses]
        cases = []
        for number, arguments in enumerate(self.arguments(seed, random_cases)):
            expected = expected_outcome(self, arguments)
            cases.append(Case(arguments, expected, visible or number < fixed, says[number] if number < fixed else "",
                              self.expected_strides(arguments, expected)))
        if self.vectorised and self.timed_case is not None:
            arguments = self.timed_case(self.rng(seed + 1))
            expected, seconds = self.timed_reference(arguments)
            limit = max(TIME_FACTOR * seconds, TIME_FLOOR)
            cases.append(Case(arguments, expected, visible, "", self.expected_strides(arguments, expected), limit))
        return cases

    def timed_reference(self, arguments: Arguments, runs: int = 3) -> tuple[Any, float]:
        """The reference's outcome and its best time of a few runs (one slow moment under load does not count)."""
        best, expected = float("inf"), None
        for _ in range(runs):
            started = time.perf_counter()
            expected = expected_outcome(self, arguments)
            best = min(best, time.perf_counter() - started)
        return expected, best

    def public_cases(self) -> list[Case]:
        return self.cases(PUBLIC_SEED, PUBLIC_RANDOM_CASES, visible=True)

    def expected_strides(self, arguments: Arguments, expected: Any) -> tuple[int, ...] | None:
        if self.view_of is None or self.view_strides is None or isinstance(expected, Raised):
            return None
        return tuple(self.view_strides(*arguments))

    def problem(self, case: Arguments, expected: Any, got: Any) -> str | None:
        """None when ``got`` is right for ``case``; else what is wrong."""
        if self.accept is not None and not isinstance(expected, Raised) and not isinstance(got, Raised):
            return self.accept(case, expected, got)
        return difference(expected, got, self.tolerance)

    def describe_call(self, case: Arguments) -> str:
        from .compare import describe

        return f"{self.name}({', '.join(describe(argument, 60) for argument in case)})"


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


_TASKS: dict[str, Task] = {}


def task(new: Task) -> Task:
    """Register ``new`` so that ``check(new.name, ...)`` can find it."""
    if new.name in _TASKS:
        raise ValueError(f"task {new.name!r} is defined twice")
    _TASKS[new.name] = new
    return new


def all_tasks() -> dict[str, Task]:
    from . import units  # noqa: F401 - importing the units registers their tasks

    return _TASKS


def find_task(name: str) -> Task:
    tasks = all_tasks()
    if name not in tasks:
        raise KeyError(f"no graded function called {name!r}; known: {', '.join(sorted(tasks))}")
    return tasks[name]
