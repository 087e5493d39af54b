"""Every mistake an instructor or a student can make on the command line: one line on stderr that
says what to do, exit status 2, no traceback, and the course folder's files exactly as they were.

And the course owns its gradebook: a copied course grades into its own, never the original's, and
"already graded" is what the gradebook holds, not only what a results file says.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import shutil
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

import nbformat
import pytest

from autograder.autograde import Progress
from autograder.cli import main

REPO_EXERCISES = Path(__file__).resolve().parent.parent / "exercises"
ASSIGNMENT = "04-broadcasting"
NOTEBOOK = "broadcasting.ipynb"
pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module")
def exercises(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding one small exercise: init and release in a few seconds."""
    folder = tmp_path_factory.mktemp("exercises")
    shutil.copytree(REPO_EXERCISES / ASSIGNMENT, folder / ASSIGNMENT, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


@pytest.fixture(scope="module")
def course(exercises: Path) -> Path:
    """A released course that the misuse table must leave untouched."""
    root = exercises.parent / "course"
    assert main(["course", "init", str(root), "--exercises", str(exercises)]) == 0
    assert main(["course", "release", str(root)]) == 0
    return root


def submit(course: Path, student: str, notebook: Path) -> None:
    target = course / "submitted" / student / ASSIGNMENT / NOTEBOOK
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(notebook, target)


def autograde(course: Path, *options: str) -> int:
    return main(["course", "autograde", str(course), "--isolation", "process", *options])


@pytest.fixture(scope="module")
def graded(course: Path) -> Path:
    """A copy of the course with a perfect and a blank submission, graded."""
    root = shutil.copytree(course, course.with_name("graded"))
    submit(root, "perfect", root / "source" / ASSIGNMENT / NOTEBOOK)
    submit(root, "blank", root / "release" / ASSIGNMENT / NOTEBOOK)
    assert autograde(root) == 0
    return root


def tree_hash(folder: Path) -> dict[str, str]:
    return {str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(folder.rglob("*")) if path.is_file()}


def one_line_error(capsys: pytest.CaptureFixture, argv: list[str]) -> str:
    assert main(argv) == 2, argv
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err, captured.err
    return lines[0]


def nested(tmp: Path) -> Path:
    """Exercise folders one level too deep: tmp/outer/inner/<exercise>."""
    shutil.copytree(REPO_EXERCISES / ASSIGNMENT, tmp / "outer" / "inner" / ASSIGNMENT)
    return tmp / "outer"


def not_json(tmp: Path) -> Path:
    (tmp / NOTEBOOK).write_text("{ not json")
    return tmp / NOTEBOOK


def empty(tmp: Path) -> Path:
    (tmp / "empty").mkdir()
    return tmp / "empty"


def a_file(tmp: Path) -> Path:
    (tmp / "file.txt").write_text("x")
    return tmp / "file.txt"


def a_zip(tmp: Path) -> Path:
    with zipfile.ZipFile(tmp / "lms.zip", "w") as archive:
        archive.writestr(f"ada_{NOTEBOOK}", "{}")
    return tmp / "lms.zip"


def a_csv(tmp: Path, text: str) -> Path:
    (tmp / "roster.csv").write_text(text)
    return tmp / "roster.csv"


Argv = Callable[[Path, Path], list[str]]  # (course, a scratch folder) -> the command line


def missing_course(step: str) -> Argv:
    return lambda course, tmp: ["course", step, str(tmp / MISSING)]


MISSING = "no-such-course"
STEPS_WITHOUT_ARGUMENTS = ("release", "autograde", "publish", "feedback", "export", "report", "hub-config")
MISUSES: dict[str, tuple[Argv, str]] = {
    "zip-collect-missing-archive": (lambda c, t: ["course", "zip-collect", str(c), str(t / "missing.zip"), "--assignment",
                                                  ASSIGNMENT], "no such archive"),
    "zip-collect-unknown-assignment": (lambda c, t: ["course", "zip-collect", str(c), str(a_file(t)), "--assignment",
                                                     "04-broadcast"], "no assignment 04-broadcast; the course has 04-broadcasting"),
    "zip-collect-missing-course": (lambda c, t: ["course", "zip-collect", str(t / MISSING), str(a_file(t)), "--assignment",
                                                 ASSIGNMENT], "is not a course directory"),
    "release-unknown-assignment": (lambda c, t: ["course", "release", str(c), "04-broadcast"], "no assignment 04-broadcast"),
    "autograde-unknown-assignment": (lambda c, t: ["course", "autograde", str(c), "04-broadcast", "--jobs", "2"],
                                     "no assignment 04-broadcast"),
    "autograde-shard-not-a-fraction": (lambda c, t: ["course", "autograde", str(c), "--shard", "x"], "--shard takes I/N"),
    "autograde-shard-out-of-range": (lambda c, t: ["course", "autograde", str(c), "--shard", "3/2"], "below N"),
    "autograde-unknown-option": (lambda c, t: ["course", "autograde", str(c), ASSIGNMENT, "--jbos", "2"],
                                 "tensorlab course autograde: error: unrecognized arguments: --jbos"),
    "autograde-jobs-not-a-number": (lambda c, t: ["course", "autograde", str(c), "--jobs", "two"],
                                    "tensorlab course autograde: error: argument --jobs"),
    "course-without-step": (lambda c, t: ["course"], "tensorlab course: error:"),
    "check-missing-file": (lambda c, t: ["check", str(t / "missing.ipynb")], "no such notebook"),
    "check-a-folder": (lambda c, t: ["check", str(t)], "a folder, not a notebook"),
    "check-not-json": (lambda c, t: ["check", str(not_json(t))], "not a notebook"),
    "check-cases-not-json": (lambda c, t: ["check", str(c / "release" / ASSIGNMENT / NOTEBOOK), "--cases", str(a_file(t))],
                             "is not JSON"),
    "init-missing-exercises": (lambda c, t: ["course", "init", str(t / "new"), "--exercises", str(t / "nope")],
                               "no such folder"),
    "init-empty-exercises": (lambda c, t: ["course", "init", str(t / "new"), "--exercises", str(empty(t))],
                             "no exercise folders"),
    "init-exercises-a-file": (lambda c, t: ["course", "init", str(t / "new"), "--exercises", str(a_file(t))],
                              "a file, not a folder"),
    "init-exercises-one-level-deeper": (lambda c, t: ["course", "init", str(t / "new"), "--exercises", str(nested(t))],
                                        "one level deeper: pass --exercises"),
    "init-exercises-one-exercise": (lambda c, t: ["course", "init", str(t / "new"), "--exercises",
                                                  str(REPO_EXERCISES / ASSIGNMENT)], "pass its parent"),
    "reinit-another-db": (lambda c, t: ["course", "init", str(c), "--exercises", str(c / "exercises"), "--db",
                                        "sqlite:///other.db"], "--db sqlite:///gradebook.db → sqlite:///other.db"),
    "reinit-another-course-id": (lambda c, t: ["course", "init", str(c), "--exercises", str(c / "exercises"),
                                               "--course-id", "cs101"], "--course-id tensorlab → cs101"),
    "zip-collect-not-a-zip": (lambda c, t: ["course", "zip-collect", str(c), str(a_file(t)), "--assignment", ASSIGNMENT],
                              "not a zip file"),
    "zip-collect-pattern-not-a-regex": (lambda c, t: ["course", "zip-collect", str(c), str(a_zip(t)), "--assignment",
                                                      ASSIGNMENT, "--pattern", "(?P<student>"], "is not a regular expression"),
    "zip-collect-pattern-without-student": (lambda c, t: ["course", "zip-collect", str(c), str(a_zip(t)), "--assignment",
                                                          ASSIGNMENT, "--pattern", "(?P<who>.+)"], "needs a group (?P<student>"),
    "roster-missing-csv": (lambda c, t: ["course", "roster", "import", str(c), str(t / "roster.csv")],
                           "no such roster file"),
    "roster-without-id-column": (lambda c, t: ["course", "roster", "import", str(c), str(a_csv(t, "name\nAda\n"))],
                                 "no id column"),
    "roster-without-action": (lambda c, t: ["course", "roster", str(c)], "tensorlab course roster: error:"),
    "deadline-not-a-time": (lambda c, t: ["course", "deadline", str(c), ASSIGNMENT, "--due", "next friday"],
                            "is not a time"),
    "deadline-unknown-policy": (lambda c, t: ["course", "deadline", str(c), ASSIGNMENT, "--due", "2026-11-10",
                                              "--late", "sometimes"], "argument --late: invalid choice"),
    "deadline-penalty-without-its-share": (lambda c, t: ["course", "deadline", str(c), ASSIGNMENT, "--due", "2026-11-10",
                                                         "--late", "penalty"], "--penalty-per-day is the share"),
    "deadline-unknown-assignment": (lambda c, t: ["course", "deadline", str(c), "04-broadcast", "--due", "2026-11-10"],
                                    "no assignment 04-broadcast"),
    "extend-before-a-deadline": (lambda c, t: ["course", "extend", str(c), ASSIGNMENT, "ada", "--until", "2026-11-12"],
                                 "has no due date yet"),
    "extend-without-until": (lambda c, t: ["course", "extend", str(c), ASSIGNMENT, "ada"],
                             "the following arguments are required: --until"),
    **{f"{step}-missing-course": (missing_course(step), "is not a course directory") for step in STEPS_WITHOUT_ARGUMENTS},
}


@pytest.mark.parametrize("case", MISUSES)
def test_a_misuse_is_one_line_exit_2_and_changes_nothing(course: Path, tmp_path: Path, capsys: pytest.CaptureFixture,
                                                        case: str) -> None:
    argv, says = MISUSES[case]
    arguments = argv(course, tmp_path)
    before = tree_hash(course)
    line = one_line_error(capsys, arguments)
    assert says in line, line
    assert tree_hash(course) == before
    assert not (tmp_path / MISSING).exists() and not (tmp_path / "new").exists()


def test_points_that_disagree_are_refused_before_nbgrader_writes(course: Path, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture) -> None:
    copy = shutil.copytree(course, tmp_path / "course")
    source = copy / "source" / ASSIGNMENT / NOTEBOOK
    notebook = nbformat.read(str(source), as_version=4)
    cell = next(c for c in notebook.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "test_broadcast_shape")
    cell.metadata["nbgrader"]["points"] = 5
    nbformat.write(notebook, str(source))
    before = tree_hash(copy)
    line = one_line_error(capsys, ["course", "release", str(copy)])
    assert "test_broadcast_shape 5.0 (grader: 2.0)" in line, line
    assert tree_hash(copy) == before


def test_options_may_follow_the_assignment_names(course: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["course", "autograde", str(course), "--jobs", "2", ASSIGNMENT, "--isolation", "process"]) == 0
    assert "graded 0 submissions" in capsys.readouterr().out


def test_reinit_keeps_the_stored_settings(course: Path, tmp_path: Path) -> None:
    """init again without --db or --course-id: the stored values stay, and nbgrader_config.py says them."""
    copy = shutil.copytree(course, tmp_path / "course")
    assert main(["course", "init", str(copy), "--exercises", str(copy / "exercises"), "--course-id", "cs101",
                 "--force"]) == 0
    settings = json.loads((copy / "tensorlab-course.json").read_text())
    assert main(["course", "init", str(copy), "--exercises", str(copy / "exercises")]) == 0
    assert json.loads((copy / "tensorlab-course.json").read_text()) == settings
    assert settings["course_id"] == "cs101" and settings["db_url"] == "sqlite:///gradebook.db"
    assert "course_id = 'cs101'" in (copy / "nbgrader_config.py").read_text()
    assert (copy / "exercises" / ASSIGNMENT / "tasks.py").is_file()  # re-init from its own exercises keeps them


def exported(course: Path) -> dict[str, float]:
    assert main(["course", "export", str(course)]) == 0
    with (course / "grades.csv").open() as grades:
        return {row["student_id"]: float(row["score"]) for row in csv.DictReader(grades)}


def test_a_copied_course_grades_into_its_own_gradebook(graded: Path, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture) -> None:
    assert exported(graded) == {"perfect": 7.0, "blank": 0.0}
    before = tree_hash(graded)
    copy = shutil.copytree(graded, tmp_path / "copy")  # as cp -r; mv is the same for the copy
    submit(copy, "blank", copy / "source" / ASSIGNMENT / NOTEBOOK)  # blank resubmits, perfect this time
    assert autograde(copy) == 0
    assert "graded 1 submissions (1 already graded)" in capsys.readouterr().out
    assert exported(copy) == {"perfect": 7.0, "blank": 7.0}
    assert tree_hash(graded) == before  # the original's gradebook, CSV and results are untouched
    assert exported(graded) == {"perfect": 7.0, "blank": 0.0}


def test_a_fresh_gradebook_makes_autograde_grade_again(graded: Path, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture) -> None:
    """The results files say "graded", the gradebook holds nothing: a plain autograde grades again."""
    copy = shutil.copytree(graded, tmp_path / "copy")
    (copy / "gradebook.db").unlink()
    assert main(["course", "release", str(copy)]) == 0  # the assignment back in the new, empty gradebook
    capsys.readouterr()
    assert autograde(copy) == 0
    assert "graded 2 submissions (0 already graded)" in capsys.readouterr().out
    assert exported(copy) == {"perfect": 7.0, "blank": 0.0}
    assert autograde(copy) == 0
    assert "graded 0 submissions (2 already graded)" in capsys.readouterr().out


def test_an_old_absolute_gradebook_outside_a_copied_course_is_refused(graded: Path, tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture) -> None:
    """A course made when the gradebook was stored absolute, then copied: it would write into the original's."""
    copy = shutil.copytree(graded, tmp_path / "copy")
    settings = json.loads((copy / "tensorlab-course.json").read_text())
    (copy / "tensorlab-course.json").write_text(json.dumps({**settings, "db_url": f"sqlite:///{graded / 'gradebook.db'}"}))
    before, original = tree_hash(copy), tree_hash(graded)
    line = one_line_error(capsys, ["course", "autograde", str(copy), "--force", "--isolation", "process"])
    assert "outside this course" in line and "--force" in line, line
    assert tree_hash(copy) == before and tree_hash(graded) == original
    repair = ["course", "init", str(copy), "--exercises", str(copy / "exercises"), "--db", "sqlite:///gradebook.db", "--force"]
    assert main(repair) == 0
    assert exported(copy) == {"perfect": 7.0, "blank": 0.0}


class Clock:
    """A clock that moves only when told: the progress line's arithmetic, without waiting."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_progress_off_a_terminal_measures_its_own_time() -> None:
    clock, stream = Clock(), io.StringIO()
    progress = Progress(4, stream, clock=clock)
    clock.now += 3.0
    progress.step("ana", ASSIGNMENT, 7, 7)
    clock.now += 3.0
    progress.step("bo", ASSIGNMENT, 0, 7)
    progress.close()
    assert stream.getvalue().splitlines() == [f"[1/4] ana/{ASSIGNMENT}: 7/7 (3.0 s, about 9 s left)",
                                              f"[2/4] bo/{ASSIGNMENT}: 0/7 (6.0 s, about 6 s left)"]


def test_progress_with_the_real_clock_is_not_zero() -> None:
    stream = io.StringIO()
    progress = Progress(2, stream)
    time.sleep(0.12)
    progress.step("ana", ASSIGNMENT, 7, 7)
    assert "(0.0 s" not in stream.getvalue() and " s, about " in stream.getvalue(), stream.getvalue()
