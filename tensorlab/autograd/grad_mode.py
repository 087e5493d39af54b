"""Grad modes: whether operations record the graph.

One global flag says whether ops record a graph. The context managers save and restore it, so
they nest; each also works as a decorator. ``inference_mode`` is ``no_grad`` plus a promise
that results will never be used in autograd (tensorlab records the promise but needs no
different machinery).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


class _State:
    enabled = True
    inference = False


state = _State()


def is_grad_enabled() -> bool:
    return state.enabled


def is_inference_mode_enabled() -> bool:
    return state.inference


class _GradModeContext:
    """Base: set the flag on enter, restore it on exit; usable as a decorator."""

    def _new_mode(self) -> bool:
        raise NotImplementedError

    def __enter__(self) -> None:
        self._previous = state.enabled
        state.enabled = self._new_mode()

    def __exit__(self, *exc: object) -> None:
        state.enabled = self._previous

    def __call__(self, fn: F) -> F:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with self.__class__(*self._args()):
                return fn(*args, **kwargs)

        return wrapper  # type: ignore[return-value]

    def _args(self) -> tuple:
        return ()


class no_grad(_GradModeContext):  # noqa: N801 - torch's name
    """Ops inside do not record a graph; results have requires_grad=False."""

    def _new_mode(self) -> bool:
        return False


class enable_grad(_GradModeContext):  # noqa: N801
    """Turn recording back on inside a no_grad block."""

    def _new_mode(self) -> bool:
        return True


class set_grad_enabled(_GradModeContext):  # noqa: N801
    """Set recording on or off. Like torch, calling it as a function also sets the mode at once."""

    def __init__(self, mode: bool) -> None:
        self.mode = bool(mode)
        self._previous = state.enabled
        state.enabled = self.mode

    def _new_mode(self) -> bool:
        return self.mode

    def _args(self) -> tuple:
        return (self.mode,)

    def __enter__(self) -> None:  # the mode was already set by __init__; keep the saved one
        state.enabled = self.mode

    def __call__(self, fn: F) -> F:
        state.enabled = self._previous  # used as a decorator: undo the eager switch
        return super().__call__(fn)


class inference_mode(_GradModeContext):  # noqa: N801
    """Like no_grad, for code whose results never enter autograd."""

    def __init__(self, mode: bool = True) -> None:
        self.mode = bool(mode)

    def _new_mode(self) -> bool:
        return not self.mode and state.enabled

    def _args(self) -> tuple:
        return (self.mode,)

    def __enter__(self) -> None:
        self._previous_inference = state.inference
        state.inference = self.mode
        super().__enter__()

    def __exit__(self, *exc: object) -> None:
        state.inference = self._previous_inference
        super().__exit__(*exc)
