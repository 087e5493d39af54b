"""nn.RNN/LSTM/GRU and RNNCell/LSTMCell/GRUCell against torch.

Each layer is built in both libraries with torch's weights copied into tensorlab through the
state dict (so names, shapes and order must match). Then: the output, the final states, and the
gradients of the input, of h0/c0 and of every parameter. The layers run on both paths: the fast
one (the time loop as one Function, tensorlab/_fast/recurrent.py) and the plain one (one tensor op at a time).
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import tensorlab as tl
from tests.oracle import assert_same, assert_same_error, standard_normal

PATHS = pytest.mark.parametrize("fast", [True, False], ids=["fast", "plain"])


def copy_torch_weights(t: torch.nn.Module, m: tl.nn.Module) -> None:
    state = {k: tl.tensor(v.detach().numpy().copy()) for k, v in t.state_dict().items()}
    assert list(state) == list(m.state_dict())
    m.load_state_dict(state)


def build_twins(name: str, *args: Any, **kwargs: Any) -> tuple[torch.nn.Module, tl.nn.Module]:
    torch.manual_seed(0)
    t = getattr(torch.nn, name)(*args, **kwargs).double()
    m = getattr(tl.nn, name)(*args, **kwargs).double()
    copy_torch_weights(t, m)
    return t, m


def weighted_sum(lib: Any, outputs: list, seed: int) -> Any:
    """A loss that reaches every output with its own random weights."""
    rng = np.random.default_rng(seed)
    return sum((o * lib.tensor(rng.standard_normal(tuple(o.shape)))).sum() for o in outputs)


def flat(result: Any) -> list:
    """(output, h_n) or (output, (h_n, c_n)) or h or (h, c), as a flat list of tensors."""
    if isinstance(result, (tuple, list)):
        return [t for item in result for t in flat(item)]
    return [result]


def compare(t: torch.nn.Module, m: tl.nn.Module, arrays: list[np.ndarray], hx_shape: str = "none") -> None:
    """Run both on the same inputs (``arrays``: input, then h0 [, c0]); compare everything."""
    inputs_t = [torch.tensor(a.copy(), requires_grad=True) for a in arrays]
    inputs_m = [tl.tensor(a.copy(), requires_grad=True) for a in arrays]

    def call(layer: Any, inputs: list) -> Any:
        x, *states = inputs
        if not states:
            return layer(x)
        return layer(x, tuple(states) if hx_shape == "pair" else states[0])

    out_t, out_m = call(t, inputs_t), call(m, inputs_m)
    assert_same(out_t, out_m, rtol=1e-9, atol=1e-10)
    weighted_sum(torch, flat(out_t), 1).backward()
    weighted_sum(tl, flat(out_m), 1).backward()
    for i, (a, b) in enumerate(zip(inputs_t, inputs_m, strict=True)):
        assert_same(a.grad, b.grad, rtol=1e-9, atol=1e-10, where=f"grad of input {i}")
    for (name_t, p_t), (name_m, p_m) in zip(t.named_parameters(), m.named_parameters(), strict=True):
        assert name_t == name_m
        assert_same(p_t.grad, p_m.grad, rtol=1e-9, atol=1e-10, where=f"grad of {name_m}")


def sequence_arrays(name: str, m: Any, steps: int, batch: int | None, with_state: bool, seed: int = 0) -> list[np.ndarray]:
    """Input (batched or not, batch_first or not) and, if asked, h0 (and c0 for an LSTM)."""
    x_shape = (steps, m.input_size) if batch is None else ((batch, steps) if m.batch_first else (steps, batch)) + (m.input_size,)
    arrays = [standard_normal(x_shape, seed)]
    if with_state:
        layers = m.num_layers * (2 if m.bidirectional else 1)
        batch_dims = () if batch is None else (batch,)
        arrays.append(standard_normal((layers, *batch_dims, m.proj_size or m.hidden_size), seed + 1))
        if name == "LSTM":
            arrays.append(standard_normal((layers, *batch_dims, m.hidden_size), seed + 2))
    return arrays


CONFIGS = {
    "one_layer": {},
    "two_layers": {"num_layers": 2},
    "bidirectional": {"bidirectional": True},
    "deep_bidirectional_batch_first": {"num_layers": 2, "bidirectional": True, "batch_first": True},
    "no_bias": {"bias": False, "num_layers": 2},
    "batch_first": {"batch_first": True},
}


@PATHS
@pytest.mark.parametrize("name", ["RNN", "LSTM", "GRU"])
@pytest.mark.parametrize("config", list(CONFIGS))
@pytest.mark.parametrize("with_state", [False, True], ids=["zero_state", "given_state"])
def test_layer_matches_torch(fast: bool, name: str, config: str, with_state: bool) -> None:
    t, m = build_twins(name, 3, 4, **CONFIGS[config])
    with tl.fast_path(fast):
        compare(t, m, sequence_arrays(name, m, steps=5, batch=2, with_state=with_state), "pair" if name == "LSTM" else "single")


@PATHS
@pytest.mark.parametrize("name", ["RNN", "LSTM", "GRU"])
@pytest.mark.parametrize("with_state", [False, True], ids=["zero_state", "given_state"])
def test_unbatched_input(fast: bool, name: str, with_state: bool) -> None:
    """A (T, features) input: output (T, D*H), states (layers*D, H)."""
    t, m = build_twins(name, 3, 4, num_layers=2, bidirectional=True)
    with tl.fast_path(fast):
        compare(t, m, sequence_arrays(name, m, steps=4, batch=None, with_state=with_state), "pair" if name == "LSTM" else "single")


@PATHS
@pytest.mark.parametrize("nonlinearity", ["tanh", "relu"])
def test_rnn_nonlinearity(fast: bool, nonlinearity: str) -> None:
    t, m = build_twins("RNN", 3, 4, 2, nonlinearity)  # the 4th positional argument, as in torch
    assert m.nonlinearity == nonlinearity
    with tl.fast_path(fast):
        compare(t, m, sequence_arrays("RNN", m, steps=3, batch=2, with_state=True), "single")


@PATHS
@pytest.mark.parametrize("name", ["RNN", "LSTM", "GRU"])
def test_empty_batch(fast: bool, name: str) -> None:
    t, m = build_twins(name, 3, 4, bidirectional=True)
    with tl.fast_path(fast):
        compare(t, m, sequence_arrays(name, m, steps=3, batch=0, with_state=False))


@PATHS
@pytest.mark.parametrize("bidirectional", [False, True])
def test_lstm_projections(fast: bool, bidirectional: bool) -> None:
    """proj_size: h (and the output) have proj_size features, c keeps hidden_size."""
    t, m = build_twins("LSTM", 3, 5, num_layers=2, proj_size=2, bidirectional=bidirectional)
    with tl.fast_path(fast):
        compare(t, m, sequence_arrays("LSTM", m, steps=4, batch=2, with_state=True), "pair")


@pytest.mark.filterwarnings("ignore:LSTM with projections is not supported with oneDNN")
@given(
    name=st.sampled_from(["RNN", "LSTM", "GRU"]), steps=st.integers(1, 4), batch=st.integers(1, 3),
    input_size=st.integers(1, 3), hidden=st.integers(1, 3), layers=st.integers(1, 2), bidirectional=st.booleans(),
    batch_first=st.booleans(), bias=st.booleans(), with_state=st.booleans(), fast=st.booleans(), seed=st.integers(0, 2**16),
    proj=st.integers(0, 2),
)
def test_layer_random(
    name: str, steps: int, batch: int, input_size: int, hidden: int, layers: int, bidirectional: bool,
    batch_first: bool, bias: bool, with_state: bool, fast: bool, seed: int, proj: int,
) -> None:
    """Any sizes and options (an LSTM also with projections, when proj_size < hidden_size)."""
    options = {"proj_size": proj} if name == "LSTM" and proj < hidden else {}
    t, m = build_twins(name, input_size, hidden, layers, bias=bias, batch_first=batch_first, bidirectional=bidirectional, **options)
    with tl.fast_path(fast):
        compare(t, m, sequence_arrays(name, m, steps, batch, with_state, seed), "pair" if name == "LSTM" else "single")


def test_float32_training_step_matches_torch() -> None:
    """The bench's setting in small: float32, an SGD step, then a second forward on new weights."""
    torch.manual_seed(1)
    t, m = torch.nn.LSTM(4, 6), tl.nn.LSTM(4, 6)
    copy_torch_weights(t, m)
    x = standard_normal((7, 3, 4), dtype="float32")
    for lib, layer in ((torch, t), (tl, m)):
        out, _ = layer(lib.tensor(x))
        (out * out).mean().backward()
        with lib.no_grad():  # SGD by hand (importing torch.optim costs seconds)
            for p in layer.parameters():
                p -= 0.5 * p.grad
    for p_t, p_m in zip(t.parameters(), m.parameters(), strict=True):
        assert_same(p_t.detach(), p_m.detach(), rtol=1e-5, atol=1e-6)
    assert_same(t(torch.tensor(x))[0].detach(), m(tl.tensor(x))[0].detach(), rtol=1e-5, atol=1e-6)


# --- dropout between layers --------------------------------------------------------------------
@pytest.mark.parametrize("name", ["RNN", "LSTM", "GRU"])
def test_dropout_between_layers(name: str) -> None:
    """p=1 in training zeroes what layer 0 hands to layer 1 (deterministic, so comparable with
    torch); in eval mode dropout is off; 0 < p < 1 in training changes the output at random."""
    t, m = build_twins(name, 3, 4, num_layers=2, dropout=1.0)
    arrays = sequence_arrays(name, m, steps=3, batch=2, with_state=False)
    compare(t, m, arrays)
    t.eval()
    m.eval()
    compare(t, m, arrays)
    half = getattr(tl.nn, name)(3, 4, num_layers=2, dropout=0.5).double()
    x = tl.tensor(arrays[0])
    half.eval()
    reference = half(x)[0].detach().numpy()
    half.train()
    assert not np.allclose(half(x)[0].detach().numpy(), reference)


def test_dropout_warning_and_errors() -> None:
    for lib in (torch, tl):
        with pytest.warns(UserWarning, match="non-zero dropout expects num_layers greater than 1"):
            lib.nn.LSTM(2, 3, dropout=0.3)
        with pytest.raises(ValueError, match="dropout should be a number in range"):
            lib.nn.GRU(2, 3, dropout=1.5)
        with pytest.raises(ValueError, match="dropout should be a number in range"):
            lib.nn.GRU(2, 3, dropout=True)


# --- parameters: names, shapes, order, initialisation, state dicts both ways ---------------------
@pytest.mark.parametrize(
    ("name", "kwargs"),
    [
        ("RNN", {"num_layers": 3, "bidirectional": True}),
        ("LSTM", {"num_layers": 2, "bidirectional": True, "proj_size": 2}),
        ("GRU", {"num_layers": 2, "bias": False}),
        ("LSTMCell", {}),
        ("GRUCell", {"bias": False}),
        ("RNNCell", {"nonlinearity": "relu"}),
    ],
)
@pytest.mark.filterwarnings("ignore:LSTM with projections is not supported with oneDNN")
def test_parameter_layout_and_repr(name: str, kwargs: dict) -> None:
    t, m = getattr(torch.nn, name)(3, 5, **kwargs), getattr(tl.nn, name)(3, 5, **kwargs)
    assert [(n, tuple(p.shape)) for n, p in m.named_parameters()] == [(n, tuple(p.shape)) for n, p in t.named_parameters()]
    assert repr(m) == repr(t)
    # tensorlab's (differently random) weights load into torch, which then computes the same
    t.load_state_dict({k: torch.tensor(v.detach().numpy().copy()) for k, v in m.state_dict().items()})
    x = standard_normal((4, 3) if "Cell" in name else (2, 4, 3), dtype="float32")
    assert_same(flat(t(torch.tensor(x))), flat(m(tl.tensor(x))), rtol=1e-5, atol=1e-6)


def test_all_weights_and_flatten_parameters() -> None:
    t, m = torch.nn.GRU(2, 3, num_layers=2, bidirectional=True), tl.nn.GRU(2, 3, num_layers=2, bidirectional=True)
    assert [[tuple(p.shape) for p in group] for group in m.all_weights] == [[tuple(p.shape) for p in group] for group in t.all_weights]
    m.flatten_parameters()  # a no-op, called by much model code


@pytest.mark.parametrize("name", ["RNN", "LSTM", "GRU", "RNNCell", "LSTMCell", "GRUCell"])
def test_initialisation_bounds(name: str) -> None:
    """Every parameter ~ U(-1/sqrt(hidden), 1/sqrt(hidden)), the whole range used."""
    tl.manual_seed(0)
    hidden = 16
    layer = getattr(tl.nn, name)(8, hidden)
    bound = 1 / math.sqrt(hidden)
    for p in layer.parameters():
        values = p.detach().numpy()
        assert values.min() >= -bound and values.max() <= bound
        assert values.max() > 0.7 * bound and values.min() < -0.7 * bound
        assert p.dtype is tl.float32 and p.requires_grad
    assert getattr(tl.nn, name)(2, 3, dtype=tl.float64).weight_ih_l0.dtype is tl.float64 if "Cell" not in name else True


# --- cells ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "kwargs"),
    [("RNNCell", {}), ("RNNCell", {"nonlinearity": "relu"}), ("LSTMCell", {}), ("GRUCell", {}), ("GRUCell", {"bias": False}), ("LSTMCell", {"bias": False})],
)
@pytest.mark.parametrize("batched", [True, False])
@pytest.mark.parametrize("with_state", [False, True], ids=["zero_state", "given_state"])
def test_cell_matches_torch(name: str, kwargs: dict, batched: bool, with_state: bool) -> None:
    t, m = build_twins(name, 3, 4, **kwargs)
    batch = (2,) if batched else ()
    arrays = [standard_normal((*batch, 3), 3)]
    if with_state:
        arrays += [standard_normal((*batch, 4), 4 + k) for k in range(2 if name == "LSTMCell" else 1)]
    compare(t, m, arrays, "pair" if name == "LSTMCell" else "single")


@given(name=st.sampled_from(["RNNCell", "LSTMCell", "GRUCell"]), batch=st.integers(1, 3), input_size=st.integers(1, 3), hidden=st.integers(1, 3), seed=st.integers(0, 2**16))
def test_cell_random(name: str, batch: int, input_size: int, hidden: int, seed: int) -> None:
    t, m = build_twins(name, input_size, hidden)
    arrays = [standard_normal((batch, input_size), seed)] + [standard_normal((batch, hidden), seed + k + 1) for k in range(2 if name == "LSTMCell" else 1)]
    compare(t, m, arrays, "pair" if name == "LSTMCell" else "single")


def test_cell_unrolled_equals_layer() -> None:
    """An LSTMCell stepped by hand over a sequence is nn.LSTM with the same weights (the cell's
    parameters are the layer's without the _l0 suffix)."""
    layer, cell = tl.nn.LSTM(3, 4).double(), tl.nn.LSTMCell(3, 4).double()
    cell.load_state_dict({k.removesuffix("_l0"): v for k, v in layer.state_dict().items()})
    x = tl.tensor(standard_normal((5, 2, 3)))
    output, (_, c_n) = layer(x)
    h = c = tl.zeros(2, 4, dtype=tl.float64)
    for t in range(5):
        h, c = cell(x[t], (h, c))
        np.testing.assert_allclose(h.detach().numpy(), output[t].detach().numpy(), rtol=1e-12)
    np.testing.assert_allclose(c.detach().numpy(), c_n[0].detach().numpy(), rtol=1e-12)


# --- errors: torch's exception class and message ---------------------------------------------------
def same_error(call: Any) -> None:
    """``call(lib)`` raises in torch; tensorlab raises the same class with the same message."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(Exception) as expected:
            call(torch)
        with pytest.raises(Exception) as got:
            call(tl)
    assert_same_error(expected.value, got.value, None, same_message=False)
    assert str(got.value).replace("tensorlab.", "torch.") == str(expected.value)  # dtypes print as torch.float32


ERRORS = {
    "input_rank": lambda lib: lib.nn.LSTM(3, 4)(lib.zeros(2, 2, 2, 3)),
    "input_rank_rnn": lambda lib: lib.nn.GRU(3, 4)(lib.zeros(3)),
    "input_size": lambda lib: lib.nn.GRU(3, 4)(lib.zeros(5, 2, 2)),
    "empty_sequence": lambda lib: lib.nn.GRU(3, 4)(lib.zeros(0, 2, 3)),
    "hidden_shape": lambda lib: lib.nn.RNN(3, 4)(lib.zeros(5, 2, 3), lib.zeros(2, 2, 4)),
    "hidden_rank": lambda lib: lib.nn.RNN(3, 4)(lib.zeros(5, 2, 3), lib.zeros(2, 4)),
    "hidden_rank_unbatched": lambda lib: lib.nn.GRU(3, 4)(lib.zeros(5, 3), lib.zeros(1, 2, 4)),
    "lstm_hidden_rank": lambda lib: lib.nn.LSTM(3, 4)(lib.zeros(5, 2, 3), (lib.zeros(1, 2, 4), lib.zeros(2, 4))),
    "lstm_cell_state_shape": lambda lib: lib.nn.LSTM(3, 4)(lib.zeros(5, 2, 3), (lib.zeros(1, 2, 4), lib.zeros(1, 3, 4))),
    "lstm_hidden_shape": lambda lib: lib.nn.LSTM(3, 4)(lib.zeros(5, 2, 3), (lib.zeros(1, 1, 4), lib.zeros(1, 2, 4))),
    "dtype": lambda lib: lib.nn.LSTM(3, 4)(lib.zeros(5, 2, 3, dtype=lib.float64)),
    "hidden_size_zero": lambda lib: lib.nn.LSTM(3, 0),
    "hidden_size_type": lambda lib: lib.nn.LSTM(3, 4.0),
    "input_size_zero": lambda lib: lib.nn.GRU(0, 4),
    "num_layers_zero": lambda lib: lib.nn.GRU(3, 4, 0),
    "bias_type": lambda lib: lib.nn.RNN(3, 4, bias=1),
    "batch_first_type": lambda lib: lib.nn.RNN(3, 4, batch_first=None),
    "nonlinearity": lambda lib: lib.nn.RNN(3, 4, nonlinearity="sigmoid"),
    "proj_size_too_big": lambda lib: lib.nn.LSTM(3, 4, proj_size=4),
    "proj_size_negative": lambda lib: lib.nn.LSTM(3, 4, proj_size=-1),
    "cell_input_rank": lambda lib: lib.nn.LSTMCell(3, 4)(lib.zeros(2, 2, 3)),
    "cell_hidden_rank": lambda lib: lib.nn.GRUCell(3, 4)(lib.zeros(2, 3), lib.zeros(1, 2, 4)),
    "lstm_cell_hx_rank": lambda lib: lib.nn.LSTMCell(3, 4)(lib.zeros(2, 3), (lib.zeros(2, 4), lib.zeros(1, 2, 4))),
    "cell_input_size": lambda lib: lib.nn.RNNCell(3, 4)(lib.zeros(2, 5)),
    "cell_batch": lambda lib: lib.nn.GRUCell(3, 4)(lib.zeros(2, 3), lib.zeros(3, 4)),
    "cell_hidden_size": lambda lib: lib.nn.GRUCell(3, 4)(lib.zeros(2, 3), lib.zeros(2, 5)),
    "lstm_cell_one_state": lambda lib: lib.nn.LSTMCell(3, 4)(lib.zeros(2, 3), (lib.zeros(2, 4),)),
}


@pytest.mark.parametrize("case", list(ERRORS))
def test_errors(case: str) -> None:
    same_error(ERRORS[case])


# --- double backward --------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["RNN", "LSTM", "GRU"])
def test_double_backward(name: str) -> None:
    """The plain path is made of tensor ops: second derivatives match torch. The fast path
    computes its backward in NumPy and says so when differentiated twice (torch's @once_differentiable)."""
    x = standard_normal((3, 2, 2))
    results = []
    torch_layer, tl_layer = build_twins(name, 2, 3)
    for lib, layer in ((torch, torch_layer), (tl, tl_layer)):
        xs = lib.tensor(x.copy(), requires_grad=True)
        with tl.fast_path(False):
            out, _ = layer(xs)
            (gx,) = lib.autograd.grad((out * out).sum(), xs, create_graph=True)
            (ggx,) = lib.autograd.grad(gx.sum(), xs)
        results.append((gx.detach().numpy(), ggx.numpy()))
    for e, g in zip(results[0], results[1], strict=True):
        np.testing.assert_allclose(g, e, rtol=1e-9, atol=1e-10)
    layer = getattr(tl.nn, name)(2, 3).double()
    xs = tl.tensor(x.copy(), requires_grad=True)
    out, _ = layer(xs)
    (gx,) = tl.autograd.grad((out * out).sum(), xs, create_graph=True)
    with pytest.raises(RuntimeError, match="once_differentiable"):
        tl.autograd.grad(gx.sum(), xs)
