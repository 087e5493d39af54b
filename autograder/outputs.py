"""The class report (the CSV export: export.py; the feedback pages: feedback.py)."""

from __future__ import annotations

import json
from collections import Counter

from .course import Course
from .export import grade_rows

__all__ = ["class_line", "results", "write_report"]


def results(course: Course) -> list[tuple[str, str, dict]]:
    """(student, assignment, results) for every graded submission."""
    found = []
    for path in sorted((course.root / "autograded").glob("*/*/tensorlab-results.json")):
        found.append((path.parent.parent.name, path.parent.name, json.loads(path.read_text())))
    return found


def write_report(course: Course) -> str:
    """A score histogram per assignment (PNG) and a table of how often each function failed, and why.

    A submission that is not a notebook (the grader's ``unreadable``) scores zero but is no wrong answer: it is
    counted, and its students named, on its own line, and the failure table counts the readable ones only.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    by_assignment: dict[str, list[dict]] = {}
    unreadable: dict[str, list[str]] = {}
    for student, assignment, data in results(course):
        by_assignment.setdefault(assignment, []).append(data)
        if data.get("unreadable"):
            unreadable.setdefault(assignment, []).append(student)
    rows = grade_rows(course)
    reports = course.root / "reports"
    reports.mkdir(exist_ok=True)
    lines = []
    for assignment, submissions in sorted(by_assignment.items()):
        scores = [sum(f["score"] for f in data["functions"]) for data in submissions]
        max_score = sum(f["max_score"] for f in submissions[0]["functions"])
        figure, axes = plt.subplots(figsize=(6, 3.5))
        axes.hist(scores, bins=max(1, int(max_score)) + 1, range=(-0.5, max_score + 0.5), color="#3b6ea8")
        axes.set(title=f"{assignment}: scores of {len(scores)} submissions", xlabel="score", ylabel="students")
        figure.tight_layout()
        figure.savefig(reports / f"{assignment}-scores.png", dpi=100)
        plt.close(figure)
        isolations = Counter(str(data.get("isolation", "process")) for data in submissions)
        graded_by = ", ".join(f"{count} in {kind}" for kind, count in sorted(isolations.items()))
        lines += [f"## {assignment}", "", f"{len(scores)} submissions, mean {sum(scores) / len(scores):.2f} / {max_score:g}; "
                  f"learner code isolated by: {graded_by}", ""]
        lines += [class_line([row for row in rows if row["assignment"] == assignment]), ""]
        if assignment in unreadable:
            lines += [f"{len(unreadable[assignment])} could not be read (not a notebook; scored 0, their feedback page "
                      f"says why): {', '.join(unreadable[assignment])}", ""]
        lines += ["| function | failed | why (most common) |", "|---|---|---|"]
        readable = [data for data in submissions if not data.get("unreadable")] or submissions
        for index, function in enumerate(submissions[0]["functions"]):
            outcomes = [data["functions"][index]["outcome"] for data in readable]
            failed = [outcome for outcome in outcomes if outcome != "passed"]
            why = ", ".join(f"{reason} ×{count}" for reason, count in Counter(failed).most_common(3)) or "—"
            lines.append(f"| {function['name']} | {len(failed)}/{len(outcomes)} ({100 * len(failed) / len(outcomes):.0f}%) | {why} |")
        lines += ["", f"![scores]({assignment}-scores.png)", ""]
    text = "\n".join(lines) if lines else "no graded submissions yet"
    (reports / "report.md").write_text(text + "\n", encoding="utf-8")
    return text


def class_line(rows: list[dict]) -> str:
    """The class as export.py sees it: who submitted, late, refused, missing, and the mean after the late policy."""
    statuses = Counter(row["status"] for row in rows)
    scored = [float(row["score"]) for row in rows if row["score"]]
    missing = [row["student_id"] for row in rows if row["status"] == "missing"]
    mean = f"{sum(scored) / len(scored):.2f}" if scored else "-"
    return (f"{len(rows)} students: {len(rows) - len(missing)} submitted ({statuses['late']} late, "
            f"{statuses['refused']} refused as late), {len(missing)} missing{': ' + ', '.join(missing) if missing else ''}; "
            f"mean score after the late policy {mean}")
