"""Feedback pages and the report on a small graded course: exercise 04 and three submissions.

``perfect`` is the solution; ``wrong`` fails broadcast_add on a public clause case (a 0-d input), answers broadcast_shape
from a table of the public cases (so it fails only a hidden case) and put a script in a markdown cell and in
an output; ``not_a_notebook`` sent a text file. Each page must show the score table, each function's result
after its answer cell, the failing public call and its clause, no hidden input, no live script, and for the
text file that it could not be read; so must the report.
"""

from __future__ import annotations

import html
import json
import shutil
from pathlib import Path

import nbformat
import pytest

from autograder.cli import main
from autograder.course import Course
from tensorlab.grading.public_cases import CASES_FILE, read_cases_file
from tensorlab.grading.verify import verify_notebook
from tests.fake_students import STUDENTS

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

ASSIGNMENT, NOTEBOOK = "04-broadcasting", "broadcasting"
SCRIPT = "<script>alert('owned')</script>"
ADD_BUT_NOT_0D = ("\n_right = broadcast_add\ndef broadcast_add(a, b):\n    if a.ndim == 0:\n        return np.asarray(b)\n"
                  "    return _right(a, b)")  # the solution, but a 0-d a is dropped: only a clause case has one


def table_of_public_answers(released: Path) -> str:
    """A broadcast_shape that knows only the public cases: right on each, wrong on (almost) any other."""
    _, cases = read_cases_file(released / CASES_FILE)
    answers = {case.arguments: None if hasattr(case.expected, "exception") else case.expected
               for case in cases["broadcast_shape"]}
    return (f"ANSWERS = {answers!r}\n"
            "def broadcast_shape(a, b):\n"
            "    if (a, b) not in ANSWERS:\n        return (7,)\n"
            "    if ANSWERS[(a, b)] is None:\n        raise RuntimeError('clash')\n"
            "    return ANSWERS[(a, b)]")


def write_wrong(solution: Path, released: Path, destination: Path) -> None:
    notebook = nbformat.read(str(solution), as_version=4)
    for cell in notebook.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id == "broadcast_add_solution":
            cell.source += ADD_BUT_NOT_0D
            cell.outputs = [nbformat.v4.new_output("display_data", data={"text/html": SCRIPT, "text/plain": "x"})]
        elif grade_id == "broadcast_shape_solution":
            cell.source = table_of_public_answers(released)
    notebook.cells.insert(1, nbformat.v4.new_markdown_cell(f"my notes {SCRIPT} [link](javascript:alert(1))"))
    destination.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, str(destination))


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The course, graded, with its feedback pages and report written."""
    work = tmp_path_factory.mktemp("feedback")
    exercises, root = work / "exercises", work / "course"
    shutil.copytree(Path(__file__).parent.parent / "exercises" / ASSIGNMENT, exercises / ASSIGNMENT)
    assert main(["course", "init", str(root), "--exercises", str(exercises)]) == 0
    assert main(["course", "release", str(root)]) == 0
    solution, released = root / "source" / ASSIGNMENT / f"{NOTEBOOK}.ipynb", root / "release" / ASSIGNMENT
    submitted = root / "submitted" / "{}" / ASSIGNMENT / f"{NOTEBOOK}.ipynb"
    perfect = next(student for student in STUDENTS if student.name == "perfect")
    perfect.write(solution, released / f"{NOTEBOOK}.ipynb", Path(str(submitted).format("perfect")))
    write_wrong(solution, released, Path(str(submitted).format("wrong")))
    text_file = Path(str(submitted).format("not_a_notebook"))
    text_file.parent.mkdir(parents=True)
    text_file.write_text(f"my answers are in the PDF {SCRIPT}")
    assert main(["course", "autograde", str(root), "--jobs", "3", "--timeout", "3"]) == 0
    assert main(["course", "feedback", str(root)]) == 0
    assert main(["course", "report", str(root)]) == 0
    return root


def page(course: Path, student: str) -> str:
    return (course / "feedback" / student / ASSIGNMENT / f"{NOTEBOOK}.html").read_text()


def results(course: Path, student: str) -> dict:
    return json.loads((course / "autograded" / student / ASSIGNMENT / "tensorlab-results.json").read_text())


def test_every_page_has_the_score_table_then_the_notebook(course: Path) -> None:
    text = page(course, "perfect")
    assert "Score: <b>7 / 7</b>" in text and text.index("<table>") < text.index('class="tensorlab-result')
    for name in ("broadcast_shape", "broadcast_add", "expand_to"):
        assert f"✓ {name}: " in text
    assert "<script" not in text.lower()


def test_each_result_follows_its_answer_cell(course: Path) -> None:
    annotated = nbformat.read(str(course / "feedback" / "wrong" / ASSIGNMENT / f"{NOTEBOOK}.ipynb"), as_version=4)
    cells = annotated.cells
    for name, mark in (("broadcast_shape", "✗"), ("broadcast_add", "✗"), ("expand_to", "✓")):
        (answer,) = [number for number, cell in enumerate(cells)
                     if cell.metadata.get("nbgrader", {}).get("grade_id") == f"{name}_solution"]
        after = cells[answer + 1]
        assert after.cell_type == "markdown" and after.metadata["tensorlab"]["feedback"]
        assert f"{mark} {name}: " in after.source
    assert all(not cell.get("outputs") for cell in cells)  # the student's outputs are not carried over
    text = page(course, "wrong")
    headings = [text.index(f"{number}. <code>") for number in (1, 2, 3)]
    results_at = [text.index(f"{mark} {name}: ") for name, mark in
                  (("broadcast_shape", "✗"), ("broadcast_add", "✗"), ("expand_to", "✓"))]
    assert headings[0] < results_at[0] < headings[1] < results_at[1] < headings[2] < results_at[2]


def test_a_failing_public_case_shows_its_call_and_clause(course: Path) -> None:
    add = next(f for f in results(course, "wrong")["functions"] if f["name"] == "broadcast_add")
    grading, cases = read_cases_file(course / "release" / ASSIGNMENT / CASES_FILE)
    failing = cases["broadcast_add"][add["failed_case"] - 1]
    assert add["outcome"] == "wrong" and add["failed_public"] and failing.clause == "0-d inputs broadcast like any other"
    text = html.unescape(page(course, "wrong"))
    assert grading.find("broadcast_add").rules.describe_call(failing.arguments, add["failed_case"]) in text
    assert f"public case {add['failed_case']} of {add['cases']}" in text and "What is wrong: values differ" in text
    assert "The sentence of the statement it tests: <em>0-d inputs broadcast like any other</em>" in text
    assert f"{add['cases_passed']} of {add['cases']} cases passed" in text


def test_a_hidden_case_failure_shows_no_hidden_input(course: Path) -> None:
    shape = next(f for f in results(course, "wrong")["functions"] if f["name"] == "broadcast_shape")
    assert shape["outcome"] == "wrong" and not shape["failed_public"]
    graded = Course(course)
    grading, cases = graded.exercise(ASSIGNMENT), graded.folder(ASSIGNMENT).cases(graded.secret_seed)
    hidden = cases["broadcast_shape"][shape["failed_case"] - 1]
    assert not hidden.visible
    text = html.unescape(page(course, "wrong"))
    assert f"hidden case {shape['failed_case']} of {shape['cases']} fails: wrong" in text
    assert grading.find("broadcast_shape").rules.describe_call(hidden.arguments, 0) not in text
    assert repr(hidden.arguments) not in text


def test_a_students_script_is_never_live(course: Path) -> None:
    for student in ("perfect", "wrong", "not_a_notebook"):
        text = page(course, student)
        assert "<script" not in text.lower() and "javascript:" not in text.lower()
        assert "default-src 'none'" in text  # and the browser would refuse one anyway
    assert "my notes &lt;script&gt;" in page(course, "wrong")  # the markdown is shown, as text


def test_a_text_file_could_not_be_read_and_says_why(course: Path) -> None:
    data = results(course, "not_a_notebook")
    assert "NotJSONError" in data["unreadable"]
    assert {f["outcome"] for f in data["functions"]} == {"unreadable"} and sum(f["score"] for f in data["functions"]) == 0
    text = page(course, "not_a_notebook")
    assert "Score: <b>0 / 7</b>" in text and "Your notebook could not be read</b>" in text and "NotJSONError" in text
    assert not (course / "feedback" / "not_a_notebook" / ASSIGNMENT / f"{NOTEBOOK}.ipynb").exists()


def test_the_report_counts_unreadable_apart_from_wrong(course: Path) -> None:
    report = (course / "reports" / "report.md").read_text()
    assert "1 could not be read (not a notebook; scored 0, their feedback page says why): not_a_notebook" in report
    assert "| broadcast_add | 1/2 (50%) | wrong ×1 |" in report  # of the two readable submissions
    assert "unreadable" not in report.split("| function |")[1]


@pytest.mark.parametrize("content", ["{}", "[1, 2]", '{"cells": "none", "nbformat": 4}'])
def test_json_that_is_not_a_notebook_is_unreadable(course: Path, tmp_path: Path, content: str) -> None:
    graded = Course(course)
    path = tmp_path / f"{NOTEBOOK}.ipynb"
    path.write_text(content)
    result = verify_notebook(path, graded.exercise(ASSIGNMENT), graded.folder(ASSIGNMENT).cases(None), isolation="process")
    assert result.unreadable and result.score == 0
    assert {f.outcome for f in result.functions} == {"unreadable"}
    assert all("could not be read" in f.message for f in result.functions)
