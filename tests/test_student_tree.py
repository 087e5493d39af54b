"""The student tree (`tensorlab student-tree`, what `make lab` serves): complete, solution-free, and
never destroying a student's work."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import nbformat
import pytest

from autograder.cli import main
from autograder.exercise import exercise_folders
from autograder.student_tree import MANIFEST, build_student_tree
from tensorlab.grading.public_cases import CASES_FILE, read_cases_file

REPO_ROOT = Path(__file__).resolve().parent.parent
WALKTHROUGHS = sorted((REPO_ROOT / "notebooks").glob("*.ipynb"))
EXERCISE_SOURCES = sorted((REPO_ROOT / "exercises").glob("*/*.ipynb"))
SOLUTION_BLOCK = re.compile(r"### BEGIN SOLUTION\n(.*?)### END SOLUTION", re.DOTALL)
HIDDEN_TESTS_BLOCK = re.compile(r"### BEGIN HIDDEN TESTS\n(.*?)### END HIDDEN TESTS", re.DOTALL)
# A solution line this long is specific to the answer; shorter ones (`return out`) may also be prose.
DISTINCT_LINE = 20
NBGRADER_MARKERS = ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS", "BEGIN MARK SCHEME")


def released_path(tree: Path, source: Path) -> Path:
    return tree / "exercises" / source.parent.name / source.name


def nbgrader_cells(source: Path, flag: str) -> list[nbformat.NotebookNode]:
    notebook = nbformat.read(str(source), as_version=4)
    return [cell for cell in notebook.cells if cell.get("metadata", {}).get("nbgrader", {}).get(flag)]


def solution_texts(source: Path) -> list[str]:
    """What an nbgrader source notebook hides from students: each solution (and hidden-test) block, and
    each distinct line of it."""
    blocks = []
    for cell in nbgrader_cells(source, "solution"):
        blocks += SOLUTION_BLOCK.findall(cell.source) if cell.cell_type == "code" else [cell.source]
    for cell in nbgrader_cells(source, "grade"):
        blocks += HIDDEN_TESTS_BLOCK.findall(cell.source)
    texts = [block.strip() for block in blocks if block.strip()]
    return texts + [line.strip() for block in blocks for line in block.splitlines() if len(line.strip()) >= DISTINCT_LINE]


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("student")
    build_student_tree(target)
    return target


def test_there_are_walkthroughs_and_exercises() -> None:
    assert WALKTHROUGHS and EXERCISE_SOURCES


def test_tree_holds_every_walkthrough_and_every_released_exercise_and_nothing_else(tree: Path) -> None:
    files = {str(path.relative_to(tree)) for path in tree.rglob("*") if path.is_file()}
    expected = {path.name for path in WALKTHROUGHS}
    expected |= {str(released_path(tree, source).relative_to(tree)) for source in EXERCISE_SOURCES}
    expected |= {f"exercises/{source.parent.name}/{CASES_FILE}" for source in EXERCISE_SOURCES}
    assert files == expected | {MANIFEST, "mytorch/__init__.py"}  # mytorch: the student's own library


def test_each_exercise_carries_the_public_cases_check_reads(tree: Path) -> None:
    """Rules and public cases as data (no code), the same that check() grades on."""
    for folder in exercise_folders():
        grading, cases = read_cases_file(tree / "exercises" / folder.name / CASES_FILE)
        assert grading == folder.grading
        assert {name: len(found) for name, found in cases.items()} == {
            name: len(task.public_cases()) for name, task in folder.tasks.items()}


def test_walkthroughs_are_copied_as_they_are(tree: Path) -> None:
    for walkthrough in WALKTHROUGHS:
        assert (tree / walkthrough.name).read_bytes() == walkthrough.read_bytes()


@pytest.mark.parametrize("source", EXERCISE_SOURCES, ids=lambda path: path.parent.name)
def test_no_solution_text_anywhere_in_the_tree(tree: Path, source: Path) -> None:
    solutions = solution_texts(source)
    assert solutions, f"{source} has no solution cells: this test would check nothing"
    seen = {}  # every notebook's cells as a student sees them, and every file's raw text
    for path in tree.rglob("*"):
        if path.is_file():
            seen[f"{path} (file)"] = path.read_text(encoding="utf-8")
            if path.suffix == ".ipynb":
                seen[f"{path} (cells)"] = "\n".join(cell.source for cell in nbformat.read(str(path), as_version=4).cells)
    for where, text in seen.items():
        assert not [marker for marker in NBGRADER_MARKERS if marker in text], where
        leaked = [solution for solution in solutions if solution in text]
        assert not leaked, f"{where} contains the solution {leaked[0][:80]!r}"


@pytest.mark.parametrize("source", EXERCISE_SOURCES, ids=lambda path: path.parent.name)
def test_released_exercise_has_stubs_and_keeps_the_locked_check_cells(tree: Path, source: Path) -> None:
    released = nbformat.read(str(released_path(tree, source)), as_version=4)
    by_id = {cell.metadata["nbgrader"]["grade_id"]: cell for cell in released.cells if "nbgrader" in cell.metadata}
    for check in nbgrader_cells(source, "grade"):
        kept = by_id[check.metadata["nbgrader"]["grade_id"]]
        assert kept.source == check.source
        assert kept.metadata["editable"] is False and kept.metadata["deletable"] is False
        assert kept.metadata["nbgrader"]["locked"] and "checksum" in kept.metadata["nbgrader"]
    for solution in nbgrader_cells(source, "solution"):
        stub = by_id[solution.metadata["nbgrader"]["grade_id"]].source
        assert "# YOUR CODE HERE\n" in stub and "raise NotImplementedError()" in stub
    assert all(not cell.get("outputs") for cell in released.cells if cell.cell_type == "code")


@pytest.mark.slow
def test_released_exercises_are_what_nbgrader_releases(tree: Path, tmp_path: Path) -> None:
    """The tree's exercises equal `tensorlab course release`'s (nbgrader generate_assignment), checksums included."""
    assert main(["course", "init", str(tmp_path / "course")]) == 0
    assert main(["course", "release", str(tmp_path / "course")]) == 0
    released = sorted((tmp_path / "course" / "release").glob("*/*.ipynb"))
    assert len(released) == len(EXERCISE_SOURCES)
    for path in released:
        ours = tree / "exercises" / path.parent.name / path.name
        assert json.loads(ours.read_text()) == json.loads(path.read_text()), path.name


def copy_of_the_course(tmp_path: Path) -> Path:
    """notebooks/ and exercises/ in a scratch repository, so a test can change the course."""
    repo = tmp_path / "repo"
    shutil.copytree(REPO_ROOT / "notebooks", repo / "notebooks")
    shutil.copytree(REPO_ROOT / "exercises", repo / "exercises")
    return repo


def test_building_again_never_overwrites_a_students_work(tmp_path: Path) -> None:
    repo, tree = copy_of_the_course(tmp_path), tmp_path / "student"
    first = build_student_tree(tree, repo=repo)
    assert first.written and not first.present
    exercise = released_path(tree, EXERCISE_SOURCES[0])
    student_work = exercise.read_text().replace("raise NotImplementedError()", "return 42  # my answer")
    exercise.write_text(student_work)
    deleted = tree / WALKTHROUGHS[0].name
    deleted.unlink()

    again = build_student_tree(tree, repo=repo)
    assert again.written == [WALKTHROUGHS[0].name]  # only what was missing
    assert exercise.read_text() == student_work
    assert deleted.read_bytes() == WALKTHROUGHS[0].read_bytes()


def test_refresh_updates_untouched_notebooks_and_keeps_edited_ones(tmp_path: Path) -> None:
    repo, tree = copy_of_the_course(tmp_path), tmp_path / "student"
    build_student_tree(tree, repo=repo)
    edited, untouched = tree / WALKTHROUGHS[0].name, tree / WALKTHROUGHS[1].name
    edited.write_text(edited.read_text().replace("tensor", "TENSOR"))
    students_version = edited.read_text()
    own_file = tree / "exercises" / "my-notes.ipynb"
    own_file.write_text("{}")
    for walkthrough in WALKTHROUGHS[:2]:  # a new version of the course changes both sources
        source = repo / "notebooks" / walkthrough.name
        source.write_text(source.read_text().replace("tensor", "tensors"))

    plain = build_student_tree(tree, repo=repo)
    assert not plain.written and not plain.refreshed
    assert untouched.read_bytes() == WALKTHROUGHS[1].read_bytes()  # without --refresh nothing changes

    refreshed = build_student_tree(tree, refresh=True, repo=repo)
    assert refreshed.refreshed == [untouched.name] and refreshed.kept == [edited.name]
    assert untouched.read_bytes() == (repo / "notebooks" / untouched.name).read_bytes()
    assert edited.read_text() == students_version and own_file.read_text() == "{}"
    assert f"kept your version of {edited.name}" in refreshed.summary()


def test_command_builds_the_tree(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["student-tree", str(tmp_path / "student")]) == 0
    assert f"{len(WALKTHROUGHS) + 2 * len(EXERCISE_SOURCES) + 1} new" in capsys.readouterr().out  # + mytorch/
    assert main(["student-tree", str(tmp_path / "student"), "--refresh"]) == 0
    assert "0 new, 0 refreshed" in capsys.readouterr().out


def test_building_without_the_course_sources_says_so(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no notebooks/"):
        build_student_tree(tmp_path / "student", repo=tmp_path)


def test_make_clean_keeps_the_student_tree(tmp_path: Path) -> None:
    shutil.copy(REPO_ROOT / "Makefile", tmp_path / "Makefile")
    for folder in ("build/student/exercises", "build/lib", ".venv/bin"):
        (tmp_path / folder).mkdir(parents=True)
    subprocess.run(["make", "clean"], cwd=tmp_path, check=True, capture_output=True)
    assert (tmp_path / "build/student/exercises").is_dir()
    assert not (tmp_path / "build/lib").exists() and not (tmp_path / ".venv").exists()
