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
from tensorlab.widgets import BroadcastModel, GraphModel, StrideModel, VersionExplorer, VersionModel
from tensorlab.widgets.broadcast import parse_shape
from tensorlab.widgets.strides import parse_ops
from tensorlab.widgets.versions import STATEMENTS, run_program, source_of

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
        "x = tensorlab.ones(2, requires_grad=True); w.GraphExplorer((x * x).sum(), {'x': x}).to_svg()\n"
        "w.VersionExplorer([('new', 'a'), ('view', 'b', 'a'), ('add_', 'b')]).to_svg()\n"
        "assert svg.startswith('<svg')\n"
        "bad = [m for m in ('ipywidgets', 'anywidget', 'torch', 'IPython') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
