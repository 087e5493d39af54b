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
from .promotion import binary
from .smooth_unary import smooth_unary
from .unary_math import one_input

__all__ = [
    "acos", "acosh", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctan2", "arctanh",
    "asin", "asinh", "atan", "atan2", "atanh", "cosh", "sinh", "tan",
]

Tan = smooth_unary("tan", np.tan, lambda z: 1 + z * z, "z = tan x. dz/dx = 1 + tan^2 x = 1 + z^2",
                    from_output=True)
Asin = smooth_unary("asin", np.arcsin, lambda x: 1 / (1 - x * x).sqrt(), "z = asin x. dz/dx = 1/sqrt(1 - x^2)")
Acos = smooth_unary("acos", np.arccos, lambda x: -1 / (1 - x * x).sqrt(), "z = acos x. dz/dx = -1/sqrt(1 - x^2)")
Atan = smooth_unary("atan", np.arctan, lambda x: 1 / (x * x + 1), "z = atan x. dz/dx = 1/(1 + x^2)")
Sinh = smooth_unary("sinh", np.sinh, lambda x: x.cosh(), "z = sinh x. dz/dx = cosh x")
Cosh = smooth_unary("cosh", np.cosh, lambda x: x.sinh(), "z = cosh x. dz/dx = sinh x")
Asinh = smooth_unary("asinh", np.arcsinh, lambda x: 1 / (x * x + 1).sqrt(), "z = asinh x. dz/dx = 1/sqrt(x^2 + 1)")
Acosh = smooth_unary("acosh", np.arccosh, lambda x: 1 / (x * x - 1).sqrt(), "z = acosh x. dz/dx = 1/sqrt(x^2 - 1)")
Atanh = smooth_unary("atanh", np.arctanh, lambda x: 1 / (1 - x * x), "z = atanh x. dz/dx = 1/(1 - x^2)")
tan, asin, acos, atan, sinh, cosh, asinh, acosh, atanh = (one_input(op) for op in (Tan, Asin, Acos, Atan, Sinh, Cosh, Asinh, Acosh, Atanh))
arcsin, arccos, arctan, arcsinh, arccosh, arctanh = asin, acos, atan, asinh, acosh, atanh


class Atan2(Function):
    """z = atan2(y, x), the angle of the point (x, y). dz/dy = x/(x^2 + y^2), dz/dx = -y/(x^2 + y^2)
    (0 at the origin, where the angle jumps)."""

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
        return scale * x, scale * -y


def atan2(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002 - torch's argument name
    """Both arguments must be tensors (torch takes no Python number here); they broadcast."""
    require_tensors("atan2", ("input", input), ("other", other))
    return Atan2.apply(input, other)


arctan2 = atan2
