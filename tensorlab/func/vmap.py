"""vmap: run a function written for one sample on a whole batch, with one op per op.

``vmap(f, in_dims, out_dims)(*args)`` moves each argument's ``in_dim`` to the front, wraps it in a
:class:`BatchedTensor` of a new *level*, calls ``f`` once, and unwraps the results, moving the
batch dim to ``out_dims``. Inside ``f``, every op on a BatchedTensor runs its batching rule
(``rules.py``): the batch is carried along, not looped over.

torch catches every op in its dispatcher. tensorlab's ops all enter through one check, the
function-mode stack of ``tensorlab/overrides.py``: while ``f`` runs, vmap pushes a
:class:`BatchingMode` on it, so ``torch.sin(x)``, ``F.linear(x, w)``, ``x.sum(0)``, ``w @ x`` and a
``sin`` imported by name (``from tensorlab import sin``) all reach the rules. A BatchedTensor's own
methods and operators call Tensor's, so they take the same road. Nested ``vmap`` calls push one
mode each; the innermost level is handled first.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from itertools import count
from typing import Any

from .._tensor import Tensor
from ..overrides import FunctionMode
from . import pytree
from .batched import ACTIVE_LEVELS, OPERATORS, BatchedTensor, Level
from .rules import call_op

_level_numbers = count(1)


def vmap(
    func: Callable[..., Any],
    in_dims: Any = 0,
    out_dims: Any = 0,
    randomness: str = "error",
    *,
    chunk_size: int | None = None,
) -> Callable[..., Any]:
    """``func`` mapped over dim ``in_dims`` of its arguments (``None``: not mapped); results stacked at ``out_dims``.

    ``randomness`` and ``chunk_size`` are accepted for torch's signature; the batch runs in one chunk.
    """

    @functools.wraps(func)
    def batched(*args: Any, **kwargs: Any) -> Any:
        dims = _in_dims_per_leaf(in_dims, args)
        leaves, spec = pytree.flatten(args)
        size = _batch_size(leaves, dims, func)
        if randomness not in ("error", "same", "different"):
            raise RuntimeError(f"Only allowed values for randomness are 'error', 'different', or 'same'. Got {randomness}")
        level = Level(next(_level_numbers), size, randomness)
        wrapped = [
            leaf if d is None else BatchedTensor(_move(leaf, d, 0), level.number)
            for leaf, d in zip(leaves, dims, strict=True)
        ]
        ACTIVE_LEVELS.append(level)
        try:
            with BatchingMode(level):
                out = func(*pytree.unflatten(wrapped, spec), **kwargs)
        finally:
            ACTIVE_LEVELS.pop()
        out_leaves, out_spec = pytree.flatten(out)
        per_leaf = _out_dims_per_leaf(out_dims, out, len(out_leaves))
        results = [_unbatch(o, d, level, func) for o, d in zip(out_leaves, per_leaf, strict=True)]
        return pytree.unflatten(results, out_spec)

    return batched


def _move(x: Any, source: int, destination: int) -> Any:
    return x.movedim(source, destination)


def _in_dims_per_leaf(in_dims: Any, args: tuple) -> list[int | None]:
    """One in_dim per tensor leaf: an int/None applies to a whole argument (or to all of them)."""
    if not isinstance(in_dims, (int, tuple)):
        raise ValueError(f"vmap(<lambda>, in_dims={in_dims}, ...)(<inputs>): expected `in_dims` to be int or a (potentially nested) tuple matching the structure of inputs, got: {type(in_dims)}.")
    if isinstance(in_dims, int):
        in_dims = (in_dims,) * len(args)
    if not isinstance(in_dims, tuple) or len(in_dims) != len(args):
        raise ValueError(
            f"vmap(f, in_dims={in_dims}, ...)(<inputs>): in_dims is not compatible with the structure of "
            f"`inputs`. in_dims has structure {in_dims!r} but inputs has {len(args)} elements."
        )
    dims: list[int | None] = []
    for arg, d in zip(args, in_dims, strict=True):
        arg_leaves, _ = pytree.flatten(arg)
        if isinstance(d, (int, type(None))):
            dims.extend([d] * len(arg_leaves))
        else:  # a structure of in_dims matching the argument's
            dims.extend(pytree.flatten(d)[0])
    return dims


def _batch_size(leaves: list[Any], dims: list[int | None], func: Callable[..., Any]) -> int:
    sizes = set()
    for leaf, d in zip(leaves, dims, strict=True):
        if d is None:
            continue
        if not isinstance(leaf, (Tensor, BatchedTensor)):
            raise ValueError(f"vmap({_name(func)}, in_dims={d}, ...): Got in_dim={d} for an input but the input is of type {type(leaf)}. We cannot vmap over non-Tensor arguments, please use None as the respective in_dim")
        ndim = len(leaf.shape)
        if not -ndim <= d < ndim:
            raise ValueError(f"vmap({_name(func)}, ...): Got in_dim={d} for some input, but that input is a Tensor of dimensionality {ndim} so expected in_dim to satisfy -{ndim} <= in_dim < {ndim}.")
        sizes.add(leaf.shape[d])
    if not sizes:
        raise ValueError("vmap: Expected at least one Tensor to vmap over")
    if len(sizes) > 1:
        raise ValueError(f"vmap: Expected all tensors to have the same size in the mapped dimension, got sizes {sorted(sizes)} for the mapped dimension")
    return sizes.pop()


def _out_dims_per_leaf(out_dims: Any, out: Any, n: int) -> list[int | None]:
    if isinstance(out_dims, (int, type(None))):
        return [out_dims] * n
    return list(pytree.flatten(out_dims)[0])


def _unbatch(x: Any, out_dim: int | None, level: Level, func: Callable[..., Any]) -> Any:
    """A result of level ``level`` -> the batch dim at ``out_dim``; an unbatched result is expanded."""
    if isinstance(x, BatchedTensor) and x.level == level.number:
        if out_dim is None:
            raise ValueError(f"vmap({_name(func)}, ...): `{_name(func)}` can not return a BatchedTensor when out_dim is None")
        return _move(x.value, 0, out_dim)
    if not isinstance(x, (Tensor, BatchedTensor)):
        raise ValueError(f"vmap({_name(func)}, ...): `{_name(func)}` must only return Tensors, got type {type(x)}. Did you mean to set out_dims= to None for output?")
    if out_dim is None:
        return x
    return _move(x.unsqueeze(0).expand(level.size, *x.shape), 0, out_dim)


def _name(func: Callable[..., Any]) -> str:
    return getattr(func, "__name__", repr(func))


# --- the mode: what an op called inside the function does -----------------------------------------
RANDOM_OPS = {
    "rand", "randn", "randint", "rand_like", "randn_like", "randint_like", "normal", "bernoulli", "multinomial",
    "randperm", "dropout",
}


class BatchingMode(FunctionMode):
    """On the mode stack while a vmap's function runs: ops given a BatchedTensor run their rule.

    An op with no batched argument passes down unchanged (``call_op`` calls ``func``, which goes to
    the next mode, then to the op). A Python operator is the op the rules know it as (``__rmul__``:
    ``mul`` with its operands swapped), so ``w @ x`` with a plain ``w`` is batched as well.
    """

    def __init__(self, level: Level) -> None:
        self.level = level

    def __tensorlab_function__(self, func: Callable[..., Any], args: tuple, kwargs: dict[str, Any]) -> Any:
        name = func.__name__
        if name in RANDOM_OPS:
            return _random_op(self.level, name, func, args, kwargs)
        if name in OPERATORS:
            op_name, compute, reflected = OPERATORS[name]
            return call_op(op_name, compute, (args[1], args[0]) if reflected else args, kwargs)
        return call_op(name, func, args, kwargs)


def _random_op(level: Level, name: str, fn: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
    """randomness='error': refuse; 'same': one draw for every sample; 'different': one draw per sample.

    ``fn`` goes on to the next mode down: under nested vmaps each level applies its own randomness,
    as in torch.
    """
    if level.randomness == "error":
        raise RuntimeError(
            "vmap: called random operation while in randomness error mode. Please either use the 'same' or "
            "'different' randomness flags on vmap or perform the randomness operation out of vmap"
        )
    if level.randomness == "same" or name.endswith("_like") or name in ("dropout", "bernoulli", "normal", "multinomial"):
        return call_op(name, fn, args, kwargs)  # 'different' for these: the loop draws once per sample
    shape = args[0] if len(args) == 1 and isinstance(args[0], (tuple, list)) else args
    if name == "randint":
        *bounds, size = args
        return BatchedTensor(fn(*bounds, (level.size, *size), **kwargs), level.number)
    return BatchedTensor(fn(level.size, *shape, **kwargs), level.number)
