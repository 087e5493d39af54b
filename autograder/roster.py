"""The class list: who the students are, and every name an LMS may file their work under.

An LMS download names each file after the student in its own way: Canvas by the sortable name
squeezed into one word (``smithjohn``) and its user id, Moodle by the full name (``John Smith``)
and a participant id, Blackboard by the username. ``tensorlab course roster import CSV`` keeps,
per student, the id the gradebook uses and all of these as aliases, so collection can tell who
sent a file — and says so, instead of inventing a student, when it cannot.

    DIR/roster.json   {"students": [{"id": "jsmith", "name": "John Smith", "email": "...", "aliases": [...]}]}
"""

from __future__ import annotations

import csv
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from .exercise import ExerciseError

__all__ = ["ROSTER", "Roster", "Student", "import_roster", "squeeze"]

ROSTER = "roster.json"
ID_COLUMNS = ("student_id", "id", "username", "login", "login_id", "user")
NAME_COLUMNS = ("name", "full_name", "student")


def squeeze(text: str) -> str:
    """A name as LMS file names spell it: lower case, letters and digits only (``Smith, John`` → ``smithjohn``)."""
    return re.sub(r"[^0-9a-z]", "", text.casefold())


@dataclass(frozen=True)
class Student:
    id: str
    name: str = ""
    email: str = ""
    aliases: tuple[str, ...] = field(default_factory=tuple)

    def spellings(self) -> set[str]:
        """Every squeezed way an LMS may name this student: the id, the name both ways round, the
        e-mail and its user part, and the roster's other columns (LMS user ids, SIS ids)."""
        words = self.name.replace(",", " ").split()
        names = [self.id, self.name, " ".join(reversed(words)), self.email, self.email.split("@")[0], *self.aliases]
        return {squeeze(name) for name in names if squeeze(name)}

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "email": self.email, "aliases": list(self.aliases)}


@dataclass(frozen=True)
class Roster:
    students: tuple[Student, ...]

    @classmethod
    def load(cls, course_root: Path) -> Roster | None:
        """The course's roster, or None when none was imported (then a file's name is the student's id)."""
        path = course_root / ROSTER
        if not path.exists():
            return None
        data = json.loads(path.read_text())
        return cls(tuple(Student(s["id"], s.get("name", ""), s.get("email", ""), tuple(s.get("aliases", ())))
                         for s in data["students"]))

    def ids(self) -> list[str]:
        return [student.id for student in self.students]

    def find(self, *names: str) -> list[Student]:
        """The students any of ``names`` spells (squeezed, so case and punctuation never matter):
        one is a match, none an unknown sender, several an ambiguity the instructor must settle."""
        wanted = {squeeze(name) for name in names if squeeze(name)}
        return [student for student in self.students if student.spellings() & wanted]

    def student(self, student_id: str) -> Student | None:
        return next((student for student in self.students if student.id == student_id), None)


def read_roster_csv(path: Path) -> Roster:
    """Students from a CSV with a header: an id column (``student_id``, ``id``, ``username`` or
    ``login``), optionally ``name`` (or ``first_name``/``last_name``) and ``email``; every other
    column (an LMS user id, a SIS id) is an alias. Bad rows are refused with their line number."""
    if not path.is_file():
        raise ExerciseError(f"{path}: no such roster file")
    with path.open(newline="", encoding="utf-8-sig") as handle:
        rows = list(csv.DictReader(handle))
    if not rows:
        raise ExerciseError(f"{path}: no students in it (a CSV with a header row, then one row per student)")
    columns = {column.strip().casefold(): column for column in rows[0] if column}
    id_column = next((columns[name] for name in ID_COLUMNS if name in columns), None)
    if id_column is None:
        raise ExerciseError(f"{path}: no id column; name one of {', '.join(ID_COLUMNS)} in the header")
    name_column = next((columns[name] for name in NAME_COLUMNS if name in columns), None)
    used = {id_column, name_column, columns.get("email"), columns.get("first_name"), columns.get("last_name")}
    students: list[Student] = []
    seen: set[str] = set()
    for line, row in enumerate(rows, start=2):
        student_id = (row.get(id_column) or "").strip()
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._@-]*", student_id):
            raise ExerciseError(f"{path}:{line}: student id {student_id!r} must be letters, digits, '.', '_', '@' or '-'")
        if student_id in seen:
            raise ExerciseError(f"{path}:{line}: student id {student_id!r} appears twice")
        seen.add(student_id)
        first, last = (row.get(columns.get(key, ""), "") or "" for key in ("first_name", "last_name"))
        name = (row.get(name_column) or "").strip() if name_column else f"{first.strip()} {last.strip()}".strip()
        aliases = tuple(value.strip() for column, value in row.items()
                        if column not in used and column and value and value.strip())
        students.append(Student(student_id, name, (row.get(columns.get("email", "")) or "").strip(), aliases))
    return Roster(tuple(students))


def import_roster(course_root: Path, path: Path) -> Roster:
    """Replace the course's roster with ``path``'s students. Two students an LMS could spell the same
    way are refused now, not discovered while collecting."""
    roster = read_roster_csv(path)
    owners: dict[str, str] = {}
    for student in roster.students:
        for spelling in student.spellings():
            other = owners.setdefault(spelling, student.id)
            if other != student.id:
                raise ExerciseError(f"{path}: {other} and {student.id} can both be spelled {spelling!r} by an LMS; "
                                    "give one of them a distinguishing alias column or change a name")
    (course_root / ROSTER).write_text(json.dumps({"students": [s.to_json() for s in roster.students]}, indent=1) + "\n")
    return roster
