"""dropout: zero elements at random during training, the function behind nn.Dropout."""

from __future__ import annotations

import warnings

import numpy as np

from ..._tensor import Tensor

__all__ = ["dropout", "dropout2d"]


def _apply_noise(input: Tensor, noise_shape: tuple, p: float, inplace: bool) -> Tensor:  # noqa: A002
    """input * noise, noise = bernoulli(1 - p) / (1 - p) in input's dtype (0 everywhere when p = 1)."""
    if input.numel() == 0:
        return input
    if p == 1.0:
        noise = Tensor._from_array(np.zeros((), dtype=input.dtype.numpy), input.dtype)
    else:
        noise = Tensor._from_array(np.empty(noise_shape, dtype=input.dtype.numpy), input.dtype).bernoulli_(1 - p)
        noise = noise.div_(1 - p)
    return input.mul_(noise) if inplace else input * noise


def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:  # noqa: A002
    """Zero each element with probability p and scale survivors by 1/(1-p), so the expected value
    is unchanged; in eval mode (``training=False``) it is the identity.

    As torch does on the CPU: a noise tensor filled by ``bernoulli_(1 - p)`` (one float64 uniform
    per element from the global generator), divided by 1 - p, times the input; so a seed drops the
    elements torch drops.
    """
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return input
    return _apply_noise(input, tuple(input.shape), p, inplace)


def dropout2d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:  # noqa: A002
    """Zero whole channels: one coin per (sample, channel), shared by every pixel of that feature
    map. Neighbouring pixels are correlated, so dropping single pixels would hardly regularise.

    A 4-d input is (N, C, H, W); a 3-d input is read as (N, C, L), as torch 2.13 does (with a warning).
    """
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if input.ndim not in (3, 4):
        warnings.warn(
            f"dropout2d: Received a {input.ndim}-D input to dropout2d, which is deprecated and will result in an error "
            "in a future release. To retain the behavior and silence this warning, please use dropout instead. "
            "Note that dropout2d exists to provide channel-wise dropout on inputs with 2 spatial dimensions, "
            "a channel dimension, and an optional batch dimension (i.e. 3D or 4D inputs).",
            stacklevel=2,
        )
    if input.ndim == 3:
        warnings.warn(
            "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout behavior is desired "
            "- input is interpreted as shape (N, C, L), where C is the channel dim.",
            stacklevel=2,
        )
    if not training or p == 0.0:
        return input
    if input.ndim < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    return _apply_noise(input, tuple(input.shape[:2]) + (1,) * (input.ndim - 2), p, inplace)
