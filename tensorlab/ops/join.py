"""Joining and splitting tensors: cat, stack, split, chunk, unbind (and hstack/vstack).

The two directions are each other's backward:

- ``cat`` copies its inputs side by side into new memory; its backward *splits* the gradient
  into one slice per input.
- ``split``, ``chunk`` and ``unbind`` copy nothing: each piece is a view of the input (same
  storage and strides, the storage offset moved to where the piece starts); their backward
  *concatenates* the pieces' gradients (zeros for a piece that got none) into the input's.
- ``stack`` is ``cat`` along a new dim, and ``unbind`` is ``split`` into size-1 pieces whose dim
  is dropped, so they are each other's backward too.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._dtype import dtype, promote_types
from .._tensor import Tensor, _wrap_dim
from ..autograd.function import Function, FunctionCtx

__all__ = ["cat", "chunk", "concat", "concatenate", "hstack", "split", "stack", "unbind", "vstack"]


# --- checks shared by cat and stack ------------------------------------------------------
def _tensor_list(name: str, tensors: Any) -> list[Tensor]:
    """The tensors argument as a list, with torch's TypeErrors for anything else."""
    if isinstance(tensors, Tensor) or not isinstance(tensors, (list, tuple)):
        raise TypeError(
            f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, "
            f"not {type(tensors).__name__}"
        )
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {type(t).__name__}")
    return list(tensors)


def _int_arg(name: str, arg: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name}(): argument '{arg}' must be int, not {type(value).__name__}")
    return value


def _common_dtype(tensors: Sequence[Tensor]) -> dtype:
    result = tensors[0].dtype
    for t in tensors[1:]:
        result = promote_types(result, t.dtype)
    return result


def _is_legacy_empty(t: Tensor) -> bool:
    """A 1-D tensor with no elements: cat skips it whatever the other shapes (old torch rule)."""
    return t.ndim == 1 and t.shape[0] == 0


# --- cat and stack -------------------------------------------------------------------------
class Cat(Function):
    """out = [x0 | x1 | ...] along dim. Backward: input i gets its slice of the gradient."""

    backward_name = "CatBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, dim: int, out_dtype: dtype, *tensors: Tensor) -> Tensor:
        kept = [t for t in tensors if not _is_legacy_empty(t)] or list(tensors[:1])
        ctx.dim = dim
        ctx.sizes = [0 if _is_legacy_empty(t) else t.shape[dim] for t in tensors]
        ctx.legacy = [_is_legacy_empty(t) for t in tensors]
        arrays = [t._data.astype(out_dtype.numpy, copy=False) for t in kept]
        return Tensor._from_array(np.concatenate(arrays, axis=dim), out_dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        kept_sizes = [size for size, legacy in zip(ctx.sizes, ctx.legacy, strict=True) if not legacy]
        pieces = iter(split(grad, kept_sizes, ctx.dim) if kept_sizes else ())
        grads = [grad.new_zeros(0) if legacy else next(pieces) for legacy in ctx.legacy]
        return (None, None, *grads)


def cat(tensors: Sequence[Tensor], dim: int = 0, *, axis: int | None = None) -> Tensor:
    """Join tensors along an existing dim; all other sizes must match. dtypes are promoted.

    ``axis`` is NumPy's name for ``dim``, which torch accepts too.
    """
    tensors = _tensor_list("cat", tensors)
    dim = _int_arg("cat", "dim", dim if axis is None else axis)
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    for i, t in enumerate(tensors):
        if t.ndim == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be concatenated")
    kept = [(i, t) for i, t in enumerate(tensors) if not _is_legacy_empty(t)]
    if not kept:  # only legacy empties: any dim goes, and the result is one of them
        dim = 0
    else:
        first = kept[0][1]
        dim = _wrap_dim(dim, first.ndim)
        for i, t in kept[1:]:
            if t.ndim != first.ndim:
                raise RuntimeError(
                    f"Tensors must have same number of dimensions: got {first.ndim} and {t.ndim}"
                )
            for d in range(first.ndim):
                if d != dim and t.shape[d] != first.shape[d]:
                    raise RuntimeError(
                        f"Sizes of tensors must match except in dimension {dim}. Expected size "
                        f"{first.shape[d]} but got size {t.shape[d]} for tensor number {i} in the list."
                    )
    return Cat.apply(dim, _common_dtype(tensors), *tensors)


concat = concatenate = cat


class Stack(Function):
    """out[..., i, ...] = x_i: the inputs side by side along a new dim. Backward: unbind it."""

    backward_name = "StackBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, dim: int, out_dtype: dtype, *tensors: Tensor) -> Tensor:
        ctx.dim = dim
        arrays = [t._data.astype(out_dtype.numpy, copy=False) for t in tensors]
        return Tensor._from_array(np.stack(arrays, axis=dim), out_dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        return (None, None, *unbind(grad, ctx.dim))


def stack(tensors: Sequence[Tensor], dim: int = 0, *, axis: int | None = None) -> Tensor:
    """Join equally shaped tensors along a new dim inserted at ``dim`` (or ``axis``)."""
    tensors = _tensor_list("stack", tensors)
    dim = _int_arg("stack", "dim", dim if axis is None else axis)
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    first = tensors[0]
    dim = _wrap_dim(dim, first.ndim + 1)
    for i, t in enumerate(tensors[1:], start=1):
        if t.shape != first.shape:
            raise RuntimeError(
                f"stack expects each tensor to be equal size, but got {list(first.shape)} at "
                f"entry 0 and {list(t.shape)} at entry {i}"
            )
    return Stack.apply(dim, _common_dtype(tensors), *tensors)


def hstack(tensors: Sequence[Tensor]) -> Tensor:
    """cat along dim 1 (dim 0 for 1-D tensors), after making 0-d tensors 1-D."""
    tensors = _tensor_list("hstack", tensors)
    if not tensors:
        raise RuntimeError("hstack expects a non-empty TensorList")
    tensors = [t.reshape(1) if t.ndim == 0 else t for t in tensors]
    return cat(tensors, 0 if tensors[0].ndim == 1 else 1)


def vstack(tensors: Sequence[Tensor]) -> Tensor:
    """cat along dim 0, after making 0-d and 1-d tensors rows (``(n,) -> (1, n)``)."""
    tensors = _tensor_list("vstack", tensors)
    if not tensors:
        raise RuntimeError("vstack expects a non-empty TensorList")
    return cat([t.reshape(1, -1) if t.ndim < 2 else t for t in tensors], 0)


# --- split, chunk, unbind: views ---------------------------------------------------------
def _piece(x: Tensor, dim: int, start: int, length: int) -> Tensor:
    """x[..., start:start+length, ...] along dim as a view: only shape and offset change."""
    shape = list(x.shape)
    shape[dim] = length
    offset = x.storage_offset() + start * x.stride(dim)
    return x._view(tuple(shape), x.stride(), offset, multi_output=True)


class SplitWithSizes(Function):
    """Consecutive pieces of the given sizes along dim, as views.

    Backward: the input's gradient is the pieces' gradients concatenated back together.
    """

    backward_name = "SplitWithSizesBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, sizes: tuple[int, ...], dim: int) -> tuple[Tensor, ...]:
        ctx.dim = dim
        pieces, start = [], 0
        for size in sizes:
            pieces.append(_piece(x, dim, start, size))
            start += size
        return tuple(pieces)

    @staticmethod
    def backward(ctx: FunctionCtx, *grads: Tensor) -> tuple:
        return cat(list(grads), ctx.dim), None, None


def _sizes_for_split_size(dim_size: int, split_size: int) -> tuple[int, ...]:
    """Pieces of ``split_size``, the last one smaller if the size does not divide evenly."""
    if split_size == 0:
        return (0,)
    full, rest = divmod(dim_size, split_size)
    return (split_size,) * full + ((rest,) if rest or not full else ())


def split(tensor: Tensor, split_size_or_sections: Any, dim: int = 0) -> tuple[Tensor, ...]:
    """Cut into pieces of ``split_size`` (the last may be smaller) or of the listed sizes: views."""
    x = tensor
    if isinstance(split_size_or_sections, (list, tuple)):
        return _split_with_sizes(x, split_size_or_sections, dim)
    if isinstance(split_size_or_sections, float):
        raise TypeError(
            "split_with_sizes(): argument 'split_sizes' (position 2) must be tuple of ints, not float"
        )
    split_size = operator.index(split_size_or_sections)
    if x.ndim == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    if split_size < 0:
        raise RuntimeError(f"split expects split_size be non-negative, but got split_size={split_size}")
    dim = _wrap_dim(dim, x.ndim)
    dim_size = x.shape[dim]
    if split_size == 0 and dim_size != 0:
        raise RuntimeError(
            f"split_size can only be 0 if dimension size is 0, but got dimension size of {dim_size}"
        )
    # the same views as split_with_sizes; torch records a split by one size as SplitBackward0
    return SplitWithSizes.apply_as("SplitBackward0", x, _sizes_for_split_size(dim_size, split_size), dim)


def _split_with_sizes(x: Tensor, sections: Sequence[Any], dim: int) -> tuple[Tensor, ...]:
    sizes = tuple(operator.index(s) for s in sections)
    if x.ndim == 0:  # checked before dim, as torch does
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    dim = _wrap_dim(dim, x.ndim)
    if any(s < 0 for s in sizes):
        raise RuntimeError(
            "split_with_sizes expects split_sizes have only non-negative entries, but got "
            f"split_sizes={list(sizes)}"
        )
    if sum(sizes) != x.shape[dim]:
        raise RuntimeError(
            f"split_with_sizes expects split_sizes to sum exactly to {x.shape[dim]} (input "
            f"tensor's size at dimension {dim}), but got split_sizes={list(sizes)}"
        )
    return SplitWithSizes.apply(x, sizes, dim)


def chunk(input: Tensor, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:  # noqa: A002
    """Split into ``chunks`` pieces of ``ceil(size / chunks)``: possibly fewer pieces, never more.

    ``zeros(6).chunk(4)`` gives 3 pieces of 2, because 4 pieces would need sizes 2, 2, 1, 1
    and chunk only ever makes the last piece smaller.
    """
    x = input
    if isinstance(chunks, bool) or not isinstance(chunks, int):
        raise TypeError(f"chunk(): argument 'chunks' (position 2) must be int, not {type(chunks).__name__}")
    if x.ndim == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    dim = _wrap_dim(dim, x.ndim)
    dim_size = x.shape[dim]
    split_size = -(-dim_size // chunks)
    if split_size == 0 and dim_size == 0:  # `chunks` empty pieces, not one
        return SplitWithSizes.apply(x, (0,) * chunks, dim)
    return SplitWithSizes.apply_as("SplitBackward0", x, _sizes_for_split_size(dim_size, split_size), dim)


class Unbind(Function):
    """x[..., i, ...] for every i along dim, as views with that dim removed. Backward: stack."""

    backward_name = "UnbindBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, dim: int) -> tuple[Tensor, ...]:
        ctx.dim = dim
        shape = x.shape[:dim] + x.shape[dim + 1 :]
        strides = x.stride()[:dim] + x.stride()[dim + 1 :]
        step = x.stride(dim)
        return tuple(
            x._view(tuple(shape), strides, x.storage_offset() + i * step, multi_output=True)
            for i in range(x.shape[dim])
        )

    @staticmethod
    def backward(ctx: FunctionCtx, *grads: Tensor) -> tuple:
        return stack(list(grads), ctx.dim), None


def unbind(input: Tensor, dim: int = 0) -> tuple[Tensor, ...]:  # noqa: A002
    """All slices along ``dim``, each a view without that dim (``tuple(x)`` for dim 0)."""
    x = input
    dim = _wrap_dim(dim, x.ndim)
    if x.ndim == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    return Unbind.apply(x, dim)
