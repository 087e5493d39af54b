"""tensorlab.grading's pieces: references agree with torch, strict comparison, in-kernel checks, sandbox guards."""

from __future__ import annotations

import ast
import json
import operator
import textwrap
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch

from autograder.extract import Program
from autograder.spec import Exercise, Graded
from autograder.verify import exercise_cases, judge, run_in_sandbox
from tensorlab.grading import CheckFailed, Raised, check, difference, find_task
from tensorlab.grading.check import check_cells
from tensorlab.grading.plain import NotPlainData, decode, encode, keeps_layout
from tensorlab.grading.tasks import expected_outcome
from tensorlab.widgets.versions import run_program


def torch_gather(x: np.ndarray, dim: int, index: np.ndarray) -> np.ndarray:
    return torch.gather(torch.from_numpy(x), dim, torch.from_numpy(index)).numpy()


def torch_scatter_add(x: np.ndarray, dim: int, index: np.ndarray, src: np.ndarray) -> np.ndarray:
    return torch.from_numpy(x).scatter_add(dim, torch.from_numpy(index), torch.from_numpy(src)).numpy()


def torch_relu_backward(grad: np.ndarray, out: np.ndarray) -> np.ndarray:
    x = torch.tensor(out, requires_grad=True)
    x.relu().backward(torch.tensor(grad))
    return x.grad.numpy()


def torch_overlapping_pairs(tensors: list[tuple[str, int, tuple[int, ...], tuple[int, ...]]]) -> list[tuple[int, int]]:
    """torch reads the slots: as_strided over an arange storage gives each element's slot number."""
    slots = [set(torch.arange(100).as_strided(shape, strides, offset).flatten().tolist()) for _, offset, shape, strides in tensors]
    return [(i, j) for i in range(len(tensors)) for j in range(i + 1, len(tensors))
            if tensors[i][0] == tensors[j][0] and slots[i] & slots[j]]


TORCH_REFERENCES = {
    "broadcast_shape": lambda a, b: tuple(torch.broadcast_shapes(a, b)),
    "broadcast_add": lambda a, b: (torch.from_numpy(a) + torch.from_numpy(b)).numpy(),
    "expand_to": lambda x, shape: torch.from_numpy(x).expand(shape).numpy().copy(),
    "gather_loops": torch_gather,
    "gather_vectorised": torch_gather,
    "scatter_add_loops": torch_scatter_add,
    "scatter_add_vectorised": torch_scatter_add,
    "sum_to_shape": lambda g, shape: torch.from_numpy(g).sum_to_size(shape).numpy().copy() if shape else np.asarray(g.sum()),
    "track_versions": lambda program: run_program(program, torch)[-1] if program else {},
    "relu_forward_": lambda x: torch.tensor(x).relu_().numpy(),
    "relu_backward": torch_relu_backward,
    "overlapping_pairs": torch_overlapping_pairs,
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


def test_expand_to_view_strides_agree_with_torch() -> None:
    """The strides expand_to must give are torch's, for x as it arrives in the sandbox (strided or not)."""
    task = find_task("expand_to")
    for case in task.cases(seed=3, random_cases=60):
        if case.view_strides is not None:
            x, shape = decode(encode(case.arguments[0])), case.arguments[1]
            assert case.view_strides == torch.from_numpy(x).expand(shape).stride(), case.arguments


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


@pytest.mark.parametrize(("name", "forward"), [("mul_backward", operator.mul), ("matmul_backward", operator.matmul)])
def test_backward_references_agree_with_torch(name: str, forward: Callable[[Any, Any], Any]) -> None:
    task = find_task(name)
    for grad, x, y in task.arguments(seed=3, random_cases=30):
        a, b = torch.tensor(x, requires_grad=True), torch.tensor(y, requires_grad=True)
        forward(a, b).backward(torch.from_numpy(grad))
        assert difference((a.grad.numpy(), b.grad.numpy()), expected_outcome(task, (grad, x, y)), task.tolerance) is None


def torch_backprop(graph: dict[str, list[tuple[str, float]]], root: str) -> dict[str, float]:
    """The same weighted graph built from torch tensors (each node a weighted sum of its inputs), then backward."""
    values: dict[str, torch.Tensor] = {}

    def value(node: str) -> torch.Tensor:
        if node not in values:
            inputs = graph.get(node, [])
            values[node] = torch.tensor(1.0, dtype=torch.float64, requires_grad=True) if not inputs else torch.stack(
                [local * value(source) for source, local in inputs]).sum()
            values[node].retain_grad()
        return values[node]

    value(root).backward()
    return {node: float(tensor.grad) for node, tensor in values.items()}


def test_backprop_reference_agrees_with_torch() -> None:
    task = find_task("backprop")
    for graph, root in task.arguments(seed=3, random_cases=30):
        assert difference(torch_backprop(graph, root), expected_outcome(task, (graph, root)), task.tolerance) is None


def test_topological_order_reference_is_accepted_and_bad_orders_are_not() -> None:
    task = find_task("topological_order")
    for graph, root in task.arguments(seed=3, random_cases=30):
        expected = expected_outcome(task, (graph, root))
        assert task.problem((graph, root), expected, list(expected)) is None
        if len(expected) > 1:
            assert task.problem((graph, root), expected, expected[::-1]) is not None
            assert task.problem((graph, root), expected, expected + expected[-1:]) is not None


# Right answers written differently from the solution: check() must accept them too.
ALTERNATIVE_ANSWERS = {
    "sum_to_shape": """
def sum_to_shape(grad, shape):
    leading = grad.ndim - len(shape)
    ones = tuple(leading + dim for dim, size in enumerate(shape) if size == 1)  # even where grad has 1 too
    return np.asarray(grad.sum(axis=tuple(range(leading)) + ones, keepdims=True).reshape(shape))
""",
    "topological_order": """
def topological_order(graph, root):
    reachable, stack = [root], [root]
    while stack:
        for source in graph.get(stack.pop(), []):
            if source not in reachable:
                reachable.append(source)
                stack.append(source)
    users = {node: 0 for node in reachable}
    for node in reachable:
        for source in graph.get(node, []):
            users[source] += 1
    order, ready = [], [root]
    while ready:
        node = ready.pop(0)
        order.append(node)
        for source in graph.get(node, []):
            users[source] -= 1
            if users[source] == 0:
                ready.append(source)
    return order
""",
    "backprop": """
from functools import cache

def backprop(graph, root):
    users = {}
    def collect(node):
        for source, local in graph.get(node, []):
            if source not in users:
                users[source] = []
                collect(source)
            users[source].append((node, local))
    collect(root)

    @cache
    def gradient(node):
        return 1.0 if node == root else sum(gradient(user) * local for user, local in users[node])
    return {node: float(gradient(node)) for node in [root, *users]}
""",
}


@pytest.mark.parametrize("name", ALTERNATIVE_ANSWERS)
def test_check_accepts_other_right_answers(name: str) -> None:
    check_cells(name, {1: "import numpy as np", 2: ALTERNATIVE_ANSWERS[name]})


def test_the_other_topological_order_differs_from_the_references() -> None:
    """So that accepting it proves that any valid order is accepted."""
    namespace: dict[str, Any] = {}
    exec(ALTERNATIVE_ANSWERS["topological_order"], namespace)
    task = find_task("topological_order")
    cases = task.arguments(seed=0, random_cases=20)
    assert any(namespace["topological_order"](*case) != expected_outcome(task, case) for case in cases)


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


def test_in_place_cases_of_every_kind_agree_with_torch() -> None:
    """relu_forward_'s cases hold NaN, infinities, ints, zero-size dims and non-contiguous views; torch agrees on each."""
    task = find_task("relu_forward_")
    kinds: set[str] = set()
    for (x,) in task.arguments(seed=5, random_cases=200):
        kinds |= {kind for kind, present in [("nan", x.dtype.kind == "f" and bool(np.isnan(x).any())),
                                              ("inf", x.dtype.kind == "f" and bool(np.isinf(x).any())),
                                              ("int", x.dtype.kind == "i"), ("zero-size", x.size == 0),
                                              ("strided", keeps_layout(x))] if present}
        assert difference(TORCH_REFERENCES["relu_forward_"](x), expected_outcome(task, (x,))) is None, x
    assert kinds == {"nan", "inf", "int", "zero-size", "strided"}


def test_track_versions_agrees_with_torch_after_every_statement() -> None:
    """Not only the end: every prefix of every program gives torch's storages and versions."""
    task = find_task("track_versions")
    for (program,) in task.arguments(seed=7, random_cases=40):
        assert run_program(program, torch) == run_program(program), program


def test_relu_forward_view_strides_are_the_arrival_strides() -> None:
    """The strides relu_forward_ must keep are those x has in the sandbox (also for size 0 and 0-d)."""
    task = find_task("relu_forward_")
    for case in task.cases(seed=3, random_cases=60):
        x = decode(encode(case.arguments[0]))
        assert case.view_strides == tuple(stride // x.itemsize for stride in x.strides), case.arguments
