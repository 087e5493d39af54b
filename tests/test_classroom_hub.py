"""A semester in two minutes, on a real JupyterHub: the instructor releases exercise 04 through
the formgrader of their own server, two students fetch it, answer it (one right, one with a
syntax error) and submit it through theirs, the instructor collects, and `tensorlab course
autograde` + `export` grade it into a PostgreSQL gradebook. Nothing is mocked: the hub
(configurable-http-proxy, shared-password authenticator, local process spawner), the Unix users,
their servers, nbgrader's exchange and the database are the real ones, on 127.0.0.1.

Every step goes over HTTP through the hub's proxy, as a browser's would: the servers are started
with the hub's REST API and a service token, and each person acts with a token of their own on
their own server (the student's assignment list and the formgrader are the REST endpoints that
JupyterLab's nbgrader panels call). Only grading runs as commands, as the instructor, because
that is how tensorlab grades. Skipped where the machine cannot host it (not root, no
configurable-http-proxy, no PostgreSQL server): `make test` installs both.
"""

from __future__ import annotations

import copy
import csv
import os
import pwd
import secrets
import shutil
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
import pytest

from autograder.course import gradebook_url
from tests.classroom_hub import (
    Hub,
    User,
    api,
    copy_of_the_code,
    jupyterhub,
    missing_prerequisite,
    single_user_environment,
    unix_users,
    world_readable_folder,
)
from tests.fake_students import FULL, STUDENTS, FakeStudent
from tests.postgres_server import postgres_server, server_binaries

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]  # the first run also builds the environment

COURSE, ASSIGNMENT, NOTEBOOK = "tensorlab", "04-broadcasting", "broadcasting"
RIGHT = STUDENTS[0]  # perfect
WRONG = next(student for student in STUDENTS if student.name == "syntax_error")


def exchange_settings(folder: Path) -> Path:
    """The hub-wide nbgrader settings (every server and command reads JUPYTER_CONFIG_PATH): one
    exchange, writable by everyone, with the course id in its paths so courses never collide."""
    exchange, settings = folder / "exchange", folder / "jupyter-config"
    exchange.mkdir()
    exchange.chmod(0o1777)  # sticky: nobody removes another's files
    settings.mkdir()
    (settings / "nbgrader_config.py").write_text(
        f"c = get_config()  # noqa: F821\nc.Exchange.root = {str(exchange)!r}\nc.Exchange.path_includes_course = True\n")
    settings.chmod(0o755)
    return settings


def instructor_settings(instructor: User, db_url: str) -> None:
    """The instructor's own nbgrader settings, written before their server starts: its formgrader
    reads them once, at start-up. The gradebook URL names its driver (psycopg2, installed in the
    environment); a bare postgresql:// would make SQLAlchemy look for psycopg 3."""
    jupyter = instructor.home / ".jupyter"
    jupyter.mkdir()
    (jupyter / "nbgrader_config.py").write_text(
        "c = get_config()  # noqa: F821\n"
        f"c.CourseDirectory.root = {str(instructor.home / 'course')!r}\n"
        f"c.CourseDirectory.course_id = {COURSE!r}\nc.CourseDirectory.db_url = {gradebook_url(db_url)!r}\n")
    for path in (jupyter, jupyter / "nbgrader_config.py"):
        shutil.chown(path, instructor.name, instructor.name)


def answered(released: dict, solution: Path, student: FakeStudent) -> dict:
    """The fetched notebook as ``student`` leaves it: every answer cell filled in from the
    solution, then the student's own changes."""
    answers = {cell.metadata.get("nbgrader", {}).get("grade_id"): cell.source
               for cell in nbformat.read(str(solution), as_version=4).cells
               if cell.metadata.get("nbgrader", {}).get("solution")}
    notebook = copy.deepcopy(released)
    kept = []
    for cell in notebook["cells"]:
        grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        if grade_id in answers:
            cell["source"] = answers[grade_id]
        if grade_id in student.cells:
            if student.cells[grade_id] is None:
                continue
            cell["source"] = student.cells[grade_id]
        kept.append(cell)
    notebook["cells"] = kept
    return notebook


def on_server(hub: Hub, user: str, token: str, path: str, method: str = "GET", body: dict | None = None,
              form: dict[str, str] | None = None) -> object:
    status, answer = api(f"{hub.url}/user/{user}/{path}", token, method, body, form)
    assert status < 400, f"{method} /user/{user}/{path}: {status} {answer}\n{hub.log_tail()}"
    return answer


def test_a_course_on_a_real_jupyterhub() -> None:
    reason = missing_prerequisite()
    if reason is None and server_binaries() is None:
        reason = "PostgreSQL server binaries are not installed (Debian: apt-get install postgresql)"
    if reason:
        pytest.skip(reason)
    environment = single_user_environment()
    suffix = secrets.token_hex(3)
    names = [f"tl-teacher-{suffix}", f"tl-right-{suffix}", f"tl-wrong-{suffix}"]
    with world_readable_folder() as folder, postgres_server(server_binaries()) as db_url, \
            unix_users(names) as (instructor, right, wrong):  # type: ignore[misc]
        settings = exchange_settings(folder)
        commands = {"PATH": f"{environment / 'bin'}:/usr/bin:/bin", "PYTHONPATH": str(copy_of_the_code(folder)),
                    "JUPYTER_CONFIG_PATH": str(settings)}
        course = instructor.home / "course"

        def as_instructor(*arguments: str) -> str:
            done = instructor.run([str(environment / "bin" / "python"), "-m", "autograder.cli", "course", *arguments],
                                  commands)
            assert done.returncode == 0, done.stdout + done.stderr
            return done.stdout

        def build_course() -> None:
            as_instructor("init", str(course), "--db", db_url)
            as_instructor("release", str(course), ASSIGNMENT)

        instructor_settings(instructor, db_url)
        with ThreadPoolExecutor(max_workers=1) as background, \
                jupyterhub(environment, folder, names, {"JUPYTER_CONFIG_PATH": str(settings)}) as hub:
            course_built = background.submit(build_course)  # while the servers start: a minute saved
            hub.start_servers(names)
            tokens = {user: hub.user_token(user) for user in names}
            course_built.result()

            # The instructor releases the assignment into the exchange with the formgrader.
            released = on_server(hub, instructor.name, tokens[instructor.name],
                                 f"formgrader/api/assignment/{ASSIGNMENT}/release", "POST")
            assert released["success"], released  # type: ignore[index]

            # Each student lists, fetches, answers and submits it with their own server.
            for student, fake in ((right, RIGHT), (wrong, WRONG)):
                token = tokens[student.name]
                listed = on_server(hub, student.name, token, f"assignments?course_id={COURSE}")
                assert [(a["assignment_id"], a["status"]) for a in listed["value"]] == [(ASSIGNMENT, "released")]  # type: ignore[index]
                on_server(hub, student.name, token, "assignments/fetch", "POST",
                          form={"course_id": COURSE, "assignment_id": ASSIGNMENT})
                path = f"api/contents/{COURSE}/{ASSIGNMENT}/{NOTEBOOK}.ipynb"
                fetched = on_server(hub, student.name, token, f"{path}?content=1")
                notebook = answered(fetched["content"], course / "source" / ASSIGNMENT / f"{NOTEBOOK}.ipynb", fake)  # type: ignore[index]
                on_server(hub, student.name, token, path, "PUT", {"type": "notebook", "format": "json", "content": notebook})
                on_server(hub, student.name, token, "assignments/submit", "POST",
                          form={"course_id": COURSE, "assignment_id": ASSIGNMENT})

            # A student's token opens no other server; the files of others stay closed too.
            assert api(f"{hub.url}/user/{wrong.name}/api/contents", tokens[right.name])[0] == 403
            assert api(f"{hub.url}/user/{instructor.name}/formgrader/api/assignments", tokens[right.name])[0] == 403
            for forbidden in (wrong.home / COURSE / ASSIGNMENT / f"{NOTEBOOK}.ipynb",
                              course / "source" / ASSIGNMENT / f"{NOTEBOOK}.ipynb"):
                peek = right.run(["cat", str(forbidden)], commands)
                assert peek.returncode != 0 and "Permission denied" in peek.stderr, (forbidden, peek)
            peek = right.run(["ls", str(folder / "exchange" / COURSE / "inbound")], commands)
            assert peek.returncode != 0 and "Permission denied" in peek.stderr, peek  # others' submissions

            collected = on_server(hub, instructor.name, tokens[instructor.name],
                                  f"formgrader/api/assignment/{ASSIGNMENT}/collect", "POST")
            assert collected["success"], collected  # type: ignore[index]

        assert sorted(p.parent.parent.name for p in (course / "submitted").glob(f"*/{ASSIGNMENT}/{NOTEBOOK}.ipynb")) \
            == sorted([right.name, wrong.name])
        assert "graded 2 submissions" in as_instructor("autograde", str(course), "--timeout", "10")
        as_instructor("export", str(course), "--to", str(course / "grades.csv"))
        rows = list(csv.DictReader((course / "grades.csv").open()))
        scores = {row["student_id"]: float(row["score"]) for row in rows if row["assignment"] == ASSIGNMENT}
        assert scores == {right.name: float(sum(FULL.values())), wrong.name: float(sum(WRONG.expected.values()))}


def test_the_created_users_go_even_when_a_test_fails() -> None:
    """A failure halfway leaves no user, home or process behind (they would outlive the test run)."""
    if os.geteuid() != 0 or shutil.which("useradd") is None:
        pytest.skip("creates Unix users: needs root and useradd")
    name = f"tl-gone-{secrets.token_hex(3)}"
    with pytest.raises(RuntimeError, match="halfway"), unix_users([name]) as (user,):
        home = user.home
        lingering = subprocess.Popen(["runuser", "-u", name, "--", "sleep", "600"])
        while subprocess.run(["pgrep", "-U", name, "sleep"], capture_output=True).returncode != 0:
            time.sleep(0.05)  # running as the user
        assert home.stat().st_mode & 0o777 == 0o700
        raise RuntimeError("a test failing halfway")
    assert lingering.wait(timeout=10) != 0  # killed
    with pytest.raises(KeyError):
        pwd.getpwnam(name)
    assert not home.exists()
