"""Ordinary PyTorch scripts (tests/scripts/, in the style of the official beginner tutorials)
run unchanged with ``import tensorlab as torch``: the same printed output where the script is
deterministic, the same final loss within sampling noise where its weights start random.

Each script runs twice in a fresh interpreter: once as written (real torch), once with the name
``torch`` bound to tensorlab before it starts (``torch``, ``torch.nn``... point at tensorlab's
modules), which is what ``import tensorlab as torch`` at the top of the script would do.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # ten fresh interpreters, five of them importing torch

SCRIPTS = Path(__file__).resolve().parent / "scripts"
ROOT = Path(__file__).resolve().parents[1]
AS_TENSORLAB = """
import importlib, os, runpy, sys
sys.path.insert(0, os.path.dirname(sys.argv[1]))  # as `python script.py` does: the script's folder first
for name in ("", ".nn", ".nn.functional", ".optim", ".optim.lr_scheduler", ".cuda", ".accelerator", ".autograd", ".autograd.profiler",
             ".utils", ".utils.data"):
    sys.modules["torch" + name] = importlib.import_module("tensorlab" + name)
runpy.run_path(sys.argv[1], run_name="__main__")
"""


def run(script: str, library: str) -> str:
    command = [sys.executable, str(SCRIPTS / script)] if library == "torch" else [sys.executable, "-c", AS_TENSORLAB, str(SCRIPTS / script)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300, check=False)
    assert done.returncode == 0, f"{script} under {library} failed:\n{done.stderr[-3000:]}"
    return done.stdout.replace("tensorlab", "torch")


def final_loss(output: str) -> float:
    found = re.search(r"final loss (\S+)", output)
    assert found, f"no final loss in:\n{output}"
    return float(found.group(1))


@pytest.mark.parametrize("script", ["tensor_basics.py", "autograd_basics.py", "schedules_and_robust_losses.py"])
def test_deterministic_script_prints_what_torch_prints(script: str) -> None:
    assert run(script, "tensorlab") == run(script, "torch")


def test_polynomial_fit_reaches_torchs_least_squares_loss() -> None:
    """A convex problem: from any start, the three loops end at the same fit."""
    expected, got = run("polynomial_fit.py", "torch"), run("polynomial_fit.py", "tensorlab")
    for line in ("by hand", "autograd", "nn+optim"):
        pattern = re.escape(line) + ":.*"
        assert re.search(pattern, got).group() == re.search(pattern, expected).group()  # type: ignore[union-attr]
    assert final_loss(got) == pytest.approx(final_loss(expected), rel=1e-6)


def test_module_training_reaches_torchs_loss_within_sampling_noise() -> None:
    """Random starting weights: the final loss may differ by run-to-run noise only (the spread
    over torch's own seeds is about +-0.02 here; a bug in a gradient or the optimizer leaves the
    loss near log(3) = 1.1 or far above)."""
    expected, got = run("train_module.py", "torch"), run("train_module.py", "tensorlab")
    assert final_loss(got) == pytest.approx(final_loss(expected), abs=0.05)
    accuracy = [float(re.search(r"accuracy (\S+)", out).group(1)) for out in (expected, got)]  # type: ignore[union-attr]
    assert abs(accuracy[0] - accuracy[1]) <= 0.03


def test_data_loading_and_checkpoints_reach_torchs_loss_within_sampling_noise() -> None:
    """Another split, shuffle order and start: the loss over the whole data set may differ by
    sampling noise only (about +-0.005 over torch's own seeds); the checkpoint reloads exactly and
    the profile prints, in both libraries."""
    expected, got = run("data_and_checkpoints.py", "torch"), run("data_and_checkpoints.py", "tensorlab")
    measured = ("accuracy", "final loss", "test accuracy")
    facts = [line for line in expected.splitlines() if not line.startswith(measured)]
    assert facts == [line for line in got.splitlines() if not line.startswith(measured)]
    assert final_loss(got) == pytest.approx(final_loss(expected), abs=0.02)
    accuracy = [float(re.search(r"^accuracy (\S+)", out, re.MULTILINE).group(1)) for out in (expected, got)]  # type: ignore[union-attr]
    assert abs(accuracy[0] - accuracy[1]) <= 0.02
def test_sequence_classifier_trains_as_in_torch() -> None:
    """nn.LSTM (two layers, bidirectional, batch_first), BatchNorm1d in train and eval mode and Adam,
    from weights set by a formula: the same losses step by step, the same running statistics."""
    expected, got = run("sequence_classifier.py", "torch"), run("sequence_classifier.py", "tensorlab")
    lines = [[line for line in out.splitlines() if not line.startswith("final loss")] for out in (expected, got)]
    assert lines[1] == lines[0]
    assert final_loss(got) == pytest.approx(final_loss(expected), rel=1e-3)


LECTURES = ["bigram_sampling.py", "mlp_minibatch.py", "batchnorm_stats.py", "manual_backward.py", "tiny_attention.py"]
DECIMAL = re.compile(r"(-?\d+\.\d+(?:e[-+]?\d+)?)")


def assert_same_lines(expected: str, got: str) -> None:
    """Line for line, word for word: every integer (a sampled index, a count) and every sampled character
    exactly; a printed decimal (a loss after hundreds of float32 steps) to 1e-3, since the two libraries
    may add in another order."""
    assert len(got.splitlines()) == len(expected.splitlines()), got
    for want, have in zip(expected.splitlines(), got.splitlines(), strict=True):
        want_parts, have_parts = DECIMAL.split(want), DECIMAL.split(have)
        assert want_parts[::2] == have_parts[::2], f"{have!r} is not {want!r}"
        assert [float(x) for x in have_parts[1::2]] == pytest.approx([float(x) for x in want_parts[1::2]], abs=1e-3), have


@pytest.mark.parametrize("script", LECTURES)
def test_lecture_style_script_samples_what_torch_samples(script: str) -> None:
    """Lecture code seeded with torch.Generator or torch.manual_seed (bigram sampling, an MLP on randint
    minibatches, BatchNorm's running statistics, a manual backward, attention with dropout): torch's random
    streams, so the same batches, masks and samples, number for number."""
    assert_same_lines(run(script, "torch"), run(script, "tensorlab"))
