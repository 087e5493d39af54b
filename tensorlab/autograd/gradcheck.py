"""gradcheck: does backward compute the derivative that forward implies?

Two Jacobians of ``func`` are compared entry by entry, for every (output, input) pair:

* **numerical**, by central finite differences: column ``i`` of input ``k`` is
  ``(f(x + eps*e_i) - f(x - eps*e_i)) / (2*eps)``, one pair of forward calls per element;
* **analytical**, by backward: row ``j`` of output ``m`` is ``autograd.grad(out_m, inputs, e_j)``,
  one backward per output element.

They must agree within ``atol + rtol*|numerical|``. Finite differences lose half the digits, so
inputs should be float64 (torch warns otherwise, and so do we). ``gradgradcheck`` runs the same
check on the function "inputs -> gradients", which tests backward's own backward.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from .._tensor import Tensor

__all__ = ["GradcheckError", "gradcheck", "gradgradcheck"]


class GradcheckError(RuntimeError):
    """Raised by gradcheck/gradgradcheck when the Jacobians disagree (and raise_exception=True)."""


def _is_tensor(x: Any) -> bool:
    return hasattr(x, "_requires_grad")


def _as_tuple(x: Any) -> tuple:
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _differentiable(outputs: tuple) -> list[int]:
    """Positions of the outputs that carry a gradient (float tensors that require grad)."""
    return [i for i, out in enumerate(outputs) if _is_tensor(out) and out.requires_grad]


def _numerical_jacobians(
    func: Callable[..., Any], inputs: tuple, wrt: list[int], outputs_at: list[int], eps: float
) -> list[list[np.ndarray]]:
    """``J[k][m]``: d(output m)/d(input k) by central differences, shape (numel in, numel out)."""
    jacobians = []
    for k in wrt:
        x = inputs[k]
        columns = []
        for i in range(x.numel()):
            plus = _evaluate(func, _perturb(inputs, k, i, eps), outputs_at)
            minus = _evaluate(func, _perturb(inputs, k, i, -eps), outputs_at)
            columns.append([(p - m) / (2 * eps) for p, m in zip(plus, minus, strict=True)])
        jacobians.append([
            np.array([col[m] for col in columns]).reshape(x.numel(), -1) for m in range(len(outputs_at))
        ])
    return jacobians


def _perturb(inputs: tuple, k: int, index: int, delta: float) -> tuple:
    """A copy of input ``k`` with element ``index`` (row-major) moved by ``delta``."""
    shifted = inputs[k].detach().clone()
    shifted._data.flat[index] += delta
    shifted.requires_grad_(inputs[k].requires_grad)
    return (*inputs[:k], shifted, *inputs[k + 1:])


def _evaluate(func: Callable[..., Any], inputs: tuple, outputs_at: list[int]) -> list[np.ndarray]:
    outputs = _as_tuple(func(*inputs))
    return [np.asarray(outputs[m].detach()._data, dtype=np.float64).ravel() for m in outputs_at]


def _analytical_jacobians(
    func: Callable[..., Any], inputs: tuple, wrt: list[int], outputs_at: list[int]
) -> list[list[np.ndarray]]:
    """``J[k][m]`` by backward: one ``autograd.grad`` per element of each output."""
    from .._creation import zeros_like
    from . import grad

    outputs = _as_tuple(func(*inputs))
    diff_inputs = [inputs[k] for k in wrt]
    jacobians = [[np.zeros((inputs[k].numel(), outputs[m].numel())) for m in outputs_at] for k in wrt]
    for col, m in enumerate(outputs_at):
        out = outputs[m]
        for j in range(out.numel()):
            one_hot = zeros_like(out)
            one_hot._data.flat[j] = 1
            grads = grad(out, diff_inputs, one_hot, retain_graph=True, allow_unused=True)
            for row, g in enumerate(grads):
                if g is not None:
                    jacobians[row][col][:, j] = np.asarray(g._data, dtype=np.float64).ravel()
    return jacobians


def gradcheck(
    func: Callable[..., Any],
    inputs: Any,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    raise_exception: bool = True,
    nondet_tol: float = 0.0,
    check_undefined_grad: bool = True,
    check_grad_dtypes: bool = False,
    check_batched_grad: bool = False,
    check_batched_forward_grad: bool = False,
    check_forward_ad: bool = False,
    check_backward_ad: bool = True,
    fast_mode: bool = False,
    masked: bool | None = None,
) -> bool:
    """True if backward's Jacobian matches finite differences for every input that requires grad.

    torch's signature; the options for forward AD, batching and ``fast_mode`` are accepted and
    ignored (tensorlab always runs the full, "slow" check of backward mode).
    """
    inputs = _as_tuple(inputs)
    wrt = [k for k, x in enumerate(inputs) if _is_tensor(x) and x.requires_grad]
    if not wrt:
        raise ValueError(
            "gradcheck expects at least one input tensor to require gradient, but none of the "
            "them have requires_grad=True."
        )
    for k in wrt:
        if inputs[k].dtype.name != "float64":
            warnings.warn(
                f"Input #{k} requires gradient and is not a double precision floating point or "
                "complex. This check will likely fail if all the inputs are not of double "
                "precision floating point or complex.",
                UserWarning,
                stacklevel=2,
            )
    outputs_at = _differentiable(_as_tuple(func(*inputs)))
    if not check_backward_ad or not outputs_at:
        return True
    numerical = _numerical_jacobians(func, inputs, wrt, outputs_at, eps)
    analytical = _analytical_jacobians(func, inputs, wrt, outputs_at)
    for row, k in enumerate(wrt):
        for col, m in enumerate(outputs_at):
            a, n = analytical[row][col], numerical[row][col]
            if not np.allclose(a, n, rtol=rtol, atol=atol):
                return _fail(
                    raise_exception,
                    f"Jacobian mismatch for output {m} with respect to input {k},\n"
                    f"numerical:{n!r}\nanalytical:{a!r}\n",
                )
    again = _analytical_jacobians(func, inputs, wrt, outputs_at)
    for first_rows, second_rows in zip(analytical, again, strict=True):
        for a, b in zip(first_rows, second_rows, strict=True):
            if np.abs(a - b).max(initial=0.0) > nondet_tol:
                return _fail(
                    raise_exception,
                    "Backward is not reentrant, i.e., running backward with same input and "
                    "grad_output multiple times gives different values, although analytical "
                    f"gradient matches numerical gradient. The tolerance for nondeterminism was {nondet_tol}.",
                )
    return True


def _fail(raise_exception: bool, message: str) -> bool:
    if raise_exception:
        raise GradcheckError(message)
    return False


def gradgradcheck(
    func: Callable[..., Any],
    inputs: Any,
    grad_outputs: Any = None,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    gen_non_contig_grad_outputs: bool = False,
    raise_exception: bool = True,
    nondet_tol: float = 0.0,
    check_undefined_grad: bool = True,
    check_grad_dtypes: bool = False,
    check_batched_grad: bool = False,
    check_fwd_over_rev: bool = False,
    check_rev_over_rev: bool = True,
    fast_mode: bool = False,
    masked: bool = False,
) -> bool:
    """gradcheck of the map (inputs, grad_outputs) -> gradients, built with create_graph=True.

    Without ``grad_outputs``, random ones in [-1, 1) are used (fixed seed, so reruns agree).
    """
    from .._creation import tensor
    from . import grad

    inputs = _as_tuple(inputs)
    outputs = _as_tuple(func(*inputs))
    if grad_outputs is None:
        rng = np.random.default_rng(0)
        grad_outputs = tuple(
            tensor(rng.uniform(-1, 1, tuple(outputs[m].shape)), dtype=outputs[m].dtype, requires_grad=True)
            for m in _differentiable(outputs)
        )
    grad_outputs = _as_tuple(grad_outputs)
    count = len(grad_outputs)
    wrt = [k for k, x in enumerate(inputs) if _is_tensor(x) and x.requires_grad]

    def first_derivatives(*args: Tensor) -> tuple:
        args_in, args_grad = args[:-count], args[-count:]
        outs = _as_tuple(func(*args_in))
        diff_outs = [outs[m] for m in _differentiable(outs)]
        grads = grad(diff_outs, [args_in[k] for k in wrt], args_grad, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(
        first_derivatives, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
        raise_exception=raise_exception, nondet_tol=nondet_tol,
    )

