"""How zip-collect reads an LMS's file names, matches them to a roster, and what a deadline costs:
the pieces of tests/test_semester.py, fast and one fact each."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from autograder.collect import counted_file, is_the_notebook, read_name, resubmission_number
from autograder.deadlines import Deadline, parse_time
from autograder.exercise import ExerciseError
from autograder.roster import Roster, Student, import_roster, read_roster_csv

NAMES = [  # member of the zip, notebook → (names the file gives, the file, the time in the name)
    ("smithjohn_1234_5678_broadcasting.ipynb", ("smithjohn", "1234"), "broadcasting.ipynb", None),
    ("smithjohn_late_1234_5679_broadcasting-1.ipynb", ("smithjohn", "1234"), "broadcasting-1.ipynb", None),
    ("sub/John Smith_12345_assignsubmission_file_/broadcasting.ipynb", ("John Smith", "12345"), "broadcasting.ipynb", None),
    ("John Smith_12345_assignsubmission_file_Broadcasting.ipynb", ("John Smith", "12345"), "Broadcasting.ipynb", None),
    ("Broadcasting HW_jsmith_attempt_2026-12-01-10-30-00_broadcasting.ipynb", ("jsmith",), "broadcasting.ipynb",
     datetime(2026, 12, 1, 10, 30, tzinfo=UTC)),
    ("Broadcasting_jsmith_attempt_2026-12-01-10-30-00.txt", ("jsmith",), None, datetime(2026, 12, 1, 10, 30, tzinfo=UTC)),
    ("downloads/hank_broadcasting (1).ipynb", ("hank",), "broadcasting (1).ipynb", None),
    ("ivy_Broadcasting.ipynb", ("ivy",), "Broadcasting.ipynb", None),
    ("infinite_loop_broadcasting.ipynb", ("infinite_loop",), "broadcasting.ipynb", None),
]


@pytest.mark.parametrize(("member", "names", "file", "when"), NAMES, ids=[n[0] for n in NAMES])
def test_each_lms_naming_style_is_read(member: str, names: tuple, file: str | None, when: datetime | None) -> None:
    found = read_name(member, "broadcasting", None)
    assert found is not None and (found.names, found.file, found.timestamp) == (names, file, when)


def test_a_notebook_with_underscores_and_a_name_no_pattern_fits() -> None:
    found = read_name("perfect_gather_scatter.ipynb", "gather_scatter", None)
    assert found is not None and (found.names, found.file) == (("perfect",), "gather_scatter.ipynb")
    assert read_name("notes.pdf", "broadcasting", None) is None


def test_a_pattern_of_your_own_replaces_the_built_in_ones() -> None:
    found = read_name("2026-12-01T10:30+01:00--jsmith--hw.ipynb", "broadcasting",
                      r"(?P<timestamp>[^-]+-[^-]+-[^-]+)--(?P<student>\w+)--(?P<file>.+)")
    assert found is not None and found.names == ("jsmith",) and found.file == "hw.ipynb"
    assert found.timestamp == datetime(2026, 12, 1, 9, 30, tzinfo=UTC)


@pytest.mark.parametrize(("file", "pattern", "counts"), [
    ("Broadcasting (2).ipynb", None, True), ("broadcasting-1.ipynb", None, True), ("broad_casting.ipynb", None, False),
    ("gather_scatter.ipynb", None, False), ("hw.ipynb", None, False), ("hw.ipynb", "(?P<student>.+)", True),
    ("hw.pdf", "(?P<student>.+)", False),
])
def test_which_file_is_the_notebook(file: str, pattern: str | None, counts: bool) -> None:
    assert is_the_notebook(file, "broadcasting", pattern) is counts


def test_resubmission_numbers() -> None:
    assert [resubmission_number(f) for f in ("b.ipynb", "b (2).ipynb", "b-1.ipynb", "b(3).ipynb")] == [0, 2, 1, 3]


ROSTER = Roster((Student("jsmith", "John Smith", "j.smith@uni.example", ("1234",)),
                 Student("asmith", "Anna Smith", "anna@uni.example", ("1235",))))


@pytest.mark.parametrize("spelling", ["smithjohn", "John Smith", "JSMITH", "j.smith", "1234", "john-smith"])
def test_every_spelling_of_a_student_finds_them(spelling: str) -> None:
    assert [student.id for student in ROSTER.find(spelling)] == ["jsmith"]


def test_an_unknown_name_finds_nobody() -> None:
    assert ROSTER.find("smith") == [] and ROSTER.find("") == []


def test_a_roster_csv_with_first_and_last_names_and_an_lms_id(tmp_path: Path) -> None:
    path = tmp_path / "roster.csv"
    path.write_text("Username,First_Name,Last_Name,Email,Canvas ID\njsmith,John,Smith,js@x.org,1234\n")
    roster = read_roster_csv(path)
    assert roster.students == (Student("jsmith", "John Smith", "js@x.org", ("1234",)),)


@pytest.mark.parametrize(("text", "message"), [
    ("name\nJohn\n", "no id column"),
    ("id,name\njs,John\njs,Jim\n", "appears twice"),
    ("id,name\nj smith,John\n", "must be letters"),
    ("id,name\n", "no students"),
    ("id,name,alias\njs,John Smith,x\nsj,Smith John,y\n", "can both be spelled"),
])
def test_a_bad_roster_is_refused_with_its_reason(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "roster.csv"
    path.write_text(text)
    with pytest.raises(ExerciseError, match=message):
        import_roster(tmp_path, path)
    assert not (tmp_path / "roster.json").exists()


DUE = parse_time("2026-11-10T23:59")


@pytest.mark.parametrize(("policy", "submitted", "penalty"), [
    ("none", "2026-11-12T10:00", 0.0),
    ("penalty", "2026-11-10T23:59", 0.0),
    ("penalty", "2026-11-11T00:00", 0.7),           # one minute late is a day late
    ("penalty", "2026-11-12T10:00", 1.4),
    ("penalty", "2026-11-30T10:00", 5.0),           # never more than the score
    ("refuse", "2026-11-11T00:00", 5.0),
])
def test_the_late_policies(policy: str, submitted: str, penalty: float) -> None:
    deadline = Deadline(DUE, policy, 0.1 if policy == "penalty" else 0.0)
    assert deadline.penalty("jsmith", parse_time(submitted), 5.0, 7.0) == pytest.approx(penalty)


def test_an_extension_moves_only_that_students_due_time() -> None:
    deadline = Deadline(DUE, "penalty", 0.1, {"jsmith": parse_time("2026-11-12T23:59")})
    assert deadline.days_late("jsmith", parse_time("2026-11-12T10:00")) == 0
    assert deadline.days_late("asmith", parse_time("2026-11-12T10:00")) == 2


def test_a_time_with_a_zone_and_one_without() -> None:
    assert parse_time("2026-11-10T23:59+01:00") == datetime(2026, 11, 10, 22, 59, tzinfo=UTC)
    assert parse_time("2026-11-10 23:59:00 UTC") == DUE
    with pytest.raises(ExerciseError, match="is not a time"):
        parse_time("next friday")


def entry(time: str, resubmission: int = 0) -> dict:
    return {"timestamp": parse_time(time).isoformat(), "resubmission": resubmission}


def test_the_newest_submission_counts_and_refuse_keeps_the_newest_in_time() -> None:
    files = [entry("2026-11-09T10:00"), entry("2026-11-10T12:00"), entry("2026-11-12T10:00")]
    assert counted_file(files, None, "jsmith") is files[2]
    assert counted_file(files, Deadline(DUE, "refuse"), "jsmith") is files[1]
    assert counted_file(files[2:], Deadline(DUE, "refuse"), "jsmith") is files[2]  # only late: it counts, and scores 0


def test_same_time_resubmissions_are_ordered_by_number_then_arrival() -> None:
    files = [entry("2026-11-09T10:00", 2), entry("2026-11-09T10:00", 1), entry("2026-11-09T10:00", 1)]
    assert counted_file(files, None, "jsmith") is files[0]
    assert counted_file(files[1:], None, "jsmith") is files[2]
