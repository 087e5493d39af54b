"""Optimizers against torch.optim: the same start, the same gradients, the same trajectory."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import tensorlab as tl
from tests.oracle import assert_same

STEPS = 6


def loss(lib, params, x):
    """A small non-quadratic objective, so moments and weight decay all matter."""
    w, b = params
    return ((x.matmul(w) + b).tanh() * (x.matmul(w) + b)).sum() + (w * w * w).sum()


def run_both(make_optimizer, dtype="float64", closure=False, zero_grad_kwargs=None):
    rng = np.random.default_rng(0)
    w0, b0 = rng.standard_normal((3, 2)).astype(dtype), rng.standard_normal(2).astype(dtype)
    x = rng.standard_normal((4, 3)).astype(dtype)
    runs = {}
    for lib in (torch, tl):
        params = [lib.nn.Parameter(lib.tensor(w0.copy())), lib.nn.Parameter(lib.tensor(b0.copy()))]
        optimizer = make_optimizer(lib, params)
        trajectory = []
        for _ in range(STEPS):
            optimizer.zero_grad(**(zero_grad_kwargs or {}))
            if closure:
                def compute(lib=lib, params=params, optimizer=optimizer):
                    optimizer.zero_grad()
                    value = loss(lib, params, lib.tensor(x))
                    value.backward()
                    return value

                optimizer.step(compute)
            else:
                loss(lib, params, lib.tensor(x)).backward()
                optimizer.step()
            trajectory.append([p.detach().clone() for p in params])
        runs[lib] = (optimizer, params, trajectory)
    for step, (expected, got) in enumerate(zip(runs[torch][2], runs[tl][2], strict=True)):
        for e, g in zip(expected, got, strict=True):
            assert_same(e, g, where=f"step {step + 1}")
    return runs


SGD_OPTIONS = [
    {},
    {"momentum": 0.9},
    {"momentum": 0.9, "dampening": 0.3},
    {"momentum": 0.8, "nesterov": True},
    {"momentum": 0.5, "weight_decay": 0.1},
    {"weight_decay": 0.05, "maximize": True},
    {"momentum": 0.9, "nesterov": True, "weight_decay": 0.01, "maximize": True},
]


@pytest.mark.parametrize("options", SGD_OPTIONS, ids=str)
def test_sgd_trajectory(options):
    run_both(lambda lib, params: lib.optim.SGD(params, lr=0.05, **options))


ADAM_OPTIONS = [
    {},
    {"betas": (0.8, 0.99), "eps": 1e-6},
    {"weight_decay": 0.1},
    {"amsgrad": True},
    {"amsgrad": True, "weight_decay": 0.05, "maximize": True},
    {"betas": (0.3, 0.9)},  # lerp weight 0.7 >= 0.5: the other rounding branch
]


@pytest.mark.parametrize("options", ADAM_OPTIONS, ids=str)
@pytest.mark.parametrize("name", ["Adam", "AdamW"])
def test_adam_trajectory(name, options):
    run_both(lambda lib, params: getattr(lib.optim, name)(params, lr=0.1, **options))


def test_float32_and_closure():
    run_both(lambda lib, params: lib.optim.Adam(params, lr=0.01), dtype="float32", closure=True)
    run_both(lambda lib, params: lib.optim.SGD(params, lr=0.01, momentum=0.9), dtype="float32", zero_grad_kwargs={"set_to_none": False})


def test_param_groups_with_own_options():
    def make(lib, params):
        return lib.optim.SGD([{"params": [params[0]]}, {"params": [params[1]], "lr": 0.5, "momentum": 0.9}], lr=0.01)

    runs = run_both(make)
    groups_t, groups_m = runs[torch][0].param_groups, runs[tl][0].param_groups
    for gt, gm in zip(groups_t, groups_m, strict=True):
        assert {k: v for k, v in gm.items() if k != "params"} == {k: v for k, v in gt.items() if k != "params"}


def test_add_param_group():
    def make(lib, params):
        optimizer = lib.optim.Adam([params[0]], lr=0.1)
        optimizer.add_param_group({"params": params[1], "lr": 0.01})
        return optimizer

    run_both(make)
    for lib in (torch, tl):
        p = lib.nn.Parameter(lib.ones(1))
        optimizer = lib.optim.SGD([p], lr=0.1)
        with pytest.raises(ValueError, match="more than one parameter group"):
            optimizer.add_param_group({"params": [p]})


def test_state_dict_layout_matches_torch():
    runs = run_both(lambda lib, params: lib.optim.Adam(params, lr=0.1, amsgrad=True))
    state_t, state_m = runs[torch][0].state_dict(), runs[tl][0].state_dict()
    assert state_m["param_groups"] == state_t["param_groups"]
    assert list(state_m["state"]) == list(state_t["state"])
    for i in state_t["state"]:
        assert list(state_m["state"][i]) == list(state_t["state"][i])
        for key, value in state_t["state"][i].items():
            assert_same(value, state_m["state"][i][key], where=f"state[{i}][{key}]")
    runs = run_both(lambda lib, params: lib.optim.SGD(params, lr=0.1, momentum=0.9))
    assert runs[tl][0].state_dict()["param_groups"] == runs[torch][0].state_dict()["param_groups"]


def test_load_state_dict_resumes_the_same_trajectory():
    rng = np.random.default_rng(1)
    w0 = rng.standard_normal((3, 2))
    x = tl.tensor(rng.standard_normal((4, 3)))

    def step(optimizer, params):
        optimizer.zero_grad()
        loss(tl, params, x).backward()
        optimizer.step()

    params = [tl.nn.Parameter(tl.tensor(w0.copy())), tl.nn.Parameter(tl.zeros(2, dtype=tl.float64))]
    optimizer = tl.optim.Adam(params, lr=0.1)
    for _ in range(3):
        step(optimizer, params)
    saved = optimizer.state_dict()
    copies = [tl.nn.Parameter(p.detach().clone()) for p in params]
    resumed = tl.optim.Adam(copies, lr=999.0)
    resumed.load_state_dict(saved)
    assert resumed.param_groups[0]["lr"] == 0.1 and resumed.param_groups[0]["params"][0] is copies[0]
    for _ in range(2):
        step(optimizer, params)
        step(resumed, copies)
    for p, c in zip(params, copies, strict=True):
        assert p.tolist() == c.tolist()


def test_zero_grad_set_to_none_default():
    p = tl.nn.Parameter(tl.ones(2))
    optimizer = tl.optim.SGD([p], lr=0.1)
    (p * 2).sum().backward()
    optimizer.zero_grad(set_to_none=False)
    assert p.grad.tolist() == [0.0, 0.0]
    optimizer.zero_grad()
    assert p.grad is None
    optimizer.step()  # no gradient: nothing changes
    assert p.tolist() == [1.0, 1.0]


@pytest.mark.parametrize(
    "make",
    [
        lambda lib, ps: lib.optim.SGD(ps, lr=-1),
        lambda lib, ps: lib.optim.SGD(ps, lr=0.1, nesterov=True),
        lambda lib, ps: lib.optim.Adam(ps, betas=(1.0, 0.9)),
        lambda lib, ps: lib.optim.Adam(ps, eps=-1.0),
        lambda lib, ps: lib.optim.SGD([], lr=0.1),
    ],
)
def test_invalid_options_raise_value_error(make):
    for lib in (torch, tl):
        with pytest.raises(ValueError):
            make(lib, [lib.nn.Parameter(lib.ones(1))])


def test_params_must_be_an_iterable_not_a_tensor():
    for lib in (torch, tl):
        with pytest.raises(TypeError):
            lib.optim.SGD(lib.nn.Parameter(lib.ones(1)), lr=0.1)


def test_training_a_model_matches_torch():
    """Module + loss + optimizer together: a few steps of training land on torch's weights."""
    rng = np.random.default_rng(2)
    x, y = rng.standard_normal((8, 4)).astype("float32"), rng.integers(0, 3, 8)
    torch.manual_seed(0)
    models = {torch: torch.nn.Sequential(torch.nn.Linear(4, 5), torch.nn.ReLU(), torch.nn.Linear(5, 3))}
    models[tl] = tl.nn.Sequential(tl.nn.Linear(4, 5), tl.nn.ReLU(), tl.nn.Linear(5, 3))
    models[tl].load_state_dict({k: tl.tensor(v.numpy().copy()) for k, v in models[torch].state_dict().items()})
    optimizers = {lib: lib.optim.AdamW(models[lib].parameters(), lr=0.05) for lib in (torch, tl)}
    for _ in range(5):
        for lib in (torch, tl):
            optimizers[lib].zero_grad()
            lib.nn.CrossEntropyLoss()(models[lib](lib.tensor(x)), lib.tensor(y)).backward()
            optimizers[lib].step()
    for (name, e), (_, g) in zip(models[torch].state_dict().items(), models[tl].state_dict().items(), strict=True):
        assert_same(e, g, rtol=1e-4, atol=1e-5, where=name)
