"""The course workload: autograde 20 submissions with 1 and 2 workers, and with plain nbgrader.

``python -m bench course`` (or ``python -m bench.course``) builds a throwaway course, releases
exercise 04, writes 20 submissions (solutions and blanks), and prints: wall time with
``--jobs 1`` and ``--jobs 2`` and their ratio (target ≥ 1.7x), the per-notebook overhead beyond
the learner's own compute (target ≤ 2 s), and plain ``nbgrader autograde`` on the same files.
"""

from __future__ import annotations

import io
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .registry import workload

ASSIGNMENT = "04-broadcasting"
NOTEBOOK = "broadcasting"


def make_course(root: Path, submissions: int) -> Any:
    from autograder.course import init_course, release

    course = init_course(root)
    release(course, [ASSIGNMENT])
    for number in range(submissions):
        source = "source" if number % 4 else "release"  # three solutions for each blank
        target = root / "submitted" / f"student{number:02d}" / ASSIGNMENT / f"{NOTEBOOK}.ipynb"
        target.parent.mkdir(parents=True)
        shutil.copyfile(root / source / ASSIGNMENT / f"{NOTEBOOK}.ipynb", target)
    return course


def time_plain_nbgrader(course: Any, students: list[str]) -> float:
    from nbgrader.apps import NbGraderAPI

    api = NbGraderAPI(config=course.nbgrader_config())
    started = time.perf_counter()
    for student in students:
        outcome = api.autograde(ASSIGNMENT, student, force=True, create=True)
        if not outcome["success"]:
            raise RuntimeError(outcome["error"])
    return time.perf_counter() - started


def run_course_benchmark(submissions: int = 20) -> dict[str, float]:
    from autograder.autograde import autograde

    with tempfile.TemporaryDirectory(prefix="tensorlab-bench-course-") as folder:
        course = make_course(Path(folder), submissions)
        quiet = io.StringIO()
        one = autograde(course, [ASSIGNMENT], jobs=1, force=True, stream=quiet)
        two = autograde(course, [ASSIGNMENT], jobs=2, force=True, stream=quiet)
        overhead = [total - compute for total, compute in zip(one.per_notebook_seconds, one.compute_seconds, strict=True)]
        plain = time_plain_nbgrader(course, [f"student{n:02d}" for n in range(submissions)])
    return {
        "submissions": submissions, "jobs1": one.seconds, "jobs2": two.seconds, "speedup": one.seconds / two.seconds,
        "overhead_median": statistics.median(overhead), "overhead_max": max(overhead),
        "compute_median": statistics.median(one.compute_seconds), "nbgrader": plain,
    }


def describe(numbers: dict[str, float]) -> str:
    n = int(numbers["submissions"])
    return "\n".join([
        f"## course: autograding {n} submissions of {ASSIGNMENT}",
        "",
        "| run | wall time | per notebook |",
        "|---|---|---|",
        f"| tensorlab autograde --jobs 1 | {numbers['jobs1']:.1f} s | {numbers['jobs1'] / n:.2f} s |",
        f"| tensorlab autograde --jobs 2 | {numbers['jobs2']:.1f} s | {numbers['jobs2'] / n:.2f} s |",
        f"| plain nbgrader autograde (serial, in-kernel) | {numbers['nbgrader']:.1f} s | {numbers['nbgrader'] / n:.2f} s |",
        "",
        f"- speedup with 2 jobs: {numbers['speedup']:.2f}x (target ≥ 1.7x)",
        f"- overhead per notebook beyond the learner's compute: median {numbers['overhead_median']:.2f} s, "
        f"max {numbers['overhead_max']:.2f} s (target ≤ 2 s); learner compute median {numbers['compute_median'] * 1000:.1f} ms",
    ])


@workload("course", "autograde 20 submissions: --jobs 1 vs 2, vs nbgrader (report printed)")
def course_workload(implementation: str) -> Callable[[], Any] | None:
    """Runs the whole course benchmark once and prints it; the timed call then just returns the numbers."""
    if implementation != "tensorlab":
        return None
    numbers = run_course_benchmark()
    print(describe(numbers) + "\n", flush=True)
    return lambda: numbers


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    print(describe(run_course_benchmark(count)))
