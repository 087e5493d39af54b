"""``check(name, function)``: the one-line test cells of the exercise notebooks.

It calls the learner's function on the task's public cases and prints what passed, or stops
with a message written for a learner: the call, expected vs got, and a hint. Warnings the
function emits are recorded, not printed, so correct code that warns passes. This is feedback
only: the score is computed by the autograder, outside the notebook's kernel.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
import warnings
from collections.abc import Callable
from typing import Any

from .compare import Raised
from .rules import rule_violations
from .tasks import builtin_class_name, expected_outcome, find_task

__all__ = ["CheckFailed", "check"]


class CheckFailed(AssertionError):  # noqa: N818 - reads better in a learner's notebook
    """A check did not pass; Jupyter shows only the message, not a traceback."""

    def _render_traceback_(self) -> list[str]:
        return str(self).splitlines()


def outcome_of(function: Callable[..., Any], case: tuple) -> Any:
    """What ``function(*case)`` returns, or a Raised for the exception it raises (warnings muted)."""
    import copy

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return function(*copy.deepcopy(case))
        except Exception as error:
            return Raised(builtin_class_name(type(error)), str(error))


def source_rule_violations(name: str, function: Callable[..., Any], forbidden: tuple, forbid_loops: bool) -> list[str]:
    try:
        source = textwrap.dedent(inspect.getsource(function))
    except (OSError, TypeError):
        return []  # defined somewhere without source: the autograder still checks the notebook
    return rule_violations(ast.parse(source).body, getattr(function, "__name__", name), forbidden, forbid_loops)


def check(name: str, function: Callable[..., Any]) -> None:
    """Check ``function`` against the public cases of the task called ``name``."""
    task = find_task(name)
    if not callable(function):
        raise CheckFailed(f"✗ {name}: expected a function, got {type(function).__name__}")
    violations = source_rule_violations(name, function, task.forbidden, task.forbid_loops)
    if violations:
        raise CheckFailed(f"✗ {name}: {'; '.join(violations)}")
    cases = task.public_cases()
    for number, case in enumerate(cases, start=1):
        expected = expected_outcome(task, case)
        got = outcome_of(function, case)
        if isinstance(got, Raised) and got.exception == "NotImplementedError" and not isinstance(expected, Raised):
            raise CheckFailed(f"✗ {name}: not written yet (it raises NotImplementedError)")
        problem = task.problem(case, expected, got)
        if problem:
            raise CheckFailed(
                f"✗ {name}: case {number} of {len(cases)} failed\n"
                f"  call:     {task.describe_call(case)}\n"
                f"  problem:  {problem}\n"
                f"  hint:     {task.hint}"
            )
    print(f"✓ {name}: all {len(cases)} checks passed")
