"""Conv1d/Conv2d and ConvTranspose1d/2d: a learnable weight and bias around F.conv*/conv_transpose*.

A convolution's weight is (O, C/groups, *kernel); a transposed convolution's is (C, O/groups,
*kernel), because it is the adjoint of a convolution from O channels to C (its input gradient).

The arithmetic lives in ops/conv.py (unfold + one matmul); a layer only stores the geometry
(as tuples, the way torch prints them), creates and initialises the parameters, and pads with
F.pad first when ``padding_mode`` is not ``'zeros'``.
"""

from __future__ import annotations

import math
from typing import Any

from ..._creation import empty
from ..._tensor import Tensor
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module

__all__ = ["Conv1d", "Conv2d", "ConvTranspose1d", "ConvTranspose2d"]

PADDING_STRINGS = ("same", "valid")
PADDING_MODES = ("zeros", "reflect", "replicate", "circular")


def _ntuple(value: Any, n: int) -> tuple:
    """``3 -> (3, 3)`` for 2-d layers; tuples pass through (torch's ``_pair``)."""
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


class _ConvNd(Module):
    """What Conv1d and Conv2d share: checks, parameters, torch's initialisation and repr.

    Initialised like torch: W ~ kaiming_uniform_(a=sqrt 5), i.e. U(-1/sqrt(fan_in), 1/sqrt(fan_in))
    with fan_in = C/groups * prod(kernel), and b ~ U(-1/sqrt(fan_in), 1/sqrt(fan_in)).
    """

    dims: int = 0
    transposed: bool = False

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0, dilation: Any = 1, groups: int = 1, bias: bool = True, padding_mode: str = "zeros", device: Any = None, dtype: Any = None, output_padding: Any = 0) -> None:
        super().__init__()
        n = self.dims
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        self.stride, self.dilation = _ntuple(stride, n), _ntuple(dilation, n)
        if isinstance(padding, str):
            if padding not in PADDING_STRINGS:
                raise ValueError(f"Invalid padding string {padding!r}, should be one of {{'valid', 'same'}}")
            if padding == "same" and any(s != 1 for s in self.stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        if padding_mode not in PADDING_MODES:
            raise ValueError(
                f"padding_mode must be one of {{'zeros', 'reflect', 'replicate', 'circular'}}, but got padding_mode='{padding_mode}'"
            )
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size = _ntuple(kernel_size, n)
        self.padding = padding if isinstance(padding, str) else _ntuple(padding, n)
        self.output_padding = _ntuple(output_padding, n)
        self.groups, self.padding_mode = groups, padding_mode
        self._reversed_padding_repeated_twice = self._pad_for_f_pad()
        shape = (in_channels, out_channels // groups) if self.transposed else (out_channels, in_channels // groups)
        self.weight = Parameter(empty((*shape, *self.kernel_size), dtype=dtype))
        if bias:
            self.bias = Parameter(empty(out_channels, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def _pad_for_f_pad(self) -> list:
        """The padding in F.pad's order (last dim first, (left, right) each), for non-'zeros' modes."""
        if self.padding == "valid":
            return [0, 0] * self.dims
        if self.padding == "same":
            totals = [d * (k - 1) for d, k in zip(self.dilation, self.kernel_size, strict=True)]
            return [p for total in reversed(totals) for p in (total // 2, total - total // 2)]
        return [p for p in reversed(self.padding) for _ in range(2)]

    def reset_parameters(self) -> None:
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in = self.weight.shape[1] * math.prod(self.kernel_size)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def _conv(self, input: Tensor, conv: Any) -> Tensor:  # noqa: A002
        if self.padding_mode == "zeros":
            return conv(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)
        padded = F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode)
        return conv(padded, self.weight, self.bias, self.stride, 0, self.dilation, self.groups)

    def extra_repr(self) -> str:
        text = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
        if self.padding != (0,) * len(self.padding):
            text += f", padding={self.padding}"
        if self.dilation != (1,) * len(self.dilation):
            text += f", dilation={self.dilation}"
        if self.output_padding != (0,) * len(self.output_padding):
            text += f", output_padding={self.output_padding}"
        if self.groups != 1:
            text += f", groups={self.groups}"
        if self.bias is None:
            text += ", bias=False"
        if self.padding_mode != "zeros":
            text += f", padding_mode={self.padding_mode}"
        return text


class Conv1d(_ConvNd):
    """1-d convolution over (N, C_in, L) or (C_in, L) input: y = conv1d(x, weight) + bias."""

    dims = 1

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return self._conv(input, F.conv1d)


class Conv2d(_ConvNd):
    """2-d convolution over (N, C_in, H, W) or (C_in, H, W) input: y = conv2d(x, weight) + bias."""

    dims = 2

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return self._conv(input, F.conv2d)


class _ConvTransposeNd(_ConvNd):
    """What ConvTranspose1d and ConvTranspose2d share: weight (C_in, C_out/groups, *kernel),
    zeros padding only, and ``output_size`` in forward, which picks the output_padding that
    makes the output that size (several sizes are possible when stride > 1)."""

    transposed = True

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0, output_padding: Any = 0, groups: int = 1, bias: bool = True, dilation: Any = 1, padding_mode: str = "zeros", device: Any = None, dtype: Any = None) -> None:
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {type(self).__name__}')
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias, padding_mode, device, dtype, output_padding)

    def _output_padding(self, input: Tensor, output_size: Any) -> tuple:  # noqa: A002
        """torch's rule: the smallest output is (L-1)*stride - 2*padding + dilation*(k-1) + 1; output_size
        may exceed it by less than the stride in each dim, and the excess is the output_padding."""
        if output_size is None:
            return self.output_padding
        n = self.dims
        sizes = [int(size) for size in output_size]
        if len(sizes) == input.ndim:  # the whole shape was given: keep the spatial sizes
            sizes = sizes[-n:]
        if len(sizes) != n:
            raise ValueError(
                f"ConvTranspose{n}D: for {input.ndim}D input, output_size must have {n} or {input.ndim} elements (got {len(sizes)})"
            )
        spatial = tuple(input.shape[-n:])
        smallest = [(size - 1) * st - 2 * p + d * (k - 1) + 1
                    for size, st, p, d, k in zip(spatial, self.stride, self.padding, self.dilation, self.kernel_size, strict=True)]
        largest = [low + st - 1 for low, st in zip(smallest, self.stride, strict=True)]
        if not all(low <= size <= high for low, size, high in zip(smallest, sizes, largest, strict=True)):
            raise ValueError(
                f"requested an output size of {sizes}, but valid sizes range from {smallest} to {largest} "
                f"(for an input of torch.Size({list(spatial)}))"
            )
        return tuple(size - low for size, low in zip(sizes, smallest, strict=True))

    def _conv_transpose(self, input: Tensor, output_size: Any, conv_transpose: Any) -> Tensor:  # noqa: A002
        extra = self._output_padding(input, output_size)
        return conv_transpose(input, self.weight, self.bias, self.stride, self.padding, extra, self.groups, self.dilation)


class ConvTranspose1d(_ConvTransposeNd):
    """Transposed 1-d convolution over (N, C_in, L) or (C_in, L): each input element spreads
    ``x * weight`` over a window of the output (the input gradient of a Conv1d)."""

    dims = 1

    def forward(self, input: Tensor, output_size: Any = None) -> Tensor:  # noqa: A002
        return self._conv_transpose(input, output_size, F.conv_transpose1d)


class ConvTranspose2d(_ConvTransposeNd):
    """Transposed 2-d convolution over (N, C_in, H, W) or (C_in, H, W), e.g. learnable upsampling."""

    dims = 2

    def forward(self, input: Tensor, output_size: Any = None) -> Tensor:  # noqa: A002
        return self._conv_transpose(input, output_size, F.conv_transpose2d)
