"""Reductions: collapse dims of a tensor into one number per remaining position.

Every reduction takes ``dim`` (an int, a tuple or list of ints, or None for "all dims") and
``keepdim`` (keep each reduced dim as a size-1 dim, so the result still broadcasts against the
input). The forward pass is one NumPy call on the strided array ``x._data``; the backward pass
*un-reduces*: it reshapes the gradient to the keepdim shape and broadcasts it back over the
reduced dims, weighting each input element by how much it moved the result.

This module holds the reductions that add (sum, mean, prod, logsumexp, cumsum, norm, all/any)
and the dim bookkeeping every reduction shares; max/min and their indices are ``ops.extrema``,
var/std are ``ops.variance``.
"""

from __future__ import annotations

import functools
import inspect
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from .._dtype import bool_, dtype, float16, float32, get_default_dtype, int64, to_dtype, uint8
from .._tensor import Tensor, _wrap_dim
from ..autograd.function import Function, FunctionCtx
from ..autograd.grad_mode import state as grad_state
from .comparison import where
from .unary_math import sign

__all__ = ["all", "any", "count_nonzero", "cumprod", "cumsum", "logsumexp", "mean", "norm", "prod", "sum", "trace"]


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


def axes_of(x: Tensor, dims: tuple[int, ...]) -> tuple[int, ...]:
    """NumPy's ``axis`` argument. A 0-d tensor accepts dim 0 or -1 but has no axis to reduce."""
    return dims if x.ndim else ()


def accumulate_dtype(dt: dtype) -> np.dtype:
    """float16 sums are accumulated in float32 (as torch does on the CPU), then rounded once."""
    return float32.numpy if dt is float16 else dt.numpy


def reduced(array: Any) -> np.ndarray:
    """A reduction's result, laid out contiguously: torch allocates it fresh whatever the input's
    layout, while NumPy would keep a transposed input's memory order."""
    array = np.asarray(array)
    return array if array.flags.c_contiguous else np.ascontiguousarray(array)


def _unreduce(grad: Tensor, input_shape: tuple, dims: tuple[int, ...]) -> Tensor:
    """Broadcast a reduction's gradient back over the reduced dims (a stride-0 view)."""
    return grad.reshape(kept_shape(input_shape, dims)).expand(input_shape)


def accepts_keepdims(op: Callable) -> Callable:
    """``op`` that also takes NumPy's spellings, as torch does: ``keepdims=`` for ``keepdim=`` and,
    where the op has a ``dim``, ``axis=`` for ``dim=``.

    torch's argument parser maps ``keepdims`` to ``keepdim`` for every op that has a keepdim
    (``x.sum(1, keepdims=True)``) and ``axis`` to ``dim`` (``x.sum(axis=1)``); its Python-level
    functions (``torch.norm``) do not, so neither does tensorlab's. Giving both spellings is a
    TypeError, as in torch.
    """
    aliases = {"keepdims": "keepdim"}
    if "dim" in inspect.signature(op).parameters:
        aliases["axis"] = "dim"

    @functools.wraps(op)
    def op_with_numpy_names(*args: Any, **kwargs: Any) -> Any:
        for numpy_name, torch_name in aliases.items() if kwargs else ():  # most calls pass no keywords
            if numpy_name in kwargs:
                if torch_name in kwargs:
                    raise TypeError(f"{op.__name__}() got an unexpected keyword argument '{numpy_name}'")
                kwargs[torch_name] = kwargs.pop(numpy_name)
        return op(*args, **kwargs)

    return op_with_numpy_names


def require_floating(x: Tensor, message: str) -> None:
    if not x.dtype.is_floating_point:
        raise RuntimeError(message)


def require_nonempty(name: str, x: Tensor, dims: tuple[int, ...], dim_given: bool) -> None:
    """max/min have no identity element: reducing zero elements is an error, as in torch."""
    if not dim_given and x.numel() == 0:
        raise RuntimeError(
            f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
            "Specify the reduction dim with the 'dim' argument."
        )
    for d in dims:
        if x.ndim and x.shape[d] == 0:
            raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")


def require_single_dim(name: str, dim: Any) -> None:
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
    def forward(ctx: FunctionCtx, x: Tensor, dims: tuple, keepdim: bool, out: dtype) -> Tensor:
        ctx.input_shape, ctx.dims = x.shape, dims
        result = np.sum(x._data, axis=axes_of(x, dims), keepdims=keepdim, dtype=accumulate_dtype(out))
        return Tensor._from_array(reduced(result), out)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        return _unreduce(grad, ctx.input_shape, ctx.dims), None, None, None


@accepts_keepdims
def sum(input: Tensor, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:  # noqa: A001, A002
    node_name = "SumBackward0" if dim is None else "SumBackward1"  # torch names x.sum() apart
    return Sum.apply_as(node_name, input, normalize_dims(dim, input.ndim), keepdim, _sum_dtype(input, dtype))


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


def mean_array(x: Tensor, dims: tuple, keepdim: bool, out: dtype) -> np.ndarray:
    """sum / count; the mean of no elements is 0/0 = nan, as in torch."""
    total = np.sum(x._data, axis=axes_of(x, dims), keepdims=keepdim, dtype=accumulate_dtype(out))
    with np.errstate(invalid="ignore"):
        return np.true_divide(total, reduced_numel(x.shape, dims))


class Mean(Function):
    """z = sum(x) / n over dims. dz/dx = 1/n for every element of the slice."""

    backward_name = "MeanBackward1"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, dims: tuple, keepdim: bool, out: dtype) -> Tensor:
        ctx.input_shape, ctx.dims = x.shape, dims
        return Tensor._from_array(reduced(mean_array(x, dims, keepdim, out)), out)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        return mean_backward(grad, ctx.input_shape, ctx.dims), None, None, None


def mean_backward(grad: Tensor, input_shape: tuple, dims: tuple) -> Tensor:
    count = reduced_numel(input_shape, dims)
    return _unreduce(grad * (1 / count if count else math.nan), input_shape, dims)


@accepts_keepdims
def mean(input: Tensor, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:  # noqa: A002
    node_name = "MeanBackward0" if dim is None else "MeanBackward1"  # torch names x.mean() apart
    return Mean.apply_as(node_name, input, normalize_dims(dim, input.ndim), keepdim, _mean_dtype(input, dtype))


class Prod(Function):
    """z = product of x over dims. dz/dx_i = product of the *other* elements of the slice.

    Without zeros that is z / x_i. With exactly one zero, only the zero's gradient survives (the
    product of the rest); with two or more zeros every "product of the others" contains a zero.
    """

    backward_name = "ProdBackward1"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, dims: tuple, keepdim: bool, out: dtype) -> Tensor:
        ctx.save_for_backward(x)
        ctx.dims = dims
        result = np.prod(x._data, axis=axes_of(x, dims), keepdims=keepdim, dtype=accumulate_dtype(out))
        return Tensor._from_array(reduced(result), out)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
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


@accepts_keepdims
def prod(input: Tensor, dim: int | None = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:  # noqa: A002
    if dim is None:
        return Prod.apply_as("ProdBackward0", input, normalize_dims(None, input.ndim), False, _sum_dtype(input, dtype))
    require_single_dim("prod", dim)
    return Prod.apply(input, normalize_dims(dim, input.ndim), keepdim, _sum_dtype(input, dtype))


# --- logsumexp and cumsum -----------------------------------------------------------------
class Logsumexp(Function):
    """z = log(sum(exp(x))) over dims, computed as m + log(sum(exp(x - m))) with m = max(x) so
    that exp never overflows. dz/dx_i = exp(x_i - z): the softmax of the slice."""

    backward_name = "LogsumexpBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, dims: tuple, keepdim: bool) -> Tensor:
        out = x.dtype if x.dtype.is_floating_point else get_default_dtype()
        data = x._data.astype(accumulate_dtype(out), copy=False)
        axes = axes_of(x, dims)
        shift = np.max(data, axis=axes, keepdims=True, initial=-np.inf)
        shift = np.where(np.isfinite(shift), shift, 0)  # all -inf (or an inf): nothing to shift
        with np.errstate(divide="ignore"):
            result = np.log(np.sum(np.exp(data - shift), axis=axes, keepdims=True)) + shift
        ctx.dims = dims
        result = Tensor._from_array(reduced(result if keepdim else result.reshape(_reduced_shape(x.shape, dims))), out)
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        x, result = ctx.saved_tensors
        shape = kept_shape(x.shape, ctx.dims)
        with np.errstate(invalid="ignore"):  # inf - inf where the result is infinite: nan, as torch
            return grad.reshape(shape) * (x - result.reshape(shape)).exp(), None, None


def trace(input: Tensor) -> Tensor:  # noqa: A002
    """The sum of a matrix's main diagonal: ``x.diagonal().sum()``, dtype as sum gives it (ints
    -> int64). Its gradient is the identity pattern: 1 on the diagonal, 0 elsewhere."""
    if input.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {input.ndim}")
    if input.dtype is bool_:
        raise NotImplementedError("\"trace\" not implemented for 'Bool'")
    return sum(input.diagonal())


def _reduced_shape(shape: tuple, dims: tuple) -> tuple[int, ...]:
    return tuple(size for d, size in enumerate(shape) if d not in dims)


@accepts_keepdims
def logsumexp(input: Tensor, dim: Any, keepdim: bool = False) -> Tensor:  # noqa: A002
    if dim is None:
        raise TypeError("logsumexp(): argument 'dim' (position 1) must be tuple of ints, not NoneType")
    return Logsumexp.apply(input, normalize_dims(dim, input.ndim), keepdim)


class Cumsum(Function):
    """z_i = x_0 + ... + x_i along dim. dz/dx: x_i feeds z_i, z_(i+1), ..., so its gradient is
    the *reversed* cumulative sum of the incoming gradient."""

    backward_name = "CumsumBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, dim: int, out: dtype) -> Tensor:
        ctx.dim = dim
        if not x.ndim:
            return Tensor._from_array(x._data.astype(out.numpy), out)
        return Tensor._from_array(np.cumsum(x._data, axis=dim, dtype=accumulate_dtype(out)), out)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        return ReversedCumsum.apply(grad, ctx.dim), None, None


class ReversedCumsum(Function):
    """z_i = x_i + x_(i+1) + ... along dim: cumsum's backward. Its own backward is cumsum."""

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, dim: int) -> Tensor:
        ctx.dim = dim
        if not x.ndim:
            return Tensor._from_array(x._data.copy(), x.dtype)
        flipped = np.flip(x._data, axis=dim)
        return Tensor._from_array(np.flip(np.cumsum(flipped, axis=dim), axis=dim), x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        return Cumsum.apply(grad, ctx.dim, grad.dtype), None


def cumsum(input: Tensor, dim: int, *, dtype: Any = None) -> Tensor:  # noqa: A002
    require_single_dim("cumsum", dim)
    out = _sum_dtype(input, dtype)
    if out is bool_:
        raise NotImplementedError("\"cumsum_out_cpu\" not implemented for 'Bool'")
    return Cumsum.apply(input, _wrap_dim(dim, input.ndim), out)


class Cumprod(Function):
    """z_i = x_0 * ... * x_i along dim.

    dz_j/dx_i = z_j / x_i for j >= i, so without zeros the gradient is
    reversed_cumsum(grad * z) / x. A zero breaks the division: as torch does, positions before
    the first zero of a slice use that formula, the first zero itself gets the sum over j of
    grad_j * (product of the others up to j), and everything after the first zero gets 0
    (each of its products contains the first zero).
    """

    backward_name = "CumprodBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, dim: int, out: dtype) -> Tensor:
        ctx.dim = dim
        ctx.save_for_backward(x)
        if not x.ndim:
            return Tensor._from_array(x._data.astype(out.numpy), out)
        return Tensor._from_array(np.cumprod(x._data, axis=dim, dtype=accumulate_dtype(out)), out)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        if not x.ndim:
            return grad.clone(), None, None
        return CumprodBackward.apply(x, grad, ctx.dim), None, None


def _cumprod_grad(x: np.ndarray, grad: np.ndarray, axis: int) -> np.ndarray:
    """The gradient of cumprod along ``axis``, zero by zero (see ``Cumprod``), one slice at a time."""
    x = np.moveaxis(x, axis, -1)
    grad = np.moveaxis(grad, axis, -1)
    result = np.zeros(np.broadcast_shapes(x.shape, grad.shape), dtype=np.result_type(x, grad))
    for index in np.ndindex(*x.shape[:-1]):
        row, g = x[index], grad[index]
        zeros = np.flatnonzero(row == 0)
        first = zeros[0] if zeros.size else row.size
        out = np.zeros_like(result[index])
        before = row[:first]
        if first:
            z = np.cumprod(before)
            out[:first] = np.flip(np.cumsum(np.flip(g[:first] * z))) / before
        if first < row.size:
            prefix = np.prod(before)  # product of everything before the zero
            after = np.cumprod(np.concatenate([[1], row[first + 1 :]]))  # products past the zero
            out[first] = prefix * np.sum(g[first:] * after)
        result[index] = out
    return np.moveaxis(result, -1, axis)


class CumprodBackward(Function):
    """cumprod's backward as its own node; it is differentiated only once (no double backward)."""

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, grad: Tensor, dim: int) -> Tensor:
        return Tensor._from_array(_cumprod_grad(x._data, grad._data, dim).astype(x.dtype.numpy), x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        raise RuntimeError("tensorlab: cumprod has no double backward")


def cumprod(input: Tensor, dim: int, *, dtype: Any = None) -> Tensor:  # noqa: A002
    require_single_dim("cumprod", dim)
    out = _sum_dtype(input, dtype)
    if out is bool_:
        raise NotImplementedError("\"cumprod_out_cpu\" not implemented for 'Bool'")
    return Cumprod.apply(input, _wrap_dim(dim, input.ndim), out)


def count_nonzero(input: Tensor, dim: Any = None) -> Tensor:  # noqa: A002
    """How many elements are not zero (over all dims, or over ``dim``): an int64 count, no gradient."""
    dims = normalize_dims(dim, input.ndim)
    return Tensor._from_array(reduced(np.count_nonzero(input._data, axis=axes_of(input, dims))).astype(np.int64), int64)


# --- all and any: logical reductions, no gradient -----------------------------------------
def _logical(numpy_reduce: Any, x: Tensor, dim: Any, keepdim: bool) -> Tensor:
    """True where every (any) element is nonzero. uint8 input keeps uint8, as torch does.

    Unlike sum, an empty dim list here reduces *nothing* (torch's behaviour): only None means all.
    """
    dims = () if dim == () or dim == [] else normalize_dims(dim, x.ndim)
    out = uint8 if x.dtype is uint8 else bool_
    return Tensor._from_array(reduced(numpy_reduce(x._data, axis=axes_of(x, dims), keepdims=keepdim)), out)


@accepts_keepdims
def all(input: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:  # noqa: A001, A002
    return _logical(np.all, input, dim, keepdim)


@accepts_keepdims
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
    def forward(ctx: FunctionCtx, x: Tensor, p: float, dims: tuple, keepdim: bool, out: dtype) -> Tensor:
        if (p < 0 or math.isinf(p)) and reduced_numel(x.shape, dims) == 0:
            raise RuntimeError(
                f"linalg.vector_norm cannot compute the {p:g} norm on an empty tensor because the "
                "operation does not have an identity"
            )
        data = x._data.astype(accumulate_dtype(out), copy=False)
        with np.errstate(divide="ignore"):
            result = np.linalg.vector_norm(data, ord=p, axis=axes_of(x, dims), keepdims=keepdim)
        result = Tensor._from_array(reduced(result), out)
        ctx.p, ctx.dims = p, dims
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
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
    if isinstance(p, str):
        raise RuntimeError(f"linalg.matrix_norm: Order {p} not supported.")
    return float(p)


def norm(input: Tensor, p: Any = "fro", dim: Any = None, keepdim: bool = False, out: Any = None, dtype: Any = None) -> Tensor:  # noqa: A002
    """torch.norm: a vector norm over ``dim`` (all dims by default) for p a number or 'fro';
    p='nuc' is the nuclear norm of the matrices in the two dims ``dim`` (see ops/nuclear_norm.py)."""
    x = input
    if isinstance(p, str) and p == "nuc":
        from .nuclear_norm import nuclear_norm

        return nuclear_norm(x if dtype is None else x.to(to_dtype(dtype)), dim, keepdim)
    require_floating(x, f"linalg.vector_norm: Expected a floating point or complex tensor as input. Got {x.dtype.scalar_type}")
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

