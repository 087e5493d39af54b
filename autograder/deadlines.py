"""Due dates, extensions and the late policy: which submission counts, and what lateness costs.

    DIR/deadlines.json  {"<assignment>": {"due": ISO, "policy": "none"|"penalty"|"refuse",
                                          "penalty_per_day": 0.1, "extensions": {"<student>": ISO}}}

Times are timezone-aware; one written without a zone is read in UTC (say ``+01:00`` for another).
The policies, applied to the submission time the LMS recorded:
- ``none``: a late submission counts in full, flagged late;
- ``penalty``: it loses ``penalty_per_day`` of the assignment's points per day or part of a day
  late, never more than it scored;
- ``refuse``: the newest submission made in time counts; one made only late scores 0.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from .exercise import ExerciseError

__all__ = ["DEADLINES", "POLICIES", "Deadline", "grant_extension", "load_deadlines", "naive_utc", "parse_time",
           "save_deadlines", "set_due"]

DEADLINES = "deadlines.json"
POLICIES = ("none", "penalty", "refuse")


def naive_utc(moment: datetime) -> datetime:
    """The same time as nbgrader's gradebook keeps times: naive, in UTC."""
    return moment.astimezone(UTC).replace(tzinfo=None)


def parse_time(text: str) -> datetime:
    """An ISO 8601 time (``2026-12-01T23:59``, ``2026-12-01 23:59:00+01:00``); UTC when no zone is given."""
    try:
        moment = datetime.fromisoformat(text.strip().replace(" UTC", "+00:00"))
    except ValueError:
        raise ExerciseError(f"{text!r} is not a time: write it as 2026-12-01T23:59 (UTC) or 2026-12-01T23:59+01:00") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


@dataclass
class Deadline:
    due: datetime
    policy: str = "none"
    penalty_per_day: float = 0.0
    extensions: dict[str, datetime] = field(default_factory=dict)

    def due_for(self, student: str) -> datetime:
        """The student's own due time: an extension replaces the due date (it never shortens it)."""
        return max(self.due, self.extensions.get(student, self.due))

    def seconds_late(self, student: str, submitted: datetime) -> float:
        return max(0.0, (submitted - self.due_for(student)).total_seconds())

    def days_late(self, student: str, submitted: datetime) -> int:
        """Days or parts of a day late: one second late is one day."""
        return math.ceil(self.seconds_late(student, submitted) / timedelta(days=1).total_seconds())

    def penalty(self, student: str, submitted: datetime, score: float, max_score: float) -> float:
        """Points lost for lateness under this policy (at most the score itself)."""
        late_days = self.days_late(student, submitted)
        if late_days == 0 or self.policy == "none":
            return 0.0
        if self.policy == "refuse":
            return score
        return min(score, round(max_score * self.penalty_per_day * late_days, 6))

    def to_json(self) -> dict:
        return {"due": self.due.isoformat(), "policy": self.policy, "penalty_per_day": self.penalty_per_day,
                "extensions": {student: until.isoformat() for student, until in sorted(self.extensions.items())}}

    @classmethod
    def from_json(cls, data: dict) -> Deadline:
        return cls(parse_time(data["due"]), data.get("policy", "none"), float(data.get("penalty_per_day", 0.0)),
                   {student: parse_time(until) for student, until in data.get("extensions", {}).items()})


def load_deadlines(course_root: Path) -> dict[str, Deadline]:
    path = course_root / DEADLINES
    if not path.exists():
        return {}
    return {assignment: Deadline.from_json(data) for assignment, data in json.loads(path.read_text()).items()}


def save_deadlines(course_root: Path, deadlines: dict[str, Deadline]) -> None:
    data = {assignment: deadline.to_json() for assignment, deadline in sorted(deadlines.items())}
    (course_root / DEADLINES).write_text(json.dumps(data, indent=1) + "\n")


def set_due(course_root: Path, assignment: str, due: datetime, policy: str, penalty_per_day: float) -> Deadline:
    """Set (or move) ``assignment``'s due date and late policy; extensions already given are kept."""
    if policy not in POLICIES:
        raise ExerciseError(f"late policy {policy!r}: choose one of {', '.join(POLICIES)}")
    if policy == "penalty" and not 0 < penalty_per_day <= 1:
        raise ExerciseError("--penalty-per-day is the share of the points lost per day late: above 0, at most 1 "
                            "(0.1 for 10%)")
    deadlines = load_deadlines(course_root)
    extensions = deadlines[assignment].extensions if assignment in deadlines else {}
    deadlines[assignment] = Deadline(due, policy, penalty_per_day if policy == "penalty" else 0.0, extensions)
    save_deadlines(course_root, deadlines)
    return deadlines[assignment]


def grant_extension(course_root: Path, assignment: str, student: str, until: datetime) -> Deadline:
    """Give ``student`` until ``until`` for ``assignment`` (replacing an earlier extension)."""
    deadlines = load_deadlines(course_root)
    if assignment not in deadlines:
        raise ExerciseError(f"{assignment} has no due date yet: set one with `tensorlab course deadline DIR {assignment} "
                            "--due TIME` first")
    if until <= deadlines[assignment].due:
        raise ExerciseError(f"an extension ends after the due date ({deadlines[assignment].due.isoformat()}), "
                            f"not at {until.isoformat()}")
    deadlines[assignment].extensions[student] = until
    save_deadlines(course_root, deadlines)
    return deadlines[assignment]
