"""Row softmax: ``exp(x - max) / sum(exp(x - max))`` along the last dimension of a 2-D tensor.

``softmax_kernel`` — the picture: one program per row, and the whole row fits in one block of
``BLOCK = next_power_of_2(cols)`` lanes (``tl.arange`` needs a power of two). Lanes past the end
of the row are masked and load ``-inf``, so they add ``exp(-inf) = 0`` to the sum and never win
the max. Subtracting the row max first keeps ``exp`` from overflowing (fp16 overflows at 65504,
so ``exp(12)`` is already too big).

``online_softmax_kernel`` — rows wider than one block: the program walks its row block by block,
keeping a running max ``m`` and a running sum ``s`` of ``exp(x - m)``. When a new block raises
the max from ``m`` to ``m_new``, the sum so far is rescaled by ``exp(m - m_new)``, so one pass
reads the row to get both; a second pass writes ``exp(x - m) / s``. (Flash attention does the
same trick.)
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from ._checks import check_block, check_tensor


@triton.jit
def softmax_kernel(out_ptr, x_ptr, x_row_stride, out_row_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols  # BLOCK is n_cols rounded up to a power of two
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=float("-inf")).to(tl.float32)
    shifted = x - tl.max(x, axis=0)
    numerator = tl.exp(shifted)  # masked lanes: exp(-inf) = 0
    y = numerator / tl.sum(numerator, axis=0)
    tl.store(out_ptr + row * out_row_stride + cols, y.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def online_softmax_kernel(out_ptr, x_ptr, x_row_stride, out_row_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0)
    x_row = x_ptr + row * x_row_stride
    running_max = tl.full((), float("-inf"), tl.float32)
    running_sum = tl.full((), 0.0, tl.float32)
    for start in range(0, n_cols, BLOCK):  # pass 1: max and sum together
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < n_cols, other=float("-inf")).to(tl.float32)
        new_max = tl.maximum(running_max, tl.max(x, axis=0))
        running_sum = running_sum * tl.exp(running_max - new_max) + tl.sum(tl.exp(x - new_max), axis=0)
        running_max = new_max
    out_row = out_ptr + row * out_row_stride
    for start in range(0, n_cols, BLOCK):  # pass 2: normalise with the final max and sum
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=mask, other=float("-inf")).to(tl.float32)
        y = tl.exp(x - running_max) / running_sum
        tl.store(out_row + cols, y.to(out_ptr.dtype.element_ty), mask=mask)


def _check(op: str, x: torch.Tensor) -> torch.Tensor:
    check_tensor(op, "x", x, ndim=2)
    return torch.empty_like(x, memory_format=torch.contiguous_format)


def softmax(x: torch.Tensor) -> torch.Tensor:
    """``torch.softmax(x, dim=-1)`` for a 2-D ``x``, one program per row (a row must fit in one block)."""
    out = _check("softmax", x)
    n_rows, n_cols = x.shape
    if x.numel() > 0:
        block = triton.next_power_of_2(n_cols)
        num_warps = 4 if block <= 2048 else 8 if block <= 8192 else 16  # more threads for wider rows (GPU)
        softmax_kernel[(n_rows,)](
            out, x, x.stride(0), out.stride(0), n_cols, BLOCK=block, num_warps=num_warps
        )
    return out


def online_softmax(x: torch.Tensor, block: int = 1024) -> torch.Tensor:
    """``torch.softmax(x, dim=-1)`` for a 2-D ``x`` whose rows may be wider than ``block``."""
    out = _check("online_softmax", x)
    check_block("online_softmax", "block", block)
    n_rows, n_cols = x.shape
    if x.numel() > 0:
        online_softmax_kernel[(n_rows,)](out, x, x.stride(0), out.stride(0), n_cols, BLOCK=block)
    return out
