"""The child process that runs a learner's code: ``python -I sandbox.py`` (never imported by the grader).

It reads one request from stdin (the learner's top-level statements, the function to call,
the cases as plain data, the limits, the forbidden functions), locks itself down, runs the
statements one by one, calls the function on each case and writes one JSON line per case to
stdout: the plain-data result, or the exception raised, or that the result was not plain data.
The learner's own prints go to a log file, never to the result stream.

Lock-down, before any learner code runs: resource limits (CPU seconds, address space, file
size, no core files), an audit hook that refuses network sockets, new processes, loading
native libraries, and writes, deletes or renames outside the working directory, and the
exercise's forbidden functions replaced by functions that raise (and record the attempt).
"""

from __future__ import annotations

import builtins
import importlib.util
import json
import os
import resource
import sys
import time
import warnings
from typing import Any

BLOCKED_EVENTS = ("socket.", "subprocess.", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork",
                  "os.forkpty", "os.kill", "os.killpg", "pty.", "ctypes.dlopen", "ctypes.dlsym", "webbrowser.")
PATH_EVENTS = ("os.remove", "os.rename", "os.rmdir", "os.mkdir", "os.chmod", "os.chown", "os.truncate",
               "os.symlink", "os.link", "shutil.", "os.utime")
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


class ForbiddenCall(RuntimeError):  # noqa: N818 - the learner reads this name
    """Raised by a forbidden function."""


def set_limits(cpu_seconds: int, memory_bytes: int) -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    resource.setrlimit(resource.RLIMIT_FSIZE, (64 << 20, 64 << 20))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def install_audit_hook(workdir: str) -> None:
    """Refuse network, processes, native libraries and changes to files outside ``workdir``."""
    inside = os.path.realpath(workdir) + os.sep

    def outside(path: Any) -> bool:
        if isinstance(path, int):
            return False  # an already open descriptor
        try:
            return not (os.path.realpath(os.fsdecode(path)) + os.sep).startswith(inside)
        except (TypeError, ValueError):
            return True

    def hook(event: str, args: tuple) -> None:
        if event.startswith(BLOCKED_EVENTS):
            raise PermissionError(f"the grader does not allow {event} here")
        if event == "open" and len(args) >= 3:
            path, mode, flags = args[0], args[1], args[2]
            writes = any(c in (mode or "") for c in "wax+") or (isinstance(flags, int) and flags & WRITE_FLAGS)
            if writes and outside(path):
                raise PermissionError(f"the grader does not allow writing {path!r}")
        elif event.startswith(PATH_EVENTS) and args and any(outside(a) for a in args[:2] if isinstance(a, (str, bytes))):
            raise PermissionError(f"the grader does not allow {event} outside the working directory")

    sys.addaudithook(hook)


class ForbiddenFunctions:
    """Replaces forbidden functions (dotted names) by raisers, now and whenever their module loads."""

    def __init__(self, names: list[str]) -> None:
        self.pending = list(names)
        self.called: list[str] = []
        self.original_import = builtins.__import__
        builtins.__import__ = self.importing
        self.apply()

    def importing(self, *args: Any, **kwargs: Any) -> Any:
        module = self.original_import(*args, **kwargs)
        if self.pending:
            self.apply()
        return module

    def raiser(self, name: str) -> Any:
        def forbidden(*args: Any, **kwargs: Any) -> Any:
            self.called.append(name)
            raise ForbiddenCall(f"{name} is not allowed in this exercise: write it yourself")

        return forbidden

    def apply(self) -> None:
        for name in list(self.pending):
            root, *path = name.split(".")
            if root not in sys.modules:
                continue
            self.pending.remove(name)
            owner: Any = sys.modules[root]
            for part in path[:-1]:
                owner = getattr(owner, part, None)
            if owner is not None and hasattr(owner, path[-1]):
                try:
                    setattr(owner, path[-1], self.raiser(name))
                except (AttributeError, TypeError):  # a C type; the static rule still applies
                    pass


def load_plain(path: str) -> Any:
    spec = importlib.util.spec_from_file_location("plain", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def builtin_class_name(kind: type) -> str:
    for base in kind.__mro__:
        if getattr(builtins, base.__name__, None) is base:
            return base.__name__
    return "Exception"


def main() -> None:
    request = json.loads(sys.stdin.read())
    results = os.fdopen(os.dup(1), "w")
    log = os.open("output.log", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(log, 1)
    os.dup2(log, 2)
    sys.stdout = sys.stderr = open(log, "w", closefd=False)
    set_limits(request["cpu_seconds"], request["memory_bytes"])
    plain = load_plain(request["plain_module"])
    import numpy  # noqa: F401 - loaded before the lock-down, so its forbidden functions can be replaced

    forbidden = ForbiddenFunctions(request["forbidden"])
    install_audit_hook(os.getcwd())

    namespace: dict[str, Any] = {"__name__": "__main__"}
    for number, source in enumerate(request["statements"]):
        try:
            exec(compile(source, f"<cell statement {number}>", "exec"), namespace)
        except BaseException:
            pass
    function = namespace.get(request["function"])
    for case in request["cases"]:
        arguments = plain.decode(case)
        started = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                if function is None:
                    raise NameError(f"name {request['function']!r} is not defined")
                line = {"value": plain.encode(function(*arguments))}
            except plain.NotPlainData as error:
                line = {"not_plain": str(error)}
            except BaseException as error:
                try:
                    message = str(error)[:2000]
                except BaseException:
                    message = "<unprintable>"
                line = {"raised": builtin_class_name(type(error)), "message": message}
        line["seconds"] = time.perf_counter() - started
        line["forbidden_called"] = sorted(set(forbidden.called))
        results.write(json.dumps(line) + "\n")
        results.flush()


if __name__ == "__main__":
    main()
