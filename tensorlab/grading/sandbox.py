"""The child process that runs a learner's code: ``python -I sandbox.py`` (never imported by the grader).

One child per submission. It reads one request from stdin (the learner's top-level
statements, the graded functions with their cases as plain data and the statements each one
uses, the limits, the forbidden functions) and imports NumPy once. Then, for each graded function, it forks a fresh
grandchild from that already-imported state: only the grandchild locks itself down and runs
learner code, so every function still gets its own resource-limited process and a crash, an
endless loop or a memory blow-up costs only that function, but no function pays for starting
Python and importing NumPy again. The child itself never runs learner code: it only forwards
each grandchild's results and says how the grandchild ended.

Lock-down in each grandchild, before any learner code runs: resource limits (CPU seconds,
address space, file size, no core files), the exercise's forbidden functions replaced by
functions that raise (and record the attempt), the learner's ``import numpy`` answered with a
stand-in that holds only the part's allow-list (when it has one), and an audit hook that refuses network
sockets, new processes, loading native libraries, writes, deletes or renames outside the
working directory, and any import or file read of the reference (``tensorlab``, ``torch``:
the answer key must not be callable, however it is reached). A task with a one-process
harness (unit 13's Triton kernels) has its cases run through it; the child loads that harness
once and calls its ``prepare()`` before forking (triton: native libraries a locked-down
grandchild may no longer load), only when a job needs it. Each statement's source is put in
``linecache``, where ``@triton.jit`` reads a kernel's source. The grandchild writes one JSON
line per case to its own pipe: the plain-data result, or the exception raised, or that the
result was not plain data; which inputs the call changed; where the exercise promises a
view, whether the result shares memory with its input and its strides; and, for a vectorised part,
how many lines of the learner's own code the call executed (``LineCounter``: the grader decides
"a loop over elements" from that count, never from the clock). The learner's own
prints go to /dev/null, never to a result stream.

What the child writes to stdout, one JSON object a line: ``{"function": name, "case": line}``
for each case line of a grandchild, then ``{"function": name, "ending": how}`` where ``how`` is
"exited", "timed out", "killed by SIG..." or "exited with status N".
"""

from __future__ import annotations

import builtins
import copy
import importlib.util
import json
import linecache
import os
import resource
import select
import signal
import sys
import time
import types
import warnings
from typing import Any

BLOCKED_EVENTS = ("socket.", "subprocess.", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork",
                  "os.forkpty", "os.kill", "os.killpg", "pty.", "ctypes.dlopen", "ctypes.dlsym", "webbrowser.")
PATH_EVENTS = ("os.remove", "os.rename", "os.rmdir", "os.mkdir", "os.chmod", "os.chown", "os.truncate",
               "os.symlink", "os.link", "shutil.", "os.utime")
MAX_RESULT_BYTES = 256 << 20  # a grandchild that writes more is stopped
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


class ForbiddenCall(RuntimeError):  # noqa: N818 - the learner reads this name
    """Raised by a forbidden function."""


def set_limits(cpu_seconds: int, memory_bytes: int) -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    resource.setrlimit(resource.RLIMIT_FSIZE, (64 << 20, 64 << 20))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def install_audit_hook(workdir: str, reference: list[str], caught: list[str]) -> None:
    """Refuse network, processes, native libraries, changes outside ``workdir``, and the reference.

    ``reference`` names the forbidden packages; an attempt to import one, or to read a file of
    the copy this process would import, is recorded in ``caught`` (so the grader can say so)
    and refused.
    """
    inside = os.path.realpath(workdir) + os.sep
    folders = [(package, os.path.realpath(folder) + os.sep) for package in reference if (folder := package_folder(package))]

    def refuse_reference(what: str) -> None:
        caught.append(what)
        raise ImportError(f"{what} is not allowed in graded code: the point is to write it yourself")

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
        if event == "import" and args and isinstance(args[0], str):
            package = args[0].split(".")[0]
            if package in reference:
                refuse_reference(package)
        if event == "open" and args and isinstance(args[0], (str, bytes)) and folders:
            where = os.path.realpath(os.fsdecode(args[0]))
            for package, folder in folders:
                if where.startswith(folder):
                    refuse_reference(package)
        if event == "open" and len(args) >= 3:
            path, mode, flags = args[0], args[1], args[2]
            writes = any(c in (mode or "") for c in "wax+") or (isinstance(flags, int) and flags & WRITE_FLAGS)
            if writes and outside(path):
                raise PermissionError(f"the grader does not allow writing {path!r}")
        elif event.startswith(PATH_EVENTS) and args and any(outside(a) for a in args[:2] if isinstance(a, (str, bytes))):
            raise PermissionError(f"the grader does not allow {event} outside the working directory")

    sys.addaudithook(hook)
    sys.meta_path.insert(0, RefusingFinder(reference, refuse_reference))


class RefusingFinder:
    """First on ``sys.meta_path``: an import of the reference by any route (``importlib.import_module``
    bypasses ``__import__``) is refused and recorded, even where the package is not there to find
    (in the grader's namespaces it is not even mounted)."""

    def __init__(self, reference: list[str], refuse: Any) -> None:
        self.reference, self.refuse = reference, refuse

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if name.split(".")[0] in self.reference:
            self.refuse(name.split(".")[0])


class ForbiddenFunctions:
    """Replaces forbidden functions (dotted names) by raisers, now and whenever their module loads."""

    def __init__(self, names: list[str]) -> None:
        self.pending = list(names)
        self.called: list[str] = []
        self.allowed: frozenset[str] | None = None  # an allow-list's names (allow_only), None: no allow-list
        self.learner: dict | None = None  # the learner's namespace: only its imports get the stand-in
        self.proxies: dict[int, Any] = {}
        self.result_view: Any = None  # no_mask_indexing: what the stand-in's functions return is guarded too
        self.original_import = builtins.__import__
        builtins.__import__ = self.importing  # type: ignore[assignment]
        self.apply()

    def importing(self, name: str, scope: Any = None, local_names: Any = None, fromlist: Any = (), level: int = 0) -> Any:
        module = self.original_import(name, scope, local_names, fromlist, level)
        if self.pending:
            self.apply()
        if self.allowed is not None and scope is self.learner and level == 0 and name.split(".")[0] == "numpy":
            return self.allow_listed(module)  # only the learner's own imports: NumPy's internal ones stay real
        return module

    def allow_only(self, names: list[str], learner: dict) -> None:
        """The runtime half of an allow-list: the learner's ``import numpy`` (and ``from numpy... import``)
        gets a stand-in module holding only the allowed names; any other is refused and recorded."""
        self.allowed, self.learner, self.proxies = frozenset(names), learner, {}

    def allow_listed(self, module: Any) -> Any:
        if id(module) in self.proxies:
            return self.proxies[id(module)]
        called, allowed, real = self.called, self.allowed or frozenset(), module

        class AllowListed(types.ModuleType):  # a module whose missing names are refused
            def __getattr__(self, name: str) -> Any:
                if name.startswith("__"):
                    return getattr(real, name)
                called.append(f"{real.__name__}.{name}")
                raise ForbiddenCall(f"{real.__name__}.{name} is not one of this part's building blocks")

        stand_in = AllowListed(module.__name__)
        self.proxies[id(module)] = stand_in
        for name in allowed & set(dir(module)):
            value = getattr(module, name)
            setattr(stand_in, name, self.allow_listed(value) if isinstance(value, types.ModuleType) else self.guarded(value))
        return stand_in

    def guarded(self, value: Any) -> Any:
        """An allowed NumPy function whose array results refuse a boolean subscript, where the exercise
        asks for ``x[mask]`` by hand: ``np.arange(n)[mask]`` is the same op on another array. Types
        (``np.float64``), constants and the unguarded case pass through as they are."""
        view = self.result_view
        if view is None or isinstance(value, type) or not callable(value):
            return value

        def call(*args: Any, **kwargs: Any) -> Any:
            return view(value(*args, **kwargs))

        return call

    def raiser(self, name: str, original: Any) -> Any:
        """A stand-in that raises when called, and otherwise looks like ``original``: modules that read a
        function's docstring or name at import (``numpy.ma`` reads ``apply_over_axes.__doc__``) still load.
        ``__wrapped__`` is left out on purpose: it would hand back the real function."""
        def forbidden(*args: Any, **kwargs: Any) -> Any:
            self.called.append(name)
            raise ForbiddenCall(f"{name} is not allowed in this exercise: write it yourself")

        for attribute in ("__doc__", "__name__", "__qualname__", "__module__"):
            value = getattr(original, attribute, None)
            if isinstance(value, str):
                setattr(forbidden, attribute, value)
        return forbidden

    def apply(self) -> None:
        # Take the names to replace off the list first: reading a ufunc's docstring imports, which
        # calls apply again, and that call must not see them still pending.
        ready = [name for name in self.pending if name.split(".")[0] in sys.modules]
        self.pending = [name for name in self.pending if name not in ready]
        for name in ready:
            root, *path = name.split(".")
            owner: Any = sys.modules[root]
            for part in path[:-1]:
                owner = getattr(owner, part, None)
            found = getattr(owner, path[-1], None) if owner is not None else None
            if callable(found) and not isinstance(found, type(sys)):
                try:  # only functions and classes: a module or an object (Triton's interpreter) would break its
                    # package if replaced; the static rule still refuses naming it
                    setattr(owner, path[-1], self.raiser(name, getattr(owner, path[-1])))
                except (AttributeError, TypeError):  # a C type; the static rule still applies
                    pass


def package_folder(package: str) -> str:
    """Where ``package`` would be imported from here, without importing it ("" if nowhere)."""
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return ""
    locations = list(spec.submodule_search_locations or []) if spec else []
    return locations[0] if locations else ""


def load_plain(path: str) -> Any:
    return load_file("plain", path, register=False)


def load_file(name: str, path: str, register: bool = True) -> Any:
    """The Python file at ``path`` run as the module ``name`` (this process imports nothing of tensorlab);
    ``register`` puts it in ``sys.modules`` (its dataclasses and kernels look themselves up there)."""
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    if register:
        sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def builtin_class_name(kind: type) -> str:
    for base in kind.__mro__:
        if getattr(builtins, base.__name__, None) is base:
            return base.__name__
    return "Exception"


def lock_down_and_load(request: dict, job: dict) -> tuple[Any, ForbiddenFunctions]:
    """Lock this process down, then run the learner's statements: their graded function (or None)."""
    set_limits(request["cpu_seconds"], request["memory_bytes"])
    forbidden = ForbiddenFunctions(job["forbidden"])
    install_audit_hook(os.getcwd(), job.get("reference", request.get("reference", [])), forbidden.called)

    if LIBRARY_BUILDER:  # the learner's ``import mytorch``: built now, under the lock-down (library_module.py)
        LIBRARY_BUILDER[0].build(request["library"])
    namespace: dict[str, Any] = {"__name__": "__main__"}
    if job.get("allowed") is not None:
        forbidden.allow_only(job["allowed"], namespace)
        if job.get("no_mask_indexing"):
            forbidden.result_view = mask_index_guard(forbidden.called)
    for number in job["statements"]:
        source = request["statements"][number]
        filename = f"<cell statement {number}>"
        # Its source, where inspect.getsource finds it: @triton.jit reads the kernel's source to run it.
        linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
        try:
            exec(compile(source, filename, "exec"), namespace)
        except BaseException:
            pass
    return namespace.get(job["function"]), forbidden


def raised_line(error: BaseException) -> dict:
    """A case line for a call that raised: the builtin class it is (or derives from) and the message."""
    try:
        message = str(error)[:2000]
    except BaseException:
        message = "<unprintable>"
    return {"raised": builtin_class_name(type(error)), "message": message}


CELL_FILES = "<cell statement "  # the file name of every learner statement (lock_down_and_load)
LINE_CAP = 100_000  # a call that runs more learner lines is stopped: it loops, and tracing makes it slow


class LineCounter:
    """A tracer that counts the lines of learner code executed: calls and lines in frames whose code came
    from a notebook cell (their functions, lambdas, comprehensions and callbacks run from NumPy or
    ``sorted``), nothing of NumPy's or the grader's. Past ``LINE_CAP`` it raises in the learner's frame
    (Python then drops the tracer): the count, already over any limit, says what happened, and code that
    catches the exception runs on untraced until the timeout."""

    def __init__(self) -> None:
        self.lines = 0

    def __call__(self, frame: Any, event: str, arg: Any) -> Any:
        if event != "call" or not frame.f_code.co_filename.startswith(CELL_FILES):
            return None  # not learner code: no per-line tracing, NumPy's Python code runs at full speed
        return self.count(frame, event, arg)

    def count(self, frame: Any, event: str, arg: Any) -> Any:
        if event in ("call", "line"):
            self.lines += 1
            if self.lines > LINE_CAP:
                raise RuntimeError("stopped: this call runs a loop over elements")
        return self.count

    def run(self, call: Any) -> Any:
        self.lines = 0
        sys.settrace(self)
        try:
            return call()
        finally:
            sys.settrace(None)


def run_cases(request: dict, job: dict, plain: Any, results: Any) -> None:
    """In the grandchild: lock down, run the learner's statements, call the function on each case
    (through the task's harness, prepared before the fork, when it has one: unit 13's kernel launches)."""
    harness = PREPARED_HARNESSES.get(tuple(job["harness"])) if job.get("harness") else None
    function, forbidden = lock_down_and_load(request, job)
    guard = mask_index_guard(forbidden.called) if job.get("no_mask_indexing") else None
    counter = LineCounter() if job.get("count_lines") else None
    for case in job["cases"]:
        arguments = plain.decode(case)
        untouched = copy.deepcopy(arguments)
        given = [guard(argument) for argument in arguments] if guard else arguments
        started = (time.perf_counter(), time.process_time())
        seconds = None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                if function is None:
                    raise NameError(f"name {job['function']!r} is not defined")
                def call(given: Any = given) -> Any:
                    return harness(function, given) if harness else function(*given)

                result = counter.run(call) if counter else call()
                seconds = seconds_spent(started)
                if guard:
                    result = FACTS[0].unguarded(result)
                line = {"value": plain.encode(result)}
                if job.get("view_of") is not None:
                    line["view"] = FACTS[0].view_facts(result, arguments[job["view_of"]])
                if job.get("fresh_result"):
                    line["shares_input"] = FACTS[0].shares_an_input(result, arguments)
            except plain.NotPlainData as error:
                line = {"not_plain": str(error)}
            except BaseException as error:
                line = raised_line(error)
        line["seconds"] = seconds if seconds is not None else seconds_spent(started)
        if counter:
            line["lines"] = counter.lines
        line["changed"] = [number for number, (now, before) in enumerate(zip(arguments, untouched, strict=True))
                           if not FACTS[0].same_value(now, before)]
        line["forbidden_called"] = sorted(set(forbidden.called))
        results.write(json.dumps(line) + "\n")
        results.flush()


FACTS: list[Any] = []  # result_facts.py: what a result is (a view? new? the input unchanged?), loaded by main()
LIBRARY_BUILDER: list[Any] = []  # library_module.py, when the learner's code imports mytorch


# --- exercises whose cases run through a harness in one process (unit 13: Triton kernels) ------
PREPARED_HARNESSES: dict[tuple[str, ...], Any] = {}  # (file, function name) -> the harness function


def prepare_harnesses(request: dict) -> None:
    """In the child, before any fork: load each one-process harness once and let its file prepare
    what it needs (``prepare()``: triton, whose native libraries a locked-down grandchild
    may not load, and one warm-up launch). Exercises without a harness import nothing more."""
    modules: dict[str, Any] = {}
    for job in request["functions"]:
        if not job.get("harness") or job.get("ranks"):
            continue
        path, name = job["harness"]
        try:
            if path not in modules:
                modules[path] = load_registered(path)
                if hasattr(modules[path], "prepare"):
                    modules[path].prepare()
            PREPARED_HARNESSES[(path, name)] = getattr(modules[path], name)
        except Exception as error:  # every case of the job then says so, instead of the child dying
            PREPARED_HARNESSES[(path, name)] = unprepared(f"{type(error).__name__}: {error}")


def load_registered(path: str) -> Any:
    """A file loaded by path as a module in ``sys.modules`` (its dataclasses and kernels look themselves up there)."""
    return load_file("grader_harness_" + os.path.splitext(os.path.basename(path))[0], path)


def unprepared(why: str) -> Any:
    def harness(function: Any, arguments: Any) -> Any:
        raise RuntimeError(f"the grader could not prepare this exercise's launches here ({why})")

    return harness


def mask_index_guard(caught: list[str]) -> Any:
    """For an exercise that asks for ``x[mask]`` to be built by hand: array arguments arrive as an
    ndarray subclass that refuses a boolean array as a subscript (reading or assigning). Views,
    reshapes and ufunc results of them keep the subclass, so ``x.reshape(-1)[mask.ravel()]`` is
    refused too; the attempt is recorded like a forbidden call."""
    import numpy as np

    def refuse_masks(index: Any) -> None:
        for entry in index if isinstance(index, tuple) else (index,):
            if (isinstance(entry, np.ndarray) and entry.dtype == bool) or (
                    isinstance(entry, list) and entry and all(isinstance(item, bool) for item in entry)):
                caught.append("boolean-mask indexing")
                raise ForbiddenCall("indexing with a boolean mask is what this exercise asks you to write yourself")

    class MaskFreeArray(np.ndarray):
        def __getitem__(self, index: Any) -> Any:
            refuse_masks(index)
            return super().__getitem__(index)

        def __setitem__(self, index: Any, value: Any) -> None:
            refuse_masks(index)
            super().__setitem__(index, value)

    def guard(argument: Any) -> Any:
        return argument.view(MaskFreeArray) if type(argument) is np.ndarray else argument

    return guard


def seconds_spent(started: tuple[float, float]) -> float:
    """How long the call took (for the benchmark's report only, never a verdict): the smaller of wall-clock
    and this process's CPU time since ``started``, so a busy machine does not inflate it."""
    wall, cpu = started
    return min(time.perf_counter() - wall, time.process_time() - cpu)


def ending_of(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"killed by {signal.Signals(os.WTERMSIG(status)).name}"
    code = os.WEXITSTATUS(status)
    return "exited" if code == 0 else f"exited with status {code}"


def collect(grandchild: int, pipe: int, timeout: float) -> tuple[list[str], str]:
    """The grandchild's complete result lines, and how it ended (killed at ``timeout`` seconds)."""
    deadline = time.monotonic() + timeout
    poller = select.poll()
    poller.register(pipe, select.POLLIN | select.POLLHUP)
    received: list[bytes] = []
    size, ending = 0, None
    while ending is None:
        left = deadline - time.monotonic()
        if left <= 0:
            ending = "timed out"
        elif poller.poll(max(1, int(left * 1000))):
            chunk = os.read(pipe, 1 << 16)
            if not chunk:
                break  # the grandchild closed its end: it is finishing
            size += len(chunk)
            received.append(chunk)
            if size > MAX_RESULT_BYTES:
                ending = "stopped for writing too much"
    os.close(pipe)
    while ending is None:  # wait for the grandchild to exit, still within the deadline
        finished, status = os.waitpid(grandchild, os.WNOHANG)
        if finished:
            return complete_lines(received), ending_of(status)
        if time.monotonic() >= deadline:
            ending = "timed out"
        else:
            time.sleep(0.002)
    os.kill(grandchild, signal.SIGKILL)
    os.waitpid(grandchild, 0)
    return complete_lines(received), ending


def complete_lines(received: list[bytes]) -> list[str]:
    """The lines that ended with a newline (a killed grandchild may leave half a line)."""
    *lines, _unfinished = b"".join(received).decode(errors="replace").split("\n")
    return lines


def grade_in_grandchild(request: dict, job: dict, plain: Any, results: Any) -> None:
    """Fork a grandchild for one graded function and forward what it reports."""
    results.flush()
    sys.stdout.flush()
    reader, writer = os.pipe()
    grandchild = os.fork()
    if grandchild == 0:  # the grandchild: its own pipe only, never the child's result stream
        status = 0
        try:
            os.close(reader)
            os.close(results.fileno())
            if job.get("ranks"):  # sandbox_ranks.py: N real processes talking over gloo on 127.0.0.1
                ranks = load_plain(request["ranks_module"])
                ranks.run_ranked_cases(sys.modules[__name__], request, job, plain, os.fdopen(writer, "w"))
            else:
                run_cases(request, job, plain, os.fdopen(writer, "w"))
        except BaseException:
            status = 1
        finally:
            os._exit(status)
    os.close(writer)
    lines, ending = collect(grandchild, reader, request["timeout"])
    for text in lines:
        try:
            results.write(json.dumps({"function": job["function"], "case": json.loads(text)}) + "\n")
        except json.JSONDecodeError:
            break
    results.write(json.dumps({"function": job["function"], "ending": ending}) + "\n")
    results.flush()


def main() -> None:
    request = json.loads(sys.stdin.read())
    results = os.fdopen(os.dup(1), "w")
    log = os.open(os.devnull, os.O_WRONLY)  # the learner's prints: read by no one, so they cost no disk and no points
    os.dup2(log, 1)
    os.dup2(log, 2)
    sys.stdout = sys.stderr = open(log, "w", closefd=False)
    plain = load_plain(request["plain_module"])
    FACTS.append(load_plain(request["facts_module"]))
    import numpy  # noqa: F401 - loaded once, before any fork, so that every grandchild starts with it

    prepare_harnesses(request)
    if request.get("library") is not None:  # loaded before any lock-down: its file lies in tensorlab's folder
        LIBRARY_BUILDER.append(load_plain(request["library_module"]))
    for job in request["functions"]:
        grade_in_grandchild(request, job, plain, results)


if __name__ == "__main__":
    main()
