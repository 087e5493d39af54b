"""The function-mode stack (tensorlab/overrides.py): the one place where ops are intercepted.

torch is the oracle for what interception must reach: ``torch.func.vmap`` batches and
``torch.fx.symbolic_trace`` records a ``sin`` imported by name, so tensorlab's must too. The rest
are facts about the stack itself: every public op enters it, ``with`` pops what it pushed (nested
vmaps, vmap inside tracing, exceptions), and a handler passes calls to the mode below it.
"""

from __future__ import annotations

import types

import numpy as np
import pytest
import torch
import torch.fx
from torch import sin as torch_sin

import tensorlab as tl
import tensorlab.nn.functional as F
from tensorlab import overrides
from tensorlab import sin as tl_sin
from tensorlab.func import vmap
from tensorlab.func.vmap import BatchingMode
from tensorlab.fx import TracingMode, trace


class Log(overrides.FunctionMode):
    """Writes down each op it sees (by public name), then lets it run."""

    def __init__(self, label: str = "log") -> None:
        self.label, self.seen = label, []

    def __tensorlab_function__(self, func, args, kwargs):
        self.seen.append(func.__name__)
        return func(*args, **kwargs)


@pytest.fixture(autouse=True)
def _no_mode_left_behind():
    assert overrides.active_modes() == ()
    yield
    assert overrides.active_modes() == ()


def _data(*shape: int) -> np.ndarray:
    return np.random.default_rng(0).standard_normal(shape).astype(np.float32)


# --- a sin imported by name is intercepted like torch's -------------------------------------------
def test_sin_imported_by_name_is_batched_by_vmap() -> None:
    x = _data(4, 3)
    expected = torch.func.vmap(lambda v: torch_sin(v) * v.sum())(torch.tensor(x))
    got = vmap(lambda v: tl_sin(v) * v.sum())(tl.tensor(x))
    np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-6)
    assert got.shape == tuple(expected.shape)


def test_sin_imported_by_name_is_recorded_by_tracing() -> None:
    theirs = torch.fx.symbolic_trace(lambda x: torch_sin(x) + 1).graph.nodes
    ours = trace(lambda x: tl_sin(x) + 1).graph.nodes
    assert [(n.op, n.name) for n in ours] == [(n.op, n.name) for n in theirs]
    assert ours[1].target is tl.sin


def test_a_function_of_nn_functional_imported_by_name_is_recorded() -> None:
    relu = F.relu
    theirs = torch.fx.symbolic_trace(lambda x: torch.nn.functional.relu(x) * 2).graph.nodes
    ours = trace(lambda x: relu(x) * 2).graph.nodes
    assert [(n.op, n.name) for n in ours] == [(n.op, n.name) for n in theirs]


# --- what enters the stack ------------------------------------------------------------------------
def test_every_public_op_is_wrapped_once_at_import() -> None:
    def public(namespace):
        return [v for k, v in vars(namespace).items() if isinstance(v, types.FunctionType) and not k.startswith("_")]

    functions = public(tl) + public(F)
    methods = [v for k, v in vars(tl.Tensor).items() if isinstance(v, types.FunctionType)
               and (not k.startswith("_") or k in overrides.TENSOR_OPERATORS)]
    assert functions and methods
    assert all(overrides.is_dispatchable(f) for f in functions + methods)
    assert not overrides.is_dispatchable(tl.sin.__wrapped__)  # the op itself, under the wrapper


def test_a_mode_sees_functions_methods_and_operators() -> None:
    a, b = tl.ones(2, 2), tl.ones(2, 2)
    with Log() as log:
        tl.sin(a)
        tl_sin(a)
        a.sum()
        _ = a + b
        _ = a[0]
        F.relu(a)
    assert log.seen == ["sin", "sin", "sum", "__add__", "__getitem__", "relu"]


def test_modes_nest_innermost_first_and_each_handler_passes_down() -> None:
    with Log("outer") as outer, Log("inner") as inner:
        assert overrides.active_modes() == (outer, inner)
        result = tl.exp(tl.zeros(2))
    assert inner.seen == outer.seen == ["zeros", "exp"]
    np.testing.assert_array_equal(result.numpy(), torch.exp(torch.zeros(2)).numpy())


def test_a_handler_runs_with_its_own_mode_off_the_stack() -> None:
    class Inspect(overrides.FunctionMode):
        during: tuple = ()

        def __tensorlab_function__(self, func, args, kwargs):
            Inspect.during = overrides.active_modes()
            return func(*args, **kwargs)

    with Log() as below, Inspect():
        tl.ones(1)
    assert Inspect.during == (below,)


def test_modes_must_exit_in_reverse_order() -> None:
    first, second = Log(), Log()
    first.__enter__()
    second.__enter__()
    with pytest.raises(RuntimeError, match="reverse order"):
        first.__exit__(None, None, None)
    second.__exit__(None, None, None)
    first.__exit__(None, None, None)


# --- nothing is left behind -------------------------------------------------------------------------
def test_nested_vmap_pushes_one_mode_per_level_and_pops_them() -> None:
    seen: list[tuple] = []

    def inner(v):
        seen.append(overrides.active_modes())
        return (v * v).sum()

    x = _data(2, 3, 4)
    got = vmap(vmap(inner))(tl.tensor(x))
    expected = torch.func.vmap(torch.func.vmap(lambda v: (v * v).sum()))(torch.tensor(x))
    np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-5)
    assert [type(m) for m in seen[0]] == [BatchingMode, BatchingMode]


def test_vmap_inside_tracing_leaves_only_the_tracer_then_nothing() -> None:
    seen: list[tuple] = []

    def batched_sin(v):
        seen.append(overrides.active_modes())
        return tl_sin(v)

    module = trace(lambda x: x + vmap(batched_sin)(tl.ones(3, 2)))
    assert [type(m) for m in seen[0]] == [TracingMode, BatchingMode]
    x = _data(3, 2)
    expected = torch.tensor(x) + torch.func.vmap(torch.sin)(torch.ones(3, 2))
    np.testing.assert_allclose(module(tl.tensor(x)).numpy(), expected.numpy(), rtol=1e-6)


@pytest.mark.parametrize("where", ["vmap", "nested vmap", "trace", "vmap inside trace", "handler"])
def test_an_exception_inside_a_mode_leaves_no_mode_behind(where: str) -> None:
    def fails(v):
        raise ValueError("inside")

    class Raising(overrides.FunctionMode):
        def __tensorlab_function__(self, func, args, kwargs):
            raise ValueError("inside")

    with pytest.raises(ValueError, match="inside"):
        if where == "vmap":
            vmap(fails)(tl.ones(2))
        elif where == "nested vmap":
            vmap(vmap(fails))(tl.ones(2, 2))
        elif where == "trace":
            trace(fails)
        elif where == "vmap inside trace":
            trace(lambda x: vmap(fails)(tl.ones(2)))
        else:
            with Log() as below, Raising():
                tl.ones(1)
    if where == "handler":
        assert below.seen == []  # the raising mode was on top: the call never got further


def test_vmap_and_tracing_replace_no_attribute() -> None:
    before = (tl.sin, F.relu, tl.Tensor.__add__, tl.Tensor.sum, vars(tl.Tensor)["__getitem__"])
    vmap(lambda v: F.relu(tl.sin(v)) + v[0].sum())(tl.ones(2, 3))
    trace(lambda x: F.relu(tl.sin(x)) + x.sum())
    assert before == (tl.sin, F.relu, tl.Tensor.__add__, tl.Tensor.sum, vars(tl.Tensor)["__getitem__"])
