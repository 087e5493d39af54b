"""mytorch, the student's library: their own answers to units 01-12, imported by later exercises.

A small course is enough: exercise 05 (reductions: ``logsumexp``) and a probe exercise numbered 13 whose
answer is ``from mytorch import logsumexp`` (``tests/mytorch_probe``). The student's side (``import
mytorch``, ``check()``) uses the student's own saved answers; the grader and validate use the course's
solutions, so a wrong earlier piece never costs a later grade. torch is the oracle for the values.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import types
from datetime import UTC, datetime, timedelta
from pathlib import Path

import nbformat
import numpy as np
import pytest
import torch

from autograder.cli import main
from autograder.course import Course, init_course
from autograder.deadlines import grant_extension, set_due
from autograder.distribution import answer_keys_in
from autograder.exercise import REPO_EXERCISES, ExerciseError, ExerciseFolder, exercise_folders
from autograder.solutions import publish_solutions
from autograder.student_tree import build_student_tree
from autograder.validate import code_cells, validate
from tensorlab.grading.check import CheckFailed, check_cells
from tensorlab.grading.extract import program_of
from tensorlab.grading.isolation import namespaces_available
from tensorlab.grading.library_module import build
from tensorlab.grading.public_cases import CASES_FILE, read_cases_file
from tensorlab.grading.student_library import LIBRARY_UNITS, library_spec, load, unit_number
from tensorlab.grading.verify import verify_notebook, verify_program

pytestmark = pytest.mark.timeout(300)

REPO_ROOT = Path(__file__).resolve().parent.parent
PROBE = Path(__file__).resolve().parent / "mytorch_probe" / "13-mytorch-probe"
REDUCTIONS = "05-reductions"
NAIVE_LOGSUMEXP = "def logsumexp(x, dim):\n    return np.log(np.sum(np.exp(x), axis=dim))"  # overflows at 1000
OWN_LOGSUMEXP = '''\
def row_max(x, dim):
    """A helper of the student's own: it must come along with logsumexp."""
    return np.max(x, axis=dim, keepdims=True)


def logsumexp(x, dim):
    top = row_max(x, dim)
    return np.squeeze(np.log(np.sum(np.exp(x - top), axis=dim, keepdims=True)) + top, axis=dim)'''
WIDE = np.array([[1000.0, 0.0], [-1000.0, 1.0], [0.5, 0.25]])


@pytest.fixture(scope="session", autouse=True)
def public_cases_of_every_exercise() -> None:
    """Not needed here (conftest's writes every exercise's cases): these tests read their own exercises' files."""


@pytest.fixture(scope="module")
def exercises(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("exercises")
    shutil.copytree(REPO_EXERCISES / REDUCTIONS, root / REDUCTIONS)
    shutil.copytree(PROBE, root / PROBE.name)
    return root


@pytest.fixture(scope="module")
def pristine_tree(exercises: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("pristine") / "student"
    build_student_tree(target, exercises=exercises)
    return target


@pytest.fixture
def tree(pristine_tree: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(pristine_tree, tmp_path / "student"))


def answer(tree: Path, exercise: str, function: str, source: str) -> None:
    """Write ``source`` as the student's answer cell of ``function`` and save the notebook."""
    (path,) = (tree / "exercises" / exercise).glob("*.ipynb")
    notebook = nbformat.read(str(path), as_version=4)
    (cell,) = [cell for cell in notebook.cells if cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
               == f"{function}_solution"]
    cell.source = source
    nbformat.write(notebook, str(path))


def library(tree: Path) -> types.ModuleType:
    return load(types.ModuleType("mytorch"), tree)


def torch_logsumexp(x: np.ndarray, dim: int) -> np.ndarray:
    return torch.logsumexp(torch.from_numpy(x), dim).numpy()


def probe_cells(exercises: Path) -> dict[int, str]:
    return code_cells(ExerciseFolder(exercises / PROBE.name))


def test_mytorch_is_the_students_own_answer_with_its_helpers(tree: Path) -> None:
    answer(tree, REDUCTIONS, "logsumexp", OWN_LOGSUMEXP)
    mine = library(tree)
    np.testing.assert_allclose(mine.logsumexp(WIDE, 1), torch_logsumexp(WIDE, 1))
    np.testing.assert_allclose(mine.logsumexp(WIDE, 0), torch_logsumexp(WIDE, 0))


def test_a_function_not_written_yet_names_the_notebook_to_finish(tree: Path) -> None:
    mine = library(tree)
    with pytest.raises(NotImplementedError, match=r"softmax .*05-reductions/reductions\.ipynb"):
        mine.softmax(WIDE, 1)
    with pytest.raises(ImportError, match="mytorch has no conv9d"):
        mine.conv9d  # noqa: B018 - the attribute access is the test


def test_functions_come_from_the_exercises_own_data() -> None:
    """Every graded function of units 01-12 (their locked test cells), each once, none of a later unit."""
    description = library_spec(REPO_EXERCISES)
    given = [name for part in description["parts"] for name in part["functions"]] + list(description["unwritten"])
    expected = [name for folder in exercise_folders() if unit_number(folder.name) in LIBRARY_UNITS
                for name in folder.tasks]
    assert sorted(given) == sorted(expected) and len(set(expected)) == len(expected)
    assert not description["unwritten"]  # the course's own notebooks hold every solution


def test_an_exercise_may_not_import_its_own_task(exercises: Path) -> None:
    description = library_spec(exercises, before=5)  # what exercise 05's code would get
    assert "logsumexp" in description["withheld"] and not description["parts"]
    module = build(description, name="mytorch_withheld")
    with pytest.raises(ImportError, match="logsumexp is a task of 05-reductions"):
        module.logsumexp  # noqa: B018
    assert ExerciseFolder(exercises / REDUCTIONS).library is None  # its tasks do not allow mytorch at all


@pytest.mark.parametrize("where", ["exercise folder", "tree"])
def test_import_mytorch_in_a_kernel(tree: Path, where: str) -> None:
    """From an exercise's folder (a kernel's working folder) after the setup cell's import, and from the tree's
    top folder, where the tree's own mytorch/ package is found."""
    answer(tree, REDUCTIONS, "logsumexp", OWN_LOGSUMEXP)
    folder = tree / "exercises" / PROBE.name if where == "exercise folder" else tree
    probe = ("import numpy as np; from tensorlab.grading import check; import mytorch; "
             "print(mytorch.__file__ if hasattr(mytorch, '__file__') else '-'); "
             "print(mytorch.logsumexp(np.array([[1000.0, 0.0]]), 1).tolist())")
    done = subprocess.run([sys.executable, "-c", probe], cwd=folder, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    where_from, values = done.stdout.splitlines()
    assert json.loads(values) == pytest.approx(torch_logsumexp(np.array([[1000.0, 0.0]]), 1).tolist())
    if where == "tree":
        assert Path(where_from) == tree / "mytorch" / "__init__.py"


def public_of(tree: Path) -> tuple:
    return read_cases_file(tree / "exercises" / PROBE.name / CASES_FILE)


def test_check_uses_the_students_own_piece(tree: Path, exercises: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tree / "exercises" / PROBE.name)  # where the notebook's kernel runs
    monkeypatch.delenv("TENSORLAB_CASES", raising=False)
    cells = probe_cells(exercises)
    with pytest.raises(CheckFailed, match=r"logsumexp is not written yet: finish logsumexp in 05-reductions"):
        check_cells("log_softmax", cells, public_of(tree))
    answer(tree, REDUCTIONS, "logsumexp", NAIVE_LOGSUMEXP)
    with pytest.raises(CheckFailed, match="case 2 of"):  # the statement's large values: the naive piece overflows
        check_cells("log_softmax", cells, public_of(tree))
    answer(tree, REDUCTIONS, "logsumexp", OWN_LOGSUMEXP)
    assert "checks passed" in check_cells("log_softmax", cells, public_of(tree))


ISOLATIONS = ["process", pytest.param("namespaces", marks=pytest.mark.skipif(
    not namespaces_available(), reason="bubblewrap cannot make namespaces here"))]


@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_the_grader_supplies_the_course_pieces(tree: Path, exercises: Path, isolation: str) -> None:
    """The student's own logsumexp is wrong; the probe's grade does not depend on it, isolated or not."""
    answer(tree, REDUCTIONS, "logsumexp", NAIVE_LOGSUMEXP)
    folder = ExerciseFolder(exercises / PROBE.name)
    answer(tree, PROBE.name, "log_softmax", folder.solution_cells["log_softmax"])
    submitted = tree / "exercises" / PROBE.name / "probe.ipynb"
    result = verify_notebook(submitted, folder.grading, folder.cases(20240613), isolation=isolation)
    assert result.isolation == isolation
    assert result.score == folder.grading.max_score, result.functions[0].message
    wrong = program_of({1: "import numpy as np\nfrom mytorch import logsumexp\n\ndef log_softmax(x):\n"
                           "    return x - logsumexp(x, 1)"})  # forgot to keep the reduced dim
    assert verify_program(wrong, folder.grading, folder.cases(20240613), isolation=isolation).score == 0


def test_validate_proves_the_probe_with_the_course_pieces(exercises: Path) -> None:
    said: list[str] = []
    assert validate(exercises / PROBE.name, seeds=(1,), say=said.append), said


# --- publish-solutions: after the deadline, a unit's solution fills the gaps in a student's mytorch ---

@pytest.fixture
def course(exercises: Path, tmp_path: Path) -> Course:
    return init_course(tmp_path / "course", exercises=exercises)


def test_publishing_a_solution_before_the_deadline_is_refused(course: Course, capsys: pytest.CaptureFixture) -> None:
    assert main(["course", "publish-solutions", str(course.root), REDUCTIONS]) == 2  # no due date
    assert "no due date" in capsys.readouterr().err
    now = datetime.now(UTC)
    set_due(course.root, REDUCTIONS, now + timedelta(days=1), "none", 0.0)
    assert main(["course", "publish-solutions", str(course.root), REDUCTIONS]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "only after that" in error
    set_due(course.root, REDUCTIONS, now - timedelta(days=1), "none", 0.0)
    grant_extension(course.root, REDUCTIONS, "ada", now + timedelta(hours=1))
    with pytest.raises(ExerciseError, match="an extension"):
        publish_solutions(course, REDUCTIONS)
    assert not (course.root / "published-solutions.json").exists()


def test_published_solution_fills_only_what_the_student_has_not_written(course: Course, exercises: Path) -> None:
    distribution = course.root / "student-distribution"
    build_student_tree(distribution / "course", exercises=course.root / "exercises")  # published earlier
    tree = distribution / "course"
    assert not list(tree.rglob("solution"))
    answer(tree, REDUCTIONS, "logsumexp", NAIVE_LOGSUMEXP)
    set_due(course.root, REDUCTIONS, datetime.now(UTC) - timedelta(days=1), "none", 0.0)
    assert main(["course", "publish-solutions", str(course.root), REDUCTIONS]) == 0
    solution = tree / "exercises" / REDUCTIONS / "solution" / "reductions.ipynb"
    assert solution.is_file() and answer_keys_in(tree) == []  # no marker, no hidden test: a notebook to read
    mine = library(tree)
    np.testing.assert_allclose(mine.softmax(WIDE, 1), torch.softmax(torch.from_numpy(WIDE), 1).numpy())
    with np.errstate(over="ignore"):
        assert np.isinf(mine.logsumexp(np.array([[1000.0, 0.0]]), 1)).all()  # the student's own piece comes first
    assert json.loads((course.root / "published-solutions.json").read_text()).keys() == {REDUCTIONS}


def test_a_new_distribution_carries_the_published_solutions(course: Course) -> None:
    publish_solutions(course, REDUCTIONS, force=True)
    tree = course.root / "tree"
    build_student_tree(tree, exercises=course.root / "exercises", published=(REDUCTIONS,))
    assert (tree / "exercises" / REDUCTIONS / "solution" / "reductions.ipynb").is_file()
    assert not (tree / "exercises" / PROBE.name / "solution").exists()
    assert (tree / "mytorch" / "__init__.py").read_text() == (REPO_ROOT / "autograder" / "student-mytorch" /
                                                               "__init__.py").read_text()
