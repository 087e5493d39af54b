"""vmap: run a function written for one sample on a whole batch, with one op per op.

``vmap(f, in_dims, out_dims)(*args)`` moves each argument's ``in_dim`` to the front, wraps it in a
:class:`BatchedTensor` of a new *level*, calls ``f`` once, and unwraps the results, moving the
batch dim to ``out_dims``. Inside ``f``, every op on a BatchedTensor runs its batching rule
(``rules.py``): the batch is carried along, not looped over.

torch catches every op in its dispatcher. tensorlab has none, so while the outermost ``vmap``
runs it puts a dispatching wrapper on each function of the ``tensorlab`` and
``tensorlab.nn.functional`` namespaces (``torch.sin(x)``, ``F.linear(x, w)``), and lets a plain
tensor's operators step aside (``NotImplemented``) when the other operand is batched, so that
``w @ x`` reaches the rule too, as do a plain tensor's methods given a batched argument
(``w.matmul(x)``). What that does not reach: functions imported by name before the call
(``from tensorlab import sin``): call them through the module (``torch.sin``).
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from itertools import count
from typing import Any

from .._tensor import Tensor
from . import pytree, rules
from .batched import ACTIVE_LEVELS, BINARY_OPERATORS, COMPARISONS, BatchedTensor, Level
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
        with _dispatching():
            wrapped = [
                leaf if d is None else BatchedTensor(_move(leaf, d, 0), level.number)
                for leaf, d in zip(leaves, dims, strict=True)
            ]
            if rules.TRACE is not None:  # VmapExplorer links the ops that read an input to the input row
                rules.TRACE.append({"op": "<input>", "output_ids": [id(w) for w in wrapped], "keep": wrapped})
            ACTIVE_LEVELS.append(level)
            try:  # vmap(torch.dot): the function itself is an op, taken before the dispatcher was in place
                out = _dispatching_versions.get(func, func)(*pytree.unflatten(wrapped, spec), **kwargs)
            finally:
                ACTIVE_LEVELS.pop()
            out_leaves, out_spec = pytree.flatten(out)
            per_leaf = _out_dims_per_leaf(out_dims, out, len(out_leaves))
            return pytree.unflatten([_unbatch(o, d, level, func) for o, d in zip(out_leaves, per_leaf, strict=True)], out_spec)

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


# --- the dispatcher, in place while the outermost vmap runs ---------------------------------------
_installed: list[int] = [0]
_dispatching_versions: dict[Any, Callable[..., Any]] = {}


@contextmanager
def _dispatching() -> Iterator[None]:
    """Route namespace functions and a plain tensor's operators to the batching rules."""
    if _installed[0]:
        _installed[0] += 1
        try:
            yield
        finally:
            _installed[0] -= 1
        return
    saved = _install()
    _installed[0] = 1
    try:
        yield
    finally:
        _installed[0] = 0
        _dispatching_versions.clear()
        for owner, name, original in saved:
            setattr(owner, name, original)


#: (owner, name, original) -> its dispatching wrapper, made once: installing is then only setattr.
_wrappers: dict[tuple[int, str, Any], Callable[..., Any]] = {}


def _install() -> list[tuple[Any, str, Any]]:
    import tensorlab
    import tensorlab.nn.functional as F

    saved: list[tuple[Any, str, Any]] = []

    def replace(owner: Any, name: str, original: Any, make: Callable[[str, Any], Callable[..., Any]]) -> None:
        key = (id(owner), name, original)
        if key not in _wrappers:
            _wrappers[key] = make(name, original)
        saved.append((owner, name, original))
        setattr(owner, name, _wrappers[key])

    for namespace in (tensorlab, F):  # torch.sin(x), F.linear(x, w)
        for name, fn in list(vars(namespace).items()):
            if isinstance(fn, types.FunctionType) and not name.startswith("_"):
                replace(namespace, name, fn, _dispatching_function)
                _dispatching_versions[fn] = _wrappers[id(namespace), name, fn]
    for dunder, _, _ in [*BINARY_OPERATORS, *COMPARISONS]:  # w @ v: the plain operand steps aside
        for prefix in ("", "r"):
            original = Tensor.__dict__.get(f"__{prefix}{dunder}__")
            if original is not None:
                replace(Tensor, f"__{prefix}{dunder}__", original, lambda _, method: _stepping_aside(method))
    for name, method in list(vars(Tensor).items()):  # w.matmul(v), w.add_(v): a plain tensor's method, a batched argument
        if isinstance(method, types.FunctionType) and not name.startswith("_"):
            replace(Tensor, name, method, _method_with_batched_arguments)
    replace(Tensor, "__getitem__", Tensor.__dict__["__getitem__"], lambda _, method: _indexing_by_batched(method))
    return saved


RANDOM_OPS = {"rand", "randn", "randint", "rand_like", "randn_like", "randint_like", "normal", "bernoulli", "multinomial", "randperm", "dropout"}


def _dispatching_function(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def dispatching(*args: Any, **kwargs: Any) -> Any:
        if name in RANDOM_OPS and ACTIVE_LEVELS:
            return _random_op(name, fn, args, kwargs)
        return call_op(name, fn, args, kwargs)

    return dispatching


def _random_op(name: str, fn: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
    """randomness='error': refuse; 'same': one draw for every sample; 'different': one draw per sample."""
    level = ACTIVE_LEVELS[-1]
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


def _method_with_batched_arguments(name: str, method: Callable[..., Any]) -> Callable[..., Any]:
    """A plain tensor's method: itself, unless an argument is batched; then the op's rule."""

    @functools.wraps(method)
    def dispatching(self: Tensor, *args: Any, **kwargs: Any) -> Any:
        if any(isinstance(a, BatchedTensor) for a in (*args, *kwargs.values())):
            return call_op(name, method, (self, *args), kwargs)
        return method(self, *args, **kwargs)

    return dispatching


def _stepping_aside(original: Callable[..., Any]) -> Callable[..., Any]:
    """``plain + batched``: NotImplemented, so Python asks the BatchedTensor's reflected operator."""

    @functools.wraps(original)
    def operator(self: Tensor, other: Any) -> Any:
        if isinstance(other, BatchedTensor):
            return NotImplemented
        return original(self, other)

    return operator


def _indexing_by_batched(original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def getitem(self: Tensor, index: Any) -> Any:
        items = index if isinstance(index, tuple) else (index,)
        if any(isinstance(i, BatchedTensor) for i in items):
            return call_op("getitem", original, (self, index), {})
        return original(self, index)

    return getitem
