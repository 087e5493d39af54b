"""The fast-path switch: each speed-only hook runs when the switch is on and never when it is off.

conftest runs this module on both paths; the ``fast_path`` fixture says which. Values are
checked against torch by the op families' own tests (run on both paths too); here, which code ran.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import tensorlab as tl
from tensorlab._fast import (
    batched_fetch,
    buffers,
    conv,
    grad_stealing,
    inplace,
    matrix_layout,
    recurrent,
    relu_mask,
    views,
)

HOOKS = {
    "relu backward's bit mask": (relu_mask, "select_where_positive", lambda: tl.relu(tl.randn(3, 4, requires_grad=True)).sum().backward()),
    "add_ into self": (inplace, "ufunc_into_self", lambda: tl.ones(3).add_(1)),
    "mul_ into self": (inplace, "ufunc_into_self", lambda: tl.ones(3).mul_(2.0)),
    "sub_ into self": (inplace, "ufunc_into_self", lambda: tl.ones(3).sub_(tl.ones(3))),
    "mm gradients laid out like their operands": (
        matrix_layout, "mm_grads", lambda: (tl.randn(2, 3, requires_grad=True) @ tl.randn(3, 4)).sum().backward(),
    ),
    "conv as one GEMM": (
        conv, "convolution_forward", lambda: tl.nn.functional.conv1d(tl.randn(2, 3, 8), tl.randn(4, 3, 3)),
    ),
    "pooled ufunc result": (buffers, "ufunc_into_pool", lambda: tl.ones(300, 300) * 2),
    "pooled matrix product": (buffers, "matmul_into_pool", lambda: tl.ones(300, 300) @ tl.ones(300, 300)),
    "gradient stealing": (grad_stealing, "can_steal", lambda: (tl.ones(3, requires_grad=True) * 2).sum().backward()),
    "view op straight to forward": (views, "forward_only", lambda: tl.ones(2, 3).permute(1, 0)),
    "view of a row-major tensor": (views, "row_major_view", lambda: tl.ones(2, 3).view(6)),
    "t() as NumPy's transposed view": (views, "transposed_view", lambda: tl.ones(2, 3).t()),
    "basic index as NumPy's view": (views, "basic_index_view", lambda: tl.ones(2, 3)[0, ::2]),
    "a TensorDataset batch as one gather": (
        batched_fetch, "tensor_dataset_batch", lambda: list(tl.utils.data.DataLoader(tl.utils.data.TensorDataset(tl.ones(4, 2)), batch_size=2)),
    ),
    "recurrent time loop as one node": (recurrent, "run_layer", lambda: tl.nn.GRU(2, 3)(tl.randn(4, 1, 2))),
}


@pytest.mark.parametrize("hook", HOOKS, ids=list(HOOKS))
def test_a_hook_runs_exactly_when_the_fast_path_is_on(hook: str, fast_path: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    module, name, run = HOOKS[hook]
    calls = []
    real = getattr(module, name)
    monkeypatch.setattr(module, name, lambda *args, **kwargs: calls.append(name) or real(*args, **kwargs))
    run()
    assert bool(calls) is fast_path


def test_the_switch_is_a_getter_a_setter_and_a_context_manager(fast_path: bool) -> None:
    assert tl.fast_path_enabled() is fast_path
    with tl.fast_path(not fast_path):
        assert tl.fast_path_enabled() is not fast_path
    assert tl.fast_path_enabled() is fast_path
    tl.set_fast_path(not fast_path)
    assert tl.fast_path_enabled() is not fast_path
    tl.set_fast_path(fast_path)


@pytest.mark.parametrize(("value", "expected"), [("0", False), ("off", False), ("1", True), (None, True)])
def test_the_environment_variable_is_read_at_import(value: str | None, expected: bool) -> None:
    env = {k: v for k, v in os.environ.items() if k != "TENSORLAB_FAST_PATH"}
    if value is not None:
        env["TENSORLAB_FAST_PATH"] = value
    out = subprocess.run(
        [sys.executable, "-c", "import tensorlab; print(tensorlab.fast_path_enabled())"],
        env=env, capture_output=True, text=True, check=True,
    )
    assert out.stdout.strip() == str(expected)


def test_relu_backward_is_the_same_on_both_paths_with_nan_and_inf() -> None:
    """The bit mask and ``np.where`` agree bit for bit, nan and inf included."""
    z = np.array([1.0, -1.0, 0.0, 2.0, -0.0], np.float32)
    grad = np.array([np.nan, np.nan, np.inf, -np.inf, 3.0], np.float32)
    masked = relu_mask.select_where_positive(z, grad)
    np.testing.assert_array_equal(masked.view(np.int32), np.where(z > 0, grad, np.float32(0)).view(np.int32))
