"""Exercise specs: which functions an exercise grades, for how many points, on which cases.

A spec is a small Python file, ``exercises/<assignment>/spec.py``, that defines
``EXERCISE = Exercise(...)``. The tasks it names (references, example cases, random case
generators, tolerances, forbidden functions, hints) live in ``tensorlab.grading``; the spec
adds what only the grader decides: points, how many secret random cases, extra forbidden
functions, and the time and memory each function may use.
"""

from __future__ import annotations

import runpy
from dataclasses import dataclass
from pathlib import Path

from tensorlab.grading.tasks import Case, Task, find_task

__all__ = ["Case", "Exercise", "Graded", "load_exercise"]


@dataclass(frozen=True)
class Graded:
    name: str  # the function the learner writes, and the task that checks it
    points: float
    random_cases: int = 20
    forbidden: tuple[str, ...] = ()  # on top of the task's own

    @property
    def task(self) -> Task:
        return find_task(self.name)

    @property
    def grade_id(self) -> str:
        """The nbgrader grade cell that holds this function's score."""
        return f"test_{self.name}"

    def all_forbidden(self) -> tuple[str, ...]:
        return self.task.forbidden + self.forbidden


@dataclass(frozen=True)
class Exercise:
    notebook: str  # the notebook's file name without .ipynb
    graded: tuple[Graded, ...]
    timeout: float = 10.0  # seconds per graded function (all of its cases)
    memory_mb: int = 1024

    @property
    def max_score(self) -> float:
        return sum(graded.points for graded in self.graded)

    def cases(self, graded: Graded, seed: int) -> list[Case]:
        """Examples and clause cases (visible), then random cases from the course's secret seed."""
        return graded.task.cases(seed, graded.random_cases)


def load_exercise(path: Path) -> Exercise:
    """The ``EXERCISE`` a spec file defines."""
    exercise = runpy.run_path(str(path)).get("EXERCISE")
    if not isinstance(exercise, Exercise):
        raise ValueError(f"{path} must define EXERCISE = Exercise(...)")
    return exercise
