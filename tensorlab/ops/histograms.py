"""Counting values into bins: ``bincount`` (one bin per integer) and ``histc`` (equal-width bins).

Neither has a gradient: a count does not change when a value moves a little (and torch says so by
giving results that do not require grad, even from weights that do).
"""

from __future__ import annotations

import numpy as np

from .._dtype import float64, int64
from .._tensor import Tensor
from .promotion import _not_implemented_for

__all__ = ["bincount", "histc"]


def bincount(input: Tensor, weights: Tensor | None = None, minlength: int = 0) -> Tensor:  # noqa: A002
    """out[v] = how many times v occurs in ``input`` (or the sum of the ``weights`` at those places).

    The result has ``max(input) + 1`` bins, at least ``minlength``. Counts are int64; weighted sums
    keep a float32 weight's dtype and are float64 otherwise (as torch; an empty input gives int64
    zeros even with weights)."""
    if input.dtype.is_floating_point:
        raise _not_implemented_for("bincount_cpu", input.dtype)
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    data = input._data
    if input.ndim != 1 or (data.size and data.min() < 0):
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is None or not data.size:  # torch: an empty input counts in int64, weights or not
        return Tensor._from_array(np.bincount(data.astype(np.int64), minlength=minlength).astype(np.int64), int64)
    if weights.ndim != 1 or weights.shape[0] != data.shape[0]:
        raise RuntimeError("weights should be 1-d and have the same length as input")
    out = weights.dtype if weights.dtype.name == "float32" else float64
    counted = np.bincount(data.astype(np.int64), weights=weights._data.astype(np.float64), minlength=minlength)
    return Tensor._from_array(counted.astype(out.numpy), out)


def histc(input: Tensor, bins: int = 100, min: float = 0, max: float = 0) -> Tensor:  # noqa: A002
    """A histogram of ``bins`` equal-width bins over [min, max]; values outside are left out.

    min = max = 0 (the default) means "the data's own range"; a range of one point is widened to
    [point - 1, point + 1]. A value equal to ``max`` falls into the last bin."""
    if not input.dtype.is_floating_point:
        raise _not_implemented_for("histogram_cpu", input.dtype)
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
    data = input._data.reshape(-1).astype(np.float64)
    low, high = float(min), float(max)
    if low == high and data.size:
        low, high = float(data.min()), float(data.max())
    if low == high:
        low, high = low - 1, high + 1
    if not (np.isfinite(low) and np.isfinite(high)):
        raise RuntimeError(f"torch.histc: range of [{low:g}, {high:g}] is not finite")
    if low > high:
        raise RuntimeError("torch.histc: max must be larger than min")
    inside = data[(data >= low) & (data <= high)]
    positions = np.minimum(((inside - low) * bins / (high - low)).astype(np.int64), bins - 1)
    counts = np.bincount(positions, minlength=bins)
    return Tensor._from_array(counts.astype(input.dtype.numpy), input.dtype)
