"""``tensorlab.functional``: what ``import torch.functional as F`` gives, for old course code.

torch.functional is a module of torch's, not a namespace of its own: every name in it is also a
``torch.<name>`` function (``torch.functional.einsum is torch.einsum``), and the same holds here.
Most code should simply call ``torch.einsum`` — this module exists so that scripts which import it
run unchanged. (Not to be confused with ``torch.nn.functional``, the layers as functions.)

Left out, as tensorlab has no such op yet: ``stft``/``istft`` (signal processing), ``lu`` (use
``linalg``'s solve/det instead), ``pca_lowrank``/``svd_lowrank`` (randomised algorithms),
``chain_matmul`` (deprecated in torch: use ``@``).
"""

from __future__ import annotations

# The namespace's own functions (wrapped for function modes at import: tensorlab/overrides.py).
from . import (
    atleast_1d,
    atleast_2d,
    atleast_3d,
    block_diag,
    broadcast_shapes,
    broadcast_tensors,
    cartesian_prod,
    cdist,
    einsum,
    meshgrid,
    norm,
    split,
    tensordot,
    unique,
    unique_consecutive,
    unravel_index,
)

__all__ = [
    "atleast_1d", "atleast_2d", "atleast_3d", "block_diag", "broadcast_shapes", "broadcast_tensors", "cartesian_prod",
    "cdist", "einsum", "meshgrid", "norm", "split", "tensordot", "unique", "unique_consecutive", "unravel_index",
]
# torch.functional's names that tensorlab leaves out, and why (tests/test_functional_module.py reads this)
LEFT_OUT = {
    "stft": "signal processing, outside the course",
    "istft": "signal processing, outside the course",
    "lu": "LU factors: use linalg.solve / linalg.det, which factor internally",
    "pca_lowrank": "randomised low-rank algorithm, outside the course",
    "svd_lowrank": "randomised low-rank algorithm, outside the course",
    "chain_matmul": "deprecated in torch: write a @ b @ c",
}
