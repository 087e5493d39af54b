"""The course pipeline end to end, through the CLI: init, release, zip-collect, autograde, export, feedback, report.

The fake students of all three pilot exercises (tests/fake_students) — thirteen of exercise 04,
honest, careless and hostile, and a perfect, a blank and plausible wrong ones of 08 and 11 —
are graded in one run with two workers and a 3-second limit per function; each must get its
known score, which also shows that no student's crash, loop or memory hog touches the others.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import zipfile
from pathlib import Path

import pytest

from autograder.cli import main
from tests.fake_students import ROSTERS, STUDENTS

ASSIGNMENT = "04-broadcasting"
SUBMISSIONS = sum(len(students) for _, students in ROSTERS.values())
EVERY_STUDENT = [(assignment, student) for assignment, (_, students) in ROSTERS.items() for student in students]
pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]  # a whole course graded end to end (about 30 s)


def build_graded_course(course: Path, db: str | None = None, autograde: bool = True) -> Path:
    """init (with the gradebook at ``db``: SQLite in the course by default), release, zip-collect
    every roster, autograde everything with two workers."""
    assert main(["course", "init", str(course), *(["--db", db] if db else [])]) == 0
    assert main(["course", "release", str(course)]) == 0
    downloads = course.with_name(f"{course.name}-lms")
    downloads.mkdir()
    for assignment, (notebook, students) in ROSTERS.items():
        solution = course / "source" / assignment / f"{notebook}.ipynb"
        released = course / "release" / assignment / f"{notebook}.ipynb"
        archive = downloads / f"{assignment}.zip"
        with zipfile.ZipFile(archive, "w") as lms:
            for student in students:
                path = downloads / assignment / f"{student.name}.ipynb"
                student.write(solution, released, path)
                lms.write(path, f"downloads/{student.name}_{notebook}.ipynb")
        assert main(["course", "zip-collect", str(course), str(archive), "--assignment", assignment]) == 0
    if autograde:
        assert main(["course", "autograde", str(course), "--jobs", "2", "--timeout", "3"]) == 0
    return course


@pytest.fixture(scope="module")
def graded_course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The graded course, built once per test run: under pytest-xdist the workers share one.

    Tests only read it; the one that re-grades works on its own copy.
    """
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return build_graded_course(tmp_path_factory.mktemp("course"))
    from filelock import FileLock

    shared = tmp_path_factory.getbasetemp().parent / "graded-course"  # this run's folder, common to all workers
    with FileLock(f"{shared}.lock"):
        if not (shared / "graded").exists():
            shutil.rmtree(shared, ignore_errors=True)
            shutil.rmtree(shared.with_name(f"{shared.name}-lms"), ignore_errors=True)
            shared.mkdir()
            (build_graded_course(shared) / "graded").touch()
    return shared


def results(course: Path, student: str, assignment: str = ASSIGNMENT) -> dict[str, float]:
    data = json.loads((course / "autograded" / student / assignment / "tensorlab-results.json").read_text())
    return {function["name"]: function["score"] for function in data["functions"]}


@pytest.mark.parametrize(("assignment", "student"), EVERY_STUDENT, ids=lambda x: getattr(x, "name", x))
def test_each_fake_student_gets_the_known_score(graded_course: Path, assignment: str, student) -> None:
    assert results(graded_course, student.name, assignment) == student.expected


def exported_rows(course: Path, to: Path) -> list[dict]:
    assert main(["course", "export", str(course), "--to", str(to)]) == 0
    return list(csv.DictReader(to.open()))


def assert_every_roster_scored(rows: list[dict]) -> None:
    """Each fake student's exported score is the sum of their known scores."""
    for assignment, (_, students) in ROSTERS.items():
        submitted = {s.name for s in students}  # nbgrader also lists everyone else, with 0 and no timestamp
        exported = {row["student_id"]: float(row["score"]) for row in rows
                    if row["assignment"] == assignment and row["student_id"] in submitted}
        assert exported == {s.name: float(sum(s.expected.values())) for s in students}


def test_export_has_nbgraders_columns_and_every_score(graded_course: Path, tmp_path: Path) -> None:
    rows = exported_rows(graded_course, tmp_path / "grades.csv")
    assert {"assignment", "student_id", "score", "max_score"} <= set(rows[0])
    assert {float(row["max_score"]) for row in rows if row["assignment"] == ASSIGNMENT} == {7.0}
    assert_every_roster_scored(rows)


def test_rerunning_autograde_grades_only_what_is_missing(graded_course: Path, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture) -> None:
    # a copy: other tests read the original meanwhile (and write its feedback/ and reports/)
    course = shutil.copytree(graded_course, tmp_path / "course", ignore=shutil.ignore_patterns("feedback", "reports"))
    (course / "autograded" / "perfect" / ASSIGNMENT / "tensorlab-results.json").unlink()
    assert main(["course", "autograde", str(course), "--db", f"sqlite:///{course / 'gradebook.db'}", "--timeout", "3"]) == 0
    assert f"graded 1 submissions ({SUBMISSIONS - 1} already graded)" in capsys.readouterr().out
    assert results(course, "perfect") == STUDENTS[0].expected


def test_feedback_has_messages_but_no_test_code_or_hidden_inputs(graded_course: Path) -> None:
    assert main(["course", "feedback", str(graded_course)]) == 0
    page = (graded_course / "feedback" / "infinite_loop" / ASSIGNMENT / "broadcasting.html").read_text()
    assert "took longer than 3 s" in page and "7 / 7" not in page
    forbidden = (graded_course / "feedback" / "forbidden" / ASSIGNMENT / "broadcasting.html").read_text()
    assert "broadcast_shapes" in forbidden
    gather = (graded_course / "feedback" / "forbidden" / "08-gather-scatter" / "gather_scatter.html").read_text()
    assert "take_along_axis" in gather and "5 / 10" in gather
    for page_path in (graded_course / "feedback").rglob("*.html"):  # the student's own notebook: no hidden tests
        text = page_path.read_text()
        assert "HIDDEN" not in text and "<script" not in text.lower()


def test_report_writes_histogram_and_failure_table(graded_course: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["course", "report", str(graded_course)]) == 0
    out = capsys.readouterr().out
    assert "| broadcast_shape |" in out and "| expand_to | 7/13" in out
    assert "| scatter_add_loops | 2/6" in out and "| backprop | 2/5" in out
    assert (graded_course / "reports" / f"{ASSIGNMENT}-scores.png").stat().st_size > 1000


def test_student_check_command_reports_public_checks(graded_course: Path, capsys: pytest.CaptureFixture) -> None:
    """The released cases file travels with the notebook; without it, check says where it should be."""
    released = graded_course / "release" / ASSIGNMENT / "tensorlab-cases.json"
    perfect = graded_course / "submitted" / "perfect" / ASSIGNMENT / "broadcasting.ipynb"
    assert main(["check", str(perfect), "--cases", str(released)]) == 0
    assert "✓ broadcast_add" in capsys.readouterr().out
    blank = graded_course / "submitted" / "blank" / ASSIGNMENT / "broadcasting.ipynb"
    shutil.copyfile(released, blank.parent / "tensorlab-cases.json")
    assert main(["check", str(blank)]) == 1
    assert "not written yet" in capsys.readouterr().out
    (blank.parent / "tensorlab-cases.json").unlink()
    assert main(["check", str(blank)]) == 2
    assert "no tensorlab-cases.json" in capsys.readouterr().err
