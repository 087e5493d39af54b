"""``export``: one CSV row per student and assignment, where "did not submit", "late" and the score
are separate facts.

nbgrader's own CSV gives a student who never submitted a score of 0, like a blank notebook. Here
every student of the roster (and anyone the gradebook or submitted/ knows) has a row per released
assignment, with nbgrader's columns first (so what read them still does) and four more:

    submitted   yes / no
    late        yes / no (after the student's own due time: the due date or their extension)
    days_late   days or parts of a day late
    status      graded, late, refused (late under a refuse policy), unreadable (not a notebook),
                not graded (collected, and autograde has not graded this notebook yet), missing (nothing submitted)

``score`` is the gradebook's score less the late policy's penalty, blank for a missing
submission; ``raw_score`` is the score before it.
"""

from __future__ import annotations

import csv
import json
from datetime import datetime
from pathlib import Path

from .autograde import recorded_scores, up_to_date
from .collect import submission_time
from .course import Course
from .deadlines import Deadline, load_deadlines
from .roster import Roster, Student

__all__ = ["COLUMNS", "export_csv", "grade_rows"]

COLUMNS = ["assignment", "duedate", "timestamp", "student_id", "last_name", "first_name", "email", "raw_score",
           "late_submission_penalty", "score", "max_score", "submitted", "late", "days_late", "status"]


def everyone(course: Course, gradebook: object, roster: Roster | None) -> list[str]:
    """The roster's students, then anyone else the gradebook or submitted/ knows (sorted)."""
    known = roster.ids() if roster else []
    others = {student.id for student in gradebook.students}
    others |= {path.name for path in (course.root / "submitted").glob("*") if path.is_dir()}
    return known + sorted(others - set(known))


def unreadable(course: Course, student: str, assignment: str) -> bool:
    """Did the grader find that the submission is not a notebook at all?"""
    path = course.results_path(student, assignment)
    try:
        return bool(json.loads(path.read_text()).get("unreadable")) if path.exists() else False
    except (OSError, json.JSONDecodeError):
        return False


def grade_rows(course: Course) -> list[dict]:
    """One row (COLUMNS) per released assignment and student."""
    from nbgrader.api import MissingEntry

    deadlines = load_deadlines(course.root)
    roster = Roster.load(course.root)
    rows = []
    with course.gradebook() as gradebook:
        students = everyone(course, gradebook, roster)
        for assignment in sorted(gradebook.assignments, key=lambda a: a.name):
            deadline = deadlines.get(assignment.name)
            recorded = recorded_scores(gradebook, assignment.name)
            for student_id in students:
                try:
                    submission = gradebook.find_submission(assignment.name, student_id)
                except MissingEntry:
                    submission = None
                if submission is not None and not up_to_date(course, student_id, assignment.name, recorded):
                    submission = None  # its grade is for another notebook (collected since): not graded yet
                listed = roster.student(student_id) if roster else None
                rows.append(row(course, assignment.name, student_id, listed, submission, deadline,
                                float(assignment.max_score)))
    return rows


def row(course: Course, assignment: str, student: str, listed: Student | None, submission: object | None,
        deadline: Deadline | None, max_score: float) -> dict:
    """The facts of one student's assignment; names and e-mail come from the roster (``listed``)."""
    name = listed.name.split() if listed and listed.name else []
    submitted_file = course.submission(student, assignment).exists()
    when = submission_time(course, student, assignment) if submitted_file else None
    days_late = deadline.days_late(student, when) if deadline and when else 0
    raw = float(submission.score) if submission is not None else None
    penalty = deadline.penalty(student, when, raw, max_score) if deadline and when and raw is not None else 0.0
    status = status_of(course, student, assignment, submitted_file, raw, days_late, deadline)
    return {
        "assignment": assignment, "duedate": iso(deadline.due_for(student)) if deadline else "",
        "timestamp": iso(when), "student_id": student,
        "last_name": name[-1] if name else "", "first_name": " ".join(name[:-1]),
        "email": listed.email if listed else "",
        "raw_score": "" if raw is None else f"{raw:g}", "late_submission_penalty": f"{penalty:g}",
        "score": "" if raw is None else f"{raw - penalty:g}", "max_score": f"{max_score:g}",
        "submitted": "yes" if submitted_file else "no", "late": "yes" if days_late else "no",
        "days_late": str(days_late), "status": status,
    }


def status_of(course: Course, student: str, assignment: str, submitted: bool, raw: float | None, days_late: int,
              deadline: Deadline | None) -> str:
    if not submitted:
        return "missing"
    if raw is None:
        return "not graded"
    if unreadable(course, student, assignment):
        return "unreadable"
    if days_late and deadline is not None and deadline.policy == "refuse":
        return "refused"
    return "late" if days_late else "graded"


def iso(moment: datetime | None) -> str:
    return moment.isoformat() if moment else ""


def export_csv(course: Course, to: Path | None = None) -> Path:
    destination = to or course.root / "grades.csv"
    rows = grade_rows(course)
    with destination.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(rows)
    return destination
