"""grad, vjp, jacrev, jvp, hessian: functions in, functions out, on tensorlab's autograd.

Each transform does the same three steps:

1. turn the inputs to differentiate into fresh tensors that require grad (under ``vmap``, one
   plain tensor per input with every running batch dim in front: ``batched.to_plain``);
2. call the function on them, recording the graph;
3. ask :func:`tensorlab.autograd.grad` for the derivative and hand it back in the inputs' shape.

Under ``vmap`` the samples never mix, so differentiating the sum over the batch gives each
sample's own gradient: ``vmap(grad(f))`` is per-sample gradients. An input not batched at some
level is expanded along it first, so its gradient is per sample too, as torch's is.

Nesting (``grad(grad(f))``, ``hessian``): while a transform's function runs, inner transforms
record their own backward pass (``create_graph=True``), so the outer one can differentiate it.
tensorlab has no forward-mode AD: ``jvp`` and ``jacfwd`` are computed with reverse mode (``jvp``
by the double-vjp trick: J t is the gradient, with respect to u, of <J^T u, t>).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from .. import autograd
from .._creation import eye, ones_like, zeros_like
from .._tensor import Tensor
from . import pytree
from .batched import ACTIVE_LEVELS, Level, from_plain, to_plain
from .vmap import vmap

#: How many transforms' functions are running now (> 0: inner transforms keep their graph).
_depth: list[int] = [0]


def _normalize_argnums(argnums: int | tuple[int, ...], nargs: int) -> tuple[int, ...]:
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    for a in nums:
        if not -nargs <= a < nargs:
            raise RuntimeError(f"Got argnums={a}, but only {nargs} positional inputs")
    return tuple(a % nargs for a in nums)


class _Recording:
    """The inputs to differentiate, made into tensors that require grad, and the call on them."""

    def __init__(self, func: Callable[..., Any], args: tuple, kwargs: dict, argnums: tuple[int, ...]) -> None:
        self.levels: list[Level] = list(ACTIVE_LEVELS)
        self.argnums = argnums
        self.specs = []
        self.leaves: list[Tensor] = []
        originals = []
        for a in argnums:
            leaves, spec = pytree.flatten(args[a])
            self.specs.append((spec, len(leaves)))
            originals.extend(leaves)
        self.create_graph = _depth[0] > 0 or any(getattr(x, "requires_grad", False) for x in originals)
        self.leaves = [self._differentiable(x) for x in originals]
        call_args = list(args)
        start = 0
        for a, (spec, n) in zip(argnums, self.specs, strict=True):
            call_args[a] = pytree.unflatten([from_plain(p, self.levels) for p in self.leaves[start:start + n]], spec)
            start += n
        _depth[0] += 1
        try:
            with autograd.enable_grad():
                self.output = func(*call_args, **kwargs)
        finally:
            _depth[0] -= 1

    def _differentiable(self, x: Any) -> Tensor:
        if not isinstance(x, Tensor) and not hasattr(x, "level"):
            raise RuntimeError(f"Expected a Tensor to differentiate with respect to, got {type(x).__name__}")
        plain = to_plain(x, self.levels)
        if plain.requires_grad:
            return plain  # an outer transform differentiates through this one: keep the graph
        return plain.detach().requires_grad_()

    def gradients(self, outputs: Sequence[Tensor], cotangents: Sequence[Tensor]) -> list[Tensor]:
        """sum_i <cotangent_i, d output_i / d leaf> for every leaf; zeros where a leaf is unused."""
        used = [(o, c) for o, c in zip(outputs, cotangents, strict=True) if o.requires_grad]
        if not used:
            return [zeros_like(p) for p in self.leaves]
        grads = autograd.grad(
            [o for o, _ in used], self.leaves, [c for _, c in used],
            retain_graph=True, create_graph=self.create_graph, allow_unused=True,
        )
        return [zeros_like(p) if g is None else g for g, p in zip(grads, self.leaves, strict=True)]

    def per_argnum(self, flat: list[Tensor]) -> list[Any]:
        """Flat per-leaf results -> one structure per argnum, batched as the inputs were."""
        results, start = [], 0
        for spec, n in self.specs:
            results.append(pytree.unflatten([from_plain(g, self.levels) for g in flat[start:start + n]], spec))
            start += n
        return results

    def plain(self, x: Any) -> Tensor:
        return to_plain(x, self.levels)

    def visible(self, p: Tensor) -> Any:
        """A result as the caller sees it: detached unless an outer transform needs its graph."""
        return from_plain(p if self.create_graph else p.detach(), self.levels)


def _split_aux(rec: _Recording, has_aux: bool, name: str) -> tuple[Any, Any]:
    """(output, aux); aux tensors are handed back detached unless an outer transform needs their graph."""
    output = rec.output
    if not has_aux:
        return output, None
    if not (isinstance(output, tuple) and len(output) == 2):
        raise RuntimeError(f"{name}(f, ...): output of function f should be a tuple: (output, aux) if has_aux is True")
    leaves, spec = pytree.flatten(output[1])
    if not rec.create_graph:
        leaves = [x.detach() if hasattr(x, "detach") else x for x in leaves]
    return output[0], pytree.unflatten(leaves, spec)


def grad_and_value(func: Callable[..., Any], argnums: int | tuple[int, ...] = 0, has_aux: bool = False) -> Callable[..., Any]:
    """``f`` -> a function returning (d f / d args[argnums], f(args)); ``f`` must return a scalar."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        rec = _Recording(func, args, kwargs, _normalize_argnums(argnums, len(args)))
        output, aux = _split_aux(rec, has_aux, "grad_and_value")
        if not hasattr(output, "shape"):
            raise RuntimeError(f"grad_and_value(f)(*args): Expected f(*args) to return a Tensor, got {type(output)}")
        if len(output.shape) != 0:
            raise RuntimeError(
                f"grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got tensor with "
                f"{len(output.shape)} dims. Maybe you wanted to use the vjp or jacrev APIs instead?"
            )
        out = rec.plain(output)
        flat = rec.gradients([out], [ones_like(out)])
        flat = flat if rec.create_graph else [g.detach() for g in flat]
        grads = rec.per_argnum(flat)
        grads_out = grads[0] if isinstance(argnums, int) else tuple(grads)
        value = rec.visible(out)
        return (grads_out, (value, aux)) if has_aux else (grads_out, value)

    return wrapper


def grad(func: Callable[..., Any], argnums: int | tuple[int, ...] = 0, has_aux: bool = False) -> Callable[..., Any]:
    """``f`` -> d f / d args[argnums] (``f`` returns a scalar). With ``has_aux``: (gradient, aux)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        grads, value = grad_and_value(func, argnums, has_aux)(*args, **kwargs)
        return (grads, value[1]) if has_aux else grads

    return wrapper


def vjp(func: Callable[..., Any], *primals: Any, has_aux: bool = False) -> Any:
    """(f(primals), vjp_fn) where vjp_fn(cotangents) = cotangents^T J, one result per primal.

    Called under a ``vmap`` that began after this ``vjp`` (``vmap(vjp_fn)(basis)``, which is how
    ``jacrev`` works), ``vjp_fn`` has a graph recorded for one cotangent and is given a batch: it
    runs ``f`` again on the primals under that ``vmap`` (batched, by the rules) and backpropagates
    the whole batch of cotangents in one backward pass.
    """
    rec = _Recording(func, primals, {}, tuple(range(len(primals))))
    output, aux = _split_aux(rec, has_aux, "vjp")
    out_leaves, out_spec = pytree.flatten(output)
    outs = [rec.plain(o) for o in out_leaves]

    def vjp_fn(*cotangents: Any) -> tuple:
        if len(ACTIVE_LEVELS) > len(rec.levels):  # batched cotangents: record the batch, then backpropagate it
            return vjp(func, *primals, has_aux=has_aux)[1](*cotangents)
        ct_leaves, _ = pytree.flatten(cotangents[0] if len(cotangents) == 1 else cotangents)
        if len(ct_leaves) != len(outs):
            raise RuntimeError(f"Expected pytree structure of cotangents to be the same as pytree structure of outputs to the function. cotangents: {len(ct_leaves)} tensors, primal output: {len(outs)} tensors")
        flat = rec.gradients(outs, [rec.plain(c) for c in ct_leaves])
        return tuple(rec.per_argnum(flat if rec.create_graph else [g.detach() for g in flat]))

    visible = pytree.unflatten([rec.visible(o) for o in outs], out_spec)
    return (visible, vjp_fn, aux) if has_aux else (visible, vjp_fn)


def jvp(func: Callable[..., Any], primals: tuple, tangents: tuple, *, strict: bool = False, has_aux: bool = False) -> Any:
    """(f(primals), J @ tangents), by the double-vjp trick (tensorlab has no forward mode).

    g(u) = J^T u is linear in u, so d<g(u), t>/du = J t: one backward pass recorded with
    ``create_graph``, then a second one through it.
    """
    if not isinstance(primals, tuple) or not isinstance(tangents, tuple):
        raise RuntimeError("jvp(f, primals, tangents): Expected primals and tangents to be tuples")
    if len(primals) != len(tangents):
        raise RuntimeError("jvp(f, primals, tangents): Expected primals and tangents to have the same python structure")
    rec = _Recording(func, primals, {}, tuple(range(len(primals))))
    output, aux = _split_aux(rec, has_aux, "jvp")
    out_leaves, out_spec = pytree.flatten(output)
    outs = [rec.plain(o) for o in out_leaves]
    us = [zeros_like(o).requires_grad_() for o in outs]
    wanted = rec.create_graph
    rec.create_graph = True
    transposed = rec.gradients(outs, us)  # J^T u, recorded
    rec.create_graph = wanted
    ts = [rec.plain(t) for t in pytree.flatten(tangents)[0]]
    used = [(g, t) for g, t in zip(transposed, ts, strict=True) if g.requires_grad]
    if used:
        found = autograd.grad([g for g, _ in used], us, [t for _, t in used], create_graph=wanted, allow_unused=True)
        products = [zeros_like(u) if p is None else p for p, u in zip(found, us, strict=True)]
    else:
        products = [zeros_like(u) for u in us]
    primal_out = pytree.unflatten([rec.visible(o) for o in outs], out_spec)
    tangent_out = pytree.unflatten([rec.visible(p) for p in products], out_spec)
    return (primal_out, tangent_out, aux) if has_aux else (primal_out, tangent_out)


def jacrev(func: Callable[..., Any], argnums: int | tuple[int, ...] = 0, *, has_aux: bool = False, chunk_size: int | None = None) -> Callable[..., Any]:
    """``f`` -> its Jacobian, one row per output element: ``vmap(vjp_fn)`` over the rows of the identity.

    The result has shape output.shape + input.shape (a tuple per argnum when argnums is a tuple;
    a tuple per output when ``f`` returns a tuple). ``chunk_size`` is accepted and ignored.
    """

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        nums = _normalize_argnums(argnums, len(args))

        def of_differentiated(*diff: Any) -> Any:
            call = list(args)
            for a, d in zip(nums, diff, strict=True):
                call[a] = d
            return func(*call, **kwargs)

        result = vjp(of_differentiated, *[args[a] for a in nums], has_aux=has_aux)
        output, vjp_fn = result[0], result[1]
        out_leaves, out_spec = pytree.flatten(output)
        per_output = []
        for i in range(len(out_leaves)):
            per_output.append(_jacobian_rows(vjp_fn, out_leaves, i, [args[a] for a in nums], isinstance(argnums, int)))
        jac = pytree.unflatten(per_output, out_spec)
        return (jac, result[2]) if has_aux else jac

    return wrapper


def _jacobian_rows(vjp_fn: Callable[..., Any], outs: list[Any], i: int, inputs: list[Any], single: bool) -> Any:
    """The Jacobian of output ``i``: cotangent e_k for each of its elements k, all at once under vmap."""
    out = outs[i]
    n = out.numel()
    basis = eye(n, dtype=out.dtype).reshape(n, *out.shape)
    zeros = [o.detach() * 0 for o in outs]  # (o may be batched: zeros_like would not see it)

    def row(e: Any) -> tuple:
        cotangents = [e if k == i else zeros[k] for k in range(len(outs))]
        return vjp_fn(*cotangents) if len(outs) > 1 else vjp_fn(e)

    rows = vmap(row)(basis) if n > 0 else tuple(zeros_like(x).reshape(0, *x.shape) for x in inputs)
    blocks = []
    for grads, x in zip(rows, inputs, strict=True):
        leaves, spec = pytree.flatten(grads)
        x_leaves, _ = pytree.flatten(x)
        blocks.append(pytree.unflatten([g.reshape(*out.shape, *xl.shape) for g, xl in zip(leaves, x_leaves, strict=True)], spec))
    return blocks[0] if single else tuple(blocks)


def jacfwd(func: Callable[..., Any], argnums: int | tuple[int, ...] = 0, has_aux: bool = False, *, randomness: str = "error") -> Callable[..., Any]:
    """The same Jacobian as :func:`jacrev`. torch builds it column by column in forward mode;
    tensorlab has no forward mode, so it is built row by row in reverse mode (same values, same shape)."""
    return jacrev(func, argnums, has_aux=has_aux)


def hessian(func: Callable[..., Any], argnums: int | tuple[int, ...] = 0) -> Callable[..., Any]:
    """``jacfwd(jacrev(f))``: the Jacobian of the gradient, shape input.shape + input.shape."""
    return jacfwd(jacrev(func, argnums), argnums)
