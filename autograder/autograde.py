"""``autograde``: grade every submission out of kernel, in parallel, resumably, into the gradebook.

Each submission is graded by a worker process (which starts one sandbox child per submission,
and that child one fresh grandchild per graded function). Workers are forked from this process
once it has imported everything grading needs, so a worker starts in milliseconds, not the
second or two a fresh Python takes to import nbformat, IPython and tensorlab (the "spawn"
start method is used where fork is not safe: not Linux). This process alone writes: the scores into the nbgrader gradebook, one transaction
per submission, then ``tensorlab-results.json`` next to nbgrader's autograded copy, atomically.
The results file records the submission's hash, so a re-run after an interruption grades only
the submissions that have no results yet, or whose notebook changed since.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import sys
import time
import warnings
import zlib
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from multiprocessing import get_context
from multiprocessing.context import BaseContext
from pathlib import Path
from typing import TextIO

from tensorlab.grading.isolation import choose
from tensorlab.grading.tasks import Case
from tensorlab.grading.verify import Grading, NotebookResult, verify_notebook

from .collect import submission_time
from .course import Course
from .deadlines import naive_utc
from .exercise import ExerciseError

__all__ = ["AutogradeSummary", "autograde"]


@dataclass
class AutogradeSummary:
    graded: int
    skipped: int
    seconds: float
    per_notebook_seconds: list[float]
    compute_seconds: list[float]
    isolation: str = "namespaces"  # what ran the learner code of this run


def file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def up_to_date(course: Course, student: str, assignment: str, recorded: dict[str, dict[str, float | None]]) -> bool:
    """Already graded: the results file is for this very notebook (its hash) and the gradebook holds
    the same scores. The gradebook is what export and the formgrader read, so a results file alone
    (a fresh or replaced gradebook, a course whose gradebook was elsewhere) does not count: such a
    submission is graded again, which costs a fraction of a second and trusts nothing stale."""
    results = course.results_path(student, assignment)
    if not results.exists():
        return False
    try:
        data = json.loads(results.read_text())
        if data["sha256"] != file_hash(course.submission(student, assignment)):
            return False
        grading = course.exercise(assignment)
        scores = {grading.find(f["name"]).grade_id: float(f["score"]) for f in data["functions"]}
    except (json.JSONDecodeError, KeyError, TypeError, ValueError, OSError):
        return False
    held = recorded.get(student, {})
    return all(held.get(grade_id) is not None and math.isclose(held[grade_id], score, abs_tol=1e-9)  # type: ignore[arg-type]
               for grade_id, score in scores.items())


def recorded_scores(gradebook: object, assignment: str) -> dict[str, dict[str, float | None]]:
    """Student -> grade cell -> auto score of every submission of ``assignment`` in the gradebook, in one query."""
    from nbgrader.api import Assignment, BaseCell, Grade, SubmittedAssignment, SubmittedNotebook

    rows = (gradebook.db.query(SubmittedAssignment.student_id, BaseCell.name, Grade.auto_score)  # type: ignore[attr-defined]
            .join(Assignment, Assignment.id == SubmittedAssignment.assignment_id)
            .join(SubmittedNotebook, SubmittedNotebook.assignment_id == SubmittedAssignment.id)
            .join(Grade, Grade.notebook_id == SubmittedNotebook.id)
            .join(BaseCell, BaseCell.id == Grade.cell_id)
            .filter(Assignment.name == assignment))
    found: dict[str, dict[str, float | None]] = {}
    for student, cell, score in rows:
        found.setdefault(student, {})[cell] = score
    return found


def write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_text(text)
    os.replace(temporary, path)


# --- the worker side: no gradebook, no files written, only a result returned ---

_CASES: dict[str, dict[str, list[Case]]] = {}
_GRADINGS: dict[str, Grading] = {}


def _start_worker(cases: dict[str, dict[str, list[Case]]], gradings: dict[str, Grading]) -> None:
    _CASES.update(cases)
    _GRADINGS.update(gradings)


def _worker_context() -> BaseContext:
    """Fork (cheap, inherits the imports) on Linux, after loading what the workers will use."""
    if not sys.platform.startswith("linux"):
        return get_context("spawn")
    from IPython.core.inputtransformer2 import TransformerManager  # noqa: F401 - read_program's, imported once here

    return get_context("fork")


def grade_one(assignment: str, notebook: str, timeout: float | None, isolation: str) -> tuple[dict, float]:
    started = time.perf_counter()
    result = verify_notebook(Path(notebook), _GRADINGS[assignment], _CASES[assignment], timeout, isolation)
    return result.to_json(), time.perf_counter() - started


# --- the parent side ---

def record(gradebook: object, course: Course, student: str, assignment: str, result: NotebookResult) -> None:
    """Write one submission's scores into the gradebook, in one transaction."""
    from nbgrader.api import MissingEntry

    grading = course.exercise(assignment)
    gradebook.update_or_create_student(student)
    try:
        submission = gradebook.find_submission(assignment, student)
    except MissingEntry:
        with warnings.catch_warnings():  # nbgrader's add_submission trips SQLAlchemy's autoflush notices
            warnings.simplefilter("ignore")
            submission = gradebook.add_submission(assignment, student)
    when = submission_time(course, student, assignment)
    if when is not None:  # formgrader shows when it was submitted (the late policy is applied by export)
        submission.timestamp = naive_utc(when)
    for function in result.functions:
        grade = gradebook.find_grade(grading.find(function.name).grade_id, grading.notebook, assignment, student)
        grade.auto_score = function.score
    gradebook.db.commit()


class Progress:
    """tqdm's bar (rate and time left) on a terminal; elsewhere (logs, CI, a Kubernetes job) one line
    per submission, with the same count and estimate. ``label`` names the shard. The time is measured
    here (``clock``), not read from tqdm, which keeps no time when it is disabled."""

    def __init__(self, total: int, stream: TextIO, label: str = "",
                 clock: Callable[[], float] = time.perf_counter) -> None:
        from tqdm import tqdm

        self.total, self.done, self.stream, self.label, self.clock = total, 0, stream, label, clock
        self.started = clock()
        self.lines = not stream.isatty()
        self.bar = tqdm(total=total, file=stream, desc=label or "autograde", unit="submission", disable=self.lines)

    def step(self, student: str, assignment: str, score: float, max_score: float) -> None:
        self.done += 1
        self.bar.update(1)
        if self.lines:
            elapsed = self.clock() - self.started
            left = elapsed / self.done * (self.total - self.done)
            prefix = f"{self.label} " if self.label else ""
            self.stream.write(f"{prefix}[{self.done}/{self.total}] {student}/{assignment}: {score:g}/{max_score:g} "
                              f"({elapsed:.1f} s, about {left:.0f} s left)\n")
            self.stream.flush()

    def close(self) -> None:
        self.bar.close()


def in_shard(student: str, shard: tuple[int, int] | None) -> bool:
    """Is ``student`` graded by shard ``(index, count)``? A stable hash of the student's name: every
    submission of a student lands in the same shard, run after run and machine after machine, so
    shards never write the same gradebook rows (a student row is created once) and a restarted
    shard takes back exactly its own submissions."""
    if shard is None:
        return True
    index, count = shard
    return zlib.crc32(student.encode()) % count == index


def parse_shard(text: str) -> tuple[int, int]:
    """``"I/N"`` (I from 0, as a Kubernetes Indexed Job numbers its pods) as ``(I, N)``."""
    try:
        index, count = (int(part) for part in text.split("/"))
    except ValueError:
        raise ExerciseError(f"--shard takes I/N (for example 0/4), not {text!r}") from None
    if not 0 <= index < count:
        raise ExerciseError(f"--shard {text}: I must be at least 0 and below N (for example 0/4)")
    return index, count


def autograde(course: Course, assignments: list[str], jobs: int = 1, timeout: float | None = None,
              force: bool = False, stream: TextIO = sys.stderr, shard: tuple[int, int] | None = None,
              isolation: str = "namespaces") -> AutogradeSummary:
    """Grade the submissions of ``assignments`` (all released ones when empty) that have no results
    yet; with ``shard=(I, N)`` only shard I's share of them, so N machines can grade one course.

    Learner code runs in OS namespaces (``isolation="namespaces"``, the default): where they are not
    available this raises IsolationUnavailableError before anything is graded, unless the instructor
    chose ``"process"`` (the Python-level guards only). Each result records which one graded it.
    """
    started = time.perf_counter()
    course.require(assignments)
    isolation = choose(isolation)
    seed = course.secret_seed
    with course.gradebook() as gradebook:
        released = {assignment.name for assignment in gradebook.assignments}
        unreleased = [assignment for assignment in assignments if assignment not in released]
        if unreleased:
            raise ExerciseError(f"{', '.join(unreleased)} not released yet (not in the gradebook): run "
                                f"`tensorlab course release {course.root} {' '.join(unreleased)}` first")
        assignments = assignments or [name for name in course.assignments() if name in released]
        submissions = [(s, a) for s, a in course.submissions(assignments) if in_shard(s, shard)]
        recorded = {a: recorded_scores(gradebook, a) for a in assignments} if not force else {}
        todo = [(s, a) for s, a in submissions if force or not up_to_date(course, s, a, recorded[a])]
        cases = {a: course.folder(a).cases(seed) for a in {a for _, a in todo}}
        gradings = {a: course.exercise(a) for a in cases}
        progress = Progress(len(todo), stream, f"shard {shard[0]}/{shard[1]}" if shard else "")
        per_notebook: list[float] = []
        compute: list[float] = []

        def finish(student: str, assignment: str, data: dict, seconds: float) -> None:
            result = NotebookResult.from_json(data)
            record(gradebook, course, student, assignment, result)
            sha = file_hash(course.submission(student, assignment))
            write_atomically(course.results_path(student, assignment),
                             json.dumps({"sha256": sha, "seconds": seconds, **data}, indent=1))
            per_notebook.append(seconds)
            compute.append(sum(f.compute_seconds for f in result.functions))
            progress.step(student, assignment, result.score, course.exercise(assignment).max_score)

        def arguments(student: str, assignment: str) -> tuple:
            return assignment, str(course.submission(student, assignment)), timeout, isolation

        if jobs <= 1:
            _start_worker(cases, gradings)
            for student, assignment in todo:
                finish(student, assignment, *grade_one(*arguments(student, assignment)))
        elif todo:
            with ProcessPoolExecutor(jobs, mp_context=_worker_context(), initializer=_start_worker, initargs=(cases, gradings)) as pool:
                futures: dict[Future, tuple[str, str]] = {
                    pool.submit(grade_one, *arguments(s, a)): (s, a) for s, a in todo
                }
                for future in as_completed(futures):
                    finish(*futures[future], *future.result())
        progress.close()
    return AutogradeSummary(len(todo), len(submissions) - len(todo), time.perf_counter() - started, per_notebook, compute,
                            isolation)
