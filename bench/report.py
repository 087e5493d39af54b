"""The results as a markdown table of ratios (tensorlab's time over torch's and NumPy's)."""

from __future__ import annotations

from .measure import Measurement

COMPARED = ("torch", "numpy")


def format_ratio(ratio: float | None, limit: float | None) -> str:
    if ratio is None:
        return "n/a"
    missed = limit is not None and ratio > limit
    return f"{ratio:.2f}x" + (" ✗" if missed else "")


def ratio_table(measurements: list[Measurement]) -> str:
    with_fresh = any(m.fresh for m in measurements)
    header = ["workload", *(f"tensorlab/{other}" for other in COMPARED)]
    if with_fresh:
        header += [f"fresh tensorlab/{other}" for other in COMPARED]
    header.append("target")
    rows = [header, ["---"] * len(header)]
    for m in measurements:
        target = m.workload.target
        limits = {"torch": target.torch, "numpy": target.numpy}
        if m.status != "ok":
            cells = [m.status] * (len(header) - 2)
        else:
            cells = [format_ratio(m.ratio(other), limits[other]) for other in COMPARED]
            if with_fresh:
                fresh_limits = limits if target.fresh else dict.fromkeys(COMPARED)
                cells += [format_ratio(m.ratio(other, fresh=True), fresh_limits[other]) for other in COMPARED]
        rows.append([m.workload.title, *cells, target.describe()])
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
