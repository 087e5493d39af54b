"""A one-input float op given by two facts: its NumPy function and its derivative.

asin, sinh, log1p, erf... all follow one pattern: the forward is one NumPy function computed
in floating point (integer and bool inputs become the default float dtype, as torch promotes
them), and the backward multiplies the incoming gradient by the derivative, written with
tensor ops so that double backward works too. :func:`smooth_unary` builds the autograd
``Function`` from those two facts; ``ops/trig.py``, ``ops/exp_log.py`` and ``ops/erf.py`` are
tables of them.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import numpy as np

from .._tensor import Tensor
from ..autograd.function import Function, FunctionCtx
from .promotion import _float_dtype, unary

# dz/dx from the one tensor backward keeps (x, or z when ``from_output``): ``lambda x: x.cosh()`` for sinh
Derivative = Callable[[Tensor], Tensor]


def smooth_unary(name: str, numpy_function: Callable[[np.ndarray], np.ndarray], derivative: Derivative, maths: str,
                 *, from_output: bool = False, node_name: str | None = None) -> type[Function]:
    """The autograd ``Function`` of one smooth unary op (its public function: ``unary_math.one_input``).

    ``maths`` is the one-line docstring (``"z = asinh x. dz/dx = 1/sqrt(x^2 + 1)"``).
    ``from_output``: the derivative is written with the output z (e^x's is z itself), so backward
    keeps z instead of x — as torch does, which decides when an in-place write breaks backward.
    Values outside the domain (asin(2), log1p(-2)) give nan or inf without a warning, as in torch.
    """

    def forward(ctx: FunctionCtx, x: Tensor) -> Tensor:
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            z = unary(numpy_function, x, _float_dtype(x))
        ctx.save_for_backward(z if from_output else x)
        return z

    def backward(ctx: FunctionCtx, grad: Tensor) -> Tensor:
        (kept,) = ctx.saved_tensors
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):  # the derivative may be inf at an edge
            return grad * derivative(kept)

    class_name = name.capitalize()
    # The class belongs to the module whose table calls this (as if its class statement were
    # there): tracebacks, help() and docs/op-index.md point at the line that states its maths.
    return type(class_name, (Function,), {
        "__doc__": maths,
        "__module__": sys._getframe(1).f_globals["__name__"],
        "backward_name": node_name or f"{class_name}Backward0",
        "forward": staticmethod(forward),
        "backward": staticmethod(backward),
    })
