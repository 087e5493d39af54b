"""What a new user meets first: the install, the console script, `import tensorlab`, `make lab`."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import itertools
import json
import os
import re
import secrets
import shlex
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

import tensorlab

REPO_ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent

# The runtime dependencies the course needs (pyproject's [project] dependencies).
RUNTIME_DEPENDENCIES = {
    "numpy", "torch", "einops", "matplotlib", "jupyterlab", "ipywidgets", "anywidget", "nbgrader", "nbclient",
    "nbformat",
}
# What `import tensorlab` must not pull in: the reference library needs only NumPy.
HEAVY_MODULES = ("torch", "matplotlib", "ipywidgets", "jupyter", "jupyterlab", "jupyter_server", "IPython")


def test_import_tensorlab_pulls_in_only_numpy() -> None:
    probe = (
        "import json, sys, time\n"
        "start = time.perf_counter()\n"
        "import tensorlab\n"
        "seconds = time.perf_counter() - start\n"
        "print(json.dumps({'seconds': seconds, 'modules': sorted(sys.modules)}))\n"
    )
    answer = json.loads(subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout)
    print(f"import tensorlab: {answer['seconds'] * 1000:.0f} ms")  # a number to watch, not a timed assertion
    loaded_roots = {name.split(".")[0] for name in answer["modules"]}
    assert loaded_roots.isdisjoint(HEAVY_MODULES), sorted(loaded_roots & set(HEAVY_MODULES))


def test_lazy_submodules_are_the_ones_that_exist() -> None:
    """Each name that loads on first use is a module of the package; a name that is not one
    (a subpackage the course does not ship) is an AttributeError, so ``hasattr`` says False."""
    for name in sorted(tensorlab._LAZY_SUBMODULES):
        assert importlib.util.find_spec(f"tensorlab.{name}") is not None, name
        assert hasattr(tensorlab, name), name
    for name in ("jit", "no_such_module"):
        assert importlib.util.find_spec(f"tensorlab.{name}") is None, name
        assert not hasattr(tensorlab, name), name
        with pytest.raises(AttributeError, match=f"^module 'tensorlab' has no attribute '{name}'$"):
            getattr(tensorlab, name)


def test_the_tensor_core_never_imports_nn() -> None:
    """softmax, log_softmax, conv and pad are core ops (tensorlab/ops/): using them from a tensor
    loads no part of tensorlab.nn, which builds on the core and not the other way round."""
    probe = (
        "import sys\n"
        "import tensorlab as tl\n"
        "x = tl.randn(2, 3, requires_grad=True)\n"
        "(x.softmax(1) + x.log_softmax(0)).sum().backward()\n"
        "print(sorted(name for name in sys.modules if name.startswith('tensorlab.nn')))\n"
    )
    answer = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert answer.strip() == "[]"


def test_console_script_prints_the_version() -> None:
    script = shutil.which("tensorlab", path=str(BIN)) or shutil.which("tensorlab")
    assert script, "the `tensorlab` console script is not installed"
    result = subprocess.run([script, "--version"], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == importlib.metadata.version("tensorlab")


def test_metadata_declares_the_runtime_dependencies() -> None:
    requirements = importlib.metadata.requires("tensorlab") or []
    runtime = {
        re.match(r"[A-Za-z0-9._-]+", requirement).group(0).lower()
        for requirement in requirements
        if "extra ==" not in requirement
    }
    assert RUNTIME_DEPENDENCIES <= runtime, sorted(RUNTIME_DEPENDENCIES - runtime)


def test_constraints_pin_the_installed_torch() -> None:
    """An unpinned install pulls a multi-GB CUDA torch; the pin must be the build we test with."""
    pins = dict(
        line.split("==") for line in (REPO_ROOT / "constraints.txt").read_text().splitlines() if "==" in line
    )
    assert importlib.metadata.version("torch").split("+")[0] == pins["torch"].strip()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def make_lab_commands(port: int, token: str, student_dir: Path) -> tuple[list[str], list[str], dict[str, str]]:
    """The commands `make lab` runs (read with `make -n`): build the student tree, then serve it headless, with
    the environment settings the serving line starts with (JUPYTER_CONFIG_PATH: the student's settings)."""
    dry_run = subprocess.run(
        ["make", "-n", "lab", f"BIN={BIN}", f"LAB_PORT={port}", f"STUDENT_DIR={student_dir}",
         f"LAB_ARGS=--no-browser --ServerApp.token={token} --ServerApp.port_retries=0"],
        cwd=REPO_ROOT, capture_output=True, text=True, check=True,
    )
    commands = [shlex.split(line) for line in dry_run.stdout.splitlines()]
    settings = [dict(word.split("=", 1) for word in itertools.takewhile(
        lambda word: word.split("=", 1)[0].isidentifier() and "=" in word, command)) for command in commands]
    commands = [command[len(setting):] for command, setting in zip(commands, settings, strict=True)]
    (build,) = [command for command in commands if command[:2] == [f"{BIN}/tensorlab", "student-tree"]]
    ((serve, env),) = [(command, setting) for command, setting in zip(commands, settings, strict=True)
                       if command[:2] == [f"{BIN}/jupyter", "lab"]]
    return build, serve, env


def get_json(url: str, token: str) -> object:
    request = urllib.request.Request(url, headers={"Authorization": f"token {token}"})
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.loads(response.read())


def test_make_lab_serves_the_student_tree(tmp_path: Path) -> None:
    port, token, student_dir = free_port(), secrets.token_hex(16), tmp_path / "student"
    build, serve, settings = make_lab_commands(port, token, student_dir)
    assert build[2:] == [str(student_dir)]
    assert "--ServerApp.ip=127.0.0.1" in serve and f"--notebook-dir={student_dir}" in serve
    assert list(settings) == ["JUPYTER_CONFIG_PATH"]  # no nbgrader menus: tests/test_student_lab.py
    env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"), **settings)
    subprocess.run(build, cwd=REPO_ROOT, env=env, check=True, capture_output=True)
    log = (tmp_path / "lab.log").open("w")
    server = subprocess.Popen(serve, cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        contents, deadline = None, time.monotonic() + 90
        while contents is None and time.monotonic() < deadline:
            assert server.poll() is None, (tmp_path / "lab.log").read_text()[-3000:]
            try:
                contents = get_json(f"http://127.0.0.1:{port}/api/contents", token)
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.5)
        assert contents is not None, "JupyterLab did not answer: " + (tmp_path / "lab.log").read_text()[-3000:]
        assert {"00-welcome.ipynb", "exercises"} <= {item["name"] for item in contents["content"]}
        exercise = get_json(f"http://127.0.0.1:{port}/api/contents/exercises/04-broadcasting/broadcasting.ipynb", token)
        assert "raise NotImplementedError()" in json.dumps(exercise) and "BEGIN SOLUTION" not in json.dumps(exercise)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/lab?token={token}", timeout=10) as page:
            assert page.status == 200 and "JupyterLab" in page.read().decode()
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()
