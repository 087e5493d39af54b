"""The argument checks every ``linalg`` function makes first, with torch's messages.

Decompositions and inverses work on (batches of) matrices of floating point numbers: the last
two dims are the matrix, the others a batch. These checks are shared so that each op module
reads as its maths.
"""

from __future__ import annotations

from .._dtype import float16
from .._tensor import Tensor
from .promotion import _not_implemented_for


class _LinAlgError(RuntimeError):
    """torch.linalg.LinAlgError: the matrix has no inverse or the algorithm did not converge.

    A RuntimeError, so ``except RuntimeError`` still catches it (torch's class is named so too).
    """


def require_float_matrices(name: str, x: Tensor, square: bool = False) -> None:
    """``x`` must be a float tensor of at least 2 dims (square matrices when ``square``)."""
    if x.ndim < 2:
        raise RuntimeError(f"linalg.{name}: The input tensor A must have at least 2 dimensions.")
    if square and x.shape[-1] != x.shape[-2]:
        raise RuntimeError(
            f"linalg.{name}: A must be batches of square matrices, but they are {x.shape[-2]} by {x.shape[-1]} matrices"
        )
    if not x.dtype.is_floating_point:
        raise RuntimeError(f"linalg.{name}: Expected a floating point or complex tensor as input. Got {x.dtype.scalar_type}")
    if x.dtype is float16:  # LAPACK has no half precision kernels, so torch's CPU build has none either
        raise _not_implemented_for(f"linalg_{name}_cpu", float16)
