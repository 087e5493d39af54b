"""Activation checkpointing: same values and gradients as the plain run, fewer saved bytes."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch
import torch.utils.checkpoint

import tensorlab as tl
import tensorlab.utils.checkpoint
from tests.oracle import assert_same


def saved_bytes(lib, forward) -> int:
    """Bytes of the tensors saved for backward while ``forward()`` runs, counted by a pack hook."""
    total = 0

    def pack(t):
        nonlocal total
        total += t.numel() * t.element_size()
        return t

    with lib.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        forward()
    return total


def make_model(lib, depth=6, width=32):
    layers = []
    for _ in range(depth):
        layers += [lib.nn.Linear(width, width), lib.nn.Tanh()]
    return lib.nn.Sequential(*layers)


def twins():
    torch.manual_seed(0)
    t, m = make_model(torch), make_model(tl)
    m.load_state_dict({k: tl.tensor(v.numpy().copy()) for k, v in t.state_dict().items()})
    return t, m


def run(lib, model, x, how, use_reentrant=False):
    inp = lib.tensor(x, requires_grad=True)
    if how == "plain":
        out = model(inp)
    elif how == "checkpoint":
        out = lib.utils.checkpoint.checkpoint(model, inp, use_reentrant=use_reentrant)
    else:
        out = lib.utils.checkpoint.checkpoint_sequential(model, 3, inp, use_reentrant=use_reentrant)
    return inp, out


@pytest.mark.parametrize("use_reentrant", [False, True])
@pytest.mark.parametrize("how", ["checkpoint", "sequential"])
def test_same_values_and_gradients_as_torch_and_as_plain(how, use_reentrant):
    x = np.random.default_rng(0).standard_normal((4, 32)).astype("float32")
    t, m = twins()
    inp_t, out_t = run(torch, t, x, how, use_reentrant)
    inp_m, out_m = run(tl, m, x, how, use_reentrant)
    assert_same(out_t, out_m, rtol=1e-4, atol=1e-5)
    out_t.square().sum().backward()
    (out_m * out_m).sum().backward()
    assert_same(inp_t.grad, inp_m.grad, rtol=1e-4, atol=1e-5)
    grads = {name: p.grad.numpy().copy() for name, p in m.named_parameters()}
    for (name, p_t), (_, p_m) in zip(t.named_parameters(), m.named_parameters(), strict=True):
        assert_same(p_t.grad, p_m.grad, rtol=1e-4, atol=1e-5, where=name)
    m.zero_grad()
    inp_plain, out_plain = run(tl, m, x, "plain")
    (out_plain * out_plain).sum().backward()
    np.testing.assert_allclose(inp_plain.grad.numpy(), inp_m.grad.numpy(), rtol=1e-6)
    for name, p in m.named_parameters():
        np.testing.assert_allclose(p.grad.numpy(), grads[name], rtol=1e-6, err_msg=name)


@pytest.mark.parametrize("how", ["plain", "checkpoint", "sequential"])
def test_saved_bytes_are_torchs(how):
    """The pack hook sees the same bytes as in torch: every activation when plain; with
    use_reentrant=False only the checkpointed blocks' inputs (and the last segment's activations)."""
    x = np.random.default_rng(1).standard_normal((16, 32)).astype("float32")
    t, m = twins()
    expected = saved_bytes(torch, lambda: run(torch, t, x, how))
    assert saved_bytes(tl, lambda: run(tl, m, x, how)) == expected
    activation = 16 * 32 * 4
    if how == "plain":
        assert expected >= 12 * activation  # every Linear and Tanh keeps a 16x32 tensor
    if how == "checkpoint":
        assert expected == activation  # only the input


def test_non_reentrant_reaches_parameters_when_input_needs_no_grad():
    for lib in (torch, tl):
        lin = lib.nn.Linear(3, 2)
        out = lib.utils.checkpoint.checkpoint(lin, lib.ones(1, 3), use_reentrant=False)
        assert out.requires_grad
        out.sum().backward()
        assert lin.weight.grad is not None


def test_non_reentrant_works_with_autograd_grad():
    x = tl.randn(3, requires_grad=True)
    out = tl.utils.checkpoint.checkpoint(lambda a: (a * a).sin(), x, use_reentrant=False)
    (g,) = tl.autograd.grad(out.sum(), [x])
    np.testing.assert_allclose(g.numpy(), (2 * x * (x * x).cos()).detach().numpy(), rtol=1e-6)


def test_reentrant_without_input_requiring_grad_warns_like_torch():
    for lib in (torch, tl):
        lin = lib.nn.Linear(3, 2)
        with pytest.warns(UserWarning, match="None of the inputs have requires_grad=True"):
            out = lib.utils.checkpoint.checkpoint(lin, lib.ones(1, 3), use_reentrant=True)
        assert not out.requires_grad


def test_use_reentrant_must_be_passed_explicitly_or_warns():
    for lib in (torch, tl):
        x = lib.ones(2, requires_grad=True)
        with pytest.warns(UserWarning, match="use_reentrant parameter should be passed explicitly"):
            lib.utils.checkpoint.checkpoint(lambda a: a * 2, x)
        with pytest.warns(UserWarning, match="use_reentrant"):
            lib.utils.checkpoint.checkpoint_sequential(lib.nn.Sequential(lib.nn.ReLU(), lib.nn.ReLU()), 2, x)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            lib.utils.checkpoint.checkpoint(lambda a: a * 2, x, use_reentrant=False)


def test_unexpected_keyword_arguments():
    for lib in (torch, tl):
        x = lib.ones(2, requires_grad=True)
        with pytest.raises(ValueError, match="Unexpected keyword arguments: scale"):
            lib.utils.checkpoint.checkpoint(lambda a, scale=1: a * scale, x, use_reentrant=True, scale=2)
        out = lib.utils.checkpoint.checkpoint(lambda a, scale=1: a * scale, x, use_reentrant=False, scale=3)
        assert out.tolist() == [3.0, 3.0]


def test_dropout_mask_is_replayed_in_recomputation():
    tl.manual_seed(0)
    drop = tl.nn.Dropout(0.5)
    x = tl.ones(50, requires_grad=True)
    out = tl.utils.checkpoint.checkpoint(drop, x, use_reentrant=False)
    out.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), out.detach().numpy())  # same mask both times


def test_multiple_outputs():
    x = tl.tensor([1.0, 2.0], requires_grad=True)
    a, b = tl.utils.checkpoint.checkpoint(lambda v: (v * 2, v * v), x, use_reentrant=False)
    (a + b).sum().backward()
    assert x.grad.tolist() == [4.0, 6.0]


def pack_trace(lib, forward):
    """The (event, shape, bytes) a recording hook sees in forward, then in backward."""
    events = []

    def pack(t):
        events.append(("pack", tuple(t.shape), t.numel() * t.element_size()))
        return t

    def unpack(t):
        events.append(("unpack", tuple(t.shape), t.numel() * t.element_size()))
        return t

    with lib.autograd.graph.saved_tensors_hooks(pack, unpack):
        out = forward()
        out.sum().backward()
    return events


@pytest.mark.parametrize("segments", [1, 2, 3, 6])
def test_pack_and_unpack_events_in_torchs_order(segments):
    x = np.random.default_rng(2).standard_normal((4, 32)).astype("float32")
    t, m = twins()

    def forward(lib, model):
        inp = lib.tensor(x, requires_grad=True)
        return lib.utils.checkpoint.checkpoint_sequential(model, segments, inp, use_reentrant=False)

    assert pack_trace(tl, lambda: forward(tl, m)) == pack_trace(torch, lambda: forward(torch, t))


@pytest.mark.parametrize("op", ["mul", "mul_constant", "exp", "relu", "dropout", "softmax"])
def test_pack_events_of_single_ops_match_torch(op):
    def forward(lib):
        lib.manual_seed(0)
        x = lib.ones(3, 4, requires_grad=True)
        c = lib.full((3, 4), 2.0)
        return {
            "mul": lambda: x * x,
            "mul_constant": lambda: x * c,
            "exp": lambda: lib.exp(x),
            "relu": lambda: lib.relu(x),
            "dropout": lambda: lib.nn.functional.dropout(x, 0.5),
            "softmax": lambda: lib.softmax(x, dim=1),
        }[op]()

    assert pack_trace(tl, lambda: forward(tl)) == pack_trace(torch, lambda: forward(torch))


@pytest.mark.parametrize("lib", [torch, tl])
def test_unpack_hook_of_the_pair_active_when_saved_is_used(lib):
    calls: list[str] = []
    x = lib.ones(2, requires_grad=True)
    with lib.autograd.graph.saved_tensors_hooks(lambda t: ("boxed", t), lambda b: calls.append("inner") or b[1]):
        y = x.exp()
    with lib.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: calls.append("outer") or t):
        y.sum().backward()
    assert calls == ["inner"]
    assert x.grad.tolist() == lib.exp(lib.ones(2)).tolist()


def test_saved_through_hooks_is_not_version_checked_like_torch():
    for lib in (torch, tl):
        x = lib.ones(2, requires_grad=True)
        with lib.autograd.graph.saved_tensors_hooks(lambda t: t.clone(), lambda t: t):
            y = x * 1.0
            z = y * y
        y.add_(1.0)
        z.sum().backward()  # the clone kept the old value: no error, gradient 2 * y_old
        assert x.grad.tolist() == [2.0, 2.0]


def test_save_on_cpu_gives_the_same_gradient():
    x = tl.ones(3, requires_grad=True)
    with tl.autograd.graph.save_on_cpu():
        y = (x * x).sum()
    y.backward()
    assert x.grad.tolist() == [2.0, 2.0, 2.0]
