"""torch.autograd.functional: jacobian, hessian, vjp, jvp, hvp, vhp -- torch's older front door.

One implementation, two front doors: each function here calls :mod:`tensorlab.func` and only
adapts torch's older conventions (``inputs`` a tensor or a tuple, ``v`` the vector, results
detached unless ``create_graph=True``). ``strict`` and ``vectorize`` are accepted and ignored:
the Jacobian is always built vectorised (``vmap`` over the vjp), and an output that does not
depend on an input gives zeros, as torch does when ``strict=False``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._tensor import Tensor


def _as_tuple(x: Any) -> tuple[tuple, bool]:
    return (tuple(x), True) if isinstance(x, (tuple, list)) else ((x,), False)


def _inputs(inputs: Any, create_graph: bool) -> tuple[tuple, bool]:
    """torch differentiates copies of the inputs; with create_graph they stay connected to the originals."""
    xs, is_tuple = _as_tuple(inputs)
    for i, x in enumerate(xs):
        if not isinstance(x, Tensor):
            raise TypeError(f"The inputs given to jacobian must be either a Tensor or a tuple of Tensors but the value at index {i} has type {type(x)}.")
    return (tuple(x if create_graph else x.detach() for x in xs), is_tuple)


def _finish(x: Any, create_graph: bool) -> Any:
    if isinstance(x, tuple):
        return tuple(_finish(i, create_graph) for i in x)
    return x if create_graph else x.detach()


def jacobian(func: Callable[..., Any], inputs: Any, create_graph: bool = False, strict: bool = False, vectorize: bool = False, strategy: str = "reverse-mode") -> Any:
    """d func(inputs) / d inputs: a tensor, or tuples per output and per input as the arguments are."""
    from ..func import jacrev

    xs, inputs_tuple = _inputs(inputs, create_graph)
    jac = jacrev(func, argnums=tuple(range(len(xs))))(*xs)
    if isinstance(jac, tuple) and jac and isinstance(jac[0], tuple):  # several outputs
        jac = tuple(j if inputs_tuple else j[0] for j in jac)
    elif not inputs_tuple:
        jac = jac[0]
    return _finish(jac, create_graph)


def hessian(func: Callable[..., Any], inputs: Any, create_graph: bool = False, strict: bool = False, vectorize: bool = False, outer_jacobian_strategy: str = "reverse-mode") -> Any:
    """The second derivatives of a scalar func: per pair of inputs when ``inputs`` is a tuple."""
    from ..func import hessian as func_hessian

    xs, inputs_tuple = _inputs(inputs, create_graph)
    hess = func_hessian(func, argnums=tuple(range(len(xs))))(*xs)
    return _finish(hess if inputs_tuple else hess[0][0], create_graph)


def vjp(func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False) -> tuple[Any, Any]:
    """(func(inputs), v^T J); ``v`` may be omitted when the output is a scalar."""
    from .. import ones_like
    from ..func import vjp as func_vjp

    xs, inputs_tuple = _inputs(inputs, create_graph)
    output, vjp_fn = func_vjp(func, *xs)
    if v is None:
        outs, _ = _as_tuple(output)
        if any(o.numel() != 1 for o in outs):
            raise RuntimeError("The vector v can only be None if the user-provided function returns a single Tensor with a single element.")
        v = ones_like(output) if not isinstance(output, tuple) else tuple(ones_like(o) for o in output)
    grads = vjp_fn(v)
    return _finish(output, create_graph), _finish(grads if inputs_tuple else grads[0], create_graph)


def jvp(func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False) -> tuple[Any, Any]:
    """(func(inputs), J v), by the double-vjp trick (see tensorlab.func.jvp)."""
    from .. import ones_like
    from ..func import jvp as func_jvp

    xs, _ = _inputs(inputs, create_graph)
    if v is None:
        if any(x.numel() != 1 for x in xs):
            raise RuntimeError("The vector v can only be None if the input to the user-provided function is a single Tensor with a single element.")
        v = tuple(ones_like(x) for x in xs)
    vs, _ = _as_tuple(v)
    output, product = func_jvp(func, xs, tuple(vs))
    return _finish(output, create_graph), _finish(product, create_graph)


def hvp(func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False) -> tuple[Any, Any]:
    """(func(inputs), H v) for a scalar func: the vjp of the gradient (H is symmetric)."""
    from ..func import grad as func_grad
    from ..func import vjp as func_vjp

    xs, inputs_tuple = _inputs(inputs, create_graph)
    vs, _ = _as_tuple(v)
    argnums = tuple(range(len(xs)))
    _, product_fn = func_vjp(lambda *a: func_grad(func, argnums)(*a), *xs)
    output = func(*xs)
    products = product_fn(tuple(vs))
    return _finish(output, create_graph), _finish(products if inputs_tuple else products[0], create_graph)


def vhp(func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False) -> tuple[Any, Any]:
    """(func(inputs), v^T H): the same numbers as :func:`hvp`, H being symmetric."""
    return hvp(func, inputs, v, create_graph, strict)
