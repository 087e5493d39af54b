"""BatchedTensor: what the function given to ``vmap`` sees instead of a tensor.

A ``BatchedTensor`` holds a *physical* value whose dim 0 is the batch dim of one ``vmap`` call
(its ``level``), and shows the function the *logical* tensor without that dim: ``shape``,
``ndim`` and every op act as if the batch dim were not there. The value is a plain
:class:`~tensorlab.Tensor`, or, under nested ``vmap``, a BatchedTensor of an outer (lower)
level: each level peels off one batch dim.

Every method and operator of a BatchedTensor calls Tensor's (``x.sum(0)`` is ``Tensor.sum(x, 0)``),
so it enters the function-mode stack like any op, and vmap's mode hands it to
:func:`tensorlab.func.rules.call_op`: the op's *batching rule* (one op on the physical value, the
batch dim carried along) or, for an op with no rule, a Python loop over the batch with a warning
that names the op.

``to_plain``/``from_plain`` convert between a BatchedTensor and one plain tensor whose leading
dims are the batch dims of every running ``vmap``, outer first: that is what the autograd
transforms (``grad``, ``vjp``) differentiate.
"""

from __future__ import annotations

import functools
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
        return Tensor.permute(self, *reversed(range(self.ndim)))  # type: ignore[arg-type,return-value]

    @property
    def mT(self) -> BatchedTensor:  # noqa: N802
        return Tensor.transpose(self, -2, -1)  # type: ignore[arg-type,return-value]

    # --- every other method is Tensor's, which vmap's mode sends to the op's rule ---------------------
    def __getattr__(self, name: str) -> Callable[..., Any]:
        method = getattr(Tensor, name, None) if not name.startswith("_") else None
        if not callable(method):
            raise AttributeError(f"'BatchedTensor' object has no attribute '{name}'")
        return functools.partial(method, self)

    def __pos__(self) -> BatchedTensor:
        return self

    __hash__ = object.__hash__  # defining __eq__ (below) would otherwise remove it


#: Python's operators as ops: dunder -> (the op's name in the rules, the function that computes it on
#: plain values, whether the operands come swapped: ``__rsub__(x, 2)`` is ``2 - x``).
OPERATORS: dict[str, tuple[str, Callable[..., Any], bool]] = {
    "__neg__": ("neg", operator.neg, False), "__abs__": ("abs", operator.abs, False),
    "__getitem__": ("getitem", operator.getitem, False),
}
for _dunder, _name, _compute in [
    ("add", "add", operator.add), ("sub", "sub", operator.sub), ("mul", "mul", operator.mul),
    ("truediv", "div", operator.truediv), ("floordiv", "floor_divide", operator.floordiv),
    ("mod", "remainder", operator.mod), ("pow", "pow", operator.pow), ("matmul", "matmul", operator.matmul),
    ("and", "logical_and", operator.and_), ("or", "logical_or", operator.or_),
]:
    OPERATORS[f"__{_dunder}__"] = (_name, _compute, False)
    OPERATORS[f"__r{_dunder}__"] = (_name, _compute, True)
for _dunder, _compute in [("lt", operator.lt), ("le", operator.le), ("gt", operator.gt), ("ge", operator.ge),
                          ("eq", operator.eq), ("ne", operator.ne)]:
    OPERATORS[f"__{_dunder}__"] = (_dunder, _compute, False)
for _dunder, _compute in [("add", operator.iadd), ("sub", operator.isub), ("mul", operator.imul)]:
    OPERATORS[f"__i{_dunder}__"] = (f"{_dunder}_", _compute, False)
OPERATORS["__itruediv__"] = ("div_", operator.itruediv, False)


def _calls_tensors(dunder: str) -> Callable[..., Any]:
    """BatchedTensor's ``dunder``: Tensor's, so the call enters the mode stack like any operator."""
    tensor_operator = getattr(Tensor, dunder)

    def method(self: BatchedTensor, *operands: Any) -> Any:
        return tensor_operator(self, *operands)

    method.__name__ = dunder
    return method


for _dunder in OPERATORS:
    if not _dunder.startswith("__i") or _dunder == "__getitem__":  # x += y on a BatchedTensor: x = x + y
        setattr(BatchedTensor, _dunder, _calls_tensors(_dunder))  # start-up: the class is being built


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


