"""Layer norm forward: ``(x - mean) / sqrt(var + eps) * weight + bias`` over the last dimensions.

The picture: the normalised dimensions are flattened to one row of ``n_cols`` values per program
(so it is a row kernel, like softmax), and the row fits in one block of ``BLOCK =
next_power_of_2(n_cols)`` lanes. Masked lanes load 0; the mean divides by ``n_cols``, not by
``BLOCK``, and the centred values are zeroed on masked lanes so they add nothing to the variance.
The variance is the biased one (divide by ``n_cols``), as ``torch.nn.functional.layer_norm`` uses.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import torch
import triton
import triton.language as tl

from ._checks import check_same_dtype, check_tensor


@triton.jit
def layer_norm_kernel(
    out_ptr, x_ptr, weight_ptr, bias_ptr, n_cols, eps,
    BLOCK: tl.constexpr, HAS_WEIGHT: tl.constexpr, HAS_BIAS: tl.constexpr,
):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / n_cols
    centred = tl.where(mask, x - mean, 0.0)  # masked lanes would add mean**2 to the variance
    variance = tl.sum(centred * centred, axis=0) / n_cols
    y = centred * (1.0 / tl.sqrt(variance + eps))
    if HAS_WEIGHT:  # compile-time branches: a kernel without weight never loads one
        y = y * tl.load(weight_ptr + cols, mask=mask).to(tl.float32)
    if HAS_BIAS:
        y = y + tl.load(bias_ptr + cols, mask=mask).to(tl.float32)
    tl.store(out_ptr + row * n_cols + cols, y.to(out_ptr.dtype.element_ty), mask=mask)


def layer_norm(
    x: torch.Tensor,
    normalized_shape: int | Sequence[int],
    weight: torch.Tensor | None = None,
    bias: torch.Tensor | None = None,
    eps: float = 1e-5,
) -> torch.Tensor:
    """``torch.nn.functional.layer_norm`` forward for a contiguous ``x`` (no autograd)."""
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    check_tensor("layer_norm", "x", x)
    if not x.is_contiguous():
        raise RuntimeError("layer_norm(): x must be contiguous (each row is read as n_cols neighbours); call .contiguous()")
    n = len(shape)
    if n == 0 or x.dim() < n or tuple(x.shape[x.dim() - n:]) != shape:
        raise RuntimeError(
            f"layer_norm(): given normalized_shape={list(shape)}, expected input with shape "
            f"[*, {', '.join(map(str, shape))}], but got input of size {list(x.shape)}"
        )
    for name, param in (("weight", weight), ("bias", bias)):
        if param is not None:
            check_tensor("layer_norm", name, param)
            check_same_dtype("layer_norm", x=x, **{name: param})
            if tuple(param.shape) != shape or not param.is_contiguous():
                raise RuntimeError(
                    f"layer_norm(): expected {name} contiguous of shape {list(shape)}, got {list(param.shape)}"
                )
    out = torch.empty_like(x)
    n_cols = math.prod(shape)
    n_rows = x.numel() // n_cols if n_cols else 0
    if n_rows > 0:
        block = triton.next_power_of_2(n_cols)
        layer_norm_kernel[(n_rows,)](
            out, x, weight if weight is not None else x, bias if bias is not None else x, n_cols, eps,
            BLOCK=block, HAS_WEIGHT=weight is not None, HAS_BIAS=bias is not None,
            num_warps=4 if block <= 2048 else 8,
        )
    return out
