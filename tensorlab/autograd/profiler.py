"""``autograd.profiler``: which ops ran, how often, and where the time went.

``with profile() as prof: ...`` records every op that runs through an autograd ``Function``
(tensorlab's unit of computation, as an ATen op is torch's) and every ``record_function`` region;
``prof.key_averages().table(sort_by="self_cpu_time_total")`` prints torch's table. *Self* time is
an op's own time; *total* time includes the ops it called (a Linear layer's total includes its
matmul). Names are tensorlab's Function names (``Linear``, ``Sum``), not torch's ``aten::`` names.

While a profile is open, ``Function.apply`` is wrapped with a timer; outside one, ops run with no
profiling cost at all.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .function import Function

F = TypeVar("F", bound=Callable[..., Any])


@dataclass
class FunctionEvent:
    """One op call or one record_function region: when it started and what it cost (microseconds)."""

    name: str
    start_us: float
    cpu_time_total: float = 0.0
    self_cpu_time_total: float = 0.0
    input_shapes: list = field(default_factory=list)
    children_us: float = 0.0  # time spent in ops this one called, while it is open

    @property
    def key(self) -> str:
        return self.name


@dataclass
class FunctionEventAvg:
    """All events of one name (and input shapes, if grouped so): counts and summed times."""

    key: str
    count: int = 0
    cpu_time_total: float = 0.0
    self_cpu_time_total: float = 0.0
    input_shapes: list = field(default_factory=list)
    device_time_total: float = 0.0  # tensorlab runs on the CPU only: device columns are zero
    self_device_time_total: float = 0.0
    cuda_time_total: float = 0.0
    self_cuda_time_total: float = 0.0
    cpu_memory_usage: int = 0
    self_cpu_memory_usage: int = 0

    @property
    def cpu_time(self) -> float:
        """Average total time per call."""
        return self.cpu_time_total / self.count if self.count else 0.0

    def add(self, event: FunctionEvent) -> None:
        self.count += 1
        self.cpu_time_total += event.cpu_time_total
        self.self_cpu_time_total += event.self_cpu_time_total


def _format_time(us: float) -> str:
    if us >= 1e6:
        return f"{us / 1e6:.3f}s"
    if us >= 1e3:
        return f"{us / 1e3:.3f}ms"
    return f"{us:.3f}us"


class EventList(list):
    """A list of events (or averages) that prints as torch's profiler table."""

    def table(self, sort_by: str | None = None, row_limit: int = 100, max_name_column_width: int = 55, header: str | None = None, top_level_events_only: bool = False) -> str:
        rows = list(self)
        if sort_by is not None:
            rows.sort(key=lambda event: getattr(event, sort_by), reverse=True)
        rows = rows[:row_limit] if row_limit > 0 else rows
        self_total = sum(event.self_cpu_time_total for event in self) or 1.0
        with_shapes = any(getattr(event, "input_shapes", None) for event in self) and isinstance(self, _GroupedByShape)
        name_width = min(max([len(event.key) for event in rows] + [4]), max_name_column_width) + 2
        columns = ["Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg", "# of Calls"]
        widths = [name_width] + [12] * len(columns) + ([33] if with_shapes else [])
        rule = "  ".join("-" * w for w in widths) + "  "
        titles = ["Name", *columns] + (["Input Shapes"] if with_shapes else [])
        lines = [header] if header else []
        lines += [rule, "  ".join(t.rjust(w) for t, w in zip(titles, widths, strict=True)) + "  ", rule]
        for event in rows:
            count = getattr(event, "count", 1)
            cells = [
                event.key[: name_width - 2], f"{100 * event.self_cpu_time_total / self_total:.2f}%",
                _format_time(event.self_cpu_time_total), f"{100 * event.cpu_time_total / self_total:.2f}%",
                _format_time(event.cpu_time_total), _format_time(event.cpu_time_total / max(count, 1)), str(count),
            ] + ([str(event.input_shapes)] if with_shapes else [])
            lines.append("  ".join(c.rjust(w) for c, w in zip(cells, widths, strict=True)) + "  ")
        lines += [rule, f"Self CPU time total: {_format_time(sum(event.self_cpu_time_total for event in self))}", ""]
        return "\n".join(lines)

    def total_average(self) -> FunctionEventAvg:
        total = FunctionEventAvg("Total")
        for event in self:
            total.count += getattr(event, "count", 1)
            total.cpu_time_total += event.cpu_time_total
            total.self_cpu_time_total += event.self_cpu_time_total
        return total

    def __str__(self) -> str:
        return self.table()


class _GroupedByShape(EventList):
    """key_averages(group_by_input_shape=True): the table gets an Input Shapes column."""


class _Recorder:
    """The open profile: a stack of running events; each finished one is appended to ``events``."""

    def __init__(self, record_shapes: bool) -> None:
        self.record_shapes = record_shapes
        self.events: list[FunctionEvent] = []
        self.open: list[FunctionEvent] = []

    @contextmanager
    def event(self, name: str, args: tuple = ()) -> Iterator[None]:
        if self.open and self.open[-1].name == name:  # apply_as calling apply: one op, timed once
            yield
            return
        shapes = [list(getattr(a, "shape", [])) for a in args] if self.record_shapes else []
        event = FunctionEvent(name, time.perf_counter() * 1e6, input_shapes=shapes)
        self.open.append(event)
        try:
            yield
        finally:
            self.open.pop()
            event.cpu_time_total = time.perf_counter() * 1e6 - event.start_us
            event.self_cpu_time_total = event.cpu_time_total - event.children_us
            if self.open:
                self.open[-1].children_us += event.cpu_time_total
            self.events.append(event)


_active: _Recorder | None = None


class profile:  # noqa: N801 - torch's name
    """``with profile() as prof:`` records ops until the block ends; then ``prof.key_averages()``."""

    def __init__(self, enabled: bool = True, *, use_cuda: bool = False, use_device: str | None = None, record_shapes: bool = False, with_flops: bool = False, profile_memory: bool = False, with_stack: bool = False, with_modules: bool = False, use_kineto: bool = True, use_cpu: bool = True, **unused: Any) -> None:
        self.enabled = enabled
        self.record_shapes = record_shapes
        self._recorder = _Recorder(record_shapes)
        self._saved: dict[str, Any] = {}
        self.function_events: EventList | None = None

    def __enter__(self) -> profile:
        global _active
        if not self.enabled:
            return self
        if _active is not None:
            raise RuntimeError("Profiler is already enabled on this thread")
        _active = self._recorder
        self._saved = {name: Function.__dict__[name] for name in ("apply", "apply_as")}
        Function.apply = classmethod(_timed(self._saved["apply"].__func__, lambda cls, args: (cls.__name__, args)))  # type: ignore[method-assign, assignment]
        Function.apply_as = classmethod(_timed(self._saved["apply_as"].__func__, lambda cls, args: (cls.__name__, args[1:])))  # type: ignore[method-assign, assignment]
        return self

    def __exit__(self, *exc: object) -> None:
        global _active
        if not self.enabled:
            return
        for name, original in self._saved.items():
            setattr(Function, name, original)
        _active = None
        self.function_events = EventList(sorted(self._recorder.events, key=lambda event: event.start_us))

    def _events(self) -> EventList:
        if self.function_events is None:
            raise RuntimeError("Profiler didn't finish running")
        return self.function_events

    def events(self) -> EventList:
        return self._events()

    def key_averages(self, group_by_input_shape: bool = False, group_by_stack_n: int = 0) -> EventList:
        """One row per op name (and per input shapes when asked), in order of first appearance."""
        averages: dict[tuple, FunctionEventAvg] = {}
        for event in self._events():
            group = (event.name, str(event.input_shapes)) if group_by_input_shape else (event.name,)
            if group not in averages:
                averages[group] = FunctionEventAvg(event.name, input_shapes=event.input_shapes if group_by_input_shape else [])
            averages[group].add(event)
        return (_GroupedByShape if group_by_input_shape else EventList)(averages.values())

    def table(self, sort_by: str | None = None, row_limit: int = 100, **kwargs: Any) -> str:
        return self._events().table(sort_by=sort_by, row_limit=row_limit, **kwargs)

    def total_average(self) -> FunctionEventAvg:
        return self.key_averages().total_average()

    @property
    def self_cpu_time_total(self) -> float:
        return sum(event.self_cpu_time_total for event in self._events())

    def export_chrome_trace(self, path: str) -> None:
        """A trace chrome://tracing and Perfetto open: one complete ("X") event per op."""
        trace = [
            {"name": e.name, "ph": "X", "ts": e.start_us, "dur": e.cpu_time_total, "pid": 0, "tid": 0, "cat": "cpu_op"}
            for e in self._events()
        ]
        with open(path, "w") as file:
            json.dump({"traceEvents": trace}, file)

    def __str__(self) -> str:
        return self.table()


def _timed(apply: Callable[..., Any], describe: Callable[[type, tuple], tuple[str, tuple]]) -> Callable[..., Any]:
    """``apply`` with each call recorded as an event named after its Function."""

    @functools.wraps(apply)
    def timed(cls: type, *args: Any, **kwargs: Any) -> Any:
        if _active is None:
            return apply(cls, *args, **kwargs)
        name, inputs = describe(cls, args)
        with _active.event(name, inputs):
            return apply(cls, *args, **kwargs)

    return timed


class record_function:  # noqa: N801 - torch's name
    """Label a region: ``with record_function("model_inference"): ...`` adds one row to the table.

    Also a decorator. Outside a profile it does nothing.
    """

    def __init__(self, name: str, args: str | None = None) -> None:
        self.name = name
        self._region: Any = None

    def __enter__(self) -> record_function:
        if _active is not None:
            self._region = _active.event(self.name)
            self._region.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._region is not None:
            self._region.__exit__(*exc)
            self._region = None

    def __call__(self, fn: F) -> F:
        @functools.wraps(fn)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            with record_function(self.name):
                return fn(*args, **kwargs)

        return wrapped  # type: ignore[return-value]


__all__ = ["EventList", "FunctionEvent", "FunctionEventAvg", "profile", "record_function"]
