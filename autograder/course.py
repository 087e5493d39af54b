"""The course directory: its layout, its settings, and the nbgrader steps that tensorlab wraps.

    DIR/nbgrader_config.py           nbgrader's settings (course root, gradebook URL)
    DIR/tensorlab-course.json        the secret seed for random cases (keep it private), the gradebook URL
    DIR/gradebook.db                 nbgrader's gradebook (SQLite, stored relative: it moves with the folder)
    DIR/roster.json, DIR/deadlines.json   the students and their LMS names; due dates, late policy, extensions
    DIR/exercises/<assignment>/      each exercise folder as init copied it: tasks, mutants (never released)
    DIR/source/<assignment>/         nbgrader's source: the notebook and its public cases (tensorlab-cases.json)
    DIR/release/<assignment>/        what students get (``release``): the notebook without solutions, the cases
    DIR/downloaded/<assignment>/     every LMS archive and every notebook collected, never cleared (collect.py)
    DIR/submitted/<student>/<assignment>/<notebook>.ipynb   the submission that counts (nbgrader's layout)
    DIR/autograded/<student>/<assignment>/tensorlab-results.json   per-function results
    DIR/feedback/<student>/<assignment>/<notebook>.html, DIR/grades.csv, DIR/reports/
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
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

__all__ = ["DEFAULT_DB_URL", "Course", "init_course", "resolve_db_url"]

SETTINGS = "tensorlab-course.json"
DEFAULT_COURSE_ID = "tensorlab"
RESULTS = "tensorlab-results.json"

DEFAULT_DB_URL = "sqlite:///gradebook.db"  # relative: the course folder's own gradebook, wherever the folder goes
SQLITE = re.compile(r"^(sqlite(?:\+\w+)?:///)(.*)$")

CONFIG_TEMPLATE = '''\
"""nbgrader settings for this course, written by `tensorlab course init` from tensorlab-course.json."""
import os

root = os.path.dirname(os.path.abspath(__file__))
c = get_config()  # noqa: F821 - nbgrader provides it
c.CourseDirectory.root = root
c.CourseDirectory.course_id = {course_id!r}
c.CourseDirectory.db_url = {db_url}
c.ClearSolutions.code_stub = {{"python": "# YOUR CODE HERE\\nraise NotImplementedError()"}}
'''


@dataclass(frozen=True)
class Course:
    root: Path
    db_override: str | None = None

    @property
    def settings(self) -> dict:
        return read_settings(self.root)

    @property
    def db_url(self) -> str:
        """The gradebook's URL: ``--db`` if given, else the stored one; a relative SQLite path is
        resolved against this folder now, so a copied or moved course uses its own gradebook."""
        if self.db_override:
            return gradebook_url(resolve_db_url(self.db_override, self.root))
        stored = str(self.settings["db_url"])
        refuse_a_foreign_gradebook(self.root, stored)
        return gradebook_url(resolve_db_url(stored, self.root))

    def db_url_under(self, root: str) -> str:
        """The gradebook's URL where the course folder lies at ``root`` on another machine (hub-config)."""
        return gradebook_url(resolve_db_url(self.db_override or str(self.settings["db_url"]), root))

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

    def require(self, assignments: list[str]) -> None:
        """Refuse, before anything is written, a folder that is not a course or an assignment it lacks
        (a typo would otherwise surface deep inside nbgrader, or as a missing tasks.py)."""
        self.settings  # noqa: B018 - reading them is the check that this is a course folder
        known = self.assignments()
        unknown = [assignment for assignment in assignments if assignment not in known]
        if unknown:
            raise ExerciseError(f"{self.root}: no assignment {', '.join(unknown)}; the course has "
                                f"{', '.join(known) or 'none (run `tensorlab course init` with --exercises)'}")

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


def read_settings(root: Path) -> dict:
    """``tensorlab-course.json``; a folder without it is not a course (one line saying how to make one)."""
    path = root / SETTINGS
    if not path.is_file():
        raise ExerciseError(f"{root} is not a course directory (no {SETTINGS}): run `tensorlab course init {root}`, "
                            "or give the course folder")
    try:
        settings = json.loads(path.read_text())
    except ValueError as error:
        raise ExerciseError(f"{path}: damaged ({error}); restore it from a backup (it holds the secret seed)") from None
    if not isinstance(settings, dict) or "db_url" not in settings or "secret_seed" not in settings:
        raise ExerciseError(f"{path}: damaged (no db_url or secret_seed); restore it from a backup")
    return settings


def sqlite_file(url: str) -> str | None:
    """The file of a SQLite URL as written (relative or absolute); None for other databases and ``:memory:``."""
    match = SQLITE.match(url)
    if match is None or match.group(2) in ("", ":memory:"):
        return None
    return match.group(2).split("?", 1)[0]


def resolve_db_url(url: str, root: Path | str) -> str:
    """``url`` with a relative SQLite path made absolute against the course folder ``root`` (SQLAlchemy
    would take it relative to wherever the command runs); any other URL as it is. A ``str`` root is
    where the folder lies on another machine (a hub), joined as it is."""
    match, file = SQLITE.match(url), sqlite_file(url)
    if match is None or file is None or os.path.isabs(file):
        return url
    where = str((root / file).resolve()) if isinstance(root, Path) else os.path.join(root, file)
    return match.group(1) + where + url[len(match.group(1)) + len(file):]


def refuse_a_foreign_gradebook(root: Path, stored: str) -> None:
    """A course made before gradebooks were relative stores an absolute SQLite path. Copied or moved,
    it would write into the original's gradebook while its own ``gradebook.db`` sits beside it: refuse
    (a silent write into another course's grades is worse than a stop), and say how to repair it."""
    file = sqlite_file(stored)
    own = root / "gradebook.db"
    if file is None or not os.path.isabs(file) or not own.exists():
        return
    if Path(file).resolve() == own.resolve() or Path(file).resolve().is_relative_to(root.resolve()):
        return
    raise ExerciseError(f"{root / SETTINGS} points at the gradebook {file}, outside this course, while {own} is here "
                        f"(a copied or moved course?): run `tensorlab course init {root} --exercises {root / 'exercises'} "
                        f"--db {DEFAULT_DB_URL} --force` to use its own, or pass --db to every command")


def same_db(first: str, second: str, root: Path) -> bool:
    """Do two spellings name one gradebook (relative or absolute SQLite path, with or without a driver)?"""
    def plain(url: str) -> str:
        return re.sub(r"^postgresql\+\w+://", "postgresql://", resolve_db_url(url, root))

    return plain(first) == plain(second)


def init_settings(root: Path, db_url: str | None, course_id: str | None, force: bool) -> dict:
    """The settings init writes. A new course: the given values or the defaults, and a new secret seed.
    A course that has settings keeps them (and its seed) for every option left out; a given value that
    differs is refused, old → new, unless ``force``: re-running init never changes a course silently."""
    if not (root / SETTINGS).exists():
        return {"secret_seed": secrets.randbits(62), "db_url": db_url or DEFAULT_DB_URL,
                "course_id": course_id or DEFAULT_COURSE_ID}
    settings = dict(read_settings(root))
    changes = []
    if db_url is not None and not same_db(settings["db_url"], db_url, root):
        changes.append(f"--db {settings['db_url']} → {db_url}")
        settings["db_url"] = db_url
    old_id = str(settings.get("course_id", DEFAULT_COURSE_ID))
    if course_id is not None and course_id != old_id:
        changes.append(f"--course-id {old_id} → {course_id}")
        settings["course_id"] = course_id
    if changes and not force:
        raise ExerciseError(f"{root} is a course already and init would change {'; '.join(changes)}: leave the "
                            "option out to keep it, or add --force to change it (grades stay in the old gradebook)")
    return settings


def config_text(settings: dict) -> str:
    """nbgrader_config.py from the stored settings: a relative SQLite gradebook is computed from the file's
    own folder, as the course root is, so the file stays right when the folder is copied or moved."""
    url = str(settings["db_url"])
    match, file = SQLITE.match(url), sqlite_file(url)
    if match is not None and file is not None and not os.path.isabs(file):
        expression = f"{match.group(1)!r} + os.path.join(root, {url[len(match.group(1)):]!r})"
    else:
        expression = repr(gradebook_url(url))
    return CONFIG_TEMPLATE.format(course_id=str(settings.get("course_id", DEFAULT_COURSE_ID)), db_url=expression)


def find_exercise_folders(exercises: Path) -> list[ExerciseFolder]:
    """The exercise folders in ``exercises``, or one line saying why there are none (a typo'd path, a
    file, an empty folder, or the folder one level too high or too low)."""
    what = "--exercises takes the folder that holds the exercise folders (each with a tasks.py)"
    if not exercises.exists():
        raise ExerciseError(f"{exercises}: no such folder, so no exercise folders: {what}")
    if not exercises.is_dir():
        raise ExerciseError(f"{exercises}: a file, not a folder of exercise folders: {what}")
    folders = exercise_folders(exercises)
    if folders:
        return folders
    if (exercises / "tasks.py").is_file():
        raise ExerciseError(f"{exercises}: no exercise folders in it, it is one: pass its parent, --exercises "
                            f"{exercises.parent}")
    deeper = sorted({tasks.parent.parent for tasks in exercises.glob("*/*/tasks.py")})
    hint = f"; they are one level deeper: pass --exercises {deeper[0]}" if deeper else f": {what}"
    raise ExerciseError(f"{exercises}: no exercise folders (folders with a tasks.py) in it{hint}")


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
    raise ExerciseError("a PostgreSQL gradebook needs a driver: pip install 'tensorlab[postgres]' (psycopg2) "
                     "or psycopg, then run the command again")


def init_course(root: Path, exercises: Path = REPO_EXERCISES, db_url: str | None = None,
                course_id: str | None = None, force: bool = False) -> Course:
    """Create the course directory with every exercise folder found in ``exercises``, and its gradebook.

    Everything is checked before anything is written: the exercises folder, every exercise folder (a
    malformed one is one line naming the file), and, on a course that exists, that the given --db and
    --course-id agree with its settings (``init_settings``). The default gradebook is ``gradebook.db``
    in the course folder, stored relative to it.
    """
    folders = find_exercise_folders(exercises)
    documents = {}
    for folder in folders:
        folder.validate_structure()
        documents[folder.name] = folder.public_text()
    settings = init_settings(root, db_url, course_id, force)
    refuse_a_foreign_gradebook(root, str(settings["db_url"]))
    root.mkdir(parents=True, exist_ok=True)
    text = json.dumps(settings, indent=2) + "\n"
    if not (root / SETTINGS).exists() or read_settings(root) != settings:  # unchanged settings: file untouched
        (root / SETTINGS).write_text(text)
    (root / "nbgrader_config.py").write_text(config_text(settings))
    for folder in folders:
        copy = root / "exercises" / folder.name
        if copy.resolve() != folder.path.resolve():  # re-init from the course's own exercises/ keeps them
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
    """nbgrader's generate_assignment: release/ notebooks without solutions, and the gradebook entries.

    Every assignment is checked before nbgrader writes anything: its exercise folder, and that the
    notebook nbgrader releases (source/) gives each test cell the points the exercise grades with."""
    from nbgrader.apps import NbGraderAPI

    course.require(assignments)
    chosen = assignments or course.assignments()
    for assignment in chosen:
        course.folder(assignment).validate_structure()
        check_source_points(course, assignment)
    api = NbGraderAPI(config=course.nbgrader_config())
    for assignment in chosen:
        outcome = api.generate_assignment(assignment, force=True)
        if not outcome["success"]:
            raise RuntimeError(f"nbgrader could not release {assignment}:\n{outcome['error']}\n{outcome['log']}")
        if not (course.root / "release" / assignment / CASES_FILE).exists():
            raise RuntimeError(f"nbgrader released {assignment} without its {CASES_FILE}: check CourseDirectory.ignore")
        check_grade_cells(course, assignment)


def check_source_points(course: Course, assignment: str) -> None:
    """source/'s notebook (what nbgrader releases and records) has the grade cells and points of the
    exercise folder's (what the grader scores): an edit to one alone would make the two disagree."""
    import nbformat

    exercise = course.exercise(assignment)
    path = course.root / "source" / assignment / f"{exercise.notebook}.ipynb"
    try:
        cells = nbformat.read(str(path), as_version=4).cells
    except (OSError, ValueError) as error:
        raise ExerciseError(f"{path}: not a notebook ({error}); run `tensorlab course init` again to copy it") from None
    in_source = {cell.metadata["nbgrader"].get("grade_id"): float(cell.metadata["nbgrader"].get("points", 0))
                 for cell in cells if cell.get("metadata", {}).get("nbgrader", {}).get("grade")}
    graded = {graded.grade_id: graded.points for graded in exercise.graded}
    differ = [f"{name} {in_source.get(name, 'none')} (grader: {graded.get(name, 'none')})"
              for name in sorted(set(in_source) | set(graded)) if in_source.get(name) != graded.get(name)]
    if differ:
        folder = course.root / "exercises"
        raise ExerciseError(f"{path}: its test cells' points disagree with the exercise's: {', '.join(differ)}; set "
                            f"them in {folder / assignment / path.name} and run `tensorlab course init {course.root} "
                            f"--exercises {folder}` (it copies that notebook to source/)")


def check_grade_cells(course: Course, assignment: str) -> None:
    """Every graded function has its grade cell with its points in nbgrader's gradebook, and nothing else does."""
    exercise = course.exercise(assignment)
    with course.gradebook() as gradebook:
        notebook = gradebook.find_notebook(exercise.notebook, assignment)
        in_notebook = {cell.name: cell.max_score for cell in notebook.grade_cells}
    graded = {graded.grade_id: graded.points for graded in exercise.graded}
    if in_notebook != graded:
        raise ExerciseError(f"{assignment}: nbgrader's grade cells {in_notebook} are not the checked functions' {graded}")

