"""interpolate: resize the two spatial dims of an (N, C, H, W) batch, 'nearest' or 'bilinear'.

Both modes are separable: each output row reads from input rows picked by a rule on the row
index alone, and likewise for columns. So resizing is ``y = Rows @ x @ Cols.T`` with two small
matrices; 'nearest' puts a single 1 in each matrix row, 'bilinear' two weights summing to 1.
Backward is the same product transposed: ``grad_x = Rows.T @ grad_y @ Cols``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..._tensor import Tensor
from ...autograd.function import Function, FunctionCtx
from ...ops.windows import first_order_only

__all__ = ["interpolate"]

_INTERPOLATING_MODES = ("linear", "bilinear", "bicubic", "trilinear")


def source_coordinates(in_size: int, out_size: int, scale: float | None, mode: str, align_corners: bool) -> np.ndarray:
    """Where output index i reads in the input, as torch computes it.

    ``scale`` is 1 / scale_factor when the caller gave one (torch uses it as given, not
    in_size / out_size); align_corners=True maps the corner pixels' centres onto each other.
    """
    index = np.arange(out_size, dtype=np.float64)
    if align_corners:
        return index * ((in_size - 1) / (out_size - 1) if out_size > 1 else 0.0)
    ratio = scale if scale is not None else in_size / out_size
    if mode == "nearest":
        return np.minimum(np.floor(index * ratio), in_size - 1)
    return np.maximum((index + 0.5) * ratio - 0.5, 0.0)  # bilinear: pixel centres, clamped at the edge


def interpolation_matrix(in_size: int, out_size: int, scale: float | None, mode: str, align_corners: bool) -> np.ndarray:
    """(out_size, in_size) weights: row i says how much of each input index output i takes."""
    source = source_coordinates(in_size, out_size, scale, mode, align_corners)
    matrix = np.zeros((out_size, in_size))
    rows = np.arange(out_size)
    if mode == "nearest":
        matrix[rows, source.astype(np.int64)] = 1.0
        return matrix
    below = np.floor(source).astype(np.int64)
    above = np.minimum(below + 1, in_size - 1)
    weight_above = source - below
    np.add.at(matrix, (rows, below), 1.0 - weight_above)
    np.add.at(matrix, (rows, above), weight_above)
    return matrix


class Resize2d(Function):
    """y = Rows @ x @ Cols.T over the last two dims; grad_x = Rows.T @ grad_y @ Cols.

    'nearest' forward gathers instead of multiplying, so an inf or nan in x stays where torch
    puts it rather than spreading through 0 * inf."""

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, rows: np.ndarray, cols: np.ndarray, mode: str) -> Tensor:
        if mode == "nearest":
            y = x._data[..., rows.argmax(axis=1)[:, None], cols.argmax(axis=1)]
        else:
            dtype = x.dtype.numpy
            y = rows.astype(dtype) @ x._data @ cols.T.astype(dtype)
        ctx.matrices = (rows, cols)
        return Tensor._from_array(np.ascontiguousarray(y, dtype=x.dtype.numpy), x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        rows, cols = ctx.matrices
        dtype = grad.dtype.numpy
        grad_x = rows.T.astype(dtype) @ grad._data @ cols.astype(dtype)
        return first_order_only("interpolate", (Tensor._from_array(np.ascontiguousarray(grad_x), grad.dtype),), grad) + (None,) * 3


def _output_size(spatial: tuple[int, int], size: Any, scale_factor: Any) -> tuple[tuple[int, int], tuple[float | None, float | None]]:
    """The output's (H, W) and the scales torch's kernels use (None: derive from the sizes)."""
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        sizes = tuple(size) if isinstance(size, (tuple, list)) else (size, size)
        if len(sizes) != 2:
            raise ValueError(
                f"Input and output must have the same number of spatial dimensions, but got input with spatial dimensions of "
                f"{list(spatial)} and output size of {size}. Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
                "output size in (o1, o2, ...,oK) format."
            )
        return (int(sizes[0]), int(sizes[1])), (None, None)
    if scale_factor is None:
        raise ValueError("either size or scale_factor should be defined")
    factors = tuple(scale_factor) if isinstance(scale_factor, (tuple, list)) else (scale_factor, scale_factor)
    if len(factors) != 2:
        raise ValueError(
            f"Input and scale_factor must have the same number of spatial dimensions, but got input with spatial dimensions of "
            f"{list(spatial)} and scale_factor of shape {scale_factor}. Please provide input tensor in (N, C, d1, d2, ...,dK) "
            "format and scale_factor in (s1, s2, ...,sK) format."
        )
    out = (math.floor(spatial[0] * float(factors[0])), math.floor(spatial[1] * float(factors[1])))
    return out, (1.0 / float(factors[0]), 1.0 / float(factors[1]))


def interpolate(
    input: Tensor,  # noqa: A002
    size: Any = None,
    scale_factor: Any = None,
    mode: str = "nearest",
    align_corners: bool | None = None,
    recompute_scale_factor: bool | None = None,
    antialias: bool = False,
) -> Tensor:
    """Resize (N, C, H, W) input to ``size`` or by ``scale_factor`` (the layer behind nn.Upsample).

    'nearest' copies the closest input pixel (floor of the scaled index); 'bilinear' blends the
    four around it. ``align_corners`` (bilinear only) decides whether the corner pixels or the
    image borders line up.
    """
    if mode not in ("nearest", "bilinear"):
        raise NotImplementedError(f"tensorlab's interpolate supports modes 'nearest' and 'bilinear', not {mode!r}")
    if align_corners is not None and mode not in _INTERPOLATING_MODES:
        raise ValueError("align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | trilinear")
    if input.ndim != 4:
        if mode == "bilinear":
            raise NotImplementedError(f"Got {input.ndim}D input, but bilinear mode needs 4D input")
        raise NotImplementedError(f"tensorlab's interpolate supports 4-D (N, C, H, W) input, got {input.ndim}D")
    if antialias:
        raise NotImplementedError("tensorlab's interpolate has no antialias")
    spatial = (input.shape[2], input.shape[3])
    out, scales = _output_size(spatial, size, scale_factor)
    if recompute_scale_factor:
        scales = (None, None)  # torch then derives the scale from the rounded output size
    if min(*spatial, *out) <= 0:
        raise RuntimeError(
            f"Input and output sizes should be greater than 0, but got input (H: {spatial[0]}, W: {spatial[1]}) "
            f"output (H: {out[0]}, W: {out[1]})"
        )
    if not input.dtype.is_floating_point:
        kernel = "upsample_nearest2d" if mode == "nearest" else "upsample_bilinear2d"
        raise NotImplementedError(f"\"{kernel}_channels_last\" not implemented for '{input.dtype.scalar_type}'")
    corners = bool(align_corners)
    rows = interpolation_matrix(spatial[0], out[0], scales[0], mode, corners)
    cols = interpolation_matrix(spatial[1], out[1], scales[1], mode, corners)
    node = "UpsampleNearest2DBackward0" if mode == "nearest" else "UpsampleBilinear2DBackward0"
    return Resize2d.apply_as(node, input, rows, cols, mode)
