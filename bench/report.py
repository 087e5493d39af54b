"""The results as a markdown table of ratios (tensorlab's time over torch's and NumPy's).

One run's results are a dict: workload name -> its ratios by column header ("tensorlab/torch",
..., "fresh tensorlab/numpy"; None: n/a), or the reason it has none ("missing", "error", "wrong
result"). The terminal table, the README's table (bench/readme.py) and ``--check`` (bench/check.py)
all read that dict, so the README shows exactly what the bench printed.
"""

from __future__ import annotations

import statistics
from typing import NamedTuple

from .measure import Measurement
from .registry import Target, load_workloads

COMPARED = ("torch", "numpy")


class Column(NamedTuple):
    header: str
    other: str  # the library tensorlab's time is divided by
    fresh: bool  # first call in a new process (else: the warm steady state)


COLUMNS = tuple(Column(f"{'fresh ' if fresh else ''}tensorlab/{other}", other, fresh)
                for fresh in (False, True) for other in COMPARED)

Ratios = dict[str, float | None]  # column header -> ratio (None: not measured, "n/a")
Row = Ratios | str  # a workload's ratios, or why it has none
Results = dict[str, Row]  # workload name -> its row


def limit(target: Target, column: Column) -> float | None:
    """The target for ``column`` (warm targets hold fresh only for a workload that says so)."""
    if column.fresh and not target.fresh:
        return None
    return target.torch if column.other == "torch" else target.numpy


def row_of(m: Measurement) -> Row:
    if m.status != "ok":
        return m.status
    return {column.header: m.ratio(column.other, fresh=column.fresh) for column in COLUMNS}


def combine(rows: list[Row]) -> Row:
    """Several runs of one workload as one row: the median of each ratio (a failed run wins)."""
    for row in rows:
        if isinstance(row, str):
            return row
    combined: Ratios = {}
    for column in COLUMNS:
        values = [value for row in rows if (value := row.get(column.header)) is not None]  # type: ignore[union-attr]
        combined[column.header] = statistics.median(values) if values else None
    return combined


def format_ratio(ratio: float | None, limit: float | None) -> str:
    if ratio is None:
        return "n/a"
    missed = limit is not None and ratio > limit
    return f"{ratio:.2f}x" + (" ✗" if missed else "")


def ratio_table(results: Results, with_fresh: bool) -> str:
    """One row per workload, in the order of ``results``; titles and targets from the registry."""
    registry = load_workloads()
    columns = COLUMNS if with_fresh else COLUMNS[: len(COMPARED)]
    header = ["workload", *(column.header for column in columns), "target"]
    rows = [header, ["---"] * len(header)]
    for name, row in results.items():
        workload = registry[name]
        if isinstance(row, str):
            cells = [row] * len(columns)
        else:
            cells = [format_ratio(row.get(column.header), limit(workload.target, column)) for column in columns]
        rows.append([workload.title, *cells, workload.target.describe()])
    return "\n".join("| " + " | ".join(row) + " |" for row in rows)


def notes(measurements: list[Measurement]) -> list[str]:
    """Why a row has no numbers."""
    return [f"{m.workload.name}: {m.status} — {m.detail}" for m in measurements if m.status != "ok"]


def times_table(measurements: list[Measurement]) -> str:
    """Absolute median times per call (machine-specific: for developers, not for the README)."""
    rows = ["| workload | tensorlab | torch | numpy | repetitions x calls |", "| --- | --- | --- | --- | --- |"]
    for m in measurements:
        if m.warm is None:
            continue
        seconds = m.warm.seconds_per_call
        cells = [f"{seconds[name] * 1e6:.1f} µs" if name in seconds else "n/a" for name in ("tensorlab", "torch", "numpy")]
        rows.append(f"| {m.workload.title} | {' | '.join(cells)} | {m.warm.repetitions} x {m.warm.calls_per_batch} |")
    return "\n".join(rows)
