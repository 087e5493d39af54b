"""Out-of-kernel verification: run the graded functions in a sandbox child, judge their results here.

The grader never runs learner code. For each submission it starts one child process
(``sandbox.py``) with the learner's definitions and the cases' inputs as plain data; the child
imports NumPy once and forks a fresh, locked-down grandchild per graded function, so a crash, a
timeout or a memory blow-up costs only that function while Python starts once per notebook.
The child answers with plain data, and this process compares it with the reference's outcome,
strictly. A function scores all of its points when every case passes, else none (like an
nbgrader test cell).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from . import plain
from .compare import Raised
from .extract import Program, read_program
from .isolation import GRADER, WORKDIR, choose, wrap
from .misconceptions import fingerprint
from .rules import COMMON_NAMES, REFERENCE_MODULES, bound_names, closure, is_within
from .student_library import uses_library
from .tasks import Case, Rules
from .vectorised import loop_found

__all__ = ["FunctionResult", "Graded", "Grading", "NotebookResult", "verify_notebook", "verify_program"]

SANDBOX = Path(__file__).with_name("sandbox.py")
LIBRARY_MODULE = Path(__file__).with_name("library_module.py")
RESULT_FACTS = Path(__file__).with_name("result_facts.py")
SANDBOX_RANKS = Path(__file__).with_name("sandbox_ranks.py")


@dataclass(frozen=True)
class Graded:
    """One graded function of a notebook: how it is judged, its points and the nbgrader cell that holds them."""

    rules: Rules
    points: float
    grade_id: str = ""

    @property
    def name(self) -> str:
        return self.rules.name


@dataclass(frozen=True)
class Grading:
    """What is graded in one notebook, and the sandbox's limits per function."""

    notebook: str
    graded: tuple[Graded, ...]
    timeout: float = 10.0  # seconds per graded function (all of its cases)
    memory_mb: int = 1024
    # what ``import mytorch`` gives graded code (library_module.py's description): the grader's is the course's
    # solutions (ExerciseFolder.library), check()'s the student's own pieces; None: found by check()
    library: dict | None = field(default=None, compare=False, repr=False)

    @property
    def max_score(self) -> float:
        return sum(graded.points for graded in self.graded)

    def find(self, name: str) -> Graded:
        for graded in self.graded:
            if graded.name == name:
                return graded
        raise KeyError(f"no graded function called {name!r}; known: {', '.join(g.name for g in self.graded)}")


@dataclass
class FunctionResult:
    name: str
    score: float
    max_score: float
    outcome: str  # passed, wrong, missing, crashed, timed out, forbidden, unreadable (the notebook itself)
    message: str  # for the learner: never describes a hidden case's inputs
    cases_passed: int
    cases: int
    compute_seconds: float  # time spent inside the learner's function, for the benchmark
    hint: str = ""  # a question that points at the concept, for a failure (check() shows it when it repeats)
    fingerprint: str = ""  # for wrong values: the digest of its outcomes on the public cases (misconceptions.py)
    misconception: str = ""  # the known mistake those outcomes match, with its nudge ("" if none)
    # for wrong values, the first failing case, so feedback can show it beside the answer (feedback.py):
    failed_case: int = 0  # its number, from 1 (0: none); a public one is public case ``failed_case`` too
    failed_public: bool = False  # public: its call and clause may be shown; hidden: only ``problem``'s kind
    problem: str = ""  # what is wrong with its result (a hidden case's: the kind of mistake, never a value)

    @property
    def feedback(self) -> str:
        """The message with its hint: what the grader's feedback page says."""
        known = f"\n  known mistake: {self.misconception}" if self.misconception else ""
        return (f"{self.message}\n  hint:     {self.hint}" if self.hint else self.message) + known


@dataclass
class NotebookResult:
    functions: list[FunctionResult]
    broken_cells: list[str]
    isolation: str = "process"  # what ran the learner's code: "namespaces" or "process" (isolation.py)
    unreadable: str = ""  # why the file is not a notebook that can be read ("" when it was read)

    @property
    def score(self) -> float:
        return sum(result.score for result in self.functions)

    def to_json(self) -> dict:
        return {"functions": [asdict(result) for result in self.functions], "broken_cells": self.broken_cells,
                "isolation": self.isolation, "unreadable": self.unreadable}

    @classmethod
    def from_json(cls, data: dict) -> NotebookResult:
        return cls([FunctionResult(**result) for result in data["functions"]], data["broken_cells"],
                   str(data.get("isolation", "process")), str(data.get("unreadable", "")))


def child_environment(workdir: str) -> dict[str, str]:
    keep = {name: os.environ[name] for name in ("PATH", "LANG", "LC_ALL", "SYSTEMROOT") if name in os.environ}
    single_thread = dict.fromkeys(("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"), "1")
    return {**keep, **single_thread, "HOME": workdir, "TMPDIR": workdir, "PYTHONDONTWRITEBYTECODE": "1"}


SandboxRun = dict[str, tuple[list[dict], str]]  # function name -> (its case lines, how its process ended)
SHOWN = 300  # characters of a problem shown to a learner (a returned value can be megabytes)
START_SECONDS = 10.0  # the child's own start (Python, NumPy), on top of the functions' time


def run_in_sandbox(program: Program, jobs: list[tuple[Graded, list[Case]]], timeout: float, memory_mb: int,
                   isolation: str = "auto", library: dict | None = None) -> SandboxRun:
    """Every function's result lines and how its process ended: "exited", "timed out", "killed by SIG...".

    ``isolation`` (see isolation.py): "namespaces" runs the child under bubblewrap, "process" as a plain
    child, "auto" the first that works here. ``library``: the ``mytorch`` the learner's imports get, when
    the program imports it (library_module.py builds it in the sandbox).
    """
    timeout = max([timeout, *(graded.rules.at_least_seconds for graded, _ in jobs)])
    memory_mb = max([memory_mb, *(graded.rules.at_least_memory_mb for graded, _ in jobs)])
    in_namespaces = choose(isolation) == "namespaces"
    files = {"sandbox.py": str(SANDBOX), "plain.py": str(plain.__file__), "library_module.py": str(LIBRARY_MODULE),
             "result_facts.py": str(RESULT_FACTS), "sandbox_ranks.py": str(SANDBOX_RANKS)}
    harnesses = {graded.name: harness_location(graded.rules) for graded, _ in jobs}
    files.update({f"harness_{Path(found[0]).name}": found[0] for found in harnesses.values() if found})
    inside = {host: f"{GRADER}/{name}" if in_namespaces else host for name, host in files.items()}
    with tempfile.TemporaryDirectory(prefix="tensorlab-grade-") as root:
        workdir = Path(root, "work")
        workdir.mkdir()
        request = {
            "statements": program.sources,
            "functions": [
                {"function": graded.name, "cases": [plain.encode(case.arguments) for case in cases],
                 "statements": statements_used(program, graded.name),
                 "forbidden": list(graded.rules.forbidden), "view_of": graded.rules.view_of,
                 "no_mask_indexing": graded.rules.no_mask_indexing, "reference": reference_packages([(graded, cases)]),
                 "ranks": graded.rules.ranks, "harness": inside_harness(harnesses[graded.name], inside),
                 "allowed": None if graded.rules.allowed is None else [*COMMON_NAMES, *graded.rules.allowed],
                 "count_lines": graded.rules.vectorised and any(case.large for case in cases),
                 "fresh_result": graded.rules.fresh_result}
                for graded, cases in jobs
            ],
            "reference": reference_packages(jobs),
            "plain_module": inside[str(plain.__file__)],
            "facts_module": inside[str(RESULT_FACTS)],
            "ranks_module": inside[str(SANDBOX_RANKS)],
            "library": library if library is not None and uses_library(program) else None,
            "library_module": inside[str(LIBRARY_MODULE)],
            "timeout": timeout,
            "cpu_seconds": max(1, int(timeout) + 1),
            "memory_bytes": memory_mb << 20,
        }
        if in_namespaces:
            command = wrap([sys.executable, "-I", inside[str(SANDBOX)]], {name: host for name, host in files.items()},
                           child_environment(WORKDIR))
            environment = {name: os.environ[name] for name in ("PATH", "LANG") if name in os.environ}
        else:
            command, environment = [sys.executable, "-I", str(SANDBOX)], child_environment(str(workdir))
        results_path = Path(root, "results.jsonl")
        with results_path.open("wb") as results:
            child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=results, stderr=subprocess.DEVNULL,
                                     cwd=workdir, env=environment, start_new_session=True)
            ending = "exited"
            try:
                child.communicate(json.dumps(request).encode(), timeout=START_SECONDS + (timeout + 1) * len(jobs))
            except subprocess.TimeoutExpired:
                ending = "timed out"
            finally:
                try:
                    os.killpg(child.pid, signal.SIGKILL)  # the child, its grandchildren, anything left behind
                except ProcessLookupError:
                    pass
                child.wait()
            ending = how_it_ended(ending, child.returncode, in_namespaces)
        return parse_results(results_path.read_text(errors="replace"), [graded.name for graded, _ in jobs], ending)


def inside_harness(found: list[str] | None, inside: dict[str, str]) -> list[str] | None:
    """A harness's [file, function] as the sandbox child sees the file."""
    return [inside[found[0]], found[1]] if found else None


def how_it_ended(ending: str, returncode: int, in_namespaces: bool) -> str:
    """ "exited", "timed out", "killed by SIG...", "exited with status N" (bwrap reports a signal as 128 + N)."""
    if ending != "exited":
        return ending
    if in_namespaces and returncode > 128 and returncode - 128 in signal.valid_signals():
        returncode = -(returncode - 128)
    if returncode < 0:
        return f"killed by {signal.Signals(-returncode).name}"
    if returncode != 0:
        return f"exited with status {returncode}"
    return ending


def statements_used(program: Program, function: str) -> list[int]:
    """The positions, in notebook order, of the statements ``function`` needs: only those run."""
    used = {id(statement) for statement in closure(program.statements, function)}
    return [number for number, statement in enumerate(program.statements) if id(statement) in used]


def harness_location(rules: Rules) -> list[str] | None:
    """Where the sandbox finds a function's harness (a file it loads by path, and a function name)."""
    if rules.harness is None:
        return None
    import importlib.util

    module, _, function = rules.harness.partition(":")
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None or not function:
        raise ValueError(f"harness {rules.harness!r} of {rules.name} is not a module:function that can be found")
    return [spec.origin, function]


def reference_packages(jobs: list[tuple[Graded, list[Case]]]) -> list[str]:
    """The packages graded code may not import or read: the reference, unless every graded function allows it."""
    return [package for package in REFERENCE_MODULES
            if not all(is_within(package, graded.rules.building_blocks) for graded, _ in jobs)]


def parse_results(text: str, names: list[str], child_ending: str) -> SandboxRun:
    """Sort the child's lines by function; a function it never finished ends the way the child did."""
    lines: dict[str, list[dict]] = {name: [] for name in names}
    endings: dict[str, str] = {}
    for row in text.splitlines():
        try:
            record = json.loads(row)
            name = record["function"]
        except (json.JSONDecodeError, KeyError, TypeError):
            break
        if name not in lines or name in endings:
            continue
        if "ending" in record:
            endings[name] = str(record["ending"])
        elif isinstance(record.get("case"), dict):
            lines[name].append(record["case"])
    return {name: (lines[name], endings.get(name, child_ending)) for name in names}


def outcome_of(line: dict) -> Any:
    """The learner's result as trusted plain data (or a Raised); a NotPlain marker otherwise."""
    if "raised" in line:
        return Raised(str(line["raised"]), str(line.get("message", "")))
    if "not_plain" in line:
        return NotPlain(str(line["not_plain"]))
    try:
        return plain.decode(line["value"])
    except Exception:  # malformed data from the child is the learner's problem, not the grader's
        return NotPlain("malformed data")


@dataclass(frozen=True)
class NotPlain:
    type_name: str


def outcome_key(outcome: Any) -> Any:
    """An outcome as the fingerprint reads it: a value, or what kind of failure it was."""
    if isinstance(outcome, Raised):
        return ["raised", outcome.exception]
    if isinstance(outcome, NotPlain):
        return ["not plain", outcome.type_name]
    return outcome


def hidden_summary(problem: str) -> str:
    """What went wrong in a hidden case, without its inputs or values."""
    for key, summary in (("grows with the input", "a loop over elements (its line count grows with the input)"),
                         ("shape", "wrong shape"), ("dtype", "wrong dtype"), ("raised", "an unexpected exception"),
                         ("to be raised", "no exception where one was expected"), ("message", "wrong error message"),
                         ("values differ", "wrong values"), ("expected", "wrong result")):
        if key in problem:
            return summary
    return "wrong result"


def case_problem(rules: Rules, case: Case, line: dict, got: Any, small_lines: int = 0) -> str | None:
    """What is wrong with one case's answer: a loop on the large case, its value, then the promises around it
    (inputs, view). ``small_lines``: the most lines of learner code any small case ran."""
    lines = line.get("lines")
    if case.large and isinstance(lines, int) and loop_found(small_lines, lines):
        return (f"its own code ran {lines} lines on a large input, where no small case needed more than "
                f"{small_lines}: the work grows with the input, so it loops over elements in Python (in whatever "
                "form); a vectorised version runs the same few lines on every size")
    if isinstance(got, NotPlain):
        return f"returned a {got.type_name}; the grader accepts only plain data (NumPy arrays, numbers, tuples, lists, dicts)"
    problem = rules.problem(case.arguments, case.expected, got)
    if problem:
        return problem
    changed = [index for index in line.get("changed", []) if isinstance(index, int)]
    if rules.keeps_inputs and changed:
        names = ", ".join(f"argument {index + 1}" for index in changed)
        return f"the right result, but the call changed its input ({names}); inputs must be left unchanged"
    if rules.fresh_result and line.get("shares_input"):
        return "the right values, but in an input's memory (the input itself, or a view of it): the statement asks for a new array"
    if case.view_strides is not None:
        view = line.get("view") or {}
        if not view.get("shares"):
            return "the right values, but a copy: the statement asks for a view that shares the input's memory (no copy)"
        if view.get("strides") != list(case.view_strides):
            return (f"a view, but with strides {tuple(view.get('strides') or ())} where {case.view_strides} are right "
                    "(a stretched dimension has stride 0)")
        if rules.returns_itself and view.get("itself") is False:
            return ("the right values in the input's memory, but a new array object viewing it: the statement asks "
                    "for the argument itself back, as an in-place op returns it")
    return None


def most_small_lines(cases: list[Case], lines: list[dict]) -> int:
    """The most lines of learner code a small case ran (what the large case is compared with)."""
    counts = [line["lines"] for case, line in zip(cases, lines, strict=False)
              if not case.large and isinstance(line.get("lines"), int)]
    return max(counts, default=0)


def judge(graded: Graded, cases: list[Case], lines: list[dict], ending: str, timeout: float) -> FunctionResult:
    rules, points = graded.rules, graded.points
    seconds = float(sum(line.get("seconds", 0.0) for line in lines if isinstance(line.get("seconds"), (int, float))))

    def result(outcome: str, message: str, passed: int, problem: str = "") -> FunctionResult:
        score = points if outcome == "passed" else 0.0
        if outcome != "wrong":  # a hint, a fingerprint and a known mistake are for wrong values only
            return FunctionResult(graded.name, score, points, outcome, message, passed, len(cases), seconds)
        digest = fingerprint([outcome_key(outcome_of(line)) for case, line in zip(cases, lines, strict=False)
                              if case.visible])
        known = next((name.replace("-", " ") + (f": {nudge}" if nudge else "") for found, name, nudge in rules.misconceptions
                      if found == digest), "")
        return FunctionResult(graded.name, score, points, outcome, message, passed, len(cases), seconds, rules.hint,
                              digest, known, passed + 1, cases[passed].visible, problem)

    called = sorted({name for line in lines for name in line.get("forbidden_called", [])})
    if called:
        return result("forbidden", f"uses {', '.join(called)}, which this part does not allow (it asks you to "
                      "write that yourself, from its building blocks)", 0)
    small_lines = most_small_lines(cases, lines)
    for number, (case, line) in enumerate(zip(cases, lines, strict=False)):
        got = outcome_of(line)
        if isinstance(got, Raised) and got.exception == "NameError" and f"'{graded.name}'" in got.message:
            return result("missing", f"{graded.name} is not defined (check its name and that its cell runs)", 0)
        if isinstance(got, Raised) and got.exception == "NotImplementedError" and not isinstance(case.expected, Raised):
            return result("missing", f"{graded.name} is not written yet (it raises NotImplementedError)", number)
        problem = case_problem(rules, case, line, got, small_lines)
        if problem:
            problem = problem if len(problem) <= SHOWN else problem[:SHOWN - 1] + "…"  # what a learner reads stays short
            if case.visible:
                said = f"\n  statement: {case.clause}" if case.clause else ""
                message = (f"case {number + 1} of {len(cases)} failed\n  call:     {rules.describe_call(case.arguments, number + 1)}"
                           f"\n  problem:  {problem}{said}")
            else:
                problem = hidden_summary(problem)
                message = f"passes every public case but fails hidden case {number + 1} of {len(cases)}: {problem}"
            return result("wrong", message, number, problem)
    if len(lines) < len(cases):
        where = f"while running case {len(lines) + 1} of {len(cases)}"
        if ending == "timed out":
            return result("timed out", f"took longer than {timeout:g} s {where} (an endless loop?)", len(lines))
        return result("crashed", f"the process running it stopped ({ending}) {where}", len(lines))
    return result("passed", f"all {len(cases)} cases pass", len(cases))


def verify_program(program: Program, exercise: Grading, cases: dict[str, list[Case]], timeout: float | None = None,
                   isolation: str = "auto") -> NotebookResult:
    """Grade every function of ``exercise`` defined by ``program``: one sandbox child, one grandchild per function."""
    timeout = timeout or exercise.timeout
    isolation = choose(isolation)
    early: dict[str, FunctionResult] = {}  # decided from the source alone, without running anything
    for graded in exercise.graded:
        rules = graded.rules
        violations = rules.violations(program.statements)
        if violations:
            early[graded.name] = FunctionResult(graded.name, 0.0, graded.points, "forbidden", "; ".join(violations), 0, len(cases[graded.name]), 0.0)
        elif not any(graded.name in {getattr(s, "name", None)} or graded.name in bound_names(s) for s in program.statements):
            early[graded.name] = FunctionResult(graded.name, 0.0, graded.points, "missing", f"{graded.name} is not defined", 0, len(cases[graded.name]), 0.0)
    to_run = [(graded, cases[graded.name]) for graded in exercise.graded if graded.name not in early]
    ran = run_in_sandbox(program, to_run, timeout, exercise.memory_mb, isolation, exercise.library) if to_run else {}
    results = [
        early[graded.name] if graded.name in early
        else judge(graded, cases[graded.name], *ran[graded.name], timeout)
        for graded in exercise.graded
    ]
    return NotebookResult(results, program.broken_cells, isolation)


def verify_notebook(path: Path, exercise: Grading, cases: dict[str, list[Case]], timeout: float | None = None,
                    isolation: str = "auto") -> NotebookResult:
    """Grade a saved notebook; a file that is not one (not JSON, not a notebook) scores zero as "unreadable", with
    the reason, so feedback and the report can tell it from a notebook whose functions are wrong or missing."""
    try:
        program = read_program(path)
    except Exception as error:  # whatever nbformat or a damaged notebook raises: the learner's file, not the grader
        return unreadable_result(exercise, cases, f"{type(error).__name__}: {error}", choose(isolation))
    return verify_program(program, exercise, cases, timeout, isolation)


def unreadable_result(exercise: Grading, cases: dict[str, list[Case]], reason: str, isolation: str) -> NotebookResult:
    """Every function zero, each saying why: nothing ran, since nothing could be read."""
    reason = reason if len(reason) <= SHOWN else reason[:SHOWN - 1] + "…"  # nbformat quotes the file's start
    message = f"the notebook could not be read ({reason}): save it from Jupyter as .ipynb and submit it again"
    return NotebookResult([FunctionResult(graded.name, 0.0, graded.points, "unreadable", message, 0,
                                          len(cases[graded.name]), 0.0) for graded in exercise.graded],
                          [], isolation, reason)

