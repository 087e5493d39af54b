"""The benchmark harness works (its numbers are not tested: performance lives in bench/, not in tests)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import torch

from bench.fresh import first_call_in_new_process
from bench.measure import measure
from bench.registry import Target, Workload, load_workloads
from bench.timing import MIN_BATCH_SECONDS, time_interleaved

REPO_ROOT = Path(__file__).resolve().parent.parent


def test_the_issue_workloads_are_registered() -> None:
    assert {"add", "elementwise", "reductions", "views", "matmul"} <= set(load_workloads())


def test_interleaved_timing_gives_one_ratio_per_pair() -> None:
    times = time_interleaved({"a": lambda: None, "b": lambda: sum(range(50))}, budget_seconds=0.05)
    assert set(times.ratios) == {("a", "b"), ("b", "a")}
    assert all(ratio > 0 for ratio in times.ratios.values())


def test_batches_last_long_enough_for_a_steady_state_unless_asked_not_to() -> None:
    """A batch of calls amortises the cache refill after another library ran; 0 times single calls."""
    def sleeper() -> None:
        time.sleep(1e-3)

    steady = time_interleaved({"a": sleeper, "b": sleeper}, budget_seconds=0.05)
    single = time_interleaved({"a": sleeper, "b": sleeper}, budget_seconds=0.05, min_batch_seconds=0)
    assert steady.calls_per_batch * 1e-3 >= MIN_BATCH_SECONDS * 0.5
    assert single.calls_per_batch == 1


def fake_workload(tensorlab_run) -> Workload:
    def build(implementation: str):
        return tensorlab_run if implementation == "tensorlab" else (lambda: np.ones(3))

    return Workload("fake", "fake workload", build, Target())


def test_an_op_not_written_yet_is_reported_missing() -> None:
    def not_written() -> None:
        raise AttributeError("module 'tensorlab' has no attribute 'frobnicate'")

    assert measure(fake_workload(not_written), budget_seconds=0.01).status == "missing"


def test_a_wrong_result_is_reported_not_timed() -> None:
    measurement = measure(fake_workload(lambda: np.zeros(3)), budget_seconds=0.01)
    assert measurement.status == "wrong result" and measurement.warm is None


def test_a_fresh_process_times_the_first_call() -> None:
    answer = first_call_in_new_process("add", "numpy")
    assert answer.get("seconds", -1) > 0, answer


def test_python_m_bench_prints_the_table() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bench", "add", "--budget", "0.05"],
        cwd=REPO_ROOT, capture_output=True, text=True, check=True,
    )
    assert "| workload | tensorlab/torch | tensorlab/numpy | target |" in result.stdout
    assert "| 8x8 add (per-op overhead) |" in result.stdout


def test_the_lstm_workload_computes_torchs_loss() -> None:
    """The LSTM train step (issue 18) is registered, and tensorlab's first steps give torch's losses."""
    from bench.inputs import same_results

    lstm = load_workloads()["lstm"]
    steps = {name: lstm.build(name) for name in ("tensorlab", "torch")}
    for _ in range(2):  # the second step runs on weights the first SGD step changed
        results = {name: step() for name, step in steps.items() if step is not None}
        assert same_results(results["tensorlab"], results["torch"])


def test_students_goes_with_the_course_workload_alone() -> None:
    result = subprocess.run([sys.executable, "-m", "bench", "add", "--students", "3"],
                            cwd=REPO_ROOT, capture_output=True, text=True)
    assert result.returncode == 2
    assert "python -m bench course --students N" in result.stderr


def test_the_course_report_gives_submissions_per_minute_per_core() -> None:
    from bench.course import describe

    numbers = {"submissions": 40, "jobs1": 60.0, "jobs2": 40.0, "speedup": 1.5, "overhead_median": 0.2,
               "overhead_max": 0.3, "compute_median": 0.001, "nbgrader": 30.0, "nbgrader_sample": 20}
    report = describe(numbers)
    assert "| tensorlab autograde --jobs 1 | 60.0 s | 1.50 s | 40 |" in report  # 40 in a minute on one core
    assert "| tensorlab autograde --jobs 2 | 40.0 s | 1.00 s | 30 |" in report  # 60 a minute on two cores
    assert "20 submissions) | 30.0 s | 1.50 s | 40 |" in report


# issue 14: python -m bench gpu (Triton kernels vs torch) needs a CUDA GPU; without one it says so.
@pytest.mark.skipif(torch.cuda.is_available(), reason="with a GPU the command benchmarks for minutes")
def test_bench_gpu_without_a_gpu_says_so_and_exits_0() -> None:
    result = subprocess.run([sys.executable, "-m", "bench", "gpu"], cwd=REPO_ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == (
        "python -m bench gpu: no CUDA GPU here (torch.cuda.is_available() is False); nothing measured."
    )


def test_bench_gpu_runs_alone_and_is_listed() -> None:
    mixed = subprocess.run([sys.executable, "-m", "bench", "gpu", "add"], cwd=REPO_ROOT, capture_output=True, text=True)
    assert mixed.returncode == 2
    assert "gpu runs alone" in mixed.stderr
    listed = subprocess.run([sys.executable, "-m", "bench", "--list"], cwd=REPO_ROOT, capture_output=True, text=True)
    assert any(line.startswith("gpu ") for line in listed.stdout.splitlines())


def test_bench_gpu_report_runs_on_the_interpreter_at_tiny_sizes(monkeypatch: pytest.MonkeyPatch) -> None:
    """No GPU was lent: this is what checks the report's code paths (each kernel checked against
    torch before it is timed, the table) — with one timed call each instead of triton's do_bench."""
    from bench import gpu
    from tensorlab.kernels import device

    def one_call_ms(fn: object) -> float:
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        return (time.perf_counter() - start) * 1e3

    monkeypatch.setattr(gpu, "DEVICE", str(device()))
    monkeypatch.setattr(gpu, "MATMUL_SIZE", 40)
    monkeypatch.setattr(gpu, "SOFTMAX_SHAPE", (6, 100))
    monkeypatch.setattr(gpu, "BIAS_RELU_SHAPE", (20, 30))
    monkeypatch.setattr(gpu, "milliseconds", one_call_ms)
    rows = [gpu.matmul_row(), gpu.softmax_row(None, 10.0), gpu.bias_relu_row()]
    report = gpu.table(rows)
    assert report.splitlines()[0] == "| workload | tensorlab (Triton) | torch | ratio | note |"
    assert [row.what for row in rows] == ["matmul fp16 40³", "softmax fp16 6x100", "bias+ReLU fp16 20x30"]
    assert "TFLOP/s" in rows[0].tensorlab and "GB/s" in rows[1].torch and "of copy 10 GB/s" in rows[1].note
