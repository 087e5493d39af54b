"""BatchedTensor: what the function given to ``vmap`` sees instead of a tensor.

A ``BatchedTensor`` holds a *physical* value whose dim 0 is the batch dim of one ``vmap`` call
(its ``level``), and shows the function the *logical* tensor without that dim: ``shape``,
``ndim`` and every op act as if the batch dim were not there. The value is a plain
:class:`~tensorlab.Tensor`, or, under nested ``vmap``, a BatchedTensor of an outer (lower)
level: each level peels off one batch dim.

Every op on a BatchedTensor goes through :func:`tensorlab.func.rules.call_op`, which applies
the op's *batching rule* (one op on the physical value, the batch dim carried along) or, for an
op with no rule, a Python loop over the batch with a warning that names the op.

``to_plain``/``from_plain`` convert between a BatchedTensor and one plain tensor whose leading
dims are the batch dims of every running ``vmap``, outer first: that is what the autograd
transforms (``grad``, ``vjp``) differentiate.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .._tensor import Tensor


@dataclass
class Level:
    """One running ``vmap`` call: its level number (outer calls are lower) and batch size."""

    number: int
    size: int
    randomness: str = "error"  # what a random op inside this vmap does: "error", "same" or "different"


#: The ``vmap`` calls running now, outer first.
ACTIVE_LEVELS: list[Level] = []


class BatchedTensor:
    """A logical tensor; physically ``value`` with the batch dim of ``vmap`` level ``level`` at 0."""

    def __init__(self, value: Tensor | BatchedTensor, level: int) -> None:
        self.value = value
        self.level = level

    # --- what the function sees: the logical tensor --------------------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.value.shape)[1:]

    def size(self, dim: int | None = None) -> Any:
        return self.shape if dim is None else self.shape[dim]

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def dim(self) -> int:
        return self.ndim

    def numel(self) -> int:
        n = 1
        for s in self.shape:
            n *= s
        return n

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of a 0-d tensor")
        return self.shape[0]

    @property
    def dtype(self) -> Any:
        return self.value.dtype

    @property
    def device(self) -> Any:
        return self.value.device

    @property
    def requires_grad(self) -> bool:
        return self.value.requires_grad

    @property
    def is_batched(self) -> bool:
        return True

    def __repr__(self) -> str:
        return f"BatchedTensor(lvl={self.level}, bdim=0, value=\n{self.value!r}\n)"

    # --- values a Python program would branch on do not exist under vmap ---------------------------
    def item(self) -> Any:
        raise RuntimeError(
            "vmap: It looks like you're calling .item() on a Tensor. We don't support vmap over "
            "calling .item() on a Tensor, please try to rewrite what you're doing with other operations."
        )

    def tolist(self) -> Any:
        return self.item()

    def __bool__(self) -> bool:
        raise RuntimeError(
            "vmap: It looks like you're attempting to use a Tensor in some data-dependent control flow. "
            "We don't support that yet: write it with torch.where instead."
        )

    __float__ = __int__ = __index__ = item

    # --- properties that are ops -------------------------------------------------------------------
    @property
    def T(self) -> BatchedTensor:  # noqa: N802 - torch's name
        return _op("permute")(self, *reversed(range(self.ndim)))

    @property
    def mT(self) -> BatchedTensor:  # noqa: N802
        return _op("transpose")(self, -2, -1)

    # --- every other method is an op: its batching rule, or the loop --------------------------------
    def __getattr__(self, name: str) -> Callable[..., Any]:
        if name.startswith("_") or not hasattr(Tensor, name):
            raise AttributeError(f"'BatchedTensor' object has no attribute '{name}'")
        return lambda *args, **kwargs: _op(name)(self, *args, **kwargs)


def _op(name: str) -> Callable[..., Any]:
    from .rules import method_op

    return method_op(name)


#: Python operators: (dunder, op name for the rules, the function that computes it on plain values).
BINARY_OPERATORS: list[tuple[str, str, Callable[[Any, Any], Any]]] = [
    ("add", "add", operator.add), ("sub", "sub", operator.sub), ("mul", "mul", operator.mul),
    ("truediv", "div", operator.truediv), ("floordiv", "floor_divide", operator.floordiv),
    ("mod", "remainder", operator.mod), ("pow", "pow", operator.pow), ("matmul", "matmul", operator.matmul),
    ("and", "logical_and", operator.and_), ("or", "logical_or", operator.or_),
]
COMPARISONS: list[tuple[str, str, Callable[[Any, Any], Any]]] = [
    ("lt", "lt", operator.lt), ("le", "le", operator.le), ("gt", "gt", operator.gt),
    ("ge", "ge", operator.ge), ("eq", "eq", operator.eq), ("ne", "ne", operator.ne),
]


def _install_operators() -> None:
    """x + y, y + x, x < y, -x, x[i] on a BatchedTensor: each one op through the rules."""
    from .rules import call_op

    def binary(rule_name: str, fn: Callable[[Any, Any], Any], reflected: bool) -> Callable[..., Any]:
        if reflected:
            return lambda self, other: call_op(rule_name, fn, (other, self), {})
        return lambda self, other: call_op(rule_name, fn, (self, other), {})

    for dunder, rule_name, fn in BINARY_OPERATORS:
        setattr(BatchedTensor, f"__{dunder}__", binary(rule_name, fn, reflected=False))
        setattr(BatchedTensor, f"__r{dunder}__", binary(rule_name, fn, reflected=True))
    for dunder, rule_name, fn in COMPARISONS:
        setattr(BatchedTensor, f"__{dunder}__", binary(rule_name, fn, reflected=False))
    setattr(BatchedTensor, "__neg__", lambda self: call_op("neg", operator.neg, (self,), {}))  # noqa: B010
    setattr(BatchedTensor, "__abs__", lambda self: call_op("abs", operator.abs, (self,), {}))  # noqa: B010
    setattr(BatchedTensor, "__pos__", lambda self: self)  # noqa: B010
    setattr(BatchedTensor, "__getitem__", lambda self, index: call_op("getitem", operator.getitem, (self, index), {}))  # noqa: B010
    BatchedTensor.__hash__ = object.__hash__  # type: ignore[method-assign]


def to_plain(x: Any, levels: list[Level]) -> Any:
    """One plain tensor holding ``x`` for every level: shape (*batch sizes, *logical shape).

    A value not batched at some level is expanded along it (the same values, stride 0).
    """
    if not levels:
        if isinstance(x, BatchedTensor):
            raise RuntimeError(f"a BatchedTensor of level {x.level} escaped its vmap")
        return x
    *outer, top = levels
    if isinstance(x, BatchedTensor) and x.level == top.number:
        return to_plain(x.value, outer)  # x.value has the batch dim of `top` at 0 already
    inner = to_plain(x, outer)
    return inner.unsqueeze(len(outer)).expand(*inner.shape[: len(outer)], top.size, *inner.shape[len(outer):])


def from_plain(p: Tensor, levels: list[Level]) -> Any:
    """The inverse of :func:`to_plain`: wrap one level per leading dim, outer first."""
    x: Any = p
    for level in levels:
        x = BatchedTensor(x, level.number)
    return x


def batch_size_at(x: BatchedTensor) -> int:
    return int(x.value.shape[0])


_install_operators()
