"""Batching rules: how one op runs on a whole batch at once.

While ``vmap`` runs, its mode (``vmap.py``) hands every op to :func:`call_op`. When an argument is
a :class:`BatchedTensor`, it finds the innermost ``vmap`` level among them and applies that op's
rule, which rewrites the call
into the *same op on the physical values* (batch dim at 0) with its dims shifted by one:

- elementwise ops: pad each batched value with size-1 dims after the batch dim so that logical
  broadcasting (right-aligned) still lines up, then call the op once;
- reductions and other ops with a ``dim``: logical dim ``d`` is physical dim ``d + 1``;
  no ``dim`` means "every logical dim", that is the flattened value along dim 1;
- ``matmul``: vectors become matrices, the batch dim becomes a broadcast batch dim in front;
- shape ops (``reshape``, ``permute``, ``unsqueeze``...): the same op with the batch dim kept first;
- indexing: ``x[i]`` is ``value[:, i]`` (one full slice for the batch dim in front).

The physical call goes back through :func:`call_op`, so a value that is itself batched at an
outer level (nested ``vmap``) is handled by that level's rule in turn.

An op with no rule falls back to a loop: slice the batch, call the op on each sample, stack the
results, and warn, naming the op, as torch does.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any

from .batched import BatchedTensor, batch_size_at

Rule = Callable[[str, Callable[..., Any], int, tuple, dict], Any]
RULES: dict[str, Rule] = {}


# --- dispatch ----------------------------------------------------------------------------------
def tensors_in(args: Sequence[Any], kwargs: dict) -> list[Any]:
    """Arguments (and members of list/tuple arguments) that are tensors, batched or not."""
    from .._tensor import Tensor

    found = []
    for a in (*args, *kwargs.values()):
        for item in a if isinstance(a, (list, tuple)) else (a,):
            if isinstance(item, (Tensor, BatchedTensor)):
                found.append(item)
    return found


def call_op(name: str, plain_fn: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
    """Run op ``name``: ``plain_fn`` when no argument is batched, else the rule of the innermost level."""
    batched = [t for t in tensors_in(args, kwargs) if isinstance(t, BatchedTensor)]
    if not batched:
        return plain_fn(*args, **kwargs)
    level = max(t.level for t in batched)
    rule = RULES.get(name)
    if rule is None:
        return loop_fallback(name, plain_fn, level, args, kwargs)
    return rule(name, plain_fn, level, args, kwargs)


def physical_op(name: str, plain_fn: Callable[..., Any]) -> Callable[..., Any]:
    """The op applied to physical values: dispatched again in case they are batched at an outer level."""
    return lambda *args, **kwargs: call_op(name, plain_fn, args, kwargs)


def method_op(name: str) -> Callable[..., Any]:
    """``x.name(...)`` as an op: the rules see ``self`` as the first argument."""

    def plain_method(self: Any, *args: Any, **kwargs: Any) -> Any:
        return getattr(self, name)(*args, **kwargs)

    return physical_op(name, plain_method)


def _is_at(x: Any, level: int) -> bool:
    return isinstance(x, BatchedTensor) and x.level == level


def _logical_ndim(x: Any) -> int:
    return len(x.shape)


def _wrap(result: Any, level: int) -> Any:
    """Physical results (tensors, tuples of tensors) back into BatchedTensors of ``level``."""
    if isinstance(result, tuple):
        wrapped = [_wrap(r, level) for r in result]
        return type(result)(*wrapped) if hasattr(result, "_fields") else tuple(wrapped)
    if isinstance(result, list):
        return [_wrap(r, level) for r in result]
    if hasattr(result, "shape"):
        return BatchedTensor(result, level)
    return result


def _size(args: tuple, kwargs: dict, level: int) -> int:
    return next(batch_size_at(t) for t in tensors_in(args, kwargs) if _is_at(t, level))


# --- the fallback: a loop, and a warning that names the op --------------------------------------
def loop_fallback(name: str, plain_fn: Callable[..., Any], level: int, args: tuple, kwargs: dict) -> Any:
    """No rule for ``name``: run it once per sample and stack the results (slow, but right)."""
    size = _size(args, kwargs, level)
    warnings.warn(
        f"There is a performance drop because we have not yet implemented the batching rule for "
        f"{name}. tensorlab.func.vmap falls back to a Python loop over the batch of {size}.",
        UserWarning,
        stacklevel=4,
    )

    def sample(x: Any, b: int) -> Any:
        if _is_at(x, level):
            return x.value.select(0, b) if hasattr(x.value, "select") else x.value[b]
        if isinstance(x, (list, tuple)):
            return type(x)(sample(i, b) for i in x)
        return x

    results = [
        physical_op(name, plain_fn)(*[sample(a, b) for a in args], **{k: sample(v, b) for k, v in kwargs.items()})
        for b in range(size)
    ]
    return _stack_results(results, level)


def _stack_results(results: list[Any], level: int) -> Any:
    from .. import stack

    first = results[0]
    if isinstance(first, tuple):
        stacked = [_stack_results([r[i] for r in results], level) for i in range(len(first))]
        return type(first)(*stacked) if hasattr(first, "_fields") else tuple(stacked)
    if not hasattr(first, "shape"):
        raise RuntimeError("vmap: the op returned a Python value, not a tensor, so its results cannot be batched")
    return BatchedTensor(physical_op("stack", stack)(results), level)


# --- the rules ---------------------------------------------------------------------------------
def elementwise_rule(name: str, plain_fn: Callable[..., Any], level: int, args: tuple, kwargs: dict) -> Any:
    """Broadcasting ops: pad batched values to the result's logical rank, right after the batch dim."""
    rank = max(_logical_ndim(t) for t in tensors_in(args, kwargs))

    def physical(x: Any) -> Any:
        if not _is_at(x, level):
            return x  # unbatched: broadcasting (right-aligned) puts it in every sample
        value = x.value
        for _ in range(rank - _logical_ndim(x)):
            value = physical_op("unsqueeze", _unsqueeze)(value, 1)
        return value

    out = physical_op(name, plain_fn)(*[physical(a) for a in args], **{k: physical(v) for k, v in kwargs.items()})
    return _wrap(out, level)


def _unsqueeze(x: Any, dim: int) -> Any:
    return x.unsqueeze(dim)


def inplace_rule(name: str, plain_fn: Callable[..., Any], level: int, args: tuple, kwargs: dict) -> Any:
    """``x.add_(y)``: allowed when ``x`` is batched (every sample is written); not when only ``y`` is."""
    if not _is_at(args[0], level):  # every sample would write into the same tensor: torch's error
        import numpy as np

        logical = np.broadcast_shapes(*(tuple(t.shape) for t in tensors_in(args, kwargs)))
        raise RuntimeError(
            f"output with shape {list(args[0].shape)} doesn't match the broadcast shape "
            f"{[_size(args, kwargs, level), *logical]}"
        )
    elementwise_rule(name, plain_fn, level, args, kwargs)
    return args[0]


def _normalize(dim: int, ndim: int) -> int:
    if not -max(ndim, 1) <= dim < max(ndim, 1):
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-max(ndim, 1)}, {max(ndim, 1) - 1}], but got {dim})"
        )
    return dim % max(ndim, 1)


def _shift(dim: Any, ndim: int) -> Any:
    """Logical dim(s) -> physical dim(s): one more, after normalising negatives."""
    if isinstance(dim, (list, tuple)):
        return type(dim)(_normalize(d, ndim) + 1 for d in dim)
    return _normalize(dim, ndim) + 1


def _dim_argument(args: tuple, kwargs: dict, position: int) -> tuple[Any, bool]:
    if "dim" in kwargs:
        return kwargs["dim"], True
    if len(args) > position:
        return args[position], True
    return None, False


def _with_dim(args: tuple, kwargs: dict, position: int, dim: Any) -> tuple[tuple, dict]:
    if "dim" in kwargs or len(args) <= position:
        return args, {**kwargs, "dim": dim}
    return (*args[:position], dim, *args[position + 1:]), kwargs


def dim_rule(position: int) -> Rule:
    """Ops with a ``dim`` argument at ``position`` (reductions, softmax, cumsum, select, unbind...).

    ``dim`` absent or None reduces every logical dim: the value is flattened to (batch, -1), then
    the op runs along dim 1.
    """

    def rule(name: str, plain_fn: Callable[..., Any], level: int, args: tuple, kwargs: dict) -> Any:
        x = args[0]
        if not _is_at(x, level):
            return loop_fallback(name, plain_fn, level, args, kwargs)
        dim, _ = _dim_argument(args, kwargs, position)
        op = physical_op(name, plain_fn)
        if dim is None:
            if name in ("max", "min"):  # max(x) is amax over everything; max(x, dim) also gives indices
                name = "a" + name
                op = method_op(name)
            flat = method_op("reshape")(x.value, batch_size_at(x), x.numel())  # not -1: the batch may be empty
            rest = {k: v for k, v in kwargs.items() if k not in ("dim", "keepdim")}
            return _wrap(op(flat, *args[1:position], dim=1, **rest), level)
        new_args, new_kwargs = _with_dim((x.value, *args[1:]), kwargs, position, _shift(dim, _logical_ndim(x)))
        return _wrap(op(*new_args, **new_kwargs), level)

    return rule


def matmul_rule(name: str, plain_fn: Callable[..., Any], level: int, args: tuple, kwargs: dict) -> Any:
    """a @ b: vectors become matrices; the batch dim becomes a broadcast batch dim in front of both."""
    a, b = args[0], args[1]
    rank = max(_logical_ndim(a), _logical_ndim(b), 2)
    unsqueeze = physical_op("unsqueeze", _unsqueeze)

    def as_matrix(x: Any, vector_dim: int) -> Any:
        batched = _is_at(x, level)
        value = x.value if batched else x
        first = 1 if batched else 0
        if _logical_ndim(x) == 1:
            value = unsqueeze(value, first + vector_dim)  # (n) -> (1, n) for a, (n, 1) for b
        for _ in range(rank - max(_logical_ndim(x), 2)):
            value = unsqueeze(value, first)
        return value if batched else unsqueeze(value, 0)  # an unbatched operand broadcasts over the batch

    out = physical_op("matmul", _matmul)(as_matrix(a, 0), as_matrix(b, 1))
    if _logical_ndim(b) == 1:
        out = physical_op("squeeze", lambda v, d: v.squeeze(d))(out, -1)
    if _logical_ndim(a) == 1:
        out = physical_op("squeeze", lambda v, d: v.squeeze(d))(out, -2 if _logical_ndim(b) > 1 else -1)
    return BatchedTensor(out, level)


def _matmul(a: Any, b: Any) -> Any:
    return a @ b


def linear_rule(name: str, plain_fn: Callable[..., Any], level: int, args: tuple, kwargs: dict) -> Any:
    """F.linear(x, w, b) = x @ w.T + b, each op with its own rule."""
    x, weight = args[0], args[1]
    bias = args[2] if len(args) > 2 else kwargs.get("bias")
    out = physical_op("matmul", _matmul)(x, method_op("transpose")(weight, -2, -1))
    return out if bias is None else physical_op("add", _add)(out, bias)


def _add(a: Any, b: Any) -> Any:
    return a + b


def mse_loss_rule(name: str, plain_fn: Callable[..., Any], level: int, args: tuple, kwargs: dict) -> Any:
    """F.mse_loss(x, y) = mean((x - y)**2) (or sum, or none), each op with its own rule."""
    x, target = args[0], args[1]
    reduction = kwargs.get("reduction", args[2] if len(args) > 2 and isinstance(args[2], str) else "mean")
    squared = physical_op("pow", lambda a, p: a**p)(physical_op("sub", lambda a, c: a - c)(x, target), 2)
    if reduction == "none":
        return squared
    return method_op(reduction)(squared)


def getitem_rule(name: str, plain_fn: Callable[..., Any], level: int, args: tuple, kwargs: dict) -> Any:
    """x[index] is value[:, index] -- unless the index itself is batched, or its advanced
    indices are separated (then NumPy/torch move the indexed dims to the front, past the batch dim)."""
    x, index = args
    items = index if isinstance(index, tuple) else (index,)
    if not _is_at(x, level) or any(isinstance(i, BatchedTensor) for i in items) or _separated_advanced(items):
        return loop_fallback(name, plain_fn, level, args, kwargs)
    return BatchedTensor(physical_op("getitem", plain_fn)(x.value, (slice(None), *items)), level)


def _separated_advanced(items: Sequence[Any]) -> bool:
    advanced = [k for k, i in enumerate(items) if hasattr(i, "shape") or isinstance(i, list)]
    return bool(advanced) and advanced[-1] - advanced[0] + 1 != len(advanced)


def _batch(x: Any) -> int:
    return batch_size_at(x)


def shape_rule(name: str, plain_fn: Callable[..., Any], level: int, args: tuple, kwargs: dict) -> Any:
    """View/shape ops: the same op on the value, the batch dim kept at 0."""
    x, rest = args[0], list(args[1:])
    if not _is_at(x, level):
        return loop_fallback(name, plain_fn, level, args, kwargs)
    ndim = _logical_ndim(x)
    value = x.value
    sizes = rest[0] if len(rest) == 1 and isinstance(rest[0], (list, tuple)) else rest
    if name in ("reshape", "view"):
        new: tuple = (_batch(x), *sizes)
    elif name in ("permute",):
        new = (0, *[_normalize(d, ndim) + 1 for d in sizes])
    elif name == "expand":
        sizes = list(sizes)
        for _ in range(len(sizes) - ndim):
            value = method_op("unsqueeze")(value, 1)
        new = (_batch(x), *sizes)
    elif name == "unsqueeze":
        new = (_normalize(rest[0] if rest else kwargs.pop("dim"), ndim + 1) + 1,)
    elif name == "squeeze":
        dims = rest[0] if rest else kwargs.pop("dim", None)
        if dims is None:
            dims = tuple(d for d, s in enumerate(x.shape) if s == 1)
        new = (_shift(tuple(dims) if isinstance(dims, (list, tuple)) else (dims,), ndim),)
    elif name in ("transpose", "swapaxes", "swapdims", "movedim"):
        new = (_shift(rest[0], ndim), _shift(rest[1], ndim))
    elif name == "t":
        return method_op("transpose")(x, 0, 1) if ndim == 2 else x
    elif name == "flatten":
        start = rest[0] if rest else kwargs.pop("start_dim", 0)
        end = rest[1] if len(rest) > 1 else kwargs.pop("end_dim", -1)
        new = (_shift(start, ndim), _shift(end, ndim)) if ndim else ()
    elif name in ("view_as", "reshape_as", "expand_as"):
        return method_op(name.removesuffix("_as"))(x, *rest[0].shape)
    else:  # contiguous, clone, detach, float, to(...): no dims involved
        new = tuple(rest)
    return BatchedTensor(physical_op(name, plain_fn)(value, *new, **kwargs), level)


def join_rule(name: str, plain_fn: Callable[..., Any], level: int, args: tuple, kwargs: dict) -> Any:
    """cat/stack: unbatched members are expanded over the batch; the dim moves up by one."""
    tensors = list(args[0])
    size = next(_batch(t) for t in tensors if _is_at(t, level))
    dim, _ = _dim_argument(args, kwargs, 1)
    ndim = max(_logical_ndim(t) for t in tensors) + (1 if name == "stack" else 0)

    def physical(t: Any) -> Any:
        if _is_at(t, level):
            return t.value
        return method_op("expand")(method_op("unsqueeze")(t, 0), size, *t.shape)

    new_args, new_kwargs = _with_dim(([physical(t) for t in tensors], *args[1:]), kwargs, 1, _normalize(dim or 0, ndim) + 1)
    return BatchedTensor(physical_op(name, plain_fn)(*new_args, **new_kwargs), level)


ELEMENTWISE = (
    "add sub mul div true_divide floor_divide remainder pow neg abs exp exp2 log log2 log10 log1p expm1 sqrt "
    "rsqrt square sin cos tan tanh sinh cosh asin acos atan atan2 sigmoid relu gelu silu softplus elu leaky_relu "
    "hardtanh logsigmoid sign floor ceil round trunc reciprocal clamp clip maximum minimum where lerp eq ne lt le "
    "gt ge logical_and logical_or logical_not logical_xor isnan isfinite masked_fill zeros_like ones_like "
    "full_like empty_like float double half int long bool to type type_as clone contiguous detach "
    "nan_to_num erf"
).split()
REDUCTIONS_AND_DIMS = (
    "sum mean prod amax amin max min argmax argmin std var logsumexp softmax log_softmax cumsum cumprod "
    "all any count_nonzero select narrow unbind sort argsort flip index_select unflatten"
).split()
SHAPE_OPS = (
    "reshape view permute expand unsqueeze squeeze transpose swapaxes swapdims movedim t flatten "
    "view_as reshape_as expand_as"
).split()
IN_PLACE = "add_ sub_ mul_ div_ pow_ clamp_ relu_ zero_ fill_ copy_ masked_fill_ exp_ neg_".split()

for _name in ELEMENTWISE:
    RULES[_name] = elementwise_rule
for _name in IN_PLACE:
    RULES[_name] = inplace_rule
for _name in REDUCTIONS_AND_DIMS:
    RULES[_name] = dim_rule(1)
for _name in SHAPE_OPS:
    RULES[_name] = shape_rule
for _name in ("matmul", "mm", "bmm", "mv", "dot", "inner"):
    RULES[_name] = matmul_rule
RULES.update(linear=linear_rule, mse_loss=mse_loss_rule, getitem=getitem_rule, cat=join_rule, concat=join_rule, stack=join_rule)
