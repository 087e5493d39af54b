"""Fused bias + ReLU, forward and backward: ``y = max(x + bias, 0)`` in one pass over memory.

Unfused, torch writes ``x + bias`` to memory and reads it back for the ReLU; fused, each element
is read once and written once. The picture: a 2-D grid of ``BLOCK_M x BLOCK_N`` tiles over the
(rows, cols) input; program (``pid_m``, ``pid_n``) owns one tile and loads the ``BLOCK_N`` bias
values of its columns. Tiles on the bottom and right edges hang over; the 2-D mask
``(rows < n_rows) & (cols < n_cols)`` switches those lanes off.

Backward: ``dy/dx = 1 where y > 0, else 0`` — so the forward saves its *output* ``y``, not
``x + bias``. ``grad_bias`` is ``grad_x`` summed over rows: each program sums its tile's
columns and adds them into a float32 buffer with ``tl.atomic_add`` (tiles in the same column
add into the same entries; on a GPU the order of those adds varies from run to run).
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl
from torch.autograd.function import FunctionCtx

from ._checks import check_block, check_same_dtype, check_tensor
from .tiles import cdiv


@triton.jit
def bias_relu_kernel(
    x_ptr, bias_ptr, y_ptr, n_rows, n_cols, x_row_stride, y_row_stride,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
):
    rows = tl.program_id(axis=0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(axis=1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    x = tl.load(x_ptr + rows[:, None] * x_row_stride + cols[None, :], mask=mask).to(tl.float32)
    bias = tl.load(bias_ptr + cols, mask=cols < n_cols).to(tl.float32)
    y = tl.maximum(x + bias[None, :], 0.0)  # bias broadcasts down the tile's rows
    tl.store(y_ptr + rows[:, None] * y_row_stride + cols[None, :], y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def bias_relu_backward_kernel(
    grad_y_ptr, y_ptr, grad_x_ptr, grad_bias_ptr, n_rows, n_cols, row_stride,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
):
    rows = tl.program_id(axis=0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(axis=1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    offsets = rows[:, None] * row_stride + cols[None, :]
    grad_y = tl.load(grad_y_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    y = tl.load(y_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    grad_x = tl.where(y > 0.0, grad_y, 0.0)  # masked lanes loaded 0, so they add nothing below
    tl.store(grad_x_ptr + offsets, grad_x.to(grad_x_ptr.dtype.element_ty), mask=mask)
    tl.atomic_add(grad_bias_ptr + cols, tl.sum(grad_x, axis=0), mask=cols < n_cols)


def _grid(n_rows: int, n_cols: int, block_m: int, block_n: int) -> tuple[int, int]:
    return cdiv(n_rows, block_m), cdiv(n_cols, block_n)


class BiasReLU(torch.autograd.Function):
    """``relu(x + bias)`` with both directions in Triton; ``bias`` broadcasts over ``x``'s rows."""

    @staticmethod
    def forward(
        ctx: FunctionCtx, x: torch.Tensor, bias: torch.Tensor, block_m: int, block_n: int
    ) -> torch.Tensor:
        y = torch.empty_like(x, memory_format=torch.contiguous_format)
        n_rows, n_cols = x.shape
        if x.numel() > 0:
            bias_relu_kernel[_grid(n_rows, n_cols, block_m, block_n)](
                x, bias, y, n_rows, n_cols, x.stride(0), y.stride(0), BLOCK_M=block_m, BLOCK_N=block_n
            )
        ctx.save_for_backward(y)
        ctx.blocks = (block_m, block_n)  # type: ignore[attr-defined]  # FunctionCtx takes any attribute
        return y

    @staticmethod
    def backward(
        ctx: FunctionCtx, grad_y: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor, None, None]:
        (y,) = ctx.saved_tensors  # type: ignore[attr-defined]
        block_m, block_n = ctx.blocks  # type: ignore[attr-defined]
        grad_y = grad_y.contiguous()  # y, grad_y and grad_x all contiguous: one row_stride serves all three
        grad_x = torch.empty_like(y)
        grad_bias = torch.zeros(y.shape[1], dtype=torch.float32, device=y.device)  # atomics add in fp32
        n_rows, n_cols = y.shape
        if y.numel() > 0:
            bias_relu_backward_kernel[_grid(n_rows, n_cols, block_m, block_n)](
                grad_y, y, grad_x, grad_bias, n_rows, n_cols, y.stride(0), BLOCK_M=block_m, BLOCK_N=block_n
            )
        return grad_x, grad_bias.to(y.dtype), None, None


def bias_relu(x: torch.Tensor, bias: torch.Tensor, *, block_m: int = 32, block_n: int = 64) -> torch.Tensor:
    """``torch.relu(x + bias)`` for ``x`` of shape (rows, cols) and ``bias`` of shape (cols,), differentiable."""
    check_tensor("bias_relu", "x", x, ndim=2)
    check_tensor("bias_relu", "bias", bias, ndim=1)
    check_same_dtype("bias_relu", x=x, bias=bias)
    check_block("bias_relu", "block_m", block_m)
    check_block("bias_relu", "block_n", block_n)
    if bias.shape[0] != x.shape[1]:
        raise RuntimeError(
            f"bias_relu(): bias has {bias.shape[0]} entries but x has {x.shape[1]} columns (shape {tuple(x.shape)})"
        )
    out: torch.Tensor = BiasReLU.apply(x, bias, block_m, block_n)
    return out
