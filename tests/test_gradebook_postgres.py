"""The gradebook on a real PostgreSQL 15 server (started by the test on 127.0.0.1, stopped after):
every `tensorlab course` step works against it, with either spelling of the URL, and the grades
are the ones the SQLite gradebook gets. A server enforces what SQLite never checked (an
assignment's course must exist), so these tests are the only ones that can catch it."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from autograder.cli import main
from autograder.course import gradebook_url
from tests.test_course_pipeline import assert_every_roster_scored, build_graded_course, exported_rows

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]


def test_a_bare_postgresql_url_gets_an_installed_driver() -> None:
    assert gradebook_url("postgresql://u@h/db") == "postgresql+psycopg2://u@h/db"
    assert gradebook_url("postgresql+psycopg://u@h/db") == "postgresql+psycopg://u@h/db"
    assert gradebook_url("sqlite:///x.db") == "sqlite:///x.db"


def test_the_whole_course_on_postgresql(postgres_url: str, tmp_path: Path) -> None:
    course = build_graded_course(tmp_path / "course", db=postgres_url)
    assert_every_roster_scored(exported_rows(course, tmp_path / "grades.csv"))
    assert main(["course", "feedback", str(course)]) == 0
    assert main(["course", "report", str(course)]) == 0


def autograde_process(course: Path, shard: str) -> subprocess.Popen:
    """``tensorlab course autograde --shard I/N`` as its own process, as on its own machine."""
    return subprocess.Popen([sys.executable, "-m", "autograder.cli", "course", "autograde", str(course),
                             "--timeout", "3", "--shard", shard],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=Path(__file__).parent.parent)


def graded_submissions(course: Path) -> int:
    return len(list((course / "autograded").glob("*/*/tensorlab-results.json")))


def test_shards_grade_each_submission_once_into_one_gradebook(postgres_url: str, tmp_path: Path) -> None:
    """Two shards at once, one of them killed halfway and started again: the same grades as one
    process would give, nothing lost, nothing graded twice."""
    course = build_graded_course(tmp_path / "course", db=postgres_url, autograde=False)
    submitted = len(list((course / "submitted").glob("*/*/*.ipynb")))
    first, second = autograde_process(course, "0/2"), autograde_process(course, "1/2")
    deadline = time.monotonic() + 120
    while graded_submissions(course) < 2 and first.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    first.kill()  # a machine lost halfway through its share
    first.wait()
    restarted = autograde_process(course, "0/2")
    outputs = [process.communicate(timeout=300)[0] for process in (second, restarted)]
    assert [process.returncode for process in (second, restarted)] == [0, 0], outputs
    graded = [int(re.search(r"graded (\d+) submissions \((\d+) already", out).group(1)) for out in outputs]  # type: ignore[union-attr]
    assert graded_submissions(course) == submitted
    assert sum(graded) <= submitted  # the restarted shard took up only what the killed one had not finished
    assert_every_roster_scored(exported_rows(course, tmp_path / "grades.csv"))


def test_shards_split_the_students_stably() -> None:
    from autograder.autograde import in_shard, parse_shard
    from autograder.exercise import ExerciseError

    students = [f"student{k}" for k in range(200)]
    shares = [[s for s in students if in_shard(s, (index, 3))] for index in range(3)]
    assert sorted(s for share in shares for s in share) == sorted(students)  # disjoint, and nobody left out
    assert all(40 < len(share) < 100 for share in shares)
    assert parse_shard("2/3") == (2, 3)
    for bad in ("3/3", "-1/2", "x", "1/0"):
        with pytest.raises(ExerciseError):
            parse_shard(bad)
