"""More exponentials and logarithms: log1p, expm1, log2, log10, exp2.

log1p(x) = log(1 + x) and expm1(x) = e^x - 1 exist because the obvious formula loses every
digit for small x: in float32, 1 + 1e-8 is exactly 1, so log(1 + 1e-8) is 0, while log1p(1e-8)
is 1e-8. Base-2 and base-10 versions only scale by a constant (log2 x = ln x / ln 2), which is
what their derivatives show.
"""

from __future__ import annotations

import math

import numpy as np

from .smooth_unary import smooth_unary
from .unary_math import one_input

__all__ = ["exp2", "expm1", "log10", "log1p", "log2"]

Log1p = smooth_unary("log1p", np.log1p, lambda x: 1 / (x + 1), "z = log(1 + x), exact for small x. dz/dx = 1/(1 + x)",
                     node_name="Log1PBackward0")
Expm1 = smooth_unary("expm1", np.expm1, lambda z: z + 1, "z = e^x - 1, exact for small x. dz/dx = e^x = z + 1",
                     from_output=True)
Log2 = smooth_unary("log2", np.log2, lambda x: 1 / (x * math.log(2)), "z = log2 x. dz/dx = 1/(x ln 2)")
Log10 = smooth_unary("log10", np.log10, lambda x: 1 / (x * math.log(10)), "z = log10 x. dz/dx = 1/(x ln 10)")
Exp2 = smooth_unary("exp2", np.exp2, lambda z: z * math.log(2), "z = 2^x. dz/dx = 2^x ln 2 = z ln 2", from_output=True)
log1p, expm1, log2, log10, exp2 = (one_input(op) for op in (Log1p, Expm1, Log2, Log10, Exp2))
