"""Warm timing: the three implementations alternate, round-robin, in one process.

Interleaving means a slow moment of the machine (another process, a frequency change) hits
all three alike; each repetition gives one ratio per pair, and the median of those ratios is
what the table shows. A repetition times a batch of calls, so that calls of a microsecond
are not lost in the timer's resolution, and so that the table shows the steady state a user's
loop reaches: the first call after another library ran finds the CPU caches full of that
library's code and data, a cost no real training loop pays on every step. ``--batch-ms 0``
times single calls instead (each then pays that switching cost).
"""

from __future__ import annotations

import gc
import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

MIN_BATCH_SECONDS = 20e-3  # the fastest implementation's batch lasts at least this long
MAX_BATCH_CALLS = 20_000
MIN_REPETITIONS = 7
MAX_REPETITIONS = 400


@dataclass(frozen=True)
class WarmTimes:
    seconds_per_call: dict[str, float]  # median over repetitions
    ratios: dict[tuple[str, str], float]  # (a, b) -> median over repetitions of time(a) / time(b)
    repetitions: int
    calls_per_batch: int


def time_batch(run: Callable[[], Any], calls: int) -> float:
    """Seconds per call, over ``calls`` back-to-back calls, with the garbage collector paused."""
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        start = time.perf_counter()
        for _ in range(calls):
            run()
        return (time.perf_counter() - start) / calls
    finally:
        if gc_was_enabled:
            gc.enable()


def time_interleaved(
    runs: dict[str, Callable[[], Any]], budget_seconds: float, min_batch_seconds: float = MIN_BATCH_SECONDS
) -> WarmTimes:
    """Median time per call of each of ``runs``, alternating them, in about ``budget_seconds``.

    Each run must already have been called once (warm-up), as the correctness check does.
    """
    names = list(runs)
    first_guess = {name: min(time_batch(runs[name], 1) for _ in range(3)) for name in names}
    fastest = max(min(first_guess.values()), 1e-9)
    calls = max(1, min(MAX_BATCH_CALLS, math.ceil(min_batch_seconds / fastest)))
    seconds_per_repetition = calls * sum(first_guess.values())
    repetitions = int(budget_seconds / max(seconds_per_repetition, 1e-9))
    repetitions = max(MIN_REPETITIONS, min(MAX_REPETITIONS, repetitions))

    samples: dict[str, list[float]] = {name: [] for name in names}
    deadline = time.perf_counter() + budget_seconds  # a loaded machine must not stretch the run
    for repetition in range(repetitions):
        if repetition >= MIN_REPETITIONS and time.perf_counter() > deadline:
            break
        shift = repetition % len(names)  # rotate who goes first, so no one always runs after the same
        for name in names[shift:] + names[:shift]:
            samples[name].append(time_batch(runs[name], calls))

    ratios = {
        (a, b): statistics.median(x / y for x, y in zip(samples[a], samples[b], strict=True))
        for a in names
        for b in names
        if a != b
    }
    medians = {name: statistics.median(values) for name, values in samples.items()}
    return WarmTimes(medians, ratios, len(samples[names[0]]), calls)
