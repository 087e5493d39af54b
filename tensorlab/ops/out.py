"""``out=``: an op writes its result into a tensor the caller provides, as torch's out variants do.

``torch.add(x, y, out=z)`` computes ``x + y`` and copies it into z's own memory (z keeps its
strides; its version counter moves, like any in-place write), then returns z itself. torch's rules:

- the result's dtype must cast to ``out``'s without changing category: float into an int tensor,
  or anything but bool into a bool tensor, is refused ("result type Float can't be cast...");
- an ``out`` of another shape is resized (a new row-major storage here), with a deprecation
  warning unless it had no elements;
- no autograd: if an input (or ``out``) requires grad while grad mode is on, it is an error;
- some ops (:data:`OUT_DTYPE_MUST_MATCH`: matmul, gather, clamp...) cast nothing: ``out`` must
  have the result's dtype;
- sum, prod and cumsum take ``out``'s dtype as their ``dtype=`` (they compute in it, so
  ``sum(floats, 0, out=long_tensor)`` is allowed and sums the truncated values).

Only the namespace functions take ``out=`` (methods do not, in torch either): ``tensorlab/__init__.py``
wraps the ops listed in :data:`OPS_WITH_OUT` with :func:`accepts_out`.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from .._dtype import bool_
from .._storage import Storage
from .._tensor import Tensor
from ..autograd.grad_mode import state as grad_state

OPS_WITH_OUT: tuple[str, ...] = (
    "add", "sub", "subtract", "mul", "multiply", "div", "divide", "true_divide", "floor_divide",
    "remainder", "pow", "maximum", "minimum", "neg", "abs", "exp", "log", "sqrt", "sin", "cos", "tanh",
    "sigmoid", "clamp", "clip", "floor", "ceil", "round", "sign", "eq", "ne", "lt", "le", "gt", "ge",
    "where", "matmul", "mm", "bmm", "sum", "mean", "prod", "cumsum", "logsumexp", "cat", "concat", "stack",
    "gather", "index_select", "masked_select", "take", "max", "min", "sort", "topk", "kthvalue",
)
OPS_WITH_OUT += (  # the inverse trig, hyperbolic, log/exp and erf families, and cross
    "asin", "acos", "atan", "atan2", "sinh", "cosh", "tan", "asinh", "acosh", "atanh", "arcsin", "arccos", "arctan",
    "arctan2", "arcsinh", "arccosh", "arctanh", "log1p", "expm1", "log2", "log10", "exp2", "erf", "erfc", "erfinv",
    "cross",
)
OUT_DTYPE_IS_COMPUTE_DTYPE = ("sum", "prod", "cumsum")
# these return (values, indices) and take out=(values, indices), each of exactly the result's dtype
OPS_WITH_PAIR_OUT = ("max", "min", "sort", "topk", "kthvalue")
C_TYPE_NAMES = {  # how torch's dtype-mismatch message names a dtype
    "float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int", "int32": "int",
    "int16": "short int", "int8": "signed char", "uint8": "unsigned char", "bool": "bool",
}
# torch's kernels for these write only into an out of the result's own dtype
OUT_DTYPE_MUST_MATCH: tuple[str, ...] = (
    "neg", "abs", "clamp", "clip", "floor", "ceil", "round", "sign", "where", "matmul", "mm", "bmm",
    "gather", "index_select", "masked_select", "take",
)
OUT_DTYPE_MUST_MATCH += ("cross",)


def _can_cast(result: Tensor, out: Tensor) -> bool:
    """torch's canCast: never to a lower category (float -> int), never to bool from anything else."""
    if out.dtype is bool_:
        return result.dtype is bool_
    return result.dtype.category <= out.dtype.category


def write_into(name: str, result: Tensor, out: Any) -> Tensor:
    """Copy ``result`` into ``out`` with torch's checks, casting and resizing; return ``out``."""
    if not isinstance(out, Tensor):
        module = type(out).__module__
        kind = type(out).__name__ if module == "builtins" else f"{module}.{type(out).__name__}"
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {kind}")
    if grad_state.enabled and (result.requires_grad or out.requires_grad):
        raise RuntimeError(
            f"{name}(): functions with out=... arguments don't support automatic differentiation, "
            "but one of the arguments requires grad."
        )
    if name in OUT_DTYPE_MUST_MATCH and out.dtype is not result.dtype:
        raise RuntimeError(f"Found dtype {out.dtype.scalar_type} but expected {result.dtype.scalar_type}")
    if not _can_cast(result, out) and name in ("cat", "concat", "stack"):
        raise TypeError(f"torch.cat(): input types can't be cast to the desired output type {out.dtype.scalar_type}")
    if not _can_cast(result, out):
        raise RuntimeError(f"result type {result.dtype.scalar_type} can't be cast to the desired output type {out.dtype.scalar_type}")
    values = result._data
    if out.shape == result.shape:
        np.copyto(out._data, values, casting="unsafe")
    else:
        if out.numel():
            warnings.warn(
                f"An output with one or more elements was resized since it had shape {list(out.shape)}, which does "
                f"not match the required output shape {list(result.shape)}. This behavior is deprecated, and in a "
                "future PyTorch release outputs will not be resized unless they have zero elements. You can "
                "explicitly reuse an out tensor t by resizing it, inplace, to zero elements with t.resize_(0).",
                UserWarning,
                stacklevel=3,
            )
        resized = np.ascontiguousarray(values, dtype=out.dtype.numpy)
        out._init_fields(Storage(resized.reshape(-1)), resized, 0, None, out.dtype, keep_autograd=True)
    out._storage.version += 1
    return out


def write_pair_into(name: str, result: tuple, out: Any) -> Any:
    """``max(x, dim, out=(values, indices))`` and the like: each half written as :func:`write_into`
    does, except that no cast is allowed; returns torch's ``<name>_out`` named tuple of the two outs."""
    if not isinstance(out, (tuple, list)) or not all(isinstance(part, Tensor) for part in out):
        raise TypeError(f"{name}(): argument 'out' must be tuple of Tensors, not {type(out).__name__}")
    if len(out) != 2:
        raise TypeError(f"expected tuple of 2 elements but got {len(out)}")
    if name == "kthvalue":  # its kernel words the same checks its own way
        if out[0].dtype is not result[0].dtype:
            raise RuntimeError("output values must be of same type as input")
        if out[1].dtype is not result[1].dtype:
            raise RuntimeError("output indices must be of scalar type Long")
    for got, part in zip(result, out, strict=True):
        if part.dtype is not got.dtype:
            raise RuntimeError(f"Expected out tensor to have dtype {C_TYPE_NAMES[got.dtype.name]}, "
                               f"but got {C_TYPE_NAMES[part.dtype.name]} instead")
    values, indices = (write_into(name, got, part) for got, part in zip(result, out, strict=True))
    from .extrema import return_types

    return getattr(return_types, f"{name}_out")(values, indices)


def accepts_out(op: Callable[..., Tensor]) -> Callable[..., Tensor]:
    """``op`` with torch's keyword ``out=``: without it, ``op`` itself runs."""

    @functools.wraps(op)
    def op_with_out(*args: Any, out: Any = None, **kwargs: Any) -> Tensor:
        if isinstance(out, Tensor) and op.__name__ in OUT_DTYPE_IS_COMPUTE_DTYPE and kwargs.get("dtype") is None:
            kwargs["dtype"] = out.dtype
        result = op(*args, **kwargs)
        if out is None:
            return result
        if isinstance(result, tuple):
            return write_pair_into(op.__name__, result, out)
        return write_into(op.__name__, result, out)

    return op_with_out
