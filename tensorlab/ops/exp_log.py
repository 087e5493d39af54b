"""More exponentials and logarithms: log1p, expm1, log2, log10, exp2.

log1p(x) = log(1 + x) and expm1(x) = e^x - 1 exist because the obvious formula loses every
digit for small x: in float32, 1 + 1e-8 is exactly 1, so log(1 + 1e-8) is 0, while log1p(1e-8)
is 1e-8. Base-2 and base-10 versions only scale by a constant (log2 x = ln x / ln 2), which is
what their derivatives show.
"""

from __future__ import annotations

import math

import numpy as np

from .._tensor import Tensor
from .smooth_unary import SmoothUnary
from .unary_math import one_input

__all__ = ["exp2", "expm1", "log10", "log1p", "log2"]


class Log1p(SmoothUnary):
    """z = log(1 + x), exact for small x. dz/dx = 1/(1 + x)."""

    backward_name = "Log1PBackward0"
    numpy_function = staticmethod(np.log1p)

    @staticmethod
    def derivative(x: Tensor) -> Tensor:
        return 1 / (x + 1)


class Expm1(SmoothUnary):
    """z = e^x - 1, exact for small x. dz/dx = e^x = z + 1."""

    backward_name = "Expm1Backward0"
    from_output = True
    numpy_function = staticmethod(np.expm1)

    @staticmethod
    def derivative(z: Tensor) -> Tensor:
        return z + 1


class Log2(SmoothUnary):
    """z = log2 x. dz/dx = 1/(x ln 2)."""

    backward_name = "Log2Backward0"
    numpy_function = staticmethod(np.log2)

    @staticmethod
    def derivative(x: Tensor) -> Tensor:
        return 1 / (x * math.log(2))


class Log10(SmoothUnary):
    """z = log10 x. dz/dx = 1/(x ln 10)."""

    backward_name = "Log10Backward0"
    numpy_function = staticmethod(np.log10)

    @staticmethod
    def derivative(x: Tensor) -> Tensor:
        return 1 / (x * math.log(10))


class Exp2(SmoothUnary):
    """z = 2^x. dz/dx = 2^x ln 2 = z ln 2."""

    backward_name = "Exp2Backward0"
    from_output = True
    numpy_function = staticmethod(np.exp2)

    @staticmethod
    def derivative(z: Tensor) -> Tensor:
        return z * math.log(2)


log1p, expm1, log2, log10, exp2 = (one_input(op) for op in (Log1p, Expm1, Log2, Log10, Exp2))
