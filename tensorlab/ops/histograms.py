"""Counting values into bins: ``bincount`` (one bin per integer), ``histc`` (equal-width bins),
``histogram`` (equal-width bins or given edges, with the edges) and ``histogramdd`` (D-dimensional).

None has a gradient: a count does not change when a value moves a little. torch says so in two
ways: bincount and histc give results that do not require grad, even from weights that do;
histogram and histogramdd give results with a ``NotImplemented`` node whose backward raises.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._dtype import float64, int64
from .._tensor import Tensor
from ..autograd.function import Function, FunctionCtx
from .extrema import return_types
from .out import C_TYPE_NAMES
from .promotion import _not_implemented_for

__all__ = ["bincount", "histc", "histogram", "histogramdd"]


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


# --- histogram and histogramdd: one D-dimensional count, histogram is its D = 1 case ----------
def _torch_linspace(low: float, high: float, steps: int, dt: np.dtype) -> np.ndarray:
    """torch's linspace in the input's own float dtype, to the last bit (a value on an edge must
    fall into torch's bin): step = (high - low) / (steps - 1) in that dtype, the first half counted
    up from ``low`` and the second half down from ``high``, each ``low + step * i`` rounded once
    (torch's compiled kernel fuses the multiply-add). A float32 product is exact in float64; a
    float64 one is exact as a Fraction (or in long double for very many bins)."""
    low, high = dt.type(low), dt.type(high)
    step = (high - low) / dt.type(steps - 1)
    index = np.arange(steps)
    counted_up = index < steps // 2
    if dt == np.float64 and steps <= 10_000:
        from fractions import Fraction

        exact_low, exact_high, exact_step = Fraction(float(low)), Fraction(float(high)), Fraction(float(step))
        return np.array([float(exact_low + exact_step * i if i < steps // 2 else exact_high - exact_step * (steps - 1 - i))
                         for i in range(steps)])
    wide = np.float64 if dt == np.float32 else np.longdouble
    up = wide(low) + wide(step) * index.astype(wide)
    down = wide(high) - wide(step) * (steps - 1 - index).astype(wide)
    return np.where(counted_up, up, down).astype(dt)


def _outer_edges(column: np.ndarray, span: tuple[float, float] | None, dim: int) -> tuple[float, float]:
    """The first and last edge of dim ``dim``: ``range`` if given, else the data's min and max
    ([0, 1] for no data); a range of one point is widened to [point - 0.5, point + 0.5]."""
    if span is not None:
        low, high = span
    elif column.size:
        low, high = float(column.min()), float(column.max())
    else:
        low, high = 0.0, 1.0
    if not (math.isfinite(low) and math.isfinite(high)):
        raise RuntimeError(f"torch.histogramdd: dimension {dim}'s range [{low:g}, {high:g}] is not finite")
    if low > high:
        raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min {low:g} max {high:g} for dimension {dim}")
    return (low - 0.5, high + 0.5) if low == high else (low, high)


def _bin_of(column: np.ndarray, edges: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which bin each value falls into, and whether it falls into one at all.

    Bin i is [edges[i], edges[i + 1]); the last bin also holds its right edge. Values outside
    [edges[0], edges[-1]] (and NaN) are counted nowhere."""
    inside = (column >= edges[0]) & (column <= edges[-1])
    position = np.searchsorted(edges, column, side="right") - 1
    return np.minimum(position, len(edges) - 2), inside


class Histogram(Function):
    """hist[i, j, ...] = how many points (or the sum of their weights) fall into bin (i, j, ...).

    torch defines no derivative: the outputs hang off a ``NotImplemented`` node whose backward raises.
    """

    backward_name = "NotImplemented"

    @staticmethod
    def forward(ctx: FunctionCtx, points: Tensor, weight: Tensor | None, density: bool, name: str, *edges: Tensor) -> tuple:
        ctx.op_name = name
        dt = points.dtype
        data = points._data.reshape(-1, len(edges))
        shape = tuple(len(e._data) - 1 for e in edges)
        keep = np.ones(len(data), dtype=bool)
        positions = []
        for dim, e in enumerate(edges):
            position, inside = _bin_of(data[:, dim], e._data)
            positions.append(position)
            keep &= inside
        flat = np.ravel_multi_index([position[keep] for position in positions], shape) if keep.any() else np.zeros(0, np.int64)
        weights = None if weight is None else weight._data.reshape(-1)[keep].astype(np.float64)
        hist = np.bincount(flat, weights, minlength=math.prod(shape)).reshape(shape).astype(dt.numpy)
        if density:
            with np.errstate(divide="ignore", invalid="ignore"):
                hist = hist / hist.sum(dtype=dt.numpy)
                for dim, e in enumerate(edges):
                    widths = np.diff(e._data)
                    hist = hist / widths.reshape([-1 if d == dim else 1 for d in range(len(edges))])
        return (Tensor._from_array(np.ascontiguousarray(hist, dtype=dt.numpy), dt),
                *(Tensor._from_array(e._data.copy(), dt) for e in edges))

    @staticmethod
    def backward(ctx: FunctionCtx, *grads: Tensor) -> tuple:
        raise RuntimeError(f"derivative for aten::{ctx.op_name} is not implemented")


def _check_edges(input: Tensor, edges: Tensor, dim: int, kernel: str) -> None:  # noqa: A002
    """A tensor of bin edges: the input's dtype, one dim, at least two edges (one bin)."""
    if edges.dtype is not input.dtype:
        raise RuntimeError(
            "torch.histogramdd: input tensor and bins tensors should have the same dtype, but got input with dtype "
            f"{C_TYPE_NAMES[input.dtype.name]} and bins for dimension {dim} with dtype {C_TYPE_NAMES[edges.dtype.name]}"
        )
    if input.dtype.name not in ("float32", "float64"):
        raise _not_implemented_for(kernel, input.dtype)
    if edges.ndim != 1:
        raise RuntimeError(
            f"torch.histogramdd: bins tensor should have one dimension, but got {edges.ndim} dimensions in the bins tensor for dimension {dim}"
        )
    if edges.numel() == 0:
        raise RuntimeError(
            f"torch.histogramdd: bins tensor should have at least 1 element, but got 0 elements in the bins tensor for dimension {dim}"
        )
    if edges.numel() == 1:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got 0 for dimension {dim}")


def _histogramdd(input: Tensor, bins: Any, span: Any, weight: Tensor | None, density: bool, name: str, kernel: str) -> tuple:  # noqa: A002
    """The one implementation: ``input`` is (N, D) points, ``bins`` D ints or D edge tensors."""
    ndim = input.shape[-1]
    if isinstance(bins, Tensor) or not isinstance(bins, Sequence) or isinstance(bins, str):
        raise TypeError(f"{name}(): argument 'bins' must be int, tuple of ints or tuple of Tensors, not {type(bins).__name__}")
    given_edges = all(isinstance(b, Tensor) for b in bins) and len(bins) > 0
    if given_edges:
        if span is not None:
            raise TypeError(f"{name}() received an invalid combination of arguments: range= is not accepted with tensor bins")
        if len(bins) != ndim:
            raise RuntimeError(
                f"torch.histogramdd: expected {ndim} sequences of bin edges for a {ndim}-dimensional histogram but got {len(bins)}"
            )
        for dim, edges in enumerate(bins):
            _check_edges(input, edges, dim, kernel)
    else:
        if any(isinstance(b, bool) or not isinstance(b, (int, np.integer)) for b in bins):
            raise TypeError(f"{name}(): argument 'bins' must be int or tuple of ints")
        if input.dtype.name not in ("float32", "float64"):
            raise _not_implemented_for("histogramdd", input.dtype)
        if len(bins) != ndim:
            raise RuntimeError("histogramdd: The size of bins must be equal to the innermost dimension of the input.")
        for dim, count in enumerate(bins):
            if count <= 0:
                raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {count} for dimension {dim}")
    if span is not None:
        if isinstance(span, Tensor) or not isinstance(span, Sequence) or any(isinstance(v, bool) or not isinstance(v, (int, float, np.number)) for v in span):
            raise TypeError(f"{name}(): argument 'range' must be tuple of floats, not {type(span).__name__}")
        if len(span) != 2 * ndim:
            raise RuntimeError(f"torch.histogramdd: for a {ndim}-dimensional histogram range should have {2 * ndim} elements, but got {len(span)}")
    if weight is not None:
        if not isinstance(weight, Tensor):
            raise TypeError(f"{name}(): argument 'weight' must be Tensor, not {type(weight).__name__}")
        if tuple(weight.shape) != tuple(input.shape[:-1]):
            raise RuntimeError(
                "torch.histogramdd: if weight tensor is provided it should have the same shape as the input tensor excluding "
                f"its innermost dimension, but got input with shape {list(input.shape)} and weight with shape {list(weight.shape)}"
            )
        if weight.dtype is not input.dtype:
            raise RuntimeError(
                "torch.histogramdd: if weight tensor is provided, input tensor and weight tensor should have the same dtype, "
                f"but got input({C_TYPE_NAMES[input.dtype.name]}), and weight({C_TYPE_NAMES[weight.dtype.name]})"
            )
    if not given_edges:
        columns = input._data.reshape(-1, ndim)
        dt = input.dtype.numpy
        made = []
        for dim, count in enumerate(bins):
            low, high = _outer_edges(columns[:, dim], None if span is None else (float(span[2 * dim]), float(span[2 * dim + 1])), dim)
            made.append(Tensor._from_array(_torch_linspace(low, high, int(count) + 1, dt), input.dtype))
        bins = made
    return Histogram.apply(input, weight, density, name, *bins)


def histogram(input: Tensor, bins: Any = 100, *, range: Any = None, weight: Tensor | None = None, density: bool = False) -> Any:  # noqa: A002
    """``(hist, bin_edges)``: how many values fall into each bin, and the bins' edges.

    ``bins`` is a number of equal-width bins over ``range`` (default: the data's min to max) or a
    1-d tensor of edges. Bin i is [edges[i], edges[i + 1]), the last one closed; values outside are
    left out. ``weight`` (one per value) sums weights instead of counting; ``density=True`` divides
    by the total and by each bin's width, so the histogram integrates to 1. Float inputs only; the
    result has the input's dtype."""
    if not isinstance(input, Tensor):
        raise TypeError(f"histogram(): argument 'input' must be Tensor, not {type(input).__name__}")
    if isinstance(bins, Tensor):
        bins = [bins]
    elif isinstance(bins, bool) or not isinstance(bins, (int, np.integer)):
        raise TypeError(f"histogram(): argument 'bins' must be int or Tensor, not {type(bins).__name__}")
    else:
        bins = [bins]
    if weight is not None and isinstance(weight, Tensor):
        weight = weight.reshape(-1)
    hist, edges = _histogramdd(input.reshape(-1, 1), bins, range, weight, density, "histogram", "histogram_cpu")
    return return_types.histogram(hist, edges)


def histogramdd(input: Tensor, bins: Any, range: Any = None, weight: Tensor | None = None, density: bool = False) -> Any:  # noqa: A002
    """``(hist, bin_edges)`` of N points in D dimensions: ``input`` is (..., D), ``bins`` an int
    (that many bins along every dim), D ints, or D tensors of edges; ``hist`` has one dim per
    input dim and ``bin_edges`` is a tuple of D edge tensors. ``range`` is (min0, max0, min1, max1, ...)."""
    if input.ndim < 2:
        raise RuntimeError("torch.histogramdd: input tensor should have at least 2 dimensions")
    if isinstance(bins, (int, np.integer)) and not isinstance(bins, bool):
        bins = [bins] * input.shape[-1]
    hist, *edges = _histogramdd(input, bins, range, weight, density, "histogramdd", "histogramdd")
    return return_types.histogramdd(hist, tuple(edges))
