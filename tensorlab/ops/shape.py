"""View ops: new shape/strides/offset over the same storage, never a copy.

Each view op only computes new (shape, strides, offset) — that is the whole trick — and its
backward maps the gradient back through the inverse view. ``reshape`` is ``view`` when
``view_strides`` finds strides that work, and a copy otherwise, exactly when torch copies.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._storage import view_strides
from .._tensor import Tensor, _wrap_dim
from ..autograd.function import Function

__all__ = ["expand", "permute", "reshape", "transpose", "view"]


def _sizes(args: tuple) -> tuple:
    """Accept ``view(2, 3)`` and ``view((2, 3))``."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        return tuple(args[0])
    return tuple(args)


def infer_size(shape: Sequence[int], numel: int) -> tuple[int, ...]:
    """Replace a single -1 by whatever size makes the element count match."""
    shape = tuple(int(s) for s in shape)
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = 1
    for s in shape:
        if s != -1:
            if s < 0:
                raise RuntimeError(f"invalid shape dimension {s}")
            known *= s
    if -1 in shape:
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        return tuple(numel // known if s == -1 else s for s in shape)
    if known != numel:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return shape


class View(Function):
    """Same memory, new shape. Backward: reshape the gradient back to the input's shape."""

    backward_name = "ViewBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, shape: tuple) -> Tensor:
        ctx.input_shape = x.shape
        new_shape = infer_size(shape, x.numel())
        strides = view_strides(x.shape, x.stride(), new_shape)
        if strides is None:
            raise RuntimeError(
                "view size is not compatible with input tensor's size and stride (at least one "
                "dimension spans across two contiguous subspaces). Use .reshape(...) instead."
            )
        return x._view(new_shape, strides, x.storage_offset())

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        return grad.reshape(ctx.input_shape), None


def view(x: Tensor, *shape: Any) -> Tensor:
    return View.apply(x, _sizes(shape))


def reshape(x: Tensor, *shape: Any) -> Tensor:
    """A view when the memory allows it, otherwise a contiguous copy."""
    new_shape = infer_size(_sizes(shape), x.numel())
    if view_strides(x.shape, x.stride(), new_shape) is not None:
        return View.apply(x, new_shape)
    return View.apply(contiguous(x), new_shape)


class Expand(Function):
    """Stretch size-1 dims to a larger size with stride 0 (no copy). Backward: sum them back."""

    backward_name = "ExpandBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, sizes: tuple) -> Tensor:
        ctx.input_shape = x.shape
        if len(sizes) < x.ndim:
            raise RuntimeError(
                f"expand(tensorlab.{x.dtype.name}{{{list(x.shape)}}}, size={list(sizes)}): the number "
                "of sizes provided "
                f"({len(sizes)}) must be greater or equal to the number of dimensions in the tensor ({x.ndim})"
            )
        leading = len(sizes) - x.ndim
        shape, strides = [], []
        for d, size in enumerate(sizes):
            if d < leading:
                if size < 0:
                    raise RuntimeError(
                        f"The expanded size of the tensor ({size}) isn't allowed in a leading, "
                        "non-existing dimension 0"
                    )
                shape.append(size)
                strides.append(0)
                continue
            have, stride = x.shape[d - leading], x.stride()[d - leading]
            if size == -1:
                size = have
            if have == size:
                shape.append(size)
                strides.append(stride)
            elif have == 1:
                shape.append(size)
                strides.append(0)
            else:
                raise RuntimeError(
                    f"The expanded size of the tensor ({size}) must match the existing size ({have}) "
                    f"at non-singleton dimension {d}.  Target sizes: {list(sizes)}.  Tensor sizes: "
                    f"{list(x.shape)}"
                )
        return x._view(tuple(shape), tuple(strides), x.storage_offset())

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        from .broadcasting import sum_to_shape

        return sum_to_shape(grad, ctx.input_shape), None


def expand(x: Tensor, *sizes: Any) -> Tensor:
    return Expand.apply(x, _sizes(sizes))


def contiguous(x: Tensor) -> Tensor:
    """x itself if already row-major and gap-free, else a row-major copy."""
    if x.is_contiguous():
        return x
    return x.clone(memory_format="contiguous_format") if False else _contiguous_copy(x)


class ContiguousCopy(Function):
    """Copy into fresh row-major storage. Backward: the gradient passes through unchanged."""

    backward_name = "CloneBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> Tensor:
        import numpy as np

        return Tensor._from_array(np.ascontiguousarray(x._data), x.dtype)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Tensor:
        return grad


def _contiguous_copy(x: Tensor) -> Tensor:
    return ContiguousCopy.apply(x)


class Permute(Function):
    """Reorder dims by reordering (shape, strides). Backward: apply the inverse permutation."""

    backward_name = "PermuteBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, dims: tuple) -> Tensor:
        ndim = x.ndim
        if len(dims) != ndim:
            raise RuntimeError(
                "permute(sparse_coo): number of dimensions in the tensor input does not match the "
                f"length of the desired ordering of dimensions i.e. input.dim() = {ndim} is not "
                f"equal to len(dims) = {len(dims)}"
            )
        dims = tuple(_wrap_dim(d, ndim) for d in dims)
        if len(set(dims)) != len(dims):
            raise RuntimeError("permute(): duplicate dims are not allowed.")
        ctx.dims = dims
        strides = x.stride()
        return x._view(tuple(x.shape[d] for d in dims), tuple(strides[d] for d in dims), x.storage_offset())

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        inverse = [0] * len(ctx.dims)
        for i, d in enumerate(ctx.dims):
            inverse[d] = i
        return grad.permute(*inverse), None


def permute(x: Tensor, *dims: Any) -> Tensor:
    return Permute.apply(x, _sizes(dims))


def transpose(x: Tensor, dim0: int, dim1: int) -> Tensor:
    if x.ndim == 0:
        return permute(x)
    order = list(range(x.ndim))
    d0, d1 = _wrap_dim(dim0, x.ndim), _wrap_dim(dim1, x.ndim)
    order[d0], order[d1] = order[d1], order[d0]
    return permute(x, *order)
