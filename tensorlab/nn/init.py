"""nn.init: fill a weight in place from the distributions torch uses to initialise layers.

Each function draws from the ``generator=`` given or the global one, with torch's transforms (so a
seed gives torch's weights), writes into ``tensor`` without recording a graph, and returns it. The "fan" of a weight is how many inputs (fan_in) or outputs (fan_out) each unit has;
scaling by it keeps activations' variance steady from layer to layer.
"""

from __future__ import annotations

import math
import warnings
from statistics import NormalDist
from typing import Any

import numpy as np

from .._tensor import Tensor
from ..autograd.grad_mode import no_grad

__all__ = [
    "calculate_gain", "constant_", "kaiming_normal_", "kaiming_uniform_", "normal_", "ones_",
    "uniform_", "xavier_normal_", "xavier_uniform_", "zeros_",
    "orthogonal_", "trunc_normal_",
]


def _fill(tensor: Tensor, values: Any) -> Tensor:
    """Write ``values`` (an array or a number) into ``tensor`` in place, outside autograd."""
    with no_grad():
        if isinstance(values, np.ndarray):
            values = Tensor._from_array(values.astype(tensor.dtype.numpy), tensor.dtype)
            return tensor.copy_(values)
        return tensor.fill_(values)


def calculate_gain(nonlinearity: str, param: float | None = None) -> float:
    """The factor that keeps activations' scale after ``nonlinearity`` (e.g. sqrt 2 for ReLU)."""
    linear_like = ["linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d"]
    if nonlinearity in linear_like or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, (int, float)):
            slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor: Tensor) -> tuple[int, int]:
    if tensor.ndim < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    receptive_field = math.prod(tensor.shape[2:])
    return tensor.shape[1] * receptive_field, tensor.shape[0] * receptive_field


def _fan(tensor: Tensor, mode: str) -> int:
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of fan_in, fan_out")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0, generator: Any = None) -> Tensor:
    with no_grad():
        return tensor.uniform_(a, b, generator=generator)


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, generator: Any = None) -> Tensor:
    with no_grad():
        return tensor.normal_(mean, std, generator=generator)


def constant_(tensor: Tensor, val: float) -> Tensor:
    return _fill(tensor, val)


def zeros_(tensor: Tensor) -> Tensor:
    return _fill(tensor, 0)


def ones_(tensor: Tensor) -> Tensor:
    return _fill(tensor, 1)


def xavier_uniform_(tensor: Tensor, gain: float = 1.0, generator: Any = None) -> Tensor:
    """U(-a, a), a = gain * sqrt(6 / (fan_in + fan_out)) (Glorot & Bengio, 2010)."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    bound = math.sqrt(3.0) * gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return uniform_(tensor, -bound, bound, generator)


def xavier_normal_(tensor: Tensor, gain: float = 1.0, generator: Any = None) -> Tensor:
    """N(0, std^2), std = gain * sqrt(2 / (fan_in + fan_out))."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / float(fan_in + fan_out)), generator)


def kaiming_uniform_(tensor: Tensor, a: float = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu", generator: Any = None) -> Tensor:
    """U(-bound, bound), bound = gain * sqrt(3 / fan) (He et al., 2015)."""
    if 0 in tensor.shape:
        return tensor
    std = calculate_gain(nonlinearity, a) / math.sqrt(_fan(tensor, mode))
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor: Tensor, a: float = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu", generator: Any = None) -> Tensor:
    """N(0, std^2), std = gain / sqrt(fan)."""
    if 0 in tensor.shape:
        return tensor
    std = calculate_gain(nonlinearity, a) / math.sqrt(_fan(tensor, mode))
    return normal_(tensor, 0.0, std, generator)


def trunc_normal_(
    tensor: Tensor, mean: float = 0.0, std: float = 1.0, a: float = -2.0, b: float = 2.0, generator: Any = None
) -> Tensor:
    """N(mean, std^2) conditioned on [a, b] (bounds in the tensor's units, not in stds), by
    rejection as torch 2.13 does. When [a, b] holds more than 30% of the mass: draw normals and
    redraw (a whole tensor of them, keeping only the rejected places) until all land in [a, b].
    Otherwise: uniform candidates on [a, b], each accepted with probability pdf / peak pdf."""
    if mean < a - 2 * std or mean > b + 2 * std:
        warnings.warn(
            "mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The distribution of values may be incorrect.",
            stacklevel=2,
        )
    from .. import where

    standard = NormalDist(mean, std)
    with no_grad():
        if standard.cdf(b) - standard.cdf(a) > 0.3:
            low, high = tensor.new_tensor(a).item(), tensor.new_tensor(b).item()
            result = tensor.normal_(mean, std, generator=generator)
            while (outside := (result < low) | (result > high)).any():
                result = where(outside, tensor.new_empty(tuple(tensor.shape)).normal_(mean, std, generator=generator), result)
            return tensor.copy_(result) if result is not tensor else tensor
        mode = max(a, min(mean, b))
        log_peak = -0.5 * ((mode - mean) / std) ** 2

        def rejected(candidates: Tensor) -> Tensor:
            log_pdf = candidates.sub(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)
            return tensor.new_empty(tuple(tensor.shape)).uniform_(generator=generator).log_().gt(log_pdf)

        tensor.uniform_(a, b, generator=generator)
        pending, result = rejected(tensor), tensor
        while pending.any():
            candidates = tensor.new_empty(tuple(tensor.shape)).uniform_(a, b, generator=generator)
            result = where(pending, candidates, result)
            pending = where(pending, rejected(candidates), pending)
        return tensor.copy_(result) if result is not tensor else tensor


def orthogonal_(tensor: Tensor, gain: float = 1.0, generator: Any = None) -> Tensor:
    """A (semi-)orthogonal matrix times ``gain`` (Saxe et al., 2013): rows (or columns) orthonormal,
    so the layer preserves lengths and repeated products neither explode nor vanish (RNNs).

    QR of a Gaussian matrix gives Q; multiplying by the signs of diag(R) makes Q uniformly
    distributed over orthogonal matrices. Dims after the first are flattened into columns.
    """
    if tensor.ndim < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.shape[0]
    cols = tensor.numel() // rows
    with no_grad():
        flattened = tensor.new_empty((rows, cols)).normal_(0, 1, generator=generator).numpy().astype(np.float64)
    if rows < cols:
        flattened = flattened.T
    q, r = np.linalg.qr(flattened)
    q = q * np.sign(np.diag(r))
    if rows < cols:
        q = q.T
    return _fill(tensor, gain * q.reshape(tuple(tensor.shape)))
