"""``tensorlab course publish DIR``: what an instructor hands to students, with no answer key in it.

    OUT/README.md           the two commands: set up, then open the course
    OUT/Makefile            ``make lab`` does both (where make exists)
    OUT/jupyter-config/     the student's JupyterLab settings: none of nbgrader (STUDENT_JUPYTER_CONFIG)
    OUT/requirements.txt    tensorlab from the wheel below; OUT/constraints.txt pins torch (and the rest)
    OUT/wheels/             tensorlab's wheel, built from a clean copy of the project's tracked files
    OUT/course/             the student tree: walkthroughs, released exercises, their public cases, the
                            student's mytorch/, and the solutions published after their deadline
                            (``tensorlab course publish-solutions``, solutions.py)

nbgrader comes with tensorlab, and its instructor menus (formgrader, course list, create assignment)
would show in the student's JupyterLab and fail there; a student off a hub needs none of nbgrader. The
launch command sets ``JUPYTER_CONFIG_PATH=jupyter-config``, whose settings outrank the environment's,
for that launch only.

The instructor's exercise folders (tasks, mutants, solutions) never enter it, and the result is
checked before it is written out: a file named like an answer key, or a solution marker in any
text, stops publishing. ``--zip`` also writes OUT.zip, for an LMS or a web page.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .course import Course
from .solutions import published_solutions
from .student_tree import REPO_ROOT, build_student_tree

__all__ = ["STUDENT_JUPYTER_CONFIG", "answer_keys_in", "build_wheel", "publish"]

# The settings of every student launch off a hub (``make lab`` here, the distribution's commands).
STUDENT_JUPYTER_CONFIG = Path("autograder", "student-jupyter-config")

README = """\
# {course_id}: the course

Two commands, in this folder (Python 3.10 or newer):

    python3 -m venv .venv && .venv/bin/pip install -c constraints.txt -r requirements.txt
    JUPYTER_CONFIG_PATH=jupyter-config .venv/bin/jupyter lab course

(On Windows, in PowerShell: `py -m venv .venv`, `.venv\\Scripts\\pip ...`, then
`$env:JUPYTER_CONFIG_PATH = "jupyter-config"; .venv\\Scripts\\jupyter lab course`.
Where `make` exists, `make lab` runs both.)

`JUPYTER_CONFIG_PATH=jupyter-config` switches off, for this launch only, the instructor's menus of
nbgrader (installed with tensorlab, not needed here: you hand in on your course's website).

In JupyterLab, open a walkthrough (`NN-topic.ipynb`), then its exercise in `exercises/`. Each
exercise's test cells run `check(...)`: the same rules and comparison as the grader, on the public
cases in `tensorlab-cases.json` beside the notebook (keep it there). The grader adds hidden cases.
From a terminal: `.venv/bin/tensorlab check course/exercises/NN-topic/NOTEBOOK.ipynb`.
"""

MAKEFILE = """\
# `make lab`: set up the environment once, then open the course in JupyterLab, with nbgrader's
# instructor menus switched off by jupyter-config/ (for this launch only). LAB_ARGS: more options.
LAB_ARGS ?=
lab: .venv/.installed
\tJUPYTER_CONFIG_PATH="$(CURDIR)/jupyter-config" .venv/bin/jupyter lab course $(LAB_ARGS)

.venv/.installed: requirements.txt constraints.txt
\ttest -x .venv/bin/python || python3 -m venv .venv
\t.venv/bin/pip install -c constraints.txt -r requirements.txt
\ttouch .venv/.installed
"""

ANSWER_KEY_FILES = ("tasks.py", "mutants.py", "alternatives.py", "tensorlab-course.json", "gradebook.db")
SOLUTION_MARKERS = ("### BEGIN SOLUTION", "### BEGIN HIDDEN TESTS", "BEGIN MARK SCHEME")


def tracked_copy(repo: Path, into: Path) -> Path:
    """The project's files as git tracks them (no stale build/ output, no local notes), in ``into``."""
    listed = subprocess.run(["git", "-C", str(repo), "ls-files", "-z"], capture_output=True, check=True).stdout
    for name in listed.decode().split("\0"):
        if name and (repo / name).is_file():
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(repo / name, into / name)
    return into


def build_wheel(repo: Path, out: Path) -> Path:
    """tensorlab's wheel, built from a clean copy of ``repo``'s tracked files."""
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="tensorlab-wheel-") as scratch:
        source = tracked_copy(repo, Path(scratch))
        subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                        str(source), "-w", str(out)], check=True)
    (wheel,) = sorted(out.glob("tensorlab-*.whl"))
    return wheel


def answer_keys_in(root: Path) -> list[str]:
    """Files under ``root`` that look like an answer key: an exercise's tasks or mutants, a course's
    secrets, or text holding a solution marker."""
    found = []
    for path in sorted(root.rglob("*")):
        if not path.is_file():
            continue
        if path.name in ANSWER_KEY_FILES:
            found.append(f"{path.relative_to(root)}: an instructor's file")
        elif path.suffix in (".ipynb", ".py", ".md", ".json", ".txt"):
            text = path.read_text(encoding="utf-8", errors="replace")
            found += [f"{path.relative_to(root)}: holds {marker!r}" for marker in SOLUTION_MARKERS if marker in text]
    return found


def pinned_constraints(repo: Path) -> str:
    """The project's own pins (torch's CPU build), then every installed distribution's version as it is here."""
    from importlib.metadata import distributions

    own_file = repo / "constraints.txt"
    own = [line.strip() for line in (own_file.read_text().splitlines() if own_file.exists() else []) if "==" in line
           and not line.lstrip().startswith("#")]
    pinned = {line.split("==")[0].strip().lower() for line in own}
    found: dict[str, str] = {}  # one version per name, from this environment's site-packages only (not the
    for dist in distributions(path=site_packages()):  # copies some packages vendor, which pip would see twice)
        name = dist.metadata["Name"]
        if name and name.lower() not in pinned | {"tensorlab"}:
            found.setdefault(name.lower(), f"{name}=={dist.version}")
    here = sorted(found.values(), key=str.lower)
    header = ("# The versions this course was tested with: `pip install -c constraints.txt -r requirements.txt`\n"
              "# installs these and nothing newer (torch pinned: an unpinned torch can pull a multi-GB GPU build).\n")
    return header + "\n".join(own + here) + "\n"


def site_packages() -> list[str]:
    import sysconfig

    return sorted({sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]})


def publish(course: Course, out: Path, make_zip: bool = False, repo: Path = REPO_ROOT) -> Path:
    """Write the student distribution of ``course`` to ``out`` (replacing it) and return ``out``."""
    if out.resolve().is_relative_to(course.root.resolve() / "exercises"):
        raise FileExistsError(f"{out}: not inside the course's exercises/")
    with tempfile.TemporaryDirectory(prefix="tensorlab-publish-") as scratch:
        staged = Path(scratch, out.name)
        build_student_tree(staged / "course", repo=repo, exercises=course.root / "exercises",
                           published=published_solutions(course.root))
        wheel = build_wheel(repo, staged / "wheels")
        (staged / "requirements.txt").write_text(f"./wheels/{wheel.name}\n")
        (staged / "constraints.txt").write_text(pinned_constraints(repo))
        (staged / "README.md").write_text(README.format(course_id=course.course_id))
        (staged / "Makefile").write_text(MAKEFILE)
        shutil.copytree(repo / STUDENT_JUPYTER_CONFIG, staged / "jupyter-config")
        leaks = answer_keys_in(staged / "course") + wheel_answer_keys(wheel)
        if leaks:
            raise RuntimeError("refusing to publish, answer keys found: " + "; ".join(leaks[:5]))
        if out.exists():
            shutil.rmtree(out)
        shutil.copytree(staged, out)
    if make_zip:
        shutil.make_archive(str(out), "zip", root_dir=out.parent, base_dir=out.name)
    return out


def wheel_answer_keys(wheel: Path) -> list[str]:
    """Answer-key files inside a wheel, or notebooks and data in it that hold a solution marker."""
    import zipfile

    found = []
    with zipfile.ZipFile(wheel) as archive:
        for name in archive.namelist():
            exercise_file = Path(name).name in ANSWER_KEY_FILES and not name.startswith("tensorlab/grading/")
            if exercise_file or name.startswith("exercises/"):  # (the engine's own tasks.py defines the types)
                found.append(f"{wheel.name}:{name}: an instructor's file")
            elif name.endswith((".ipynb", ".json")):  # (the engine's own .py files name the markers)
                text = archive.read(name).decode("utf-8", errors="replace")
                found += [f"{wheel.name}:{name}: holds {marker!r}" for marker in SOLUTION_MARKERS if marker in text]
    return found
