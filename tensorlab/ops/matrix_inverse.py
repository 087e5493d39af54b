"""Determinants, inverses and linear solves: ``det``, ``slogdet``, ``inv``, ``solve``.

Each forward is one LAPACK call through ``np.linalg`` (an LU factorisation underneath), on the
last two dims, batched over the others. The backward rules are short because the inverse is:

- inv:   Z = A^-1,        dA = -Z^T g Z^T
- solve: X = A^-1 B,      dB = A^-T g,  dA = -dB X^T  (one more solve, never an explicit inverse)
- det:   z = det A,       dA = g * adj(A)^T (the cofactor matrix), which is det(A) A^-T when A is
  invertible. The cofactors are computed from the SVD, so a singular A gets a gradient too.
- slogdet: log|det A| has dA = g A^-T; the sign is piecewise constant (no gradient).

A singular matrix makes inv and solve raise ``LinAlgError`` (a RuntimeError), as in torch.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._tensor import Tensor, require_tensors
from ..autograd.function import Function, FunctionCtx
from .broadcasting import sum_to_shape
from .linalg_checks import _LinAlgError, require_float_matrices

__all__ = ["det", "inverse", "logdet", "slogdet"]


class Det(Function):
    """z = det A. dA = g * cofactor(A), with cofactor(A) = det(A) A^-T for an invertible A."""

    backward_name = "LinalgDetBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, a: Tensor) -> Tensor:
        ctx.save_for_backward(a)
        return Tensor._from_array(np.asarray(np.linalg.det(a._data)), a.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> Tensor:
        (a,) = ctx.saved_tensors
        return grad.unsqueeze(-1).unsqueeze(-1) * Tensor._from_array(_cofactors(a._data), a.dtype)


def _cofactors(a: np.ndarray) -> np.ndarray:
    """The matrix of cofactors, d det(A)/dA, without dividing by det(A) (so it exists when A is singular).

    With A = U S Vh: cofactor(A) = det(U) det(Vh) U diag(prod of the other singular values) Vh.
    """
    if a.shape[-1] == 0:
        return np.zeros_like(a)
    u, s, vh = np.linalg.svd(a)
    others = np.stack([np.prod(np.delete(s, i, axis=-1), axis=-1) for i in range(s.shape[-1])], axis=-1)
    signs = np.linalg.det(u) * np.linalg.det(vh)
    return (signs[..., None, None] * (u * others[..., None, :]) @ vh).astype(a.dtype)


def det(A: Tensor) -> Tensor:  # noqa: N803 - torch's argument name
    require_tensors("linalg_det", ("A", A))
    require_float_matrices("det", A, square=True)
    return Det.apply(A)


class linalg_slogdet(NamedTuple):  # noqa: N801 - torch.return_types.linalg_slogdet
    sign: Tensor
    logabsdet: Tensor


class Slogdet(Function):
    """(sign, log|det A|). d log|det A| / dA = A^-T; the sign has no gradient."""

    backward_name = "LinalgSlogdetBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, a: Tensor) -> tuple[Tensor, Tensor]:
        ctx.save_for_backward(a)
        sign, logabsdet = np.linalg.slogdet(a._data)
        return Tensor._from_array(np.asarray(sign), a.dtype), Tensor._from_array(np.asarray(logabsdet), a.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad_sign: Tensor | None, grad_logabsdet: Tensor | None) -> Tensor | None:
        (a,) = ctx.saved_tensors
        if grad_logabsdet is None:
            return None
        return grad_logabsdet.unsqueeze(-1).unsqueeze(-1) * inv(a).mT


def slogdet(A: Tensor) -> linalg_slogdet:  # noqa: N803
    """sign and log of |det A|: the log stays finite where det itself would overflow or underflow."""
    require_tensors("linalg_slogdet", ("A", A))
    require_float_matrices("slogdet", A, square=True)
    sign, logabsdet = Slogdet.apply(A)
    return linalg_slogdet(sign, logabsdet)


def logdet(input: Tensor) -> Tensor:  # noqa: A002
    """log det A: nan where det A < 0 (the log of a negative number), -inf where it is 0."""
    sign, logabsdet = slogdet(input)
    return logabsdet.where(sign >= 0, float("nan"))


class Inv(Function):
    """Z = A^-1. dA = -Z^T g Z^T (the output is what backward keeps)."""

    backward_name = "LinalgInvExBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, a: Tensor) -> Tensor:
        try:
            z = Tensor._from_array(np.linalg.inv(a._data), a.dtype)
        except np.linalg.LinAlgError:
            raise _LinAlgError(
                "linalg.inv: The diagonal element of U is zero, the inversion could not be completed because the "
                "input matrix is singular."
            ) from None
        ctx.save_for_backward(z)
        return z

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> Tensor:
        (z,) = ctx.saved_tensors
        return -(z.mT @ grad @ z.mT)


def inv(A: Tensor) -> Tensor:  # noqa: N803
    require_tensors("linalg_inv", ("A", A))
    require_float_matrices("inv", A, square=True)
    return Inv.apply(A)


inverse = inv


class Solve(Function):
    """X = A^-1 B (B a matrix, or a vector). dB = A^-T g, dA = -dB X^T."""

    backward_name = "LinalgSolveExBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, a: Tensor, b: Tensor, vector: bool) -> Tensor:
        b_matrix = b._data[..., None] if vector else b._data
        try:
            x = np.linalg.solve(a._data, b_matrix)
        except np.linalg.LinAlgError:
            raise _LinAlgError("torch.linalg.solve: The solver failed because the input matrix is singular.") from None
        result = Tensor._from_array(x[..., 0] if vector else x, a.dtype)
        ctx.vector, ctx.b_shape = vector, b._data.shape
        ctx.save_for_backward(a, result)
        return result

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        a, x = ctx.saved_tensors
        grad_b = Solve.apply(a.mT, grad, ctx.vector)  # with the batch dims a and b broadcast to
        grad_a = None
        if ctx.needs_input_grad[0]:
            grad_a = -(grad_b.unsqueeze(-1) @ x.unsqueeze(-2)) if ctx.vector else -(grad_b @ x.mT)
            grad_a = sum_to_shape(grad_a, a.shape)
        return grad_a, sum_to_shape(grad_b, ctx.b_shape), None


def solve(A: Tensor, B: Tensor, *, left: bool = True) -> Tensor:  # noqa: N803
    """X with A X = B. B is a batch of vectors when it has one dim less than A and matches A's batch."""
    require_tensors("linalg_solve", ("A", A), ("B", B))
    require_float_matrices("solve", A, square=True)
    if not left:
        raise NotImplementedError("tensorlab: linalg.solve(left=False) is not implemented; solve A^T X^T = B^T instead")
    if A.dtype is not B.dtype:
        raise RuntimeError(
            "linalg.solve: Expected A and B to have the same dtype, but found A of type "
            f"{A.dtype.scalar_type} and B of type {B.dtype.scalar_type} instead"
        )
    vector = B.ndim == 1 or (B.ndim == A.ndim - 1 and tuple(B.shape) == tuple(A.shape[:-1]))
    rows = B.shape[-1] if vector else B.shape[-2]
    if rows != A.shape[-1]:
        columns = 1 if vector else B.shape[-1]
        raise RuntimeError(
            f"linalg.solve: Incompatible shapes of A and B for the equation AX = B "
            f"({A.shape[-2]}x{A.shape[-1]} and {rows}x{columns})"
        )
    return Solve.apply(A, B, vector)
