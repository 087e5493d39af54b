"""Small differences from torch that were fixed: argument types, tensor() inference and overflow,
requires_grad messages, operator errors, Module child order, next_functions of scalar operands.

Every case runs on torch and tensorlab through ``check_op`` (torch is the oracle); ``match`` pins
the key words of torch's message where the wording matters to a learner.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.oracle import check_op


def floats(shape: tuple, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype("float32")


# --- clone keeps a dense input's strides (torch's preserve_format) ------------------------------
@pytest.mark.parametrize(
    "view",
    [
        lambda x: x[::2][:1],  # one element, stride 2
        lambda x: x.reshape(3, 1, 4)[:, :, :1],
        lambda x: x.reshape(3, 1, 4).permute(1, 2, 0),
        lambda x: x.reshape(3, 4)[:, 4:],  # empty
        lambda x: x.reshape(4, 3)[::2, ::2],  # not dense: row-major in x's dim order
        lambda x: x.reshape(3, 4).t(),
    ],
)
def test_clone_and_like_factories_keep_the_strides_of_dense_inputs(view: Any) -> None:
    check_op(lambda lib, x: lib.clone(view(x)).stride(), floats((12,)))
    check_op(lambda lib, x: lib.zeros_like(view(x)).stride(), floats((12,)), grad=False)
    check_op(lambda lib, x: lib.empty_like(view(x)).stride(), floats((12,)), grad=False)


# --- a list where a tensor is expected -----------------------------------------------------------
@pytest.mark.parametrize(
    ("fn", "match"),
    [
        (lambda lib: lib.exp([1.0]), "exp(): argument 'input' (position 1) must be Tensor, not list"),
        (lambda lib: lib.sigmoid([1.0]), "must be Tensor, not list"),
        (lambda lib: lib.add(lib.ones(2), [1.0]), "add(): argument 'other' (position 2) must be Tensor, not list"),
        (lambda lib: lib.mul([1.0], lib.ones(2)), "mul(): argument 'input' (position 1) must be Tensor, not list"),
        (lambda lib: lib.sub(lib.ones(2), [1.0]), "must be Tensor, not list"),
        (lambda lib: lib.div(lib.ones(2), [1.0]), "must be Tensor, not list"),
        (lambda lib: lib.ones(2) + [1.0], None),  # noqa: RUF005 - the list is the point
        (lambda lib: lib.zeros_like([1.0]), "zeros_like(): argument 'input' (position 1) must be Tensor, not list"),
        (lambda lib: lib.ones_like([1.0]), "must be Tensor, not list"),
        (lambda lib: lib.empty_like([1.0]), "must be Tensor, not list"),
        (lambda lib: lib.full_like([1.0], 2), "must be Tensor, not list"),
        (lambda lib: lib.clone([1.0]), "clone(): argument 'input' (position 1) must be Tensor, not list"),
        (lambda lib: lib.nn.functional.gelu([1.0]), "gelu(): argument 'input' (position 1) must be Tensor, not list"),
        (lambda lib: lib.nn.functional.relu([1.0]), "relu(): argument 'input' (position 1) must be Tensor, not list"),
        (lambda lib: lib.nn.functional.tanh([1.0]), None),  # AttributeError in torch too
    ],
)
def test_a_list_instead_of_a_tensor_is_a_type_error(fn: Any, match: str | None) -> None:
    check_op(fn, match=match)


# --- wrongly typed arguments -------------------------------------------------------------------
@pytest.mark.parametrize(
    "fn",
    [
        lambda lib, x: lib.ones(2, dtype="float32"),
        lambda lib, x: lib.zeros(2, dtype=np.float32),
        lambda lib, x: lib.tensor([1], dtype="float32"),
        lambda lib, x: lib.full((2,), 1.0, dtype="float64"),
        lambda lib, x: lib.ones(2, dtype=float),  # Python types are fine
        lambda lib, x: lib.arange(3, dtype=int),
        lambda lib, x: x.sum(dtype="float64"),
        lambda lib, x: x.to(dtype="float64"),
        lambda lib, x: x.contiguous(memory_format=1),
        lambda lib, x: x.nonzero(as_tuple=None),
        lambda lib, x: x.nonzero(as_tuple=1),
        lambda lib, x: x.nonzero(as_tuple=True),
        lambda lib, x: x.tril(diagonal=0.5),
        lambda lib, x: x.triu(True),
        lambda lib, x: lib.tril(x, np.int64(1)),
        lambda lib, x: x.reshape(4).tril(0.5),  # the type is checked before the dims
        lambda lib, x: x.is_contiguous(3),
        lambda lib, x: x.permute(),
        lambda lib, x: x[0, 0].permute(),
        lambda lib, x: x[0, 0].permute(()),
    ],
)
def test_argument_types(fn: Any) -> None:
    check_op(fn, floats((2, 2)), grad=False)


# --- tensor(): inference from NumPy scalars, integer overflow ----------------------------------
@pytest.mark.parametrize(
    "data",
    [
        np.float64(1.5), np.float32(1.5), np.float16(1.5), np.int32(3), np.uint8(3), np.bool_(True),
        [np.float32(1)], [np.float64(1)], [np.int32(1)], [np.int32(1), 1.0], [np.int32(1), 1],
        [np.float64(1), np.float32(2)], [np.float16(1), 2.0], [np.uint8(1), True], [1, True, 2.5],
        [np.array([1.5])],
    ],
)
def test_tensor_infers_the_dtype_of_numpy_scalars(data: Any) -> None:
    check_op(lambda lib: lib.tensor(data))
    check_op(lambda lib: lib.as_tensor(data))


@pytest.mark.parametrize(
    ("data", "dtype"),
    [
        ([300], "uint8"), (300, "uint8"), ([-1], "uint8"), ([-255], "uint8"), ([-256], "uint8"),
        ([300.0], "uint8"), ([-1.5], "uint8"), (np.float64(300), "uint8"), ([2**40], "int32"),
        ([2**31 - 1, -(2**31)], "int32"), ([2**31], "int32"), ([300], "bool"), ([2**63], None),
        (2**63, None), ([-(2**63) - 1], None), ([2**64], "int64"), ([2**63], "float32"),
        (np.array([300]), "uint8"),  # NumPy arrays wrap, as in torch
    ],
)
def test_tensor_refuses_integers_that_do_not_fit(data: Any, dtype: str | None) -> None:
    check_op(lambda lib: lib.tensor(data) if dtype is None else lib.tensor(data, dtype=getattr(lib, dtype)))


# --- requires_grad on an integer tensor: three paths, three wordings ----------------------------
def _set_requires_grad(lib: Any) -> None:
    x = lib.tensor([1])
    x.requires_grad = True


@pytest.mark.parametrize(
    ("fn", "match"),
    [
        (lambda lib: lib.tensor([1], requires_grad=True), "Only Tensors of floating point and complex dtype"),
        (lambda lib: lib.zeros(2, dtype=lib.int64, requires_grad=True), "Only Tensors of floating point and complex dtype"),
        (lambda lib: lib.arange(3, requires_grad=True), "Only Tensors of floating point and complex dtype"),
        (lambda lib: lib.tensor([1]).requires_grad_(), "only Tensors of floating point dtype can require gradients"),
        (_set_requires_grad, "only Tensors of floating point and complex dtype"),
    ],
)
def test_requires_grad_on_integers(fn: Any, match: str) -> None:
    check_op(fn, match=match)


# --- operators -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("fn", "match"),
    [
        (lambda lib, x: ~x, "~ (operator.invert) is only implemented on integer and Boolean-type tensors"),
        (lambda lib, x: lib.bitwise_not(x), None),  # NotImplementedError, unlike ~
        (lambda lib, x: ~(x > 0), None),
        (lambda lib, x: x @ 3, "unsupported operand type(s) for @: 'Tensor' and 'int'"),
        (lambda lib, x: 3 @ x, "unsupported operand type(s) for @: 'int' and 'Tensor'"),
        (lambda lib, x: x @ [1.0, 2.0], "unsupported operand type(s) for @"),
        (lambda lib, x: lib.matmul(x, 3), "matmul(): argument 'other' (position 2) must be Tensor, not int"),
        (lambda lib, x: 2 * x + 1, None),
    ],
)
def test_operator_errors(fn: Any, match: str | None) -> None:
    check_op(fn, floats((2, 2)), match=match)


# --- nn.Module: reassigning keeps the registration order ------------------------------------------
def _reassigned(lib: Any) -> tuple:
    nn = lib.nn
    seq = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 2))
    seq[0] = nn.Identity()
    m = nn.Module()
    m.a, m.b, m.c = nn.ReLU(), nn.Linear(1, 1), nn.ReLU()
    m.a = nn.Tanh()
    m.p = nn.Parameter(lib.ones(1))
    m.q = nn.Parameter(lib.ones(1))
    m.p = nn.Parameter(lib.zeros(1))
    m.register_buffer("x", lib.ones(1))
    m.register_buffer("y", lib.ones(1))
    m.x = lib.zeros(1)
    return (
        list(seq._modules), [n for n, _ in seq.named_parameters()],
        list(m._modules), [n for n, _ in m.named_parameters()], [n for n, _ in m.named_buffers()],
    )


def test_reassigning_a_child_keeps_its_place() -> None:
    check_op(_reassigned)


# --- next_functions of ops with a Python-number operand -----------------------------------------
def _edges(lib: Any, out: Any) -> list:
    return [(None if node is None else type(node).__name__.split("::")[-1], nr) for node, nr in out.grad_fn.next_functions]


@pytest.mark.parametrize(
    "fn",
    [
        lambda x: x * 2.0, lambda x: 2.0 * x, lambda x: x.mul(2), lambda x: x + 2, lambda x: 2 + x,
        lambda x: x.add(2, alpha=3), lambda x: x - 2, lambda x: 2 - x, lambda x: x.sub(2.5),
        lambda x: x / 2, lambda x: x.div(2, rounding_mode="floor"), lambda x: x**2, lambda x: 2**x,
        lambda x: x % 2, lambda x: x.clamp(0, 1), lambda x: x + x, lambda x: x * x.detach(),
    ],
)
def test_next_functions_with_a_number_operand(fn: Any) -> None:
    check_op(lambda lib, x: (_edges(lib, fn(x)), fn(x).grad_fn.name()), floats((2,)))
