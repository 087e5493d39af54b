"""What comes out of the gradebook: the CSV export and the class report (the feedback pages: feedback.py)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from .course import Course

__all__ = ["export_csv", "results", "write_report"]


def export_csv(course: Course, to: Path | None = None) -> Path:
    """nbgrader's own CSV export (assignment, duedate, timestamp, student_id, ..., score, max_score)."""
    from nbgrader.plugins.export import CsvExportPlugin

    destination = to or course.root / "grades.csv"
    with course.gradebook() as gradebook:
        CsvExportPlugin(to=str(destination)).export(gradebook)
    return destination


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

