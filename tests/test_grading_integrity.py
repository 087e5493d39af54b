"""Grading that cannot be fooled: loops counted, not timed; allow-lists at run time; promises about new
arrays; every public case in the grade; feedback in tiers, a known mistake named, a failure drawn.

These run the real sandbox on small made-up tasks, with the static rules left out where a test needs
the run-time half alone (a static reading can be dodged; the count and the stand-in module cannot).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tensorlab.grading import CheckFailed, Tolerance, plain, public_case
from tensorlab.grading.check import SEEN_FAILURES, check_cells
from tensorlab.grading.compare import difference, pasteable
from tensorlab.grading.extract import program_of
from tensorlab.grading.tasks import Case, Task
from tensorlab.grading.vectorised import loop_found
from tensorlab.grading.verify import Graded, Grading, judge, run_in_sandbox, verify_program


def doubled_task(**changes: object) -> Task:
    task = Task(name="double", hint="what does one call on the whole array do?", reference=lambda x: x * 2,
                examples=[(np.arange(3.0),)], random_case=lambda rng: (rng.normal(size=int(rng.integers(1, 6))),),
                large_case=lambda rng: (rng.normal(size=3000),), vectorised=True)
    return replace(task, **changes)


def grade(task: Task, source: str, static: bool = True) -> tuple[str, str]:
    """The outcome and message of ``source`` graded on the task's public cases (static rules optional)."""
    program = program_of({1: source})
    cases = task.public_cases()
    if static:
        result = verify_program(program, Grading("n", (Graded(task.rules(), 1.0),)), {task.name: cases}).functions[0]
        return result.outcome, result.message
    graded = Graded(task.rules(), 1.0)
    lines, ending = run_in_sandbox(program, [(graded, cases)], 10.0, 1024)[task.name]
    result = judge(graded, cases, lines, ending, 10.0)
    return result.outcome, result.message


HIDDEN_LOOPS = {
    "recursion through an argument": "import numpy as np\ndef step(x, i, again):\n    if i == len(x):\n        return x[:0]\n"
                                     "    return np.concatenate([x[i:i + 1] * 2, again(x, i + 1, again)])\n"
                                     "def double(x):\n    return step(x, 0, step)",
    "a key callback": "import numpy as np\ndef double(x):\n    order = sorted(range(len(x)), key=lambda i: i)\n"
                      "    return x[np.array(order, dtype=int)] * 2 if len(x) else x * 2",
    "a while loop": "import numpy as np\ndef double(x):\n    out = x.copy()\n    i = 0\n    while i < len(x):\n"
                    "        out[i] = 2 * x[i]\n        i += 1\n    return out",
}


@pytest.mark.parametrize("kind", HIDDEN_LOOPS)
def test_a_loop_the_static_reading_misses_is_caught_by_its_line_count(kind: str) -> None:
    outcome, message = grade(doubled_task(), HIDDEN_LOOPS[kind], static=False)
    assert outcome == "wrong" and "grows with the input" in message, message


def test_vectorised_code_and_loops_over_dimensions_pass_the_count() -> None:
    over_dimensions = ("import numpy as np\ndef double(x):\n    out = x\n    for axis in range(x.ndim):\n"
                       "        out = np.flip(np.flip(out, axis), axis)\n    return out * 2")
    task = doubled_task(loops_over_dimensions=True, allowed=("flip",))
    assert grade(task, over_dimensions) == ("passed", f"all {len(task.public_cases())} cases pass")
    assert grade(doubled_task(), "def double(x):\n    return x + x")[0] == "passed"


def test_no_verdict_depends_on_the_clock() -> None:
    """A large case that took an hour but ran three lines passes; one that ran in no time but counted
    thousands of lines fails: only the count is read."""
    task = doubled_task()
    graded, cases = Graded(task.rules(), 1.0), task.public_cases()

    def lines(large_lines: int, seconds: float) -> list[dict]:
        return [{"value": {"ndarray": None}, "seconds": seconds, "lines": large_lines if case.large else 3}
                for case in cases]

    def verdict(large_lines: int, seconds: float) -> str:
        rows = lines(large_lines, seconds)
        for row, case in zip(rows, cases, strict=True):
            row["value"] = plain.encode(case.expected)
        return judge(graded, cases, rows, "exited", 10.0).outcome

    assert verdict(3, 3600.0) == "passed"
    assert verdict(5000, 0.0) == "wrong"
    assert loop_found(small_lines=10, large_lines=141) and not loop_found(small_lines=10, large_lines=140)


def test_the_allow_list_holds_at_run_time_too() -> None:
    """With the static rules out of the way, the learner's ``import numpy`` still holds only the allowed names."""
    task = doubled_task(allowed=("multiply",), vectorised=False)
    outcome, message = grade(task, "import numpy as np\ndef double(x):\n    return np.cumsum(x) * 0 + x * 2", static=False)
    assert outcome == "forbidden" and "numpy.cumsum" in message, message
    assert grade(task, "import numpy as np\ndef double(x):\n    return np.multiply(x, 2)", static=False)[0] == "passed"
    from_import = "from numpy import add\ndef double(x):\n    return add(x, x)"
    assert grade(task, from_import, static=False)[0] == "forbidden"


def test_a_promised_new_array_refuses_the_input_and_its_views() -> None:
    task = doubled_task(reference=lambda x: x.copy(), fresh_result=True, vectorised=False)
    assert grade(task, "def double(x):\n    return x")[0] == "wrong"
    assert grade(task, "def double(x):\n    return x[:]")[0] == "wrong"
    assert grade(task, "def double(x):\n    return x.copy()")[0] == "passed"


def test_an_in_place_op_returns_its_argument_itself_not_a_new_view_of_it() -> None:
    def doubled_in_place(x: np.ndarray) -> np.ndarray:
        return x * 2

    task = doubled_task(reference=doubled_in_place, keeps_inputs=False, view_of=0, returns_itself=True, vectorised=False,
                        view_strides=lambda x: tuple(stride // x.itemsize for stride in x.strides))
    outcome, message = grade(task, "def double(x):\n    x *= 2\n    return x[...]")
    assert outcome == "wrong" and "argument itself" in message, message
    assert grade(task, "def double(x):\n    x *= 2\n    return x")[0] == "passed"


def test_masking_an_array_the_allowed_functions_made_is_masking_too() -> None:
    """``np.arange(n)[mask]`` is ``x[mask]`` on another array: with ``no_mask_indexing`` the stand-in's results refuse it."""
    task = doubled_task(name="pick", reference=lambda x, mask: x[mask], no_mask_indexing=True, vectorised=False,
                        allowed=("arange", "take"), examples=[(np.arange(4.0), np.array([True, False, True, True]))],
                        random_case=lambda rng: (rng.normal(size=5), rng.random(5) < 0.5))
    masked_arange = "import numpy as np\ndef pick(x, mask):\n    return x.take(np.arange(len(x))[mask])"
    outcome, message = grade(task, masked_arange, static=False)
    assert outcome == "forbidden" and "boolean-mask" in message, message


def test_types_and_signed_zero_compared_where_the_statement_promises_them() -> None:
    assert difference(np.array(1.0), np.float64(1.0)) is None  # reductions return NumPy scalars: accepted by default
    assert "expected numpy.ndarray" in str(difference(np.array(1.0), np.float64(1.0), Tolerance(scalar_for_0d=False)))
    assert difference(np.array([0.0]), np.array([-0.0])) is None
    assert difference(np.array([0.0]), np.array([-0.0]), Tolerance(signed_zero=True)) is not None
    assert difference(-0.0, 0.0, Tolerance(signed_zero=True)) is not None


@pytest.mark.parametrize("value", [np.array([[1.5, -0.1], [np.inf, np.nan]]), np.arange(3, dtype=np.int32),
                                   (np.zeros((0, 2)), 3, [1.0, float("-inf")], {"k": np.bool_(True)}), np.float32(0.1)])
def test_a_failing_input_is_printed_whole_and_pastes_back(value: object) -> None:
    rebuilt = eval(pasteable(value), {"np": np})
    assert difference(value, rebuilt) is None or (isinstance(value, np.generic) and rebuilt == value)


def test_feedback_comes_in_tiers(tmp_path: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """First the call and the problem; the same failure again adds the hint's question; a long input is
    named by its case number, and public_case gives it back."""
    from autograder.exercise import ExerciseFolder  # noqa: F401 - the public file is written as a course writes it
    from tensorlab.grading.public_cases import encode_document

    task = doubled_task()
    grading = Grading("n", (Graded(task.rules(), 1.0),))
    path = tmp_path / "tensorlab-cases.json"  # type: ignore[operator]
    import json

    path.write_text(json.dumps(encode_document(grading, {"double": task.public_cases()})))
    monkeypatch.setenv("TENSORLAB_CASES", str(path))
    SEEN_FAILURES.clear()
    wrong = {1: "def double(x):\n    return x * 3"}
    with pytest.raises(CheckFailed) as first:
        check_cells("double", wrong)
    assert "double(np.array([0.0, 1.0, 2.0], dtype=np.float64))" in str(first.value) and "think:" not in str(first.value)
    with pytest.raises(CheckFailed) as second:
        check_cells("double", wrong)
    assert f"think:    {task.hint}" in str(second.value)
    large = len(task.public_cases())
    assert public_case("double", large)[0].shape == (3000,)
    with pytest.raises(CheckFailed, match="public cases 1 to"):
        public_case("double", large + 1)
    with pytest.raises(CheckFailed, match="grows with the input"):  # the released file keeps the large case large
        check_cells("double", {1: HIDDEN_LOOPS["recursion through an argument"]})
    only_large = {1: "def double(x):\n    return x * 2 if len(x) < 100 else x"}
    with pytest.raises(CheckFailed, match=rf"public_case\('double', {large}\)"):
        check_cells("double", only_large)


def test_the_grade_includes_every_public_case() -> None:
    """A bug in a public case costs the points even when the secret seed's cases miss it."""
    task = doubled_task()
    cases = task.graded_cases(seed=7)
    public = task.public_cases()
    assert len(cases) > len(public)
    assert all(difference(a.arguments, b.arguments) is None for a, b in zip(cases, public, strict=False))
    assert all(not case.visible for case in cases[len(public):] if not case.large)
    assert isinstance(cases[0], Case)


def test_a_third_failure_names_the_known_mistake_it_repeats(tmp_path: pytest.TempPathFactory,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A learner's outcomes equal to a mutant's on every public case: the mistake is named, with its nudge;
    a different wrong answer is not given that name."""
    import json

    from tensorlab.grading.public_cases import encode_document

    task = doubled_task()
    tripled = verify_program(program_of({1: "def double(x):\n    return x * 3"}),
                             Grading("n", (Graded(task.rules(), 1.0),)), {"double": task.public_cases()}).functions[0]
    assert tripled.outcome == "wrong" and tripled.fingerprint
    rules = replace(task.rules(), misconceptions=((tripled.fingerprint, "triples-instead", "how many copies of x?"),))
    path = tmp_path / "tensorlab-cases.json"  # type: ignore[operator]
    path.write_text(json.dumps(encode_document(Grading("n", (Graded(rules, 1.0),)), {"double": task.public_cases()})))
    monkeypatch.setenv("TENSORLAB_CASES", str(path))
    SEEN_FAILURES.clear()
    messages = []
    for source in ["def double(x):\n    return 3 * x"] * 3 + ["def double(x):\n    return x * 4"] * 3:
        with pytest.raises(CheckFailed) as failed:
            check_cells("double", {1: source})
        messages.append(str(failed.value))
    assert ["known mistake" in message for message in messages] == [False, False, True, False, False, False]
    assert "known mistake: triples instead: how many copies of x?" in messages[2]


def test_a_failing_puzzle_is_drawn_with_the_wrong_cells_in_red() -> None:
    from tensorlab.grading.drawing import failure_svg
    from tensorlab.widgets.svg import COLOURS

    picture = failure_svg((np.arange(4),), np.array([0, 1, 1, 2]), np.array([0, 1, 2, 3]))
    assert picture is not None and picture.count(f'stroke="{COLOURS["error"]}"') == 2
    assert "expected" in picture and "got" in picture and "argument 1" in picture
    assert failure_svg((), np.zeros(100), np.ones(100)) is None  # too big to read as a picture
    assert failure_svg((), 1.0, 2.0) is None


def test_a_new_array_is_new_even_when_the_inputs_come_in_a_list() -> None:
    task = doubled_task(name="join", reference=lambda arrays: np.concatenate(arrays), fresh_result=True, vectorised=False,
                        examples=[([np.arange(3.0)],)], random_case=lambda rng: ([rng.normal(size=2)],))
    assert grade(task, "def join(arrays):\n    return arrays[0]")[0] == "wrong"
    assert grade(task, "import numpy as np\ndef join(arrays):\n    return np.concatenate(arrays)")[0] == "passed"


def test_a_nan_has_no_promised_sign_and_a_returned_input_list_is_not_new() -> None:
    assert difference(np.array([np.nan, -0.0]), np.array([-np.nan, -0.0]), Tolerance(signed_zero=True)) is None
    task = doubled_task(name="renamed", reference=lambda items: list(items), fresh_result=True, vectorised=False,
                        examples=[([1, 2],)], random_case=lambda rng: ([int(rng.integers(0, 9))],))
    assert grade(task, "def renamed(items):\n    return items")[0] == "wrong"
    assert grade(task, "def renamed(items):\n    return list(items)")[0] == "passed"


def test_the_screens_in_the_students_guide_are_what_check_prints(tmp_path: pytest.TempPathFactory,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/students.md shows the three tiers for unit 04's 'larger size wins' mistake: each shown line is printed."""
    import re
    from pathlib import Path

    from autograder.exercise import load_folder

    folder = load_folder(Path(__file__).parent.parent / "exercises" / "04-broadcasting")
    path = tmp_path / "tensorlab-cases.json"  # type: ignore[operator]
    path.write_text(folder.public_text())
    monkeypatch.setenv("TENSORLAB_CASES", str(path))
    SEEN_FAILURES.clear()
    mutant = next(m for m in folder.mutants() if m.mistake == "larger-size-wins")
    printed = []
    for _ in range(3):
        with pytest.raises(CheckFailed) as failed:
            check_cells("broadcast_shape", {1: mutant.source})
        printed.append(" ".join(str(failed.value).split()))
    guide = (Path(__file__).parent.parent / "docs" / "students.md").read_text()
    screens = re.findall(r"```\n(.*?)```", guide[guide.index("### Check"):guide.index("### Submit")], re.DOTALL)
    for screen, shown in zip(screens[:3], printed, strict=True):
        assert " ".join(screen.split()) in shown, (screen, shown)


def test_the_ring_harness_records_what_was_sent_and_refuses_a_broken_protocol() -> None:
    """Unit 16's ring is run by the grader: the messages are its record, and a rank that breaks the lock-step
    ring raises (naming the rank) instead of hanging."""
    from tensorlab.grading.harnesses.ring import run_ring

    def forward_once(rank: int, world_size: int, data: np.ndarray, ring: object) -> np.ndarray:
        index, received = ring.exchange(rank, data)  # type: ignore[attr-defined]
        return np.concatenate([data, received]) if index != rank else data

    results, messages = run_ring(forward_once, [np.array([1.0]), np.array([2.0]), np.array([3.0])])
    assert [list(r) for r in results] == [[1.0, 3.0], [2.0, 1.0], [3.0, 2.0]]
    assert messages == [(0, 0, 1, 0, 8), (0, 1, 2, 1, 8), (0, 2, 0, 2, 8)]

    def one_step_too_many(rank: int, world_size: int, data: np.ndarray, ring: object) -> np.ndarray:
        for _ in range(2 if rank == 1 else 1):
            ring.exchange(rank, data)  # type: ignore[attr-defined]
        return data

    with pytest.raises(RuntimeError, match="rank"):
        run_ring(one_step_too_many, [np.zeros(1)] * 3)
    with pytest.raises(TypeError):
        run_ring(lambda rank, n, data, ring: ring.exchange(0, [1.0]), [np.zeros(1)] * 2)


def test_check_draws_a_small_failing_case_in_a_notebook_and_runs_nothing_for_a_large_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import IPython
    import IPython.display

    from tensorlab.grading.check import draw_failure

    shown: list[object] = []
    monkeypatch.setattr(IPython, "get_ipython", lambda: object())  # as inside a notebook's kernel
    monkeypatch.setattr(IPython.display, "display", shown.append)
    calls: list[int] = []

    def tripled(x: np.ndarray) -> np.ndarray:
        calls.append(x.size)
        return x * 3

    cases = doubled_task().public_cases()
    draw_failure(tripled, cases, 0)
    assert len(shown) == 1 and "<svg" in shown[0].data  # type: ignore[attr-defined]
    draw_failure(tripled, cases, len(cases) - 1)  # the large case: too big to draw, so not run in the kernel
    assert calls == [3] and len(shown) == 1
