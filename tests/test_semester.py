"""A semester, scripted: a roster of 12, three assignments downloaded from Canvas, Moodle and
Blackboard, deadlines with three late policies and an extension, resubmissions before and after a
deadline, case and suffix variants, duplicates, a file nobody in the roster sent, a file that is
not a notebook, and a copy of the course graded on its own. Every student's submitted, late,
status and score in the exported CSV is checked, on SQLite and on a real PostgreSQL server.

Each fake student's notebook is one of tests/fake_students, whose scores are known."""

from __future__ import annotations

import csv
import shutil
import zipfile
from pathlib import Path

import pytest

from autograder.cli import main
from tests.fake_students import ROSTERS
from tests.test_cli_errors import tree_hash

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

PEOPLE = [  # id, name, Canvas user id, Moodle participant id
    ("ada", "Ada Lovelace", 1001, 501), ("alan", "Alan Turing", 1002, 502), ("grace", "Grace Hopper", 1003, 503),
    ("edsger", "Edsger Dijkstra", 1004, 504), ("barbara", "Barbara Liskov", 1005, 505),
    ("donald", "Donald Knuth", 1006, 506), ("margaret", "Margaret Hamilton", 1007, 507),
    ("john", "John McCarthy", 1008, 508), ("frances", "Frances Allen", 1009, 509), ("ken", "Ken Thompson", 1010, 510),
    ("radia", "Radia Perlman", 1011, 511), ("tim", "Tim Berners-Lee", 1012, 512),
]
CANVAS = {person: f"{name.split()[-1]}{name.split()[0]}".replace("-", "").lower() for person, name, _, _ in PEOPLE}
NAME = {person: name for person, name, _, _ in PEOPLE}
CANVAS_ID = {person: canvas for person, _, canvas, _ in PEOPLE}
MOODLE_ID = {person: moodle for person, _, _, moodle in PEOPLE}


def fake(assignment: str, name: str):
    return next(student for student in ROSTERS[assignment][1] if student.name == name)


class Downloads:
    """Writes LMS zips whose members are fake students' notebooks, each with the time the LMS recorded."""

    def __init__(self, course: Path, folder: Path) -> None:
        self.course, self.folder = course, folder
        folder.mkdir(exist_ok=True)

    def notebook(self, assignment: str, student: str) -> bytes:
        notebook = ROSTERS[assignment][0]
        path = self.folder / "work" / assignment / f"{student}.ipynb"
        fake(assignment, student).write(self.course / "source" / assignment / f"{notebook}.ipynb",
                                        self.course / "release" / assignment / f"{notebook}.ipynb", path)
        return path.read_bytes()

    def zip(self, name: str, members: list[tuple[str, str | bytes, tuple[int, ...]]]) -> Path:
        """``members``: (name in the zip, a fake student's name or raw bytes, the time (y, m, d, h, min))."""
        archive = self.folder / name
        assignment = name.split("-lms")[0]
        with zipfile.ZipFile(archive, "w") as lms:
            for member, content, when in members:
                data = content if isinstance(content, bytes) else self.notebook(assignment, content)
                lms.writestr(zipfile.ZipInfo(member, date_time=(*when, 0)[:6]), data)
        return archive


def canvas(person: str, submission: int, file: str, late: bool = False) -> str:
    return f"{CANVAS[person]}_{'late_' if late else ''}{CANVAS_ID[person]}_{submission}_{file}"


def moodle(person: str, file: str, folder: bool = True) -> str:
    return f"{NAME[person]}_{MOODLE_ID[person]}_assignsubmission_file_{'/' if folder else ''}{file}"


def blackboard(person: str, when: tuple[int, ...], file: str | None) -> str:
    stamp = "-".join(f"{part:02d}" for part in (*when, 0)[:6])
    return f"Autograd_{person}_attempt_{stamp}" + (f"_{file}" if file else ".txt")


def exported(course: Path) -> dict[tuple[str, str], dict]:
    assert main(["course", "export", str(course)]) == 0
    with (course / "grades.csv").open() as handle:
        return {(row["assignment"], row["student_id"]): row for row in csv.DictReader(handle)}


def facts(row: dict) -> tuple[str, str, str, str]:
    return row["submitted"], row["late"], row["status"], row["score"]


B04, G08, A11 = "04-broadcasting", "08-gather-scatter", "11-autograd"
EXPECTED = {  # (submitted, late, status, score) per student
    B04: {"ada": ("yes", "no", "graded", "7"), "alan": ("yes", "no", "graded", "0"), "grace": ("yes", "no", "graded", "2"),
          "edsger": ("yes", "no", "graded", "3"), "barbara": ("yes", "no", "graded", "4"),
          "donald": ("yes", "no", "graded", "7"), "margaret": ("yes", "yes", "late", "5.6"),
          "john": ("no", "no", "missing", ""), "frances": ("yes", "no", "graded", "7"),
          "ken": ("yes", "yes", "late", "6.3"), "radia": ("yes", "no", "graded", "7"), "tim": ("yes", "no", "graded", "7")},
    G08: {"ada": ("yes", "no", "graded", "10"), "alan": ("yes", "no", "graded", "8"), "grace": ("yes", "no", "graded", "5"),
          "edsger": ("yes", "no", "unreadable", "0"), "barbara": ("yes", "yes", "refused", "0"),
          "donald": ("yes", "no", "graded", "7"), "margaret": ("yes", "no", "graded", "10"),
          "john": ("no", "no", "missing", ""), "frances": ("no", "no", "missing", ""),
          "ken": ("yes", "no", "graded", "4"), "radia": ("yes", "no", "graded", "0"), "tim": ("yes", "no", "graded", "10")},
    A11: {"ada": ("yes", "no", "graded", "18"), "alan": ("yes", "no", "graded", "11"), "grace": ("yes", "no", "graded", "14"),
          "edsger": ("yes", "no", "graded", "10"), "barbara": ("yes", "no", "graded", "0"),
          "donald": ("yes", "no", "graded", "18"), "margaret": ("yes", "yes", "late", "18"),
          "john": ("no", "no", "missing", ""), "frances": ("yes", "no", "graded", "18"),
          "ken": ("no", "no", "missing", ""), "radia": ("yes", "no", "graded", "18"), "tim": ("yes", "no", "graded", "0")},
}


def run_semester(course: Path, work: Path, db: str | None) -> Downloads:
    exercises = work / "exercises"
    for assignment in (B04, G08, A11):
        shutil.copytree(Path(__file__).parent.parent / "exercises" / assignment, exercises / assignment)
    assert main(["course", "init", str(course), "--exercises", str(exercises), *(["--db", db] if db else [])]) == 0
    assert main(["course", "release", str(course)]) == 0
    roster = work / "roster.csv"
    roster.write_text("student_id,name,email,canvas_user_id,moodle_participant\n" + "".join(
        f"{person},{name},{person}@uni.example,{canvas_id},{moodle_id}\n" for person, name, canvas_id, moodle_id in PEOPLE))
    assert main(["course", "roster", "import", str(course), str(roster)]) == 0
    assert main(["course", "deadline", str(course), B04, "--due", "2026-11-10T23:59", "--late", "penalty",
                 "--penalty-per-day", "0.1"]) == 0
    assert main(["course", "deadline", str(course), G08, "--due", "2026-11-17T23:59", "--late", "refuse"]) == 0
    assert main(["course", "deadline", str(course), A11, "--due", "2026-11-24T23:59+00:00"]) == 0
    assert main(["course", "extend", str(course), G08, "margaret", "--until", "2026-11-20T23:59"]) == 0
    assert main(["course", "extend", str(course), G08, "margret", "--until", "2026-11-20T23:59"]) == 2  # not in the roster
    lms = Downloads(course, work / "lms")

    on_time, early = (2026, 11, 9, 10, 0), (2026, 11, 8, 9, 30)
    canvas_first = [
        (canvas("ada", 2001, "broadcasting.ipynb"), "perfect", on_time),
        (canvas("alan", 2002, "broadcasting.ipynb"), "blank", on_time),
        (canvas("grace", 2003, "Broadcasting.ipynb"), "crasher", on_time),        # case variant
        (canvas("edsger", 2004, "broadcasting (1).ipynb"), "forbidden", on_time),  # a browser's suffix
        (canvas("barbara", 2005, "broadcasting.ipynb"), "syntax_error", on_time),
        (canvas("donald", 2006, "broadcasting.ipynb"), "blank", early),
        (canvas("margaret", 2007, "broadcasting.ipynb"), "crasher", on_time),
        (canvas("frances", 2009, "broadcasting.ipynb"), "warns", on_time),
        (canvas("ken", 2010, "broadcasting.ipynb", late=True), "perfect", (2026, 11, 11, 0, 59)),  # an hour late
        (canvas("radia", 2011, "broadcasting.ipynb"), "perfect", on_time),
        (canvas("tim", 2012, "broadcasting.ipynb"), "perfect", on_time),
        ("nobodyhere_9999_2099_broadcasting.ipynb", "perfect", on_time),              # not in the roster
    ]
    first = lms.zip(f"{B04}-lms-1.zip", canvas_first)
    assert main(["course", "zip-collect", str(course), str(first), "--assignment", B04]) == 1  # one file skipped
    assert main(["course", "zip-collect", str(course), str(first), "--assignment", B04]) == 0  # already collected
    kept_before = {path: path.stat().st_mtime_ns for path in (course / "submitted").glob(f"*/{B04}/*.ipynb")}
    canvas_second = [entry for entry in canvas_first[:-1] if not entry[0].startswith(("knuth", "hamilton"))] + [
        (canvas("donald", 2020, "broadcasting-1.ipynb"), "perfect", (2026, 11, 10, 12, 0)),  # resubmitted in time
        (canvas("margaret", 2021, "broadcasting-1.ipynb", late=True), "perfect", (2026, 11, 12, 10, 0)),  # 2 days late
    ]
    second = lms.zip(f"{B04}-lms-2.zip", canvas_second)
    assert main(["course", "zip-collect", str(course), str(second), "--assignment", B04]) == 0
    for path, mtime in kept_before.items():  # nobody else's submission was cleared or copied again
        if path.parent.parent.name not in ("donald", "margaret"):
            assert path.stat().st_mtime_ns == mtime, path
    kept = list((course / "downloaded" / B04 / "submissions").glob("*/*.ipynb"))
    assert len(kept) == 13  # 11 first submissions, 2 resubmissions: nothing kept twice, nothing deleted

    moodle_files = [
        (moodle("ada", "gather_scatter.ipynb"), "perfect", (2026, 11, 15, 8, 0)),
        (moodle("alan", "Gather_Scatter.ipynb", folder=False), "overwrites_repeats", (2026, 11, 15, 9, 0)),
        (moodle("grace", "gather_scatter.ipynb"), "forbidden", (2026, 11, 16, 9, 0)),
        (moodle("edsger", "gather_scatter.ipynb"), b"my answers are in the PDF", (2026, 11, 16, 9, 0)),
        (moodle("barbara", "gather_scatter.ipynb"), "perfect", (2026, 11, 19, 9, 0)),           # late, refused
        (moodle("donald", "gather_scatter.ipynb"), "fancy_index_add", (2026, 11, 16, 9, 0)),    # in time: counts
        (moodle("donald", "gather_scatter (1).ipynb"), "perfect", (2026, 11, 18, 9, 0)),        # late: refused
        (moodle("margaret", "gather_scatter.ipynb"), "perfect", (2026, 11, 19, 9, 0)),          # within her extension
        (moodle("ken", "gather_scatter.ipynb"), "loops_in_vectorised", (2026, 11, 17, 23, 0)),
        (moodle("radia", "gather_scatter.ipynb"), "blank", (2026, 11, 10, 9, 0)),
        (moodle("tim", "gather_scatter.ipynb"), "perfect", (2026, 11, 17, 23, 58)),
    ]
    assert main(["course", "zip-collect", str(course), str(lms.zip(f"{G08}-lms.zip", moodle_files)),
                 "--assignment", G08]) == 0

    blackboard_files = []
    for person, student, when in [("ada", "perfect", (2026, 11, 20, 8, 0)), ("alan", "misaligned_unbroadcast", (2026, 11, 21, 8, 0)),
                                  ("grace", "unreversed_order", (2026, 11, 22, 8, 0)),
                                  ("edsger", "transposed_matmul_grad", (2026, 11, 22, 9, 0)),
                                  ("barbara", "blank", (2026, 11, 22, 10, 0)), ("donald", "blank", (2026, 11, 20, 10, 0)),
                                  ("donald", "perfect", (2026, 11, 23, 10, 0)), ("margaret", "perfect", (2026, 11, 26, 10, 0)),
                                  ("frances", "perfect", (2026, 11, 24, 23, 0)), ("radia", "perfect", (2026, 11, 24, 8, 0)),
                                  ("tim", "blank", (2026, 11, 24, 9, 0))]:
        blackboard_files += [(blackboard(person, when, "autograd.ipynb"), student, when),
                             (blackboard(person, when, None), b"Name: ...\nSubmitted: ...\n", when)]
    assert main(["course", "zip-collect", str(course), str(lms.zip(f"{A11}-lms.zip", blackboard_files)),
                 "--assignment", A11]) == 0
    assert main(["course", "autograde", str(course), "--jobs", "2", "--timeout", "3"]) == 0
    return lms


def assert_semester(rows: dict[tuple[str, str], dict]) -> None:
    got = {assignment: {person: facts(rows[assignment, person]) for person, *_ in PEOPLE} for assignment in EXPECTED}
    assert got == EXPECTED
    assert rows[B04, "margaret"]["days_late"] == "2" and rows[B04, "ken"]["late_submission_penalty"] == "0.7"
    assert rows[B04, "margaret"]["timestamp"].startswith("2026-11-12T10:00")
    assert rows[G08, "margaret"]["duedate"].startswith("2026-11-20T23:59")  # her own due time
    assert rows[B04, "ada"]["email"] == "ada@uni.example" and rows[B04, "ada"]["last_name"] == "Lovelace"


def test_a_semester_on_sqlite_and_a_copy_of_the_course_graded_on_its_own(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture) -> None:
    course = tmp_path / "course"
    lms = run_semester(course, tmp_path, db=None)
    assert "SKIPPED nobodyhere_9999_2099_broadcasting.ipynb: no student in the roster" in capsys.readouterr().out
    assert_semester(exported(course))

    (course / "grades.csv").unlink()
    original = tree_hash(course)
    moved = Path(shutil.copytree(course, tmp_path / "course-moved"))
    late = lms.zip(f"{B04}-lms-3.zip", [(canvas("john", 2030, "broadcasting.ipynb", late=True), "perfect",
                                         (2026, 11, 14, 9, 0))])
    assert main(["course", "zip-collect", str(moved), str(late), "--assignment", B04]) == 0
    assert facts(exported(moved)[B04, "john"]) == ("yes", "yes", "not graded", "")
    assert main(["course", "autograde", str(moved)]) == 0
    assert facts(exported(moved)[B04, "john"]) == ("yes", "yes", "late", "4.2")  # 4 days late: 7 - 4 × 0.7
    assert tree_hash(course) == original  # the original's gradebook, submissions and results untouched
    assert facts(exported(course)[B04, "john"]) == ("no", "no", "missing", "")
    assert main(["course", "report", str(course)]) == 0
    report = capsys.readouterr().out
    assert "12 students: 11 submitted (2 late, 0 refused as late), 1 missing: john;" in report
    assert "12 students: 10 submitted (0 late, 1 refused as late), 2 missing: john, frances;" in report
    assert "1 could not be read" in report


def test_a_semester_on_postgresql(postgres_url: str, tmp_path: Path) -> None:
    run_semester(tmp_path / "course", tmp_path, db=postgres_url)
    assert_semester(exported(tmp_path / "course"))
