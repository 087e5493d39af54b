"""``check(name, function)``: the one-line test cells of the exercise notebooks.

It grades the learner's function exactly as the autograder will, on the public cases: the same
static rules (building blocks, forbidden functions, loops), the same sandboxed child process
(where the reference cannot be imported), the same comparison, only with the public seed
instead of the course's secret one. So a check that passes here fails in grading only on a
hidden random case, never because the two disagree about the rules. The code it grades is what
the kernel ran: the notebook's cells from the kernel's history (outside IPython, the function's
module). It prints what passed, or stops with a message written for a learner: the call,
expected vs got, the sentence of the statement at stake, and a hint. Feedback only: the score
is computed by the autograder, outside the notebook's kernel.
"""

from __future__ import annotations

import inspect
import sys
import textwrap
from collections.abc import Callable
from typing import Any

from .tasks import find_task

__all__ = ["CheckFailed", "check", "check_cells"]

class CheckFailed(AssertionError):  # noqa: N818 - reads better in a learner's notebook
    """A check did not pass; Jupyter shows only the message, not a traceback."""

    def _render_traceback_(self) -> list[str]:
        return str(self).splitlines()


def kernel_cells(function: Callable[..., Any]) -> dict[int, str]:
    """The code the kernel ran, numbered: IPython's input history, else the function's module and source."""
    shell = sys.modules["IPython"].get_ipython() if "IPython" in sys.modules else None
    if shell is not None and getattr(shell, "history_manager", None) is not None:
        return dict(enumerate(shell.history_manager.input_hist_raw))
    cells: dict[int, str] = {}
    for number, source in enumerate((module_source(function), function_source(function)), start=1):
        if source:
            cells[number] = source
    return cells


def module_source(function: Callable[..., Any]) -> str:
    try:
        return inspect.getsource(sys.modules[function.__module__])
    except (KeyError, AttributeError, OSError, TypeError):
        return ""


def function_source(function: Callable[..., Any]) -> str:
    try:
        return textwrap.dedent(inspect.getsource(function))
    except (OSError, TypeError):
        return ""


def check(name: str, function: Callable[..., Any]) -> None:
    """Grade ``function`` on the public cases of the task called ``name``, as the autograder does."""
    find_task(name)  # an unknown name is the notebook's mistake: say so before anything runs
    if not callable(function):
        raise CheckFailed(f"✗ {name}: expected a function, got {type(function).__name__}")
    cells = kernel_cells(function)
    alias = getattr(function, "__name__", name)
    if alias != name and alias.isidentifier():  # ``check("f", g)``: grade g's code under the name f
        cells[max(cells, default=0) + 1] = f"{name} = {alias}"
    check_cells(name, cells)


def check_cells(name: str, cells: dict[int, str]) -> None:
    """Grade the function ``name`` that these code cells define, on the public cases; raise CheckFailed if wrong."""
    from autograder.extract import program_of
    from autograder.spec import Exercise, Graded
    from autograder.verify import exercise_cases, verify_program

    exercise = Exercise(notebook="", graded=(Graded(name, points=1.0),))  # the grader's default time and memory
    (result,) = verify_program(program_of(cells), exercise, exercise_cases(exercise, None)).functions
    if result.outcome != "passed":
        raise CheckFailed(f"✗ {name}: {result.message}")
    print(f"✓ {name}: all {result.cases} checks passed (the rules, and {result.cases} public cases run as the grader runs them)")
