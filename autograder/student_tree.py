"""The student tree: what ``make lab`` serves, with no solution in it.

    DIR/NN-topic.ipynb                         the walkthroughs, copied from notebooks/
    DIR/exercises/NN-topic/<notebook>.ipynb    each exercise as nbgrader releases it: solutions
                                               replaced by a stub, hidden tests and outputs cleared,
                                               test cells locked
    DIR/exercises/NN-topic/tensorlab-cases.json  its public cases, as data, for check()
    DIR/exercises/NN-topic/solution/<notebook>.ipynb  its solution, only once the instructor published it
                                               (``tensorlab course publish-solutions``, after the deadline)
    DIR/mytorch/__init__.py                    the student's library: their own answers to units 01-12
                                               (``tensorlab.grading.student_library``)
    DIR/.student-tree.json                     what was generated, with the hash of each file

The instructor's ``exercises/`` (solutions, tasks, mutants) is never copied: the released notebook is
made here, in-process, with the preprocessors that ``nbgrader generate_assignment`` runs, and the
public cases are computed from the tasks and written as plain data.

The tree belongs to the student, so building it never destroys work. A plain run writes only the
files that are missing. ``refresh=True`` also rewrites the files that are still exactly as they were
generated (a new version of the course after ``git pull``); a file the student has changed, or one
the tree did not make, is kept as it is and reported. To get a fresh copy of such a notebook, rename
(or delete) yours and build again.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from tensorlab.grading.public_cases import CASES_FILE

__all__ = ["MYTORCH_PACKAGE", "REPO_ROOT", "TreeReport", "build_student_tree", "released_notebook", "solution_notebook"]

REPO_ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ".student-tree.json"
# nbgrader's stub for a cleared solution; `tensorlab course` configures the same one.
CODE_STUB = "# YOUR CODE HERE\nraise NotImplementedError()"
# the tree's mytorch/__init__.py: part of the tools (like released_notebook), not of a course's content
MYTORCH_PACKAGE = Path(__file__).resolve().parent / "student-mytorch" / "__init__.py"
SOLUTION_LINES = ("### BEGIN SOLUTION", "### END SOLUTION")


@dataclass
class TreeReport:
    """What one build did, path by path (relative to the tree)."""

    written: list[str] = field(default_factory=list)
    refreshed: list[str] = field(default_factory=list)
    present: list[str] = field(default_factory=list)  # already there, left as it is
    kept: list[str] = field(default_factory=list)  # refresh only: the student's version differs, left alone

    def summary(self) -> str:
        lines = [f"{len(self.written)} new, {len(self.refreshed)} refreshed, {len(self.present)} already there"]
        lines += [f"kept your version of {path} (rename or delete it to get a fresh copy)" for path in self.kept]
        return "\n".join(lines)


def released_notebook(source: Path) -> str:
    """The student version of an nbgrader source notebook, as nbgrader's generate_assignment makes it.

    The same preprocessors in the same order, less the three that need a course directory or a
    gradebook (IncludeHeaderFooter, InstantiateTests, SaveCells), which change nothing here.
    """
    import nbformat
    from nbgrader.preprocessors import (
        CheckCellMetadata,
        ClearHiddenTests,
        ClearMarkScheme,
        ClearOutput,
        ClearSolutions,
        ComputeChecksums,
        LockCells,
    )

    notebook = nbformat.read(str(source), as_version=nbformat.NO_CONVERT)
    steps = [
        LockCells(),
        ClearSolutions(code_stub={"python": CODE_STUB}),
        ClearOutput(),
        CheckCellMetadata(),
        ComputeChecksums(),
        ClearHiddenTests(),  # after the checksums, then checksummed again: nbgrader's order
        ClearMarkScheme(),
        ComputeChecksums(),
        CheckCellMetadata(),
    ]
    resources: dict = {}
    for step in steps:
        notebook, resources = step.preprocess(notebook, resources)
    return nbformat.writes(notebook) + "\n"


def solution_notebook(source: Path) -> str:
    """A unit's published solution: the source notebook with its answers kept, the solution markers' lines,
    hidden tests, mark schemes and outputs taken out (the locked test cells stay: they name the graded
    functions mytorch reads)."""
    import nbformat
    from nbgrader.preprocessors import ClearHiddenTests, ClearMarkScheme, ClearOutput

    notebook = nbformat.read(str(source), as_version=nbformat.NO_CONVERT)
    resources: dict = {}
    for step in (ClearHiddenTests(), ClearMarkScheme(), ClearOutput()):
        notebook, resources = step.preprocess(notebook, resources)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.source = "\n".join(line for line in cell.source.splitlines() if line.strip() not in SOLUTION_LINES)
    return nbformat.writes(notebook) + "\n"


def planned_files(repo: Path, exercises: Path | None = None, published: tuple[str, ...] = ()) -> dict[str, Path]:
    """Tree path -> source: every walkthrough, every exercise's notebook (to be released) and its public
    cases (made from its tasks.py), the solution of each ``published`` assignment, and mytorch."""
    from tensorlab.grading.student_library import SOLUTION_FOLDER

    from .exercise import exercise_folders

    plan = {path.name: path for path in sorted((repo / "notebooks").glob("*.ipynb"))}
    for folder in exercise_folders(exercises or repo / "exercises"):
        plan[f"exercises/{folder.name}/{folder.notebook_path.name}"] = folder.notebook_path
        plan[f"exercises/{folder.name}/{CASES_FILE}"] = folder.path / "tasks.py"
        if folder.name in published:
            plan[f"exercises/{folder.name}/{SOLUTION_FOLDER}/{folder.notebook_path.name}"] = folder.notebook_path
    plan["mytorch/__init__.py"] = MYTORCH_PACKAGE
    return plan


def contents_for(relative: str, source: Path) -> str:
    """What the tree holds at ``relative`` for ``source``: a walkthrough as it is, an exercise released (or,
    published, its solution), its cases as data."""
    from tensorlab.grading.student_library import SOLUTION_FOLDER

    from .exercise import ExerciseFolder

    if source.name == "tasks.py":
        return ExerciseFolder(source.parent).public_text()
    if Path(relative).parent.name == SOLUTION_FOLDER:
        return solution_notebook(source)
    if (source.parent / "tasks.py").exists():
        return released_notebook(source)
    return source.read_text(encoding="utf-8")


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def build_student_tree(target: Path, refresh: bool = False, repo: Path = REPO_ROOT,
                       exercises: Path | None = None, published: tuple[str, ...] = ()) -> TreeReport:
    """Create or complete the student tree in ``target`` from ``repo``'s notebooks/ and the exercise
    folders in ``exercises`` (default: ``repo``'s exercises/), with the solutions of the ``published``
    assignments."""
    if not (repo / "notebooks").is_dir():
        raise FileNotFoundError(f"no notebooks/ in {repo}: the student tree is built from a clone of the course repository")
    manifest_path = target / MANIFEST
    generated: dict[str, str] = json.loads(manifest_path.read_text())["files"] if manifest_path.exists() else {}
    report = TreeReport()
    for relative, source in planned_files(repo, exercises, published).items():
        path = target / relative
        if path.exists() and not refresh:
            report.present.append(relative)
            continue
        if path.exists() and generated.get(relative) != digest(path.read_bytes()):
            report.kept.append(relative)  # edited by the student, or not made by this tree
            continue
        data = contents_for(relative, source).encode("utf-8")  # only now: releasing imports nbgrader
        if path.exists() and path.read_bytes() == data:
            report.present.append(relative)
            continue
        (report.refreshed if path.exists() else report.written).append(relative)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        generated[relative] = digest(data)
    target.mkdir(parents=True, exist_ok=True)
    manifest_path.write_text(json.dumps({"files": generated}, indent=2, sort_keys=True) + "\n")
    return report
