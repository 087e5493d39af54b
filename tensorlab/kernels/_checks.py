"""Input checks shared by the kernel wrappers: a kernel only sees raw pointers, so a tensor on the
wrong device, of the wrong dtype or with unexpected strides would be read as garbage, not refused.
The wrappers refuse it first, with torch's exception classes (TypeError for a non-tensor,
RuntimeError for a shape, dtype or device mismatch)."""

from __future__ import annotations

import torch

from .backend import backend, device

FLOAT_DTYPES = (torch.float32, torch.float16, torch.bfloat16)


def check_tensor(
    op: str, name: str, t: object, ndim: int | None = None, *, any_strides: bool = False
) -> torch.Tensor:
    """``t`` as a tensor the kernels can read: on the backend's device, a float dtype they handle,
    ``ndim`` dimensions if given, and its last dimension contiguous (stride 1) unless the kernel
    takes every stride (``any_strides``)."""
    if not isinstance(t, torch.Tensor):
        raise TypeError(f"{op}(): argument '{name}' must be Tensor, not {type(t).__name__}")
    if t.device.type != device().type:
        raise RuntimeError(
            f"{op}(): expected '{name}' on {device().type} (kernel backend {backend()!r}), got {t.device}"
        )
    if t.dtype not in FLOAT_DTYPES:
        raise RuntimeError(f"{op}(): '{name}' has dtype {t.dtype}; the kernels handle float32, float16, bfloat16")
    if ndim is not None and t.dim() != ndim:
        raise RuntimeError(f"{op}(): expected '{name}' to be {ndim}-D, got {t.dim()}-D of shape {tuple(t.shape)}")
    if not any_strides and t.dim() > 0 and t.shape[-1] > 1 and t.stride(-1) != 1:
        raise RuntimeError(f"{op}(): '{name}' must have a contiguous last dimension (stride 1); call .contiguous()")
    return t


def check_same_dtype(op: str, **tensors: torch.Tensor) -> None:
    """The kernels do not promote: mixed dtypes are refused rather than silently converted."""
    dtypes = {name: t.dtype for name, t in tensors.items()}
    if len(set(dtypes.values())) > 1:
        listed = ", ".join(f"{name}: {dtype}" for name, dtype in dtypes.items())
        raise RuntimeError(f"{op}(): expected the same dtype, got {listed}")


def check_block(op: str, name: str, block: int) -> int:
    """``tl.arange`` needs a power-of-two length."""
    if block <= 0 or block & (block - 1):
        raise ValueError(f"{op}(): {name} must be a positive power of two, got {block}")
    return block
