"""Vector add: the smallest complete Triton kernel.

The picture: the flat input is cut into blocks of ``BLOCK`` elements; program ``pid`` handles
elements ``pid * BLOCK ... pid * BLOCK + BLOCK - 1``. The grid has ``cdiv(n, BLOCK)`` programs,
so the last block hangs over the end of the tensor when ``n`` is not a multiple of ``BLOCK``:
the mask ``offsets < n`` switches those lanes off for the load *and* the store.

Every kernel here loads in the storage dtype, computes in float32 and rounds once when it stores,
as torch's own half-precision kernels do (see backend.py for what the interpreter does with bf16).
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from ._checks import check_block, check_same_dtype, check_tensor
from .tiles import cdiv


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)  # the BLOCK elements this program owns
    mask = offsets < n_elements  # lanes past the end of the last block do nothing
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)  # compute in fp32, as torch does for halves
    y = tl.load(y_ptr + offsets, mask=mask).to(tl.float32)
    tl.store(out_ptr + offsets, (x + y).to(out_ptr.dtype.element_ty), mask=mask)


def add(x: torch.Tensor, y: torch.Tensor, *, block: int = 1024) -> torch.Tensor:
    """``x + y`` for two contiguous tensors of the same shape and dtype (no broadcasting)."""
    check_tensor("add", "x", x)
    check_tensor("add", "y", y)
    check_same_dtype("add", x=x, y=y)
    check_block("add", "block", block)
    if x.shape != y.shape:
        raise RuntimeError(f"add(): shapes differ: {tuple(x.shape)} and {tuple(y.shape)} (this kernel does not broadcast)")
    if not (x.is_contiguous() and y.is_contiguous()):
        raise RuntimeError("add(): the kernel reads flat memory: x and y must be contiguous; call .contiguous()")
    out = torch.empty_like(x)
    n = x.numel()
    if n > 0:
        add_kernel[(cdiv(n, block),)](x, y, out, n, BLOCK=block)
    return out
