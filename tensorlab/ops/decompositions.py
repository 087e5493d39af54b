"""Matrix decompositions: ``svd``, ``svdvals`` and ``qr`` (torch.linalg's), and the older ``torch.svd``.

- SVD: A = U diag(S) Vh, U and Vh with orthonormal columns/rows, S >= 0 in descending order.
  Each singular vector is only defined up to its sign (u, v and -u, -v give the same product),
  so two libraries may differ there; U diag(S) Vh and S itself are what to compare.
- QR: A = Q R, Q with orthonormal columns, R upper triangular (again up to signs).

``torch.svd`` is the pre-``linalg`` version: it returns V (not Vh) and its ``some=True`` means
the reduced decomposition. Gradients (torch's formulas, :func:`svd_backward` and
:func:`qr_backward`): short for the singular values alone, dA = U diag(g) Vh; longer through U,
Vh, Q and R.
"""

from __future__ import annotations

import warnings
from typing import NamedTuple

import numpy as np

from .._tensor import Tensor, require_tensors
from ..autograd.function import Function, FunctionCtx
from .join import cat
from .linalg_checks import require_float_matrices
from .matrix_inverse import solve

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


class Svd(Function):
    """U, S, Vh with A = U diag(S) Vh; backward: :func:`svd_backward`."""

    backward_name = "LinalgSvdBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, a: Tensor, full_matrices: bool) -> tuple[Tensor, Tensor, Tensor]:
        u, s, vh = np.linalg.svd(a._data, full_matrices=full_matrices)
        outputs = tuple(Tensor._from_array(np.ascontiguousarray(m), a.dtype) for m in (u, s, vh))
        ctx.set_materialize_grads(False)  # an unused output sends None: its terms are skipped
        ctx.save_for_backward(*outputs)
        return outputs  # type: ignore[return-value]

    @staticmethod
    def backward(ctx: FunctionCtx, grad_u: Tensor | None, grad_s: Tensor | None, grad_vh: Tensor | None) -> tuple:
        u, s, vh = ctx.saved_tensors
        k = s.shape[-1]  # full_matrices: only the first k columns of U (rows of Vh) are determined by A
        u, vh = u[..., :k], vh[..., :k, :]
        grad_u = None if grad_u is None else grad_u[..., :k]
        grad_vh = None if grad_vh is None else grad_vh[..., :k, :]
        return svd_backward(grad_u, grad_s, grad_vh, u, s, vh), None


def svd_backward(gu: Tensor | None, gs: Tensor | None, gvh: Tensor | None, u: Tensor, s: Tensor, vh: Tensor) -> Tensor:
    """dA for A = U diag(S) Vh (reduced, real), torch's formula written with tensor ops.

    In the basis of the singular vectors the gradient splits in three: ``diag(gS)`` from the
    singular values; the rotations of U and V among themselves, ``skew(U^T gU) / E`` and the like,
    where E_ij = s_j^2 - s_i^2 — which blows up when two singular values are (nearly) equal, as it
    does in torch; and, for a non-square A, the part of gU (or gV) outside the span of U (or V).
    The loss must not depend on the signs of the singular vectors, or no gradient is meaningful.
    """
    m, n, k = u.shape[-2], vh.shape[-1], s.shape[-1]
    if gu is None and gvh is None:  # only the singular values are used: dA = U diag(gS) Vh
        return (u * gs.unsqueeze(-2)) @ vh if gs is not None else u @ vh * 0
    eye = Tensor._from_array(np.eye(k, dtype=s.dtype.numpy), s.dtype)
    squared = s * s
    e = squared.unsqueeze(-2) - squared.unsqueeze(-1) + eye  # 1 on the diagonal: no division by 0 there
    rotation = None
    if gu is not None:
        uhgu = u.mT @ gu
        rotation = (uhgu - uhgu.mT) * s.unsqueeze(-2) / e
    if gvh is not None:
        vhgv = vh @ gvh.mT
        term = s.unsqueeze(-1) * (vhgv - vhgv.mT) / e
        rotation = term if rotation is None else rotation + term
    assert rotation is not None
    core = rotation + gs.unsqueeze(-1) * eye if gs is not None else rotation
    if m > n and gu is not None:  # gU's part outside span(U): (I - U U^T) gU S^-1
        scaled = gu / s.unsqueeze(-2)
        return (u @ core + scaled - u @ (u.mT @ scaled)) @ vh
    if m < n and gvh is not None:  # gV's part outside span(V): S^-1 gVh (I - V V^T)
        scaled = gvh / s.unsqueeze(-1)
        return u @ (core @ vh + scaled - (scaled @ vh.mT) @ vh)
    return u @ core @ vh


def linalg_svd_function(A: Tensor, full_matrices: bool = True, *, driver: str | None = None) -> linalg_svd:  # noqa: N803
    """``torch.linalg.svd``: (U, S, Vh); ``full_matrices=False`` gives the reduced U and Vh."""
    require_tensors("linalg_svd", ("A", A))
    require_float_matrices("svd", A)
    return linalg_svd(*Svd.apply(A, full_matrices))


def svdvals(A: Tensor, *, driver: str | None = None) -> Tensor:  # noqa: N803
    """The singular values alone (descending): unlike U and Vh they are unique, so any loss of them has
    a meaningful gradient, U diag(g) Vh (U and Vh are computed for it, and for double backward)."""
    require_tensors("linalg_svdvals", ("A", A))
    require_float_matrices("svd", A)
    return Svd.apply(A, False)[1]


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
    """Q, R with A = Q R; backward: :func:`qr_backward` (``mode='complete'`` of a tall A has none, as in torch)."""

    backward_name = "LinalgQrBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, a: Tensor, mode: str) -> tuple[Tensor, Tensor]:
        q, r = np.linalg.qr(a._data, mode="complete" if mode == "complete" else "reduced")
        ctx.set_materialize_grads(False)
        ctx.mode = mode
        q_tensor, r_tensor = Tensor._from_array(np.ascontiguousarray(q), a.dtype), Tensor._from_array(np.ascontiguousarray(r), a.dtype)
        ctx.save_for_backward(q_tensor, r_tensor)
        if mode == "r":  # R alone: Q comes back empty
            return Tensor._from_array(np.zeros((0,), dtype=a.dtype.numpy), a.dtype), r_tensor
        return q_tensor, r_tensor

    @staticmethod
    def backward(ctx: FunctionCtx, grad_q: Tensor | None, grad_r: Tensor | None) -> tuple:
        q, r = ctx.saved_tensors
        m, n = q.shape[-2], r.shape[-1]
        if ctx.mode == "r":
            raise RuntimeError(
                "The derivative of linalg.qr depends on Q, which is not computed when mode='r'. "
                "Please use linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr."
            )
        if ctx.mode == "complete" and m > n:
            raise RuntimeError("The QR decomposition is not differentiable when mode='complete' and nrows > ncols.")
        if m < n:  # a wide A = [X Y] = Q [R1 R2]: Q R1 is the QR of the square X, and R2 = Q^T Y
            r1, r2 = r[..., :m], r[..., m:]
            grad_r2 = r2 * 0 if grad_r is None else grad_r[..., m:]
            y = q @ r2
            grad_q_total = y @ grad_r2.mT if grad_q is None else grad_q + y @ grad_r2.mT  # R2 moves with Q too
            grad_x = qr_backward(grad_q_total, None if grad_r is None else grad_r[..., :m], q, r1)
            return cat([grad_x, q @ grad_r2], -1), None
        return qr_backward(grad_q, grad_r, q, r), None


def qr_backward(gq: Tensor | None, gr: Tensor | None, q: Tensor, r: Tensor) -> Tensor:
    """dA for A = Q R with A tall or square (R invertible), written with tensor ops:
    M = Q^T gQ - (Q^T gQ)^T + R gR^T - (R gR^T)^T;  dA = Q (gR + tril(M) R^-T) + (gQ - Q Q^T gQ) R^-T.
    """
    gq = q * 0 if gq is None else gq
    gr = r * 0 if gr is None else gr
    qtgq = q.mT @ gq
    rgrt = r @ gr.mT
    m = qtgq - qtgq.mT + rgrt - rgrt.mT
    times_r_inverse_t = lambda x: solve(r, x.mT).mT  # noqa: E731 - x R^-T, without forming the inverse
    return q @ (gr + times_r_inverse_t(m.tril())) + times_r_inverse_t(gq - q @ qtgq)


def qr(A: Tensor, mode: str = "reduced") -> linalg_qr:  # noqa: N803
    """``torch.linalg.qr``: mode 'reduced' (Q: m x k), 'complete' (Q: m x m) or 'r' (R only; Q empty)."""
    require_tensors("linalg_qr", ("A", A))
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), 'r', or 'complete'")
    require_float_matrices("qr", A)
    return linalg_qr(*Qr.apply(A, mode))


class qr_result(NamedTuple):  # noqa: N801 - torch.return_types.qr
    Q: Tensor
    R: Tensor


def torch_qr(input: Tensor, some: bool = True) -> qr_result:  # noqa: A002
    """``torch.qr``, deprecated in torch (with this warning) for ``linalg.qr(A, mode)``."""
    warnings.warn(
        "torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future PyTorch release.\n"
        "The boolean parameter 'some' has been replaced with a string parameter 'mode'.\nQ, R = torch.qr(A, some)\n"
        "should be replaced with\nQ, R = torch.linalg.qr(A, 'reduced' if some else 'complete')",
        UserWarning,
        stacklevel=2,
    )
    return qr_result(*qr(input, "reduced" if some else "complete"))
