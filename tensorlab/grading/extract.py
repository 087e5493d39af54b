"""Read a submitted notebook into the definitions the grader may run, without running anything.

Only definitions travel to the sandbox: imports, ``def`` and ``class`` statements, and
assignments to plain names, in notebook order, each as its own statement so that one broken
line costs only what depends on it. Calls at the top level (prints, checks, experiments) are
dropped, and so are the locked test cells and the setup cell's ``from tensorlab.grading import
check``: what is graded is the functions, not what the notebook did with them. A cell that does
not parse is skipped and reported.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

__all__ = ["Program", "checked_names", "notebook_program", "program_of", "read_program"]

KEPT = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Assign, ast.AnnAssign)


@dataclass
class Program:
    """The learner's definitions: parsed statements, their sources, and the cells that did not parse."""

    statements: list[ast.stmt] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    broken_cells: list[str] = field(default_factory=list)


def is_locked_test_cell(cell: nbformat.NotebookNode) -> bool:
    grading = cell.get("metadata", {}).get("nbgrader", {})
    return bool(grading.get("grade")) and not grading.get("solution")


def is_check_import(statement: ast.stmt) -> bool:
    """The setup cell's ``from tensorlab.grading import check``: the notebook's, not the learner's.

    Only this exact import is dropped; any other import of tensorlab (the library the exercises
    reimplement, the grading engine included) stays, so the rules refuse it with a clear message.
    """
    return (isinstance(statement, ast.ImportFrom) and statement.module == "tensorlab.grading"
            and all(alias.name == "check" and alias.asname is None for alias in statement.names))


def is_kept(statement: ast.stmt) -> bool:
    if not isinstance(statement, KEPT):
        return False
    if is_check_import(statement):
        return False
    if isinstance(statement, (ast.Assign, ast.AnnAssign)):
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        return all(isinstance(target, ast.Name) for target in targets)
    return True


def python_source(cell_source: str) -> str:
    """The cell as plain Python: IPython magics and shell escapes become ordinary calls."""
    from IPython.core.inputtransformer2 import TransformerManager

    return TransformerManager().transform_cell(cell_source)


def read_program(path: Path) -> Program:
    """The definitions of a saved notebook's code cells, the locked test cells left out."""
    return notebook_program(nbformat.read(str(path), as_version=4))


def notebook_program(notebook: nbformat.NotebookNode) -> Program:
    """The definitions of a notebook's code cells, the locked test cells left out."""
    return program_of({number: cell.source for number, cell in enumerate(notebook.cells, start=1)
                       if cell.cell_type == "code" and not is_locked_test_cell(cell)})


def checked_names(source: str) -> list[str]:
    """The names of ``check("name", ...)`` calls in a cell: a locked test cell names the function it grades."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    return [node.args[0].value for node in ast.walk(tree)
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "check" and node.args
            and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)]


def program_of(cells: dict[int, str]) -> Program:
    """The definitions of code cells (numbered as the learner sees them), in order."""
    program = Program()
    for number, source in cells.items():
        try:
            tree = ast.parse(python_source(source))
        except (SyntaxError, ValueError) as error:
            program.broken_cells.append(f"cell {number}: {type(error).__name__}: {error}")
            continue
        for statement in tree.body:
            if is_kept(statement):
                program.statements.append(statement)
                program.sources.append(ast.unparse(statement))
    return program
