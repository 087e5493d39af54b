"""tan, the inverse trigonometric and the hyperbolic functions, and atan2, each with its derivative.

The derivatives are where a learner sees the domain: asin's 1/sqrt(1 - x^2) is infinite at
x = +-1 and nan beyond, just as asin itself is nan beyond. torch computes these in floating
point (``asin(int_tensor)`` is float32) and gives nan, not an error, outside the domain.
``arcsin``... are NumPy's names for the same functions; torch has them as aliases too.
"""

from __future__ import annotations

import numpy as np

from .._dtype import get_default_dtype, result_type
from .._tensor import Tensor, require_tensors
from ..autograd.function import Function, FunctionCtx
from .broadcasting import sum_to_shape
from .promotion import binary
from .smooth_unary import SmoothUnary
from .unary_math import one_input

__all__ = [
    "acos", "acosh", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctan2", "arctanh",
    "asin", "asinh", "atan", "atan2", "atanh", "cosh", "sinh", "tan",
]


class Tan(SmoothUnary):
    """z = tan x. dz/dx = 1 + tan^2 x = 1 + z^2."""

    backward_name = "TanBackward0"
    from_output = True
    numpy_function = staticmethod(np.tan)

    @staticmethod
    def derivative(z: Tensor) -> Tensor:
        return 1 + z * z


class Asin(SmoothUnary):
    """z = asin x. dz/dx = 1/sqrt(1 - x^2)."""

    backward_name = "AsinBackward0"
    numpy_function = staticmethod(np.arcsin)

    @staticmethod
    def derivative(x: Tensor) -> Tensor:
        return 1 / (1 - x * x).sqrt()


class Acos(SmoothUnary):
    """z = acos x. dz/dx = -1/sqrt(1 - x^2)."""

    backward_name = "AcosBackward0"
    numpy_function = staticmethod(np.arccos)

    @staticmethod
    def derivative(x: Tensor) -> Tensor:
        return -1 / (1 - x * x).sqrt()


class Atan(SmoothUnary):
    """z = atan x. dz/dx = 1/(1 + x^2)."""

    backward_name = "AtanBackward0"
    numpy_function = staticmethod(np.arctan)

    @staticmethod
    def derivative(x: Tensor) -> Tensor:
        return 1 / (x * x + 1)


class Sinh(SmoothUnary):
    """z = sinh x. dz/dx = cosh x."""

    backward_name = "SinhBackward0"
    numpy_function = staticmethod(np.sinh)

    @staticmethod
    def derivative(x: Tensor) -> Tensor:
        return x.cosh()


class Cosh(SmoothUnary):
    """z = cosh x. dz/dx = sinh x."""

    backward_name = "CoshBackward0"
    numpy_function = staticmethod(np.cosh)

    @staticmethod
    def derivative(x: Tensor) -> Tensor:
        return x.sinh()


class Asinh(SmoothUnary):
    """z = asinh x. dz/dx = 1/sqrt(x^2 + 1)."""

    backward_name = "AsinhBackward0"
    numpy_function = staticmethod(np.arcsinh)

    @staticmethod
    def derivative(x: Tensor) -> Tensor:
        return 1 / (x * x + 1).sqrt()


class Acosh(SmoothUnary):
    """z = acosh x. dz/dx = 1/sqrt(x^2 - 1)."""

    backward_name = "AcoshBackward0"
    numpy_function = staticmethod(np.arccosh)

    @staticmethod
    def derivative(x: Tensor) -> Tensor:
        return 1 / (x * x - 1).sqrt()


class Atanh(SmoothUnary):
    """z = atanh x. dz/dx = 1/(1 - x^2)."""

    backward_name = "AtanhBackward0"
    numpy_function = staticmethod(np.arctanh)

    @staticmethod
    def derivative(x: Tensor) -> Tensor:
        return 1 / (1 - x * x)


tan, asin, acos, atan, sinh, cosh, asinh, acosh, atanh = (one_input(op) for op in (Tan, Asin, Acos, Atan, Sinh, Cosh, Asinh, Acosh, Atanh))
arcsin, arccos, arctan, arcsinh, arccosh, arctanh = asin, acos, atan, asinh, acosh, atanh


class Atan2(Function):
    """z = atan2(y, x), the angle of the point (x, y). dz/dy = x/(x^2 + y^2), dz/dx = -y/(x^2 + y^2)
    (0 at the origin, where the angle jumps), each summed back to its input's shape."""

    backward_name = "Atan2Backward0"

    @staticmethod
    def forward(ctx: FunctionCtx, y: Tensor, x: Tensor) -> Tensor:
        ctx.save_for_backward(y, x)
        dt = result_type(y, x)
        if not dt.is_floating_point:  # integers and bools: the default float, as torch
            dt = get_default_dtype()
        return binary(np.arctan2, y, x, dt)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        y, x = ctx.saved_tensors
        squared_radius = x * x + y * y
        with np.errstate(divide="ignore", invalid="ignore"):
            scale = (grad / squared_radius).where(squared_radius != 0, 0.0)  # at the origin: 0, as torch
        return sum_to_shape(scale * x, y.shape), sum_to_shape(scale * -y, x.shape)


def atan2(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002 - torch's argument name
    """Both arguments must be tensors (torch takes no Python number here); they broadcast."""
    require_tensors("atan2", ("input", input), ("other", other))
    return Atan2.apply(input, other)


arctan2 = atan2
