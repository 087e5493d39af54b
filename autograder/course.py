"""The course directory: its layout, its settings, and the nbgrader steps that tensorlab wraps.

    DIR/nbgrader_config.py           nbgrader's settings (course root, gradebook URL)
    DIR/tensorlab-course.json        the secret seed for random cases (keep it private)
    DIR/exercises/<assignment>/      each exercise folder as init copied it: tasks, mutants (never released)
    DIR/source/<assignment>/         nbgrader's source: the notebook and its public cases (tensorlab-cases.json)
    DIR/release/<assignment>/        what students get (``release``): the notebook without solutions, the cases
    DIR/submitted/<student>/<assignment>/<notebook>.ipynb   submissions (nbgrader's layout)
    DIR/autograded/<student>/<assignment>/tensorlab-results.json   per-function results
    DIR/feedback/<student>/<assignment>/<notebook>.html, DIR/grades.csv, DIR/reports/
"""

from __future__ import annotations

import importlib.util
import json
import os
import secrets
import shutil
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from tensorlab.grading.public_cases import CASES_FILE
from tensorlab.grading.verify import Grading

from .exercise import REPO_EXERCISES, ExerciseError, ExerciseFolder, exercise_folders

__all__ = ["Course", "init_course"]

SETTINGS = "tensorlab-course.json"
DEFAULT_COURSE_ID = "tensorlab"
RESULTS = "tensorlab-results.json"

CONFIG_TEMPLATE = '''\
"""nbgrader settings for this course, written by `tensorlab course init`."""
import os

c = get_config()  # noqa: F821 - nbgrader provides it
c.CourseDirectory.root = os.path.dirname(os.path.abspath(__file__))
c.CourseDirectory.course_id = {course_id!r}
c.CourseDirectory.db_url = {db_url!r}
c.ClearSolutions.code_stub = {{"python": "# YOUR CODE HERE\\nraise NotImplementedError()"}}
'''


@dataclass(frozen=True)
class Course:
    root: Path
    db_override: str | None = None

    @property
    def settings(self) -> dict:
        path = self.root / SETTINGS
        if not path.exists():
            raise FileNotFoundError(f"{self.root} is not a course directory: run `tensorlab course init {self.root}`")
        return json.loads(path.read_text())

    @property
    def db_url(self) -> str:
        return gradebook_url(self.db_override or self.settings["db_url"])

    @property
    def course_id(self) -> str:
        return str(self.settings.get("course_id", DEFAULT_COURSE_ID))

    def gradebook(self) -> Any:
        """nbgrader's Gradebook of this course: its rows belong to ``course_id`` (a server such as
        PostgreSQL enforces that the course row exists; SQLite never checked)."""
        from nbgrader.api import Gradebook

        put_scripts_on_path()
        return Gradebook(self.db_url, course_id=self.course_id)

    @property
    def secret_seed(self) -> int:
        return int(self.settings["secret_seed"])

    def assignments(self) -> list[str]:
        return sorted(path.parent.name for path in (self.root / "exercises").glob("*/tasks.py"))

    def folder(self, assignment: str) -> ExerciseFolder:
        """The exercise folder init copied into the course (its tasks grade the submissions)."""
        return course_folder(self.root.resolve() / "exercises" / assignment)

    def exercise(self, assignment: str) -> Grading:
        """What is graded in ``assignment``'s notebook, with its points."""
        return self.folder(assignment).grading

    def submission(self, student: str, assignment: str) -> Path:
        return self.root / "submitted" / student / assignment / f"{self.exercise(assignment).notebook}.ipynb"

    def results_path(self, student: str, assignment: str) -> Path:
        return self.root / "autograded" / student / assignment / RESULTS

    def submissions(self, assignments: list[str]) -> list[tuple[str, str]]:
        """(student, assignment) for every submitted notebook of ``assignments``, sorted."""
        found = []
        for assignment in assignments:
            notebook = f"{self.exercise(assignment).notebook}.ipynb"
            for path in sorted((self.root / "submitted").glob(f"*/{assignment}/{notebook}")):
                found.append((path.parent.parent.name, assignment))
        return found

    def nbgrader_config(self) -> object:
        from traitlets.config import Config

        put_scripts_on_path()
        config = Config()
        config.CourseDirectory.root = str(self.root.resolve())
        config.CourseDirectory.course_id = self.course_id
        config.CourseDirectory.db_url = self.db_url
        config.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
        return config


@cache
def course_folder(path: Path) -> ExerciseFolder:
    return ExerciseFolder(path)


def put_scripts_on_path() -> None:
    """nbgrader runs ``alembic`` when it creates a gradebook: find it next to this Python, even when
    ``.venv/bin/tensorlab`` is run without the virtual environment on PATH."""
    scripts = str(Path(sys.executable).parent)
    if scripts not in os.environ.get("PATH", "").split(os.pathsep):
        os.environ["PATH"] = scripts + os.pathsep + os.environ.get("PATH", "")


def gradebook_url(url: str) -> str:
    """The gradebook's SQLAlchemy URL, with a PostgreSQL driver that is installed.

    A bare ``postgresql://`` makes SQLAlchemy 2.1 pick psycopg 3; tensorlab's ``postgres`` extra
    installs psycopg2. Either driver works: name the one that is there, or say what to install.
    """
    if not url.startswith("postgresql://"):
        return url
    for module, driver in (("psycopg2", "psycopg2"), ("psycopg", "psycopg")):
        if importlib.util.find_spec(module) is not None:
            return f"postgresql+{driver}://" + url.removeprefix("postgresql://")
    raise SystemExit("a PostgreSQL gradebook needs a driver: pip install 'tensorlab[postgres]' (psycopg2) "
                     "or psycopg, then run the command again")


def init_course(root: Path, exercises: Path = REPO_EXERCISES, db_url: str | None = None,
                course_id: str = DEFAULT_COURSE_ID) -> Course:
    """Create the course directory with every exercise folder found in ``exercises``, and its gradebook.

    Every folder is checked first: a malformed one stops init with one line naming the file, before
    anything is written.
    """
    folders = exercise_folders(exercises)
    if not folders:
        raise ExerciseError(f"{exercises}: no exercise folders (folders with a tasks.py) in it")
    documents = {}
    for folder in folders:
        folder.validate_structure()
        documents[folder.name] = folder.public_text()
    root.mkdir(parents=True, exist_ok=True)
    db_url = gradebook_url(db_url or f"sqlite:///{(root / 'gradebook.db').resolve()}")
    settings = root / SETTINGS
    if not settings.exists():  # re-running init keeps the secret seed
        settings.write_text(json.dumps({"secret_seed": secrets.randbits(62), "db_url": db_url, "course_id": course_id},
                                       indent=2) + "\n")
    (root / "nbgrader_config.py").write_text(CONFIG_TEMPLATE.format(course_id=course_id, db_url=db_url))
    for folder in folders:
        copy = root / "exercises" / folder.name
        if copy.exists():
            shutil.rmtree(copy)
        shutil.copytree(folder.path, copy, ignore=shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints"))
        source = root / "source" / folder.name
        source.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(folder.notebook_path, source / folder.notebook_path.name)
        (source / CASES_FILE).write_text(documents[folder.name])
    course = Course(root)
    with course.gradebook():  # the tables and the course row, created now (a server refuses rows without it)
        pass
    return course


def release(course: Course, assignments: list[str]) -> None:
    """nbgrader's generate_assignment: release/ notebooks without solutions, and the gradebook entries."""
    from nbgrader.apps import NbGraderAPI

    known = course.assignments()
    unknown = [assignment for assignment in assignments if assignment not in known]
    if unknown:
        raise ExerciseError(f"{course.root}: no assignment {', '.join(unknown)}; the course has {', '.join(known)}")
    api = NbGraderAPI(config=course.nbgrader_config())
    for assignment in assignments or known:
        course.folder(assignment).validate_structure()
        outcome = api.generate_assignment(assignment, force=True)
        if not outcome["success"]:
            raise RuntimeError(f"nbgrader could not release {assignment}:\n{outcome['error']}\n{outcome['log']}")
        if not (course.root / "release" / assignment / CASES_FILE).exists():
            raise RuntimeError(f"nbgrader released {assignment} without its {CASES_FILE}: check CourseDirectory.ignore")
        check_grade_cells(course, assignment)


def check_grade_cells(course: Course, assignment: str) -> None:
    """Every graded function has its grade cell with its points in nbgrader's gradebook, and nothing else does."""
    exercise = course.exercise(assignment)
    with course.gradebook() as gradebook:
        notebook = gradebook.find_notebook(exercise.notebook, assignment)
        in_notebook = {cell.name: cell.max_score for cell in notebook.grade_cells}
    graded = {graded.grade_id: graded.points for graded in exercise.graded}
    if in_notebook != graded:
        raise ExerciseError(f"{assignment}: nbgrader's grade cells {in_notebook} are not the checked functions' {graded}")


def zip_collect(course: Course, archive: Path, assignment: str) -> list[str]:
    """Unpack an LMS download (files named ``<student>_<notebook>.ipynb``) into submitted/ with nbgrader."""
    from nbgrader.apps.zipcollectapp import ZipCollectApp

    notebook = course.exercise(assignment).notebook
    target = course.root / "downloaded" / assignment / "archive"
    target.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(archive, target / archive.name)
    config = course.nbgrader_config()
    config.ZipCollectApp.force = True
    config.FileNameCollectorPlugin.named_regexp = rf"(?:.*/)?(?P<student_id>[^/]+?)_(?P<file_id>{notebook}\.ipynb)$"
    app = ZipCollectApp(config=config)
    app.initialize([assignment])
    app.start()
    return sorted(path.parent.parent.name for path in (course.root / "submitted").glob(f"*/{assignment}/{notebook}.ipynb"))
