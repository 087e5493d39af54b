"""An exercise folder, as its author keeps it: the one place where an exercise lives.

    exercises/NN-topic/<notebook>.ipynb   the nbgrader source notebook: statement, solution cells
                                          (### BEGIN SOLUTION), and locked test cells
                                          ``check("name", name)`` whose nbgrader points are the
                                          function's points (the only place points are written)
    exercises/NN-topic/tasks.py           the tasks (references, clause cases, random-case generators,
                                          rules, hints) and ``EXERCISE = Exercise(notebook=..., tasks=...)``
    exercises/NN-topic/mutants.py         ``MUTANTS``: known-wrong answer cells that must lose points
    exercises/NN-topic/alternatives.py    ``ALTERNATIVES``: correct answer cells written another way
    exercises/NN-topic/misconceptions.json  the mutants' fingerprints on the public cases (generated:
                                          ``tensorlab exercise misconceptions``), for check()'s third tier

The folder stays on the instructor's side; students get the released notebook and the public cases
(``public_document``) only. ``ExerciseError`` names what is wrong with a folder, and the file, in
one line.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
import sys
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from types import ModuleType
from typing import Any

from tensorlab.grading.extract import checked_names, is_locked_test_cell
from tensorlab.grading.library_module import NAME as LIBRARY_NAME
from tensorlab.grading.public_cases import encode_document
from tensorlab.grading.student_library import library_spec, unit_number
from tensorlab.grading.tasks import Alternative, Case, Exercise, Mutant, Task
from tensorlab.grading.verify import Graded, Grading

__all__ = ["REPO_EXERCISES", "ExerciseFolder", "ExerciseError", "UsageError", "exercise_folders", "find_task", "folder_of", "load_folder"]

REPO_EXERCISES = Path(__file__).resolve().parent.parent / "exercises"
MISCONCEPTIONS_FILE = "misconceptions.json"  # written by tensorlab exercise misconceptions (misconceptions.py)


class ExerciseError(ValueError):
    """A mistake in what the command was given (an exercise folder, a course folder, an option, an
    assignment's name), and what to do about it: the CLI prints it as one line, exit status 2.

    The one class for a user's mistake, so the CLI never mistakes one for a bug (and a bug is
    never hidden as one): raise it before anything is written."""


class UsageError(ExerciseError):
    """A command line argparse refused: the message already names the (sub)command and its usage."""


def load_module(path: Path, name: str) -> ModuleType:
    """Run a Python file of the folder as a module (each folder's files under their own module name)."""
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ExerciseError(f"{path}: cannot be loaded as Python")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pickling look a module up by name
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        del sys.modules[name]
        raise ExerciseError(f"{path}: {type(error).__name__}: {error}") from None
    return module


def module_name(folder: Path, stem: str) -> str:
    """A module name per folder and file, so two folders' tasks.py never replace each other."""
    tag = hashlib.sha1(str(folder.resolve()).encode()).hexdigest()[:8]
    return f"tensorlab_exercise_{tag}_{stem}"


@dataclass(frozen=True)
class ExerciseFolder:
    path: Path

    @cached_property
    def tasks_module(self) -> ModuleType:
        tasks = self.path / "tasks.py"
        if not tasks.is_file():
            raise ExerciseError(f"{tasks}: missing (an exercise folder needs tasks.py defining EXERCISE)")
        return load_module(tasks, module_name(self.path, "tasks"))

    @cached_property
    def exercise(self) -> Exercise:
        exercise = getattr(self.tasks_module, "EXERCISE", None)
        if not isinstance(exercise, Exercise):
            raise ExerciseError(f"{self.path / 'tasks.py'}: must define EXERCISE = Exercise(notebook=..., tasks=(...))")
        return exercise

    @property
    def name(self) -> str:
        """The assignment's name: the folder's."""
        return self.path.name

    @property
    def notebook_path(self) -> Path:
        return self.path / f"{self.exercise.notebook}.ipynb"

    @cached_property
    def notebook(self) -> Any:
        import nbformat

        path = self.notebook_path
        if not path.is_file():
            raise ExerciseError(f"{path}: missing (EXERCISE names the notebook {self.exercise.notebook!r})")
        try:
            return nbformat.read(str(path), as_version=4)
        except Exception as error:
            raise ExerciseError(f"{path}: not a notebook ({type(error).__name__}: {error})") from None

    @cached_property
    def grade_cells(self) -> dict[str, tuple[str, float]]:
        """Function name -> (grade_id, points) of the locked test cell that checks it."""
        found: dict[str, tuple[str, float]] = {}
        for cell in self.notebook.cells:
            if cell.cell_type != "code" or not is_locked_test_cell(cell):
                continue
            grading = cell.metadata["nbgrader"]
            names = checked_names(cell.source)
            where = f"{self.notebook_path}: test cell {grading.get('grade_id', '?')!r}"
            if len(names) != 1:
                raise ExerciseError(f"{where} must call check(\"name\", name) for exactly one function, "
                                      f"found {len(names)}")
            if names[0] in found:
                raise ExerciseError(f"{where} checks {names[0]!r}, which another test cell checks too")
            points = grading.get("points")
            if not isinstance(points, (int, float)) or points <= 0:
                raise ExerciseError(f"{where} needs nbgrader points above 0, has {points!r}")
            found[names[0]] = (str(grading.get("grade_id", "")), float(points))
        return found

    @cached_property
    def solution_cells(self) -> dict[str, str]:
        """Function name -> the source of its answer cell (nbgrader grade_id ``<name>_solution``)."""
        by_grade_id = {f"{name}_solution": name for name in self.tasks}
        return {by_grade_id[cell.metadata["nbgrader"]["grade_id"]]: cell.source for cell in self.notebook.cells
                if cell.cell_type == "code" and cell.get("metadata", {}).get("nbgrader", {}).get("solution")
                and cell.metadata["nbgrader"].get("grade_id") in by_grade_id}

    @cached_property
    def tasks(self) -> dict[str, Task]:
        strangers = [type(task).__name__ for task in self.exercise.tasks if not isinstance(task, Task)]
        if strangers:
            raise ExerciseError(f"{self.path / 'tasks.py'}: EXERCISE.tasks holds {strangers[0]}, not a Task")
        return {task.name: task for task in self.exercise.tasks}

    def problems(self) -> list[str]:
        """Everything wrong with the folder's structure (empty when it can be graded)."""
        try:
            tasks, cells = self.tasks, self.grade_cells
        except ExerciseError as problem:
            return [str(problem)]
        found = []
        for name, task in tasks.items():
            if name not in cells:
                found.append(f"{self.notebook_path}: no locked test cell calls check({name!r}, {name}) "
                             "(mark it 'Autograder tests' with points in nbgrader)")
            if name not in self.solution_cells:
                found.append(f"{self.notebook_path}: no solution cell with grade_id {name}_solution "
                             "(mark the answer cell 'Autograded answer')")
            if not task.clauses:
                found.append(f"{self.path / 'tasks.py'}: task {name!r} has no clause cases (one per sentence of the statement)")
        for name in cells:
            if name not in tasks:
                found.append(f"{self.notebook_path}: a test cell checks {name!r}, which EXERCISE.tasks does not define")
        for name, said in self.points_in_prose():
            if name in cells and said != cells[name][1]:
                found.append(f"{self.notebook_path}: the statement says {name} is worth {said:g} points, its test cell "
                             f"{cells[name][1]:g} (the test cell's nbgrader points count: fix the prose)")
        return found

    def points_in_prose(self) -> list[tuple[str, float]]:
        """(function, points) for each markdown heading such as ``## 2. `f(x)` (3 points)``."""
        found = []
        for cell in self.notebook.cells:
            if cell.cell_type == "markdown":
                for match in re.finditer(r"`(\w+)\([^`]*\)`[^\n]*?\((\d+(?:\.\d+)?) points?\)", cell.source):
                    found.append((match.group(1), float(match.group(2))))
        return found

    def validate_structure(self) -> None:
        problems = self.problems()
        if problems:
            raise ExerciseError("; ".join(problems))  # one line, every problem

    @cached_property
    def misconceptions(self) -> dict[str, tuple[tuple[str, str, str], ...]]:
        """Function -> its known mistakes' (fingerprint, mistake, nudge), from misconceptions.json (written by
        ``tensorlab exercise misconceptions``); none when the file is absent."""
        path = self.path / MISCONCEPTIONS_FILE
        if not path.is_file():
            return {}
        try:
            rows = json.loads(path.read_text(encoding="utf-8"))["functions"]
            return {str(name): tuple((str(a), str(b), str(c)) for a, b, c in found) for name, found in rows.items()}
        except (ValueError, TypeError, AttributeError, KeyError) as error:
            raise ExerciseError(f"{path}: damaged ({error}); write it again with tensorlab exercise misconceptions") from None

    @cached_property
    def grading(self) -> Grading:
        """What the grader grades in this notebook: each task's rules (and known mistakes) with its test cell's points."""
        self.validate_structure()
        graded = tuple(Graded(replace(task.rules(), misconceptions=self.misconceptions.get(task.name, ())),
                              self.grade_cells[task.name][1], self.grade_cells[task.name][0])
                       for task in self.exercise.tasks)
        return Grading(self.exercise.notebook, graded, self.exercise.timeout, self.exercise.memory_mb, self.library)

    @cached_property
    def library(self) -> dict | None:
        """What ``import mytorch`` gives this exercise's graded code in the grader (and validate): the course's
        own solutions of the earlier units 01-12, cut from the exercise notebooks beside this one, so a
        student's broken earlier piece never costs a later grade. Only for an exercise whose tasks allow
        mytorch as a building block; instructor side only (student_library.py reads the notebooks)."""
        if not any(LIBRARY_NAME in task.building_blocks for task in self.exercise.tasks):
            return None
        return library_spec(self.path.parent, unit_number(self.name))

    def cases(self, seed: int | None) -> dict[str, list[Case]]:
        """Every graded function's cases under the course's secret ``seed``; ``None``: the public ones."""
        if seed is None:
            return {name: task.public_cases() for name, task in self.tasks.items()}
        return {name: task.graded_cases(seed) for name, task in self.tasks.items()}

    def public_document(self) -> dict:
        """The released ``tensorlab-cases.json``: rules, points and public cases as plain data."""
        return encode_document(self.grading, self.cases(None))

    def public_text(self) -> str:
        return json.dumps(self.public_document(), indent=None, separators=(",", ":")) + "\n"

    def mutants(self) -> list[Mutant]:
        return self._listed("mutants", "MUTANTS", Mutant)

    def alternatives(self) -> list[Alternative]:
        return self._listed("alternatives", "ALTERNATIVES", Alternative)

    def _listed(self, stem: str, variable: str, kind: type) -> list:
        path = self.path / f"{stem}.py"
        if not path.exists():
            return []
        items = getattr(load_module(path, module_name(self.path, stem)), variable, None)
        if not isinstance(items, list) or not all(isinstance(item, kind) for item in items):
            raise ExerciseError(f"{path}: must define {variable} = [{kind.__name__}(...), ...]")
        for item in items:
            if item.function not in self.tasks:
                raise ExerciseError(f"{path}: {kind.__name__} for {item.function!r}, which is not a task of this exercise")
        return items


def load_folder(path: Path) -> ExerciseFolder:
    """An exercise folder, its structure checked (a problem is an ExerciseError naming the file)."""
    if not path.is_dir():
        raise ExerciseError(f"{path}: no such exercise folder")
    folder = ExerciseFolder(path)
    folder.validate_structure()
    return folder


def exercise_folders(root: Path = REPO_EXERCISES) -> list[ExerciseFolder]:
    """Every exercise folder under ``root`` (a folder with a tasks.py), in order."""
    return [ExerciseFolder(tasks.parent) for tasks in sorted(root.glob("*/tasks.py"))]


def find_task(name: str, root: Path = REPO_EXERCISES) -> Task:
    """The task of the graded function ``name``, from whichever exercise defines it (tests, tools)."""
    for folder in exercise_folders(root):
        if name in folder.tasks:
            return folder.tasks[name]
    raise KeyError(f"no exercise under {root} defines a graded function called {name!r}")


def folder_of(notebook: str, root: Path = REPO_EXERCISES) -> ExerciseFolder:
    """The exercise folder under ``root`` whose notebook is called ``notebook`` (tests, tools)."""
    for folder in exercise_folders(root):
        if folder.exercise.notebook == notebook:
            return folder
    raise KeyError(f"no exercise under {root} has the notebook {notebook!r}")
