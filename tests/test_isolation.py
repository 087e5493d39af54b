"""Graded code sees only its own work: hostile submissions against the OS namespaces (real processes, no mocks).

Each attack is an answer to exercise 04's ``broadcast_shape`` that is right *only if the attack works*: it first
reads (or writes, or connects to) something it must not reach, and computes the right answer only when that
succeeded. So a score of 0 means the attack failed, and full marks would mean it escaped. The attacks go through
``tensorlab check`` and through ``tensorlab course autograde`` on a real course, beside an honest student who
must keep full marks, and the course's files must be unchanged afterwards.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from autograder.cli import main
from tensorlab.grading.isolation import WORKDIR, namespaces_available, python_roots, wrap

REPO_ROOT = Path(__file__).resolve().parent.parent
ASSIGNMENT, NOTEBOOK = "04-broadcasting", "broadcasting"
pytestmark = [
    pytest.mark.slow, pytest.mark.timeout(600),
    pytest.mark.skipif(not namespaces_available(), reason="bubblewrap and user namespaces are needed (make test installs bwrap)"),
]

RIGHT_ANSWER = '''
    n = max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)
    if any(x != y and 1 not in (x, y) for x, y in zip(a, b)):
        raise RuntimeError("The shapes clash")
    return tuple(y if x == 1 else x for x, y in zip(a, b))
'''
READERS = {
    "fromfile": "np.fromfile({path!r}, dtype=np.uint8)",
    "loadtxt": "np.loadtxt({path!r}, dtype=str, delimiter='\\x01', comments=None)",
    "genfromtxt": "np.genfromtxt({path!r}, dtype=str, delimiter='\\x01', comments=None)",
    "memmap": "np.memmap({path!r}, dtype=np.uint8, mode='r')",
    "open": "open({path!r}, 'rb').read()",
}


def tensorlab(*arguments: str, **environment: str) -> subprocess.CompletedProcess:
    """The ``tensorlab`` command of this checkout, as a separate process."""
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), **environment}
    return subprocess.run([sys.executable, "-m", "autograder.cli", *arguments], env=env, capture_output=True, text=True,
                          timeout=900)


def attack(setup: str) -> str:
    """An answer cell that is right only when ``setup`` runs without an exception and finds something."""
    return f"import numpy as np\n\ndef broadcast_shape(a, b):\n    found = {setup}\n    assert len(found) > 0\n{RIGHT_ANSWER}"


def relative(path: Path) -> str:
    """The same file by a relative path, from any working directory: climb to / first."""
    return "../" * 12 + str(path).lstrip("/")


def course_files(course: Path) -> dict[str, str]:
    """The hash of every file the grading must not change (results and the gradebook it may)."""
    return {str(path.relative_to(course)): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(course.rglob("*")) if path.is_file()
            and path.relative_to(course).parts[0] in ("source", "release", "submitted", "exercises")}


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("isolation")
    exercises = root / "exercises"
    shutil.copytree(REPO_ROOT / "exercises" / ASSIGNMENT, exercises / ASSIGNMENT)
    course = root / "course"
    assert main(["course", "init", str(course), "--exercises", str(exercises)]) == 0
    assert main(["course", "release", str(course), ASSIGNMENT]) == 0
    home = root / "home"
    home.mkdir()
    (home / "secret.txt").write_text("the instructor's own notes\n")
    return course


def submit(course: Path, student: str, answer: str | None) -> Path:
    """A submission: the solution notebook, with broadcast_shape's answer cell replaced by ``answer``."""
    notebook = nbformat.read(str(course / "source" / ASSIGNMENT / f"{NOTEBOOK}.ipynb"), as_version=4)
    for cell in notebook.cells:
        if cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") == "broadcast_shape_solution" and answer:
            cell.source = answer
    path = course / "submitted" / student / ASSIGNMENT / f"{NOTEBOOK}.ipynb"
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, str(path))
    return path


def targets(course: Path) -> dict[str, Path]:
    return {
        "another-submission": course / "submitted" / "honest" / ASSIGNMENT / f"{NOTEBOOK}.ipynb",
        "source-notebook": course / "source" / ASSIGNMENT / f"{NOTEBOOK}.ipynb",
        "answer-keys": course / "exercises" / ASSIGNMENT / "tasks.py",
        "gradebook": course / "gradebook.db",
        "course-secret-seed": course / "tensorlab-course.json",
        "instructor-home": course.parent / "home" / "secret.txt",
        "etc-passwd": Path("/etc/passwd"),
        "the-grader-itself": REPO_ROOT / "tensorlab" / "grading" / "verify.py",
    }


def hostile_answers(course: Path, server_port: int) -> dict[str, str]:
    answers = {}
    for target, path in targets(course).items():
        for reader, call in READERS.items():
            answers[f"read-{target}-{reader}"] = attack(call.format(path=str(path)))
        answers[f"read-{target}-relative"] = attack(READERS["fromfile"].format(path=relative(path)))
        answers[f"write-beside-{target}"] = attack(f"open({str(path.parent / 'escaped.txt')!r}, 'w').write('x') or 'x'")
    answers["environment-of-the-grader"] = attack("[v for v in open('/proc/self/environ').read().split(chr(0)) if 'GRADER_SECRET' in v]")
    answers["environment-of-pid-1"] = attack("[v for v in open('/proc/1/environ').read().split(chr(0)) if 'GRADER_SECRET' in v]")
    answers["connect-to-loopback"] = attack(
        f"__import__('socket').create_connection(('127.0.0.1', {server_port}), timeout=2).recv(5)")
    answers["list-the-host-tmp"] = attack("[name for name in __import__('os').listdir('/tmp') if name.startswith('pytest')]")
    return answers


@pytest.fixture(scope="module")
def server() -> socket.socket:
    """A server on 127.0.0.1 that would greet anyone who reaches it."""
    listening = socket.create_server(("127.0.0.1", 0))
    listening.settimeout(0.2)
    yield listening
    listening.close()


@pytest.fixture(scope="module")
def graded(course: Path, server: socket.socket) -> tuple[Path, dict[str, str], dict[str, str]]:
    submit(course, "honest", None)
    answers = hostile_answers(course, server.getsockname()[1])
    for name, answer in answers.items():
        submit(course, name, answer)
    submit(course, "prints-megabytes", "def broadcast_shape(a, b):\n    print('x' * 5_000_000)\n" + RIGHT_ANSWER)
    submit(course, "forks-processes", "import os\ndef broadcast_shape(a, b):\n    while True:\n        os.fork()\n")
    submit(course, "eats-memory", "def broadcast_shape(a, b):\n    hog = [bytearray(1 << 20) for _ in range(10**6)]\n" + RIGHT_ANSWER)
    before = course_files(course)
    done = tensorlab("course", "autograde", str(course), "--jobs", "2", GRADER_SECRET="s3cret", HOME=str(course.parent / "home"))
    assert done.returncode == 0, done.stderr[-3000:]
    assert "learner code isolated by namespaces" in done.stdout
    return course, before, answers


def scores(course: Path, student: str) -> dict[str, float]:
    data = json.loads((course / "autograded" / student / ASSIGNMENT / "tensorlab-results.json").read_text())
    assert data["isolation"] == "namespaces"
    return {function["name"]: function["score"] for function in data["functions"]}


def test_every_attack_fails_and_the_honest_student_keeps_full_marks(graded: tuple) -> None:
    course, _, answers = graded
    assert scores(course, "honest") == {"broadcast_shape": 2.0, "broadcast_add": 3.0, "expand_to": 2.0}
    escaped = {name: scores(course, name)["broadcast_shape"] for name in answers if scores(course, name)["broadcast_shape"]}
    assert not escaped, f"these attacks reached what they must not: {sorted(escaped)}"
    for name in answers:  # an attack costs only the function it is in
        assert scores(course, name)["broadcast_add"] == 3.0, name


def test_floods_forks_and_memory_cost_only_their_function(graded: tuple) -> None:
    course, _, _ = graded
    assert scores(course, "prints-megabytes")["broadcast_shape"] == 2.0  # prints cost nothing
    for student in ("forks-processes", "eats-memory"):
        assert scores(course, student) == {"broadcast_shape": 0.0, "broadcast_add": 3.0, "expand_to": 2.0}


def test_nothing_in_the_course_changed_and_nothing_was_written_beside_it(graded: tuple) -> None:
    course, before, _ = graded
    assert course_files(course) == before
    assert not [path for path in course.parent.rglob("escaped.txt")]
    assert not Path("/etc/escaped.txt").exists()


def test_the_check_command_meets_the_same_walls(course: Path, server: socket.socket, tmp_path: Path) -> None:
    """`tensorlab check` on a student's machine with bubblewrap: the same namespaces, so the same zeros."""
    shutil.copyfile(course / "release" / ASSIGNMENT / "tensorlab-cases.json", tmp_path / "tensorlab-cases.json")
    chosen = ["read-source-notebook-fromfile", "read-gradebook-memmap", "read-another-submission-relative",
              "read-etc-passwd-loadtxt", "connect-to-loopback", "write-beside-source-notebook"]
    answers = hostile_answers(course, server.getsockname()[1])
    for name in chosen:
        path = submit(course, f"check-{name}", answers[name])
        shutil.copyfile(path, tmp_path / f"{NOTEBOOK}.ipynb")
        done = tensorlab("check", str(tmp_path / f"{NOTEBOOK}.ipynb"), TENSORLAB_CASES="")
        assert done.returncode == 1, done.stdout + done.stderr
        assert "✗ broadcast_shape" in done.stdout and "✓ broadcast_add" in done.stdout, (name, done.stdout)
        shutil.rmtree(path.parent.parent)


def test_the_namespace_sees_only_the_interpreter_its_packages_and_an_empty_workdir() -> None:
    probe = ("import os, json, socket\n"
             "s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(); c = socket.create_connection(s.getsockname())\n"
             "walls = {top: sorted(os.listdir(top)) for top in ('/etc', '/home', '/root', '/tmp', '/work') if os.path.isdir(top)}\n"
             "print(json.dumps({'root': sorted(os.listdir('/')), 'cwd': os.getcwd(), 'work': os.listdir('.'),"
             " 'uid': os.getuid(), 'pid': os.getpid(), 'env': sorted(os.environ), 'loopback': True, 'walls': walls}))")
    command = wrap([sys.executable, "-I", "-c", probe], {}, {"HOME": WORKDIR})
    seen = json.loads(subprocess.run(command, capture_output=True, text=True, check=True, timeout=60).stdout)
    assert seen["cwd"] == WORKDIR and seen["work"] == [] and seen["uid"] == 65534 and seen["pid"] < 10
    assert "etc" not in seen["root"]
    # /home, /root, /tmp or /work appear only as the way to the Python installation and its packages (the
    # venv of a clone under /tmp, say), holding nothing else
    ways: dict[str, set[str]] = {}
    for root in python_roots():
        if len(Path(root).parts) > 2:
            ways.setdefault(Path(root).parts[1], set()).add(Path(root).parts[2])
    for top, names in seen["walls"].items():
        assert set(names) <= ways.get(top.strip("/"), set()), (top, names)
    assert set(seen["env"]) <= {"HOME", "PWD", "LC_CTYPE"} and seen["loopback"]  # (PWD: bwrap; LC_CTYPE: Python)


def test_without_namespaces_autograde_refuses_unless_told(course: Path, capsys: pytest.CaptureFixture,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import tensorlab.grading.isolation as isolation

    monkeypatch.setattr(isolation, "namespaces_available", lambda: False)
    assert main(["course", "autograde", str(course), ASSIGNMENT]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "--isolation=process" in error and "bubblewrap" in error
