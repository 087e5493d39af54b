"""``tensorlab.linalg``: torch.linalg's basics — norms, decompositions, determinants, inverses, solves.

``import tensorlab as torch; torch.linalg.solve(A, b)`` works as in torch. Each function lives
in the op module of its family (``ops/matrix_norm.py``, ``ops/decompositions.py``,
``ops/matrix_inverse.py``, ``ops/cross.py``); this module only gathers torch.linalg's names.

Not here (yet): cholesky, eig/eigh/eigvals, lstsq, lu*, pinv, matrix_rank, matrix_power,
matrix_exp, multi_dot, cond, householder_product, ldl_*, tensorinv/tensorsolve, vander, vecdot,
the ``*_ex`` variants.
"""

from __future__ import annotations

from ._tensor import Tensor
from .ops.cross import linalg_cross as cross
from .ops.decompositions import linalg_svd_function as svd
from .ops.decompositions import qr, svdvals
from .ops.linalg import matmul
from .ops.linalg_checks import _LinAlgError as LinAlgError
from .ops.matrix_inverse import det, inv, slogdet, solve
from .ops.matrix_norm import matrix_norm, norm, vector_norm
from .ops.views import diagonal as _diagonal

__all__ = [
    "LinAlgError", "cross", "det", "diagonal", "inv", "matmul", "matrix_norm", "norm", "qr", "slogdet", "solve",
    "svd", "svdvals", "vector_norm",
]


def diagonal(A: Tensor, *, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:  # noqa: N803
    """``torch.diagonal`` of the last two dims by default: the diagonals of a batch of matrices."""
    return _diagonal(A, offset, dim1, dim2)
