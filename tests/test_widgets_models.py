"""The explorers' models against torch: shapes, errors, storage slots and gradients."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import tensorlab
from tensorlab.widgets import (
    BroadcastModel,
    GraphModel,
    IndexModel,
    ReductionModel,
    StrideDrill,
    StrideDrillModel,
    StrideModel,
    VersionExplorer,
    VersionModel,
)
from tensorlab.widgets.broadcast import parse_shape
from tensorlab.widgets.einsum import EinsumModel, parse_shapes
from tensorlab.widgets.index import parse_index_expression
from tensorlab.widgets.reduction import parse_dims
from tensorlab.widgets.stride_drill import DRILLS, parse_strides
from tensorlab.widgets.strides import parse_ops
from tensorlab.widgets.versions import STATEMENTS, run_program, source_of
from tensorlab.widgets.view_or_copy import crossed_boundaries, explain, memory_runs
from tests.public_cases import tasks_of

shapes = st.lists(st.integers(1, 3), max_size=4).map(tuple)
shapes_with_zero = st.lists(st.integers(0, 3), max_size=3).map(tuple)


def torch_outcome(run) -> tuple:
    """(result shape, None) or (None, (exception class name, message)) of running ``run``."""
    try:
        result = run()
        return tuple(getattr(result, "shape", result)), None
    except (RuntimeError, ValueError) as error:
        return None, (type(error).__name__, str(error))


# --- BroadcastModel -----------------------------------------------------------------------------
@given(a=shapes_with_zero, b=shapes_with_zero)
def test_broadcast_pair_result_or_error_is_torchs(a, b) -> None:
    model = BroadcastModel([a, b])
    assert (model.result, model.error) == torch_outcome(lambda: torch.zeros(a) + torch.zeros(b))


@given(a=shapes, b=shapes, c=shapes)
def test_broadcast_three_shapes_is_torch_broadcast_shapes(a, b, c) -> None:
    model = BroadcastModel([a, b, c])
    assert (model.result, model.error) == torch_outcome(lambda: torch.broadcast_shapes(a, b, c))


@given(a=st.lists(st.integers(1, 3), min_size=0, max_size=4).map(tuple), b=st.lists(st.integers(1, 3), max_size=4).map(tuple))
def test_matmul_mode_result_or_error_is_torchs(a, b) -> None:
    model = BroadcastModel([a, b], matmul=True)
    assert (model.result, model.error) == torch_outcome(lambda: torch.zeros(a) @ torch.zeros(b))


@given(a=shapes, b=shapes, matmul=st.booleans(), data=st.data())
def test_sources_are_the_elements_torch_combines(a, b, matmul, data) -> None:
    model = BroadcastModel([a, b], matmul=matmul)
    if model.result is None:
        return
    (x, y), _ = model.values()
    expected = torch.tensor(x) @ torch.tensor(y) if matmul else torch.tensor(x) + torch.tensor(y)
    index = tuple(data.draw(st.integers(0, size - 1)) for size in model.result)
    reads_a, reads_b = model.sources(index)
    if matmul:
        got = sum(int(x[i]) * int(y[j]) for i, j in zip(reads_a, reads_b, strict=True))
    else:
        got = int(x[reads_a[0]]) + int(y[reads_b[0]])
    assert got == expected[index].item()


def test_padded_and_stretched_dims() -> None:
    model = BroadcastModel([(3, 1), (4,)])
    assert model.padded == [[False, False], [True, False]]
    assert model.stretched == [[False, True], [True, False]]
    assert model.result == (3, 4) and model.error is None
    assert BroadcastModel([(2, 3), (4,)]).conflicts == [1]


def test_parse_shape() -> None:
    assert parse_shape("(3, 1)") == (3, 1) and parse_shape("4") == (4,) and parse_shape("()") == ()
    with pytest.raises(ValueError, match="not a shape"):
        parse_shape("3, x")


# --- StrideModel -------------------------------------------------------------------------------
CHAINS = [
    "x", "x.t()", "x.T", "x.mT", "x.transpose(0, 1)", "x.permute(1, 0)", "x[:, ::2]", "x[1:, 1::2]",
    "x.t()[::2]", "x.view(-1)", "x.t().view(-1)", "x.t().reshape(-1)", "x.unsqueeze(0).expand(2, -1, -1)",
    "x.movedim(0, -1)", "x[0]", "x[..., 1]", "x.unsqueeze(1).squeeze(1)", "x.flatten()[1::3]",
    "x.t().contiguous()", "x[:, None]", "x.expand(3, 2)", "x.narrow(1, 1, 2)",
]


@given(shape=st.sampled_from([(2, 3), (3, 4), (4, 2), (1, 3), (3, 1)]), chain=st.sampled_from(CHAINS), data=st.data())
def test_stride_model_matches_torch_and_as_strided(shape, chain, data) -> None:
    model = StrideModel(shape, chain)
    base = torch.arange(int(np.prod(shape))).view(shape)
    try:
        expected = eval(chain, {"x": base})  # the chains above are fixed, trusted test data
    except (RuntimeError, IndexError) as error:
        assert model.error.startswith(type(error).__name__)
        assert str(error) in model.error
        return
    assert not model.error
    step = model.final
    assert (step.shape, step.strides, step.offset) == (tuple(expected.shape), expected.stride(), expected.storage_offset())
    assert step.contiguous == expected.is_contiguous()
    assert step.values == tuple(expected.flatten().tolist())
    if expected.numel():
        index = tuple(data.draw(st.integers(0, size - 1)) for size in step.shape)
        slot = model.storage_index(index)
        assert step.storage[slot] == expected[index].item()
        if not any(s.copied for s in model.steps):  # same storage as arange, whose values are slots
            assert base.as_strided(step.shape, step.strides, step.offset)[index].item() == slot


def test_view_fails_and_reshape_copies() -> None:
    failed = StrideModel((2, 3), "x.t().view(6)")
    assert failed.error.startswith("RuntimeError: view size is not compatible")
    copied = StrideModel((2, 3), "x.t().reshape(6)")
    assert copied.steps[-1].copied and copied.final.storage == (0, 3, 1, 4, 2, 5)
    assert not StrideModel((2, 3), "x.reshape(6)").steps[-1].copied


@pytest.mark.parametrize("expression", ["__import__('os')", "x.numpy()", "y.t()", "x.view(*a)", "x.t(dim=0)", "x[x]"])
def test_op_chain_parser_refuses_anything_but_view_ops(expression) -> None:
    with pytest.raises(ValueError):
        parse_ops(expression)


# --- GraphModel ---------------------------------------------------------------------------------
def expression(library) -> dict:
    """The same small expression in torch or tensorlab, with its tensors by name."""
    x = library.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = library.tensor([0.5, -1.0, 2.0], requires_grad=True)
    h = x * w
    loss = (h.exp() + x).sum()
    return {"x": x, "w": w, "h": h, "loss": loss}


def test_graph_of_tensorlab_matches_graph_of_torch() -> None:
    ours, theirs = expression(tensorlab), expression(torch)
    ours_model, theirs_model = GraphModel(ours["loss"], ours), GraphModel(theirs["loss"], theirs)
    titles = [n.title for n in ours_model.nodes.values() if n.kind != "saved"]
    assert titles == [n.title for n in theirs_model.nodes.values() if n.kind != "saved"]
    assert sum(n.kind == "saved" for n in ours_model.nodes.values()) == sum(n.kind == "saved" for n in theirs_model.nodes.values())
    assert [ours_model.nodes[s.key].title for s in ours_model.steps] == [theirs_model.nodes[s.key].title for s in theirs_model.steps]


def test_graph_steps_accumulate_torchs_gradients_without_touching_grad() -> None:
    ours, theirs = expression(tensorlab), expression(torch)
    model = GraphModel(ours["loss"], ours)
    assert ours["x"].grad is None and ours["w"].grad is None  # recording used autograd.grad
    theirs["h"].retain_grad()
    theirs["loss"].backward()
    final = model.gradients_after(len(model.steps))
    for name in ("x", "w", "h"):
        np.testing.assert_allclose(final[model.key_of(ours[name])], theirs[name].grad.numpy(), rtol=1e-5)
    assert model.gradients_after(0) == {}
    first_steps = model.gradients_after(1)
    assert model.key_of(ours["x"]) not in first_steps  # x's gradient arrives only later


def test_graph_on_torch_tensors_does_not_need_tensorlab_engine() -> None:
    theirs = expression(torch)
    model = GraphModel(theirs["loss"], theirs)
    assert model.steps and not model.error and theirs["x"].grad is None
    leaf = next(n for n in model.nodes.values() if n.title.startswith("x "))
    assert leaf.leaf and leaf.lines == ["leaf, requires_grad=True"]


def test_graph_after_backward_freed_it_says_so() -> None:
    ours = expression(tensorlab)
    ours["loss"].backward()
    model = GraphModel(ours["loss"], ours)
    assert model.error.startswith("RuntimeError") and "cannot run backward" in model.describe()
    assert not model.steps


# --- StrideDrillModel ----------------------------------------------------------------------------
@pytest.mark.parametrize(("shape", "expression"), DRILLS)
def test_every_drill_answer_is_torchs_stride(shape, expression) -> None:
    model = StrideDrillModel(shape, expression)
    expected = eval(expression, {"x": torch.arange(int(np.prod(shape))).view(shape)})  # fixed, trusted drills
    assert model.answer == expected.stride()
    assert f"stride {expected.stride()}, storage_offset {expected.storage_offset()}" in model.explanation()
    assert not model.revealed


def test_a_right_answer_reveals_and_a_wrong_one_hints_without_the_answer() -> None:
    model = StrideDrillModel((3, 4), "x.t()")  # torch: stride (1, 4)
    too_short = model.check("4")
    assert not too_short.correct and "2 strides" in too_short.message and not model.revealed
    swapped = model.check((4, 1))
    assert not swapped.correct and "wrong order" in swapped.message and "(1, 4)" not in swapped.message
    assert "(1, 4)" not in model.check([2, 5]).message
    right = model.check("1, 4")
    assert right.correct and model.revealed and [a.correct for a in model.attempts] == [False, False, False, True]


def test_show_me_reveals_the_answer() -> None:
    model = StrideDrillModel((2, 3, 4), "x[:, 1]")
    verdict = model.reveal()
    assert model.revealed and not verdict.correct
    assert str(torch.empty(2, 3, 4)[:, 1].stride()) in verdict.message


@pytest.mark.parametrize(("text", "strides"), [("(4, 1)", (4, 1)), ("4, 1", (4, 1)), ("[12, 4, 1]", (12, 4, 1)), ("0", (0,)), ("", ())])
def test_parse_strides_reads_what_a_learner_types(text, strides) -> None:
    assert parse_strides(text) == strides


@pytest.mark.parametrize("text", ["4; 1", "(4.0, 1)", "x.stride()", "'4, 1'", "__import__('os')"])
def test_parse_strides_refuses_anything_but_integers(text) -> None:
    with pytest.raises(ValueError):
        parse_strides(text)


def test_drill_needs_a_view_that_exists() -> None:
    with pytest.raises(ValueError, match="view size is not compatible"):
        StrideDrillModel((2, 3), "x.t().view(6)")


def test_stride_drill_steps_through_its_drills_and_checks_the_current_one() -> None:
    drill = StrideDrill([((3, 4), "x.t()"), ((2, 3), "x[:, ::2]")])
    assert drill.summary().startswith("drill 1/2: x = arange(12).view([3, 4]); y = x.t().")
    assert "not a" in drill.check("not a stride").message and not drill.model.attempts
    assert drill.check((1, 4)).correct and drill.summary().startswith("drill 1/2: ✓ Right")
    drill.go_to(drill.number + 1)
    assert drill.summary().startswith("drill 2/2:") and not drill.model.revealed
    assert drill.check(torch.empty(2, 3)[:, ::2].stride()).correct
    drill.go_to(drill.number + 1)
    assert drill.number == 0 and not drill.model.revealed  # back to the first, hidden again


# --- VersionModel -------------------------------------------------------------------------------
PROGRAM = [("new", "a"), ("view", "b", "a"), ("add_", "b"), ("detach", "d", "a"), ("clone", "c", "a"),
           ("index_iadd", "a"), ("copy_", "c", "d"), ("add", "a", "a"), ("iadd", "a"), ("setitem", "b")]


def test_version_model_agrees_with_torch_after_every_statement() -> None:
    """Storage sharing and _version, step by step, as torch has them (torch's version counter is
    per tensor family, tensorlab's per storage: for these statements they must agree)."""
    assert run_program(PROGRAM, torch) == run_program(PROGRAM, tensorlab)
    model = VersionModel(PROGRAM)
    assert [step.state for step in model.steps] == run_program(PROGRAM, torch)


@given(st.lists(st.tuples(st.sampled_from(sorted(STATEMENTS)), st.sampled_from("ab"), st.sampled_from("ab")),
                min_size=1, max_size=8))
def test_any_program_agrees_with_torch(statements: list[tuple[str, str, str]]) -> None:
    program = [("new", "a"), ("new", "b")] + [(kind, target, source)[:1 + STATEMENTS[kind][0]]
                                               for kind, target, source in statements]
    assert run_program(program, tensorlab) == run_program(program, torch)


def test_version_model_names_storages_by_the_statement_that_allocated_them() -> None:
    step = VersionModel(PROGRAM).steps[7]  # after a = a + 1
    assert step.source == "a = a + 1"
    assert step.storages() == {7: ["a"], 0: ["b", "d"], 4: ["c"]}
    assert step.version_of(0) == 3  # b.add_(1) once, a[0] += 1 twice
    assert "storage #0 (version 3): b, d" in VersionModel(PROGRAM).describe(7)


def test_version_programs_are_checked_before_they_run() -> None:
    assert source_of(("copy_", "a", "b")) == "a.copy_(b)"
    with pytest.raises(ValueError, match="unknown statement"):
        VersionModel([("new", "a"), ("exec", "a")])
    with pytest.raises(ValueError, match="takes 2 name"):
        VersionModel([("new", "a"), ("view", "b")])
    with pytest.raises(ValueError, match="used before it is assigned"):
        VersionModel([("new", "a"), ("add_", "b")])
    with pytest.raises(ValueError, match="at least one statement"):
        VersionModel([])


def test_version_explorer_clamps_its_step() -> None:
    assert VersionExplorer(PROGRAM, step=99).step == len(PROGRAM) - 1
    assert VersionExplorer(PROGRAM, step=-3).step == 0
    assert VersionExplorer(PROGRAM).summary().startswith(f"after statement {len(PROGRAM) - 1}, b[0] = 5")


# --- import cost --------------------------------------------------------------------------------
def test_widgets_do_not_import_ipywidgets_or_torch_until_displayed() -> None:
    code = (
        "import sys, tensorlab, tensorlab.widgets as w\n"
        "svg = w.BroadcastExplorer((3, 1), (4,))._repr_mimebundle_()['image/svg+xml']\n"
        "w.StrideExplorer((2, 3), 'x.t()').to_svg()\n"
        "w.StrideDrill().to_svg()\n"
        "x = tensorlab.ones(2, requires_grad=True); w.GraphExplorer((x * x).sum(), {'x': x}).to_svg()\n"
        "w.VersionExplorer([('new', 'a'), ('view', 'b', 'a'), ('add_', 'b')]).to_svg()\n"
        "assert svg.startswith('<svg')\n"
        "bad = [m for m in ('ipywidgets', 'anywidget', 'torch', 'IPython') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# --- ReductionModel -----------------------------------------------------------------------------
reduction_shapes = st.lists(st.integers(0, 3), min_size=1, max_size=3).map(tuple)
reduction_dims = st.one_of(
    st.none(), st.integers(-4, 3), st.lists(st.integers(-4, 3), min_size=1, max_size=3),
)


def torch_sum_outcome(shape: tuple, dims, keepdim: bool) -> tuple:
    """(result shape, None) or (None, (exception class name, message)) of torch.zeros(shape).sum(dims, keepdim)."""
    try:
        return tuple(torch.zeros(shape).sum(dims, keepdim=keepdim).shape), None
    except (IndexError, RuntimeError) as error:
        return None, (type(error).__name__, str(error))


@given(shape=reduction_shapes, dims=reduction_dims, keepdim=st.booleans())
def test_reduction_result_or_error_is_torchs(shape, dims, keepdim) -> None:
    model = ReductionModel(shape, dims, keepdim)
    assert (model.result, model.error) == torch_sum_outcome(shape, dims, keepdim)


@given(shape=reduction_shapes, dims=reduction_dims, keepdim=st.booleans())
def test_reduction_each_input_feeds_the_output_torch_adds_it_into(shape, dims, keepdim) -> None:
    """One-hot inputs: torch's sum puts the 1 exactly where the model says, and sources agree."""
    model = ReductionModel(shape, dims, keepdim)
    if model.error is not None:
        return
    for index in np.ndindex(*shape):
        one_hot = torch.zeros(shape)
        one_hot[index] = 1
        out = one_hot.sum(dims, keepdim=keepdim)
        assert out[model.target(index)] == 1 and out.sum() == 1
        assert index in model.sources(model.target(index))


def test_reduction_sources_of_the_seed_keepdim_example() -> None:
    model = ReductionModel((3, 4, 5), [0, 1], keepdim=True)
    assert model.result == (1, 1, 5) and model.count() == 12
    sources = model.sources((0, 0, 2))
    assert len(sources) == 12 and all(index[2] == 2 for index in sources)
    assert ReductionModel((2, 3), -1).sources((1,)) == [(1, 0), (1, 1), (1, 2)]


def test_reduction_dims_none_or_empty_list_reduce_everything_like_torch() -> None:
    for dims in (None, []):
        assert ReductionModel((2, 3), dims).result == tuple(torch.ones(2, 3).sum(dims).shape) == ()


def test_reduction_parse_dims() -> None:
    assert parse_dims("1") == 1 and parse_dims("[1]") == [1] and parse_dims("0, 2") == [0, 2]
    assert parse_dims("") is None and parse_dims("None") is None and parse_dims("-1,") == [-1]
    with pytest.raises(ValueError, match="not dims"):
        parse_dims("a, b")
# --- IndexModel ---------------------------------------------------------------------------------
READS = [
    ((2, 3), "x[0, 0]"), ((2, 3), "x[-1, -1]"), ((2, 3), "x[0]"), ((2, 3), "x[:, 1:]"), ((2, 3), "x[:, ::2]"),
    ((2, 3), "x[[0, 1, 0, 1]]"), ((2, 3), "x[[0, 1, 0, 1], [0, 1, 0, 1]]"), ((2, 3), "x[:, [0, 1, 0, 1]]"),
    ((2, 3), "x[[False, True]]"), ((2, 3), "x[[False, True], [False, True, True]]"), ((2, 3), "x[:, [False, True, True]]"),
    ((2, 3, 4), "x[[0, 1], :, [1, 3]]"), ((2, 3, 4), "x[0, :, [0, 1]]"), ((2, 3, 4), "x[:, [0, 2], [1, 1]]"),
    ((2, 3, 4), "x[[0, 1], None, [0, 1]]"), ((2, 3), "x[x % 2 == 0]"), ((2, 3), "x[x > 2]"), ((2, 3), "x[[[0], [1]], [0, 2]]"),
    ((2, 3), "x[..., [2, 0]]"), ((2, 3), "x[None, 1]"),
]
WRITES = [
    ((2, 3), "x[:, 0] = v", ()), ((2, 3), "x[:] = v", (1, 3)), ((2, 3), "x[:, :] = v", (1, 3)), ((2, 3), "x[0] = v", (1, 1, 3)),
    ((2, 3), "x[[0, 1], [2, 0]] = v", (2,)), ((2, 3), "x[:, [0, 2]] = v", (2, 1)), ((2, 3), "x[x > 3] = v", (2,)),
    ((2, 3, 4), "x[0, :, [1, 3]] = v", (3, 2)), ((2, 3, 4), "x[[0, 1], :, [1, 3]] = v", (2, 3)),
]


@pytest.mark.parametrize(("shape", "expression"), READS)
def test_index_model_sources_are_where_torch_reads(shape, expression) -> None:
    """Index a random torch tensor the same way: element k of the result is its value at sources[k]."""
    model = IndexModel(shape, expression)
    assert not model.error
    values = torch.randn(shape)
    if "x %" in expression or "x >" in expression:  # a mask of x is built from arange(n), as the model does
        expected = values[eval(expression[2:-1], {"x": torch.arange(values.numel()).view(shape)})]
    else:
        expected = eval(expression, {"x": values})  # fixed, trusted test data
    assert model.result_shape == tuple(expected.shape)
    assert torch.equal(values.flatten()[torch.from_numpy(model.sources)], expected)
    shares = expected.untyped_storage().data_ptr() == values.untyped_storage().data_ptr()
    assert model.is_view == shares


@pytest.mark.parametrize(("shape", "expression", "value_shape"), WRITES)
def test_index_model_assignment_is_where_torch_writes(shape, expression, value_shape) -> None:
    """After torch's x[index] = v, element i of x holds v.flatten()[sources[i]], or its old value where sources is -1."""
    model = IndexModel(shape, expression, value_shape)
    assert not model.error
    x, v = torch.randn(shape), torch.randn(value_shape)
    before = x.clone()
    exec(expression.replace("x > 3", "torch.arange(x.numel()).view(x.shape) > 3"), {"x": x, "v": v, "torch": torch})
    sources = torch.from_numpy(model.sources)
    expected = torch.where(sources >= 0, v.flatten()[sources.clamp(min=0)] if v.numel() else before, before)
    assert torch.equal(x, expected)


@pytest.mark.parametrize(("shape", "expression", "value_shape"), [
    ((2, 3), "x[[0, 1], [0, 1, 2]]", None), ((2, 3), "x[5]", None), ((2, 3), "x[[True, False, True]]", None),
    ((2, 3), "x[:, 0] = v", (3,)), ((2, 3), "x[[0, 1], [0, 1]] = v", (3,)),
])
def test_index_model_reports_torchs_errors(shape, expression, value_shape) -> None:
    model = IndexModel(shape, expression, value_shape)
    x = torch.arange(6).view(shape)
    try:
        exec(expression, {"x": x, "v": torch.arange(int(np.prod(value_shape or ()))).view(value_shape or ())})
    except (IndexError, RuntimeError) as error:
        assert model.error == f"{type(error).__name__}: {error}"
    else:
        raise AssertionError("torch did not raise")


@pytest.mark.parametrize("expression", ["__import__('os')", "x.numpy()", "y[0]", "x[0] = 1", "x[f(0)]", "x[x.sum()]", "x[0]; x[1]"])
def test_index_parser_refuses_anything_but_literal_indices(expression) -> None:
    with pytest.raises(ValueError):
        parse_index_expression(expression)


# --- view or copy? (StrideModel's why, tensorlab/widgets/view_or_copy.py) ----------------------
def test_memory_runs_group_dims_that_step_into_each_other() -> None:
    assert memory_runs((2, 3), (3, 1)) == [(0, 1)]
    assert memory_runs((3, 2), (1, 3)) == [(0,), (1,)]  # a transpose
    assert memory_runs((3, 2, 4), (4, 12, 1)) == [(0,), (1,), (2,)]
    assert memory_runs((2, 1, 3), (3, 100, 1)) == [(0, 1, 2)]  # a size-1 dim never breaks a run
    assert memory_runs((), ()) == []


@pytest.mark.parametrize("seed", range(8))
def test_crossed_boundaries_are_empty_exactly_when_torch_can_view(seed: int) -> None:
    random_layout, regroup = (tasks_of("reshape_and_view").random_layout, tasks_of("reshape_and_view").regroup)

    rng = np.random.default_rng(seed)
    for _ in range(60):
        shape, strides = random_layout(rng)
        new_shape = regroup(rng, shape)
        span = 1 if 0 in shape else 1 + sum((size - 1) * stride for size, stride in zip(shape, strides, strict=True))
        try:
            torch.zeros(span).as_strided(shape, strides).view(new_shape)
            torch_views = True
        except RuntimeError:
            torch_views = False
        assert (crossed_boundaries(shape, strides, new_shape) == []) == torch_views, (shape, strides, new_shape)


def test_stride_model_says_which_dims_cannot_merge() -> None:
    failed = StrideModel((2, 3), "x.t().view(6)")
    assert failed.steps[-1].why == ("no view of shape [6]: runs of memory (0) (1); "
                                    "dims 0 and 1 cannot merge: stride[0] = 1, not stride[1] * size[1] = 6")
    copied = StrideModel((2, 3, 4), "x.permute(1, 0, 2).flatten(1)")
    assert copied.steps[-1].copied and "dims 1 and 2 cannot merge" in copied.steps[-1].why
    assert "dims 1 and 2 cannot merge" in copied.describe()
    for viewed in ["x[:, ::2].view(-1)", "x.t().reshape(3, 2)", "x.reshape(6)", "x.t()"]:
        assert not any(step.why for step in StrideModel((3, 4) if "::2" in viewed else (2, 3), viewed).steps)
    assert explain((3, 2), (4, 2), (6,)).startswith("view possible: runs of memory (0, 1)")


# --- EinsumExplorer (unit 10) --------------------------------------------------------------------
def einsum_outcome_in_torch(equation: str, shapes: list[tuple[int, ...]]) -> tuple[int, ...] | str:
    """torch's result shape (meta tensors: nothing allocated), or its exception class."""
    try:
        return tuple(torch.einsum(equation, *[torch.empty(shape, device="meta") for shape in shapes]).shape)
    except RuntimeError as error:
        return type(error).__name__


@pytest.mark.parametrize("seed", range(6))
def test_einsum_model_result_or_error_is_torchs(seed: int) -> None:
    random_spec = tasks_of("einsum_einops").random_spec

    rng = np.random.default_rng(seed)
    for _ in range(60):
        equation, shapes = random_spec(rng, clashes=True)
        model = EinsumModel(equation, shapes)
        expected = einsum_outcome_in_torch(equation, shapes)
        assert (model.result if model.error is None else model.error[0]) == expected, (equation, shapes)


@pytest.mark.parametrize("seed", range(4))
def test_einsum_model_loops_compute_torch_einsum(seed: int) -> None:
    """The loops the explorer prints, run as Python, give torch.einsum's values (broadcast dims index 0)."""
    random_spec = tasks_of("einsum_einops").random_spec

    rng = np.random.default_rng(seed)
    for _ in range(30):
        equation, shapes = random_spec(rng, clashes=False)
        model = EinsumModel(equation, shapes)
        operands = [rng.standard_normal(shape) for shape in shapes]
        scope = {f"op{k}": x for k, x in enumerate(operands)} | {"out": np.zeros(model.result or ())}
        code = "\n".join(model.loops()).replace("…", "e_")  # '…0' names a dim under '...'; Python needs a plain name
        exec(code, scope)  # the explorer's own output, run on NumPy arrays
        expected = torch.einsum(equation, *[torch.from_numpy(x) for x in operands]).numpy()
        np.testing.assert_allclose(scope["out"], expected, rtol=1e-10, atol=1e-10, err_msg=f"{equation} {shapes}\n{code}")


def test_einsum_model_names_kept_and_summed_letters() -> None:
    model = EinsumModel("bij,bjk->bik", [(3, 2, 5), (3, 5, 4)])
    assert model.output == ["b", "i", "k"] and model.summed == ["j"] and model.result == (3, 2, 4)
    assert model.multiplications() == 3 * 2 * 4 * 5
    assert model.loops()[-1].strip() == "out[b, i, k] += op0[b, i, j] * op1[b, j, k]"
    assert "j: size 5, summed (not in the output)" in model.role("j")
    trace = EinsumModel("ii", [(4, 4)])
    assert trace.result == () and trace.loops() == ["for i in range(4):", "  out += op0[i, i]"]
    assert "its diagonal" in trace.role("i")
    implicit = EinsumModel("ji", [(2, 3)])
    assert implicit.output == ["i", "j"] and implicit.result == (3, 2)  # sorted letters: a transpose
    broadcast = EinsumModel("...ij,...jk", [(5, 1, 2, 3), (4, 3, 2)])
    assert broadcast.result == (5, 4, 2, 2)
    assert broadcast.statement() == "out[…0, …1, i, k] += op0[…0, 0, i, j] * op1[…1, j, k]"


def test_einsum_model_error_is_torchs_message() -> None:
    model = EinsumModel("i,i", [(2,), (3,)])
    with pytest.raises(RuntimeError) as raised:
        torch.einsum("i,i", torch.ones(2), torch.ones(3))
    assert model.error == ("RuntimeError", str(raised.value)) and model.result is None and model.loops() == []
    assert model.describe().endswith(str(raised.value))


@pytest.mark.parametrize(("text", "shapes"), [("(3, 2, 5), (3, 5, 4)", [(3, 2, 5), (3, 5, 4)]), ("(4, 4)", [(4, 4)]),
                                              ("(5,), (4,)", [(5,), (4,)]), ("()", [()]), ("[(2, 3)]", [(2, 3)])])
def test_parse_shapes_reads_what_a_learner_types(text: str, shapes: list[tuple[int, ...]]) -> None:
    assert parse_shapes(text) == shapes


@pytest.mark.parametrize("text", ["(3, 2", "3, -1", "(a, b)", "((1, 2.5),)"])
def test_parse_shapes_refuses_anything_but_shapes(text: str) -> None:
    with pytest.raises(ValueError, match="not shapes"):
        parse_shapes(text)
