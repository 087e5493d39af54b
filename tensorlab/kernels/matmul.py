"""Tiled matmul ``C = A @ B`` with ``tl.dot``: fp16/bf16 (or fp32) in, fp32 accumulate.

The picture: C (M x N) is cut into ``BLOCK_M x BLOCK_N`` tiles, one program per tile. Program
``pid`` finds its tile with ``grouped_tile`` (tiles.py has the same arithmetic in plain Python,
and explains why the grouped order keeps A's and B's tiles in the L2 cache). It then walks K in
steps of ``BLOCK_K``: loads a ``BLOCK_M x BLOCK_K`` tile of A and a ``BLOCK_K x BLOCK_N`` tile of
B and adds their product into a float32 accumulator — on a GPU, ``tl.dot`` of fp16/bf16 tiles runs
on the Tensor Cores. Masks at every edge: rows past M, columns past N, and in the last K step the
columns of A and rows of B past K load 0 (so they add nothing). The accumulator is rounded to
C's dtype once, at the store.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from ._checks import check_block, check_same_dtype, check_tensor
from .backend import backend
from .tiles import cdiv


@triton.jit
def grouped_tile_in_kernel(pid, num_pid_m, num_pid_n, GROUP_M: tl.constexpr):
    """tiles.grouped_tile, written in Triton (the test launches a kernel that records its answer)."""
    programs_per_group = GROUP_M * num_pid_n
    group = pid // programs_per_group
    first_row = group * GROUP_M
    rows_in_group = tl.minimum(num_pid_m - first_row, GROUP_M)  # the last group can be shorter
    index_in_group = pid % programs_per_group
    pid_m = first_row + index_in_group % rows_in_group
    pid_n = index_in_group // rows_in_group
    return pid_m, pid_n


@triton.jit
def matmul_kernel(
    a_ptr, b_ptr, c_ptr, M, N, K,
    stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
    INPUT_PRECISION: tl.constexpr, UPCAST_TILES: tl.constexpr,
):
    pid_m, pid_n = grouped_tile_in_kernel(
        tl.program_id(axis=0), tl.cdiv(M, BLOCK_M), tl.cdiv(N, BLOCK_N), GROUP_M
    )
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)  # rows of A and C this program owns
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)  # columns of B and C
    ks = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a_mask = (rows[:, None] < M) & (k + ks[None, :] < K)
        b_mask = (k + ks[:, None] < K) & (cols[None, :] < N)
        a = tl.load(a_ptr + rows[:, None] * stride_am + (k + ks[None, :]) * stride_ak, mask=a_mask, other=0.0)
        b = tl.load(b_ptr + (k + ks[:, None]) * stride_bk + cols[None, :] * stride_bn, mask=b_mask, other=0.0)
        if UPCAST_TILES:  # only on Triton's interpreter, whose tl.dot multiplies bf16's raw bits
            a = a.to(tl.float32)
            b = b.to(tl.float32)
        acc = tl.dot(a, b, acc, input_precision=INPUT_PRECISION)
    c_mask = (rows[:, None] < M) & (cols[None, :] < N)
    c = acc.to(c_ptr.dtype.element_ty)
    tl.store(c_ptr + rows[:, None] * stride_cm + cols[None, :] * stride_cn, c, mask=c_mask)


# On a GPU the best tile shape depends on the GPU (its shared memory holds num_stages tiles of A and
# B) and on the sizes, so the autotuner times these candidates once per (M, N, K, dtype) and keeps the
# fastest; one that does not fit in shared memory is skipped. Never timed here: no GPU was lent.
GPU_CONFIGS = [
    triton.Config({"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 64}, num_warps=8, num_stages=3),
    triton.Config({"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64}, num_warps=8, num_stages=4),
    triton.Config({"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 32}, num_warps=4, num_stages=4),
    triton.Config({"BLOCK_M": 64, "BLOCK_N": 128, "BLOCK_K": 32}, num_warps=4, num_stages=4),
    triton.Config({"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32}, num_warps=4, num_stages=5),
]
tuned_matmul_kernel = triton.autotune(configs=GPU_CONFIGS, key=["M", "N", "K"])(matmul_kernel)
FIXED_BLOCKS = {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32}  # when not autotuned: the interpreter, or some blocks given


def matmul(
    a: torch.Tensor, b: torch.Tensor, *,
    block_m: int | None = None, block_n: int | None = None, block_k: int | None = None, group_m: int = 8,
) -> torch.Tensor:
    """``a @ b`` for 2-D ``a`` (M, K) and ``b`` (K, N) of one float dtype; any strides.

    fp32 inputs are multiplied in full fp32 (``input_precision="ieee"``), as torch does by default
    (``torch.backends.cuda.matmul.allow_tf32`` is False). Block sizes not given are autotuned on a
    GPU (GPU_CONFIGS), and come from FIXED_BLOCKS on the interpreter.
    """
    check_tensor("matmul", "a", a, ndim=2, any_strides=True)
    check_tensor("matmul", "b", b, ndim=2, any_strides=True)
    check_same_dtype("matmul", a=a, b=b)
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(
            f"matmul(): a and b shapes cannot be multiplied ({a.shape[0]}x{a.shape[1]} and {b.shape[0]}x{b.shape[1]})"
        )
    blocks = {"BLOCK_M": block_m, "BLOCK_N": block_n, "BLOCK_K": block_k}
    for name, given in blocks.items():
        if given is not None:
            check_block("matmul", name.lower(), given)
    if group_m <= 0:
        raise ValueError(f"matmul(): group_m must be positive, got {group_m}")
    (M, K), N = a.shape, b.shape[1]
    c = torch.empty((M, N), dtype=a.dtype, device=a.device)
    if M == 0 or N == 0:
        return c
    if K == 0:
        return c.zero_()  # an empty sum; the kernel's loop would not run, but skip the launch
    arguments = (
        a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
    )
    options = dict(
        GROUP_M=group_m,
        INPUT_PRECISION="ieee" if a.dtype == torch.float32 else "tf32",  # tf32 is the default; fp16/bf16 ignore it
        UPCAST_TILES=backend() == "interpret" and a.dtype == torch.bfloat16,
    )

    def grid(meta: dict[str, int]) -> tuple[int]:
        return (cdiv(M, meta["BLOCK_M"]) * cdiv(N, meta["BLOCK_N"]),)

    if backend() == "cuda" and all(given is None for given in blocks.values()):
        tuned_matmul_kernel[grid](*arguments, **options)
    else:
        chosen = {name: given or FIXED_BLOCKS[name] for name, given in blocks.items()}
        matmul_kernel[grid](*arguments, **options, **chosen)
    return c
