"""RMSprop, Adagrad (and AdamW's options) against torch.optim: same start, same trajectory, step by step."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import tensorlab as tl
from tests.oracle import assert_same
from tests.test_optim import run_both

RMSPROP_OPTIONS = [
    {},
    {"alpha": 0.9, "eps": 1e-6},
    {"weight_decay": 0.1},
    {"momentum": 0.9},
    {"centered": True},
    {"centered": True, "momentum": 0.5, "weight_decay": 0.05},
    {"maximize": True, "momentum": 0.3},
    {"alpha": 0.0},
]


@pytest.mark.parametrize("options", RMSPROP_OPTIONS, ids=str)
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_rmsprop_trajectory(options, dtype):
    runs = run_both(lambda lib, params: lib.optim.RMSprop(params, lr=0.01, **options), dtype=dtype)
    _same_state(runs)


ADAGRAD_OPTIONS = [
    {},
    {"lr_decay": 0.1},
    {"weight_decay": 0.1},
    {"initial_accumulator_value": 0.5},
    {"eps": 1e-3, "maximize": True},
    {"lr_decay": 0.05, "weight_decay": 0.01, "initial_accumulator_value": 0.1},
]


@pytest.mark.parametrize("options", ADAGRAD_OPTIONS, ids=str)
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_adagrad_trajectory(options, dtype):
    runs = run_both(lambda lib, params: lib.optim.Adagrad(params, lr=0.1, **options), dtype=dtype)
    _same_state(runs)


@pytest.mark.parametrize("options", [{}, {"amsgrad": True}, {"weight_decay": 0.0}, {"amsgrad": True, "maximize": True, "weight_decay": 0.3}], ids=str)
def test_adamw_trajectory_float32(options):
    run_both(lambda lib, params: lib.optim.AdamW(params, lr=0.05, **options), dtype="float32")


@settings(max_examples=15, deadline=None)
@given(
    lr=st.floats(1e-4, 0.5),
    # centered with alpha near 0 computes v - m^2 ~ 0: torch's fused multiply-add then rounds to
    # a different (even negative: nan) value than any unfused formula; a learner never sets that
    alpha=st.floats(0.5, 0.999),
    momentum=st.sampled_from([0.0, 0.5, 0.9]),
    centered=st.booleans(),
    weight_decay=st.sampled_from([0.0, 0.01]),
)
def test_rmsprop_random_options(lr, alpha, momentum, centered, weight_decay):
    run_both(lambda lib, params: lib.optim.RMSprop(params, lr=lr, alpha=alpha, momentum=momentum, centered=centered, weight_decay=weight_decay))


@settings(max_examples=15, deadline=None)
@given(lr=st.floats(1e-4, 0.5), lr_decay=st.floats(0.0, 1.0), initial=st.floats(0.0, 1.0))
def test_adagrad_random_options(lr, lr_decay, initial):
    run_both(lambda lib, params: lib.optim.Adagrad(params, lr=lr, lr_decay=lr_decay, initial_accumulator_value=initial))


def _same_state(runs):
    """The optimizer's state (step count, averages, buffers) is torch's, name for name."""
    (optimizer_t, _, _), (optimizer_m, _, _) = runs[torch], runs[tl]
    state_t, state_m = optimizer_t.state_dict(), optimizer_m.state_dict()
    assert state_m["param_groups"] == state_t["param_groups"]
    assert sorted(state_m["state"]) == sorted(state_t["state"])
    for index, values in state_t["state"].items():
        assert sorted(state_m["state"][index]) == sorted(values)
        for name, value in values.items():
            assert_same(value, state_m["state"][index][name], where=f"state[{index}][{name!r}]")


def test_adagrad_state_exists_before_the_first_step():
    params_t, params_m = [torch.nn.Parameter(torch.ones(2))], [tl.nn.Parameter(tl.ones(2))]
    state_t = torch.optim.Adagrad(params_t, initial_accumulator_value=0.3).state_dict()
    state_m = tl.optim.Adagrad(params_m, initial_accumulator_value=0.3).state_dict()
    assert sorted(state_m["state"][0]) == sorted(state_t["state"][0])
    assert_same(state_t["state"][0]["sum"], state_m["state"][0]["sum"])


def test_state_dict_round_trip_continues_the_same_trajectory():
    for name in ["RMSprop", "Adagrad"]:
        params = [tl.nn.Parameter(tl.tensor(np.linspace(-1, 1, 4)))]
        optimizer = getattr(tl.optim, name)(params, lr=0.1, **({"momentum": 0.9, "centered": True} if name == "RMSprop" else {}))
        for _ in range(2):
            optimizer.zero_grad()
            (params[0] ** 3).sum().backward()
            optimizer.step()
        copy = [tl.nn.Parameter(params[0].detach().clone())]
        restored = getattr(tl.optim, name)(copy, lr=0.1, **({"momentum": 0.9, "centered": True} if name == "RMSprop" else {}))
        restored.load_state_dict(optimizer.state_dict())
        for opt, p in ((optimizer, params), (restored, copy)):
            opt.zero_grad()
            (p[0] ** 3).sum().backward()
            opt.step()
        np.testing.assert_array_equal(copy[0].detach().numpy(), params[0].detach().numpy())


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("RMSprop", {"lr": -1.0}), ("RMSprop", {"eps": -1.0}), ("RMSprop", {"momentum": -0.1}),
        ("RMSprop", {"weight_decay": -1.0}), ("RMSprop", {"alpha": -0.5}),
        ("Adagrad", {"lr": -1.0}), ("Adagrad", {"lr_decay": -1.0}), ("Adagrad", {"weight_decay": -1.0}),
        ("Adagrad", {"initial_accumulator_value": -1.0}), ("Adagrad", {"eps": -1.0}),
    ],
    ids=str,
)
def test_invalid_options_raise_torchs_error(name, options):
    with pytest.raises(ValueError) as expected:
        getattr(torch.optim, name)([torch.nn.Parameter(torch.ones(1))], **options)
    with pytest.raises(ValueError) as got:
        getattr(tl.optim, name)([tl.nn.Parameter(tl.ones(1))], **options)
    assert str(got.value) == str(expected.value)


def test_repr_lists_torchs_options():
    for name in ["RMSprop", "Adagrad"]:
        assert repr(getattr(tl.optim, name)([tl.nn.Parameter(tl.ones(1))])) == repr(getattr(torch.optim, name)([torch.nn.Parameter(torch.ones(1))]))
