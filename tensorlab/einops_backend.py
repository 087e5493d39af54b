"""Teach the einops package tensorlab tensors, so ``einops.rearrange(tl_tensor, ...)`` works too.

einops does not know frameworks by name in advance. When it meets a tensor of an unknown type it
scans every subclass of its ``AbstractBackend`` whose ``framework_name`` is an imported module
and asks each ``is_appropriate_type(tensor)``. So *defining* :class:`TensorlabBackend` is the
whole registration — which is why this module imports einops and is itself imported only by
``tensorlab.einops`` (``import tensorlab`` stays free of einops).

einops then runs its own recipe (reshape, reduce, permute, add axes, reshape) through the few
primitives below; each is one tensorlab op that has a gradient, so the results are
differentiable, and bad patterns raise einops' own ``EinopsError``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from einops._backends import AbstractBackend

from ._creation import arange as tensorlab_arange
from ._creation import from_numpy as tensorlab_from_numpy
from ._tensor import Tensor
from .einops import reduce_dims
from .ops.einsum import einsum as tensorlab_einsum
from .ops.join import cat, stack

__all__ = ["TensorlabBackend"]


class TensorlabBackend(AbstractBackend):
    """The primitives einops calls, each mapped to the tensorlab op torch's backend would use."""

    framework_name = "tensorlab"  # einops only tries backends whose module is in sys.modules

    def is_appropriate_type(self, tensor: Any) -> bool:
        return isinstance(tensor, Tensor)

    # --- conversions (einops uses these in asnumpy() and in its own test-suite) ------------------
    def from_numpy(self, x: np.ndarray) -> Tensor:
        tensor = tensorlab_from_numpy(x)
        if tensor.is_floating_point():  # as torch's backend: only float tensors can require grad
            tensor.requires_grad_(True)
        return tensor

    def to_numpy(self, x: Tensor) -> np.ndarray:
        return x.detach().numpy()

    def arange(self, start: int, stop: int) -> Tensor:
        return tensorlab_arange(start, stop)

    # --- the steps of every pattern ---------------------------------------------------------------
    def shape(self, x: Tensor) -> tuple[int, ...]:
        return x.shape  # a tensorlab.Size is a tuple, so einops can cache recipes keyed by it

    def reshape(self, x: Tensor, shape: tuple[int, ...]) -> Tensor:
        return x.reshape(shape)

    def transpose(self, x: Tensor, axes: tuple[int, ...]) -> Tensor:
        return x.permute(axes)

    def reduce(self, x: Tensor, operation: str, axes: tuple[int, ...]) -> Tensor:
        return reduce_dims(x, axes, operation)

    def add_axis(self, x: Tensor, new_position: int) -> Tensor:
        return x.unsqueeze(new_position)

    def add_axes(self, x: Tensor, n_axes: int, pos2len: dict[int, int]) -> Tensor:
        """New axes of repeat: size-1 dims expanded with stride 0 (no copy), as torch's backend does."""
        sizes = [-1] * n_axes
        for position, length in pos2len.items():
            x = x.unsqueeze(position)
            sizes[position] = length
        return x.expand(sizes)

    def tile(self, x: Tensor, repeats: tuple[int, ...]) -> Tensor:
        return x.repeat(repeats)

    # --- lists of tensors, pack/unpack, einsum ----------------------------------------------------
    def stack_on_zeroth_dimension(self, tensors: list[Tensor]) -> Tensor:
        return stack(tensors)

    def concat(self, tensors: list[Tensor], axis: int) -> Tensor:
        return cat(tensors, dim=axis)

    def is_float_type(self, x: Tensor) -> bool:
        return x.is_floating_point()  # einops refuses 'mean' on integer tensors, as torch does

    def einsum(self, pattern: str, *x: Tensor) -> Tensor:
        return tensorlab_einsum(pattern, *x)
