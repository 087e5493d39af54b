"""The course pipeline end to end, through the CLI: init, release, zip-collect, autograde, export, feedback, report.

Thirteen fake students of exercise 04 (tests/fake_students) — honest, careless and hostile —
are graded in one run with two workers and a 3-second limit per function; each must get its
known score, which also shows that no student's crash, loop or memory hog touches the others.
"""

from __future__ import annotations

import csv
import json
import zipfile
from pathlib import Path

import pytest

from autograder.cli import main
from tests.fake_students import STUDENTS

ASSIGNMENT = "04-broadcasting"
pytestmark = pytest.mark.timeout(240)  # slow: a whole course graded end to end (about 20 s)


@pytest.fixture(scope="module")
def graded_course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    course = tmp_path_factory.mktemp("course")
    assert main(["course", "init", str(course)]) == 0
    assert main(["course", "release", str(course), ASSIGNMENT]) == 0
    solution = course / "source" / ASSIGNMENT / "broadcasting.ipynb"
    released = course / "release" / ASSIGNMENT / "broadcasting.ipynb"
    archive = course.parent / f"{course.name}-lms.zip"
    with zipfile.ZipFile(archive, "w") as lms:
        for student in STUDENTS:
            path = course.parent / f"{course.name}-{student.name}.ipynb"
            student.write(solution, released, path)
            lms.write(path, f"downloads/{student.name}_broadcasting.ipynb")
    assert main(["course", "zip-collect", str(course), str(archive), "--assignment", ASSIGNMENT]) == 0
    assert main(["course", "autograde", str(course), ASSIGNMENT, "--jobs", "2", "--timeout", "3"]) == 0
    return course


def results(course: Path, student: str) -> dict[str, float]:
    data = json.loads((course / "autograded" / student / ASSIGNMENT / "tensorlab-results.json").read_text())
    return {function["name"]: function["score"] for function in data["functions"]}


@pytest.mark.parametrize("student", STUDENTS, ids=lambda s: s.name)
def test_each_fake_student_gets_the_known_score(graded_course: Path, student) -> None:
    assert results(graded_course, student.name) == student.expected


def test_export_has_nbgraders_columns_and_every_score(graded_course: Path) -> None:
    assert main(["course", "export", str(graded_course)]) == 0
    rows = list(csv.DictReader((graded_course / "grades.csv").open()))
    assert {"assignment", "student_id", "score", "max_score"} <= set(rows[0])
    scores = {row["student_id"]: float(row["score"]) for row in rows if row["assignment"] == ASSIGNMENT}
    assert scores == {s.name: float(sum(s.expected.values())) for s in STUDENTS}
    assert {float(row["max_score"]) for row in rows if row["assignment"] == ASSIGNMENT} == {7.0}


def test_rerunning_autograde_grades_only_what_is_missing(graded_course: Path, capsys: pytest.CaptureFixture) -> None:
    (graded_course / "autograded" / "perfect" / ASSIGNMENT / "tensorlab-results.json").unlink()
    assert main(["course", "autograde", str(graded_course), "--timeout", "3"]) == 0
    assert f"graded 1 submissions ({len(STUDENTS) - 1} already graded)" in capsys.readouterr().out
    assert results(graded_course, "perfect") == STUDENTS[0].expected


def test_feedback_has_messages_but_no_test_code_or_hidden_inputs(graded_course: Path) -> None:
    assert main(["course", "feedback", str(graded_course)]) == 0
    page = (graded_course / "feedback" / "infinite_loop" / ASSIGNMENT / "broadcasting.html").read_text()
    assert "took longer than 3 s" in page and "7 / 7" not in page
    forbidden = (graded_course / "feedback" / "forbidden" / ASSIGNMENT / "broadcasting.html").read_text()
    assert "broadcast_shapes" in forbidden
    for page_path in (graded_course / "feedback").rglob("*.html"):
        text = page_path.read_text()
        assert "check(" not in text and "BEGIN" not in text


def test_report_writes_histogram_and_failure_table(graded_course: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["course", "report", str(graded_course)]) == 0
    out = capsys.readouterr().out
    assert "| broadcast_shape |" in out and "| expand_to | 7/13" in out
    assert (graded_course / "reports" / f"{ASSIGNMENT}-scores.png").stat().st_size > 1000


def test_student_check_command_reports_visible_checks(graded_course: Path, capsys: pytest.CaptureFixture) -> None:
    perfect = graded_course / "submitted" / "perfect" / ASSIGNMENT / "broadcasting.ipynb"
    assert main(["check", str(perfect)]) == 0
    assert "✓ broadcast_add" in capsys.readouterr().out
    blank = graded_course / "submitted" / "blank" / ASSIGNMENT / "broadcasting.ipynb"
    assert main(["check", str(blank)]) == 1
    assert "not written yet" in capsys.readouterr().out
