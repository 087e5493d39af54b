"""``tensorlab.linalg`` (norm, vector_norm, matrix_norm, svd, svdvals, qr, det, slogdet, inv, solve,
cross, diagonal) and ``torch.svd`` / ``det`` / ``inverse`` / ``logdet`` / ``slogdet`` against torch.

Singular vectors and QR factors are defined only up to signs, so those are compared after fixing
the signs the same way in both libraries (each column's largest entry positive, R's diagonal
positive) — which also makes the losses whose gradients are compared independent of the signs,
as a loss through U or Q must be for its gradient to mean anything.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import tensorlab as tl
from tests.oracle import check_op, pair


def matrices(shape: tuple, seed: int = 0, dtype: str = "float64") -> np.ndarray:
    """Well-conditioned random matrices (a multiple of the identity added when square)."""
    a = np.random.default_rng(seed).standard_normal(shape)
    if shape[-1] == shape[-2]:
        a = a + 3 * np.eye(shape[-1])
    return a.astype(dtype)


SQUARE_SHAPES = [(1, 1), (3, 3), (2, 4, 4), (2, 1, 2, 2)]
SHAPES = [*SQUARE_SHAPES, (3, 2), (2, 5), (2, 3, 4)]


# --- determinants, inverses, solves ----------------------------------------------------------
@pytest.mark.parametrize("shape", SQUARE_SHAPES)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_det_inv_slogdet_logdet(shape: tuple, dtype: str) -> None:
    a = matrices(shape, dtype=dtype)
    tolerance = {"rtol": 1e-4, "atol": 1e-5} if dtype == "float32" else {}
    check_op(lambda lib, x: lib.linalg.det(x), a, **tolerance)
    check_op(lambda lib, x: lib.det(x), a, **tolerance)
    check_op(lambda lib, x: x.det(), -a, **tolerance)
    check_op(lambda lib, x: lib.linalg.inv(x), a, **tolerance)
    check_op(lambda lib, x: x.inverse(), a, **tolerance)
    check_op(lambda lib, x: lib.linalg.slogdet(x), -a, **tolerance)
    check_op(lambda lib, x: lib.linalg.slogdet(x).logabsdet, a, **tolerance)
    check_op(lambda lib, x: lib.slogdet(x), a, **tolerance)
    check_op(lambda lib, x: lib.logdet(x), a, **tolerance)


def test_det_of_singular_and_empty_matrices() -> None:
    singular = np.array([[1.0, 2.0], [2.0, 4.0]])
    check_op(lambda lib, x: lib.linalg.det(x), singular, grad=False)
    check_op(lambda lib, x: lib.linalg.det(x), np.zeros((3, 3)))
    # rank 2: whether LAPACK's det comes out exactly 0 (torch's gradient then 0) depends on the CPU's
    # kernels, so the gradient is compared with torch's at a nearby matrix in the test below
    check_op(lambda lib, x: lib.linalg.det(x), np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.0, 1.0, 5.0]]), grad=False)
    check_op(lambda lib, x: lib.linalg.det(x), np.zeros((0, 0)))
    check_op(lambda lib, x: lib.linalg.inv(x), np.zeros((2, 0, 0)))
    check_op(lambda lib, x: lib.linalg.slogdet(x), singular, grad=False)
    check_op(lambda lib, x: lib.logdet(x), -np.eye(3) * np.array([1.0, 1.0, -1.0]) * -1, grad=False)


def test_det_gradient_of_an_exactly_singular_matrix_is_its_cofactor_matrix() -> None:
    """A documented difference: torch returns 0 when its LU hits an exact zero pivot; tensorlab returns
    the true derivative, which is the limit of torch's own gradient at nearby invertible matrices."""
    for singular in (np.array([[1.0, 2.0], [2.0, 4.0]]), np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.0, 1.0, 5.0]])):
        nearby = singular.copy()
        nearby[1, 1] += 1e-9
        nearby_t, _ = pair(nearby, requires_grad=True)
        torch.linalg.det(nearby_t).backward()
        _, singular_m = pair(singular, requires_grad=True)
        tl.linalg.det(singular_m).backward()
        np.testing.assert_allclose(singular_m.grad.numpy(), nearby_t.grad.numpy(), atol=1e-6)


@pytest.mark.parametrize("a_shape,b_shape", [((3, 3), (3,)), ((3, 3), (3, 2)), ((2, 3, 3), (3,)), ((2, 3, 3), (2, 3)),
                                             ((2, 3, 3), (3, 4)), ((2, 3, 3), (1, 3, 4)), ((1, 1), (1, 1))])
def test_solve(a_shape: tuple, b_shape: tuple) -> None:
    a, b = matrices(a_shape, 1), np.random.default_rng(2).standard_normal(b_shape)
    check_op(lambda lib, x, y: lib.linalg.solve(x, y), a, b)
    check_op(lambda lib, x, y: lib.linalg.solve(x, y), a, b, grad=[False, True])


@pytest.mark.parametrize("call", [
    lambda lib: lib.linalg.det(lib.ones(2, 3)),
    lambda lib: lib.linalg.det(lib.ones(2)),
    lambda lib: lib.linalg.det(lib.ones(2, 2, dtype=lib.int64)),
    lambda lib: lib.linalg.det(lib.ones(2, 2, dtype=lib.float16)),
    lambda lib: lib.linalg.inv(lib.zeros(2, 2)),                          # singular: LinAlgError
    lambda lib: lib.linalg.inv(lib.ones(2, 3)),
    lambda lib: lib.inverse(lib.ones(2, 2, dtype=lib.int64)),
    lambda lib: lib.linalg.slogdet(lib.ones(2, 3)),
    lambda lib: lib.linalg.solve(lib.zeros(2, 2), lib.ones(2)),           # singular
    lambda lib: lib.linalg.solve(lib.eye(2), lib.ones(3)),
    lambda lib: lib.linalg.solve(lib.eye(3), lib.ones(2, 3)),
    lambda lib: lib.linalg.solve(lib.eye(2), lib.ones(2, dtype=lib.float64)),
    lambda lib: lib.linalg.solve(lib.ones(2), lib.ones(2)),
    lambda lib: lib.linalg.svd(lib.ones(2, 2, dtype=lib.int64)),
    lambda lib: lib.linalg.svd(lib.ones(2)),
    lambda lib: lib.linalg.qr(lib.ones(2, 2, dtype=lib.int64)),
    lambda lib: lib.linalg.qr(lib.ones(2, 2), mode="x"),
    lambda lib: lib.linalg.det([[1.0]]),
])
def test_errors_match_torch(call) -> None:
    check_op(lambda lib, _: call(lib), np.zeros(1), grad=False)


def test_linalg_error_is_a_runtime_error_named_as_torch() -> None:
    assert issubclass(tl.linalg.LinAlgError, RuntimeError)
    assert tl.linalg.LinAlgError.__name__ == torch.linalg.LinAlgError.__name__
    with pytest.raises(tl.linalg.LinAlgError, match="singular"):
        tl.linalg.inv(tl.zeros(3, 3))


# --- decompositions ----------------------------------------------------------------------------
def fixed_signs(lib, u, vh=None):
    """Flip each singular vector pair so that u's largest-magnitude entry is positive."""
    index = u.abs().argmax(dim=-2, keepdim=True)
    signs = u.gather(-2, index).sign()
    signs = lib.where(signs == 0, lib.ones_like(signs), signs)
    if vh is None:
        return u * signs
    return u * signs, vh * signs.mT[..., : vh.shape[-2], :]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("full_matrices", [True, False])
def test_svd(shape: tuple, full_matrices: bool) -> None:
    a = matrices(shape, 3)
    k = min(shape[-2:])

    def decomposed(lib, x):
        u, s, vh = lib.linalg.svd(x, full_matrices=full_matrices)
        u_k, vh_k = fixed_signs(lib, u[..., :k], vh[..., :k, :])
        return s, u_k, vh_k, (u[..., :k] * s.unsqueeze(-2)) @ vh[..., :k, :], u.shape, vh.shape

    check_op(decomposed, a)
    check_op(lambda lib, x: fixed_signs(lib, lib.linalg.svd(x, full_matrices=full_matrices).U[..., :k]), a)  # U alone
    check_op(lambda lib, x: lib.linalg.svd(x, full_matrices=full_matrices).S, a)  # S alone
    check_op(lambda lib, x: [lib.linalg.svd(x, full_matrices=full_matrices).Vh.shape], a, grad=False)  # named fields
    check_op(lambda lib, x: lib.linalg.svdvals(x), a)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("some", [True, False])
def test_torch_svd_returns_v(shape: tuple, some: bool) -> None:
    a = matrices(shape, 4, "float32")
    k = min(shape[-2:])

    def decomposed(lib, x):
        u, s, v = lib.svd(x, some=some)
        u_k, vh_k = fixed_signs(lib, u[..., :k], v.mT[..., :k, :])
        return s, u_k, vh_k, u.shape, v.shape, lib.svd(x).V.shape  # V, not Vh

    check_op(decomposed, a, rtol=1e-4, atol=1e-4)
    check_op(lambda lib, x: x.svd(compute_uv=False), a, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("mode", ["reduced", "complete", "r"])
def test_qr(shape: tuple, mode: str) -> None:
    a = matrices(shape, 5)
    k = min(shape[-2:])

    def decomposed(lib, x):
        result = lib.linalg.qr(x, mode=mode)
        q, r = result.Q, result.R
        signs = r.diagonal(dim1=-2, dim2=-1)[..., :k].sign().unsqueeze(-1)
        fixed_r = r[..., :k, :] * signs
        if mode == "r":
            return fixed_r, q.shape
        return fixed_r, q[..., :k] * signs.mT, q.shape, r.shape

    differentiable = mode != "r" and (mode == "reduced" or shape[-2] <= shape[-1])
    check_op(decomposed, a, grad=differentiable)  # the other cases: see test_qr_gradient_errors


def test_decompositions_of_empty_matrices() -> None:
    check_op(lambda lib, x: [t.shape for t in lib.linalg.svd(x)], np.zeros((0, 3)), grad=False)
    check_op(lambda lib, x: lib.linalg.svd(x, full_matrices=False), np.zeros((0, 3)), grad=False)
    check_op(lambda lib, x: lib.linalg.qr(x), np.zeros((0, 3)), grad=False)
    check_op(lambda lib, x: lib.linalg.svdvals(x), np.zeros((2, 0, 3)))


def test_qr_gradient_errors() -> None:
    """torch's errors for mode='r' and for 'complete' of a tall A."""
    check_op(lambda lib, x: lib.linalg.qr(x, mode="r").R.sum().backward(), matrices((4, 3)),
             match="not computed when mode='r'")
    check_op(lambda lib, x: lib.linalg.qr(x, mode="complete").Q.sum().backward(), matrices((4, 3)),
             match="not differentiable when mode='complete' and nrows > ncols")


def test_svd_gradient_through_the_reconstruction_and_double_backward() -> None:
    def rebuilt(lib, x):
        u, s, vh = lib.linalg.svd(x, full_matrices=False)
        return (u * s.unsqueeze(-2)) @ vh

    check_op(rebuilt, matrices((4, 3), 11))
    check_op(rebuilt, matrices((2, 3, 5), 12))

    def second_derivative(lib, x):
        (g,) = lib.autograd.grad(lib.linalg.svdvals(x).pow(3).sum(), x, create_graph=True)
        return g

    check_op(second_derivative, matrices((3, 3), 13))


# --- norms -------------------------------------------------------------------------------------
MATRIX_ORDS = ["fro", 1, -1, 2, -2, math.inf, -math.inf]


@pytest.mark.parametrize("ord_", MATRIX_ORDS)
@pytest.mark.parametrize("keepdim", [False, True])
def test_matrix_norm(ord_, keepdim: bool) -> None:
    a = matrices((2, 3, 4), 6)
    check_op(lambda lib, x: lib.linalg.matrix_norm(x, ord=ord_, keepdim=keepdim), a)
    check_op(lambda lib, x: lib.linalg.matrix_norm(x, ord_, dim=(0, 2), keepdim=keepdim), a)
    check_op(lambda lib, x: lib.linalg.matrix_norm(x, ord_, dim=(-1, -3)), a)
    check_op(lambda lib, x: lib.linalg.norm(x, ord_), a[0])
    check_op(lambda lib, x: lib.linalg.norm(x, ord_, dim=(1, 0), keepdim=keepdim), a)


@pytest.mark.parametrize("ord_", [2, 1, 0, 3.5, -1, math.inf, -math.inf])
def test_vector_norm(ord_) -> None:
    a = matrices((2, 3, 4), 7, "float32")
    check_op(lambda lib, x: lib.linalg.vector_norm(x, ord_), a)
    check_op(lambda lib, x: lib.linalg.vector_norm(x, ord_, dim=(0, 2), keepdim=True), a)
    check_op(lambda lib, x: lib.linalg.norm(x, ord_, dim=1), a)
    check_op(lambda lib, x: lib.linalg.norm(x, ord_), a[0, 0])


def test_norm_defaults_and_dtype() -> None:
    a = matrices((2, 3, 4), 8, "float32")
    check_op(lambda lib, x: lib.linalg.norm(x), a)
    check_op(lambda lib, x: lib.linalg.norm(x, dim=(0, 1)), a)
    check_op(lambda lib, x: lib.linalg.norm(x, dtype=lib.float64), a)
    check_op(lambda lib, x: lib.linalg.vector_norm(x, dtype=lib.float64), a)
    check_op(lambda lib, x: lib.linalg.matrix_norm(x, dtype=lib.float64), a)
    check_op(lambda lib, x: lib.linalg.norm(x), np.zeros((0, 3)))
    check_op(lambda lib, x: lib.linalg.norm(x), np.zeros((2, 2)))  # zero norm: gradient 0


@pytest.mark.parametrize("call", [
    lambda lib: lib.linalg.norm(lib.ones(2, 3, 4), ord=2),
    lambda lib: lib.linalg.norm(lib.ones(2, 3, 4), ord="fro"),
    lambda lib: lib.linalg.norm(lib.ones(3), ord="fro"),
    lambda lib: lib.linalg.norm(lib.ones(2, 3, 4), dim=(0, 1, 2)),
    lambda lib: lib.linalg.norm(lib.tensor([1, 2])),
    lambda lib: lib.linalg.matrix_norm(lib.ones(2, 3), ord=3),
    lambda lib: lib.linalg.matrix_norm(lib.ones(2, 3), ord="abc"),
    lambda lib: lib.linalg.matrix_norm(lib.ones(2, 3), dim=(0, 0)),
    lambda lib: lib.linalg.matrix_norm(lib.ones(2, 3), dim=0),
    lambda lib: lib.linalg.matrix_norm(lib.ones(3)),
    lambda lib: lib.linalg.matrix_norm(lib.ones(2, 2, dtype=lib.int64)),
    lambda lib: lib.linalg.vector_norm(lib.ones(3), ord="fro"),
    lambda lib: lib.linalg.vector_norm(lib.tensor([1, 2])),
])
def test_norm_errors(call) -> None:
    check_op(lambda lib, _: call(lib), np.zeros(1), grad=False)


def test_diagonal_defaults_to_the_last_two_dims() -> None:
    check_op(lambda lib, x: lib.linalg.diagonal(x), matrices((2, 3, 4), 9))
    check_op(lambda lib, x: lib.linalg.diagonal(x, offset=1, dim1=0, dim2=2), matrices((2, 3, 4), 9))


def test_namespace_has_what_the_docstring_says() -> None:
    for name in tl.linalg.__all__:
        assert hasattr(torch.linalg, name), name


@given(shape=st.tuples(st.integers(0, 2), st.integers(1, 4)).map(lambda s: (s[0], s[1], s[1])), seed=st.integers(0, 999))
def test_any_square_batch(shape: tuple, seed: int) -> None:
    a = matrices(shape, seed)
    check_op(lambda lib, x: lib.linalg.det(x), a, rtol=1e-8, atol=1e-8)
    check_op(lambda lib, x: lib.linalg.inv(x), a, rtol=1e-8, atol=1e-8)
    check_op(lambda lib, x, y: lib.linalg.solve(x, y), a, a[..., 0] if shape[0] else a[..., 0, :1], rtol=1e-8, atol=1e-8)


@given(values=hnp.arrays("float64", hnp.array_shapes(min_dims=2, max_dims=3, max_side=4),
                         elements=st.floats(-5, 5, allow_subnormal=False)),
       ord_=st.sampled_from(["fro", 1, -1, 2, math.inf]))
def test_any_matrix_norm(values: np.ndarray, ord_) -> None:
    grad = ord_ not in (2, -2) or np.linalg.matrix_rank(values).min(initial=10) == min(values.shape[-2:])
    check_op(lambda lib, x: lib.linalg.matrix_norm(x, ord_), values, grad=grad, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("some", [True, False])
def test_deprecated_torch_qr(some: bool) -> None:
    def decomposed(lib, x):
        q, r = lib.qr(x, some=some)
        signs = r.diagonal(dim1=-2, dim2=-1).sign().unsqueeze(-1)
        return r[..., :2, :] * signs, q[..., :2] * signs.mT, q.shape, x.qr().R.shape

    check_op(decomposed, matrices((3, 2), 14), grad=some)
    with pytest.warns(UserWarning, match="torch.qr is deprecated"):  # torch warns once per process: not retested
        tl.qr(tl.ones(2, 2))
