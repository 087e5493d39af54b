"""Answer keys never reach students: not in the wheel they install, not in the distribution they are given.

The wheel is built the way a release would build it, from a clean copy of the project's tracked files
(``git ls-files``: commit a new file before trusting this test with it). An answer key is any
exercise's task module (references, case generators), its mutants, or a solution: the test looks for
each exercise's files by name, for the ``def`` of every reference and case generator, and for every
solution block and every distinct solution line of every exercise notebook.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from autograder.course import Course, init_course
from autograder.distribution import answer_keys_in, build_wheel, publish
from autograder.exercise import exercise_folders
from tests.test_student_tree import solution_texts

REPO_ROOT = Path(__file__).resolve().parent.parent
pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]


def key_function_names() -> set[str]:
    """The names of every task's reference and case generators (the answer keys proper)."""
    names = set()
    for folder in exercise_folders():
        for task in folder.tasks.values():
            parts = (task.reference, task.random_case, task.large_case, task.view_strides)
            names |= {part.__name__ for part in parts  # (not the engine's own helpers a task may name)
                      if part is not None and part.__name__ != "<lambda>" and not part.__module__.startswith("tensorlab.")}
    return names


def texts_of(wheel: Path) -> dict[str, str]:
    with zipfile.ZipFile(wheel) as archive:
        return {name: archive.read(name).decode("utf-8", errors="replace") for name in archive.namelist()}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_wheel(REPO_ROOT, tmp_path_factory.mktemp("wheel"))


def test_wheel_has_the_engine_and_no_exercise_files(wheel: Path) -> None:
    names = set(texts_of(wheel))
    assert "tensorlab/grading/check.py" in names and "tensorlab/grading/sandbox.py" in names
    # mytorch's engine (the student's own answers, and the sandbox's stand-in) without any solution in it:
    assert {"tensorlab/grading/student_library.py", "tensorlab/grading/library_module.py"} <= names
    assert not [name for name in names if name.startswith(("exercises/", "tests/")) or "/units/" in name]
    exercise_files = [name for name in names if Path(name).name in ("tasks.py", "mutants.py", "alternatives.py")]
    assert exercise_files == ["tensorlab/grading/tasks.py"]  # the engine's: the types Task, Clause, Mutant...


def test_wheel_defines_no_reference_or_case_generator(wheel: Path) -> None:
    defined = {node.name for name, text in texts_of(wheel).items() if name.endswith(".py")
               for node in ast.walk(ast.parse(text)) if isinstance(node, ast.FunctionDef)}
    keys = key_function_names()
    assert len(keys) > 150  # every exercise's references and generators: the check has teeth
    leaked = sorted(keys & defined)
    assert not leaked, f"the wheel defines answer-key functions: {leaked[:10]}"


def test_wheel_holds_no_solution(wheel: Path) -> None:
    """Not in the grading engine nor the course tools. (The library itself is the textbook the exercises
    reimplement, so some of its lines are a solution's: calling or importing it is what the rules refuse.)"""
    texts = {name: text for name, text in texts_of(wheel).items() if name.startswith(("tensorlab/grading/", "autograder/"))}
    for folder in exercise_folders():
        for solution in solution_texts(folder.notebook_path):
            if "\n" in solution or len(solution) >= 30:
                leaked = [name for name, text in texts.items() if solution in text]
                assert not leaked, f"{folder.name}'s solution {solution[:60]!r} is in {leaked[:3]}"


@pytest.fixture(scope="module")
def distribution(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("publish")
    course = init_course(root / "course")
    return publish(Course(course.root), root / "students", make_zip=True)


def test_distribution_is_the_tree_the_wheel_and_two_commands(distribution: Path) -> None:
    assert (distribution.parent / "students.zip").stat().st_size > 100_000
    readme = (distribution / "README.md").read_text()
    commands = [line.strip() for line in readme.splitlines() if line.startswith("    ")]
    assert commands[:2] == ["python3 -m venv .venv && .venv/bin/pip install -c constraints.txt -r requirements.txt",
                            "JUPYTER_CONFIG_PATH=jupyter-config .venv/bin/jupyter lab course"]
    assert (distribution / "jupyter-config" / "labconfig" / "page_config.json").is_file()  # no nbgrader menus
    (wheel,) = (distribution / "wheels").glob("tensorlab-*.whl")
    assert (distribution / "requirements.txt").read_text().strip() == f"./wheels/{wheel.name}"
    pins = [line.split("==")[0].lower() for line in (distribution / "constraints.txt").read_text().splitlines()
            if line and not line.startswith("#")]
    assert "torch" in pins and len(pins) == len(set(pins)) > 20  # one version per package, or pip cannot resolve
    for folder in exercise_folders():
        released = distribution / "course" / "exercises" / folder.name
        assert sorted(path.name for path in released.iterdir()) == sorted([folder.notebook_path.name, "tensorlab-cases.json"])
    assert (distribution / "course" / "00-welcome.ipynb").exists()
    assert (distribution / "course" / "mytorch" / "__init__.py").is_file()  # the student's library: their answers


def test_distribution_holds_no_solution_until_one_is_published(distribution: Path) -> None:
    """``tensorlab course publish-solutions`` adds a unit's solution after its deadline; none was published."""
    assert not [path for path in distribution.rglob("solution") if path.is_dir()]


def test_distribution_holds_no_answer_key(distribution: Path) -> None:
    assert answer_keys_in(distribution) == []
    texts = {str(path): path.read_text(errors="replace") for path in distribution.rglob("*")
             if path.is_file() and path.suffix in (".ipynb", ".json", ".md", ".txt")}
    for folder in exercise_folders():
        for solution in solution_texts(folder.notebook_path):
            leaked = [name for name, text in texts.items() if solution in text]
            assert not leaked, f"{folder.name}'s solution {solution[:60]!r} is in {leaked[:3]}"


def test_distribution_checks_a_notebook_with_only_its_own_wheel(distribution: Path, tmp_path: Path) -> None:
    """The published wheel's engine and the released cases are all a student's check needs: no repository."""
    with zipfile.ZipFile(next((distribution / "wheels").glob("*.whl"))) as archive:
        archive.extractall(tmp_path / "site")
    notebook = distribution / "course" / "exercises" / "04-broadcasting" / "broadcasting.ipynb"
    probe = "import sys, autograder.cli; sys.exit(autograder.cli.main(['check', sys.argv[1]]))"
    environment = {**os.environ, "PYTHONPATH": str(tmp_path / "site")}
    environment.pop("TENSORLAB_CASES", None)
    done = subprocess.run([sys.executable, "-c", probe, str(notebook)], cwd=tmp_path, env=environment,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stdout + done.stderr  # the released notebook: nothing written yet
    assert "broadcast_shape is not written yet" in done.stdout
    located = subprocess.run([sys.executable, "-c", "import autograder, tensorlab; print(autograder.__file__, tensorlab.__file__)"],
                             cwd=tmp_path, env=environment, capture_output=True, text=True, check=True).stdout
    assert str(REPO_ROOT) not in located and str(tmp_path / "site") in located
    cases = json.loads((notebook.parent / "tensorlab-cases.json").read_text())
    assert [function["rules"]["name"] for function in cases["functions"]] == ["broadcast_shape", "broadcast_add", "expand_to"]


def test_the_engine_never_imports_the_course_pipeline() -> None:
    """One direction of imports: autograder/ uses tensorlab.grading, never the other way round."""
    offenders = []
    for path in sorted((REPO_ROOT / "tensorlab").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            modules = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                       else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            offenders += [f"{path.relative_to(REPO_ROOT)}: {module}" for module in modules if module.split(".")[0] == "autograder"]
    assert not offenders
