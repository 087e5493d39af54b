"""optim.lr_scheduler against torch: the same schedule gives the very same lr sequence, group by group."""

from __future__ import annotations

import math
import warnings

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import tensorlab as tl

STEPS = 25


def make_optimizer(lib, name="SGD", **options):
    """Two param groups with different lrs, so per-group bookkeeping is exercised."""
    groups = [
        {"params": [lib.nn.Parameter(lib.ones(2))]},
        {"params": [lib.nn.Parameter(lib.ones(3))], "lr": 0.05},
    ]
    return getattr(lib.optim, name)(groups, lr=0.1, **options)


def trajectory(lib, make_scheduler, steps=STEPS, optimizer="SGD", metrics=None, **options):
    """What a training loop sees: lrs (and momenta) after construction and after every step."""
    opt = make_optimizer(lib, optimizer, **options)
    scheduler = make_scheduler(lib.optim.lr_scheduler, opt)
    seen = []
    for step in range(steps):
        seen.append((list(scheduler.get_last_lr()), [g["lr"] for g in opt.param_groups], [g.get("momentum", g.get("betas")) for g in opt.param_groups]))
        opt.step()
        if metrics is None:
            scheduler.step()
        else:
            scheduler.step(metrics[step])
    seen.append((list(scheduler.get_last_lr()), [g["lr"] for g in opt.param_groups], [g.get("momentum", g.get("betas")) for g in opt.param_groups]))
    return seen, scheduler


def assert_same_schedule(make_scheduler, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's "optimizer.step() before lr_scheduler.step()" bookkeeping
        expected, scheduler_t = trajectory(torch, make_scheduler, **kwargs)
        got, scheduler_m = trajectory(tl, make_scheduler, **kwargs)
    for step, (e, g) in enumerate(zip(expected, got, strict=True)):
        assert g == e, f"step {step}: tensorlab {g} != torch {e}"
    return scheduler_t, scheduler_m


SCHEDULES = {
    "StepLR": lambda s, o: s.StepLR(o, step_size=3, gamma=0.5),
    "StepLR-every-epoch": lambda s, o: s.StepLR(o, step_size=1),
    "MultiStepLR": lambda s, o: s.MultiStepLR(o, milestones=[2, 5, 5, 9], gamma=0.3),
    "ExponentialLR": lambda s, o: s.ExponentialLR(o, gamma=0.9),
    "CosineAnnealingLR": lambda s, o: s.CosineAnnealingLR(o, T_max=5, eta_min=0.001),  # 25 steps: past the bottom and back
    "CosineAnnealingLR-T1": lambda s, o: s.CosineAnnealingLR(o, T_max=1),
    "LambdaLR": lambda s, o: s.LambdaLR(o, lambda epoch: 0.95**epoch),
    "LambdaLR-per-group": lambda s, o: s.LambdaLR(o, [lambda e: 1 / (e + 1), lambda e: min(1.0, (e + 1) / 5)]),
    "MultiplicativeLR": lambda s, o: s.MultiplicativeLR(o, lambda epoch: 0.9),
    "ConstantLR": lambda s, o: s.ConstantLR(o, factor=0.5, total_iters=4),
    "LinearLR-warmup": lambda s, o: s.LinearLR(o, start_factor=0.25, total_iters=4),
    "LinearLR-decay": lambda s, o: s.LinearLR(o, start_factor=1.0, end_factor=0.1, total_iters=10),
    "OneCycleLR": lambda s, o: s.OneCycleLR(o, max_lr=1.0, total_steps=STEPS),
    "OneCycleLR-linear-3-phase": lambda s, o: s.OneCycleLR(o, max_lr=[1.0, 0.5], epochs=5, steps_per_epoch=5, anneal_strategy="linear", three_phase=True, pct_start=0.4),
    "OneCycleLR-no-momentum": lambda s, o: s.OneCycleLR(o, max_lr=0.3, total_steps=STEPS, cycle_momentum=False, div_factor=10.0),
}


@pytest.mark.parametrize("name", sorted(SCHEDULES))
def test_schedule_matches_torch(name):
    assert_same_schedule(SCHEDULES[name], momentum=0.9)


def test_one_cycle_moves_adams_beta1():
    assert_same_schedule(lambda s, o: s.OneCycleLR(o, max_lr=0.01, total_steps=STEPS), optimizer="Adam")


def test_one_cycle_refuses_steps_past_the_end_and_bad_options():
    for lib in (torch, tl):
        opt = make_optimizer(lib, momentum=0.9)
        scheduler = lib.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=2)
        for _ in range(2):
            opt.step()
            scheduler.step()
        with pytest.raises(ValueError, match="Tried to step 3 times"):
            scheduler.step()
    bad = [
        {"max_lr": 1.0},
        {"max_lr": 1.0, "total_steps": 0},
        {"max_lr": 1.0, "total_steps": 5, "pct_start": 1},
        {"max_lr": 1.0, "total_steps": 5, "anneal_strategy": "exp"},
        {"max_lr": [1.0], "total_steps": 5},
    ]
    for options in bad:
        with pytest.raises(ValueError) as expected:
            torch.optim.lr_scheduler.OneCycleLR(make_optimizer(torch, momentum=0.9), **options)
        with pytest.raises(ValueError) as got:
            tl.optim.lr_scheduler.OneCycleLR(make_optimizer(tl, momentum=0.9), **options)
        assert str(got.value) == str(expected.value)


def test_two_schedulers_on_one_optimizer_compose():
    """The chainable form: each scheduler multiplies the lr the other one left in the group."""

    def run(lib):
        opt = make_optimizer(lib)
        first = lib.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
        second = lib.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
        lrs = []
        for _ in range(8):
            opt.step()
            first.step()
            second.step()
            lrs.append([g["lr"] for g in opt.param_groups])
        return lrs

    assert run(tl) == run(torch)


METRICS = [1.0, 0.9, 0.95, 0.95, 0.95, 0.8, 0.81, 0.82, 0.83, 0.84, 0.85, 0.7, 0.7, 0.7, 0.7, 0.7, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6]


@pytest.mark.parametrize(
    "options",
    [
        {"patience": 2},
        {"patience": 1, "factor": 0.5, "cooldown": 2},
        {"mode": "max", "patience": 1},
        {"patience": 0, "threshold": 0.1, "threshold_mode": "abs"},
        {"patience": 1, "mode": "max", "threshold_mode": "abs", "threshold": 0.01},
        {"patience": 0, "min_lr": [0.02, 0.04]},
        {"patience": 0, "min_lr": 0.099, "eps": 1e-3},
    ],
    ids=str,
)
def test_reduce_lr_on_plateau(options):
    scheduler_t, scheduler_m = assert_same_schedule(lambda s, o: s.ReduceLROnPlateau(o, **options), metrics=METRICS)
    assert (scheduler_m.best, scheduler_m.num_bad_epochs, scheduler_m.cooldown_counter) == (
        scheduler_t.best, scheduler_t.num_bad_epochs, scheduler_t.cooldown_counter
    )


def test_reduce_lr_on_plateau_takes_a_0d_tensor_and_checks_options():
    lrs = {}
    for lib in (torch, tl):
        scheduler = lib.optim.lr_scheduler.ReduceLROnPlateau(make_optimizer(lib), patience=0)
        scheduler.step(lib.tensor(1.0))
        scheduler.step(lib.tensor(2.0))
        lrs[lib] = scheduler.get_last_lr()
    assert lrs[tl] == lrs[torch] != [0.1, 0.05]
    for options in [{"factor": 1.0}, {"mode": "up"}, {"threshold_mode": "pct"}, {"min_lr": [0.1]}]:
        with pytest.raises(ValueError) as expected:
            torch.optim.lr_scheduler.ReduceLROnPlateau(make_optimizer(torch), **options)
        with pytest.raises(ValueError) as got:
            tl.optim.lr_scheduler.ReduceLROnPlateau(make_optimizer(tl), **options)
        assert str(got.value) == str(expected.value)


@settings(max_examples=25, deadline=None)
@given(
    kind=st.sampled_from(["step", "multistep", "exponential", "cosine", "linear"]),
    step_size=st.integers(1, 6),
    gamma=st.floats(0.05, 1.0),
    eta_min=st.floats(0.0, 0.04),
    start_factor=st.floats(0.01, 1.0),
    end_factor=st.floats(0.0, 1.0),
)
def test_random_schedules_match_torch(kind, step_size, gamma, eta_min, start_factor, end_factor):
    make = {
        "step": lambda s, o: s.StepLR(o, step_size=step_size, gamma=gamma),
        "multistep": lambda s, o: s.MultiStepLR(o, milestones=[step_size, 2 * step_size, 2 * step_size + 1], gamma=gamma),
        "exponential": lambda s, o: s.ExponentialLR(o, gamma=gamma),
        "cosine": lambda s, o: s.CosineAnnealingLR(o, T_max=step_size, eta_min=eta_min),
        "linear": lambda s, o: s.LinearLR(o, start_factor=start_factor, end_factor=end_factor, total_iters=step_size),
    }[kind]
    assert_same_schedule(make, steps=15)


@pytest.mark.parametrize("name", ["StepLR", "MultiStepLR", "ExponentialLR", "CosineAnnealingLR", "LinearLR", "ConstantLR"])
def test_step_with_epoch_uses_the_closed_form_and_warns(name):
    make = {
        "StepLR": lambda s, o: s.StepLR(o, step_size=3, gamma=0.5),
        "MultiStepLR": lambda s, o: s.MultiStepLR(o, milestones=[2, 5, 5]),
        "ExponentialLR": lambda s, o: s.ExponentialLR(o, gamma=0.9),
        "CosineAnnealingLR": lambda s, o: s.CosineAnnealingLR(o, T_max=4, eta_min=0.01),
        "LinearLR": lambda s, o: s.LinearLR(o, start_factor=0.2, total_iters=4),
        "ConstantLR": lambda s, o: s.ConstantLR(o, factor=0.5, total_iters=3),
    }[name]
    lrs = {}
    for lib in (torch, tl):
        opt = make_optimizer(lib)
        scheduler = make(lib.optim.lr_scheduler, opt)
        lrs[lib] = []
        for epoch in [4, 1, 7, 6]:
            opt.step()
            with pytest.warns(UserWarning, match="epoch parameter"):
                scheduler.step(epoch)
            lrs[lib].append(scheduler.get_last_lr())
    assert lrs[tl] == lrs[torch]


@pytest.mark.parametrize("name", ["StepLR", "CosineAnnealingLR", "LambdaLR", "ReduceLROnPlateau", "OneCycleLR"])
def test_state_dict_has_torchs_keys_and_resumes_the_schedule(name):
    make = {
        "StepLR": lambda s, o: s.StepLR(o, step_size=2, gamma=0.5),
        "CosineAnnealingLR": lambda s, o: s.CosineAnnealingLR(o, T_max=6),
        "LambdaLR": lambda s, o: s.LambdaLR(o, lambda e: 0.9**e),
        "ReduceLROnPlateau": lambda s, o: s.ReduceLROnPlateau(o, patience=0),
        "OneCycleLR": lambda s, o: s.OneCycleLR(o, max_lr=1.0, total_steps=12),
    }[name]
    states, continued = {}, {}
    for lib in (torch, tl):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            opt = make_optimizer(lib, momentum=0.9)
            scheduler = make(lib.optim.lr_scheduler, opt)
            for i in range(4):
                opt.step()
                scheduler.step(*([1.0 + i] if name == "ReduceLROnPlateau" else []))
            states[lib] = scheduler.state_dict()
            opt_copy = make_optimizer(lib, momentum=0.9)
            opt_copy.load_state_dict(opt.state_dict())
            resumed = make(lib.optim.lr_scheduler, opt_copy)
            resumed.load_state_dict(scheduler.state_dict())
            continued[lib] = []
            for i in range(4):
                opt_copy.step()
                resumed.step(*([5.0 + i] if name == "ReduceLROnPlateau" else []))
                continued[lib].append(resumed.get_last_lr())
    assert sorted(states[tl]) == sorted(states[torch])
    for key, value in states[torch].items():
        if key not in ("lr_lambdas", "_schedule_phases", "mode_worse", "_get_lr_called_within_step", "_is_initial"):
            assert states[tl][key] == value, key
    assert continued[tl] == continued[torch]


def test_resuming_needs_initial_lr_and_schedulers_need_an_optimizer():
    for lib in (torch, tl):
        with pytest.raises(KeyError, match="initial_lr"):
            lib.optim.lr_scheduler.StepLR(make_optimizer(lib), step_size=2, last_epoch=3)
        with pytest.raises(TypeError, match="is not an Optimizer"):
            lib.optim.lr_scheduler.StepLR([1.0], step_size=2)


def test_get_lr_outside_step_warns_and_option_errors():
    scheduler = tl.optim.lr_scheduler.StepLR(make_optimizer(tl), step_size=2)
    with pytest.warns(UserWarning, match="get_last_lr"):
        scheduler.get_lr()
    for make in [
        lambda s, o: s.ConstantLR(o, factor=2.0),
        lambda s, o: s.LinearLR(o, start_factor=0.0),
        lambda s, o: s.LinearLR(o, end_factor=1.5),
        lambda s, o: s.LambdaLR(o, [lambda e: 1.0]),
        lambda s, o: s.MultiplicativeLR(o, 0.9),
    ]:
        with pytest.raises((ValueError, TypeError)) as expected:
            make(torch.optim.lr_scheduler, make_optimizer(torch))
        with pytest.raises(type(expected.value)) as got:
            make(tl.optim.lr_scheduler, make_optimizer(tl))
        assert str(got.value) == str(expected.value)


def test_cosine_schedule_reaches_eta_min_at_t_max():
    """The fact a learner checks first: after T_max steps the lr is eta_min (up to rounding)."""
    opt = make_optimizer(tl)
    scheduler = tl.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10, eta_min=0.001)
    for _ in range(10):
        opt.step()
        scheduler.step()
    assert [math.isclose(a, 0.001) for a in scheduler.get_last_lr()] == [True, True]


# --- more schedules and combinations ------------------------------------------------------------------
MORE_SCHEDULES = {
    "PolynomialLR": lambda s, o: s.PolynomialLR(o, total_iters=10, power=0.9),
    "PolynomialLR-linear": lambda s, o: s.PolynomialLR(o, total_iters=4),
    "CosineAnnealingWarmRestarts": lambda s, o: s.CosineAnnealingWarmRestarts(o, T_0=4, eta_min=0.001),
    "CosineAnnealingWarmRestarts-Tmult": lambda s, o: s.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=2),
    "SequentialLR-warmup-cosine": lambda s, o: s.SequentialLR(
        o, [s.LinearLR(o, start_factor=0.1, total_iters=5), s.CosineAnnealingLR(o, T_max=10)], milestones=[5]
    ),
    "SequentialLR-three": lambda s, o: s.SequentialLR(
        o, [s.ConstantLR(o, factor=0.5, total_iters=3), s.ExponentialLR(o, gamma=0.9), s.StepLR(o, step_size=2)], milestones=[4, 12]
    ),
    "ChainedScheduler": lambda s, o: s.ChainedScheduler([s.ConstantLR(o, factor=0.1, total_iters=6), s.ExponentialLR(o, gamma=0.9)]),
}


@pytest.mark.parametrize("name", sorted(MORE_SCHEDULES))
def test_more_schedules_match_torch(name):
    assert_same_schedule(MORE_SCHEDULES[name])


def test_warm_restarts_with_fractional_epochs():
    """Stepping once per batch: step(epoch + i / iters), as torch's docs show."""
    lrs = {}
    for lib in (torch, tl):
        opt = make_optimizer(lib)
        scheduler = lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2, eta_min=0.01)
        lrs[lib] = []
        for epoch in range(8):
            for i in range(4):
                opt.step()
                scheduler.step(epoch + i / 4)
                lrs[lib].append(scheduler.get_last_lr())
        with pytest.raises(ValueError, match="non-negative epoch"):
            scheduler.step(-1)
    assert lrs[tl] == lrs[torch]


def test_combined_schedulers_state_dict_and_checks():
    states = {}
    for lib in (torch, tl):
        s = lib.optim.lr_scheduler
        opt = make_optimizer(lib)
        sequential = s.SequentialLR(opt, [s.ConstantLR(opt, total_iters=2), s.ExponentialLR(opt, gamma=0.5)], milestones=[2])
        for _ in range(3):
            opt.step()
            sequential.step()
        states[lib] = sequential.state_dict()
        other = make_optimizer(lib)
        for make in [
            lambda s, opt, other: s.SequentialLR(opt, [s.StepLR(opt, 2)], milestones=[1]),
            lambda s, opt, other: s.SequentialLR(opt, [], milestones=[]),
            lambda s, opt, other: s.SequentialLR(opt, [s.StepLR(other, 2), s.StepLR(opt, 2)], milestones=[1]),
            lambda s, opt, other: s.ChainedScheduler([s.ReduceLROnPlateau(opt)]),
        ]:
            with pytest.raises(ValueError):
                make(s, opt, other)
    assert sorted(states[tl]) == sorted(states[torch])
    assert [sorted(inner) for inner in states[tl]["_schedulers"]] == [sorted(inner) for inner in states[torch]["_schedulers"]]
    assert states[tl]["_last_lr"] == states[torch]["_last_lr"]


# --- CyclicLR ------------------------------------------------------------------------------------------
CYCLIC = {
    "triangular": lambda s, o: s.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=4),
    "triangular2-asymmetric": lambda s, o: s.CyclicLR(o, base_lr=[0.01, 0.02], max_lr=0.1, step_size_up=3, step_size_down=5, mode="triangular2"),
    "exp_range": lambda s, o: s.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=2, mode="exp_range", gamma=0.9),
    "scale_fn": lambda s, o: s.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=3, scale_fn=lambda x: 1 / (x + 1), scale_mode="iterations"),
    "no-momentum": lambda s, o: s.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=3, cycle_momentum=False),
}


@pytest.mark.parametrize("name", sorted(CYCLIC))
def test_cyclic_lr_matches_torch(name):
    assert_same_schedule(CYCLIC[name], momentum=0.9)


def test_cyclic_lr_moves_adams_beta1_and_checks_options():
    assert_same_schedule(lambda s, o: s.CyclicLR(o, base_lr=0.001, max_lr=0.01, step_size_up=5), optimizer="Adam")
    for lib in (torch, tl):
        with pytest.raises(ValueError, match="mode is invalid"):
            lib.optim.lr_scheduler.CyclicLR(make_optimizer(lib, momentum=0.9), 0.01, 0.1, mode="sine")
        with pytest.raises(ValueError, match="must support momentum"):
            lib.optim.lr_scheduler.CyclicLR(make_optimizer(lib, "Adagrad"), 0.01, 0.1)


# --- the order of optimizer.step() and scheduler.step() --------------------------------------------------------
def test_scheduler_step_before_optimizer_step_warns_as_torch():
    messages = {}
    for lib in (torch, tl):
        opt = make_optimizer(lib)
        scheduler = lib.optim.lr_scheduler.StepLR(opt, step_size=2)
        with pytest.warns(UserWarning) as record:
            scheduler.step()  # the mistake: the schedule's first value is skipped
        messages[lib] = [str(w.message) for w in record]
        opt = make_optimizer(lib)
        scheduler = lib.optim.lr_scheduler.StepLR(opt, step_size=2)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            opt.step()
            scheduler.step()
    assert messages[tl] == messages[torch]


def test_replacing_optimizer_step_after_the_scheduler_warns_as_torch():
    messages = {}
    for lib in (torch, tl):
        opt = make_optimizer(lib)
        scheduler = lib.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
        opt.step = lambda: None
        with pytest.warns(UserWarning) as record:
            scheduler.step()
        messages[lib] = [str(w.message) for w in record]
    assert messages[tl] == messages[torch]


def test_a_custom_scheduler_subclass_as_old_course_code_writes_it():
    def make_class(lib):
        class HalvingLR(lib.optim.lr_scheduler._LRScheduler):
            def get_lr(self):
                return [base_lr * 0.5**self.last_epoch for base_lr in self.base_lrs]

        return HalvingLR

    assert_same_schedule(lambda s, o: make_class(torch if s is torch.optim.lr_scheduler else tl)(o), steps=6)
