"""Distances and similarities between vectors: pairwise_distance, cosine_similarity.

Both reduce one dim (the vector) and broadcast the rest. Each guards a division or a norm
with ``eps``, the detail that keeps a zero vector from giving nan.
"""

from __future__ import annotations

from ..._dtype import result_type
from ..._tensor import Tensor
from ...autograd.grad_mode import no_grad
from ...ops.broadcasting import broadcast_pair
from ...ops.reduction import accepts_keepdims

__all__ = ["cosine_similarity", "normalize", "pairwise_distance"]


@accepts_keepdims
def pairwise_distance(x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> Tensor:
    """|x1 - x2 + eps|_p over the last dim; ``eps`` keeps the norm's gradient finite at x1 == x2."""
    last = max(x1.ndim, x2.ndim) - 1
    return (x1 - x2 + eps).norm(p, dim=last, keepdim=keepdim)


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """x1 . x2 / (max(|x1|, eps) max(|x2|, eps)) along ``dim``, as torch computes it: each vector
    is divided by its own norm first (so the result stays within [-1, 1]), and the norms are
    clamped at eps out of autograd's sight (the gradient still flows through a clamped norm)."""
    dtype = result_type(x1, x2)
    if not dtype.is_floating_point:
        raise RuntimeError(f"expected common dtype to be floating point, yet common dtype is {dtype.scalar_type}")
    shape = broadcast_pair(tuple(x1.shape), tuple(x2.shape))
    x1, x2 = x1.expand(shape), x2.expand(shape)
    norm1 = x1.norm(2, dim=dim, keepdim=True).clone()
    norm2 = x2.norm(2, dim=dim, keepdim=True).clone()
    with no_grad():
        norm1.clamp_(min=eps)
        norm2.clamp_(min=eps)
    return ((x1 / norm1) * (x2 / norm2)).sum(dim)


def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12, out: Tensor | None = None) -> Tensor:  # noqa: A002
    """input / max(|input|_p, eps) along ``dim``: every vector scaled to length 1. The clamp is
    part of the graph, so a vector whose norm is below eps gets the gradient of input / eps."""
    denominator = input.norm(p, dim=dim, keepdim=True).clamp(min=eps).expand_as(input)
    result = input / denominator
    return result if out is None else out.copy_(result)
