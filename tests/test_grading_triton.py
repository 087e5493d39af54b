"""Kernels graded on Triton's interpreter (unit 13): the harness fails out-of-bounds stores and loads,
which the interpreter itself never traps, and says where they went; the canaries catch what the
watch on loads and stores could miss; a launch runs in the sandbox like any other graded call, and
grading a kernel loads triton but never torch."""

from __future__ import annotations

import numpy as np
import pytest

from tensorlab.grading import CheckFailed
from tensorlab.grading.check import check_cells

pytest.importorskip("triton")

SETUP = "import triton\nimport triton.language as tl\n"
KERNEL = '''
@triton.jit
def bias_relu_kernel(x_ptr, bias_ptr, out_ptr, n_rows, n_cols, stride_x_row, stride_out_row,
                     BLOCK_ROWS: tl.constexpr, BLOCK_COLS: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_ROWS + tl.arange(0, BLOCK_ROWS)
    cols = tl.program_id(1) * BLOCK_COLS + tl.arange(0, BLOCK_COLS)
    inside = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    x = tl.load(x_ptr + rows[:, None] * stride_x_row + cols[None, :], mask=inside)
    bias = tl.load(bias_ptr + cols, mask=cols < n_cols)
    tl.store(out_ptr + rows[:, None] * stride_out_row + cols[None, :], tl.maximum(x + bias[None, :], 0.0), mask=STORE)
'''


def verdict(kernel: str) -> str:
    try:
        check_cells("bias_relu_kernel", {1: SETUP, 2: kernel})
    except CheckFailed as failure:
        return str(failure)
    return "passed"


@pytest.mark.slow
def test_the_right_kernel_passes() -> None:
    assert verdict(KERNEL.replace("mask=STORE", "mask=inside")) == "passed"


@pytest.mark.slow
def test_a_store_one_past_the_end_of_each_row_fails_and_says_where() -> None:
    said = verdict(KERNEL.replace("mask=STORE", "mask=(rows[:, None] < n_rows) & (cols[None, :] <= n_cols)"))
    assert "out-of-bounds" in said and "element(s) outside the output" in said and "stored" in said
    assert "from the start of out" in said


@pytest.mark.slow
def test_a_load_one_past_the_end_fails_although_the_interpreter_reads_it_silently() -> None:
    kernel = KERNEL.replace("mask=STORE", "mask=inside").replace("mask=cols < n_cols", "mask=cols <= n_cols")
    said = verdict(kernel)
    assert "out-of-bounds" in said and "loaded 1 element(s) outside its tensors" in said
    assert "from the start of bias" in said


@pytest.mark.slow
def test_a_plain_function_is_not_a_kernel() -> None:
    said = verdict("def bias_relu_kernel(*arguments, **blocks):\n    return None\n")
    assert "expected a Triton kernel" in said


def test_the_canaries_see_a_store_past_the_output() -> None:
    """The second line of defence, without a launch: a write into the padding after a row is found."""
    from tensorlab.grading.harnesses.triton_launch import canary_problems, place

    x = place(np.ones((2, 3), dtype=np.float32), "x")
    out = place(np.zeros((2, 3), dtype=np.float32), "out", output=True)
    out.buffer[out.offsets()] = 1.0  # the output's own elements may change
    assert canary_problems([x], [out]) == []
    out.buffer[out.lead + 3] = 7.0  # row 0, one past its last column
    (problem,) = canary_problems([x], [out])
    assert "the output's buffer outside the output" in problem
    assert "3 elements from the start of out, [row 0, column 3] (out is 2 × 3 with strides (6, 1))" in problem


def test_the_canaries_see_an_input_that_changed() -> None:
    from tensorlab.grading.harnesses.triton_launch import canary_problems, place

    x = place(np.ones((2, 3), dtype=np.float16), "x")
    x.buffer[x.offsets()[1, 2]] = 5.0
    (problem,) = canary_problems([x], [])
    assert "an input" in problem


def test_placed_arrays_keep_their_values_and_pad_their_rows() -> None:
    from tensorlab.grading.harnesses.triton_launch import place

    a = np.arange(12, dtype=np.float16).reshape(3, 4)
    row_major, column_major = place(a, "a", pad=3), place(a.T.copy().T, "a", pad=3)
    assert row_major.strides == (7, 1) and np.array_equal(row_major.values(), a)
    assert column_major.strides == (1, 6) and np.array_equal(column_major.values(), a)
    assert np.all(row_major.buffer[:row_major.lead] == -1234.0)


def test_the_interpreters_own_globals_are_out_of_reach() -> None:
    """Running a kernel, the interpreter copies its module's globals into the kernel's: the builder whose
    loads and stores the grader watches is refused by name before anything runs."""
    kernel = KERNEL.replace("mask=STORE", "mask=inside").replace("    rows =", "    interpreter_builder.create_masked_load = None\n    rows =", 1)
    assert "interpreter_builder" in verdict(kernel) and "asks you to write yourself" in verdict(kernel)


def test_grading_a_kernel_never_loads_torch() -> None:
    """The harness hands NumPy buffers to the interpreter: the sandbox starts triton alone (fast)."""
    import subprocess
    import sys

    probe = ("import sys\nfrom tensorlab.grading.harnesses import triton_launch\ntriton_launch.prepare()\n"
             "print('torch' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.strip() == "False"
