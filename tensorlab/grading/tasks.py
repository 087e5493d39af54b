"""Tasks: the functions exercises ask learners to write, each with its reference and its cases.

A task knows everything about one graded function that is safe for learners to see: the
reference that computes the right answer (tensorlab itself), the example cases shown in the
notebook, a generator of random cases, the tolerance, the functions it may not call, and a
hint. Which tasks an exercise grades, for how many points and on how many secret random cases
is the grader's business (``exercises/<unit>/spec.py``).
"""

from __future__ import annotations

import copy
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .compare import Raised, Tolerance, difference

__all__ = ["PUBLIC_SEED", "Task", "all_tasks", "expected_outcome", "find_task", "task"]

PUBLIC_SEED = 0  # random cases anyone may see: the in-notebook check and `tensorlab check`
PUBLIC_RANDOM_CASES = 4

Case = tuple  # the positional arguments of one call, as plain data


@dataclass(frozen=True)
class Task:
    name: str
    reference: Callable[..., Any]
    examples: Sequence[Case]
    random_case: Callable[[np.random.Generator], Case]
    hint: str
    tolerance: Tolerance = field(default_factory=Tolerance)
    forbidden: tuple[str, ...] = ()  # dotted names, e.g. "numpy.take_along_axis"
    forbid_loops: bool = False  # the vectorised parts: no `for` or `while` statements
    accept: Callable[[Case, Any, Any], str | None] | None = None  # (case, expected, got) -> problem
    argument_names: tuple[str, ...] = field(default=())

    def cases(self, seed: int, random_cases: int) -> list[Case]:
        """The examples, then ``random_cases`` random cases drawn from ``seed`` (and the name)."""
        rng = np.random.default_rng([seed, zlib.crc32(self.name.encode())])
        return list(self.examples) + [self.random_case(rng) for _ in range(random_cases)]

    def public_cases(self) -> list[Case]:
        return self.cases(PUBLIC_SEED, PUBLIC_RANDOM_CASES)

    def problem(self, case: Case, expected: Any, got: Any) -> str | None:
        """None when ``got`` is right for ``case``; else what is wrong."""
        if self.accept is not None and not isinstance(expected, Raised) and not isinstance(got, Raised):
            return self.accept(case, expected, got)
        return difference(expected, got, self.tolerance)

    def describe_call(self, case: Case) -> str:
        from .compare import describe

        return f"{self.name}({', '.join(describe(argument, 60) for argument in case)})"


def expected_outcome(task: Task, case: Case) -> Any:
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
