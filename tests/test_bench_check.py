"""`make bench-check` and the generated README table, on given results (no timing: numbers are made up)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bench import check, readme
from bench.registry import load_workloads
from bench.report import COLUMNS, Ratios

REPO_ROOT = Path(__file__).resolve().parent.parent
TORCH, NUMPY, FRESH_TORCH, FRESH_NUMPY = (column.header for column in COLUMNS)


def ratios(torch: float | None, numpy: float | None = None, fresh_torch: float | None = None) -> Ratios:
    return {TORCH: torch, NUMPY: numpy, FRESH_TORCH: fresh_torch, FRESH_NUMPY: None}


def add_limit() -> float:
    limit = load_workloads()["add"].target.torch
    assert limit is not None
    return limit


def the_readme_block() -> str:
    return readme.read_block((REPO_ROOT / "README.md").read_text(encoding="utf-8"))


# --- the verdict: a target miss fails, a drift from the README warns -------------------------------------------


def test_a_ratio_within_its_target_and_the_readme_passes() -> None:
    verdicts = check.check({"add": ratios(add_limit() * 0.9, 7.0)}, {"add": ratios(add_limit() * 0.9, 7.0)})
    assert not verdicts[0].failed and not verdicts[0].drifted
    assert check.exit_status(verdicts) == 0
    assert check.describe(verdicts)[-1].startswith("✓ all 1 workloads meet their targets")


def test_the_issue_a_ratio_over_its_target_fails_and_names_it() -> None:
    """The issue: 8x8 add measured 2.81x torch (target 2x) while the README said 1.74x."""
    verdicts = check.check({"add": ratios(2.81, 7.0)}, {"add": ratios(1.74, 7.01)})
    (add,) = verdicts
    torch_cell = add.cells[0]
    assert add.failed and torch_cell.missed and torch_cell.limit == add_limit()
    assert add.drifted and torch_cell.drifted and torch_cell.drift == pytest.approx(2.81 / 1.74)
    assert not add.cells[1].drifted  # numpy 7.0 vs 7.01: within the factor
    assert check.exit_status(verdicts) == 1
    lines = check.describe(verdicts)
    assert f"| ✗ | add | {TORCH} | 2.81x | ≤{add_limit():g}x | 1.74x | ×1.61 |" in lines
    assert f"| ✓ | add | {NUMPY} | 7.00x | — | 7.01x | ×1.00 |" in lines
    assert any(line.startswith("✗ 1 of 1 workloads missed a target: add (tensorlab/torch 2.81x > 2x)") for line in lines)
    assert any(line.startswith("⚠ 1 workloads differ") and "add (tensorlab/torch 2.81x vs 1.74x)" in line for line in lines)


def test_a_drift_alone_warns_but_passes() -> None:
    factor = check.DRIFT_FACTOR * 1.1
    faster = check.check({"add": ratios(add_limit() / 2 / factor)}, {"add": ratios(add_limit() / 2)})
    slower = check.check({"add": ratios(add_limit() / 2 * factor)}, {"add": ratios(add_limit() / 2)})
    for verdicts in (faster, slower):  # either way
        assert verdicts[0].drifted and not verdicts[0].failed
        assert check.exit_status(verdicts) == 0
        assert any(line.startswith("| ⚠ | add |") for line in check.describe(verdicts))


def test_a_warm_target_does_not_hold_fresh_but_a_fresh_one_does() -> None:
    add_fresh_over = check.check({"add": ratios(1.0, None, add_limit() * 3)}, {})
    assert not add_fresh_over[0].failed  # add's target is warm only
    elementwise = load_workloads()["elementwise"].target
    assert elementwise.fresh and elementwise.torch is not None
    missed = check.check({"elementwise": ratios(elementwise.torch / 2, None, elementwise.torch * 1.5)}, {})
    assert missed[0].failed and [cell.column for cell in missed[0].cells if cell.missed] == [FRESH_TORCH]


def test_a_workload_without_numbers_fails_and_one_without_a_readme_row_warns() -> None:
    verdicts = check.check({"add": "missing", "einsum": ratios(1.0, 0.1)}, {})
    add, einsum = verdicts
    assert add.failed and add.status == "missing"
    assert not einsum.failed and einsum.drifted and not einsum.in_readme  # einsum has no target
    assert check.exit_status(verdicts) == 1
    lines = check.describe(verdicts)
    assert "| ✗ | add | — | missing | ≤2x torch (warm) | | |" in lines
    assert any("einsum (no row in the README)" in line for line in lines)


# --- the README's table: generated, between markers, one row per workload -----------------------------------


def test_the_readme_table_round_trips() -> None:
    """Parse the README's block into results, render them: the same text (so the table is the generator's)."""
    block = the_readme_block()
    results, measured = readme.parse_block(block)
    assert readme.render_block(results, measured) == block
    assert measured.startswith("Measured with `python -m bench --fresh` (")


def test_the_readme_has_a_row_for_every_workload_in_registry_order() -> None:
    results, _ = readme.parse_block(the_readme_block())
    assert list(results) == list(load_workloads()), "a workload was added without a row: run `make bench-readme`"


def test_the_generator_writes_given_results_between_the_markers(tmp_path: Path) -> None:
    results = {name: ratios(1.0, 2.0) for name in load_workloads()}
    results["add"] = ratios(2.5, 7.0)  # over the target: the README shows the ✗ the bench prints
    results["elementwise"] = ratios(0.5, 0.75, 0.4)
    measured = readme.measured_line(threads=1, repeat=3, machine="a machine with 2 CPUs (AMD EPYC)")
    assert measured == ("Measured with `python -m bench --fresh --repeat 3` (one thread for torch and for the BLAS)"
                        " on a machine with 2 CPUs (AMD EPYC).")
    text = f"intro\n\n{readme.START}\nold table\n{readme.END}\n\nafter\n"
    written = readme.replace_block(text, readme.render_block(results, measured))
    assert written.startswith(f"intro\n\n{readme.START}\n| workload | {TORCH} | {NUMPY} | {FRESH_TORCH} | {FRESH_NUMPY} |")
    assert written.endswith(f"{measured}\n{readme.END}\n\nafter\n")
    assert "| 8x8 add (per-op overhead) | 2.50x ✗ | 7.00x | n/a | n/a | ≤2x torch (warm) |" in written
    assert "| 1M-element elementwise chain | 0.50x | 0.75x | 0.40x | n/a |" in written
    assert readme.parse_block(readme.read_block(written)) == (results, measured)
    (tmp_path / "README.md").write_text(text, encoding="utf-8")
    readme.write_readme(results, measured, tmp_path / "README.md")
    assert (tmp_path / "README.md").read_text(encoding="utf-8") == written


def test_a_typed_annotation_in_the_table_is_refused() -> None:
    block = the_readme_block().replace("| 8x8 add (per-op overhead) | ", "| 8x8 add (per-op overhead) | 0.46x† ", 1)
    assert block != the_readme_block()
    with pytest.raises(ValueError, match="generated, not typed"):
        readme.parse_block(block)


def test_missing_markers_are_an_error() -> None:
    with pytest.raises(ValueError, match="bench-table:start"):
        readme.read_block("| workload | ... |")


# --- the command line: the flags that need no measuring ------------------------------------------------------


@pytest.mark.parametrize("arguments", [["--write-readme"], ["add", "--fresh", "--write-readme"], ["--repeat", "0"]])
def test_python_m_bench_refuses_what_it_cannot_do(arguments: list[str]) -> None:
    result = subprocess.run([sys.executable, "-m", "bench", *arguments], cwd=REPO_ROOT, capture_output=True, text=True)
    assert result.returncode == 2, result.stdout
