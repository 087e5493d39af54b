"""In-place ops (``add_``, ``exp_``, ``copy_``, ``fill_``...) and the machinery that writes into a tensor.

An in-place op computes its result out of place, then writes it into self's memory: the guards
torch applies first (a leaf that requires grad, a view that forbids it, overlapping memory), the
dtype rule for the write (never float -> integer), the version bump that lets backward catch a
value changed under it, and the history self takes over. Indexing assignment, ``index_*`` and
gather/scatter write into tensors too, so they use ``inplace``/``write_inplace`` from here.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import Any

import numpy as np

from .._dtype import bool_, dtype
from .._fast import inplace as fast_inplace
from .._fast import switch as fast
from .._tensor import Tensor
from ..autograd.copy_slices import check_view_write, write_through_view
from ..autograd.function import Function, FunctionCtx
from ..autograd.grad_mode import state as grad_state
from .arithmetic import add, div, floor_divide, fmod, lerp, mul, pow, remainder, sub  # noqa: A004 - torch's names
from .broadcasting import broadcast_pair, sum_to_shape
from .comparison import bitwise_not, eq, ge, gt, le, logical_and, logical_not, logical_or, logical_xor, lt, ne
from .erf import erf, erfc, erfinv
from .exp_log import exp2, expm1, log1p, log2, log10
from .promotion import Operand, _check_fits, _operand
from .reduction import cumprod, cumsum
from .trig import acos, acosh, asin, asinh, atan, atan2, atanh, cosh, sinh, tan
from .unary_math import (  # torch's names, shadowing builtins as in the ops they name
    abs,  # noqa: A004
    ceil,
    clamp,
    cos,
    exp,
    floor,
    log,
    neg,
    reciprocal,
    relu,
    round,  # noqa: A004
    rsqrt,
    sigmoid,
    sign,
    sin,
    sqrt,
    square,
    tanh,
    trunc,
)


# --- in-place: compute out of place, then write into self's memory -----------------------
def _can_cast(src: dtype, dst: dtype) -> bool:
    """torch's rule for in-place results: never float -> integer, never non-bool -> bool."""
    if src.is_floating_point and not dst.is_floating_point:
        return False
    return not (src is not bool_ and dst is bool_)


def _has_internal_overlap(t: Tensor) -> bool:
    return any(st == 0 and sz > 1 for sz, st in zip(t.shape, t.stride(), strict=True))


def records_history(self: Tensor, inputs: Any) -> bool:
    """Will writing ``op(self, *inputs)`` into self be recorded by autograd?

    Yes in grad mode when self, one of the other inputs, or the base self is a view of requires grad.
    """
    if not grad_state.enabled:
        return False
    if self._requires_grad or builtins.any(getattr(x, "_requires_grad", False) for x in inputs):
        return True
    return self._view_info is not None and self._view_info.base._requires_grad


def check_inplace_allowed(self: Tensor, *inputs: Any) -> None:
    """torch's guards before writing ``op(self, *inputs)`` into self: a view that allows it
    (see ``autograd.copy_slices``), not a leaf that requires grad, no overlap."""
    if records_history(self, inputs):
        if self._view_info is not None:
            check_view_write(self)
        if self._requires_grad and self.grad_fn is None:
            raise RuntimeError(
                "a leaf Variable that requires grad is being used in an in-place operation."
            )
    if _has_internal_overlap(self):
        raise RuntimeError(
            "unsupported operation: more than one element of the written-to tensor refers to a "
            "single memory location. Please clone() the tensor before performing the operation."
        )


def write_inplace(self: Tensor, result: Tensor, any_cast: bool = False) -> Tensor:
    """Store ``result`` into self's storage, bump the version, and take over result's history."""
    store_result(self, result, any_cast)
    if result._requires_grad:
        self._requires_grad = True
        self.grad_fn = result.grad_fn
        self._output_nr = result._output_nr
        _saved_output_is_now(self, result.grad_fn)
    return self


def store_result(self: Tensor, result: Tensor, any_cast: bool = False) -> None:
    """Check an in-place result against self (shape, dtype), copy it in and bump the version."""
    if tuple(result.shape) != tuple(self.shape):
        raise RuntimeError(
            f"output with shape {list(self.shape)} doesn't match the broadcast shape "
            f"{list(broadcast_pair(self.shape, result.shape)) if _broadcasts(self, result) else list(result.shape)}"
        )
    if not any_cast and not _can_cast(result.dtype, self.dtype):
        raise RuntimeError(
            f"result type {result.dtype.scalar_type} can't be cast to the desired output "
            f"type {self.dtype.scalar_type}"
        )
    self._data[...] = result._data
    self._storage.version += 1


def _saved_output_is_now(self: Tensor, node: Any) -> None:
    """An op that saved its own output (``exp_`` keeps e^x for backward) now finds it in self,
    at self's new version: a later in-place write to self is then caught in backward, as in torch."""
    for saved in node._saved or ():
        if saved is not None and saved.is_output and saved.unpack_hook is None:  # hooks own theirs
            saved.data = self.detach()
            saved.version = self._storage.version


def _broadcasts(a: Tensor, b: Tensor) -> bool:
    try:
        broadcast_pair(a.shape, b.shape)
        return True
    except RuntimeError:
        return False


def inplace(op: Callable[..., Tensor], self: Tensor, *args: Any, any_cast: bool = False, **kwargs: Any) -> Tensor:
    """Run ``op(self, *args)`` out of place and write the result into self.

    When a graph is being recorded, the op sees a snapshot of self's old value (same history,
    copied data), so the backward of the op still has the values it needs after the write.
    A write into a view rewrites its base's history instead (``autograd.copy_slices``).
    """
    inputs = (*args, *kwargs.values())
    check_inplace_allowed(self, *inputs)
    recording = records_history(self, inputs)
    if recording and self._view_info is not None:
        return write_through_view(self, op, args, kwargs, _store_and_track_saved(any_cast))
    before = _snapshot(self) if recording else self
    return write_inplace(self, op(before, *args, **kwargs), any_cast)


def _store_and_track_saved(any_cast: bool) -> Callable[[Tensor, Tensor], None]:
    """How a write through a view stores its result: as any in-place write, and an op that saved
    its own output now finds it in the view (see :func:`_saved_output_is_now`)."""

    def store(view: Tensor, result: Tensor) -> None:
        store_result(view, result, any_cast)
        if result.grad_fn is not None:
            _saved_output_is_now(view, result.grad_fn)

    return store


def _snapshot(t: Tensor) -> Tensor:
    copy = Tensor._from_array(t._data.copy(), t.dtype)
    copy._requires_grad = t._requires_grad
    copy.grad_fn = t.grad_fn
    copy._output_nr = t._output_nr
    if t._requires_grad and t.grad_fn is None:  # only possible under no_grad: no graph anyway
        copy._requires_grad = False
    return copy


def add_(self: Tensor, other: Operand, *, alpha: Any = 1) -> Tensor:
    if fast.enabled and (alpha == 1 and alpha is not True) and fast_inplace.ufunc_into_self(np.add, self, other):
        return self
    return inplace(add, self, other, alpha=alpha)


def sub_(self: Tensor, other: Operand, *, alpha: Any = 1) -> Tensor:
    if fast.enabled and (alpha == 1 and alpha is not True) and fast_inplace.ufunc_into_self(np.subtract, self, other):
        return self
    return inplace(sub, self, other, alpha=alpha)


def mul_(self: Tensor, other: Operand) -> Tensor:
    if fast.enabled and fast_inplace.ufunc_into_self(np.multiply, self, other):
        return self
    return inplace(mul, self, other)


def div_(self: Tensor, other: Operand, *, rounding_mode: str | None = None) -> Tensor:
    return inplace(div, self, other, rounding_mode=rounding_mode)


def floor_divide_(self: Tensor, other: Operand) -> Tensor:
    return inplace(floor_divide, self, other)


def remainder_(self: Tensor, other: Operand) -> Tensor:
    return inplace(remainder, self, other)


def pow_(self: Tensor, exponent: Operand) -> Tensor:
    return inplace(pow, self, exponent)


def clamp_(self: Tensor, min: Operand = None, max: Operand = None) -> Tensor:  # noqa: A002
    return inplace(clamp, self, min, max)


def round_(self: Tensor, *, decimals: int = 0) -> Tensor:
    return inplace(round, self, decimals=decimals)


def trunc_(self: Tensor) -> Tensor:
    return inplace(trunc, self)


Tensor.trunc = trunc  # type: ignore[attr-defined]
Tensor.trunc_ = trunc_  # type: ignore[attr-defined]


def _unary_inplace(op: Callable[[Tensor], Tensor]) -> Callable[[Tensor], Tensor]:
    def op_(self: Tensor) -> Tensor:
        return inplace(op, self)

    op_.__name__ = op.__name__ + "_"
    op_.__doc__ = f"In-place {op.__name__}: writes into self and returns it."
    return op_


neg_, abs_, exp_, log_, sqrt_, sin_, cos_, tanh_, sigmoid_, relu_, floor_, ceil_, sign_ = (
    _unary_inplace(f) for f in (neg, abs, exp, log, sqrt, sin, cos, tanh, sigmoid, relu, floor, ceil, sign)
)
tan_, asin_, acos_, atan_, sinh_, cosh_ = (_unary_inplace(f) for f in (tan, asin, acos, atan, sinh, cosh))
log1p_, expm1_, log2_, log10_, exp2_, erf_, erfc_, erfinv_ = (
    _unary_inplace(f) for f in (log1p, expm1, log2, log10, exp2, erf, erfc, erfinv)
)


class InplaceWithoutDerivative(Function):
    """asinh_, acosh_ and atanh_: torch has no derivative for these in-place forms (the out-of-place
    ops have one), so a backward through them raises, here too."""

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, op: Callable[[Tensor], Tensor]) -> Tensor:
        ctx.op_name = op.__name__
        return op(x)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        raise NotImplementedError(f"the derivative for 'inplace version of {ctx.op_name}' is not implemented.")


def _inplace_without_derivative(op: Callable[[Tensor], Tensor]) -> Callable[[Tensor], Tensor]:
    node_name = op.__name__.capitalize() + "Backward0"

    def op_(self: Tensor) -> Tensor:
        return inplace(lambda x: InplaceWithoutDerivative.apply_as(node_name, x, op), self)

    op_.__name__ = op.__name__ + "_"
    op_.__doc__ = f"In-place {op.__name__}: writes into self and returns it (no derivative, as in torch)."
    return op_


asinh_, acosh_, atanh_ = (_inplace_without_derivative(f) for f in (asinh, acosh, atanh))


def atan2_(self: Tensor, other: Tensor) -> Tensor:
    """In-place atan2: self becomes the angle of (other, self)."""
    return inplace(atan2, self, other)


class CompareInPlace(Function):
    """``x.eq_(y)``, ``x.lt_(y)``...: self becomes 1 where the comparison holds, else 0, in self's
    own dtype. A step function of x and y: both gradients are 0 (torch still records the node)."""

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, other: Operand, compare: Callable[[Tensor, Operand], Tensor]) -> Tensor:
        return compare(x, other).to(x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        return grad * 0, grad * 0 if ctx.needs_input_grad[1] else None, None


def _compare_inplace(compare: Callable[[Tensor, Operand], Tensor], name: str) -> Callable[[Tensor, Operand], Tensor]:
    node_name = name.capitalize() + "Backward0"

    def op_(self: Tensor, other: Operand) -> Tensor:
        return inplace(lambda x, o: CompareInPlace.apply_as(node_name, x, o, compare), self, other)

    op_.__name__ = name + "_"
    op_.__doc__ = f"In-place {name}: self becomes 1 where ``self {name} other``, else 0 (in self's dtype)."
    return op_


eq_, ne_, lt_, le_, gt_, ge_ = (_compare_inplace(f, n) for f, n in ((eq, "eq"), (ne, "ne"), (lt, "lt"), (le, "le"), (gt, "gt"), (ge, "ge")))
logical_not_, bitwise_not_ = _unary_inplace(logical_not), _unary_inplace(bitwise_not)


def cumsum_(self: Tensor, dim: int) -> Tensor:
    """In-place running sum along ``dim``."""
    return inplace(cumsum, self, dim)


def cumprod_(self: Tensor, dim: int) -> Tensor:
    """In-place running product along ``dim``."""
    return inplace(cumprod, self, dim)


def fmod_(self: Tensor, other: Operand) -> Tensor:
    return inplace(fmod, self, other)


def lerp_(self: Tensor, end: Tensor, weight: Operand) -> Tensor:
    return inplace(lerp, self, end, weight)


square_, rsqrt_, reciprocal_ = _unary_inplace(square), _unary_inplace(rsqrt), _unary_inplace(reciprocal)


def _logical_inplace(op: Callable[[Operand, Operand], Tensor]) -> Callable[[Tensor, Operand], Tensor]:
    def op_(self: Tensor, other: Operand) -> Tensor:
        """self becomes 1 where the test holds, else 0, in self's own dtype."""
        return inplace(op, self, other)

    return op_


logical_and_, logical_or_, logical_xor_ = (_logical_inplace(f) for f in (logical_and, logical_or, logical_xor))


# torch has the in-place unary ops in its namespace too: ``torch.sin_(x)`` is ``x.sin_()``
NAMESPACE_INPLACE = (
    "abs_", "acos_", "acosh_", "asin_", "asinh_", "atan_", "atanh_", "ceil_", "clamp_", "clip_", "cos_", "cosh_",
    "erf_", "erfc_", "exp2_", "exp_", "expm1_", "fill_", "floor_", "log10_", "log1p_", "log2_", "log_", "neg_",
    "negative_", "relu_", "round_", "sigmoid_", "sin_", "sinh_", "sqrt_", "tan_", "tanh_", "trunc_", "zero_",
    "arccos_", "arccosh_", "arcsin_", "arcsinh_", "arctan_", "arctanh_",
    "reciprocal_", "rsqrt_", "square_",
)
negative_ = neg_
clip_ = clamp_
arcsin_, arccos_, arctan_, arcsinh_, arccosh_, arctanh_, arctan2_ = asin_, acos_, atan_, asinh_, acosh_, atanh_, atan2_


class Fill(Function):
    """Every element set to one number. The old values are forgotten: their gradient is 0."""

    backward_name = "FillBackward2"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, value: Operand) -> Tensor:
        scalar = value.item() if isinstance(value, Tensor) else value
        _check_fits(scalar, x.dtype)
        return Tensor._from_array(np.full(x.shape, _operand(scalar, x.dtype), dtype=x.dtype.numpy), x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        return grad * 0, None


class FillTensor(Fill):
    """fill_ with a 0-d tensor: that tensor receives the sum of the gradient (it is every element)."""

    backward_name = "FillBackward3"

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        return grad * 0, grad.sum()


class Copy(Function):
    """x's elements replaced by src's (broadcast, cast to x's dtype). d/dx = 0, d/dsrc = 1."""

    backward_name = "CopyBackwards"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, src: Tensor) -> Tensor:
        shape = broadcast_pair(x.shape, src.shape)
        if shape != tuple(x.shape):
            raise RuntimeError(
                f"output with shape {list(x.shape)} doesn't match the broadcast shape {list(shape)}"
            )
        ctx.src_shape = src._data.shape
        values = np.broadcast_to(src._data.astype(x.dtype.numpy, copy=False), shape)
        return Tensor._from_array(values.copy(), x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        return grad * 0, sum_to_shape(grad, ctx.src_shape)


def copy_(self: Tensor, src: Tensor) -> Tensor:
    """Write src (broadcast to self's shape, cast to self's dtype) into self."""
    if not isinstance(src, Tensor):
        raise TypeError(f"copy_(): argument 'src' must be Tensor, not {type(src).__name__}")
    return inplace(Copy.apply, self, src, any_cast=True)


def fill_(self: Tensor, value: Operand) -> Tensor:
    """Set every element to ``value`` (a number or a 0-d tensor)."""
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise RuntimeError(
                f"fill_ only supports 0-dimension value tensor but got tensor with {value.ndim} dimensions."
            )
        return inplace(FillTensor.apply, self, value, any_cast=True)
    return inplace(Fill.apply, self, value, any_cast=True)


def zero_(self: Tensor) -> Tensor:
    """Set every element to 0."""
    return inplace(_fill_as_zero, self, 0, any_cast=True)


def _fill_as_zero(x: Tensor, value: Operand) -> Tensor:
    """zero_ is fill_ with 0; torch names its node ZeroBackward0."""
    return Fill.apply_as("ZeroBackward0", x, value)


def apply_(self: Tensor, callable: Callable[[Any], Any]) -> Tensor:  # noqa: A002 - torch's name
    """Call a Python function on every element, in place: slow (one Python call per element) and
    invisible to autograd, which is why torch refuses it on a tensor that requires grad."""
    if self.requires_grad:
        raise RuntimeError("Can't call apply_() on Variable that requires grad. Use var.detach().apply_() instead.")
    flat = self._data.reshape(-1)
    values = np.array([callable(v.item()) for v in flat], dtype=self.dtype.numpy).reshape(self._data.shape)
    store_result(self, Tensor._from_array(values, self.dtype))
    return self
