"""The student's JupyterLab: Run All runs every check cell, and no launch shows nbgrader's instructor menus.

``check()`` prints its verdict and returns it, never raises it (the grade is computed outside the kernel),
so a released notebook with blank and wrong answers runs top to bottom in a real kernel. Each student
launch is started for real, the way a student starts it (``make lab`` of the repository, the published
course's ``make lab`` and README command, the hub image's settings), on a free loopback port, and asked
what it serves: the page config embedded in ``/lab`` and nbgrader's endpoints. The servers always stop.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shlex
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import nbformat
import pytest
from nbgrader.utils import determine_grade

from autograder.distribution import MAKEFILE, README, STUDENT_JUPYTER_CONFIG
from autograder.student_tree import released_notebook
from tensorlab.grading import check
from tensorlab.grading.check import Verdict
from tests.browser.harness import _free_port, _wait_until_up, stop_process_group
from tests.test_deploy import extension_switches, runs
from tests.test_exercise_notebooks_execute import errors, execute, is_test_cell, printed

REPO_ROOT = Path(__file__).resolve().parent.parent
BROADCASTING = REPO_ROOT / "exercises" / "04-broadcasting" / "broadcasting.ipynb"
NBGRADER_SERVER = ("formgrader", "course_list", "assignment_list", "validate_assignment")
INSTRUCTOR_ENDPOINTS = ("formgrader", "formgraders")  # the formgrader, the course list


# --- check(): a verdict, printed, never raised ---

def test_check_returns_a_quiet_verdict_for_the_notebooks_own_mistakes(capsys: pytest.CaptureFixture[str]) -> None:
    unknown = check("no_such_function", len)
    not_a_function = check("broadcast_shape", (2, 3))  # type: ignore[arg-type]
    assert not unknown and "no graded function called 'no_such_function'" in unknown.message
    assert not not_a_function and "expected a function, got tuple" in not_a_function.message
    assert capsys.readouterr().err.splitlines() == [unknown.message, not_a_function.message]
    assert unknown._ipython_display_() is None  # as a cell's last value: no Out[] repeating what was printed
    assert Verdict(True, "✓") and not Verdict(False, "✗")


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_run_all_on_a_released_notebook_runs_every_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One answer right, one wrong, one blank: three verdicts, no error (nbclient stops at the first, as Run All
    does), the cell after the last check runs, and nbgrader's Validate still counts the failing checks."""
    notebook = nbformat.reads(released_notebook(BROADCASTING), as_version=4)
    solution = {cell.metadata.nbgrader.grade_id: cell.source for cell in nbformat.read(BROADCASTING, as_version=4).cells
                if cell.metadata.get("nbgrader", {}).get("solution")}
    answers = {"broadcast_shape_solution": solution["broadcast_shape_solution"],
               "broadcast_add_solution": "def broadcast_add(a, b):\n    return a"}
    for cell in notebook.cells:
        cell.source = answers.get(cell.metadata.get("nbgrader", {}).get("grade_id"), cell.source)
    notebook.cells.append(nbformat.v4.new_code_cell('print("reached the last cell")'))
    cells = execute(notebook, BROADCASTING, tmp_path, monkeypatch, allow_errors=False)
    assert not [errors(cell) for cell in cells if errors(cell)]
    verdicts = {cell.source: (printed(cell), printed(cell, "stderr")) for cell in cells if is_test_cell(cell)}
    assert verdicts['check("broadcast_shape", broadcast_shape)'][0].startswith("✓ broadcast_shape: all ")
    wrong = verdicts['check("broadcast_add", broadcast_add)'][1]
    assert wrong.startswith("✗ broadcast_add: ") and "call:" in wrong and "Traceback" not in wrong
    assert "not written yet (it raises NotImplementedError)" in verdicts['check("expand_to", expand_to)'][1]
    assert not [output for cell in cells if is_test_cell(cell) for output in cell.outputs
                if output.output_type == "execute_result"], "a verdict echoed as Out[]"
    assert printed(cells[-1]) == "reached the last cell\n"
    grades = {cell.source: determine_grade(cell) for cell in cells if is_test_cell(cell)}  # Validate's rule
    assert [scored == 0 for scored, _ in grades.values()] == [False, True, True], grades


# --- the launches: no instructor menus for students ---

@contextmanager
def lab(command: str, cwd: Path, port: int, token: str) -> Iterator[str]:
    """``command`` (a shell line that starts JupyterLab on ``port`` with ``token``) run in ``cwd`` with its own
    Jupyter state; yield the base URL. Stopped at the end, with every process it started."""
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(cwd / ".jupyter"), "JUPYTER_RUNTIME_DIR": str(cwd / ".runtime"),
           "JUPYTERLAB_WORKSPACES_DIR": str(cwd / ".workspaces"), "JUPYTERLAB_SETTINGS_DIR": str(cwd / ".settings"),
           "IPYTHONDIR": str(cwd / ".ipython")}
    env.pop("JUPYTER_CONFIG_PATH", None)
    log = (cwd / f"lab-{port}.log").open("w")
    server = subprocess.Popen(["bash", "-c", command], cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT,
                              start_new_session=True)
    try:
        _wait_until_up(f"http://127.0.0.1:{port}/api/status?token={token}", server)
        yield f"http://127.0.0.1:{port}"
    finally:
        stop_process_group(server)
        log.close()


def status(url: str, token: str) -> int:
    try:
        with urllib.request.urlopen(f"{url}?token={token}", timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def served(base: str, token: str) -> tuple[set[str], set[str]]:
    """What JupyterLab at ``base`` switched off (its page config's disabledExtensions), and which of nbgrader's
    endpoints it serves (anything but 404: some answer 500 with no course configured)."""
    with urllib.request.urlopen(f"{base}/lab?token={token}", timeout=30) as response:
        page = response.read().decode()
    config = json.loads(re.search(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', page,
                                  re.S).group(1))  # type: ignore[union-attr]
    disabled = config["disabledExtensions"]
    endpoints = {name for name in (*INSTRUCTOR_ENDPOINTS, "assignments", "assignments/validate")
                 if status(f"{base}/{name}", token) != 404}
    return set(disabled if isinstance(disabled, list) else [key for key, on in disabled.items() if on]), endpoints


def lab_options(port: int, token: str, address: bool = True) -> str:
    """JupyterLab's options for a test: this port and token, no browser, no news; ``address=False`` leaves out
    the IP and port, which the repository's ``make lab`` passes itself (each may be given once)."""
    where = f"--ServerApp.ip=127.0.0.1 --ServerApp.port={port} " if address else ""
    return (f"{where}--no-browser --allow-root --ServerApp.port_retries=0 --IdentityProvider.token={token} "
            "--LabApp.news_url= --LabServerApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate")


def published_course(root: Path) -> Path:
    """The launch files of ``tensorlab course publish`` (its README, Makefile and jupyter-config/) around a
    one-notebook course, with this environment as its .venv (no wheel to build: only the launch is tested)."""
    (root / "course").mkdir(parents=True)
    (root / "course" / "00-welcome.ipynb").write_text(nbformat.writes(nbformat.v4.new_notebook()))
    (root / "README.md").write_text(README.format(course_id="tl101"))
    (root / "Makefile").write_text(MAKEFILE)
    (root / "jupyter-config").symlink_to(REPO_ROOT / STUDENT_JUPYTER_CONFIG)
    (root / ".venv").symlink_to(Path(sys.prefix))
    return root


def readme_command(root: Path) -> str:
    (line,) = [line.strip() for line in (root / "README.md").read_text().splitlines()
               if line.startswith("    ") and "jupyter lab" in line]
    return line


LAUNCHES = {  # how a student starts JupyterLab: a folder and a shell line, given the port and token
    "repository make lab": lambda root, port, token: (
        root, f"make -C {shlex.quote(str(REPO_ROOT))} -o .venv/.installed lab STUDENT_DIR={shlex.quote(str(root / 'student'))} "
              f"LAB_IP=127.0.0.1 LAB_PORT={port} LAB_ARGS={shlex.quote(lab_options(port, token, address=False))}"),
    "published make lab": lambda root, port, token: (
        published_course(root), f"make -o .venv/.installed lab LAB_ARGS={shlex.quote(lab_options(port, token))}"),
    "published README": lambda root, port, token: (
        (course := published_course(root)), f"{readme_command(course)} {lab_options(port, token)}"),
}


@pytest.mark.slow
@pytest.mark.timeout(300)
@pytest.mark.parametrize("launch", LAUNCHES)
def test_a_student_launch_shows_nothing_of_nbgrader(launch: str, tmp_path: Path) -> None:
    port, token = _free_port(), secrets.token_hex(16)
    folder, command = LAUNCHES[launch](tmp_path, port, token)
    with lab(command, folder, port, token) as base:
        disabled, endpoints = served(base, token)
    assert "@jupyter/nbgrader" in disabled
    assert endpoints == set(), f"{launch} serves nbgrader's {endpoints}"


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_the_hub_image_keeps_the_assignments_list_and_an_instructors_lab_keeps_everything(tmp_path: Path) -> None:
    """The student image's switches (user.Dockerfile), applied as a config folder: the formgrader and the
    course list are gone, the Assignments list stays. A plain ``jupyter lab`` still has the formgrader."""
    switched_off = extension_switches(runs("user.Dockerfile"), "disable")
    plugins = sorted(name for name in switched_off if name.startswith("@jupyter/nbgrader:"))
    hub = tmp_path / "hub-config"
    (hub / "labconfig").mkdir(parents=True)
    (hub / "labconfig" / "page_config.json").write_text(json.dumps({"disabledExtensions": dict.fromkeys(plugins, True)}))
    server = {name: False for name in switched_off if name.startswith("nbgrader.")}
    (hub / "jupyter_server_config.json").write_text(json.dumps({"ServerApp": {"jpserver_extensions": server}}))
    jupyter = shlex.quote(str(Path(sys.prefix) / "bin" / "jupyter"))
    port, token = _free_port(), secrets.token_hex(16)
    with lab(f"JUPYTER_CONFIG_PATH={hub} {jupyter} lab {lab_options(port, token)}", tmp_path, port, token) as base:
        disabled, endpoints = served(base, token)
    assert set(plugins) <= disabled and "@jupyter/nbgrader" not in disabled
    assert "@jupyter/nbgrader:assignment-list" not in disabled and "@jupyter/nbgrader:menu" not in disabled
    assert endpoints == {"assignments", "assignments/validate"}
    port, token = _free_port(), secrets.token_hex(16)
    with lab(f"{jupyter} lab {lab_options(port, token)}", tmp_path, port, token) as base:
        disabled, endpoints = served(base, token)
    assert not {name for name in disabled if name.startswith("@jupyter/nbgrader")}
    assert set(INSTRUCTOR_ENDPOINTS) <= endpoints


def test_every_student_launch_names_the_student_settings() -> None:
    """Both Makefiles and the README point JUPYTER_CONFIG_PATH at the settings, which switch all of nbgrader off."""
    folder = REPO_ROOT / STUDENT_JUPYTER_CONFIG
    page = json.loads((folder / "labconfig" / "page_config.json").read_text())
    assert page == {"disabledExtensions": {"@jupyter/nbgrader": True}}
    server = json.loads((folder / "jupyter_server_config.json").read_text())["ServerApp"]["jpserver_extensions"]
    assert server == {f"nbgrader.server_extensions.{name}": False for name in NBGRADER_SERVER}
    repository = (REPO_ROOT / "Makefile").read_text()
    assert f"STUDENT_JUPYTER_CONFIG := $(CURDIR)/{STUDENT_JUPYTER_CONFIG.as_posix()}" in repository
    assert "JUPYTER_CONFIG_PATH=$(STUDENT_JUPYTER_CONFIG) $(BIN)/jupyter lab" in repository
    assert 'JUPYTER_CONFIG_PATH="$(CURDIR)/jupyter-config" .venv/bin/jupyter lab course' in MAKEFILE
    assert "JUPYTER_CONFIG_PATH=jupyter-config .venv/bin/jupyter lab course" in README
    assert '$env:JUPYTER_CONFIG_PATH = "jupyter-config"; .venv\\Scripts\\jupyter lab course' in README
