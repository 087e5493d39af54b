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

from autograder.exercise import find_task
from tensorlab.grading import Raised, check, difference
from tensorlab.grading.check import check_cells
from tensorlab.grading.extract import Program
from tensorlab.grading.plain import NotPlainData, decode, element_strides, encode, keeps_layout
from tensorlab.grading.tasks import expected_outcome
from tensorlab.grading.verify import judge, run_in_sandbox
from tensorlab.widgets.versions import run_program
from tests.public_cases import graded_task, tasks_of


def torch_gather(x: np.ndarray, dim: int, index: np.ndarray) -> np.ndarray:
    return torch.gather(torch.from_numpy(x), dim, torch.from_numpy(index)).numpy()


def torch_scatter_add(x: np.ndarray, dim: int, index: np.ndarray, src: np.ndarray) -> np.ndarray:
    return torch.from_numpy(x).scatter_add(dim, torch.from_numpy(index), torch.from_numpy(src)).numpy()


def torch_storage_index(index: tuple, strides: tuple, offset: int) -> int:
    """Read element ``index`` of torch's view over a storage of slot numbers: the value is the slot."""
    shape = tuple(i + 1 for i in index)
    span = offset + 1 + sum(i * s for i, s in zip(index, strides, strict=True))
    return int(torch.arange(span).as_strided(shape, strides, offset)[index].item())


def torch_permute_meta(shape: tuple, strides: tuple, dims: tuple) -> tuple:
    view = torch.empty(shape, device="meta").as_strided(shape, strides).permute(dims)
    return tuple(view.shape), tuple(view.stride())


def torch_broadcast_index(index: tuple, out_shape: tuple, in_shape: tuple) -> tuple:
    """Expand a tensor of its own flat positions, read ``index``, unravel the position."""
    flat = int(torch.arange(int(np.prod(in_shape))).view(in_shape).expand(out_shape)[index].item())
    return tuple(int(i) for i in np.unravel_index(flat, in_shape)) if in_shape else ()


def torch_relu_backward(grad: np.ndarray, out: np.ndarray) -> np.ndarray:
    x = torch.tensor(out, requires_grad=True)
    x.relu().backward(torch.tensor(grad))
    return x.grad.numpy()


def torch_overlapping_pairs(tensors: list[tuple[str, int, tuple[int, ...], tuple[int, ...]]]) -> list[tuple[int, int]]:
    """torch reads the slots: as_strided over an arange storage gives each element's slot number."""
    slots = [set(torch.arange(100).as_strided(shape, strides, offset).flatten().tolist()) for _, offset, shape, strides in tensors]
    return [(i, j) for i in range(len(tensors)) for j in range(i + 1, len(tensors))
            if tensors[i][0] == tensors[j][0] and slots[i] & slots[j]]


def torch_per_example_grads(weight: np.ndarray, b: np.ndarray, features: np.ndarray, y: np.ndarray) -> tuple:
    def loss(weight: torch.Tensor, bias: torch.Tensor, x: torch.Tensor, label: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.cross_entropy((weight @ x + bias)[None], label[None])

    grads = torch.func.vmap(torch.func.grad(loss, argnums=(0, 1)), in_dims=(None, None, 0, 0))
    dweight, db = grads(*(torch.tensor(np.asarray(a)) for a in (weight, b, features, y)))
    return dweight.numpy(), db.numpy()


def torch_sum_batch_rule(x: np.ndarray, bdim: int, dim: Any, keepdim: bool) -> np.ndarray:
    return torch.func.vmap(lambda s: s.sum() if dim is None else s.sum(dim, keepdim=keepdim), in_dims=bdim)(torch.tensor(x)).numpy()


def torch_tanh_layer_jacobian(weight: np.ndarray, x: np.ndarray) -> np.ndarray:
    matrix = torch.tensor(weight)
    return torch.func.jacrev(lambda t: (t @ matrix.T).tanh())(torch.tensor(x)).numpy()


TORCH_REFERENCES = {
    "storage_index": torch_storage_index,
    "contiguous_strides": lambda shape: tuple(torch.empty(shape, device="meta").stride()),  # meta: huge shapes allocate nothing
    "permute_meta": torch_permute_meta,
    "broadcast_index": torch_broadcast_index,
    "broadcast_shape": lambda a, b: tuple(torch.broadcast_shapes(a, b)),
    "broadcast_add": lambda a, b: (torch.from_numpy(a) + torch.from_numpy(b)).numpy(),
    "expand_to": lambda x, shape: torch.from_numpy(x).expand(shape).numpy().copy(),
    "gather_loops": torch_gather,
    "gather_vectorised": torch_gather,
    "scatter_add_loops": torch_scatter_add,
    "scatter_add_vectorised": torch_scatter_add,
    "sum_dims_loops": lambda x, dims, keepdim: torch.from_numpy(x).sum(dims, keepdim=keepdim).numpy(),
    "sum_dims_vectorised": lambda x, dims, keepdim: torch.from_numpy(x).sum(dims, keepdim=keepdim).numpy(),
    "logsumexp": lambda x, dim: torch.logsumexp(torch.from_numpy(x), dim).numpy(),
    "softmax": lambda x, dim: torch.softmax(torch.from_numpy(x), dim).numpy(),
    "argmax": lambda x, dim, keepdim: torch.argmax(torch.from_numpy(x), dim, keepdim=keepdim).numpy(),
    "sum_to_shape": lambda g, shape: torch.from_numpy(g).sum_to_size(shape).numpy().copy() if shape else np.asarray(g.sum()),
    "track_versions": lambda program: run_program(program, torch)[-1] if program else {},
    "relu_forward_": lambda x: torch.tensor(x).relu_().numpy(),
    "relu_backward": torch_relu_backward,
    "overlapping_pairs": torch_overlapping_pairs,
    "per_example_grads": torch_per_example_grads,
    "sum_batch_rule": torch_sum_batch_rule,
    "matmul_batch_rule": lambda a, ad, b, bd: torch.func.vmap(torch.matmul, in_dims=(ad, bd))(torch.tensor(a), torch.tensor(b)).numpy(),
    "tanh_layer_jacobian": torch_tanh_layer_jacobian,
}


@pytest.mark.parametrize("name", TORCH_REFERENCES)
def test_references_agree_with_torch(name: str) -> None:
    task = find_task(name)
    for case in task.arguments(seed=3, random_cases=30):
        ours = expected_outcome(task, case)
        try:
            theirs = TORCH_REFERENCES[name](*case)
        except (RuntimeError, IndexError) as error:
            theirs = Raised(type(error).__name__, str(error))
        if isinstance(ours, Raised):
            assert isinstance(theirs, Raised) and ours.exception == theirs.exception, case
            if name == "broadcast_add":
                assert ours.message == theirs.message
        else:
            assert difference(theirs, ours, task.tolerance) is None, (case, ours, theirs)


def test_expand_to_view_strides_agree_with_torch() -> None:
    """The strides expand_to must give are torch's, for x as it arrives in the sandbox (strided or not)."""
    task = find_task("expand_to")
    for case in task.cases(seed=3, random_cases=60):
        if case.view_strides is not None:
            x, shape = decode(encode(case.arguments[0])), case.arguments[1]
            assert case.view_strides == torch.from_numpy(x).expand(shape).stride(), case.arguments


@pytest.mark.parametrize("name", ["storage_index", "contiguous_strides", "permute_meta", "broadcast_index"])
def test_tensors_and_views_cases_of_every_kind_agree_with_torch(name: str) -> None:
    """Unit 01's random cases hold non-contiguous layouts (strides out of order, stride 0, offsets), zero-size
    dims and refused inputs where the function has them, and torch agrees on each."""
    task = find_task(name)
    kinds: set[str] = set()
    for case in task.arguments(seed=5, random_cases=200):
        ours, theirs = expected_outcome(task, case), None
        try:
            theirs = TORCH_REFERENCES[name](*case)
        except (RuntimeError, IndexError) as error:
            theirs = Raised(type(error).__name__, "")
        if isinstance(ours, Raised):
            kinds.add(ours.exception)
            assert isinstance(theirs, Raised) and theirs.exception == ours.exception, case
            continue
        assert difference(theirs, ours) is None, (case, ours, theirs)
        shape = case[0] if name in ("contiguous_strides", "permute_meta") else ()
        strides = case[1] if name in ("storage_index", "permute_meta") else ()
        if 0 in shape:
            kinds.add("zero-size")
        if strides and (0 in strides or list(strides) != sorted(strides, reverse=True)):
            kinds.add("strided")
        if name == "storage_index" and case[2]:
            kinds.add("offset")
    expected = {"storage_index": {"strided", "offset"}, "contiguous_strides": {"zero-size"},
                "permute_meta": {"zero-size", "strided", "RuntimeError", "IndexError"}, "broadcast_index": {"RuntimeError"}}
    assert kinds == expected[name]


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
def test_large_cases_agree_with_torch(name: str) -> None:
    task = find_task(name)
    assert task.large_case is not None
    case = task.large_case(task.rng(0))
    assert case[2].shape[0] >= 1000  # a loop over its rows runs thousands of lines
    assert difference(TORCH_REFERENCES[name](*case), expected_outcome(task, case)) is None


def torch_convolution_outcome(name: str, case: tuple) -> np.ndarray:
    """Unit 09's tasks computed by torch: conv1d, F.unfold on a height-1 image, and autograd's input gradient."""
    tensors = [torch.from_numpy(np.ascontiguousarray(a)) if isinstance(a, np.ndarray) else a for a in case]
    if name == "conv1d_loops":
        x, w, padding = tensors
        return torch.nn.functional.conv1d(x, w, padding=padding).numpy()
    if name == "conv1d_unfold":
        x, w, padding, stride, dilation = tensors
        return torch.nn.functional.conv1d(x, w, None, stride, padding, dilation).numpy()
    if name == "unfold1d":
        x, k, padding, stride, dilation = tensors
        return torch.nn.functional.unfold(x[..., None, :], (1, k), (1, dilation), (0, padding), (1, stride)).numpy()
    grad, w, length, padding, stride, dilation = tensors
    x = torch.zeros(*grad.shape[:-2], w.shape[1], length, dtype=grad.dtype, requires_grad=True)
    torch.nn.functional.conv1d(x, w, None, stride, padding, dilation).backward(grad)
    return x.grad.numpy()


@pytest.mark.parametrize("name", ["conv1d_loops", "unfold1d", "conv1d_unfold", "conv1d_input_grad"])
def test_convolution_references_agree_with_torch(name: str) -> None:
    """Unit 09: examples, clauses, 100 random cases and the large case give torch's values and dtype;
    the random cases hold unbatched, empty-batch, float32, non-contiguous, strided and dilated inputs."""
    task = find_task(name)
    cases = task.arguments(seed=3, random_cases=100)
    if task.large_case is not None:
        cases.append(task.large_case(task.rng(0)))
    kinds: set[str] = set()
    for case in cases:
        first = case[0]
        kinds |= {"unbatched"} if first.ndim == 2 else {"empty batch"} if first.shape[0] == 0 else set()
        kinds |= {"float32"} if first.dtype == np.float32 else set()
        kinds |= {"strided"} if any(keeps_layout(a) for a in case if isinstance(a, np.ndarray)) else set()
        kinds |= {"stride > 1"} if len(case) > 3 and case[-2] > 1 else set()
        assert difference(torch_convolution_outcome(name, case), expected_outcome(task, case), task.tolerance) is None, case
    assert kinds >= {"unbatched", "empty batch", "float32", "strided"} | ({"stride > 1"} if name != "conv1d_loops" else set())


def torch_index_outcome(name: str, case: tuple) -> Any:
    """What torch does for a case of unit 07's tasks (the index as torch's, arrays as tensors)."""
    as_torch_index, storage_span = (tasks_of("indexing").as_torch_index, tasks_of("indexing").storage_span)

    try:
        if name == "index_shape":
            shape, index = case
            return tuple(torch.empty(shape)[as_torch_index(index, torch)].shape)
        if name == "mask_select":
            x, mask = case
            return torch.from_numpy(np.ascontiguousarray(x))[torch.from_numpy(np.ascontiguousarray(mask))].numpy()
        if name == "assignment_sources":
            shape, index, value_shape = case
            target = torch.full(shape, -1, dtype=torch.int64)
            target[as_torch_index(index, torch)] = torch.arange(int(np.prod(value_shape))).view(value_shape)
            return target.numpy()
        shape, strides, offset, index = case
        storage = torch.arange(max(storage_span(shape, strides, offset), 1))
        return storage.as_strided(shape, strides, offset)[as_torch_index(index, torch)].numpy()
    except (IndexError, RuntimeError) as error:
        return Raised(type(error).__name__, str(error))


@pytest.mark.parametrize("name", ["index_shape", "mask_select", "assignment_sources", "storage_positions"])
def test_indexing_references_agree_with_torch(name: str) -> None:
    """Unit 07: every example, clause and 60 random cases give torch's result or torch's exception class."""
    task = find_task(name)
    numpy_would_differ = 0  # cases where an int among index arrays moves the block (torch and NumPy disagree)
    for case in task.arguments(seed=3, random_cases=60):
        if name == "index_shape" and max(case[0], default=0) > 1000:
            continue  # the clause with shapes too large to allocate (torch cannot either)
        ours, theirs = expected_outcome(task, case), torch_index_outcome(name, case)
        if isinstance(ours, Raised) or isinstance(theirs, Raised):
            assert isinstance(ours, Raised) and isinstance(theirs, Raised) and ours.exception == theirs.exception, case
        else:
            assert difference(theirs, ours) is None, (case, ours, theirs)
        if name == "index_shape" and not isinstance(ours, Raised):
            index = tuple(slice(None) if isinstance(entry, str) else entry for entry in case[1])
            numpy_would_differ += np.empty(case[0])[index].shape != ours
    assert name != "index_shape" or numpy_would_differ >= 3


def test_index_shape_of_too_large_shapes_is_computed_without_allocating() -> None:
    """The clause with shapes no array could fill: torch's meta tensors (shapes only) agree."""
    huge = (1_000_000, 1_000_000, 1_000_000)
    meta = torch.empty(huge, device="meta")[:, torch.tensor([0, 1], device="meta"), :]
    assert expected_outcome(find_task("index_shape"), (huge, (":", np.array([0, 1]), ":"))) == tuple(meta.shape)


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

    assert check("broadcast_shape", broadcast_shape)


def test_in_kernel_check_explains_a_wrong_type(capsys: pytest.CaptureFixture[str]) -> None:
    def broadcast_shape(a, b):
        ndim = max(len(a), len(b))
        a, b = (1,) * (ndim - len(a)) + tuple(a), (1,) * (ndim - len(b)) + tuple(b)
        return [x if y == 1 else y for x, y in zip(a, b, strict=True)]

    verdict = check("broadcast_shape", broadcast_shape)  # printed, not raised: Run All goes on
    assert not verdict and "expected tuple" in verdict.message
    assert capsys.readouterr().err.strip() == verdict.message


def sandboxed(source: str, name: str = "broadcast_shape", forbidden: tuple[str, ...] = ()) -> str:
    """The outcome of running ``source`` in the sandbox, past the static rules (to test the run-time guards)."""
    tree = ast.parse(source)
    program = Program(tree.body, [ast.unparse(s) for s in tree.body])
    graded, cases = graded_task(name, forbidden)
    lines, ending = run_in_sandbox(program, [(graded, cases)], 5, 1024)[name]
    return judge(graded, cases, lines, ending, 5).outcome


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


def test_a_forbidden_function_still_looks_like_itself_so_numpy_loads() -> None:
    """numpy.ma reads apply_over_axes.__doc__ when it loads (np.unique and others import it); a ufunc's
    docstring is built by an import, while the stand-ins are being put in place."""
    source = textwrap.dedent("""
        import numpy as np

        def broadcast_shape(a, b):
            import numpy.ma  # noqa: F401
            n = max(len(a), len(b))
            a, b = (1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)
            if any(x != y and 1 not in (x, y) for x, y in zip(a, b)):
                raise RuntimeError("clash")
            return tuple(y if x == 1 else x for x, y in zip(a, b))
    """)
    assert sandboxed(source, forbidden=("numpy.apply_over_axes", "numpy.logaddexp", "numpy.logaddexp2")) == "passed"


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
    jobs = [graded_task(name) for name in ("broadcast_shape", "expand_to", "broadcast_add")]
    ran = run_in_sandbox(program, jobs, 5, 1024)
    outcomes = [judge(g, cases, *ran[g.name], 5).outcome for g, cases in jobs]
    assert outcomes == ["wrong", "crashed", "passed"]


# --- unit 06, combine and split: the references (tensorlab) against torch, errors included ------
def torch_unbind_views(shape: tuple, strides: tuple, offset: int, dim: int) -> tuple:
    span = offset + 1 + sum((size - 1) * stride for size, stride in zip(shape, strides, strict=True) if size > 0)
    x = torch.zeros(span).as_strided(shape, strides, offset)
    return tuple((tuple(piece.shape), piece.stride(), piece.storage_offset()) for piece in x.unbind(dim))


COMBINE_SPLIT_TORCH = {
    "cat": lambda tensors, dim: torch.cat([torch.from_numpy(array.copy()) for array in tensors], dim).numpy(),
    "stack": lambda tensors, dim: torch.stack([torch.from_numpy(array.copy()) for array in tensors], dim).numpy(),
    "chunk_sizes": lambda size, chunks: tuple(len(piece) for piece in torch.zeros(1, dtype=torch.bool).expand(size).chunk(chunks)),
    "unbind_views": torch_unbind_views,
}


@pytest.mark.parametrize("name", COMBINE_SPLIT_TORCH)
def test_combine_split_references_agree_with_torch(name: str) -> None:
    """Every case (examples, clauses, 200 random) gives torch's result, or torch's exception class."""
    task = find_task(name)
    raised = 0
    for case in task.arguments(seed=3, random_cases=200):
        ours = expected_outcome(task, case)
        try:
            theirs = COMBINE_SPLIT_TORCH[name](*case)
        except (RuntimeError, IndexError, ValueError) as error:
            theirs = Raised(type(error).__name__, str(error))
        if isinstance(ours, Raised):
            raised += 1
            assert isinstance(theirs, Raised) and ours.exception == theirs.exception, (case, ours, theirs)
        else:
            assert difference(theirs, ours) is None, (case, ours, theirs)
    assert raised > 0, "no case tests an error"


def _torch_layout(shape: tuple, strides: tuple) -> torch.Tensor:
    span = 1 if 0 in shape else 1 + sum((size - 1) * stride for size, stride in zip(shape, strides, strict=True))
    return torch.zeros(span).as_strided(shape, strides)


def _torch_view_strides(shape: tuple, strides: tuple, new_shape: tuple) -> tuple | None:
    try:
        return tuple(_torch_layout(shape, strides).view(new_shape).stride())
    except RuntimeError:
        return None


def _layout_of(result: torch.Tensor) -> tuple:
    return tuple(result.shape), tuple(result.stride())


RESHAPE_TORCH_REFERENCES: dict[str, Callable[..., Any]] = {
    "infer_shape": lambda shape, numel: tuple(torch.empty(numel, device="meta").view(shape).shape),  # meta: huge counts allocate nothing
    "view_strides": _torch_view_strides,
    "flatten_meta": lambda shape, strides, *dims: _layout_of(_torch_layout(shape, strides).flatten(*dims)),
    "unflatten_meta": lambda shape, strides, dim, sizes: _layout_of(_torch_layout(shape, strides).unflatten(dim, sizes)),
}


@pytest.mark.parametrize("name", RESHAPE_TORCH_REFERENCES)
def test_reshape_and_view_references_agree_with_torch(name: str) -> None:
    """Unit 02's answers are torch's, strides of size-1 dims included; infer_shape's messages are torch's too."""
    task = find_task(name)
    for seed in (3, 4):
        for case in task.arguments(seed=seed, random_cases=150):
            ours = expected_outcome(task, case)
            try:
                theirs = RESHAPE_TORCH_REFERENCES[name](*case)
            except (RuntimeError, IndexError) as error:
                theirs = Raised(type(error).__name__, str(error))
            if isinstance(ours, Raised):
                assert isinstance(theirs, Raised) and ours.exception == theirs.exception, (case, ours, theirs)
                if name == "infer_shape":
                    assert ours.message == theirs.message, case
            else:
                assert ours == theirs, (case, ours, theirs)


@pytest.mark.parametrize("name", RESHAPE_TORCH_REFERENCES)
def test_reshape_and_view_cases_cover_views_failures_and_empties(name: str) -> None:
    """The public and secret cases are not all alike: errors (or None), zero-size and non-contiguous layouts occur."""
    task = find_task(name)
    cases = task.arguments(seed=0, random_cases=20)[len(task.examples) + len(task.clauses):]
    outcomes = [expected_outcome(task, case) for case in cases]
    assert sum(isinstance(o, Raised) or o is None for o in outcomes) >= 2
    assert sum(not (isinstance(o, Raised) or o is None) for o in outcomes) >= 10


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


@pytest.mark.parametrize("array", [np.zeros((0, 3)), np.zeros((2, 0, 4)), np.zeros(()), np.arange(12.0).reshape(3, 4).T,
                                   np.arange(12.0).reshape(3, 4)[:, ::2], np.zeros((3, 0))[::2]])
def test_element_strides_are_the_strides_an_array_arrives_with(array: np.ndarray) -> None:
    """What a view task compares against must be what the sandbox really gets (empty arrays included)."""
    arrived = decode(encode(array))
    assert element_strides(array) == tuple(stride // arrived.itemsize for stride in arrived.strides)


# --- unit 12, modules and losses ----------------------------------------------------------------
def torch_forward_with_hooks(x: np.ndarray, state_dict: dict, hooked: list) -> tuple:
    """The seed's pattern in torch: Linear layers (nested by name) loaded from state_dict, forward hooks fill a dict."""
    layer_names = tasks_of("modules_losses").layer_names

    root = torch.nn.Module()
    for name in layer_names(state_dict):
        weight = state_dict[f"{name}.weight"]
        parent = root
        *path, leaf = name.split(".")
        for part in path:
            if not hasattr(parent, part):
                parent.add_module(part, torch.nn.Module())
            parent = getattr(parent, part)
        parent.add_module(leaf, torch.nn.Linear(weight.shape[1], weight.shape[0], bias=f"{name}.bias" in state_dict).double())
    root.load_state_dict({key: torch.from_numpy(np.ascontiguousarray(value)) for key, value in state_dict.items()})
    activation: dict = {}
    for name in hooked:
        root.get_submodule(name).register_forward_hook(
            lambda module, args, output, name=name: activation.__setitem__(name, output.detach().numpy().copy()))
    names = layer_names(state_dict)
    with torch.no_grad():
        h = torch.from_numpy(np.ascontiguousarray(x))
        for number, name in enumerate(names):
            h = root.get_submodule(name)(h)
            if number < len(names) - 1:
                h = torch.nn.functional.relu(h)
        return torch.nn.functional.log_softmax(h, dim=1).numpy(), activation


def torch_cross_entropy(logits: np.ndarray, target: np.ndarray, weight: Any, ignore_index: int, smoothing: float) -> float:
    return float(torch.nn.functional.cross_entropy(
        torch.from_numpy(np.ascontiguousarray(logits)), torch.from_numpy(target),
        weight=None if weight is None else torch.from_numpy(weight), ignore_index=ignore_index, label_smoothing=smoothing))


def sklearn_auroc(scores: np.ndarray, labels: np.ndarray) -> float:
    """scikit-learn's roc_auc_score (ties crossed together); 0.5 where it is undefined (one class), as torcheval."""
    from sklearn.metrics import roc_auc_score

    labels = np.asarray(labels, dtype=np.int64)
    return 0.5 if len(set(labels.tolist())) < 2 else float(roc_auc_score(labels, scores))


def pairwise_auroc(scores: np.ndarray, labels: np.ndarray) -> float:
    """The definition: over all (positive, negative) pairs, 1 if the positive scores higher, 1/2 on a tie."""
    positive = np.asarray(labels) == 1
    pos, neg = scores[positive], scores[~positive]
    if not len(pos) or not len(neg):
        return 0.5
    return float(((pos[:, None] > neg).sum() + 0.5 * (pos[:, None] == neg).sum()) / (len(pos) * len(neg)))


@pytest.mark.parametrize(("name", "oracles"), [
    ("forward_with_hooks", (torch_forward_with_hooks,)),
    ("cross_entropy", (torch_cross_entropy,)),
    ("binary_auroc", (sklearn_auroc, pairwise_auroc)),
])
def test_modules_losses_references_agree_with_torch(name: str, oracles: tuple) -> None:
    task = find_task(name)
    for case in task.arguments(seed=3, random_cases=40):
        ours = expected_outcome(task, case)
        for oracle in oracles:
            theirs = oracle(*case)
            if isinstance(ours, float):
                assert task.problem(case, theirs, ours) is None, (case, ours, theirs)
            else:
                assert difference(theirs, ours, task.tolerance) is None, (case, ours, theirs)


def test_cross_entropy_large_case_agrees_with_torch() -> None:
    task = find_task("cross_entropy")
    case = task.large_case(np.random.default_rng(0))
    assert task.problem(case, torch_cross_entropy(*case), expected_outcome(task, case)) is None


ENDINGS = {None: lambda z: z, "Softmax": lambda z: z.softmax(1), "LogSoftmax": lambda z: z.log_softmax(1),
           "Sigmoid": torch.sigmoid, "LogSigmoid": torch.nn.functional.logsigmoid, "ReLU": torch.relu, "Tanh": torch.tanh}


def torch_loss_is_right(ending: str | None, loss: str) -> bool:
    """Does loss(ending(z)) equal the negative log-likelihood the model means, softmax(z) or sigmoid(z)?"""
    z = torch.tensor([[2.0, -1.0, 0.5], [-0.3, 0.8, -2.0]], dtype=torch.float64)
    classes, binary = torch.tensor([0, 2]), torch.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]], dtype=torch.float64)
    out = ENDINGS[ending](z)
    if loss in ("CrossEntropyLoss", "NLLLoss"):
        meant = torch.nn.functional.cross_entropy(z, classes)
        got = getattr(torch.nn, loss)()(out, classes)
    else:
        meant = torch.nn.functional.binary_cross_entropy_with_logits(z, binary)
        try:
            got = getattr(torch.nn, loss)()(out, binary)
        except RuntimeError:  # BCELoss refuses inputs outside [0, 1]
            return False
    return bool(torch.isclose(got, meant))


@pytest.mark.parametrize("loss", ["CrossEntropyLoss", "NLLLoss", "BCEWithLogitsLoss", "BCELoss"])
@pytest.mark.parametrize("ending", list(ENDINGS))
def test_loss_mismatch_reference_agrees_with_torchs_losses(ending: str | None, loss: str) -> None:
    """The reference says None exactly when torch's loss of the model's output is the loss the model means,
    and the fix it proposes makes it so."""
    loss_mismatch_reference = tasks_of("modules_losses").loss_mismatch_reference

    fix = loss_mismatch_reference(["Linear"] + ([ending] if ending else []), loss)
    assert (fix is None) == torch_loss_is_right(ending, loss), fix
    if fix is not None:
        fixed = fix.split()[-1] if not fix.startswith("remove") else None
        assert torch_loss_is_right(fixed, loss), fix


def test_state_dict_shapes_reference_agrees_with_torch() -> None:
    """The same assignments made on torch.nn.Module give the same state_dict keys, order and shapes."""
    build_module = tasks_of("modules_losses").build_module

    task = find_task("state_dict_shapes")
    for case in task.arguments(seed=3, random_cases=60):
        theirs = [(key, tuple(value.shape)) for key, value in build_module(case[0], torch).state_dict().items()]
        assert difference(theirs, expected_outcome(task, case), task.tolerance) is None, case


# --- unit 10, einsum and einops: references against torch.einsum and the einops package on torch -------
def torch_einsum_outcome(name: str, case: tuple) -> Any:
    """What torch (or einops on torch) gives for one case of an einsum/einops task."""
    import einops

    try:
        if name == "einsum_shape":  # meta tensors: shapes only, so the huge clause allocates nothing
            equation, shapes = case
            return tuple(torch.einsum(equation, *[torch.empty(shape, device="meta") for shape in shapes]).shape)
        if name == "mini_einsum":
            equation, *operands = case
            return torch.einsum(equation, *[torch.from_numpy(x) for x in operands]).numpy()
        if name == "bilinear_by_matmul":
            left, weight, right = (torch.from_numpy(x) for x in case)  # (F.bilinear itself refuses N = 0)
            return torch.einsum("bn,anm,bm->ba", left, weight, right).numpy()
        if name == "attention_scores":
            queries, keys = (torch.from_numpy(x) for x in case)
            return (queries @ keys.transpose(-2, -1)).numpy()
        x, pattern, sizes = case
        return einops.rearrange(torch.from_numpy(x), pattern, **sizes).numpy()
    except (RuntimeError, einops.EinopsError) as error:
        return Raised("RuntimeError", str(error))


EINSUM_EINOPS_TASKS = ["einsum_shape", "mini_einsum", "bilinear_by_matmul", "attention_scores", "mini_rearrange"]


@pytest.mark.parametrize("name", EINSUM_EINOPS_TASKS)
def test_einsum_einops_references_agree_with_torch(name: str) -> None:
    task = find_task(name)
    for case in task.arguments(seed=3, random_cases=150):
        ours, theirs = expected_outcome(task, case), torch_einsum_outcome(name, case)
        if isinstance(ours, Raised):
            assert isinstance(theirs, Raised), (case, ours, theirs)
        else:
            assert difference(theirs, ours, task.tolerance) is None, (case, ours, theirs)


def test_einsum_einops_random_cases_cover_every_kind() -> None:
    """Errors, '...', implicit outputs, repeated letters, size 0 and 1, several dtypes and strides all occur."""
    kinds: set[str] = set()
    shape_task, einsum_task, rearrange_task = find_task("einsum_shape"), find_task("mini_einsum"), find_task("mini_rearrange")
    for rng_seed in range(2):
        for equation, shapes in shape_task.arguments(seed=rng_seed, random_cases=200)[len(shape_task.examples) + len(shape_task.clauses):]:
            if isinstance(expected_outcome(shape_task, (equation, shapes)), Raised):
                kinds.add("shape error")
        for equation, *operands in einsum_task.arguments(seed=rng_seed, random_cases=200):
            lhs = equation.partition("->")[0]
            kinds |= {"ellipsis"} if "..." in equation else set()
            kinds |= {"implicit"} if "->" not in equation else set()
            kinds |= {"repeated"} if any(len(set(t.replace(".", ""))) < len(t.replace(".", "")) for t in lhs.split(",")) else set()
            kinds |= {"size 0"} if any(0 in x.shape for x in operands) else set()
            kinds |= {"strided"} if any(keeps_layout(x) for x in operands) else set()
            kinds |= {f"dtype {x.dtype}" for x in operands}
        for case in rearrange_task.arguments(seed=rng_seed, random_cases=200):
            kinds |= {"rearrange error"} if isinstance(expected_outcome(rearrange_task, case), Raised) else set()
            kinds |= {"rearrange strided"} if keeps_layout(case[0]) else set()
    assert kinds >= {"shape error", "ellipsis", "implicit", "repeated", "size 0", "strided", "dtype float32",
                     "dtype int64", "dtype float64", "rearrange error", "rearrange strided"}, kinds


@pytest.mark.parametrize("name", ["bilinear_by_matmul", "attention_scores"])
def test_einsum_large_cases_agree_with_torch(name: str) -> None:
    task = find_task(name)
    assert task.large_case is not None
    case = task.large_case(task.rng(0))
    assert difference(torch_einsum_outcome(name, case), expected_outcome(task, case), task.tolerance) is None


# ---- unit 14, the compiler: the graph passes agree with torch.fx and with tensorlab.fx ----------

def _compiler_graphs(count: int = 60) -> list[list[tuple]]:
    random_graph = tasks_of("compiler").random_graph

    return [random_graph(np.random.default_rng(seed), duplicates=0.3) for seed in range(count)]


def test_dead_code_reference_agrees_with_torch_fx() -> None:
    """torch.fx keeps placeholders, the output and random ops, as the statement does; it does not know
    that print or an in-place call_method has a side effect, so graphs with those are left out here."""
    eliminate_dead_code_reference = tasks_of("compiler").eliminate_dead_code_reference

    compared = 0
    for nodes in _compiler_graphs():
        if any(op == "print" or op.endswith("_") for _, op, _ in nodes):
            continue
        graph, made = torch.fx.Graph(), {}
        for name, op, args in nodes:
            values = tuple(made[a] if isinstance(a, str) else a for a in args)
            if op == "placeholder":
                made[name] = graph.placeholder(name)
            elif op == "output":
                graph.output(values if len(values) > 1 else values[0])
            else:
                made[name] = graph.call_function(getattr(torch, op), values)
                made[name].name = name
        graph.eliminate_dead_code()
        assert [n.name for n in graph.nodes] == [name for name, _, _ in eliminate_dead_code_reference(nodes)]
        compared += 1
    assert compared >= 20


def test_fusion_reference_agrees_with_tensorlab_fx() -> None:
    from tensorlab.fx import Graph, _chains
    compiler = tasks_of("compiler")
    elementwise, fuse_elementwise_reference = compiler.ELEMENTWISE, compiler.fuse_elementwise_reference

    for nodes in _compiler_graphs():
        graph, made = Graph(), {}
        for name, op, args in nodes:
            values = tuple(made[a] if isinstance(a, str) else a for a in args)
            kind = op if op in ("placeholder", "output") else "call_method"
            made[name] = graph.create_node(kind, op if kind != "placeholder" else name, values, name=name)
        original = {node.name: name for name, node in made.items()}  # tensorlab.fx renames sum to sum_1, as FX does
        assert [[original[n.name] for n in chain] for chain in _chains(graph)] == fuse_elementwise_reference(nodes, elementwise)


def test_common_subexpression_reference_keeps_every_output_value() -> None:
    """Evaluating the graph before and after the pass (pure ops as NumPy ufuncs) gives the same outputs."""
    eliminate_common_subexpressions_reference = tasks_of("compiler").eliminate_common_subexpressions_reference

    functions = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide, "neg": np.negative,
                 "sin": np.sin, "cos": np.cos, "exp": np.exp, "tanh": np.tanh, "relu": lambda a: np.maximum(a, 0),
                 "sum": np.sum, "matmul": lambda a, b: np.multiply(a, b).sum()}

    def run(nodes: list[tuple]) -> list[Any]:
        values: dict[str, Any] = {}
        for name, op, args in nodes:
            inputs = [values[a] if isinstance(a, str) else a for a in args]
            if op == "placeholder":
                values[name] = np.linspace(-1, 1, 4) + len(values)
            elif op == "output":
                return inputs
            else:
                values[name] = functions[op](*inputs)
        raise AssertionError("no output")

    compared = 0
    for nodes in _compiler_graphs():
        if any(op not in functions and op not in ("placeholder", "output") for _, op, _ in nodes):
            continue
        after = eliminate_common_subexpressions_reference(nodes)
        with np.errstate(all="ignore"):
            for want, got in zip(run(nodes), run(after), strict=True):
                np.testing.assert_array_equal(want, got)
        compared += 1
    assert compared >= 10


def test_peak_saved_bytes_reference_matches_a_torch_trace() -> None:
    """Replayed on the events torch's saved-tensor hooks see (storages by data_ptr), the meter gives the
    bytes of the distinct storages alive after forward — counted directly here."""
    peak_saved_bytes_reference = tasks_of("memory_speed").peak_saved_bytes_reference

    events, alive = [], {}

    def pack(t: torch.Tensor) -> torch.Tensor:
        storage = t.untyped_storage()
        events.append(("pack", storage.data_ptr(), storage.nbytes()))
        alive[storage.data_ptr()] = storage.nbytes()
        return t

    def unpack(t: torch.Tensor) -> torch.Tensor:
        storage = t.untyped_storage()
        events.append(("unpack", storage.data_ptr(), storage.nbytes()))
        return t

    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.ReLU(), torch.nn.Linear(8, 8), torch.nn.ReLU())
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        out = model(torch.ones(5, 8, requires_grad=True))
        assert peak_saved_bytes_reference(events) == sum(alive.values())
        out.sum().backward()
    assert peak_saved_bytes_reference(events) == sum(alive.values())
    assert sum(n for kind, _, n in events if kind == "pack") > sum(alive.values())  # ReLU outputs are shared


def test_memory_speed_vectorised_references_agree_with_torch() -> None:
    for name, torch_fn in [
        ("row_standardise", lambda x: (lambda c: c / (c.pow(2).mean(1, keepdim=True).sqrt() + 1e-5))(x - x.mean(1, keepdim=True))),
        ("batched_linear", torch.nn.functional.linear),
    ]:
        task = find_task(name)
        for arguments in task.arguments(seed=4, random_cases=30):
            expected = torch_fn(*(torch.tensor(np.ascontiguousarray(a)) for a in arguments)).numpy()
            np.testing.assert_allclose(task.reference(*arguments), expected, rtol=1e-6, atol=1e-9)



# --- unit 13: kernels and precision ---------------------------------------------------------
KERNEL_TASKS = ("bias_relu_kernel", "row_softmax_kernel", "matmul_tile_kernel")


def kernel_cases(name: str) -> list:
    task = find_task(name)
    return [case for seed in (0, 1, 2) for case in task.cases(seed, 20)]


def test_kernel_references_agree_with_torch() -> None:
    for case in kernel_cases("bias_relu_kernel"):
        x, bias, _, _ = case.arguments
        assert np.array_equal(case.expected, torch.relu(torch.from_numpy(x) + torch.from_numpy(bias)).numpy())
    for case in kernel_cases("row_softmax_kernel"):
        x, _ = case.arguments
        expected = torch.softmax(torch.from_numpy(x).double(), dim=1).float().numpy()
        assert case.expected.dtype == np.float32 and np.allclose(case.expected, expected, rtol=1e-6, atol=0)
    for case in kernel_cases("matmul_tile_kernel"):
        a, b, *_ = case.arguments
        product = torch.from_numpy(np.array(a)).float() @ torch.from_numpy(np.array(b)).float()
        assert np.array_equal(case.expected, product.numpy())


def test_kernel_cases_are_never_multiples_of_the_blocks_and_grids_never_square() -> None:
    for case in kernel_cases("bias_relu_kernel"):
        x, _, block_rows, block_cols = case.arguments
        rows, cols = x.shape
        assert rows % block_rows and cols % block_cols
        assert -(-rows // block_rows) != -(-cols // block_cols)
    for case in kernel_cases("row_softmax_kernel"):
        x, block = case.arguments
        assert block & (block - 1) == 0 and block >= x.shape[1] and x.shape[1] & (x.shape[1] - 1)
    for case in kernel_cases("matmul_tile_kernel"):
        a, b, block_m, block_n, block_k = case.arguments
        (m, k), n = a.shape, b.shape[1]
        assert m % block_m and n % block_n and k % block_k and -(-m // block_m) != -(-n // block_n)


def test_an_fp16_accumulator_gets_every_matmul_case_wrong() -> None:
    """The promise behind the fp16-accumulation mutant: summing in float16 (as tl.dot with
    out_dtype=float16 does, tile by tile) changes at least one element of every case."""
    for case in kernel_cases("matmul_tile_kernel"):
        a, b, _, _, block_k = case.arguments
        accumulator = np.zeros((a.shape[0], b.shape[1]), dtype=np.float16)
        for start in range(0, a.shape[1], block_k):
            tile = np.matmul(a[:, start:start + block_k], b[start:start + block_k], dtype=np.float16)
            accumulator = (accumulator + tile).astype(np.float16)
        assert not np.array_equal(accumulator.astype(np.float32), case.expected)


def test_softmax_cases_overflow_without_the_max_subtracted() -> None:
    """Every seed has rows whose max-free softmax is NaN in float32 (the clauses at ±100)."""
    for seed in (0, 1, 2):
        broken = False
        for case in find_task("row_softmax_kernel").cases(seed, 2):
            with np.errstate(over="ignore", invalid="ignore", under="ignore"):
                exponentials = np.exp(case.arguments[0])
                broken |= bool(np.isnan(exponentials / exponentials.sum(axis=1, keepdims=True)).any())
        assert broken


def test_round_to_format_reference_agrees_with_torch() -> None:
    dtypes = {"bf16": torch.bfloat16, "fp16": torch.float16}
    for seed in (0, 1, 2):
        for case in find_task("round_to_format").cases(seed, 20):
            x, fmt = case.arguments
            expected = torch.from_numpy(np.array(x)).to(dtypes[fmt]).double().numpy()
            numbers = ~np.isnan(expected)  # NaN's sign bit is not a promise
            assert case.expected.shape == expected.shape and case.expected.dtype == np.float64
            assert np.array_equal(case.expected, expected, equal_nan=True)
            assert np.array_equal(np.signbit(case.expected)[numbers], np.signbit(expected)[numbers])
