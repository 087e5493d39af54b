"""``python -m bench --check`` (``make bench-check``): each ratio against its target and the README's.

A ratio over its workload's target (``registry.Target``) fails the check, and so does a workload
with no numbers (missing, error, wrong result). A ratio that differs from the README's number by
more than ``DRIFT_FACTOR`` either way is only a warning: the README's table was measured on one
machine (its line under the table says which), and other machines differ by more than that; the
cure is to measure again there and regenerate it (``make bench-readme``), never to type a number.
"""

from __future__ import annotations

from dataclasses import dataclass

from .registry import Target, load_workloads
from .report import COLUMNS, Results, limit

DRIFT_FACTOR = 1.25


@dataclass(frozen=True)
class Cell:
    """One ratio of one workload: what was measured, its target, and the README's number."""

    column: str
    ratio: float | None
    limit: float | None
    readme: float | None

    @property
    def missed(self) -> bool:
        return self.ratio is not None and self.limit is not None and self.ratio > self.limit

    @property
    def drift(self) -> float | None:
        """Measured over README (None where either is n/a)."""
        return self.ratio / self.readme if self.ratio is not None and self.readme else None

    @property
    def drifted(self) -> bool:
        return self.drift is not None and max(self.drift, 1 / self.drift) > DRIFT_FACTOR


@dataclass(frozen=True)
class Verdict:
    """One workload: its status ("ok" or why it has no numbers) and its cells."""

    name: str
    target: Target
    status: str
    cells: tuple[Cell, ...]
    in_readme: bool

    @property
    def failed(self) -> bool:
        return self.status != "ok" or any(cell.missed for cell in self.cells)

    @property
    def drifted(self) -> bool:
        return not self.in_readme or any(cell.drifted for cell in self.cells)


def check(results: Results, readme: Results) -> list[Verdict]:
    """A verdict per workload of ``results`` (a run), against its target and ``readme`` (the README's)."""
    registry = load_workloads()
    verdicts = []
    for name, row in results.items():
        target = registry[name].target
        readme_row = readme.get(name)
        readme_ratios = readme_row if isinstance(readme_row, dict) else {}
        cells = tuple(
            Cell(column.header, row.get(column.header) if isinstance(row, dict) else None,
                 limit(target, column), readme_ratios.get(column.header))
            for column in COLUMNS
        )
        status = row if isinstance(row, str) else "ok"
        verdicts.append(Verdict(name, target, status, cells, readme_row is not None))
    return verdicts


def exit_status(verdicts: list[Verdict]) -> int:
    """1 when any workload missed a target or has no numbers, else 0 (drift never fails)."""
    return 1 if any(verdict.failed for verdict in verdicts) else 0


def fmt(ratio: float | None) -> str:
    return "n/a" if ratio is None else f"{ratio:.2f}x"


def describe(verdicts: list[Verdict]) -> list[str]:
    """A markdown table, one line per measured ratio (✗ missed its target, ⚠ drifted from the README), and a summary."""
    lines = ["| | workload | ratio | measured | target | README | drift |", "| --- | --- | --- | --- | --- | --- | --- |"]
    for verdict in verdicts:
        if verdict.status != "ok":
            lines.append(f"| ✗ | {verdict.name} | — | {verdict.status} | {verdict.target.describe()} | | |")
            continue
        for cell in verdict.cells:
            if cell.ratio is None and cell.readme is None:
                continue
            mark = "✗" if cell.missed else "⚠" if cell.drifted or not verdict.in_readme else "✓"
            target = f"≤{cell.limit:g}x" if cell.limit is not None else "—"
            readme = fmt(cell.readme) if verdict.in_readme else "no row"
            drift = f"×{cell.drift:.2f}" if cell.drift is not None else "—"
            lines.append(f"| {mark} | {verdict.name} | {cell.column} | {fmt(cell.ratio)} | {target} | {readme} | {drift} |")
    lines.append("")
    missed = [v for v in verdicts if v.failed]
    if missed:
        lines.append(f"✗ {len(missed)} of {len(verdicts)} workloads missed a target: " + "; ".join(
            f"{v.name} ({v.status})" if v.status != "ok" else f"{v.name} (" + ", ".join(
                f"{c.column} {fmt(c.ratio)} > {c.limit:g}x" for c in v.cells if c.missed) + ")"
            for v in missed
        ))
    else:
        lines.append(f"✓ all {len(verdicts)} workloads meet their targets.")
    drifted = [v for v in verdicts if v.drifted]
    if drifted:
        lines.append(
            f"⚠ {len(drifted)} workloads differ from the README's table by more than ×{DRIFT_FACTOR:g} (a warning, not a "
            "failure: if this is the README's machine, regenerate it with `make bench-readme`): " + "; ".join(
                f"{v.name} (no row in the README)" if not v.in_readme else f"{v.name} (" + ", ".join(
                    f"{c.column} {fmt(c.ratio)} vs {fmt(c.readme)}" for c in v.cells if c.drifted) + ")"
                for v in drifted
            )
        )
    return lines
