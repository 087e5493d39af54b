"""Matrix decompositions: ``svd``, ``svdvals`` and ``qr`` (torch.linalg's), and the older ``torch.svd``.

- SVD: A = U diag(S) Vh, U and Vh with orthonormal columns/rows, S >= 0 in descending order.
  Each singular vector is only defined up to its sign (u, v and -u, -v give the same product),
  so two libraries may differ there; U diag(S) Vh and S itself are what to compare.
- QR: A = Q R, Q with orthonormal columns, R upper triangular (again up to signs).

``torch.svd`` is the pre-``linalg`` version: it returns V (not Vh) and its ``some=True`` means
the reduced decomposition. Only the singular values have a gradient here (``svdvals``:
dA = U diag(g) Vh); gradients through U, Vh, Q or R are not implemented in tensorlab and raise.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._tensor import Tensor, require_tensors
from ..autograd.function import Function, FunctionCtx
from .linalg_checks import require_float_matrices

__all__ = ["svd"]


class linalg_svd(NamedTuple):  # noqa: N801 - torch.return_types.linalg_svd
    U: Tensor
    S: Tensor
    Vh: Tensor


class svd_result(NamedTuple):  # noqa: N801 - torch.return_types.svd
    U: Tensor
    S: Tensor
    V: Tensor


class linalg_qr(NamedTuple):  # noqa: N801 - torch.return_types.linalg_qr
    Q: Tensor
    R: Tensor


def _not_implemented(name: str) -> NotImplementedError:
    return NotImplementedError(
        f"tensorlab does not implement the derivative of {name}; only linalg.svdvals (and the norms "
        "built on it) has one. Its formula (torch's svd_backward) is long and unstable for repeated singular values."
    )


class Svd(Function):
    """U, S, Vh with A = U diag(S) Vh. Forward only: backward raises (see the module docstring)."""

    backward_name = "LinalgSvdBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, a: Tensor, full_matrices: bool) -> tuple[Tensor, Tensor, Tensor]:
        u, s, vh = np.linalg.svd(a._data, full_matrices=full_matrices)
        return tuple(Tensor._from_array(np.ascontiguousarray(m), a.dtype) for m in (u, s, vh))  # type: ignore[return-value]

    @staticmethod
    def backward(ctx: FunctionCtx, *grads: Tensor) -> tuple:
        raise _not_implemented("svd")


class Svdvals(Function):
    """S, the singular values. dA = U diag(g) Vh: each s_i = u_i^T A v_i moves with A along u_i v_i^T."""

    backward_name = "LinalgSvdBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, a: Tensor) -> Tensor:
        u, s, vh = np.linalg.svd(a._data, full_matrices=False)
        ctx.save_for_backward(Tensor._from_array(u, a.dtype), Tensor._from_array(vh, a.dtype))
        return Tensor._from_array(s, a.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> Tensor:
        u, vh = ctx.saved_tensors
        return (u * grad.unsqueeze(-2)) @ vh


def linalg_svd_function(A: Tensor, full_matrices: bool = True, *, driver: str | None = None) -> linalg_svd:  # noqa: N803
    """``torch.linalg.svd``: (U, S, Vh); ``full_matrices=False`` gives the reduced U and Vh."""
    require_tensors("linalg_svd", ("A", A))
    require_float_matrices("svd", A)
    return linalg_svd(*Svd.apply(A, full_matrices))


def svdvals(A: Tensor, *, driver: str | None = None) -> Tensor:  # noqa: N803
    """The singular values alone (descending); unlike U and Vh they are unique, and differentiable here."""
    require_tensors("linalg_svdvals", ("A", A))
    require_float_matrices("svd", A)
    return Svdvals.apply(A)


def svd(input: Tensor, some: bool = True, compute_uv: bool = True) -> svd_result:  # noqa: A002
    """``torch.svd``: (U, S, V) with A = U diag(S) V^T — V, not Vh. ``compute_uv=False``: U and V are zeros."""
    require_tensors("svd", ("input", input))
    require_float_matrices("svd", input)
    if not compute_uv:
        m, n = input.shape[-2], input.shape[-1]
        batch = tuple(input.shape[:-2])
        zeros_u = Tensor._from_array(np.zeros((*batch, m, m), dtype=input.dtype.numpy), input.dtype)
        zeros_v = Tensor._from_array(np.zeros((*batch, n, n), dtype=input.dtype.numpy), input.dtype)
        return svd_result(zeros_u, svdvals(input), zeros_v)
    u, s, vh = Svd.apply_as("LinalgSvdBackward0", input, not some)
    return svd_result(u, s, vh.mT)


class Qr(Function):
    """Q, R with A = Q R. Forward only: backward raises."""

    backward_name = "LinalgQrBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, a: Tensor, mode: str) -> tuple[Tensor, Tensor]:
        q, r = np.linalg.qr(a._data, mode="complete" if mode == "complete" else "reduced")
        if mode == "r":  # R alone: Q comes back empty
            return Tensor._from_array(np.zeros((0,), dtype=a.dtype.numpy), a.dtype), Tensor._from_array(np.ascontiguousarray(r), a.dtype)
        return Tensor._from_array(np.ascontiguousarray(q), a.dtype), Tensor._from_array(np.ascontiguousarray(r), a.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, *grads: Tensor) -> tuple:
        raise _not_implemented("qr")


def qr(A: Tensor, mode: str = "reduced") -> linalg_qr:  # noqa: N803
    """``torch.linalg.qr``: mode 'reduced' (Q: m x k), 'complete' (Q: m x m) or 'r' (R only; Q empty)."""
    require_tensors("linalg_qr", ("A", A))
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), 'r', or 'complete'")
    require_float_matrices("qr", A)
    return linalg_qr(*Qr.apply(A, mode))
