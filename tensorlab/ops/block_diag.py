"""``block_diag``: matrices placed corner to corner on the diagonal of a bigger one, zeros elsewhere.

Each block is padded with zero columns to its left and right (as many as the blocks before and
after it have columns), then the padded rows are stacked: ``pad`` and ``cat`` already know their
gradients, so each block gets exactly its own part of the gradient back. 0-d and 1-d inputs
count as 1 x 1 and 1 x n matrices; the dtype is the promoted dtype of all blocks.
"""

from __future__ import annotations

import numpy as np

from .._dtype import get_default_dtype, result_type
from .._tensor import Tensor
from .join import cat
from .padding import pad

__all__ = ["block_diag"]


def block_diag(*tensors: Tensor) -> Tensor:
    """The blocks on the diagonal: (sum of rows) x (sum of columns), zeros off the blocks."""
    for position, t in enumerate(tensors):
        if t.ndim > 2:
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {position} has {t.ndim} dimensions")
    if not tensors:  # torch's answer: one empty row of the default float dtype
        return Tensor._from_array(np.zeros((1, 0)), get_default_dtype())
    dt = result_type(*tensors) if len(tensors) > 1 else tensors[0].dtype
    matrices = [t.reshape(1, -1) if t.ndim < 2 else t for t in tensors]
    total = sum(m.shape[1] for m in matrices)
    rows, before = [], 0
    for m in matrices:
        width = m.shape[1]
        rows.append(pad(m.to(dt), (before, total - before - width)))
        before += width
    return cat(rows, 0)
