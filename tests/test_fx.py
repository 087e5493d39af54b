"""tensorlab.fx: the graph it records matches torch.fx's, running it equals eager, fusion shrinks it.

torch is the oracle twice: ``torch.fx.symbolic_trace`` of the same function written for torch
gives the node kinds and names the tensorlab tracer must give, and eager torch gives the values
the traced and the fused modules must compute.
"""

from __future__ import annotations

import operator
import re

import numpy as np
import pytest
import torch
import torch.fx
from hypothesis import given, settings
from hypothesis import strategies as st

import tensorlab as tl
from tensorlab.fx import GraphModule, TraceError, fuse_elementwise, trace


def branching(lib, x, y):
    a = lib.sin(x) * 2 + y
    b = a.relu() - a.exp()          # a has two users: the chain must stop at it
    return lib.sum(b * 0.5) + lib.tanh(y).abs() / 3


def long_chain(lib, x, y):
    return ((x * 0.5 + y).sin() * 2 - 0.25).abs() / 3 + lib.sigmoid(x) - lib.neg(lib.cos(y))


FUNCTIONS = [branching, long_chain]


def _traced(function, lib):
    def bound(x, y):
        return function(lib, x, y)
    return bound


@pytest.mark.parametrize("function", FUNCTIONS)
def test_graph_has_torch_fx_nodes(function) -> None:
    ours = trace(_traced(function, tl)).graph.nodes
    theirs = list(torch.fx.symbolic_trace(_traced(function, torch)).graph.nodes)
    assert [(n.op, n.name, len(n.users)) for n in ours] == [(n.op, n.name, len(n.users)) for n in theirs]
    for mine, torchs in zip(ours, theirs, strict=True):
        if mine.op == "call_method":
            assert mine.target == torchs.target
        elif mine.op == "call_function":
            assert mine.target.__name__ == torchs.target.__name__


def test_printed_like_fx() -> None:
    printed = str(trace(_traced(branching, tl)))
    theirs = str(torch.fx.symbolic_trace(_traced(branching, torch)).graph)

    def shape(text: str) -> list[str]:  # the line structure, without the libraries' module names
        return [re.sub(r"target=[\w.]*?(\w+)\]", r"target=\1]", line.strip()) for line in text.strip().splitlines()]

    assert shape(printed) == shape(theirs)


@settings(max_examples=25, deadline=None)
@given(rows=st.integers(0, 5), cols=st.integers(1, 6), broadcast=st.booleans(), seed=st.integers(0, 2**16))
@pytest.mark.parametrize("function", FUNCTIONS)
def test_traced_and_fused_equal_eager_torch(function, rows: int, cols: int, broadcast: bool, seed: int) -> None:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((rows, cols)).astype(np.float32)
    y = rng.standard_normal((cols,) if broadcast else (rows, cols)).astype(np.float32)
    expected = function(torch, torch.from_numpy(x), torch.from_numpy(y)).numpy()
    traced = trace(_traced(function, tl))
    for module in (traced, fuse_elementwise(traced)):
        got = module(tl.tensor(x), tl.tensor(y)).numpy()
        assert got.shape == expected.shape and got.dtype == expected.dtype
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_fusion_reduces_nodes_and_keeps_multi_user_values() -> None:
    traced = trace(_traced(branching, tl))
    fused = fuse_elementwise(traced)
    assert len(fused.graph.nodes) < len(traced.graph.nodes)
    kinds = [n.op for n in fused.graph.nodes]
    assert kinds.count("call_fused") == 3  # sin*2+y; relu-exp then *0.5; tanh.abs()/3 + the sum
    # a = sin(x)*2 + y is used twice: it ends a fused chain, its users start from its value
    first = next(n for n in fused.graph.nodes if n.op == "call_fused")
    assert len(first.users) == 2


def test_long_chain_becomes_few_kernels_without_element_loops() -> None:
    traced = trace(_traced(long_chain, tl))
    fused = fuse_elementwise(traced)
    assert len(traced.graph.nodes) == 15
    # x, y, the lone sigmoid (a chain of one is left alone), cos→neg, the 9-op main chain, output
    assert [n.op for n in fused.graph.nodes] == ["placeholder"] * 2 + ["call_function"] + ["call_fused"] * 2 + ["output"]
    source = "\n".join(fused.kernels.values())
    assert "for " not in source and "while " not in source
    assert source.count("out=out") == 11  # cos, neg; then 9 steps: every step writes its chain's one buffer


def test_fused_module_allocates_one_buffer_per_chain() -> None:
    fused = fuse_elementwise(trace(lambda x: ((x + 1) * 2).sin()))
    assert sum(" = np.empty(" in source for source in fused.kernels.values()) == 1


def test_data_dependent_control_flow_cannot_be_traced_like_torch_fx() -> None:
    def positive_part(x):
        if x.sum() > 0:
            return x
        return -x

    with pytest.raises(torch.fx.proxy.TraceError):
        torch.fx.symbolic_trace(positive_part)
    with pytest.raises(TraceError, match="control flow"):
        trace(positive_part)


def test_python_loops_are_unrolled_into_the_graph() -> None:
    def repeated(x):
        for _ in range(3):
            x = x * 2
        return x

    ours = trace(repeated).graph.nodes
    assert [n.target for n in ours if n.op == "call_function"] == [operator.mul] * 3
    assert len(list(torch.fx.symbolic_trace(repeated).graph.nodes)) == len(ours)


def test_tracing_leaves_tensorlab_unchanged() -> None:
    before = tl.sin
    with pytest.raises(TraceError):
        trace(lambda x: tl.sin(x) if x else x)
    assert tl.sin is before
    assert isinstance(trace(lambda x: tl.sin(x)), GraphModule) and tl.sin is before
