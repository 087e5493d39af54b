"""What comes out of the gradebook: the CSV export, feedback pages, and the class report."""

from __future__ import annotations

import html
import json
from collections import Counter
from pathlib import Path

from .course import Course

__all__ = ["export_csv", "write_feedback", "write_report"]


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


FEEDBACK_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>{title}</title>
<style>body{{font-family:sans-serif;max-width:52em;margin:2em auto}} td,th{{padding:.3em .6em;border-bottom:1px solid #ddd;text-align:left;vertical-align:top;white-space:pre-wrap}}
.passed{{color:#17702b}} .other{{color:#a1260d}}</style></head>
<body><h1>{title}</h1><p>Score: <b>{score:g} / {max_score:g}</b></p>
<table><tr><th>function</th><th>points</th><th>result</th></tr>
{rows}
</table>{broken}
<p>Scores are computed by running your functions on the examples from the notebook and on hidden cases.</p>
</body></html>
"""


def hint_line(function: dict) -> str:
    """A failure's question (results written before hints existed have none)."""
    hint, known = str(function.get("hint") or ""), str(function.get("misconception") or "")
    text = f"<br><em>Something to think about:</em> {html.escape(hint)}" if hint else ""
    return text + (f"<br><em>A known mistake gives these results:</em> {html.escape(known)}" if known else "")


def write_feedback(course: Course) -> list[Path]:
    """One HTML page per student and assignment: per function, points and the learner message.

    The page is built from the grader's messages only, never from the notebook's cells, so it
    cannot contain test code; messages about hidden cases never show their inputs.
    """
    written = []
    for student, assignment, data in results(course):
        notebook = course.exercise(assignment).notebook
        rows = "\n".join(
            f"<tr><td><code>{html.escape(f['name'])}</code></td><td>{f['score']:g} / {f['max_score']:g}</td>"
            f"<td class=\"{'passed' if f['outcome'] == 'passed' else 'other'}\">{html.escape(f['outcome'])}: "
            f"{html.escape(f['message'])}{hint_line(f)}</td></tr>"
            for f in data["functions"]
        )
        broken = "".join(f"<p>Skipped (does not parse): {html.escape(cell)}</p>" for cell in data["broken_cells"])
        page = FEEDBACK_PAGE.format(
            title=html.escape(f"{assignment} — feedback for {student}"), rows=rows, broken=broken,
            score=sum(f["score"] for f in data["functions"]), max_score=sum(f["max_score"] for f in data["functions"]),
        )
        path = course.root / "feedback" / student / assignment / f"{notebook}.html"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(page, encoding="utf-8")
        written.append(path)
    return written


def write_report(course: Course) -> str:
    """A score histogram per assignment (PNG) and a table of how often each function failed, and why."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    by_assignment: dict[str, list[dict]] = {}
    for _, assignment, data in results(course):
        by_assignment.setdefault(assignment, []).append(data)
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
                  f"learner code isolated by: {graded_by}", "",
                  "| function | failed | why (most common) |", "|---|---|---|"]
        for index, function in enumerate(submissions[0]["functions"]):
            outcomes = [data["functions"][index]["outcome"] for data in submissions]
            failed = [outcome for outcome in outcomes if outcome != "passed"]
            why = ", ".join(f"{reason} ×{count}" for reason, count in Counter(failed).most_common(3)) or "—"
            lines.append(f"| {function['name']} | {len(failed)}/{len(outcomes)} ({100 * len(failed) / len(outcomes):.0f}%) | {why} |")
        lines += ["", f"![scores]({assignment}-scores.png)", ""]
    text = "\n".join(lines) if lines else "no graded submissions yet"
    (reports / "report.md").write_text(text + "\n", encoding="utf-8")
    return text
