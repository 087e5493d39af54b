"""embedding (a row lookup, nn.Embedding) and one_hot.

``embedding`` takes rows with NumPy in its own Function; its backward adds each output row's
gradient into the row it came from with ``index_add`` (repeated indices add up).
"""

from __future__ import annotations

import numpy as np

from ..._dtype import bool_, int32, int64
from ..._tensor import Tensor
from ...autograd.function import Function, FunctionCtx
from ...ops.comparison import where

__all__ = ["embedding", "one_hot"]


class Embedding(Function):
    """y[i] = weight[indices[i]]: a row lookup.

    Backward: each output row's gradient is added into the row of ``weight`` it was read from
    (rows read twice receive both gradients; ``padding_idx`` rows receive none). That is
    ``index_add``, a differentiable op, so double backward works.
    """

    backward_name = "EmbeddingBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, weight: Tensor, indices: Tensor, padding_idx: int | None) -> Tensor:
        idx = indices._data
        if idx.size and (idx.min() < 0 or idx.max() >= weight.shape[0]):
            raise IndexError("index out of range in self")
        ctx.indices, ctx.padding_idx, ctx.num_rows = idx.copy(), padding_idx, weight.shape[0]
        return Tensor._from_array(weight._data[idx], weight.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        width = grad.shape[-1]
        row_grads = grad.reshape(-1, width)
        rows = ctx.indices.reshape(-1)
        if ctx.padding_idx is not None:
            keep = Tensor._from_array((rows != ctx.padding_idx)[:, None], bool_)
            row_grads = where(keep, row_grads, 0.0)
        zeros = Tensor._from_array(np.zeros((ctx.num_rows, width), dtype=grad.dtype.numpy), grad.dtype)
        return zeros.index_add(0, Tensor._from_array(rows.astype(np.int64), int64), row_grads), None, None


def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None, max_norm: float | None = None, norm_type: float = 2.0, scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:  # noqa: A002
    if input.dtype not in (int64, int32):
        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar types: "
            f"Long, Int; but got tensorlab.{input.dtype.name.capitalize()}Tensor instead (while checking arguments for embedding)"
        )
    if padding_idx is not None and padding_idx < 0:
        padding_idx += weight.shape[0]
    return Embedding.apply(weight, input, padding_idx)


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """int64 tensor with a trailing dim of size num_classes: 1 at each value's position, else 0."""
    if tensor.dtype is not int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    values = tensor._data
    if num_classes == -1:
        if values.size == 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(values.max()) + 1
    if values.size and values.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if values.size and values.max() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    return Tensor._from_array(values[..., None] == np.arange(num_classes), int64)
