"""The README's performance table, generated from a run (``python -m bench --fresh --write-readme``).

The table lives between two marker comments in README.md, followed by the line that says how and
where it was measured. Nothing between the markers is typed by hand: it is ``render_block`` of a
run's results, and ``parse_block`` reads it back (``--check`` compares a run with it).
"""

from __future__ import annotations

import re
from pathlib import Path

from .registry import load_workloads
from .report import COLUMNS, Results, Row, ratio_table

README = Path(__file__).resolve().parent.parent / "README.md"
START = "<!-- bench-table:start -->"
END = "<!-- bench-table:end -->"
RATIO = re.compile(r"(\d+\.\d+)x( ✗)?")


def measured_line(threads: int, repeat: int, machine: str) -> str:
    """``Measured with `python -m bench --fresh` (one thread for torch and for the BLAS) on <machine>.``"""
    command = "python -m bench --fresh" + (f" --repeat {repeat}" if repeat > 1 else "")
    if threads == 0:
        command += " --threads 0"
        how = "the libraries' default threads"
    elif threads == 1:
        how = "one thread for torch and for the BLAS"
    else:
        command += f" --threads {threads}"
        how = f"{threads} threads for torch and for the BLAS"
    return f"Measured with `{command}` ({how}) on {machine}."


def render_block(results: Results, measured: str) -> str:
    """What goes between the markers: the table (every column, fresh too), then ``measured``."""
    return f"{ratio_table(results, with_fresh=True)}\n\n{measured}"


def parse_block(block: str) -> tuple[Results, str]:
    """The results a block was rendered from (by workload name; a title no workload has stays a title)."""
    table, _, measured = block.strip().partition("\n\n")
    lines = table.splitlines()
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    names = {workload.title: workload.name for workload in load_workloads().values()}
    results: Results = {}
    for line in lines[2:]:
        cells = dict(zip(header, (cell.strip() for cell in line.strip().strip("|").split("|")), strict=True))
        title = cells["workload"]
        results[names.get(title, title)] = parse_row([cells.get(column.header, "n/a") for column in COLUMNS])
    return results, measured.strip()


def parse_row(cells: list[str]) -> Row:
    if cells[0] not in ("n/a",) and not RATIO.fullmatch(cells[0]) and len(set(cells)) == 1:
        return cells[0]  # a status ("missing", "error", "wrong result") fills the row
    row = {}
    for column, cell in zip(COLUMNS, cells, strict=True):
        match = RATIO.fullmatch(cell)
        if cell != "n/a" and not match:
            raise ValueError(f"README table: {cell!r} is not a ratio (1.23x) or n/a; the table is generated, not typed")
        row[column.header] = float(match.group(1)) if match else None
    return row


def read_block(readme: str) -> str:
    """The text between the markers (ValueError when they are missing or out of order)."""
    start, end = readme.find(START), readme.find(END)
    if start < 0 or end < start:
        raise ValueError(f"README.md needs the markers {START} and {END} around the performance table")
    return readme[start + len(START) : end].strip()


def replace_block(readme: str, block: str) -> str:
    read_block(readme)  # the markers are there
    before, _, rest = readme.partition(START)
    _, _, after = rest.partition(END)
    return f"{before}{START}\n{block}\n{END}{after}"


def write_readme(results: Results, measured: str, path: Path = README) -> None:
    path.write_text(replace_block(path.read_text(encoding="utf-8"), render_block(results, measured)), encoding="utf-8")
