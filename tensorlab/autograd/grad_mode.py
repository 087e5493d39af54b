"""Grad modes: whether operations record the graph.

One flag per thread (as in torch) says whether ops record a graph. The context managers save
the flag on enter and restore it on exit — also when the block raises — so they nest. Each also
works as a decorator, with or without parentheses (``@no_grad`` and ``@no_grad()``).
``inference_mode`` is ``no_grad`` plus a promise that the results never enter autograd
(tensorlab records the promise in ``is_inference_mode_enabled`` but needs no other machinery).
"""

from __future__ import annotations

import functools
import inspect
import threading
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


class _State(threading.local):
    """The per-thread flags; a new thread starts with recording on, as in torch."""

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

    def clone(self) -> _GradModeContext:
        """A fresh manager with the same settings (each decorated call gets its own)."""
        return self.__class__()

    def __call__(self, fn: F) -> F:
        if inspect.isgeneratorfunction(fn):
            return self._wrap_generator(fn)

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with self.clone():
                return fn(*args, **kwargs)

        return wrapper  # type: ignore[return-value]  # wraps(fn) keeps fn's signature; mypy sees (*args, **kwargs)

    def _wrap_generator(self, fn: F) -> F:
        """A generator runs in pieces: apply the mode around each step, not around creation."""

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            generator = fn(*args, **kwargs)
            value = None
            while True:
                try:
                    with self.clone():
                        item = generator.send(value)
                except StopIteration as stop:
                    return stop.value
                value = yield item

        return wrapper  # type: ignore[return-value]  # as above: fn's signature, kept by wraps


class _NoParenthesesDecorator(_GradModeContext):
    """Lets ``@no_grad`` (no call) decorate a function, like ``@no_grad()``."""

    def __new__(cls, fn: Callable[..., Any] | None = None) -> Any:
        if fn is None:
            return super().__new__(cls)
        return cls()(fn)

    def __init__(self, fn: Callable[..., Any] | None = None) -> None:
        pass


class no_grad(_NoParenthesesDecorator):  # noqa: N801 - torch's name
    """Ops inside do not record a graph; results have requires_grad=False."""

    def _new_mode(self) -> bool:
        return False


class enable_grad(_NoParenthesesDecorator):  # noqa: N801
    """Turn recording back on inside a no_grad block."""

    def _new_mode(self) -> bool:
        return True


class set_grad_enabled(_GradModeContext):  # noqa: N801
    """Set recording on or off. Like torch, calling it as a function sets the mode at once;
    used in a ``with``, the previous mode comes back at the end of the block."""

    def __init__(self, mode: bool) -> None:
        self.mode = bool(mode)
        self._previous = state.enabled
        state.enabled = self.mode

    def _new_mode(self) -> bool:
        return self.mode

    def clone(self) -> set_grad_enabled:
        previous = state.enabled
        copy = self.__class__(self.mode)
        state.enabled = previous  # creating it switched the mode; only entering should
        return copy

    def __enter__(self) -> None:  # the mode was already set by __init__; keep its saved one
        state.enabled = self.mode

    def __call__(self, fn: F) -> F:
        state.enabled = self._previous  # used as a decorator: undo the eager switch
        return super().__call__(fn)

    def __repr__(self) -> str:
        return f"tensorlab.autograd.grad_mode.set_grad_enabled(mode={self.mode})"


class inference_mode(_GradModeContext):  # noqa: N801
    """Like no_grad, for code whose results never enter autograd. ``inference_mode(False)``
    changes nothing. Works as ``@inference_mode`` too."""

    def __new__(cls, mode: Any = True) -> Any:
        if isinstance(mode, bool):
            return super().__new__(cls)
        return cls()(mode)  # used without parentheses: ``mode`` is the decorated function

    def __init__(self, mode: bool = True) -> None:
        self.mode = mode

    def clone(self) -> inference_mode:
        return self.__class__(self.mode)

    def _new_mode(self) -> bool:
        return state.enabled and not self.mode

    def __enter__(self) -> None:
        self._previous_inference = state.inference
        state.inference = self.mode
        super().__enter__()

    def __exit__(self, *exc: object) -> None:
        state.inference = self._previous_inference
        super().__exit__(*exc)
