"""``mytorch``: the student's own library, grown from their answers to the exercises of units 01-12.

Every graded function of those exercises (the names their locked test cells check) is a function of
``mytorch``, defined by the student's saved answer cells, cut out of the notebook by the grader's own
rule (``extract.program_of`` and the rules' ``closure``: the function and every helper it uses). Which
functions exist is read from the exercises themselves, so a new graded function appears on its own.

For each function, in this order:

1. the student's own piece, when the saved notebook defines it and it is more than nbgrader's stub
   (a body that only raises NotImplementedError);
2. else the published solution (``NN-topic/solution/<notebook>.ipynb``, which ``tensorlab course
   publish-solutions`` adds after the deadline);
3. else a stub that raises NotImplementedError naming the notebook to finish.

The exercises are found from where the code runs: the folder that holds the ``NN-topic`` exercise
folders (the student tree's ``exercises/``, or a hub's home) at or above the starting folder, or in
its ``exercises/``. ``import mytorch`` works from any notebook once ``tensorlab.grading`` is imported
(every exercise's setup cell does): ``install_finder`` answers that one name. The student tree also
holds a ``mytorch/`` package, found as usual from the tree's top folder.

``check()`` hands the same description to the sandbox (``library_module.py`` builds the module there),
leaving out the exercise's own functions and later ones, so a learner cannot import the answer they are
asked to write. The grader hands a description of the course's solutions instead
(``ExerciseFolder.library`` in autograder/exercise.py): a broken earlier piece never fails a later grade.
"""

from __future__ import annotations

import ast
import importlib.abc
import importlib.machinery
import json
import re
import sys
import types
from pathlib import Path

from .extract import Program, checked_names, is_locked_test_cell, notebook_program
from .library_module import NAME, fill
from .rules import closure

__all__ = ["LIBRARY_UNITS", "SOLUTION_FOLDER", "describe", "exercises_folder", "install_finder", "library_spec",
           "load", "unit_number", "uses_library"]

LIBRARY_UNITS = range(1, 13)  # the units whose graded functions make up mytorch
SOLUTION_FOLDER = "solution"  # NN-topic/solution/<notebook>.ipynb: a unit's published solution
UNIT_FOLDER = re.compile(r"^(\d+)-[\w.-]+$")


def unit_number(folder_name: str) -> int | None:
    """The unit of an exercise folder (``05-reductions`` -> 5), None for any other name."""
    found = UNIT_FOLDER.match(folder_name)
    return int(found.group(1)) if found else None


def holds_exercises(folder: Path) -> bool:
    try:
        return folder.is_dir() and any(unit_number(child.name) is not None and child.is_dir() for child in folder.iterdir())
    except OSError:  # a folder this user may not list
        return False


def exercises_folder(start: Path) -> Path | None:
    """The folder holding the ``NN-topic`` exercise folders: ``start``, an ancestor, or one's ``exercises/``."""
    for folder in (start.resolve(), *start.resolve().parents):
        for candidate in (folder / "exercises", folder):
            if holds_exercises(candidate):
                return candidate
    return None


def notebook_of(folder: Path) -> Path | None:
    """The exercise's notebook: the one its released cases name, else the only notebook in the folder."""
    from .public_cases import CASES_FILE  # (that module imports the sandbox's side, which imports this one)

    cases = folder / CASES_FILE
    if cases.is_file():
        try:
            named = folder / f"{json.loads(cases.read_text(encoding='utf-8'))['notebook']}.ipynb"
            return named if named.is_file() else None
        except (ValueError, KeyError, TypeError):
            return None
    notebooks = sorted(folder.glob("*.ipynb"))
    return notebooks[0] if len(notebooks) == 1 else None


def read_notebook(path: Path) -> tuple[list[str], Program] | None:
    """The graded function names (its locked test cells) and the definitions of a saved notebook."""
    import nbformat

    try:
        notebook = nbformat.read(str(path), as_version=4)
    except Exception:  # a damaged notebook gives nothing: its functions are then unwritten
        return None
    names = [name for cell in notebook.cells if cell.cell_type == "code" and is_locked_test_cell(cell)
             for name in checked_names(cell.source)]
    return names, notebook_program(notebook)


def is_stub(statement: ast.stmt) -> bool:
    """nbgrader's stub: a function whose body (after its docstring) only raises NotImplementedError."""
    if not isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    body = statement.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    if len(body) != 1 or not isinstance(body[0], ast.Raise) or body[0].exc is None:
        return False
    raised = body[0].exc.func if isinstance(body[0].exc, ast.Call) else body[0].exc
    return isinstance(raised, ast.Name) and raised.id == "NotImplementedError"


def is_written(program: Program, name: str) -> bool:
    """Does the program define ``name`` as more than the stub (its last definition counts, as in a kernel)?"""
    definitions = [statement for statement in program.statements if getattr(statement, "name", None) == name
                   or (isinstance(statement, (ast.Assign, ast.AnnAssign)) and name in {
                       target.id for target in (statement.targets if isinstance(statement, ast.Assign)
                                                else [statement.target]) if isinstance(target, ast.Name)})]
    return bool(definitions) and not is_stub(definitions[-1])


def part(program: Program, functions: list[str], origin: str) -> dict:
    """One notebook's share of the library: the statements ``functions`` need, in notebook order."""
    used = {id(statement) for name in functions for statement in closure(program.statements, name)}
    return {"origin": origin, "functions": functions,
            "statements": [source for statement, source in zip(program.statements, program.sources, strict=True)
                           if id(statement) in used]}


def library_spec(exercises: Path | None, before: int | None = None) -> dict:
    """The description (``library_module.py``) of mytorch made from the exercise folders in ``exercises``:
    units 01-12, only those before unit ``before`` when given (the others' names are withheld)."""
    description: dict = {"parts": [], "unwritten": {}, "withheld": {}}
    if exercises is None:
        return description
    folders = sorted((unit_number(folder.name), folder.name, folder) for folder in exercises.iterdir()
                     if folder.is_dir() and unit_number(folder.name) in LIBRARY_UNITS)
    for unit, _, folder in folders:
        notebook = notebook_of(folder)
        read = read_notebook(notebook) if notebook else None
        if notebook is None or read is None:
            continue
        names, program = read
        where = f"{folder.name}/{notebook.name}"
        if before is not None and unit is not None and unit >= before:
            description["withheld"].update({name: (
                f"{name} is a task of {folder.name}: mytorch gives only the pieces of earlier units, so write it "
                "here") for name in names})
            continue
        own = [name for name in names if is_written(program, name)]
        if own:
            description["parts"].append(part(program, own, where))
        rest = [name for name in names if name not in own]
        solution = folder / SOLUTION_FOLDER / notebook.name
        published = read_notebook(solution) if rest and solution.is_file() else None
        if published is not None:
            from_solution = [name for name in rest if is_written(published[1], name)]
            if from_solution:
                description["parts"].append(part(published[1], from_solution, f"{folder.name}/{SOLUTION_FOLDER}/"
                                                 f"{notebook.name} (the published solution)"))
            rest = [name for name in rest if name not in from_solution]
        description["unwritten"].update({name: (
            f"mytorch.{name} is not written yet: finish {name} in {where} and save the notebook") for name in rest})
    return description


def describe(start: Path, before: int | None = None) -> dict:
    """The library as the exercises found from ``start`` (a folder) make it."""
    return library_spec(exercises_folder(start), before)


def uses_library(program: Program) -> bool:
    """Does the learner's code import mytorch (only then does the sandbox need it)?"""
    for statement in program.statements:
        if isinstance(statement, ast.ImportFrom) and (statement.module or "").split(".")[0] == NAME:
            return True
        if isinstance(statement, ast.Import) and any(alias.name.split(".")[0] == NAME for alias in statement.names):
            return True
    return False


def load(module: types.ModuleType, start: Path) -> types.ModuleType:
    """Fill ``module`` (``mytorch``) from the exercises found from ``start``; every unit 01-12 is there."""
    fill(module, describe(start))
    return module


class StudentLibraryFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Answers ``import mytorch`` where no ``mytorch/`` package is on the path: the library is built from
    the exercises found from the working folder (a notebook's kernel starts in the notebook's folder)."""

    def find_spec(self, name: str, path: object = None, target: object = None) -> importlib.machinery.ModuleSpec | None:
        return importlib.machinery.ModuleSpec(name, self) if name == NAME else None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None  # the default module

    def exec_module(self, module: types.ModuleType) -> None:
        load(module, Path.cwd())


def install_finder() -> None:
    """Make ``import mytorch`` work from any notebook (last on ``sys.meta_path``: a real package comes first)."""
    if not any(isinstance(finder, StudentLibraryFinder) for finder in sys.meta_path):
        sys.meta_path.append(StudentLibraryFinder())
