"""``tensorlab.profiler``: torch.profiler's names over :mod:`tensorlab.autograd.profiler`.

Newer tutorials write ``with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as
prof:``; the recording and the table are those of ``autograd.profiler``. tensorlab has only the
CPU, so activities other than CPU record nothing more, and a ``schedule`` is not modelled: every
step inside the block is recorded, and ``on_trace_ready`` runs once, when the block ends.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from typing import Any

from .autograd import profiler as _autograd_profiler
from .autograd.profiler import record_function


class ProfilerActivity(enum.Enum):
    CPU = 0
    CUDA = 2


def supported_activities() -> set[ProfilerActivity]:
    return {ProfilerActivity.CPU}


class profile(_autograd_profiler.profile):  # noqa: N801 - torch's name
    """``torch.profiler.profile``: the autograd profiler with torch.profiler's keywords."""

    def __init__(
        self, *, activities: Iterable[ProfilerActivity] | None = None, schedule: Callable[[int], Any] | None = None,
        on_trace_ready: Callable[[profile], Any] | None = None, record_shapes: bool = False, profile_memory: bool = False,
        with_stack: bool = False, with_flops: bool = False, with_modules: bool = False, **unused: Any,
    ) -> None:
        super().__init__(record_shapes=record_shapes)
        self.activities = set(activities) if activities is not None else supported_activities()
        self.on_trace_ready = on_trace_ready
        self.step_num = 0

    def step(self) -> None:
        """Mark the end of a training step (torch uses it to follow a schedule; counted only here)."""
        self.step_num += 1

    def start(self) -> None:
        self.__enter__()

    def stop(self) -> None:
        self.__exit__(None, None, None)

    def __exit__(self, *exc: object) -> None:
        super().__exit__(*exc)
        if self.on_trace_ready is not None:
            self.on_trace_ready(self)


__all__ = ["ProfilerActivity", "profile", "record_function", "supported_activities"]
