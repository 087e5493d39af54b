"""matmul, mm, bmm, dot, outer against torch: values, gradients, dtypes, and torch's exact errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import tensorlab as tl
from tests.oracle import check_op, standard_normal

seeds = st.integers(0, 2**16)

F32 = np.float32


def rand(*shape, dtype=F32, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def ints(*shape, dtype=np.int64, seed=0):
    return np.random.default_rng(seed).integers(-5, 6, shape).astype(dtype)


def matmul_op(lib, a, b):
    return a @ b


# --- fixed cases -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("a", "b"),
    [
        ((3,), (3,)),
        ((2, 3), (3,)),
        ((3,), (3, 4)),
        ((2, 3), (3, 4)),
        ((2, 2, 3), (3, 4)),
        ((2, 2, 3), (3,)),
        ((3,), (2, 3, 4)),
        ((4, 3), (2, 3, 5)),
        ((2, 2, 3), (2, 3, 4)),
        ((1, 2, 3), (5, 3, 4)),
        ((2, 1, 4, 5), (3, 5, 6)),  # the seed's batch broadcast example
        ((2, 1, 3, 5), (5,)),
        ((5,), (2, 1, 3, 5)),
        ((0, 3), (3, 0)),
        ((2, 0), (0, 3)),
        ((2, 0, 3), (3, 2)),
    ],
)
def test_matmul_shapes_values_gradients(a, b):
    check_op(matmul_op, rand(*a), rand(*b, seed=1))
    check_op(lambda lib, x, y: lib.matmul(x, y), rand(*a, dtype=np.float64), rand(*b, dtype=np.float64, seed=1))


@pytest.mark.parametrize(
    ("a", "b", "grad_fn"),
    [
        ((3,), (3,), "DotBackward0"),
        ((2, 3), (3,), "MvBackward0"),
        ((3,), (3, 4), "SqueezeBackward4"),
        ((2, 3), (3, 4), "MmBackward0"),
        ((2, 2, 3), (2, 3, 4), "UnsafeViewBackward0"),
    ],
)
def test_matmul_grad_fn_names(a, b, grad_fn):
    x, y = tl.zeros(*a, requires_grad=True), tl.zeros(*b, requires_grad=True)
    assert (x @ y).grad_fn.name() == grad_fn
    tx, ty = torch.zeros(*a, requires_grad=True), torch.zeros(*b, requires_grad=True)
    assert (tx @ ty).grad_fn.name() == grad_fn


BATCHED_PRODUCTS = {
    "torch.bmm": lambda lib, x, y: lib.bmm(x, y),
    "Tensor.bmm": lambda lib, x, y: x.bmm(y),
    "torch.matmul": lambda lib, x, y: lib.matmul(x, y),
    "@": lambda lib, x, y: x @ y,
}


@pytest.mark.parametrize(
    ("product", "a", "b"),
    [
        ("torch.bmm", (2, 3, 4), (2, 4, 5)),
        ("Tensor.bmm", (2, 3, 4), (2, 4, 5)),
        ("torch.matmul", (2, 3, 4), (2, 4, 5)),
        ("@", (2, 3, 4), (2, 4, 5)),
        ("@", (2, 3, 4), (4, 5)),
        ("@", (2, 2, 3, 4), (2, 4, 5)),
        ("@", (4,), (2, 4, 5)),
    ],
)
def test_batched_product_grad_fn_names_match_torch(product, a, b):
    """bmm records BmmBackward0; matmul of batched operands records UnsafeViewBackward0 (torch
    folds the batch, runs bmm or mm, and views the result back): each as torch names it."""
    names = {}
    for lib in (torch, tl):
        x, y = lib.zeros(*a, requires_grad=True), lib.zeros(*b, requires_grad=True)
        names[lib.__name__] = BATCHED_PRODUCTS[product](lib, x, y).grad_fn.name()
    assert names["tensorlab"] == names["torch"]


def test_matmul_non_contiguous_operands():
    check_op(lambda lib, x, y: x.transpose(-2, -1) @ y, rand(2, 3, 4), rand(2, 3, 5, seed=1))
    check_op(lambda lib, x, y: x @ y.transpose(0, 1), rand(2, 4, 3), rand(5, 3, seed=1))
    check_op(lambda lib, x, y: x.expand(3, 2, 4) @ y, rand(2, 4), rand(3, 4, 2, seed=1))


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8])
def test_integer_matmul(dtype):
    check_op(matmul_op, ints(2, 3, dtype=dtype), ints(3, 4, dtype=dtype, seed=1))
    check_op(matmul_op, ints(2, 2, 3, dtype=dtype), ints(3, dtype=dtype, seed=1))
    check_op(lambda lib, x, y: lib.bmm(x, y), ints(2, 2, 3, dtype=dtype), ints(2, 3, 2, dtype=dtype, seed=1))
    check_op(lambda lib, x, y: lib.dot(x, y), ints(4, dtype=dtype), ints(4, dtype=dtype, seed=1))


def test_float16_matmul():
    check_op(matmul_op, rand(4, 8, dtype=np.float16), rand(8, 3, dtype=np.float16, seed=1))
    check_op(matmul_op, rand(2, 4, 8, dtype=np.float16), rand(8, dtype=np.float16, seed=1))


def test_mm_bmm_dot_outer_values_and_gradients():
    check_op(lambda lib, x, y: lib.mm(x, y), rand(2, 3), rand(3, 4, seed=1))
    check_op(lambda lib, x, y: x.mm(y), rand(1, 1), rand(1, 4, seed=1))
    check_op(lambda lib, x, y: lib.bmm(x, y), rand(2, 3, 4), rand(2, 4, 5, seed=1))
    check_op(lambda lib, x, y: x.bmm(y), rand(3, 1, 2, dtype=np.float64), rand(3, 2, 1, dtype=np.float64, seed=1))
    check_op(lambda lib, x, y: lib.dot(x, y), rand(5), rand(5, seed=1))
    check_op(lambda lib, x, y: x.dot(y), rand(0), rand(0, seed=1))
    check_op(lambda lib, x, y: lib.outer(x, y), rand(3), rand(4, seed=1))
    check_op(lambda lib, x, y: x.outer(y), rand(3), rand(4, dtype=np.float64, seed=1))
    check_op(lambda lib, x, y: lib.outer(x, y), rand(3), ints(4, seed=1))
    check_op(lambda lib, x, y: lib.outer(x, y), np.array([True, False]), np.array([True, True]))


def test_double_backward_through_matmul():
    xs = rand(2, 3, 4)
    ys = rand(4, 2, seed=1)
    results = []
    for lib in (torch, tl):
        x = lib.tensor(xs, requires_grad=True)
        y = lib.tensor(ys, requires_grad=True)
        (gx,) = lib.autograd.grad((x @ y).pow(2).sum(), x, create_graph=True)
        gx.sum().backward()
        results.append((gx.detach().numpy(), y.grad.numpy()))
    for expected, got in zip(results[0], results[1], strict=True):
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_matmul_512_is_one_blas_call():
    """A 512x512 float32 product must be BLAS-fast (torch takes ~1 ms; allow a wide margin)."""
    import time

    a, b = tl.randn(512, 512), tl.randn(512, 512)
    a @ b
    start = time.perf_counter()
    for _ in range(3):
        a @ b
    assert (time.perf_counter() - start) / 3 < 0.25


# --- errors: torch's classes and messages ---------------------------------------------------
@pytest.mark.parametrize(
    ("a", "b"),
    [
        ((), (2, 2)),
        ((2, 2), ()),
        ((3,), (4,)),
        ((2, 3), (4, 5)),
        ((2, 3), (4,)),
        ((3,), (4, 5)),
        ((2, 2, 3), (4, 5)),
        ((2, 2, 3), (4,)),
        ((4,), (2, 2, 3)),
        ((2, 2, 3), (2, 4, 5)),
        ((2, 2, 3), (3, 3, 5)),
        ((2, 1, 2, 3), (5, 3, 3, 5)),
        ((4, 3), (2, 5, 2)),
        ((2, 0, 3), (5,)),
        ((2, 3, 5), (3, 1, 4, 2)),
    ],
)
@pytest.mark.parametrize("grad", [(False, False), (True, False), (False, True)])
def test_matmul_shape_errors(a, b, grad):
    check_op(matmul_op, rand(*a), rand(*b, seed=1), grad=grad, same_message=True)


@pytest.mark.parametrize(
    ("a", "da", "b", "db"),
    [
        ((3,), np.float32, (3,), np.float64),
        ((2, 3), np.float32, (3,), np.float64),
        ((2, 3), np.int64, (3,), np.float32),
        ((3,), np.float32, (3, 2), np.float64),
        ((2, 3), np.float64, (3, 2), np.float32),
        ((2, 2, 3), np.float64, (3, 2), np.float32),
        ((2, 2, 3), np.float32, (3,), np.float64),
        ((2, 2, 3), np.float32, (2, 3, 2), np.float64),
        ((2, 2, 3), np.int32, (2, 3, 2), np.float32),
        ((2, 3), np.float16, (3, 2), np.float32),
        ((2, 3), np.uint8, (3, 2), np.bool_),
        ((2,), np.bool_, (2,), np.bool_),
        ((2, 2), np.bool_, (2,), np.bool_),
        ((2,), np.bool_, (2, 2), np.bool_),
        ((2, 2), np.bool_, (2, 2), np.bool_),
        ((2, 2, 2), np.bool_, (2, 2), np.bool_),
        ((2, 2, 2), np.bool_, (2, 2, 2), np.bool_),
        ((2, 2, 3), np.bool_, (2, 3, 2), np.uint8),
        ((2, 3), np.bool_, (4, 2), np.bool_),
    ],
)
def test_matmul_dtype_errors(a, da, b, db):
    check_op(matmul_op, np.zeros(a, da), np.zeros(b, db), grad=False, same_message=True)


@pytest.mark.parametrize(
    ("op", "a", "b"),
    [
        ("mm", (3,), (3,)),
        ("mm", (2, 3), (4, 5)),
        ("mm", (2, 3, 4), (4, 5)),
        ("mm", (2, 3), (3,)),
        ("bmm", (2, 3, 4), (3, 4, 5)),
        ("bmm", (2, 3, 4), (2, 5, 5)),
        ("bmm", (3, 4), (2, 4, 5)),
        ("bmm", (2, 3, 4), (4, 5)),
        ("dot", (3,), (4,)),
        ("dot", (3, 1), (3,)),
        ("dot", (3,), (3, 1)),
        ("dot", (), (3,)),
        ("outer", (3, 2), (4,)),
        ("outer", (), (4,)),
        ("outer", (2,), (3, 2)),
    ],
)
def test_mm_bmm_dot_outer_shape_errors(op, a, b):
    check_op(lambda lib, x, y: getattr(lib, op)(x, y), rand(*a), rand(*b, seed=1), grad=False, same_message=True)


@pytest.mark.parametrize(
    ("op", "a", "da", "b", "db"),
    [
        ("mm", (2, 3), np.float32, (3, 5), np.float64),
        ("mm", (2, 3), np.int32, (2, 3), np.int64),
        ("mm", (2, 2), np.bool_, (2, 2), np.bool_),
        ("bmm", (2, 3, 4), np.float32, (2, 4, 5), np.float64),
        ("bmm", (2, 2, 2), np.int32, (2, 2, 2), np.int64),
        ("bmm", (2, 2, 2), np.bool_, (2, 2, 2), np.bool_),
        ("bmm", (2, 2, 3), np.bool_, (3, 4, 2), np.float32),
        ("dot", (3,), np.float32, (3,), np.float64),
        ("dot", (3,), np.int32, (3,), np.int64),
        ("dot", (3,), np.float64, (4,), np.float32),
        ("dot", (3,), np.bool_, (3,), np.bool_),
    ],
)
def test_mm_bmm_dot_dtype_errors(op, a, da, b, db):
    check_op(lambda lib, x, y: getattr(lib, op)(x, y), np.zeros(a, da), np.zeros(b, db), grad=False, same_message=True)


def test_dot_dtype_message_is_torchs():
    with pytest.raises(RuntimeError, match="dot : expected both vectors to have same dtype, but found Float and Double"):
        tl.dot(tl.zeros(3), tl.zeros(3, dtype=tl.float64))
    with pytest.raises(RuntimeError, match="expected m1 and m2 to have the same dtype, but got: float != double"):
        tl.zeros(2, 2) @ tl.zeros(2, 2, dtype=tl.float64)


@pytest.mark.parametrize(
    "run",
    [
        lambda lib: lib.zeros(2, 3) @ 3,
        lambda lib: lib.matmul(lib.zeros(2, 3), 3),
        lambda lib: lib.mm(lib.zeros(2, 3), 3),
        lambda lib: lib.dot(lib.zeros(3), [1, 2, 3]),
    ],
)
def test_non_tensor_operands_raise_type_error(run):
    for lib in (torch, tl):
        with pytest.raises(TypeError):
            run(lib)


# --- random shape combinations ---------------------------------------------------------------
@st.composite
def matmul_shapes(draw, mismatch: bool = False):
    """Operand shapes of 1-4 dims with broadcastable batches; optionally one size broken."""
    n, k, p = draw(st.integers(0, 3)), draw(st.integers(1, 3)), draw(st.integers(0, 3))
    batch = draw(st.lists(st.integers(1, 3), max_size=2))
    x_dims, y_dims = draw(st.integers(1, 4)), draw(st.integers(1, 4))

    def operand(dims, matrix):
        if dims == 1:
            return (k,)
        lead = batch[len(batch) - min(dims - 2, len(batch)):] if dims > 2 else []
        lead = [1 if draw(st.booleans()) else s for s in lead]
        lead = [draw(st.integers(1, 2)) for _ in range(dims - 2 - len(lead))] + lead
        return (*lead, *matrix)

    x = operand(x_dims, (n, k))
    y = operand(y_dims, (k, p))
    if mismatch:
        broken = draw(st.sampled_from(["k", "batch"]))
        if broken == "k" or (len(x) < 3 and len(y) < 3):
            y = list(y)
            y[-2 if len(y) > 1 else 0] = k + draw(st.integers(1, 2))
        else:
            x = list(x)
            x[0] = 4 if x[0] != 4 else 5
            y = list(y)
            if len(y) >= len(x):
                y[len(y) - len(x)] = 3
            else:
                y = [3, *y[1:]] if len(y) >= 3 else y
        x, y = tuple(x), tuple(y)
    return x, y


@given(matmul_shapes(), st.sampled_from([np.float32, np.float64]))
def test_matmul_random(shapes, dtype):
    a, b = shapes
    check_op(matmul_op, rand(*a, dtype=dtype), rand(*b, dtype=dtype, seed=1))


@given(matmul_shapes(), st.sampled_from([np.int64, np.int32]))
def test_matmul_random_integers(shapes, dtype):
    a, b = shapes
    check_op(matmul_op, ints(*a, dtype=dtype), ints(*b, dtype=dtype, seed=1))


@given(matmul_shapes(mismatch=True), st.tuples(st.booleans(), st.booleans()), st.booleans())
def test_matmul_random_mismatches(shapes, grad, transpose_first):
    a, b = shapes
    try:
        torch.zeros(a) @ torch.zeros(b)
    except RuntimeError:
        pass
    else:  # the broken size happened to broadcast: compare the result instead
        check_op(matmul_op, rand(*a), rand(*b, seed=1))
        return
    check_op(matmul_op, rand(*a), rand(*b, seed=1), grad=grad, same_message=True)
    if len(a) >= 2 and transpose_first:
        check_op(lambda lib, x, y: x.transpose(-2, -1) @ y, rand(*a[:-2], a[-1], a[-2]), rand(*b, seed=1), grad=False, same_message=True)


@given(st.integers(1, 3), st.integers(0, 3), st.integers(1, 3), st.integers(0, 3))
def test_bmm_random(batch, n, k, p):
    check_op(lambda lib, x, y: lib.bmm(x, y), rand(batch, n, k), rand(batch, k, p, seed=1))


@pytest.mark.parametrize(
    ("a", "b"),
    [((1, 2, 3), (5, 4, 4)), ((5, 2, 3), (1, 4, 4)), ((1, 2, 3), (1, 4, 4)), ((1, 0, 1), (2, 2, 0)), ((1, 1, 2, 3), (5, 4, 4))],
)
@pytest.mark.parametrize("grad", [(False, False), (True, False), (False, True)])
def test_matmul_batch_of_one_that_requires_grad(a, b, grad):
    """torch drops a batch of 1 from a 3-D operand that requires grad, which changes the message."""
    check_op(matmul_op, rand(*a), rand(*b, seed=1), grad=grad, same_message=True)


# --- addmm: bias + mat1 @ mat2, the fused kernel of nn.functional.linear -----------------------
ADDMM_CASES = {
    "row bias": ((5,), (3, 4), (4, 5)),
    "full bias": ((3, 5), (3, 4), (4, 5)),
    "row of ones": ((1, 5), (3, 4), (4, 5)),
    "column bias": ((3, 1), (3, 4), (4, 5)),
    "scalar bias": ((), (3, 4), (4, 5)),
    "inner sizes differ": ((5,), (3, 4), (3, 5)),
    "bias does not fit": ((3,), (3, 4), (4, 5)),
    "bias with more dims": ((2, 3, 5), (3, 4), (4, 5)),
    "vector operand": ((5,), (4,), (4, 5)),
}


@pytest.mark.parametrize("name", ADDMM_CASES)
def test_addmm_matches_torch(name: str) -> None:
    rng = np.random.default_rng(0)
    check_op(lambda lib, b, x, w: lib.addmm(b, x, w), *(rng.standard_normal(s) for s in ADDMM_CASES[name]))


@given(n=st.integers(1, 4), k=st.integers(1, 4), p=st.integers(1, 4), bias_kind=st.sampled_from(["row", "full", "col"]))
def test_addmm_random_shapes(n: int, k: int, p: int, bias_kind: str) -> None:
    rng = np.random.default_rng(n * 100 + k * 10 + p)
    bias_shape = {"row": (p,), "full": (n, p), "col": (n, 1)}[bias_kind]
    check_op(
        lambda lib, b, x, w: lib.addmm(b, x, w),
        rng.standard_normal(bias_shape), rng.standard_normal((n, k)), rng.standard_normal((k, p)),
    )


def test_linear_is_one_addmm_like_torch() -> None:
    rng = np.random.default_rng(1)
    out = check_op(
        lambda lib, b, x, w: lib.nn.functional.linear(x, w, b),
        rng.standard_normal(5), rng.standard_normal((3, 4)), rng.standard_normal((5, 4)),
    )
    assert out.grad_fn.name() == "AddmmBackward0"


# --- mm, dot, outer on random sizes (empty included), and their errors ---------------------------
@given(n=st.integers(0, 4), k=st.integers(0, 4), p=st.integers(0, 4), seed=seeds, dtype=st.sampled_from(["float32", "float64", "int64"]))
def test_mm_dot_outer_random(n: int, k: int, p: int, seed: int, dtype: str) -> None:
    rng = np.random.default_rng(seed)
    a, b, v, w = (rng.integers(-4, 5, s).astype(dtype) for s in ((n, k), (k, p), (k,), (k,)))
    u = rng.integers(-4, 5, (n,)).astype(dtype)
    check_op(lambda lib, x, y: lib.mm(x, y), a, b)
    check_op(lambda lib, x, y: x.mm(y), a, b)
    check_op(lambda lib, x, y: lib.dot(x, y), v, w)
    check_op(lambda lib, x, y: x.dot(y), v, w)
    check_op(lambda lib, x, y: lib.outer(x, y), u, v)
    check_op(lambda lib, x, y: x.outer(y), u, v)


@pytest.mark.parametrize(
    ("fn", "shapes"),
    [
        (lambda lib, x, y: lib.mm(x, y), ((2, 3), (4, 2))),
        (lambda lib, x, y: lib.mm(x, y), ((3,), (3, 2))),
        (lambda lib, x, y: lib.dot(x, y), ((3,), (4,))),
        (lambda lib, x, y: lib.dot(x, y), ((3, 1), (3,))),
        (lambda lib, x, y: lib.dot(x, y.float()), ((3,), (3,))),
        (lambda lib, x, y: lib.outer(x, y), ((3, 1), (2,))),
        (lambda lib, x, y: lib.bmm(x, y), ((2, 3), (3, 2))),
        (lambda lib, x, y: lib.bmm(x, y), ((2, 2, 3), (3, 3, 2))),
    ],
)
def test_linalg_errors(fn: Any, shapes: tuple) -> None:
    check_op(fn, *(standard_normal(s, i) for i, s in enumerate(shapes)))


@pytest.mark.parametrize(
    ("fn", "match"),
    [
        (lambda lib, x: x @ 3, "unsupported operand type(s) for @: 'Tensor' and 'int'"),
        (lambda lib, x: 3 @ x, "unsupported operand type(s) for @: 'int' and 'Tensor'"),
        (lambda lib, x: x @ [1.0, 2.0], "unsupported operand type(s) for @"),
        (lambda lib, x: lib.matmul(x, 3), "matmul(): argument 'other' (position 2) must be Tensor, not int"),
    ],
)
def test_matmul_operand_type_errors(fn, match: str) -> None:
    check_op(fn, rand(2, 2), match=match)
