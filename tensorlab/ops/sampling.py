"""Random draws beyond the normal: ``bernoulli``, ``multinomial`` and the in-place fills
``Tensor.uniform_``, ``Tensor.random_``, ``Tensor.bernoulli_``, ``Tensor.exponential_`` (what
``nn.init``, dropout and DCGAN-style code call), plus ``Tensor.apply_``.

Every draw comes from tensorlab's global generator (reset by ``tensorlab.manual_seed``) or from
the ``generator=`` given, transformed as torch's CPU kernels do (:mod:`tensorlab._distributions`),
so a seed gives torch's numbers. Like ``normal_``, a fill records a node whose gradient is zero:
the new values do not depend on the old ones.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .. import _distributions
from .._dtype import int64
from .._generator import Generator, generator_or_default
from .._tensor import Tensor
from ..autograd.function import Function, FunctionCtx
from .inplace import inplace
from .promotion import _not_implemented_for

__all__ = ["bernoulli", "multinomial"]

Sampler = Callable[[Generator, int], np.ndarray]  # (generator, how many) -> draws in memory order


def memory_order(x: Tensor) -> np.ndarray | None:
    """The row-major positions of x's elements sorted by where they sit in storage (None when
    that is row-major order already): torch's kernels fill a tensor in memory order, so a
    transposed tensor gets the same draws, element for element in storage, as its base."""
    if x.is_contiguous():
        return None
    offsets = np.zeros(tuple(x.shape), dtype=np.int64)
    for dim, (size, stride) in enumerate(zip(x.shape, x.stride(), strict=True)):
        offsets = offsets + np.arange(size).reshape([-1 if d == dim else 1 for d in range(x.ndim)]) * stride
    return np.argsort(offsets.ravel(), kind="stable")


def in_memory_order(x: Tensor, draws: np.ndarray) -> np.ndarray:
    """``draws`` (one per element, in the order the kernel made them) laid out in x's shape."""
    order = memory_order(x)
    if order is None:
        return draws.reshape(tuple(x.shape))
    placed = np.empty_like(draws)
    placed[order] = draws
    return placed.reshape(tuple(x.shape))


class Fill(Function):
    """self's values replaced by ``sampler``'s draws: the old values get gradient 0."""

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, sampler: Sampler, gen: Generator) -> Tensor:
        draws = sampler(gen, x.numel())
        return Tensor._from_array(in_memory_order(x, draws).astype(x.dtype.numpy), x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        return grad * 0, None, None


def _fill(node: str, self: Tensor, sampler: Sampler, generator: Any, function: str) -> Tensor:
    gen = generator_or_default(generator, function)
    return inplace(lambda x: Fill.apply_as(node, x, sampler, gen), self)


# --- uniform_, random_ and exponential_ --------------------------------------------------------
def uniform_(self: Tensor, from_: float = 0.0, to: float = 1.0, *, generator: Any = None) -> Tensor:
    """Fill self with draws from U[from_, to): floating dtypes only."""
    if not self.dtype.is_floating_point:
        raise _not_implemented_for("check_uniform_bounds", self.dtype)
    if from_ > to:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found from={from_:g} > to={to:g}")
    target = self.dtype.numpy
    return _fill("UniformBackward0", self, lambda gen, n: _distributions.uniform(gen, n, target, from_, to), generator, "uniform_")


def random_(self: Tensor, from_: int = 0, to: int | None = None, *, generator: Any = None) -> Tensor:
    """Fill self with integers: ``random_(to)`` draws from [0, to), ``random_(from_, to)`` from
    [from_, to), ``random_()`` from 0 up to the largest integer the dtype holds exactly."""
    if to is None and from_ != 0:  # random_(to): one positional number is the upper end
        from_, to = 0, from_
    target = self.dtype.numpy
    if to is None:
        sampler: Sampler = lambda gen, n: _distributions.random_full(gen, n, target)  # noqa: E731
    else:
        if to <= from_:
            raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={from_} >= to={to}")
        sampler = lambda gen, n: _distributions.random_from_to(gen, n, target, int(from_), int(to))  # noqa: E731
    return _fill("RandomBackward0", self, sampler, generator, "random_")


def exponential_(self: Tensor, lambd: float = 1.0, *, generator: Any = None) -> Tensor:
    """Fill self with draws from Exponential(lambd): waiting times with mean 1 / lambd."""
    if not self.dtype.is_floating_point:
        raise _not_implemented_for("exponential_cpu", self.dtype)
    if not (lambd > 0 and np.isfinite(lambd)):
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={lambd:g}")
    return _fill("ExponentialBackward0", self, lambda gen, n: _distributions.exponential(gen, n, lambd), generator, "exponential_")


# --- bernoulli --------------------------------------------------------------------------------
def _check_probabilities(p: np.ndarray) -> None:
    if p.size and not ((p >= 0) & (p <= 1)).all():
        raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.")


def bernoulli_(self: Tensor, p: Any = 0.5, *, generator: Any = None) -> Tensor:
    """Fill self with 1 (probability p) or 0; p is a number or a tensor broadcast to self's shape."""
    if isinstance(p, Tensor):
        probabilities = np.broadcast_to(p._data, tuple(self.shape))
        _check_probabilities(probabilities)
    else:
        if not 0 <= p <= 1:
            raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p:g}")
        probabilities = np.full(tuple(self.shape), float(p))
    order = memory_order(self)
    in_order = probabilities.ravel() if order is None else probabilities.ravel()[order]
    return _fill("BernoulliBackward1", self, lambda gen, n: _distributions.bernoulli(gen, in_order), generator, "bernoulli_")


class Bernoulli(Function):
    """z_i = 1 with probability x_i, else 0. A draw, not a function of x: dz/dx = 0."""

    backward_name = "BernoulliBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, gen: Generator) -> Tensor:
        _check_probabilities(x._data)
        order = memory_order(x)
        in_order = x._data.ravel() if order is None else x._data.ravel()[order]
        draws = _distributions.bernoulli(gen, in_order)
        return Tensor._from_array(in_memory_order(x, draws).astype(x.dtype.numpy), x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        return grad * 0, None


def bernoulli(input: Tensor, p: float | None = None, *, generator: Any = None) -> Tensor:  # noqa: A002
    """One coin flip per element: the element is its own probability of heads (or ``p`` for all)."""
    if not input.dtype.is_floating_point:
        raise _not_implemented_for("bernoulli_tensor_cpu_p_", input.dtype)
    if p is not None:
        return bernoulli_(input.detach().clone(), p, generator=generator)
    return Bernoulli.apply(input, generator_or_default(generator, "bernoulli"))


# --- multinomial ------------------------------------------------------------------------------
def multinomial(input: Tensor, num_samples: int, replacement: bool = False, *, generator: Any = None) -> Tensor:  # noqa: A002
    """Draw ``num_samples`` category indices per row, category i with weight input[i].

    The weights need not sum to 1. Without replacement each row is an "exponential race": every
    category draws an Exponential(1) time divided by its weight and the fastest ones win, which is
    the same as drawing one by one and removing each winner."""
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: {input.dtype.scalar_type}")
    if input.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    weights = input._data.astype(np.float64).reshape(-1, input.shape[-1])
    categories = weights.shape[1]
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    if not replacement and num_samples > categories:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    if not np.isfinite(weights).all() or (weights < 0).any():
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    totals = weights.sum(axis=1, keepdims=True)
    if (totals <= 0).any():
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    gen = generator_or_default(generator, "multinomial")
    if replacement and num_samples > 1:
        picks = _with_replacement(gen, input._data.reshape(-1, categories), num_samples)
    else:
        picks = _exponential_race(gen, input, num_samples)
    return Tensor._from_array(picks.reshape(*input.shape[:-1], num_samples).astype(np.int64), int64)


def _with_replacement(gen: Generator, weights: np.ndarray, num_samples: int) -> np.ndarray:
    """torch's CPU kernel, row by row: the running sum of the weights (in their dtype, float32 for
    float16) divided by the total, its last entry set to 1; then for each float64 uniform u, the
    first category whose cumulative weight reaches u (a binary search)."""
    work = np.float64 if weights.dtype == np.float64 else np.float32
    picks = np.empty((weights.shape[0], num_samples), dtype=np.int64)
    for row, w in enumerate(weights.astype(work)):
        cumulative = np.cumsum(w, dtype=work)  # sequential, as the C++ loop adds
        cumulative = cumulative / cumulative[-1]
        cumulative[-1] = 1
        u = _distributions.uniform(gen, num_samples, np.dtype(np.float64))
        picks[row] = np.searchsorted(cumulative.astype(np.float64), u, side="left")
    return picks


def _exponential_race(gen: Generator, input: Tensor, num_samples: int) -> np.ndarray:  # noqa: A002
    """Without replacement (or one sample): every category draws an Exponential(1) time q, and the
    largest weight / q win (the Gumbel-max trick with exp applied), which is the same as drawing
    one by one and removing each winner. Times are drawn in input's dtype, in row-major order."""
    target = input.dtype.numpy
    times = _distributions.exponential(gen, input.numel()).astype(target).reshape(input._data.shape)
    with np.errstate(divide="ignore", invalid="ignore"):
        scores = (input._data.astype(target) / times).reshape(-1, input.shape[-1])
    if num_samples == 1:
        return np.argmax(scores, axis=1)[:, None]
    return np.argsort(-scores, axis=1, kind="stable")[:, :num_samples]
