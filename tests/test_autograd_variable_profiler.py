"""autograd.Variable (the pre-0.4 name torch keeps) and autograd.profiler, against torch."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

import tensorlab as tl
from tensorlab.autograd.function import Function
from tests.oracle import check_op

# --- Variable --------------------------------------------------------------------------------------


@pytest.mark.parametrize("requires_grad", [False, True])
def test_variable_returns_a_detached_tensor_on_the_same_storage(requires_grad: bool) -> None:
    check_op(lambda lib, x: lib.autograd.Variable(x, requires_grad=requires_grad), np.arange(3.0), grad=False)
    check_op(lambda lib, x: lib.autograd.Variable(x * 2, requires_grad=requires_grad), np.arange(3.0), grad=True)


def test_variable_facts_match_torch() -> None:
    def facts(lib: Any) -> tuple:
        x = lib.ones(2)
        v = lib.autograd.Variable(x, requires_grad=True)
        (v * 3).sum().backward()
        return (v is x, type(v).__name__, v.is_leaf, x.requires_grad, isinstance(x, lib.autograd.Variable), v.grad.tolist(),
                tuple(lib.autograd.Variable().shape), isinstance(3, lib.autograd.Variable))

    assert facts(tl) == facts(torch)


def test_old_style_training_step_with_variables() -> None:
    def step(lib: Any, x: Any, w: Any) -> Any:
        w_var = lib.autograd.Variable(w, requires_grad=True)
        loss = (lib.autograd.Variable(x) @ w_var).pow(2).mean()
        loss.backward()
        return loss.detach(), w_var.grad

    check_op(step, np.ones((3, 2)), np.full(2, 0.5), grad=False)


@pytest.mark.parametrize(("args", "kwargs"), [(([1, 2],), {}), ((np.ones(2, dtype=np.int64),), {"requires_grad": True})], ids=["list", "int-grad"])
def test_variable_errors_match_torch(args: tuple, kwargs: dict) -> None:
    def make(lib: Any, *arrays: Any) -> Any:
        data = lib.tensor(args[0]) if isinstance(args[0], np.ndarray) else args[0]
        return lib.autograd.Variable(data, **kwargs)

    check_op(make, grad=False)


def test_volatile_warns_like_torch() -> None:
    for lib in (torch, tl):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lib.autograd.Variable(lib.ones(1), volatile=True)
        assert [str(w.message) for w in caught] == ["volatile was removed and now has no effect. Use `with torch.no_grad():` instead."]


# --- profiler --------------------------------------------------------------------------------------


def run_model(lib: Any) -> Any:
    model = lib.nn.Sequential(lib.nn.Linear(4, 3), lib.nn.ReLU())
    x = lib.ones(5, 4)
    with lib.autograd.profiler.profile(record_shapes=True) as prof:
        with lib.autograd.profiler.record_function("model_inference"):
            for _ in range(3):
                out = model(x)
        out.sum().backward()
    return prof


def test_the_table_has_torchs_columns_and_summary_line() -> None:
    ours = run_model(tl).key_averages().table(sort_by="self_cpu_time_total", row_limit=10).splitlines()
    theirs = run_model(torch).key_averages().table(sort_by="self_cpu_time_total", row_limit=10).splitlines()
    assert ours[1].split() == theirs[1].split()  # Name, Self CPU %, ... # of Calls
    assert ours[-1].startswith("Self CPU time total: ") and theirs[-1].startswith("Self CPU time total: ")
    shapes_header = run_model(tl).key_averages(group_by_input_shape=True).table(sort_by="cpu_time_total").splitlines()[1]
    assert shapes_header.split()[-2:] == ["Input", "Shapes"]


def test_key_averages_count_calls_and_nest_times() -> None:
    averages = {event.key: event for event in run_model(tl).key_averages()}
    region = averages["model_inference"]
    assert region.count == 1 and averages["Relu"].count == 3
    assert all(event.cpu_time_total >= event.self_cpu_time_total >= 0 for event in averages.values())
    inside = sum(e.cpu_time_total for k, e in averages.items() if k in ("Addmm", "Relu"))
    assert region.cpu_time_total >= inside * 0.999  # the region's total includes the ops it ran


@pytest.mark.parametrize("sort_by", ["cpu_time_total", "self_cpu_time_total", "cpu_time", "count", "cuda_time_total", "self_cpu_memory_usage"])
def test_every_tutorial_sort_key_works(sort_by: str) -> None:
    assert "Name" in run_model(tl).key_averages().table(sort_by=sort_by, row_limit=3)


def test_an_unknown_sort_key_fails_like_torch() -> None:
    for lib in (torch, tl):
        with pytest.raises(AttributeError, match="has no attribute 'bogus'"):
            run_model(lib).key_averages().table(sort_by="bogus")


def test_profiling_stops_cleanly_even_after_an_error() -> None:
    apply = Function.__dict__["apply"]
    with pytest.raises(ValueError), tl.autograd.profiler.profile():
        tl.ones(2).relu()
        raise ValueError("inside")
    assert Function.__dict__["apply"] is apply
    with tl.autograd.profiler.record_function("nothing to record"):  # no profile open: a no-op
        tl.ones(2).relu()


def test_record_function_as_decorator_and_chrome_trace(tmp_path: Path) -> None:
    @tl.autograd.profiler.record_function("double")
    def double(x: tl.Tensor) -> tl.Tensor:
        return x * 2

    with tl.autograd.profiler.profile() as prof:
        double(tl.ones(3))
    assert [e.key for e in prof.key_averages()][:1] == ["double"]
    prof.export_chrome_trace(str(tmp_path / "trace.json"))
    trace = json.loads((tmp_path / "trace.json").read_text())["traceEvents"]
    assert {event["name"] for event in trace} >= {"double"} and all(event["ph"] == "X" for event in trace)


def test_disabled_profile_records_nothing() -> None:
    with tl.autograd.profiler.profile(enabled=False) as prof:
        tl.ones(2).relu()
    assert prof.function_events is None


# --- torch.profiler: the newer names over the same recorder -----------------------------------------


def profile_with_new_api(lib: Any, traces: list) -> Any:
    model = lib.nn.Linear(4, 3)
    with lib.profiler.profile(activities=[lib.profiler.ProfilerActivity.CPU], record_shapes=True, on_trace_ready=traces.append) as prof:
        for _ in range(2):
            with lib.profiler.record_function("step"):
                model(lib.ones(2, 4)).sum()
            prof.step()
    return prof


def test_torch_profiler_api_runs_and_prints_torchs_columns() -> None:
    ours, theirs = [], []
    table = profile_with_new_api(tl, ours).key_averages().table(sort_by="cpu_time_total", row_limit=10).splitlines()
    expected = profile_with_new_api(torch, theirs).key_averages().table(sort_by="cpu_time_total", row_limit=10).splitlines()
    assert table[1].split() == expected[1].split()
    assert len(ours) == len(theirs) == 1
    steps = {event.key: event.count for event in profile_with_new_api(tl, []).key_averages()}
    assert steps["step"] == 2
    assert {a.name for a in tl.profiler.supported_activities()} <= {a.name for a in torch.profiler.supported_activities()}
