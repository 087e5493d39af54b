"""``tensorlab course publish-solutions DIR ASSIGNMENT``: after its deadline, a unit's solution for students.

Later units import the student's own earlier pieces (``mytorch``, ``tensorlab.grading.student_library``);
a student whose piece is missing can then use the course's instead. Publishing records the assignment in

    DIR/published-solutions.json   {"<assignment>": "<when it was published, ISO 8601>"}

so that every later ``tensorlab course publish`` carries the solution, and adds it at once to the student
distribution already written (``DIR/student-distribution``, or ``--to``): its notebook, answers kept,
solution markers, hidden tests and outputs taken out, as ``course/exercises/ASSIGNMENT/solution/``. The
zip beside it, if there is one, is written again.

It refuses before the deadline, extensions included (``DIR/deadlines.json``, ``deadlines.py``): the
solution would reach students still working on it. ``force`` publishes anyway (an assignment without a
due date, a course that does not grade it).
"""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

from .course import Course
from .deadlines import load_deadlines
from .exercise import ExerciseError
from .student_tree import REPO_ROOT, build_student_tree

__all__ = ["PUBLISHED", "published_solutions", "publish_solutions"]

PUBLISHED = "published-solutions.json"


def published_solutions(course_root: Path) -> tuple[str, ...]:
    """The assignments whose solutions the instructor has published, in order."""
    path = course_root / PUBLISHED
    return tuple(sorted(json.loads(path.read_text(encoding="utf-8")))) if path.is_file() else ()


def refuse_before_deadline(course: Course, assignment: str, now: datetime) -> None:
    deadlines = load_deadlines(course.root)
    if assignment not in deadlines:
        raise ExerciseError(f"{assignment} has no due date, so its solution might reach students still working on "
                            f"it: set one (tensorlab course deadline {course.root} {assignment} --due TIME) or "
                            "publish anyway with --force")
    deadline = deadlines[assignment]
    last = max([deadline.due, *deadline.extensions.values()])
    if now < last:
        extended = " (an extension's end)" if last != deadline.due else ""
        raise ExerciseError(f"{assignment} is due until {last.isoformat()}{extended}: its solution is published only "
                            "after that (--force publishes it now)")


def publish_solutions(course: Course, assignment: str, force: bool = False, distribution: Path | None = None,
                      now: datetime | None = None, repo: Path = REPO_ROOT) -> Path | None:
    """Publish ``assignment``'s solution; returns the distribution it was added to (None when there is none yet)."""
    course.require([assignment])
    if not force:
        refuse_before_deadline(course, assignment, now or datetime.now(UTC))
    path = course.root / PUBLISHED
    recorded = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    recorded.setdefault(assignment, (now or datetime.now(UTC)).isoformat())
    path.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    out = distribution or course.root / "student-distribution"
    if not (out / "course").is_dir():
        return None
    build_student_tree(out / "course", repo=repo, exercises=course.root / "exercises",
                       published=published_solutions(course.root))
    archive = Path(f"{out}.zip")
    if archive.is_file():
        shutil.make_archive(str(out), "zip", root_dir=out.parent, base_dir=out.name)
    return out
