"""Random draws beyond the normal: ``bernoulli``, ``multinomial`` and the in-place fills
``Tensor.uniform_``, ``Tensor.random_``, ``Tensor.bernoulli_`` (what ``nn.init`` and DCGAN-style
code call), plus ``Tensor.apply_``.

Every draw comes from tensorlab's global NumPy stream (reset by ``tensorlab.manual_seed``) or
from the ``generator=`` given, so a seed reproduces the same tensor; the numbers are NumPy's, not
torch's. Like ``normal_``, a fill records a node whose gradient is zero: the new values do not
depend on the old ones.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .._dtype import bool_, dtype, int64
from .._tensor import Tensor
from ..autograd.function import Function, FunctionCtx
from .inplace import inplace
from .promotion import _not_implemented_for

__all__ = ["bernoulli", "multinomial"]

Sampler = Callable[[np.random.Generator, tuple], np.ndarray]


def _stream(generator: Any, function: str) -> np.random.Generator:
    from .._random import (
        generator_or_default,  # imported here: _random imports _creation, which imports the ops
    )

    return generator_or_default(generator, function)


class Fill(Function):
    """self's values replaced by ``sampler``'s draws: the old values get gradient 0."""

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, sampler: Sampler, rng: np.random.Generator) -> Tensor:
        return Tensor._from_array(sampler(rng, tuple(x.shape)).astype(x.dtype.numpy), x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        return grad * 0, None, None


def _fill(node: str, self: Tensor, sampler: Sampler, generator: Any, function: str) -> Tensor:
    rng = _stream(generator, function)
    return inplace(lambda x: Fill.apply_as(node, x, sampler, rng), self)


# --- uniform_ and random_ -------------------------------------------------------------------
def uniform_(self: Tensor, from_: float = 0.0, to: float = 1.0, *, generator: Any = None) -> Tensor:
    """Fill self with draws from U[from_, to): floating dtypes only."""
    if not self.dtype.is_floating_point:
        raise _not_implemented_for("check_uniform_bounds", self.dtype)
    if from_ > to:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found from={from_:g} > to={to:g}")
    return _fill("UniformBackward0", self, lambda rng, shape: rng.uniform(from_, to, shape), generator, "uniform_")


def _largest_random(dt: dtype) -> int:
    """random_()'s default upper end, inclusive: every integer the dtype holds exactly (2^24 for
    float32: the mantissa's reach), or the integer dtype's max (1 for bool)."""
    if dt is bool_:
        return 1
    if dt.is_floating_point:
        return 2 ** (np.finfo(dt.numpy).nmant + 1)
    return int(np.iinfo(dt.numpy).max)


def random_(self: Tensor, from_: int = 0, to: int | None = None, *, generator: Any = None) -> Tensor:
    """Fill self with integers: ``random_(to)`` draws from [0, to), ``random_(from_, to)`` from
    [from_, to), ``random_()`` from 0 up to the largest integer the dtype holds exactly."""
    if to is None and from_ != 0:  # random_(to): one positional number is the upper end
        from_, to = 0, from_
    low, high = from_, (to if to is not None else _largest_random(self.dtype) + 1)
    if high <= low:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    return _fill("RandomBackward0", self, lambda rng, shape: rng.integers(low, high, shape), generator, "random_")


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
    return _fill("BernoulliBackward1", self, lambda rng, shape: rng.random(shape) < probabilities, generator, "bernoulli_")


class Bernoulli(Function):
    """z_i = 1 with probability x_i, else 0. A draw, not a function of x: dz/dx = 0."""

    backward_name = "BernoulliBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, rng: np.random.Generator) -> Tensor:
        _check_probabilities(x._data)
        return Tensor._from_array((rng.random(tuple(x.shape)) < x._data).astype(x.dtype.numpy), x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        return grad * 0, None


def bernoulli(input: Tensor, p: float | None = None, *, generator: Any = None) -> Tensor:  # noqa: A002
    """One coin flip per element: the element is its own probability of heads (or ``p`` for all)."""
    if not input.dtype.is_floating_point:
        raise _not_implemented_for("bernoulli_tensor_cpu_p_", input.dtype)
    if p is not None:
        return bernoulli_(input.detach().clone(), p, generator=generator)
    return Bernoulli.apply(input, _stream(generator, "bernoulli"))


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
    rng = _stream(generator, "multinomial")
    if replacement:
        cumulative = np.cumsum(weights / totals, axis=1)
        draws = rng.random((weights.shape[0], num_samples))
        # the category whose slice of [0, 1) each uniform draw lands in
        picks = np.minimum((draws[:, :, None] >= cumulative[:, None, :]).sum(axis=2), categories - 1)
    else:
        with np.errstate(divide="ignore"):
            times = rng.exponential(size=weights.shape) / weights
        picks = np.argsort(times, axis=1, kind="stable")[:, :num_samples]
    return Tensor._from_array(picks.reshape(*input.shape[:-1], num_samples).astype(np.int64), int64)
