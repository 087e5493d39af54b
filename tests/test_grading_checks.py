"""tensorlab.grading's pieces: references agree with torch, strict comparison, in-kernel checks, sandbox guards."""

from __future__ import annotations

import ast
import json
import textwrap

import numpy as np
import pytest
import torch

from autograder.extract import Program
from autograder.spec import Exercise, Graded
from autograder.verify import exercise_cases, judge, run_in_sandbox
from tensorlab.grading import CheckFailed, Raised, check, difference, find_task
from tensorlab.grading.plain import NotPlainData, decode, encode, keeps_layout
from tensorlab.grading.tasks import expected_outcome


def torch_gather(x: np.ndarray, dim: int, index: np.ndarray) -> np.ndarray:
    return torch.gather(torch.from_numpy(x), dim, torch.from_numpy(index)).numpy()


def torch_scatter_add(x: np.ndarray, dim: int, index: np.ndarray, src: np.ndarray) -> np.ndarray:
    return torch.from_numpy(x).scatter_add(dim, torch.from_numpy(index), torch.from_numpy(src)).numpy()


TORCH_REFERENCES = {
    "broadcast_shape": lambda a, b: tuple(torch.broadcast_shapes(a, b)),
    "broadcast_add": lambda a, b: (torch.from_numpy(a) + torch.from_numpy(b)).numpy(),
    "expand_to": lambda x, shape: torch.from_numpy(x).expand(shape).numpy().copy(),
    "gather_loops": torch_gather,
    "gather_vectorised": torch_gather,
    "scatter_add_loops": torch_scatter_add,
    "scatter_add_vectorised": torch_scatter_add,
    "sum_to_shape": lambda g, shape: torch.from_numpy(g).sum_to_size(shape).numpy().copy() if shape else np.asarray(g.sum()),
}


@pytest.mark.parametrize("name", TORCH_REFERENCES)
def test_references_agree_with_torch(name: str) -> None:
    task = find_task(name)
    for case in task.arguments(seed=3, random_cases=30):
        ours = expected_outcome(task, case)
        try:
            theirs = TORCH_REFERENCES[name](*case)
        except RuntimeError as error:
            theirs = Raised("RuntimeError", str(error))
        if isinstance(ours, Raised):
            assert isinstance(theirs, Raised) and ours.exception == theirs.exception, case
            if name == "broadcast_add":
                assert ours.message == theirs.message
        else:
            assert difference(theirs, ours) is None, (case, ours, theirs)


@pytest.mark.parametrize("name", ["gather_loops", "scatter_add_loops"])
def test_gather_scatter_cases_of_every_kind_agree_with_torch(name: str) -> None:
    """Zero-size dims, negative dims, int dtypes and non-contiguous views all occur, and torch agrees on each."""
    task = find_task(name)
    kinds: set[str] = set()
    for case in task.arguments(seed=5, random_cases=200):
        x, dim, *others = case
        arrays = (x, *others)
        if any(array.size == 0 for array in arrays):
            kinds.add("zero-size")
        if dim < 0:
            kinds.add("negative dim")
        if x.dtype.kind == "i":
            kinds.add("int")
        if any(keeps_layout(array) for array in arrays):
            kinds.add("strided")
        assert difference(TORCH_REFERENCES[name](*case), expected_outcome(task, case)) is None, case
    assert kinds == {"zero-size", "negative dim", "int", "strided"}


@pytest.mark.parametrize("name", ["gather_vectorised", "scatter_add_vectorised"])
def test_timed_cases_agree_with_torch(name: str) -> None:
    task = find_task(name)
    assert task.timed_case is not None
    case = task.timed_case(task.rng(0))
    assert case[2].size >= 300_000
    assert difference(TORCH_REFERENCES[name](*case), expected_outcome(task, case)) is None


def test_backward_references_agree_with_torch() -> None:
    task = find_task("mul_backward")
    for grad, x, y in task.arguments(seed=3, random_cases=20):
        a, b = torch.tensor(x, requires_grad=True), torch.tensor(y, requires_grad=True)
        (a * b).backward(torch.from_numpy(grad))
        assert difference((a.grad.numpy(), b.grad.numpy()), expected_outcome(task, (grad, x, y)), task.tolerance) is None


def test_plain_data_round_trips_and_refuses_objects() -> None:
    value = {"a": (1, 2.5, [np.arange(3), np.array(2.0)]), "b": None}
    assert difference(value, decode(encode(value))) is None
    for not_plain in (object(), np.zeros(2).view(np.matrix), type("T", (tuple,), {})(), torch.zeros(2)):
        with pytest.raises(NotPlainData):
            encode(not_plain)


def test_difference_is_strict_and_readable() -> None:
    assert "expected tuple" in difference((2, 3), [2, 3])
    assert "dtype" in difference(np.zeros(2), np.zeros(2, np.float32))
    assert "index (1,)" in difference(np.array([1.0, 2.0]), np.array([1.0, 5.0]))


def test_in_kernel_check_passes_warning_code_and_explains_failures() -> None:
    def broadcast_shape(a, b):
        import warnings

        warnings.warn("noisy but right", UserWarning, stacklevel=1)
        ndim = max(len(a), len(b))
        a, b = (1,) * (ndim - len(a)) + tuple(a), (1,) * (ndim - len(b)) + tuple(b)
        if any(x != y and 1 not in (x, y) for x, y in zip(a, b, strict=True)):
            raise RuntimeError("clash")
        return tuple(x if y == 1 else y for x, y in zip(a, b, strict=True))

    check("broadcast_shape", broadcast_shape)


def test_in_kernel_check_explains_a_wrong_type() -> None:
    def broadcast_shape(a, b):
        ndim = max(len(a), len(b))
        a, b = (1,) * (ndim - len(a)) + tuple(a), (1,) * (ndim - len(b)) + tuple(b)
        return [x if y == 1 else y for x, y in zip(a, b, strict=True)]

    with pytest.raises(CheckFailed, match="expected tuple"):
        check("broadcast_shape", broadcast_shape)


def sandboxed(source: str, name: str = "broadcast_shape") -> str:
    """The outcome of running ``source`` in the sandbox, past the static rules (to test the run-time guards)."""
    tree = ast.parse(source)
    program = Program(tree.body, [ast.unparse(s) for s in tree.body])
    graded = Graded(name, 1, random_cases=0)
    cases = exercise_cases(Exercise(notebook="x", graded=(graded,), timeout=5), 1)
    lines, ending = run_in_sandbox(program, [(graded, cases[name])], 5, 1024)[name]
    return judge(graded, cases[name], lines, ending, 5).outcome


@pytest.mark.parametrize("attack", [
    "import socket\n    socket.create_connection(('127.0.0.1', 9))",
    "open('/tmp/tensorlab-sandbox-escape', 'w').write('x')",
    "import subprocess\n    subprocess.run(['true'])",
])
def test_sandbox_refuses_network_processes_and_outside_writes(attack: str) -> None:
    source = f"def broadcast_shape(a, b):\n    {attack}\n    return (3, 4)"
    assert sandboxed(source) == "wrong"  # the attempt raises PermissionError inside the child


def test_sandbox_refuses_a_forbidden_function_reached_at_run_time() -> None:
    source = "import numpy as np\ndef broadcast_shape(a, b):\n    return tuple(int(s) for s in getattr(np, 'broadcast_' + 'shapes')(a, b))"
    assert sandboxed(source) == "forbidden"


@pytest.mark.parametrize("reach", [
    "import tensorlab\n    return tuple(tensorlab.broadcast_shapes(a, b))",
    "import importlib\n    return tuple(importlib.import_module('tensor' + 'lab').broadcast_shapes(a, b))",
    "import torch\n    return tuple(torch.broadcast_shapes(a, b))",
    "import sys, importlib.util\n    spec = importlib.util.find_spec('tensorlab')\n    "
    "exec(open(spec.origin).read(), {})\n    return (1,)",
])
def test_sandbox_refuses_the_reference_however_it_is_reached(reach: str) -> None:
    assert sandboxed(f"def broadcast_shape(a, b):\n    {reach}") == "forbidden"


def test_one_functions_process_cannot_forge_or_break_anothers_results() -> None:
    """Each function runs in its own forked process that holds only its own result pipe."""
    forged = json.dumps({"function": "broadcast_add", "ending": "exited"}) + "\n"  # would hide its results
    source = textwrap.dedent(f"""
        import os
        def broadcast_shape(a, b):
            for fd in range(256):
                try:
                    os.write(fd, {forged!r}.encode())
                except OSError:
                    pass
            return (1,)
        def expand_to(x, shape):
            os._exit(0)
        def broadcast_add(a, b):
            ndim = max(a.ndim, b.ndim)
            sa, sb = (1,) * (ndim - a.ndim) + a.shape, (1,) * (ndim - b.ndim) + b.shape
            for dim in reversed(range(ndim)):
                if sa[dim] != sb[dim] and 1 not in (sa[dim], sb[dim]):
                    raise RuntimeError(f"The size of tensor a ({{sa[dim]}}) must match the size of tensor b "
                                       f"({{sb[dim]}}) at non-singleton dimension {{dim}}")
            return np.asarray(a + b)
        import numpy as np
    """)
    tree = ast.parse(source)
    program = Program(tree.body, [ast.unparse(s) for s in tree.body])
    graded = tuple(Graded(name, 1, random_cases=0) for name in ("broadcast_shape", "expand_to", "broadcast_add"))
    cases = exercise_cases(Exercise(notebook="x", graded=graded, timeout=5), 1)
    ran = run_in_sandbox(program, [(g, cases[g.name]) for g in graded], 5, 1024)
    outcomes = [judge(g, cases[g.name], *ran[g.name], 5).outcome for g in graded]
    assert outcomes == ["wrong", "crashed", "passed"]
