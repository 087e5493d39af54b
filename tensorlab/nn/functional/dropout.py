"""dropout: zero elements at random during training, the function behind nn.Dropout."""

from __future__ import annotations

import warnings

from ..._tensor import Tensor

__all__ = ["dropout", "dropout2d"]


def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:  # noqa: A002
    """Zero each element with probability p and scale survivors by 1/(1-p), so the expected value
    is unchanged; in eval mode (``training=False``) it is the identity.

    The mask comes from tensorlab's generator, so which elements drop differs from torch's.
    """
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return input
    from ... import _random

    keep = _random._generator.random(tuple(input.shape)) >= p
    scale = 0.0 if p == 1.0 else 1.0 / (1.0 - p)
    noise = Tensor._from_array(keep * scale, input.dtype)
    return input.mul_(noise) if inplace else input * noise


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
    from ... import _random

    mask_shape = tuple(input.shape[:2]) + (1,) * (input.ndim - 2)
    keep = _random._generator.random(mask_shape) >= p
    scale = 0.0 if p == 1.0 else 1.0 / (1.0 - p)
    noise = Tensor._from_array(keep * scale, input.dtype)
    return input.mul_(noise) if inplace else input * noise
