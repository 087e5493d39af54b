"""The semester's commands: ``roster import``, ``deadline``, ``extend`` and ``zip-collect``.

Each keeps nbgrader's gradebook in step (students' names and e-mails, assignments' due dates), so
formgrader shows what tensorlab knows, and each deadline change picks again which collected
submission counts (``collect.select_submissions``): a deadline set after collection is applied."""

from __future__ import annotations

import argparse

from .collect import collect_archive, select_submissions
from .course import Course
from .deadlines import grant_extension, naive_utc, parse_time, set_due
from .exercise import ExerciseError
from .roster import Roster, import_roster

__all__ = ["run_semester_step"]


def import_students(course: Course, roster: Roster) -> None:
    """Every roster student in the gradebook, with their name split as nbgrader wants it."""
    with course.gradebook() as gradebook:
        for student in roster.students:
            words = student.name.split()
            gradebook.update_or_create_student(student.id, first_name=" ".join(words[:-1]) or None,
                                               last_name=words[-1] if words else None, email=student.email or None)


def reselect(course: Course, assignment: str) -> list[str]:
    """Pick again the submission that counts, where something was collected."""
    if not (course.root / "downloaded" / assignment / "collected.json").exists():
        return []
    return select_submissions(course, assignment)


def run_semester_step(course: Course, args: argparse.Namespace) -> int:
    if args.step == "roster":
        roster = import_roster(course.root, args.csv)
        import_students(course, roster)
        print(f"roster of {len(roster.students)} students in {course.root / 'roster.json'}")
        return 0
    if args.step == "deadline":
        deadline = set_due(course.root, args.assignment, parse_time(args.due), args.late, args.penalty_per_day)
        with course.gradebook() as gradebook:
            gradebook.update_or_create_assignment(args.assignment, duedate=naive_utc(deadline.due))
        changed = reselect(course, args.assignment)
        print(f"{args.assignment} due {deadline.due.isoformat()}, late policy {deadline.policy}"
              + (f" ({deadline.penalty_per_day:g} of the points per day)" if deadline.policy == "penalty" else "")
              + (f"; the submission that counts changed for {', '.join(changed)}" if changed else ""))
        return 0
    if args.step == "extend":
        roster = Roster.load(course.root)
        if roster is not None and roster.student(args.student) is None:
            raise ExerciseError(f"{args.student} is not in the roster ({course.root / 'roster.json'})")
        deadline = grant_extension(course.root, args.assignment, args.student, parse_time(args.until))
        changed = reselect(course, args.assignment)
        print(f"{args.student} has until {deadline.due_for(args.student).isoformat()} for {args.assignment}"
              + ("; the submission that counts changed" if changed else ""))
        return 0
    collection = collect_archive(course, args.archive, args.assignment, args.pattern)
    print(collection.summary())
    return 1 if collection.skipped else 0
