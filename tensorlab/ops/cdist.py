"""``cdist``: the distance between every row of one matrix and every row of another.

out[..., i, j] = || x1[..., i, :] - x2[..., j, :] ||_p. Written as broadcasting: x1 as
(..., P, 1, M) minus x2 as (..., 1, R, M) is every difference at once, (..., P, R, M), and a
vector norm over the last dim finishes it. Its gradient is the norm's (``ops.reduction``), which
is 0 where two rows coincide (the distance has a kink there), as torch's is. The broadcast
costs P * R * M memory; torch computes the p = 2 case as |a|^2 + |b|^2 - 2 a.b for large
inputs instead, so its results may differ in the last bits.
"""

from __future__ import annotations

from .._tensor import Tensor, require_tensors
from .reduction import norm

__all__ = ["cdist"]


def cdist(x1: Tensor, x2: Tensor, p: float = 2.0, compute_mode: str = "use_mm_for_euclid_dist_if_necessary") -> Tensor:
    """Pairwise p-norm distances between the rows of x1 (..., P, M) and x2 (..., R, M): (..., P, R)."""
    require_tensors("cdist", ("x1", x1), ("x2", x2))
    for name, x in (("X1", x1), ("X2", x2)):
        if x.ndim < 2:
            raise RuntimeError(f"cdist only supports at least 2D tensors, {name} got: {x.ndim}D")
        if not x.dtype.is_floating_point:
            raise RuntimeError(f"cdist only supports floating-point dtypes, {name} got: {x.dtype.scalar_type}")
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {x1.shape[-1]} X2: {x2.shape[-1]}")
    if x1.dtype is not x2.dtype:
        raise RuntimeError(f"expected scalar type {x1.dtype.scalar_type} but found {x2.dtype.scalar_type}")
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    differences = x1.unsqueeze(-2) - x2.unsqueeze(-3)
    distances = norm(differences, float(p), -1)
    if p == 0:  # counts the differing coordinates: piecewise constant, so torch's gradient is 0 (not None)
        distances = distances + differences.sum(-1) * 0
    return distances
