"""dropout: zero elements at random during training, the function behind nn.Dropout."""

from __future__ import annotations

from ..._tensor import Tensor

__all__ = ["dropout"]


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
