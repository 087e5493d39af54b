"""tensorlab.kernels against torch, on Triton's interpreter (natively where a CUDA GPU is present).

Sizes are small and never multiples of the block sizes, so every edge mask is exercised; 1-element
and 1-row tensors are the smallest edges. torch is the oracle for values, dtype and shape, and torch
autograd for BiasReLU's gradients.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st

from tensorlab import kernels
from tensorlab.kernels.tiles import cdiv, grouped_tile

# Called by plain names, so docs/make_op_index.py (which finds an op's first test by an attribute call)
# keeps pointing at the tests of tensorlab's own layer_norm, not at these kernel tests.
kernel_layer_norm, torch_layer_norm = kernels.layer_norm, F.layer_norm

# The package exports functions named like their modules (kernels.matmul is the function): reach the modules.
backend_module = importlib.import_module("tensorlab.kernels.backend")
matmul_module = importlib.import_module("tensorlab.kernels.matmul")

REPO_ROOT = Path(__file__).resolve().parent.parent
DEVICE = kernels.device()
DTYPES = [torch.float32, torch.float16, torch.bfloat16]
# bf16: one unit in the last place (2**-7 relative) — the interpreter truncates where a GPU rounds.
TOLERANCE = {torch.float32: (1e-5, 1e-5), torch.float16: (2e-3, 2e-3), torch.bfloat16: (2e-2, 2e-2)}
FEW = settings(max_examples=8, deadline=None)


def close(actual: torch.Tensor, expected: torch.Tensor) -> None:
    """Same dtype, shape and device as torch's result, values within the dtype's tolerance."""
    rtol, atol = TOLERANCE[expected.dtype]
    torch.testing.assert_close(actual, expected, rtol=rtol, atol=atol)


def randn(*shape: int, dtype: torch.dtype = torch.float32, scale: float = 1.0) -> torch.Tensor:
    return (torch.randn(*shape, generator=torch.Generator().manual_seed(sum(shape) + 7)) * scale).to(DEVICE, dtype)


# --- the switch ----------------------------------------------------------------------------------

@pytest.mark.skipif(torch.cuda.is_available(), reason="this machine has a GPU: the default is cuda")
def test_without_a_gpu_the_kernels_run_on_the_interpreter_on_cpu_tensors() -> None:
    assert kernels.backend() == "interpret"
    assert kernels.device() == torch.device("cpu")
    assert os.environ["TRITON_INTERPRET"] == "1"


def test_the_switch_accepts_only_its_two_backends(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TENSORLAB_KERNELS", "interpret")
    assert backend_module._choose() == "interpret"
    monkeypatch.setenv("TENSORLAB_KERNELS", "rocm")
    with pytest.raises(ValueError, match="TENSORLAB_KERNELS='rocm'"):
        backend_module._choose()
    if not torch.cuda.is_available():
        monkeypatch.setenv("TENSORLAB_KERNELS", "cuda")
        with pytest.raises(RuntimeError, match="no CUDA device"):
            backend_module._choose()


@pytest.mark.skipif(torch.cuda.is_available(), reason="the probe runs kernels on the interpreter")
def test_interpretation_is_decided_when_triton_decorates_and_survives_an_earlier_triton_import(
    tmp_path: Path,
) -> None:
    """The fact backend.py documents: ``@triton.jit`` looks at TRITON_INTERPRET when it decorates,
    and triton's own helpers (tl.sum, tl.max) were decorated at ``import triton`` — here, before the
    variable was set, as when torch's inductor imports triton first. tensorlab.kernels still works."""
    probe = (
        "import os, torch, triton, triton.language as tl\n"
        "assert 'TRITON_INTERPRET' not in os.environ\n"
        "def f(x_ptr): pass\n"
        "before = type(triton.jit(f)).__name__\n"
        "os.environ['TRITON_INTERPRET'] = '1'\n"
        "after = type(triton.jit(f)).__name__\n"
        "helper = type(tl.sum).__name__\n"
        "from tensorlab.kernels import softmax\n"
        "x = torch.randn(3, 20)\n"
        "ok = torch.allclose(softmax(x), torch.softmax(x, -1)) and torch.allclose(x.sum(), x.sum())\n"
        "print(before, after, helper, type(tl.sum).__name__, ok)\n"
    )
    env = {key: value for key, value in os.environ.items() if key not in ("TRITON_INTERPRET", "TENSORLAB_KERNELS")}
    env["PYTHONPATH"] = str(REPO_ROOT)
    script = tmp_path / "probe.py"  # triton.jit reads the function's source: it must live in a file
    script.write_text(probe)
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["JITFunction", "InterpretedFunction", "JITFunction", "InterpretedFunction", "True"]


# --- tiles: pure Python --------------------------------------------------------------------------

def test_cdiv_counts_the_blocks_that_cover_n() -> None:
    assert [cdiv(n, 4) for n in (0, 1, 4, 5, 8, 9)] == [0, 1, 1, 2, 2, 3]
    with pytest.raises(ValueError, match="positive"):
        cdiv(3, 0)


@given(num_pid_m=st.integers(1, 9), num_pid_n=st.integers(1, 9), group_m=st.integers(1, 10))
def test_grouped_order_visits_every_tile_once(num_pid_m: int, num_pid_n: int, group_m: int) -> None:
    tiles = [grouped_tile(pid, num_pid_m, num_pid_n, group_m) for pid in range(num_pid_m * num_pid_n)]
    assert sorted(tiles) == [(m, n) for m in range(num_pid_m) for n in range(num_pid_n)]


def test_grouped_order_goes_down_a_group_of_rows_before_moving_right() -> None:
    assert [grouped_tile(pid, 3, 4, 2) for pid in range(6)] == [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2)]
    assert [grouped_tile(pid, 3, 4, 2) for pid in range(8, 12)] == [(2, 0), (2, 1), (2, 2), (2, 3)]  # short group
    assert [grouped_tile(pid, 2, 3, 1) for pid in range(6)] == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]
    with pytest.raises(ValueError, match="outside"):
        grouped_tile(12, 3, 4, 2)


@pytest.mark.skipif(kernels.backend() != "interpret", reason="records program ids from inside the interpreter")
@pytest.mark.parametrize(("m", "n", "group_m"), [(70, 50, 2), (37, 100, 3), (16, 16, 8)])
def test_grouped_tile_is_the_order_matmul_kernel_uses(monkeypatch: pytest.MonkeyPatch, m: int, n: int, group_m: int) -> None:
    """Launch the real matmul_kernel and record, per program, the tile its grouped_tile_in_kernel chose."""
    original = matmul_module.grouped_tile_in_kernel
    recorded: dict[int, tuple[int, int]] = {}

    def recording(pid, num_pid_m, num_pid_n, GROUP_M):  # noqa: N803 - the kernel passes GROUP_M
        pid_m, pid_n = original(pid, num_pid_m, num_pid_n, GROUP_M)
        recorded[pid.handle.data.item()] = (pid_m.handle.data.item(), pid_n.handle.data.item())  # 1-element arrays
        return pid_m, pid_n

    monkeypatch.setattr(matmul_module, "grouped_tile_in_kernel", recording)
    a, b = randn(m, 8), randn(8, n)
    close(kernels.matmul(a, b, block_m=16, block_n=16, block_k=16, group_m=group_m), a @ b)
    num_pid_m, num_pid_n = cdiv(m, 16), cdiv(n, 16)
    assert recorded == {pid: grouped_tile(pid, num_pid_m, num_pid_n, group_m) for pid in range(num_pid_m * num_pid_n)}


# --- vector add ----------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(1,), (5,), (1000,), (3, 70)])
def test_add_matches_torch(shape: tuple[int, ...], dtype: torch.dtype) -> None:
    x, y = randn(*shape, dtype=dtype), randn(*shape[::-1], dtype=dtype).reshape(shape)
    close(kernels.add(x, y, block=64), x + y)  # 1000 and 210 are not multiples of 64


def test_add_of_empty_tensors_launches_nothing() -> None:
    x = torch.empty(0, device=DEVICE)
    assert kernels.add(x, x).shape == (0,)


# --- bias + ReLU, forward and backward ------------------------------------------------------------

def check_bias_relu(rows: int, cols: int, dtype: torch.dtype, block_m: int = 16, block_n: int = 32) -> None:
    x = randn(rows, cols, dtype=dtype).requires_grad_()
    bias = randn(cols, dtype=dtype, scale=0.5).requires_grad_()
    y = kernels.bias_relu(x, bias, block_m=block_m, block_n=block_n)
    grad_y = randn(rows, cols, dtype=dtype)
    grad_x, grad_bias = torch.autograd.grad(y, (x, bias), grad_y)
    x_ref, bias_ref = x.detach().clone().requires_grad_(), bias.detach().clone().requires_grad_()
    y_ref = torch.relu(x_ref + bias_ref)
    grad_x_ref, grad_bias_ref = torch.autograd.grad(y_ref, (x_ref, bias_ref), grad_y)
    close(y, y_ref)
    close(grad_x, grad_x_ref)
    close(grad_bias, grad_bias_ref)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (1, 70), (37, 70), (5, 3)])
def test_bias_relu_and_its_gradients_match_torch(rows: int, cols: int, dtype: torch.dtype) -> None:
    check_bias_relu(rows, cols, dtype)


@FEW
@given(rows=st.integers(1, 40), cols=st.integers(1, 80), block_m=st.sampled_from([1, 4, 16]))
def test_bias_relu_matches_torch_on_any_small_shape(rows: int, cols: int, block_m: int) -> None:
    check_bias_relu(rows, cols, torch.float32, block_m=block_m, block_n=16)


def test_bias_relu_reads_rows_with_their_stride() -> None:
    x, bias = randn(9, 40)[:, 3:33], randn(30)  # rows 40 apart, 30 wide
    close(kernels.bias_relu(x, bias, block_m=4, block_n=16), torch.relu(x + bias))


# --- softmax and online softmax -------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (1, 33), (7, 50), (3, 129)])
def test_row_softmax_matches_torch(rows: int, cols: int, dtype: torch.dtype) -> None:
    x = randn(rows, cols, dtype=dtype, scale=3.0)
    close(kernels.softmax(x), torch.softmax(x, dim=-1))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
def test_softmax_subtracts_the_max_so_large_inputs_do_not_overflow(dtype: torch.dtype) -> None:
    x = randn(4, 37, dtype=dtype, scale=1000.0)  # exp(1000) is inf in every float format
    for result in (kernels.softmax(x), kernels.online_softmax(x, block=16)):
        close(result, torch.softmax(x, dim=-1))  # torch's is finite; an inf or nan here fails


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(("rows", "cols"), [(1, 17), (5, 50), (2, 129), (3, 16)])
def test_online_softmax_over_rows_wider_than_a_block_equals_softmax(rows: int, cols: int, dtype: torch.dtype) -> None:
    x = randn(rows, cols, dtype=dtype, scale=3.0)
    online = kernels.online_softmax(x, block=16)
    close(online, torch.softmax(x, dim=-1))
    close(online, kernels.softmax(x))


@FEW
@given(rows=st.integers(1, 6), cols=st.integers(1, 100), block=st.sampled_from([1, 8, 32]))
def test_online_softmax_matches_torch_for_any_width_and_block(rows: int, cols: int, block: int) -> None:
    x = randn(rows, cols, scale=5.0)
    close(kernels.online_softmax(x, block=block), torch.softmax(x, dim=-1))


def test_softmax_reads_rows_with_their_stride() -> None:
    x = randn(6, 50)[::2, 5:40]  # every other row, 35 of their columns
    close(kernels.softmax(x), torch.softmax(x, dim=-1))
    close(kernels.online_softmax(x, block=8), torch.softmax(x, dim=-1))


# --- matmul ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(("m", "k", "n"), [(1, 1, 1), (37, 50, 29), (20, 3, 33), (1, 40, 17)])
def test_matmul_matches_torch(m: int, k: int, n: int, dtype: torch.dtype) -> None:
    a, b = randn(m, k, dtype=dtype), randn(k, n, dtype=dtype)
    close(kernels.matmul(a, b, block_m=16, block_n=16, block_k=16, group_m=2), torch.matmul(a, b))


@FEW
@given(m=st.integers(1, 40), k=st.integers(1, 40), n=st.integers(1, 40), group_m=st.integers(1, 4))
def test_matmul_matches_torch_on_any_small_shape(m: int, k: int, n: int, group_m: int) -> None:
    a, b = randn(m, k), randn(k, n)
    close(kernels.matmul(a, b, block_m=16, block_n=16, block_k=16, group_m=group_m), a @ b)


def test_matmul_takes_any_strides_default_blocks_and_an_empty_k() -> None:
    a, b = randn(30, 20), randn(33, 20).t()  # b is a transposed view: column-major
    close(kernels.matmul(a, b, block_m=16, block_n=16, block_k=16), a @ b)
    a, b = randn(70, 45, dtype=torch.float16), randn(45, 90, dtype=torch.float16)
    close(kernels.matmul(a, b), a @ b)  # FIXED_BLOCKS on the interpreter, autotuned on a GPU
    empty_k = kernels.matmul(randn(3, 0), randn(0, 4))
    close(empty_k, torch.zeros(3, 4, device=DEVICE))


# --- layer norm -----------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(("shape", "normalized_shape"), [((1, 1), (1,)), ((7, 50), (50,)), ((2, 3, 5), (3, 5))])
@pytest.mark.parametrize("affine", [True, False])
def test_layer_norm_matches_torch(
    shape: tuple[int, ...], normalized_shape: tuple[int, ...], dtype: torch.dtype, affine: bool
) -> None:
    x = randn(*shape, dtype=dtype, scale=3.0) + 1
    weight = randn(*normalized_shape, dtype=dtype) if affine else None
    bias = randn(*normalized_shape, dtype=dtype, scale=0.3) if affine else None
    expected = torch_layer_norm(x, normalized_shape, weight, bias, eps=1e-3)
    close(kernel_layer_norm(x, normalized_shape, weight, bias, eps=1e-3), expected)


def test_layer_norm_takes_an_int_normalized_shape() -> None:
    x = randn(4, 9)
    close(kernel_layer_norm(x, 9), torch_layer_norm(x, (9,)))


# --- bad input is refused before any kernel reads memory -----------------------------------------

def bad_inputs() -> list[tuple[str, object, type[Exception], str]]:
    x, v = randn(4, 6), randn(6)
    meta = torch.empty(4, 6, device="meta")
    return [
        ("add: not a tensor", lambda: kernels.add(x, [1.0]), TypeError, "must be Tensor"),
        ("add: shapes differ", lambda: kernels.add(x, v), RuntimeError, "shapes differ"),
        ("add: dtypes differ", lambda: kernels.add(x, x.half()), RuntimeError, "same dtype"),
        ("add: integer dtype", lambda: kernels.add(x.long(), x.long()), RuntimeError, "dtype torch.int64"),
        ("add: not contiguous", lambda: kernels.add(x.t(), x.t()), RuntimeError, "contiguous"),
        ("add: block not a power of two", lambda: kernels.add(x, x, block=48), ValueError, "power of two"),
        ("add: wrong device", lambda: kernels.add(meta, meta), RuntimeError, "expected 'x' on"),
        ("bias_relu: bias length", lambda: kernels.bias_relu(x, randn(5)), RuntimeError, "5 entries"),
        ("bias_relu: 1-D x", lambda: kernels.bias_relu(v, v), RuntimeError, "2-D"),
        ("softmax: 3-D", lambda: kernels.softmax(randn(2, 3, 4)), RuntimeError, "2-D"),
        ("softmax: column stride", lambda: kernels.softmax(x.t()), RuntimeError, "contiguous last dimension"),
        ("online_softmax: block", lambda: kernels.online_softmax(x, block=0), ValueError, "power of two"),
        ("matmul: inner sizes", lambda: kernels.matmul(x, x), RuntimeError, r"4x6 and 4x6"),
        ("matmul: dtypes differ", lambda: kernels.matmul(x, x.t().half()), RuntimeError, "same dtype"),
        ("matmul: group_m", lambda: kernels.matmul(x, x.t(), group_m=0), ValueError, "group_m"),
        ("layer_norm: shape", lambda: kernel_layer_norm(x, (4,)), RuntimeError, "normalized_shape=\\[4\\]"),
        ("layer_norm: weight shape", lambda: kernel_layer_norm(x, (6,), randn(5)), RuntimeError, "weight"),
    ]


@pytest.mark.parametrize(("case", "call", "error", "message"), bad_inputs(), ids=[case[0] for case in bad_inputs()])
def test_bad_input_raises_a_clear_error(case: str, call: object, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        call()  # type: ignore[operator]
