"""Measure one workload: build each implementation, check they agree, then time them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .fresh import fresh_first_calls
from .inputs import same_results
from .registry import IMPLEMENTATIONS, Workload
from .timing import MIN_BATCH_SECONDS, WarmTimes, time_interleaved

# What tensorlab raises for an op (or an argument of one) that nobody has written yet.
NOT_WRITTEN_YET = (AttributeError, NotImplementedError, TypeError)


@dataclass(frozen=True)
class Measurement:
    workload: Workload
    status: str  # "ok", "missing", "error" or "wrong result"
    detail: str = ""
    warm: WarmTimes | None = None
    fresh: dict[str, float] | None = None  # first-call seconds in a new process

    def ratio(self, other: str, *, fresh: bool = False) -> float | None:
        """tensorlab's time over ``other``'s (None when not measured)."""
        if fresh:
            if not self.fresh or other not in self.fresh:
                return None
            return self.fresh["tensorlab"] / self.fresh[other]
        if self.warm is None:
            return None
        return self.warm.ratios.get(("tensorlab", other))


def describe_exception(error: BaseException) -> str:
    message = str(error).splitlines()[0] if str(error) else ""
    return f"{type(error).__name__}: {message[:100]}"


def measure(
    workload: Workload, budget_seconds: float, fresh_processes: int = 0, threads: int = 1,
    batch_seconds: float = MIN_BATCH_SECONDS,
) -> Measurement:
    runs: dict[str, Callable[[], Any]] = {}
    results: dict[str, Any] = {}
    for implementation in IMPLEMENTATIONS:
        try:
            run = workload.build(implementation)
            if run is None:
                continue
            results[implementation] = run()  # also the warm-up call
        except Exception as error:
            if implementation != "tensorlab":
                raise  # the workload itself is broken
            status = "missing" if isinstance(error, NOT_WRITTEN_YET) else "error"
            return Measurement(workload, status, describe_exception(error))
        runs[implementation] = run
    if "tensorlab" not in runs:
        return Measurement(workload, "missing", "no tensorlab implementation")

    reference = results.get("numpy", results.get("torch"))
    if "torch" in results and "numpy" in results and not same_results(results["torch"], results["numpy"]):
        raise AssertionError(f"workload {workload.name!r}: torch and numpy disagree")
    if reference is not None and not same_results(results["tensorlab"], reference):
        return Measurement(workload, "wrong result", "tensorlab's result differs from the reference")

    warm = time_interleaved(runs, budget_seconds, batch_seconds)
    fresh = None
    if fresh_processes:
        try:
            fresh = fresh_first_calls(workload.name, list(runs), fresh_processes, threads)
        except RuntimeError as error:
            return Measurement(workload, "error", f"fresh process: {error}", warm)
    return Measurement(workload, "ok", "", warm, fresh)
