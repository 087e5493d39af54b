"""Reductions: collapse dims of a tensor into one number per remaining position.

Every reduction takes ``dim`` (an int, a tuple or list of ints, or None for "all dims") and
``keepdim`` (keep each reduced dim as a size-1 dim, so the result still broadcasts against the
input). The forward pass is one NumPy call on the strided array ``x._data``; the backward pass
*un-reduces*: it reshapes the gradient to the keepdim shape and broadcasts it back over the
reduced dims, weighting each input element by how much it moved the result.

Which element gets the gradient of a max? ``x.max(dim)`` returns an index, and the whole
gradient goes to that one element. ``x.max()``, ``amax`` and ``amin`` return only values, so a
tie is shared: each of the k tied elements gets 1/k of the gradient. That is torch's rule too.
"""

from __future__ import annotations

import math
import warnings
from collections import namedtuple
from typing import Any

import numpy as np

from .._dtype import bool_, dtype, float16, float32, get_default_dtype, int64, to_dtype, uint8
from .._tensor import Tensor, _wrap_dim
from ..autograd.function import Function
from ..autograd.grad_mode import state as grad_state
from .elementwise import isnan, maximum, minimum, sign, where

__all__ = [
    "all", "amax", "amin", "any", "argmax", "argmin", "cumsum", "logsumexp", "max", "mean", "min",
    "norm", "prod", "return_types", "std", "std_mean", "sum", "var", "var_mean",
]


# --- dims and shapes: the bookkeeping every reduction shares -------------------------------
def normalize_dims(dim: Any, ndim: int) -> tuple[int, ...]:
    """``dim`` as a sorted tuple of non-negative dims; None or () means all dims."""
    if dim is None or dim == () or dim == []:
        return tuple(range(ndim))
    if isinstance(dim, int):
        dim = (dim,)
    dims = tuple(_wrap_dim(d, ndim) for d in dim)
    if len(set(dims)) != len(dims):
        repeated = next(d for d in dims if dims.count(d) > 1)
        raise RuntimeError(f"dim {repeated} appears multiple times in the list of dims")
    return tuple(sorted(dims))


def kept_shape(shape: tuple, dims: tuple[int, ...]) -> tuple[int, ...]:
    """The result shape with keepdim=True: every reduced dim becomes 1."""
    return tuple(1 if d in dims else size for d, size in enumerate(shape))


def reduced_numel(shape: tuple, dims: tuple[int, ...]) -> int:
    """How many input elements fall into each output element."""
    return math.prod(shape[d] for d in dims if d < len(shape))


def _axes(x: Tensor, dims: tuple[int, ...]) -> tuple[int, ...]:
    """NumPy's ``axis`` argument. A 0-d tensor accepts dim 0 or -1 but has no axis to reduce."""
    return dims if x.ndim else ()


def _accumulate_dtype(dt: dtype) -> np.dtype:
    """float16 sums are accumulated in float32 (as torch does on the CPU), then rounded once."""
    return float32.numpy if dt is float16 else dt.numpy


def _unreduce(grad: Tensor, input_shape: tuple, dims: tuple[int, ...]) -> Tensor:
    """Broadcast a reduction's gradient back over the reduced dims (a stride-0 view)."""
    return grad.reshape(kept_shape(input_shape, dims)).expand(input_shape)


def _require_floating(x: Tensor, message: str) -> None:
    if not x.dtype.is_floating_point:
        raise RuntimeError(message)


def _require_nonempty(name: str, x: Tensor, dims: tuple[int, ...], dim_given: bool) -> None:
    """max/min have no identity element: reducing zero elements is an error, as in torch."""
    if not dim_given and x.numel() == 0:
        raise RuntimeError(
            f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
            "Specify the reduction dim with the 'dim' argument."
        )
    for d in dims:
        if x.ndim and x.shape[d] == 0:
            raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")


def _single_dim(name: str, dim: Any) -> None:
    """prod, cumsum, max(dim) and argmax take one int dim, not a list."""
    if not isinstance(dim, int):
        raise TypeError(f"{name}(): argument 'dim' must be int, not {type(dim).__name__}")


# --- sum, mean, prod ----------------------------------------------------------------------
def _sum_dtype(x: Tensor, requested: Any) -> dtype:
    """Integer and bool sums become int64 (no overflow at 255); floats keep their dtype.

    An explicit integer ``dtype`` on an input that requires grad is an error: there would be
    no gradient to send back through an integer result.
    """
    if requested is None:
        return x.dtype if x.dtype.is_floating_point else int64
    out = to_dtype(requested)
    if x.requires_grad and grad_state.enabled and not out.is_floating_point:
        raise RuntimeError(f"Autograd not support dtype: {out.scalar_type}")
    return out


class Sum(Function):
    """z = sum of x over dims. dz/dx = 1: the gradient is broadcast back over the summed dims."""

    backward_name = "SumBackward1"

    @staticmethod
    def forward(ctx: Any, x: Tensor, dims: tuple, keepdim: bool, out: dtype) -> Tensor:
        ctx.input_shape, ctx.dims = x.shape, dims
        result = np.sum(x._data, axis=_axes(x, dims), keepdims=keepdim, dtype=_accumulate_dtype(out))
        return Tensor._from_array(result, out)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        return _unreduce(grad, ctx.input_shape, ctx.dims), None, None, None


class SumAll(Sum):
    """``x.sum()`` with no dim: the same maths, torch names its node differently."""

    backward_name = "SumBackward0"


def sum(input: Tensor, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:  # noqa: A001, A002
    function = SumAll if dim is None else Sum
    return function.apply(input, normalize_dims(dim, input.ndim), keepdim, _sum_dtype(input, dtype))


def _mean_dtype(x: Tensor, requested: Any) -> dtype:
    """A mean of integers has no obvious dtype, so torch asks for one instead of guessing."""
    if requested is not None:
        out = to_dtype(requested)
        if not out.is_floating_point:
            raise RuntimeError(
                "mean(): could not infer output dtype. Optional dtype must be either a floating "
                f"point or complex dtype. Got: {out.scalar_type}"
            )
        return out
    if not x.dtype.is_floating_point:
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point "
            f"or complex dtype. Got: {x.dtype.scalar_type}"
        )
    return x.dtype


def _mean_array(x: Tensor, dims: tuple, keepdim: bool, out: dtype) -> np.ndarray:
    """sum / count; the mean of no elements is 0/0 = nan, as in torch."""
    total = np.sum(x._data, axis=_axes(x, dims), keepdims=keepdim, dtype=_accumulate_dtype(out))
    with np.errstate(invalid="ignore"):
        return np.true_divide(total, reduced_numel(x.shape, dims))


class Mean(Function):
    """z = sum(x) / n over dims. dz/dx = 1/n for every element of the slice."""

    backward_name = "MeanBackward1"

    @staticmethod
    def forward(ctx: Any, x: Tensor, dims: tuple, keepdim: bool, out: dtype) -> Tensor:
        ctx.input_shape, ctx.dims = x.shape, dims
        return Tensor._from_array(_mean_array(x, dims, keepdim, out), out)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        return _mean_backward(grad, ctx.input_shape, ctx.dims), None, None, None


def _mean_backward(grad: Tensor, input_shape: tuple, dims: tuple) -> Tensor:
    count = reduced_numel(input_shape, dims)
    return _unreduce(grad * (1 / count if count else math.nan), input_shape, dims)


class MeanAll(Mean):
    """``x.mean()`` with no dim."""

    backward_name = "MeanBackward0"


def mean(input: Tensor, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:  # noqa: A002
    function = MeanAll if dim is None else Mean
    return function.apply(input, normalize_dims(dim, input.ndim), keepdim, _mean_dtype(input, dtype))


class Prod(Function):
    """z = product of x over dims. dz/dx_i = product of the *other* elements of the slice.

    Without zeros that is z / x_i. With exactly one zero, only the zero's gradient survives (the
    product of the rest); with two or more zeros every "product of the others" contains a zero.
    """

    backward_name = "ProdBackward1"

    @staticmethod
    def forward(ctx: Any, x: Tensor, dims: tuple, keepdim: bool, out: dtype) -> Tensor:
        ctx.save_for_backward(x)
        ctx.dims = dims
        result = np.prod(x._data, axis=_axes(x, dims), keepdims=keepdim, dtype=_accumulate_dtype(out))
        return Tensor._from_array(result, out)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        is_zero = x == 0
        nonzero_x = where(is_zero, 1.0, x)
        nonzero_product = Prod.apply(nonzero_x, ctx.dims, True, x.dtype)
        zeros_in_slice = Sum.apply(is_zero, ctx.dims, True, int64)
        product_of_others = where(
            is_zero,
            where(zeros_in_slice == 1, nonzero_product, 0.0),
            where(zeros_in_slice == 0, nonzero_product / nonzero_x, 0.0),
        )
        return grad.reshape(kept_shape(x.shape, ctx.dims)) * product_of_others, None, None, None


class ProdAll(Prod):
    """``x.prod()`` with no dim."""

    backward_name = "ProdBackward0"


def prod(input: Tensor, dim: int | None = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:  # noqa: A002
    if dim is None:
        return ProdAll.apply(input, normalize_dims(None, input.ndim), False, _sum_dtype(input, dtype))
    _single_dim("prod", dim)
    return Prod.apply(input, normalize_dims(dim, input.ndim), keepdim, _sum_dtype(input, dtype))


# --- max and min --------------------------------------------------------------------------
def _values_and_indices(name: str) -> type:
    """A named tuple that prints like torch.return_types.max: ``values`` then ``indices``."""

    def __repr__(self: Any) -> str:  # noqa: N807 - the method being defined
        return f"tensorlab.return_types.{name}(\nvalues={self.values!r},\nindices={self.indices!r})"

    base = namedtuple(name, ["values", "indices"])
    return type(name, (base,), {"__slots__": (), "__repr__": __repr__, "__module__": __name__, "__qualname__": f"return_types.{name}"})


class return_types:  # noqa: N801 - torch's name
    """What ``x.max(dim)`` and ``x.min(dim)`` return: ``(values, indices)`` with names."""

    max = _values_and_indices("max")
    min = _values_and_indices("min")


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


class _ExtremumAll(Function):
    """z = max (or min) of all elements. dz/dx: 1/k for each of the k elements equal to z."""

    name, numpy_reduce = "max", np.max

    @classmethod
    def forward(cls, ctx: Any, x: Tensor) -> Tensor:
        _require_nonempty(cls.name, x, (), dim_given=False)
        result = Tensor._from_array(cls.numpy_reduce(x._data), x.dtype)
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Tensor:
        x, result = ctx.saved_tensors
        return _share_among_ties(grad, x, result, tuple(range(x.ndim)), nan_is_tie=True)


class MaxAll(_ExtremumAll):
    backward_name = "MaxBackward1"


class MinAll(_ExtremumAll):
    backward_name = "MinBackward1"
    name, numpy_reduce = "min", np.min


class _ExtremumOverDims(Function):
    """z = max (or min) over dims, values only. dz/dx: 1/k for each of the k tied elements."""

    name, numpy_reduce = "amax", np.max

    @classmethod
    def forward(cls, ctx: Any, x: Tensor, dims: tuple, keepdim: bool) -> Tensor:
        ctx.dims = dims
        result = Tensor._from_array(cls.numpy_reduce(x._data, axis=_axes(x, dims), keepdims=keepdim), x.dtype)
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        x, result = ctx.saved_tensors
        return _share_among_ties(grad, x, result, ctx.dims, nan_is_tie=False), None, None


class Amax(_ExtremumOverDims):
    backward_name = "AmaxBackward0"


class Amin(_ExtremumOverDims):
    backward_name = "AminBackward0"
    name, numpy_reduce = "amin", np.min


class _ExtremumAlongDim(Function):
    """(values, indices) of the max (or min) along one dim. The whole gradient goes to the
    element at the returned index (the first one, on ties): the rest of the slice gets 0."""

    name, numpy_arg = "max", np.argmax

    @classmethod
    def forward(cls, ctx: Any, x: Tensor, dim: int, keepdim: bool) -> tuple[Tensor, Tensor]:
        _require_nonempty(cls.name, x, (dim,), dim_given=True)
        data = x._data if x.ndim else x._data.reshape(1)
        axis = dim if x.ndim else 0
        indices = cls.numpy_arg(data, axis=axis, keepdims=True)
        values = np.take_along_axis(data, indices, axis=axis)
        out_shape = kept_shape(x.shape, (dim,)) if keepdim else tuple(s for d, s in enumerate(x.shape) if d != dim)
        ctx.input_shape, ctx.dim = x.shape, dim
        ctx.kept_indices = indices.reshape(kept_shape(x.shape, (dim,)))
        return Tensor._from_array(values.reshape(out_shape), x.dtype), Tensor._from_array(indices.reshape(out_shape), int64)

    @staticmethod
    def backward(ctx: Any, grad: Tensor, grad_indices: Tensor) -> tuple:
        shape, dim = ctx.input_shape, ctx.dim
        positions = np.arange(shape[dim] if shape else 1).reshape([-1 if d == dim else 1 for d in range(len(shape))])
        picked = Tensor._from_array(positions == ctx.kept_indices, bool_)
        return where(picked, grad.reshape(kept_shape(shape, (dim,))), 0.0), None, None


class MaxDim(_ExtremumAlongDim):
    backward_name = "MaxBackward0"


class MinDim(_ExtremumAlongDim):
    backward_name = "MinBackward0"
    name, numpy_arg = "min", np.argmin


def max(input: Tensor, dim: Any = None, keepdim: bool = False) -> Any:  # noqa: A001, A002
    """Three functions in one, as in torch: ``max(x)`` is the largest value; ``max(x, dim)``
    returns ``(values, indices)`` along dim; ``max(x, other_tensor)`` is ``maximum``."""
    if isinstance(dim, Tensor):
        return maximum(input, dim)
    if dim is None:
        return MaxAll.apply(input)
    _single_dim("max", dim)
    return return_types.max(*MaxDim.apply(input, _wrap_dim(dim, input.ndim), keepdim))


def min(input: Tensor, dim: Any = None, keepdim: bool = False) -> Any:  # noqa: A001, A002
    """Like :func:`max`: ``min(x)``, ``min(x, dim)`` -> ``(values, indices)``, ``min(x, other)``."""
    if isinstance(dim, Tensor):
        return minimum(input, dim)
    if dim is None:
        return MinAll.apply(input)
    _single_dim("min", dim)
    return return_types.min(*MinDim.apply(input, _wrap_dim(dim, input.ndim), keepdim))


def _extremum_over_dims(function: type[_ExtremumOverDims], x: Tensor, dim: Any, keepdim: bool) -> Tensor:
    dims = normalize_dims(dim, x.ndim)
    dim_given = dim is not None and dim != () and dim != []
    _require_nonempty(function.name, x, dims if dim_given else (), dim_given)
    return function.apply(x, dims, keepdim)


def amax(input: Tensor, dim: Any = (), keepdim: bool = False) -> Tensor:  # noqa: A002
    return _extremum_over_dims(Amax, input, dim, keepdim)


def amin(input: Tensor, dim: Any = (), keepdim: bool = False) -> Tensor:  # noqa: A002
    return _extremum_over_dims(Amin, input, dim, keepdim)


def _arg_extremum(name: str, numpy_arg: Any, x: Tensor, dim: int | None, keepdim: bool) -> Tensor:
    """Index of the first max/min; with dim=None, the index into the flattened tensor."""
    if x.dtype is bool_:
        raise RuntimeError(f"{name}(): does not support bool input")
    if dim is None:
        if x.numel() == 0:
            raise IndexError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0.")
        index = numpy_arg(x._data)
        return Tensor._from_array(np.reshape(index, (1,) * x.ndim if keepdim else ()), int64)
    _single_dim(name, dim)
    dim = _wrap_dim(dim, x.ndim)
    _require_nonempty(name, x, (dim,), dim_given=True)
    if not x.ndim:
        return Tensor._from_array(np.zeros((), dtype=np.int64), int64)
    return Tensor._from_array(numpy_arg(x._data, axis=dim, keepdims=keepdim), int64)


def argmax(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:  # noqa: A002
    return _arg_extremum("argmax", np.argmax, input, dim, keepdim)


def argmin(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:  # noqa: A002
    return _arg_extremum("argmin", np.argmin, input, dim, keepdim)


# --- variance and standard deviation ------------------------------------------------------
def _correction(dim: Any, unbiased: Any, correction: Any) -> tuple[Any, float]:
    """torch's three spellings: ``var(x, True)``, ``var(x, dim, unbiased)``, ``var(x, dim, correction=c)``.

    The default correction is 1 (Bessel's: divide by n - 1); ``unbiased=False`` means 0.
    """
    if isinstance(dim, bool):  # var(x, False): the bool is `unbiased`, not a dim
        dim, unbiased = None, dim
    if unbiased is not None and correction is not None:
        raise TypeError("var()/std() received an invalid combination of arguments: pass either unbiased or correction, not both")
    if correction is None:
        correction = 0 if unbiased is False else 1
    return dim, correction


def _spread(name: str, x: Tensor, dims: tuple, correction: float, keepdim: bool, root: bool) -> np.ndarray:
    """var = sum((x - mean)^2) / (n - correction); std is its square root. n - correction <= 0
    warns (as torch does) and gives inf or nan."""
    if reduced_numel(x.shape, dims) - correction <= 0:
        warnings.warn(
            f"{name}(): degrees of freedom is <= 0. Correction should be strictly less than the "
            "reduction factor (input numel divided by output numel).",
            UserWarning,
            stacklevel=4,
        )
    numpy_spread = np.std if root else np.var
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's own "degrees of freedom" warning
        return numpy_spread(x._data, axis=_axes(x, dims), ddof=correction, keepdims=keepdim, dtype=_accumulate_dtype(x.dtype))


def _var_backward(grad: Tensor, x: Tensor, ctx: Any) -> Tensor:
    """d var / dx_i = 2 (x_i - mean) / (n - correction); ``grad`` has the keepdim shape.

    With no degrees of freedom left over a whole-tensor reduction, torch returns inf (nan where
    x_i equals the mean, as inf * 0); tensorlab does the same. For ``dim=()`` torch's backward
    uses n = 1 (a torch quirk); tensorlab uses the true n, which matches its forward.
    """
    dof = reduced_numel(x.shape, ctx.dims) - ctx.correction
    centred = x - mean(x, ctx.dims, keepdim=True)
    with np.errstate(invalid="ignore"):  # inf * 0 is nan, as in torch
        if ctx.whole and dof <= 0:
            return grad * where(centred == 0, math.nan, math.inf)
        return centred * (grad * (2 / dof if dof else math.inf))


def _std_to_var_grad(grad: Tensor, std: Tensor) -> Tensor:
    """std = sqrt(var), so d std = d var / (2 std); torch sends 0 where std is 0, not inf."""
    is_zero = std == 0
    return where(is_zero, 0.0, grad / where(is_zero, 1.0, std * 2))


class Var(Function):
    """z = sum((x - mean)^2) / (n - correction). dz/dx_i = 2 (x_i - mean) / (n - correction)."""

    backward_name = "VarBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, dims: tuple, correction: float, keepdim: bool, whole: bool) -> Tensor:
        ctx.save_for_backward(x)
        ctx.dims, ctx.correction, ctx.whole = dims, correction, whole
        return Tensor._from_array(_spread("var", x, dims, correction, keepdim, root=False), x.dtype)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        grad = grad.reshape(kept_shape(x.shape, ctx.dims))
        return _var_backward(grad, x, ctx), None, None, None, None


class Std(Function):
    """z = sqrt(var(x)). dz/dx = d var/dx / (2 z)."""

    backward_name = "StdBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, dims: tuple, correction: float, keepdim: bool, whole: bool) -> Tensor:
        ctx.dims, ctx.correction, ctx.whole = dims, correction, whole
        result = Tensor._from_array(_spread("std", x, dims, correction, keepdim, root=True), x.dtype)
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        x, std = ctx.saved_tensors
        shape = kept_shape(x.shape, ctx.dims)
        grad_var = _std_to_var_grad(grad.reshape(shape), std.reshape(shape))
        return _var_backward(grad_var, x, ctx), None, None, None, None


class VarMean(Function):
    """(var, mean) in one pass; the gradient is the sum of both rules."""

    backward_name = "VarMeanBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, dims: tuple, correction: float, keepdim: bool, whole: bool) -> tuple[Tensor, Tensor]:
        ctx.save_for_backward(x)
        ctx.dims, ctx.correction, ctx.whole = dims, correction, whole
        spread = Tensor._from_array(_spread("var_mean", x, dims, correction, keepdim, root=False), x.dtype)
        return spread, Tensor._from_array(_mean_array(x, dims, keepdim, x.dtype), x.dtype)

    @staticmethod
    def backward(ctx: Any, grad_var: Tensor, grad_mean: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        shape = kept_shape(x.shape, ctx.dims)
        from_var = _var_backward(grad_var.reshape(shape), x, ctx)
        return from_var + _mean_backward(grad_mean, x.shape, ctx.dims), None, None, None, None


class StdMean(Function):
    """(std, mean) in one pass; the gradient is the sum of both rules."""

    backward_name = "StdMeanBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, dims: tuple, correction: float, keepdim: bool, whole: bool) -> tuple[Tensor, Tensor]:
        ctx.dims, ctx.correction, ctx.whole = dims, correction, whole
        spread = Tensor._from_array(_spread("std_mean", x, dims, correction, keepdim, root=True), x.dtype)
        ctx.save_for_backward(x, spread)
        return spread, Tensor._from_array(_mean_array(x, dims, keepdim, x.dtype), x.dtype)

    @staticmethod
    def backward(ctx: Any, grad_std: Tensor, grad_mean: Tensor) -> tuple:
        x, std = ctx.saved_tensors
        shape = kept_shape(x.shape, ctx.dims)
        grad_var = _std_to_var_grad(grad_std.reshape(shape), std.reshape(shape))
        from_std = _var_backward(grad_var, x, ctx)
        return from_std + _mean_backward(grad_mean, x.shape, ctx.dims), None, None, None, None


def _spread_op(function: type[Function], name: str, x: Tensor, dim: Any, unbiased: Any, keepdim: bool, correction: Any) -> Any:
    _require_floating(x, f"{name} only support floating point and complex dtypes")
    dim, correction = _correction(dim, unbiased, correction)
    whole = dim is None or x.ndim == 0
    return function.apply(x, normalize_dims(dim, x.ndim), correction, keepdim, whole)


def var(input: Tensor, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *, correction: Any = None) -> Tensor:  # noqa: A002
    return _spread_op(Var, "std and var", input, dim, unbiased, keepdim, correction)


def std(input: Tensor, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *, correction: Any = None) -> Tensor:  # noqa: A002
    return _spread_op(Std, "std and var", input, dim, unbiased, keepdim, correction)


def var_mean(input: Tensor, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *, correction: Any = None) -> tuple[Tensor, Tensor]:  # noqa: A002
    return _spread_op(VarMean, "var_mean", input, dim, unbiased, keepdim, correction)


def std_mean(input: Tensor, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *, correction: Any = None) -> tuple[Tensor, Tensor]:  # noqa: A002
    return _spread_op(StdMean, "std_mean", input, dim, unbiased, keepdim, correction)


# --- logsumexp and cumsum -----------------------------------------------------------------
class Logsumexp(Function):
    """z = log(sum(exp(x))) over dims, computed as m + log(sum(exp(x - m))) with m = max(x) so
    that exp never overflows. dz/dx_i = exp(x_i - z): the softmax of the slice."""

    backward_name = "LogsumexpBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, dims: tuple, keepdim: bool) -> Tensor:
        out = x.dtype if x.dtype.is_floating_point else get_default_dtype()
        data = x._data.astype(_accumulate_dtype(out), copy=False)
        axes = _axes(x, dims)
        shift = np.max(data, axis=axes, keepdims=True, initial=-np.inf)
        shift = np.where(np.isfinite(shift), shift, 0)  # all -inf (or an inf): nothing to shift
        with np.errstate(divide="ignore"):
            result = np.log(np.sum(np.exp(data - shift), axis=axes, keepdims=True)) + shift
        ctx.dims = dims
        result = Tensor._from_array(result if keepdim else result.reshape(_reduced_shape(x.shape, dims)), out)
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        x, result = ctx.saved_tensors
        shape = kept_shape(x.shape, ctx.dims)
        with np.errstate(invalid="ignore"):  # inf - inf where the result is infinite: nan, as torch
            return grad.reshape(shape) * (x - result.reshape(shape)).exp(), None, None


def _reduced_shape(shape: tuple, dims: tuple) -> tuple[int, ...]:
    return tuple(size for d, size in enumerate(shape) if d not in dims)


def logsumexp(input: Tensor, dim: Any, keepdim: bool = False) -> Tensor:  # noqa: A002
    if dim is None:
        raise TypeError("logsumexp(): argument 'dim' (position 1) must be tuple of ints, not NoneType")
    return Logsumexp.apply(input, normalize_dims(dim, input.ndim), keepdim)


class Cumsum(Function):
    """z_i = x_0 + ... + x_i along dim. dz/dx: x_i feeds z_i, z_(i+1), ..., so its gradient is
    the *reversed* cumulative sum of the incoming gradient."""

    backward_name = "CumsumBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: int, out: dtype) -> Tensor:
        ctx.dim = dim
        if not x.ndim:
            return Tensor._from_array(x._data.astype(out.numpy), out)
        return Tensor._from_array(np.cumsum(x._data, axis=dim, dtype=_accumulate_dtype(out)), out)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        return ReversedCumsum.apply(grad, ctx.dim), None, None


class ReversedCumsum(Function):
    """z_i = x_i + x_(i+1) + ... along dim: cumsum's backward. Its own backward is cumsum."""

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: int) -> Tensor:
        ctx.dim = dim
        if not x.ndim:
            return Tensor._from_array(x._data.copy(), x.dtype)
        flipped = np.flip(x._data, axis=dim)
        return Tensor._from_array(np.flip(np.cumsum(flipped, axis=dim), axis=dim), x.dtype)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        return Cumsum.apply(grad, ctx.dim, grad.dtype), None


def cumsum(input: Tensor, dim: int, *, dtype: Any = None) -> Tensor:  # noqa: A002
    _single_dim("cumsum", dim)
    out = _sum_dtype(input, dtype)
    if out is bool_:
        raise NotImplementedError("\"cumsum_out_cpu\" not implemented for 'Bool'")
    return Cumsum.apply(input, _wrap_dim(dim, input.ndim), out)


# --- all and any: logical reductions, no gradient -----------------------------------------
def _logical(numpy_reduce: Any, x: Tensor, dim: Any, keepdim: bool) -> Tensor:
    """True where every (any) element is nonzero. uint8 input keeps uint8, as torch does.

    Unlike sum, an empty dim list here reduces *nothing* (torch's behaviour): only None means all.
    """
    dims = () if dim == () or dim == [] else normalize_dims(dim, x.ndim)
    out = uint8 if x.dtype is uint8 else bool_
    return Tensor._from_array(numpy_reduce(x._data, axis=_axes(x, dims), keepdims=keepdim), out)


def all(input: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:  # noqa: A001, A002
    return _logical(np.all, input, dim, keepdim)


def any(input: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:  # noqa: A001, A002
    return _logical(np.any, input, dim, keepdim)


# --- norm ---------------------------------------------------------------------------------
class VectorNorm(Function):
    """z = (sum |x_i|^p)^(1/p) over dims; p = inf is max |x_i|, p = 0 counts the nonzeros.

    dz/dx_i = sign(x_i) |x_i|^(p-1) / z^(p-1). Special cases, as torch: p=1 gives sign(x);
    p=2 gives x / z; p=+-inf shares the gradient among the tied extreme elements; p=0 has no
    gradient; where z = 0 the gradient is 0 rather than 0/0.
    """

    backward_name = "LinalgVectorNormBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, p: float, dims: tuple, keepdim: bool, out: dtype) -> Tensor:
        if (p < 0 or math.isinf(p)) and reduced_numel(x.shape, dims) == 0:
            raise RuntimeError(
                f"linalg.vector_norm cannot compute the {p:g} norm on an empty tensor because the "
                "operation does not have an identity"
            )
        data = x._data.astype(_accumulate_dtype(out), copy=False)
        with np.errstate(divide="ignore"):
            result = np.linalg.vector_norm(data, ord=p, axis=_axes(x, dims), keepdims=keepdim)
        result = Tensor._from_array(result, out)
        ctx.p, ctx.dims = p, dims
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        x, result = ctx.saved_tensors
        p, shape = ctx.p, kept_shape(x.shape, ctx.dims)
        grad, norm_ = grad.reshape(shape).to(x.dtype), result.reshape(shape).to(x.dtype)
        if p == 0:
            return None, None, None, None, None
        if p == 1:
            grad_x = sign(x) * grad
        elif math.isinf(p):
            ties = (x.abs() == norm_).to(x.dtype)
            grad_x = sign(x) * ties * (grad / Sum.apply(ties, ctx.dims, True, x.dtype))
        else:
            is_zero_norm = norm_ == 0
            safe_norm = where(is_zero_norm, 1.0, norm_)
            if p == 2:
                scaled_x = x
            else:
                safe_abs = where(x == 0, 1.0, x.abs())
                scaled_x = sign(x) * safe_abs ** (p - 1)
            grad_x = scaled_x * where(is_zero_norm, 0.0, grad / safe_norm ** (p - 1))
        return grad_x, None, None, None, None


def _norm_p(p: Any, dims_given: int) -> float:
    """'fro' is the 2-norm of all elements (so at most a matrix: 2 dims); numbers are vector norms."""
    if p is None or p == "fro":
        if dims_given > 2:
            raise RuntimeError("linalg.matrix_norm: dim must be a 2-tuple.")
        return 2.0
    if p == "nuc":
        raise NotImplementedError("tensorlab does not implement the nuclear norm ('nuc'); use p='fro' or a number")
    if isinstance(p, str):
        raise RuntimeError(f"linalg.matrix_norm: Order {p} not supported.")
    return float(p)


def norm(input: Tensor, p: Any = "fro", dim: Any = None, keepdim: bool = False, out: Any = None, dtype: Any = None) -> Tensor:  # noqa: A002
    """torch.norm: a vector norm over ``dim`` (all dims by default) for p a number or 'fro'.

    Differs from torch: the nuclear norm (p='nuc') is not implemented (NotImplementedError).
    """
    x = input
    _require_floating(x, f"linalg.vector_norm: Expected a floating point or complex tensor as input. Got {x.dtype.scalar_type}")
    out_dtype = x.dtype
    if dtype is not None:
        out_dtype = to_dtype(dtype)
        if not out_dtype.is_floating_point:
            raise RuntimeError(f"linalg.vector_norm: dtype should be floating point or complex, but got {out_dtype.scalar_type}")
        if out_dtype.rank < x.dtype.rank:
            raise RuntimeError(
                f"linalg.vector_norm: the dtype of the input ({x.dtype.scalar_type}) should be "
                f"convertible without narrowing to the specified dtype ({out_dtype.scalar_type})"
            )
    dims_given = 0 if dim is None else (1 if isinstance(dim, int) else len(dim))
    p_value = _norm_p(p, dims_given)
    return VectorNorm.apply(x, p_value, normalize_dims(dim, x.ndim), keepdim, out_dtype)

