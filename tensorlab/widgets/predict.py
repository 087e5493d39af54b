"""Predict, then run: the learner writes a guess in one cell, and the next cell checks it against torch.

The guess cell holds a placeholder, ``guess = ...``; the checking cell runs the real expression and
compares. An untouched placeholder is not an error (notebooks run top to bottom in CI and in a
static export): the learner is told the answer and asked to predict before looking next time.

    guess = ...                     # your prediction: the strides of x.t()
    predict(guess, lambda: x.t().stride(), why="t() swaps the two strides; no data moves")

The actual value comes from a callable so that an expression that raises can be predicted too:
guess the exception class (``guess = RuntimeError``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .quiz import Feedback

__all__ = ["predict"]


def _outcome(run: Callable[[], Any]) -> Any:
    """The value the expression gives, or the class of the exception it raises."""
    try:
        return run()
    except Exception as error:  # raising is one of the outcomes one can predict
        return type(error)


def _same(guess: Any, actual: Any) -> bool:
    """Tuples and lists, torch.Size and tuples, ints and floats compare by value; classes by identity."""
    if isinstance(actual, type) or isinstance(guess, type):
        return guess is actual
    if isinstance(actual, (tuple, list)) and isinstance(guess, (tuple, list)):
        return len(guess) == len(actual) and all(_same(g, a) for g, a in zip(guess, actual, strict=True))
    try:
        return bool(guess == actual)
    except Exception:  # values that cannot be compared are not the same
        return False


def _shown(value: Any) -> str:
    return value.__name__ if isinstance(value, type) else repr(value)


def predict(guess: Any, run: Callable[[], Any], why: str = "") -> Feedback:
    """Compare a guess with what ``run()`` gives (or raises); the verdict, shown as its sentence when last in a cell."""
    actual = _outcome(run)
    if guess is ...:
        verdict = Feedback(False, f"No guess yet: the answer is {_shown(actual)}. {why}".strip())
    elif _same(guess, actual):
        verdict = Feedback(True, f"✓ Right: {_shown(actual)}. {why}".strip())
    else:
        verdict = Feedback(False, f"✗ Not {_shown(guess)}: it is {_shown(actual)}. {why}".strip())
    return verdict
