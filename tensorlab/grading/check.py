"""``check(name, function)``: the one-line test cells of the exercise notebooks.

It grades the learner's function exactly as the autograder will, on the public cases that came
with the exercise (``tensorlab-cases.json``, next to the notebook): the same static rules
(building blocks, forbidden functions, loops), the same sandboxed child process (where the
reference cannot be imported), the same comparison; the autograder adds hidden cases. So a
check that passes here fails in grading only on a hidden random case, never because the two
disagree about the rules. The code it grades is what
the kernel ran: the notebook's cells from the kernel's history (outside IPython, the function's
module). It prints what passed, or feedback in tiers, written for a learner:

1. the failing call, whole, as code to paste into a cell (or, when its inputs are too long to print,
   ``args = public_case(name, number)``), what is wrong with the result, and the sentence of the
   statement at stake;
2. the same failure again (same function, same case, same problem): also a question that points at
   the concept (the task's hint: it never holds code or the answer);
3. a third time, when the answer returns on every public case exactly what a known wrong reading
   returns (an exercise's mutant, ``misconceptions.py``): that mistake, named, with its nudge.

Feedback only: the score is computed by the autograder, outside the notebook's kernel. So a failing
check never stops the notebook: its verdict goes to stderr (Jupyter shows it red) and the next cells
still run under Run All. ``check_cells``, the same grading for the grader and ``tensorlab check``,
raises ``CheckFailed`` instead.
"""

from __future__ import annotations

import ast
import copy
import inspect
import os
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .drawing import drawable, failure_svg
from .extract import Program, program_of
from .public_cases import CASES_FILE, PublicCasesError, read_cases_file
from .student_library import describe, unit_number, uses_library
from .tasks import Case
from .verify import FunctionResult, Grading, verify_program

__all__ = ["CheckFailed", "Verdict", "check", "check_cells", "public_case"]

SEEN_FAILURES: dict[str, tuple[str, int]] = {}  # function name -> its last failure's message, and how often in a row

class CheckFailed(AssertionError):  # noqa: N818 - reads better in a learner's notebook
    """A check did not pass; Jupyter shows only the message, not a traceback. ``result``: the verdict, when
    the function was graded."""

    def __init__(self, message: str, result: FunctionResult | None = None) -> None:
        super().__init__(message)
        self.result = result

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


def cases_file() -> Path:
    """The released cases: ``$TENSORLAB_CASES`` if set, else ``tensorlab-cases.json`` in the working
    directory (Jupyter starts a notebook's kernel in the notebook's folder)."""
    return Path(os.environ.get("TENSORLAB_CASES") or Path.cwd() / CASES_FILE)


def public_cases(path: Path | None = None) -> tuple[Grading, dict[str, list[Case]]]:
    try:
        return read_cases_file(path or cases_file())
    except PublicCasesError as error:
        raise CheckFailed(f"✗ {error}") from None


@dataclass(frozen=True)
class Verdict:
    """What ``check()`` returns: true when it passed. It has already printed itself, so as a cell's last
    value it shows nothing (no ``Out[]`` repeating the verdict); ``assert check(...)`` still works."""

    passed: bool
    message: str

    def __bool__(self) -> bool:
        return self.passed

    def _ipython_display_(self) -> None:
        """Nothing: the verdict was printed when the check ran."""


def check(name: str, function: Callable[..., Any]) -> Verdict:
    """Grade ``function`` on the public cases of the graded function called ``name``, as the autograder does;
    print the verdict and return it, never raise it: the grade is computed outside the kernel, so a failing
    check has nothing to stop."""
    cases: dict[str, list[Case]] = {}
    try:
        grading, cases = public_cases()
        passed = check_cells(name, cells_to_grade(name, function, cases), (grading, cases))
    except CheckFailed as failure:
        print(failure, file=sys.stderr, flush=True)  # flushed, so it shows above the drawing
        if failure.result is not None and failure.result.outcome == "wrong":
            draw_failure(function, cases[name], failure.result.cases_passed)
        return Verdict(False, str(failure))
    return Verdict(True, passed)


def cells_to_grade(name: str, function: Callable[..., Any], cases: dict[str, list[Case]]) -> dict[int, str]:
    """The code the kernel ran, with ``function`` under ``name``; CheckFailed for the notebook's own mistakes
    (an unknown name, something that is not a function), before anything runs."""
    if name not in cases:
        raise CheckFailed(f"✗ no graded function called {name!r} in this exercise; known: {', '.join(cases)}")
    if not callable(function):
        raise CheckFailed(f"✗ {name}: expected a function, got {type(function).__name__}")
    cells = kernel_cells(function)
    alias = getattr(function, "__name__", name)
    if alias != name and alias.isidentifier():  # ``check("f", g)``: grade g's code under the name f
        cells[max(cells, default=0) + 1] = f"{name} = {alias}"
    return cells


def draw_failure(function: Callable[..., Any], cases: list[Case], number: int) -> None:
    """In a notebook, the failing public case drawn as grids (drawing.py): the verdict came from the sandbox;
    this one call runs here, in the learner's kernel, only to show what it returns."""
    shell = sys.modules["IPython"].get_ipython() if "IPython" in sys.modules else None
    if shell is None or not 0 <= number < len(cases):
        return
    case = cases[number]
    if not drawable(case.expected):  # a large case (or not an array): nothing to draw, so nothing is run here
        return
    try:
        got = function(*copy.deepcopy(case.arguments))
        picture = failure_svg(case.arguments, case.expected, got)
    except Exception:  # the text feedback already says what went wrong
        return
    if picture:
        from IPython.display import SVG, display

        display(SVG(picture))


def check_cells(name: str, cells: dict[int, str], public: tuple[Grading, dict[str, list[Case]]] | None = None) -> str:
    """Grade the function ``name`` that these code cells define, on the public cases; print and return the pass
    line, or raise CheckFailed (the grader and ``tensorlab check`` count failures; ``check()`` prints them)."""
    grading, cases = public or public_cases()
    program = program_of(cells)
    library = grading.library
    if library is None and uses_library(program):  # the student's own pieces, from the saved notebooks
        library = describe(cases_file().parent, unit_number(cases_file().resolve().parent.name))
        refuse_unwritten(name, program, library)
    one = Grading(grading.notebook, (grading.find(name),), grading.timeout, grading.memory_mb, library)
    (result,) = verify_program(program, one, {name: cases[name]}).functions
    if result.outcome != "passed":
        raise CheckFailed(f"✗ {name}: {result.message}{tiers(result)}", result)
    SEEN_FAILURES.pop(name, None)
    passed = f"✓ {name}: all {result.cases} checks passed (the rules, and {result.cases} public cases run as the grader runs them)"
    print(passed)
    return passed


def refuse_unwritten(name: str, program: Program, library: dict) -> None:
    """CheckFailed, before anything runs, when the code imports a piece of mytorch the student has not written
    (or may not import here): the learner reads where to write it, not that their own function is missing."""
    imported = {alias.name for statement in program.statements if isinstance(statement, ast.ImportFrom)
                and statement.module == "mytorch" for alias in statement.names}
    problems = [library["unwritten"].get(piece) or library["withheld"].get(piece) for piece in sorted(imported)]
    if any(problems):
        raise CheckFailed(f"✗ {name}: " + "; ".join(problem for problem in problems if problem))


def tiers(result: FunctionResult) -> str:
    """What a repeated failure adds: the hint's question the second time, a known mistake from the third."""
    message, times = SEEN_FAILURES.get(result.name, ("", 0))
    times = times + 1 if message == result.message else 1
    SEEN_FAILURES[result.name] = (result.message, times)
    if not result.hint:
        return ""
    if times == 1:
        return "\n  (the same failure again will bring a question to think about)"
    known = f"\n  known mistake: {result.misconception}" if result.misconception and times >= 3 else ""
    return f"\n  think:    {result.hint}{known}"


def public_case(name: str, number: int) -> tuple:
    """The inputs of public case ``number`` (as feedback counts them, from 1) of the function ``name``:
    ``args = public_case("gather", 7)`` then ``gather(*args)`` repeats a failing call whose inputs are
    too long to print."""
    _, cases = public_cases()
    if name not in cases:
        raise CheckFailed(f"✗ no graded function called {name!r} in this exercise; known: {', '.join(cases)}")
    if not 1 <= number <= len(cases[name]):
        raise CheckFailed(f"✗ {name} has public cases 1 to {len(cases[name])}, not {number}")
    return tuple(cases[name][number - 1].arguments)
