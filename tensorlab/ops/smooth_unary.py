"""A one-input float op given by two facts: its NumPy function and its derivative.

asin, sinh, log1p, erf... all follow one pattern: the forward is one NumPy function computed
in floating point (integer and bool inputs become the default float dtype, as torch promotes
them), and the backward multiplies the incoming gradient by the derivative, written with
tensor ops so that double backward works too. Each op is a subclass of :class:`SmoothUnary`
that states those two facts; ``ops/trig.py``, ``ops/exp_log.py`` and ``ops/erf.py`` hold them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._tensor import Tensor
from ..autograd.function import Function, FunctionCtx
from .promotion import _float_dtype, unary


class SmoothUnary(Function):
    """The base of a smooth one-input float op. A subclass states its maths (the docstring), its
    NumPy function and its derivative; forward and backward, the same for all of them, are here.

    Values outside the domain (asin(2), log1p(-2)) give nan or inf without a warning, as in torch.
    The public function is ``unary_math.one_input(TheClass)``.
    """

    from_output = False
    """True when the derivative is written with the output z (e^x's is z itself): backward then
    keeps z instead of x, as torch does, which decides when an in-place write breaks backward."""

    numpy_function: Any
    """The NumPy ufunc that computes the op on an array (``staticmethod(np.tan)``)."""

    @staticmethod
    def derivative(kept: Tensor) -> Tensor:
        """dz/dx, written with tensor ops (so double backward works) on x, or on z if ``from_output``."""
        raise NotImplementedError

    @classmethod
    def forward(cls, ctx: FunctionCtx, x: Tensor) -> Tensor:
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            z = unary(cls.numpy_function, x, _float_dtype(x))
        ctx.save_for_backward(z if cls.from_output else x)
        return z

    @classmethod
    def backward(cls, ctx: FunctionCtx, grad: Tensor) -> Tensor:
        (kept,) = ctx.saved_tensors
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):  # inf at a domain edge
            return grad * cls.derivative(kept)
