"""Which output tile each matmul program computes — pure Python, so widgets can draw it.

A matmul launch is a 1-D grid of programs; program ``pid`` must pick one (``pid_m``, ``pid_n``)
tile of the output. The obvious row-major order walks a whole row of tiles before the next,
so every program re-reads a different column of B from DRAM. The *grouped* order walks down
``group_m`` rows of tiles first, column by column: programs that run at the same time share
the same few tiles of A and of B, which stay in the L2 cache. ``matmul_kernel`` computes exactly
this arithmetic in Triton (tests/test_kernels.py records it from a launch and compares).

This module imports neither torch nor triton: the TileExplorer widget uses it on its own.
"""

from __future__ import annotations


def cdiv(a: int, b: int) -> int:
    """``ceil(a / b)`` in integers: how many blocks of size ``b`` cover ``a`` elements."""
    if b <= 0:
        raise ValueError(f"cdiv: the block size must be positive, got {b}")
    return (a + b - 1) // b


def grouped_tile(pid: int, num_pid_m: int, num_pid_n: int, group_m: int) -> tuple[int, int]:
    """The (row, column) of the output tile that program ``pid`` computes, in grouped order.

    Programs are dealt out in groups of ``group_m`` tile-rows × all ``num_pid_n`` tile-columns;
    inside a group they go down a column first. The last group may have fewer rows.
    """
    if not 0 <= pid < num_pid_m * num_pid_n:
        raise ValueError(f"grouped_tile: pid {pid} is outside a grid of {num_pid_m} x {num_pid_n} tiles")
    if group_m <= 0:
        raise ValueError(f"grouped_tile: group_m must be positive, got {group_m}")
    programs_per_group = group_m * num_pid_n
    group = pid // programs_per_group
    first_row = group * group_m
    rows_in_group = min(num_pid_m - first_row, group_m)  # the last group can be shorter
    index_in_group = pid % programs_per_group
    pid_m = first_row + index_in_group % rows_in_group
    pid_n = index_in_group // rows_in_group
    return pid_m, pid_n
