"""BatchNorm1d/2d, F.batch_norm, GroupNorm and F.group_norm against torch.

Facts checked: the normalised values and every gradient; that training updates the running
buffers as torch does (momentum, momentum=None as a cumulative average, the unbiased variance,
num_batches_tracked) and evaluation reads them; the state dict's keys, dtypes and values; the
exception class for bad input.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import tensorlab as tl
from tests.oracle import assert_same, check_op, pair, standard_normal
from tests.test_nn_double_backward import check_double_backward, functional


def F(lib: Any) -> Any:  # noqa: N802 - reads like the usual ``F.``
    return lib.nn.functional


def running_stats(channels: int, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return rng.standard_normal(channels), rng.random(channels) + 0.5


# --- F.batch_norm --------------------------------------------------------------------------------
@pytest.mark.parametrize("shape", [(4, 3), (4, 3, 5), (2, 3, 4, 5), (5, 2, 1, 3, 2), (0, 3), (0, 3, 2)])
@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("affine", ["both", "weight", "none"])
def test_batch_norm(shape: tuple, training: bool, affine: str) -> None:
    """Output, grads of input/weight/bias, and the running buffers after the call."""
    x = standard_normal(shape, seed=2)
    mean, var = running_stats(shape[1])
    w, b = standard_normal((shape[1],), seed=3), standard_normal((shape[1],), seed=4)
    extra = {"both": [w, b], "weight": [w], "none": []}[affine]

    def run(lib: Any, x: Any, m: Any, v: Any, *wb: Any) -> Any:
        out = F(lib).batch_norm(x, m, v, *wb, training=training, momentum=0.3, eps=1e-3)
        return out, m, v  # m and v: updated in place when training

    grads = [True, False, False, *[True] * len(extra)]
    out = check_op(run, x, mean, var, *extra, grad=grads)
    assert out[0].grad_fn.name() == "NativeBatchNormBackward0"


@pytest.mark.parametrize("training", [True, False])
def test_batch_norm_float32_and_no_buffers(training: bool) -> None:
    x = standard_normal((6, 4, 3), seed=5, dtype="float32")
    if training:  # no running buffers: batch statistics, nothing to update
        check_op(lambda lib, x: F(lib).batch_norm(x, None, None, training=True), x)
    else:
        mean, var = running_stats(4)
        check_op(lambda lib, x, m, v: F(lib).batch_norm(x, m, v), x, mean.astype("float32"), var.astype("float32"), grad=[True, False, False])


@given(
    batch=st.integers(0, 4), channels=st.integers(1, 3), spatial=st.lists(st.integers(1, 3), max_size=2),
    training=st.booleans(), momentum=st.floats(0.0, 1.0), seed=st.integers(0, 2**16),
)
def test_batch_norm_random(batch: int, channels: int, spatial: list, training: bool, momentum: float, seed: int) -> None:
    """Any shape: where a channel has one value in training, both raise ValueError."""
    shape = (batch, channels, *spatial)
    x = standard_normal(shape, seed=seed)
    mean, var = running_stats(channels, seed + 1)
    w, b = standard_normal((channels,), seed + 2), standard_normal((channels,), seed + 3)

    def run(lib: Any, x: Any, m: Any, v: Any, w: Any, b: Any) -> Any:
        return F(lib).batch_norm(x, m, v, w, b, training=training, momentum=momentum), m, v

    check_op(run, x, mean, var, w, b, grad=[True, False, False, True, True], rtol=1e-7, atol=1e-8)


@pytest.mark.parametrize(
    "call",
    [
        lambda lib, x: F(lib).batch_norm(x[:1], None, None, training=True),  # one value per channel
        lambda lib, x: F(lib).batch_norm(x, None, None, training=False),  # nothing to evaluate with
        lambda lib, x: F(lib).batch_norm(x, lib.zeros(4), lib.ones(4), training=True),
        lambda lib, x: F(lib).batch_norm(x, lib.zeros(3), lib.ones(3), lib.ones(2), training=True),
        lambda lib, x: F(lib).batch_norm(x, lib.zeros(3), lib.ones(3), None, lib.ones(5)),
    ],
)
def test_batch_norm_errors(call: Any) -> None:
    check_op(call, standard_normal((4, 3), dtype="float32"), match="")


def test_batch_norm_double_backward() -> None:
    """Backward is written in tensor ops, so second derivatives match torch in training and eval."""
    x, w, b = standard_normal((4, 3, 2), seed=6), standard_normal((3,), seed=7), standard_normal((3,), seed=8)
    check_double_backward(lambda lib, x, w, b: functional(lib).batch_norm(x, None, None, w, b, training=True), [x, w, b], square=True)
    mean, var = running_stats(3)
    check_double_backward(lambda lib, x, w, b, m, v: functional(lib).batch_norm(x, m, v, w, b), [x, w, b], [mean, var], square=True)


# --- nn.BatchNorm1d / BatchNorm2d ------------------------------------------------------------------
def twins(build: Any) -> tuple[torch.nn.Module, tl.nn.Module]:
    """The same layer from torch.nn and tensorlab.nn, with torch's state copied into tensorlab's."""
    t, m = build(torch.nn), build(tl.nn)
    m.load_state_dict({k: tl.tensor(v.detach().numpy().copy()) for k, v in t.state_dict().items()})
    return t, m


def compare_step(t: torch.nn.Module, m: tl.nn.Module, x: np.ndarray, seed: int) -> None:
    """One forward and backward on both: output, input grad, parameter grads, then every buffer."""
    xt, xm = pair(x, requires_grad=True)
    out_t, out_m = t(xt), m(xm)
    assert_same(out_t, out_m, rtol=1e-5, atol=1e-5)
    w = np.random.default_rng(seed).standard_normal(tuple(out_t.shape)).astype(x.dtype)
    (out_t * torch.tensor(w)).sum().backward()
    (out_m * tl.tensor(w)).sum().backward()
    assert_same(xt.grad, xm.grad, rtol=1e-5, atol=1e-5, where="grad of input")
    for (name, p_t), (_, p_m) in zip(t.named_parameters(), m.named_parameters(), strict=True):
        assert_same(p_t.grad, p_m.grad, rtol=1e-5, atol=1e-5, where=f"grad of {name}")
    compare_state(t, m)


def compare_state(t: torch.nn.Module, m: tl.nn.Module) -> None:
    state_t, state_m = t.state_dict(), m.state_dict()
    assert list(state_t) == list(state_m)
    for name in state_t:
        assert_same(state_t[name], state_m[name], rtol=1e-6, atol=1e-6, where=name)


BATCH_NORMS = {
    "1d": (lambda nn: nn.BatchNorm1d(3), (5, 3)),
    "1d_sequence": (lambda nn: nn.BatchNorm1d(3, momentum=0.5), (4, 3, 6)),
    "1d_cumulative": (lambda nn: nn.BatchNorm1d(3, momentum=None), (4, 3, 2)),
    "1d_no_affine": (lambda nn: nn.BatchNorm1d(3, affine=False, eps=1e-3), (5, 3)),
    "1d_no_bias": (lambda nn: nn.BatchNorm1d(3, bias=False), (5, 3)),
    "1d_untracked": (lambda nn: nn.BatchNorm1d(3, track_running_stats=False), (5, 3)),
    "1d_empty_batch": (lambda nn: nn.BatchNorm1d(3), (0, 3)),
    "2d": (lambda nn: nn.BatchNorm2d(3), (2, 3, 4, 5)),
    "2d_cumulative_float64": (lambda nn: nn.BatchNorm2d(3, momentum=None).double(), (2, 3, 2, 2)),
}


@pytest.mark.parametrize("name", list(BATCH_NORMS))
def test_batch_norm_layer_train_then_eval(name: str) -> None:
    """Three training batches (running stats move; num_batches_tracked counts), then eval batches
    (running stats are read, not moved; an untracked layer keeps using batch statistics)."""
    build, shape = BATCH_NORMS[name]
    t, m = twins(build)
    dtype = "float64" if "float64" in name else "float32"
    assert repr(t) == repr(m)
    for seed in range(3):
        x = standard_normal(shape, seed=seed, dtype=dtype) * (seed + 1) + seed
        compare_step(t, m, x, seed)
    t.eval()
    m.eval()
    for seed in range(3, 5):
        compare_step(t, m, standard_normal(shape, seed=seed, dtype=dtype), seed)


def test_batch_norm_layer_state_dict_both_ways() -> None:
    """A tensorlab state dict (trained running stats) loads into torch, and evaluates the same."""
    m = tl.nn.BatchNorm2d(2)
    for seed in range(2):
        m(tl.tensor(standard_normal((3, 2, 2, 2), seed=seed, dtype="float32")))
    t = torch.nn.BatchNorm2d(2)
    t.load_state_dict({k: torch.tensor(v.numpy().copy()) for k, v in m.state_dict().items()})
    assert int(t.num_batches_tracked) == 2
    t.eval()
    m.eval()
    x = standard_normal((2, 2, 3, 3), seed=9, dtype="float32")
    assert_same(t(torch.tensor(x)), m(tl.tensor(x)))


def test_batch_norm_layer_buffers_and_parameters() -> None:
    m = tl.nn.BatchNorm1d(4)
    assert [n for n, _ in m.named_parameters()] == ["weight", "bias"]
    assert [n for n, _ in m.named_buffers()] == ["running_mean", "running_var", "num_batches_tracked"]
    assert m.num_batches_tracked.dtype is tl.int64 and m.running_var.tolist() == [1.0] * 4
    untracked = tl.nn.BatchNorm1d(4, track_running_stats=False)
    assert untracked.running_mean is None and list(untracked.state_dict()) == ["weight", "bias"]
    m.running_mean.fill_(3.0)
    m.num_batches_tracked.fill_(7)
    m.reset_running_stats()
    assert m.running_mean.tolist() == [0.0] * 4 and m.num_batches_tracked.item() == 0


@pytest.mark.parametrize(
    ("build", "shape"),
    [
        (lambda nn: nn.BatchNorm1d(3), (2, 3, 4, 5)),
        (lambda nn: nn.BatchNorm1d(3), (3,)),
        (lambda nn: nn.BatchNorm2d(3), (2, 3, 4)),
        (lambda nn: nn.BatchNorm1d(3), (1, 3)),  # training on a batch of one
        (lambda nn: nn.BatchNorm2d(4), (2, 3, 4, 4)),  # wrong number of channels
    ],
)
def test_batch_norm_layer_errors(build: Any, shape: tuple) -> None:
    x = standard_normal(shape, dtype="float32")
    check_op(lambda lib, x: build(lib.nn)(x), x, match="")


# --- GroupNorm ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("shape", "groups"), [((2, 4), 2), ((2, 6, 3), 3), ((2, 4, 3, 3), 1), ((3, 4, 2, 2), 4), ((1, 2, 5), 2)])
@pytest.mark.parametrize("affine", [True, False])
def test_group_norm(shape: tuple, groups: int, affine: bool) -> None:
    x = standard_normal(shape, seed=11)
    if affine:
        w, b = standard_normal((shape[1],), seed=12), standard_normal((shape[1],), seed=13)
        check_op(lambda lib, x, w, b: F(lib).group_norm(x, groups, w, b, eps=1e-3), x, w, b)
    else:
        check_op(lambda lib, x: F(lib).group_norm(x, groups), x)


@given(
    batch=st.integers(0, 3), groups=st.integers(1, 3), per_group=st.integers(1, 2),
    spatial=st.lists(st.integers(1, 3), max_size=2), seed=st.integers(0, 2**16),
)
def test_group_norm_random(batch: int, groups: int, per_group: int, spatial: list, seed: int) -> None:
    """Any shape; a group holding a single value raises ValueError in both."""
    channels = groups * per_group
    x = standard_normal((batch, channels, *spatial), seed=seed)
    w, b = standard_normal((channels,), seed + 1), standard_normal((channels,), seed + 2)
    check_op(lambda lib, x, w, b: F(lib).group_norm(x, groups, w, b), x, w, b, rtol=1e-7, atol=1e-8)


@pytest.mark.parametrize(
    "call",
    [
        lambda lib, x: F(lib).group_norm(x, 2),  # 3 channels in 2 groups
        lambda lib, x: F(lib).group_norm(x[0, 0], 1),  # fewer than 2 dims
        lambda lib, x: lib.nn.GroupNorm(2, 3),
    ],
)
def test_group_norm_errors(call: Any) -> None:
    check_op(call, standard_normal((2, 3, 4)), match="")


def test_group_norm_layer() -> None:
    t, m = twins(lambda nn: nn.GroupNorm(2, 4, eps=1e-4))
    assert repr(t) == repr(m)
    with torch.no_grad():
        t.weight.uniform_(0.5, 1.5)
        t.bias.uniform_(-1, 1)
    m.load_state_dict({k: tl.tensor(v.numpy().copy()) for k, v in t.state_dict().items()})
    for mode in ("train", "eval"):  # no batch statistics: the same in both modes
        getattr(t, mode)()
        getattr(m, mode)()
        compare_step(t, m, standard_normal((3, 4, 5), seed=14, dtype="float32"), 15)
    assert repr(torch.nn.GroupNorm(1, 2, affine=False)) == repr(tl.nn.GroupNorm(1, 2, affine=False))
    assert tl.nn.GroupNorm(2, 4, bias=False).bias is None


def test_no_warnings_from_normal_use() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tl.nn.BatchNorm1d(2)(tl.randn(4, 2)).sum().backward()
        tl.nn.GroupNorm(1, 2)(tl.randn(4, 2, 3)).sum().backward()
