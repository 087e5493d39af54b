"""Matrix-product gradients laid out like their operands, so that they can be stolen.

The plain rule, ``dX = grad @ Y^T`` and ``dY = X^T @ grad``, always gives row-major results.
For a column-major operand (``weight.t()`` in a linear layer) torch computes the transposed
product and transposes the result back (``(Y grad^T)^T`` is ``grad Y^T``): the gradient of
``weight.t()`` is then column-major, so after ``t()``'s backward the weight's gradient is
row-major like the weight — ready to become ``.grad`` without a copy (see ``grad_stealing``).
The values are the same; only the memory order differs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .._tensor import Tensor


def _is_column_major(m: Tensor) -> bool:
    """Stored column after column, as ``weight.t()`` is in a linear layer."""
    strides = m.stride()
    return strides[0] == 1 and strides[1] == m.shape[0]


def mm_grads(needs_input_grad: Sequence[bool], grad: Tensor, x: Tensor, y: Tensor, product: Callable) -> tuple[Tensor | None, Tensor | None]:
    """dX and dY of Z = X Y for matrices, each laid out like its operand; ``product`` is mm
    without its argument checks (the shapes and dtypes are right by construction)."""
    dx = dy = None
    if needs_input_grad[-2]:
        dx = product(y, grad.mT).mT if _is_column_major(x) else product(grad, y.mT)
    if needs_input_grad[-1]:
        dy = product(grad.mT, x).mT if _is_column_major(y) else product(x.mT, grad)
    return dx, dy
