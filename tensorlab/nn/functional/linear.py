"""linear: y = x W^T + b, the function behind nn.Linear."""

from __future__ import annotations

from ..._tensor import Tensor
from ...ops.linalg import addmm

__all__ = ["linear"]


def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:  # noqa: A002
    """y = x W^T + b: ``weight`` is (out_features, in_features), as nn.Linear stores it.

    A batch of vectors with a bias is one fused ``addmm`` (grad_fn AddmmBackward0, as in torch);
    other shapes are a matmul and an add.
    """
    if input.ndim == 2 and bias is not None and bias.ndim == 1:
        return addmm(bias, input, weight.t())
    output = input.matmul(weight.t())
    return output + bias if bias is not None else output
