"""The course workload: autograde N submissions with 1 and 2 workers, and with plain nbgrader.

``python -m bench course`` (or ``python -m bench.course [N]``) builds a throwaway course, releases
exercise 04, writes 20 submissions (solutions and blanks), and prints: wall time with
``--jobs 1`` and ``--jobs 2`` and their ratio (target ≥ 1.7x), submissions graded per minute per
core (what sizes a course: 500 students on N cores), the per-notebook overhead beyond the learner's
own compute (target ≤ 2 s), and plain ``nbgrader autograde`` on at most 20 of the same files (it
takes a second or more each). ``python -m bench course --students 500`` sets N.
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
DEFAULT_SUBMISSIONS = 20
ISOLATION = "auto"  # namespaces where bubblewrap works (what a course gets), else the process alone
NBGRADER_SAMPLE = 20  # plain nbgrader is timed on this many submissions at most, then reported per notebook


def make_course(root: Path, submissions: int) -> Any:
    from autograder.course import init_course, release

    course = init_course(root)
    release(course, [ASSIGNMENT])
    for number in range(submissions):
        source = "source" if number % 4 else "release"  # three solutions for each blank
        target = root / "submitted" / student_name(number) / ASSIGNMENT / f"{NOTEBOOK}.ipynb"
        target.parent.mkdir(parents=True)
        shutil.copyfile(root / source / ASSIGNMENT / f"{NOTEBOOK}.ipynb", target)
    return course


def student_name(number: int) -> str:
    return f"student{number:03d}"


def time_plain_nbgrader(course: Any, students: list[str]) -> float:
    from nbgrader.apps import NbGraderAPI

    api = NbGraderAPI(config=course.nbgrader_config())
    started = time.perf_counter()
    for student in students:
        outcome = api.autograde(ASSIGNMENT, student, force=True, create=True)
        if not outcome["success"]:
            raise RuntimeError(outcome["error"])
    return time.perf_counter() - started


def run_course_benchmark(submissions: int = DEFAULT_SUBMISSIONS) -> dict[str, float]:
    from autograder.autograde import autograde

    with tempfile.TemporaryDirectory(prefix="tensorlab-bench-course-") as folder:
        course = make_course(Path(folder), submissions)
        quiet = io.StringIO()
        one = autograde(course, [ASSIGNMENT], jobs=1, force=True, stream=quiet, isolation=ISOLATION)
        two = autograde(course, [ASSIGNMENT], jobs=2, force=True, stream=quiet, isolation=ISOLATION)
        bare = autograde(course, [ASSIGNMENT], jobs=1, force=True, stream=quiet, isolation="process")
        overhead = [total - compute for total, compute in zip(one.per_notebook_seconds, one.compute_seconds, strict=True)]
        sample = min(submissions, NBGRADER_SAMPLE)
        plain = time_plain_nbgrader(course, [student_name(n) for n in range(sample)])
    return {
        "submissions": submissions, "jobs1": one.seconds, "jobs2": two.seconds, "speedup": one.seconds / two.seconds,
        "overhead_median": statistics.median(overhead), "overhead_max": max(overhead),
        "compute_median": statistics.median(one.compute_seconds),
        "nbgrader": plain, "nbgrader_sample": sample, "isolation": one.isolation,
        "isolation_added": statistics.median(one.per_notebook_seconds) - statistics.median(bare.per_notebook_seconds),
    }


def per_minute_per_core(submissions: float, seconds: float, cores: int) -> float:
    """Throughput that scales a course: how many submissions one core grades in a minute."""
    return submissions / seconds * 60 / cores


def describe(numbers: dict[str, float]) -> str:
    n = int(numbers["submissions"])
    sample = int(numbers["nbgrader_sample"])
    rate1 = per_minute_per_core(n, numbers["jobs1"], 1)
    rate2 = per_minute_per_core(n, numbers["jobs2"], 2)
    return "\n".join([
        f"## course: autograding {n} submissions of {ASSIGNMENT}",
        "",
        "| run | wall time | per notebook | submissions per minute per core |",
        "|---|---|---|---|",
        f"| tensorlab autograde --jobs 1 | {numbers['jobs1']:.1f} s | {numbers['jobs1'] / n:.2f} s | {rate1:.0f} |",
        f"| tensorlab autograde --jobs 2 | {numbers['jobs2']:.1f} s | {numbers['jobs2'] / n:.2f} s | {rate2:.0f} |",
        f"| plain nbgrader autograde (serial, in-kernel; {sample} submissions) | {numbers['nbgrader']:.1f} s | "
        f"{numbers['nbgrader'] / sample:.2f} s | {per_minute_per_core(sample, numbers['nbgrader'], 1):.0f} |",
        "",
        f"- speedup with 2 jobs: {numbers['speedup']:.2f}x (target ≥ 1.7x)",
        f"- overhead per notebook beyond the learner's compute: median {numbers['overhead_median']:.2f} s, "
        f"max {numbers['overhead_max']:.2f} s (target ≤ 2 s); learner compute median {numbers['compute_median'] * 1000:.1f} ms",
        *([f"- learner code isolated by {numbers['isolation']}: median added seconds per notebook over the process "
           f"alone {numbers['isolation_added']:+.3f} s (target ≤ 0.1 s)"] if "isolation" in numbers else []),
    ])


@workload("course", f"autograde {DEFAULT_SUBMISSIONS} submissions: --jobs 1 vs 2, vs nbgrader (report printed)")
def course_workload(implementation: str) -> Callable[[], Any] | None:
    """Runs the whole course benchmark once and prints it; the timed call then just returns the numbers."""
    if implementation != "tensorlab":
        return None
    numbers = run_course_benchmark()
    print(describe(numbers) + "\n", flush=True)
    return lambda: numbers


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_SUBMISSIONS
    print(describe(run_course_benchmark(count)))
