"""Extrema: max, min, amax, amin, argmax, argmin — the reductions that *select* an element.

Which element gets the gradient of a max? ``x.max(dim)`` returns an index, and the whole
gradient goes to that one element. ``x.max()``, ``amax`` and ``amin`` return only values, so a
tie is shared: each of the k tied elements gets 1/k of the gradient. That is torch's rule too.
The dim bookkeeping (``dim``, ``keepdim``) is shared with every reduction (``ops.reduction``).
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable
from typing import Any

import numpy as np

from .._dtype import bool_, int64
from .._tensor import Tensor, _wrap_dim
from ..autograd.function import Function, FunctionCtx
from .arithmetic import maximum, minimum
from .comparison import isnan, where
from .reduction import (
    Sum,
    accepts_keepdims,
    axes_of,
    kept_shape,
    normalize_dims,
    reduced,
    require_nonempty,
    require_single_dim,
)

__all__ = ["amax", "amin", "argmax", "argmin", "max", "min", "return_types"]


# --- max and min --------------------------------------------------------------------------
def _values_and_indices(name: str, fields: tuple[str, str] = ("values", "indices")) -> type:
    """A named tuple that prints like torch.return_types.max: ``values`` then ``indices``
    (or other ``fields``: histogram's ``hist`` then ``bin_edges``)."""

    def __repr__(self: Any) -> str:  # noqa: N807 - the method being defined
        shown = ",\n".join(f"{field}={value!r}" for field, value in zip(fields, self, strict=True))
        return f"tensorlab.return_types.{name}(\n{shown})"

    base = namedtuple(name, fields)  # type: ignore[misc]  # a name per op: max, min, ...
    return type(name, (base,), {"__slots__": (), "__repr__": __repr__, "__module__": __name__, "__qualname__": f"return_types.{name}"})


class return_types:  # noqa: N801 - torch's name
    """What ``x.max(dim)``, ``x.min(dim)`` (and ``ops.sorting``'s sort, topk, kthvalue; histogram) return:
    ``(values, indices)`` with names; ``<op>_out`` is what ``max(x, dim, out=(v, i))`` and the like return."""

    max = _values_and_indices("max")
    min = _values_and_indices("min")
    max_out = _values_and_indices("max_out")
    min_out = _values_and_indices("min_out")
    sort = _values_and_indices("sort")
    topk = _values_and_indices("topk")
    kthvalue = _values_and_indices("kthvalue")
    sort_out = _values_and_indices("sort_out")
    topk_out = _values_and_indices("topk_out")
    kthvalue_out = _values_and_indices("kthvalue_out")
    median = _values_and_indices("median")
    histogram = _values_and_indices("histogram", ("hist", "bin_edges"))  # ops.histograms
    histogramdd = _values_and_indices("histogramdd", ("hist", "bin_edges"))


def _share_among_ties(grad: Tensor, x: Tensor, value: Tensor, dims: tuple, nan_is_tie: bool) -> Tensor:
    """Split the gradient of a max/min over ``dims`` evenly among the elements equal to it.

    ``grad`` and ``value`` are reshaped to the keepdim shape. Each of the k tied elements gets
    grad / k. ``x.max()`` also counts NaNs as ties of a NaN result; amax does not, so its 0/0 gives NaN.
    """
    shape = kept_shape(x.shape, dims)
    grad, value = grad.reshape(shape), value.reshape(shape)
    ties = x == value
    if nan_is_tie:
        ties = ties | (isnan(x) & isnan(value))
    ties = ties.to(grad.dtype)
    with np.errstate(divide="ignore", invalid="ignore"):  # amax over NaNs: 0 ties, torch's 0/0
        return ties * (grad / Sum.apply(ties, dims, True, grad.dtype))


class ExtremumAll(Function):
    """z = max (or min: ``numpy_reduce``) of all elements. dz/dx: 1/k for each of the k elements equal to z."""

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, name: str, numpy_reduce: Callable) -> Tensor:
        require_nonempty(name, x, (), dim_given=False)
        result = Tensor._from_array(numpy_reduce(x._data), x.dtype)
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        x, result = ctx.saved_tensors
        return _share_among_ties(grad, x, result, tuple(range(x.ndim)), nan_is_tie=True), None, None


class ExtremumOverDims(Function):
    """z = max (or min: ``numpy_reduce``) over dims, values only. dz/dx: 1/k for each of the k tied elements."""

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, dims: tuple, keepdim: bool, numpy_reduce: Callable) -> Tensor:
        ctx.dims = dims
        result = Tensor._from_array(reduced(numpy_reduce(x._data, axis=axes_of(x, dims), keepdims=keepdim)), x.dtype)
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        x, result = ctx.saved_tensors
        return _share_among_ties(grad, x, result, ctx.dims, nan_is_tie=False), None, None, None


class ExtremumAlongDim(Function):
    """(values, indices) of the max (or min: ``numpy_arg``) along one dim. The whole gradient goes
    to the element at the returned index (the first one, on ties): the rest of the slice gets 0."""

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, dim: int, keepdim: bool, name: str, numpy_arg: Callable) -> tuple[Tensor, Tensor]:
        require_nonempty(name, x, (dim,), dim_given=True)
        data = x._data if x.ndim else x._data.reshape(1)
        axis = dim if x.ndim else 0
        indices = numpy_arg(data, axis=axis, keepdims=True)
        values = np.take_along_axis(data, indices, axis=axis)
        out_shape = kept_shape(x.shape, (dim,)) if keepdim else tuple(s for d, s in enumerate(x.shape) if d != dim)
        ctx.input_shape, ctx.dim = x.shape, dim
        ctx.kept_indices = indices.reshape(kept_shape(x.shape, (dim,)))
        return Tensor._from_array(values.reshape(out_shape), x.dtype), Tensor._from_array(indices.reshape(out_shape), int64)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor, grad_indices: Tensor) -> tuple:
        shape, dim = ctx.input_shape, ctx.dim
        positions = np.arange(shape[dim] if shape else 1).reshape([-1 if d == dim else 1 for d in range(len(shape))])
        picked = Tensor._from_array(positions == ctx.kept_indices, bool_)
        return where(picked, grad.reshape(kept_shape(shape, (dim,))), 0.0), None, None, None, None


# torch names the node by the overload: max() MaxBackward1, max(dim) MaxBackward0, amax AmaxBackward0.
@accepts_keepdims
def max(input: Tensor, dim: Any = None, keepdim: bool = False) -> Any:  # noqa: A001, A002
    """Three functions in one, as in torch: ``max(x)`` is the largest value; ``max(x, dim)``
    returns ``(values, indices)`` along dim; ``max(x, other_tensor)`` is ``maximum``."""
    if isinstance(dim, Tensor):
        return maximum(input, dim)
    if dim is None:
        return ExtremumAll.apply_as("MaxBackward1", input, "max", np.max)
    require_single_dim("max", dim)
    values_indices = ExtremumAlongDim.apply_as("MaxBackward0", input, _wrap_dim(dim, input.ndim), keepdim, "max", np.argmax)
    return return_types.max(*values_indices)


@accepts_keepdims
def min(input: Tensor, dim: Any = None, keepdim: bool = False) -> Any:  # noqa: A001, A002
    """Like :func:`max`: ``min(x)``, ``min(x, dim)`` -> ``(values, indices)``, ``min(x, other)``."""
    if isinstance(dim, Tensor):
        return minimum(input, dim)
    if dim is None:
        return ExtremumAll.apply_as("MinBackward1", input, "min", np.min)
    require_single_dim("min", dim)
    values_indices = ExtremumAlongDim.apply_as("MinBackward0", input, _wrap_dim(dim, input.ndim), keepdim, "min", np.argmin)
    return return_types.min(*values_indices)


def _extremum_over_dims(name: str, numpy_reduce: Callable, x: Tensor, dim: Any, keepdim: bool) -> Tensor:
    dims = normalize_dims(dim, x.ndim)
    dim_given = dim is not None and dim != () and dim != []
    require_nonempty(name, x, dims if dim_given else (), dim_given)
    return ExtremumOverDims.apply_as(name.capitalize() + "Backward0", x, dims, keepdim, numpy_reduce)


@accepts_keepdims
def amax(input: Tensor, dim: Any = (), keepdim: bool = False) -> Tensor:  # noqa: A002
    return _extremum_over_dims("amax", np.max, input, dim, keepdim)


@accepts_keepdims
def amin(input: Tensor, dim: Any = (), keepdim: bool = False) -> Tensor:  # noqa: A002
    return _extremum_over_dims("amin", np.min, input, dim, keepdim)


def _arg_extremum(name: str, numpy_arg: Any, x: Tensor, dim: int | None, keepdim: bool) -> Tensor:
    """Index of the first max/min; with dim=None, the index into the flattened tensor."""
    if x.dtype is bool_:
        raise RuntimeError(f"{name}(): does not support bool input")
    if dim is None:
        if x.numel() == 0:
            raise IndexError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0.")
        index = numpy_arg(x._data)
        return Tensor._from_array(np.reshape(index, (1,) * x.ndim if keepdim else ()), int64)
    require_single_dim(name, dim)
    dim = _wrap_dim(dim, x.ndim)
    require_nonempty(name, x, (dim,), dim_given=True)
    if not x.ndim:
        return Tensor._from_array(np.zeros((), dtype=np.int64), int64)
    return Tensor._from_array(numpy_arg(x._data, axis=dim, keepdims=keepdim), int64)


@accepts_keepdims
def argmax(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:  # noqa: A002
    return _arg_extremum("argmax", np.argmax, input, dim, keepdim)


@accepts_keepdims
def argmin(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:  # noqa: A002
    return _arg_extremum("argmin", np.argmin, input, dim, keepdim)
