"""Feedback students can read: their own notebook, each graded function's result after its answer cell.

As nbgrader's feedback does, a student reads the verdict where they wrote the answer; the results are
tensorlab's own (``tensorlab-results.json``, from the out-of-kernel grader). Per student and assignment:

    DIR/feedback/<student>/<assignment>/<notebook>.html    the score table, then the annotated notebook
    DIR/feedback/<student>/<assignment>/<notebook>.ipynb   the annotated notebook, to open in JupyterLab

A result says its points, its outcome, how many cases passed and, for a failing public case, the call
(rebuilt from the released public cases, as ``check()`` prints it), what is wrong and the sentence of the
statement it tests. A hidden case is only named by the kind of mistake (verify.py words it so). The
page holds the student's own cells (their check cells are public; a submission never holds hidden
tests), and those are untrusted: outputs are cleared (running the notebook again shows them), the
rendered cells go through bleach (an allow-list of tags and attributes: no script, no event handler, no
javascript: link), and the page's Content-Security-Policy forbids scripts and outside requests anyway.
A file that is not a notebook gets a page saying it could not be read, and why.
"""

from __future__ import annotations

import copy
import html
from pathlib import Path
from typing import Any

from tensorlab.grading.public_cases import CASES_FILE, PublicCasesError, read_cases_file
from tensorlab.grading.tasks import Case, Rules
from tensorlab.grading.verify import FunctionResult, NotebookResult

from .course import Course
from .outputs import results

__all__ = ["write_feedback"]

READ = ("<p>Your notebook follows, with each function's result after its answer cell (its outputs are not shown: "
        "run the notebook again to see them).</p>\n")
SAFE_TAGS = frozenset({
    "a", "b", "blockquote", "br", "code", "del", "div", "em", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img",
    "li", "ol", "p", "pre", "s", "span", "strong", "sub", "sup", "table", "tbody", "td", "th", "thead", "tr", "ul",
})
Public = dict[str, tuple[Rules, list[Case]]]  # function name -> its rules and public cases, as released

PAGE = """<!doctype html>
<html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>{title}</title>
<style>body{{font-family:sans-serif;max-width:60em;margin:2em auto}} td,th{{padding:.3em .6em;border-bottom:1px solid #ddd;text-align:left;vertical-align:top;white-space:pre-wrap}}
.passed{{color:#17702b}} .other{{color:#a1260d}} pre{{background:#f6f6f6;padding:.5em;overflow-x:auto;white-space:pre-wrap}}
.tensorlab-result{{border-left:4px solid #a1260d;padding:.2em 1em;margin:.5em 0 1.5em;background:#fdf6f4}}
.tensorlab-result.passed{{border-color:#17702b;background:#f3faf4;color:inherit}}</style></head>
<body><h1>{title}</h1><p>Score: <b>{score:g} / {max_score:g}</b></p>
<table><tr><th>function</th><th>points</th><th>result</th></tr>
{rows}
</table>{broken}
<p>Scores are computed by running your functions on the examples from the notebook and on hidden cases.</p>
<hr>
{notebook}
</body></html>
"""


def hint_line(function: FunctionResult) -> str:
    """A failure's question, and the known mistake its results match (for wrong values only)."""
    text = f"<br><em>Something to think about:</em> {html.escape(function.hint)}" if function.hint else ""
    known = function.misconception
    return text + (f"<br><em>A known mistake gives these results:</em> {html.escape(known)}" if known else "")


def score_rows(result: NotebookResult) -> str:
    """The table at the top of the page: per function, points and the grader's message."""
    return "\n".join(
        f"<tr><td><code>{html.escape(f.name)}</code></td><td>{f.score:g} / {f.max_score:g}</td>"
        f"<td class=\"{'passed' if f.outcome == 'passed' else 'other'}\">{html.escape(f.outcome)}: "
        f"{html.escape(f.message)}{hint_line(f)}</td></tr>"
        for f in result.functions
    )


def pre(text: str) -> str:
    """Text shown as it is, escaped; its line breaks as character references, so the markdown cell that holds
    it has no blank line (which would end its HTML block and let markdown read the rest)."""
    return f"<pre>{html.escape(text).replace(chr(10), '&#10;')}</pre>"


def line(text: str) -> str:
    return html.escape(text).replace("\n", " ")


def failing_case(function: FunctionResult, public: Public) -> list[str]:
    """The first failing case as check() shows it: a public one's call, problem and clause; a hidden one's kind only."""
    number = function.failed_case
    if not function.failed_public:
        return [f"<p>Every public case passes; hidden case {number} of {function.cases} fails: "
                f"{line(function.problem)}. (Hidden cases are not shown: think about which inputs the examples "
                "do not cover.)</p>"]
    rules, cases = public.get(function.name, (None, []))
    if rules is None or not 1 <= number <= len(cases):  # no released cases to rebuild the call from: the message
        return [pre(function.message)]
    case = cases[number - 1]
    parts = [f"<p>The first failing case is public case {number} of {function.cases}; the call, to paste into a cell:</p>",
             pre(rules.describe_call(case.arguments, number)), f"<p>What is wrong: {line(function.problem)}</p>"]
    if case.clause:
        parts.append(f"<p>The sentence of the statement it tests: <em>{line(case.clause)}</em></p>")
    return parts


def result_cell(function: FunctionResult, public: Public, note: str = "") -> str:
    """The markdown (HTML, every value escaped) inserted after a function's answer cell."""
    passed = function.outcome == "passed"
    parts = [f"<div class=\"tensorlab-result{' passed' if passed else ''}\">",
             f"<h4>{'✓' if passed else '✗'} {line(function.name)}: {function.score:g} / {function.max_score:g} points "
             f"({line(function.outcome)})</h4>",
             f"<p>{function.cases_passed} of {function.cases} cases passed.{line(note)}</p>"]
    if function.outcome == "wrong" and function.failed_case:
        parts += failing_case(function, public)
    elif not passed:
        parts.append(pre(function.message))
    if function.hint:
        parts.append(f"<p><em>Something to think about:</em> {line(function.hint)}</p>")
    if function.misconception:
        parts.append(f"<p><em>A known mistake gives these results:</em> {line(function.misconception)}</p>")
    return "\n".join([*parts, "</div>"])


def without_outputs(notebook: Any) -> Any:
    """The student's notebook without what their code printed or displayed (HTML, widgets, images), and without
    notebook metadata but the kernel's (widget state would be rendered inside a script element)."""
    notebook = copy.deepcopy(notebook)
    notebook.metadata = {key: notebook.metadata[key] for key in ("kernelspec", "language_info") if key in notebook.metadata}
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    return notebook


def allowed_attribute(tag: str, name: str, value: str) -> bool:
    """What the rendered notebook keeps of an element: names and classes, links (bleach refuses javascript: and
    other schemes) and images embedded in the notebook, nothing that runs or fetches."""
    if name in ("class", "id", "title", "alt"):
        return True
    if name == "href":
        return tag == "a" and not value.strip().lower().startswith("data:")
    return name == "src" and tag == "img" and value.startswith("data:image/")


def sanitised(body: str) -> str:
    """The rendered notebook through bleach: a student's markdown may hold raw HTML (a script, an event handler,
    a javascript: link), which markdown passes on; here it is escaped or dropped, whatever the template did."""
    import bleach

    return bleach.clean(body, tags=SAFE_TAGS, attributes=allowed_attribute, protocols={"http", "https", "mailto", "data"})


def annotate(notebook: Any, result: NotebookResult, public: Public) -> Any:
    """The sanitised notebook with each function's result after its answer cell (grade_id ``<name>_solution``,
    the last one if the student copied it); a function whose answer cell is gone is reported at the end."""
    import nbformat

    notebook = without_outputs(notebook)
    answers = {cell.get("metadata", {}).get("nbgrader", {}).get("grade_id"): number
               for number, cell in enumerate(notebook.cells)}
    after: dict[int | None, list[str]] = {}  # cell number -> the results after it; None: after the last
    for function in result.functions:
        where = answers.get(f"{function.name}_solution")
        note = "" if where is not None else f" (its answer cell, {function.name}_solution, is not in this notebook)"
        after.setdefault(where, []).append(result_cell(function, public, note))
    cells = []
    for number, cell in [*enumerate(notebook.cells), (None, None)]:
        cells += [cell] if cell is not None else []
        cells += [nbformat.v4.new_markdown_cell(text, metadata={"tensorlab": {"feedback": True}})
                  for text in after.get(number, [])]
    notebook.cells = cells
    return notebook


def released_cases(course: Course, assignment: str) -> Public:
    """The public cases the students got (the released cases file); none if it cannot be read."""
    try:
        grading, cases = read_cases_file(course.root / "release" / assignment / CASES_FILE)
    except PublicCasesError:
        return {}
    return {graded.name: (graded.rules, cases.get(graded.name, [])) for graded in grading.graded}


def notebook_html(submission: Path, result: NotebookResult, public: Public, exporter: Any) -> tuple[str, Any]:
    """The annotated notebook as HTML (``exporter``: nbconvert's, basic template, made once since it loads its
    templates) and as a notebook; a notebook that cannot be read or rendered is a paragraph saying why, and None."""
    if result.unreadable:
        return (f"<p class=\"other\"><b>Your notebook could not be read</b>, so nothing in it was graded: "
                f"{line(result.unreadable)}. Save it from Jupyter (File → Save Notebook) as .ipynb and submit it again.</p>",
                None)
    import nbformat

    try:
        annotated = annotate(nbformat.read(str(submission), as_version=4), result, public)
        body = sanitised(exporter.from_notebook_node(annotated)[0])
    except Exception as error:  # the submission changed or vanished since grading: the table still stands
        return f"<p class=\"other\">Your notebook could not be read to show here: {line(f'{type(error).__name__}: {error}')}</p>", None
    return READ + body, annotated


def write_feedback(course: Course) -> list[Path]:
    """One HTML page per graded submission (and its annotated notebook, when it could be read)."""
    import nbformat
    from nbconvert import HTMLExporter

    exporter = HTMLExporter(template_name="basic")
    written = []
    public: dict[str, Public] = {}
    for student, assignment, data in results(course):
        result = NotebookResult.from_json(data)
        if assignment not in public:
            public[assignment] = released_cases(course, assignment)
        body, annotated = notebook_html(course.submission(student, assignment), result, public[assignment], exporter)
        title = html.escape(f"{assignment} — feedback for {student}")
        broken = "".join(f"<p>Skipped (does not parse): {html.escape(cell)}</p>" for cell in result.broken_cells)
        page = PAGE.format(title=title, score=result.score, max_score=sum(f.max_score for f in result.functions),
                           rows=score_rows(result), broken=broken, notebook=body)
        path = course.root / "feedback" / student / assignment / f"{course.exercise(assignment).notebook}.html"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(page, encoding="utf-8")
        if annotated is not None:
            nbformat.write(annotated, str(path.with_suffix(".ipynb")))
        written.append(path)
    return written
