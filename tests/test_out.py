"""``out=`` on the namespace functions that take it in torch: values, dtype casting, resizing,
strides kept, version bumped, and torch's errors (cast category, autograd, not a tensor)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import tensorlab as tl
from tensorlab.ops.out import OPS_WITH_OUT, OPS_WITH_PAIR_OUT
from tests.oracle import assert_same, check_op, standard_normal

X = standard_normal((2, 3), seed=1, dtype="float32")
Y = standard_normal((2, 3), seed=2, dtype="float32")
POSITIVE = np.abs(X) + 0.5

# name -> (call without out, inputs): every op of OPS_WITH_OUT has a case
CALLS = {
    "add": (lambda lib, a, b: (a, b), (X, Y)),
    "sub": (lambda lib, a, b: (a, b), (X, Y)),
    "subtract": (lambda lib, a, b: (a, b), (X, Y)),
    "mul": (lambda lib, a, b: (a, 2.5), (X, Y)),
    "multiply": (lambda lib, a, b: (a, b), (X, Y)),
    "div": (lambda lib, a, b: (a, b), (X, POSITIVE)),
    "divide": (lambda lib, a, b: (a, b), (X, POSITIVE)),
    "true_divide": (lambda lib, a, b: (a, b), (X, POSITIVE)),
    "floor_divide": (lambda lib, a, b: (a, b), (X, POSITIVE)),
    "remainder": (lambda lib, a, b: (a, b), (X, POSITIVE)),
    "pow": (lambda lib, a, b: (b, a), (X, POSITIVE)),
    "maximum": (lambda lib, a, b: (a, b), (X, Y)),
    "minimum": (lambda lib, a, b: (a, b), (X, Y)),
    "neg": (lambda lib, a, b: (a,), (X, Y)),
    "abs": (lambda lib, a, b: (a,), (X, Y)),
    "exp": (lambda lib, a, b: (a,), (X, Y)),
    "log": (lambda lib, a, b: (b,), (X, POSITIVE)),
    "sqrt": (lambda lib, a, b: (b,), (X, POSITIVE)),
    "sin": (lambda lib, a, b: (a,), (X, Y)),
    "cos": (lambda lib, a, b: (a,), (X, Y)),
    "tanh": (lambda lib, a, b: (a,), (X, Y)),
    "sigmoid": (lambda lib, a, b: (a,), (X, Y)),
    "clamp": (lambda lib, a, b: (a, -0.5, 0.5), (X, Y)),
    "clip": (lambda lib, a, b: (a, -0.5), (X, Y)),
    "floor": (lambda lib, a, b: (a,), (X, Y)),
    "ceil": (lambda lib, a, b: (a,), (X, Y)),
    "round": (lambda lib, a, b: (a,), (X, Y)),
    "sign": (lambda lib, a, b: (a,), (X, Y)),
    "eq": (lambda lib, a, b: (a, a), (X, Y)),
    "ne": (lambda lib, a, b: (a, b), (X, Y)),
    "lt": (lambda lib, a, b: (a, b), (X, Y)),
    "le": (lambda lib, a, b: (a, b), (X, Y)),
    "gt": (lambda lib, a, b: (a, b), (X, Y)),
    "ge": (lambda lib, a, b: (a, b), (X, Y)),
    "where": (lambda lib, a, b: (a > b, a, b), (X, Y)),
    "matmul": (lambda lib, a, b: (a, b.t()), (X, Y)),
    "mm": (lambda lib, a, b: (a, b.t()), (X, Y)),
    "bmm": (lambda lib, a, b: (a[None], b.t()[None]), (X, Y)),
    "sum": (lambda lib, a, b: (a, 1), (X, Y)),
    "mean": (lambda lib, a, b: (a, 0), (X, Y)),
    "prod": (lambda lib, a, b: (a, 1), (X, Y)),
    "cumsum": (lambda lib, a, b: (a, 1), (X, Y)),
    "logsumexp": (lambda lib, a, b: (a, 1), (X, Y)),
    "cat": (lambda lib, a, b: ([a, b],), (X, Y)),
    "concat": (lambda lib, a, b: ([a, b], 1), (X, Y)),
    "stack": (lambda lib, a, b: ([a, b], 1), (X, Y)),
    "gather": (lambda lib, a, b: (a, 1, lib.tensor([[2, 0], [1, 1]])), (X, Y)),
    "index_select": (lambda lib, a, b: (a, 1, lib.tensor([2, 0])), (X, Y)),
    "masked_select": (lambda lib, a, b: (a, a > b), (X, Y)),
    "take": (lambda lib, a, b: (a, lib.tensor([5, 0])), (X, Y)),
    # issue 18 (ops): more math, atan2, cross
    **{name: (lambda lib, a, b: (a,), (X, Y)) for name in (
        "asin", "acos", "atan", "sinh", "cosh", "tan", "asinh", "acosh", "atanh", "arcsin", "arccos", "arctan",
        "arcsinh", "arccosh", "arctanh", "log1p", "expm1", "log2", "log10", "exp2", "erf", "erfc", "erfinv",
    )},
    "atan2": (lambda lib, a, b: (a, b), (X, Y)),
    "arctan2": (lambda lib, a, b: (a, b), (X, Y)),
    "cross": (lambda lib, a, b: (a, b, 1), (X, Y)),
}


# ops returning (values, indices), with out=(values, indices): name -> call without out
PAIR_CALLS = {
    "max": lambda lib, a: (a, 1),
    "min": lambda lib, a: (a, 0, True),
    "sort": lambda lib, a: (a, 1, True),
    "topk": lambda lib, a: (a, 2),
    "kthvalue": lambda lib, a: (a, 2, 0),
}


def test_every_op_with_out_has_a_case() -> None:
    assert sorted([*CALLS, *PAIR_CALLS]) == sorted(OPS_WITH_OUT)
    assert sorted(PAIR_CALLS) == sorted(OPS_WITH_PAIR_OUT)


def _run(lib, name: str, a, b, out_of):
    arguments = CALLS[name][0](lib, a, b)
    expected = getattr(lib, name)(*arguments)
    out = out_of(lib, expected)
    returned = getattr(lib, name)(*arguments, out=out)
    assert returned is out
    return out, out._version


@pytest.mark.parametrize("name", sorted(CALLS))
def test_out_of_the_right_shape_gets_the_values(name: str) -> None:
    a, b = CALLS[name][1]
    check_op(lambda lib, x, y: _run(lib, name, x, y, lambda lib, r: lib.zeros_like(r)), a, b, grad=False)


@pytest.mark.parametrize("name", sorted(CALLS))
@pytest.mark.parametrize("out_dtype", ["float64", "int64", "bool", "float16", "int16"])
def test_out_of_another_dtype_casts_or_refuses(name: str, out_dtype: str) -> None:
    a, b = CALLS[name][1]
    # computed in float32 (sum, prod, cumsum: in out's dtype) and cast: float32's tolerance at least
    tolerance = None if out_dtype == "float16" else 1e-5
    check_op(lambda lib, x, y: _run(lib, name, x, y, lambda lib, r: lib.zeros(r.shape, dtype=getattr(lib, out_dtype))), a, b, grad=False, rtol=tolerance, atol=tolerance)


@pytest.mark.parametrize("name", sorted(CALLS))
@pytest.mark.parametrize("size", [0, 1, 7])
def test_out_of_another_shape_is_resized(name: str, size: int) -> None:
    """With a deprecation warning when it had elements (compared as: torch warns iff we warn)."""
    a, b = CALLS[name][1]
    warned = {}
    for lib in (torch, tl):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out, _ = _run(lib, name, lib.tensor(a), lib.tensor(b), lambda lib, r: lib.zeros(size, dtype=r.dtype))
        warned[lib] = [str(w.message)[:60] for w in caught if "resized" in str(w.message)]
        result = out
        if lib is torch:
            expected = result
    assert_same(expected, result)
    assert warned[torch] == warned[tl]


@pytest.mark.parametrize("name", ["add", "exp", "matmul", "sum", "cat", "where", "clamp", "gather"])
def test_out_needs_grad_mode_off_when_inputs_require_grad(name: str) -> None:
    a, b = CALLS[name][1]
    check_op(lambda lib, x, y: _run(lib, name, x, y, lambda lib, r: lib.zeros_like(r)), a, b, match="don't support automatic differentiation")
    check_op(lambda lib, x, y: _run(lib, name, x, y, lambda lib, r: lib.zeros_like(r).requires_grad_()), a, b, grad=False, match="don't support automatic differentiation")

    def under_no_grad(lib, x, y):
        with lib.no_grad():
            return _run(lib, name, x, y, lambda lib, r: lib.zeros_like(r))

    check_op(under_no_grad, a, b)


def test_out_keeps_its_strides_and_writes_through_views() -> None:
    check_op(lambda lib, x: (lambda o: (lib.add(x, x, out=o), o.stride()))(lib.zeros(3, 2).t()), X, grad=False)
    check_op(lambda lib, x: (lambda base: (lib.mul(x[0], 2, out=base[1:4]), base))(lib.zeros(5)), X, grad=False)
    check_op(lambda lib, x: lib.add(x, 1, out=x), X, grad=False)  # out may be an input


@pytest.mark.parametrize("out", [[0.0], np.zeros(2)])
def test_out_must_be_a_tensor(out) -> None:
    check_op(lambda lib, x: lib.add(x, x, out=out), X, grad=False, same_message=True)


@given(dtype=st.sampled_from(["int8", "int16", "int32", "int64", "uint8", "bool", "float16", "float32"]), out_dtype=st.sampled_from(["int8", "int16", "int64", "float32", "float64", "bool"]))
def test_out_dtype_rules_for_integer_inputs(dtype: str, out_dtype: str) -> None:
    values = (standard_normal((3,), seed=3) * 4).astype(dtype)
    check_op(lambda lib, x: lib.add(x, x, out=lib.zeros(3, dtype=getattr(lib, out_dtype))), values, grad=False)
    check_op(lambda lib, x: lib.sum(x, 0, out=lib.zeros((), dtype=getattr(lib, out_dtype))), values, grad=False)


def _run_pair(lib, name: str, a, out_of):
    """``name(a, ..., out=(values, indices))``: the returned named tuple holds the two outs themselves."""
    arguments = PAIR_CALLS[name](lib, a)
    expected = getattr(lib, name)(*arguments)
    values, indices = out_of(lib, expected)
    returned = getattr(lib, name)(*arguments, out=(values, indices))
    assert returned.values is values and returned.indices is indices
    return values, indices, values._version, type(returned).__name__  # torch's name: max_out, sort_out...


@pytest.mark.parametrize("name", sorted(PAIR_CALLS))
@pytest.mark.parametrize("size", [None, 0, 5])
def test_pair_out_gets_values_and_indices(name: str, size: int | None) -> None:
    """Outs of the right shape, empty, or of another shape (resized with torch's warning)."""
    def outs(lib, expected):
        if size is None:
            return lib.zeros_like(expected.values), lib.zeros_like(expected.indices)
        return lib.zeros(size, dtype=expected.values.dtype), lib.zeros(size, dtype=lib.int64)

    warned, results = {}, {}
    for lib in (torch, tl):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            results[lib] = _run_pair(lib, name, lib.tensor(X), outs)
        warned[lib] = [str(w.message)[:60] for w in caught if "resized" in str(w.message)]
    assert_same(results[torch], results[tl])
    assert warned[torch] == warned[tl]


@pytest.mark.parametrize("name", sorted(PAIR_CALLS))
@pytest.mark.parametrize("values_dtype, indices_dtype", [("float64", "int64"), ("float32", "int32"), ("int64", "int64"), ("float32", "float32")])
def test_pair_out_casts_nothing(name: str, values_dtype: str, indices_dtype: str) -> None:
    def outs(lib, expected):
        return lib.zeros(0, dtype=getattr(lib, values_dtype)), lib.zeros(0, dtype=getattr(lib, indices_dtype))

    check_op(lambda lib, x: _run_pair(lib, name, x, outs), X, grad=False, same_message=True)


@pytest.mark.parametrize("out", [lambda lib: (lib.zeros(0),), lambda lib: lib.zeros(0), lambda lib: [lib.zeros(0), lib.zeros(0, dtype=lib.int64)]])
def test_pair_out_must_be_two_tensors(out) -> None:
    check_op(lambda lib, x: tuple(lib.max(x, 1, out=out(lib))), X, grad=False)


def test_pair_out_needs_grad_mode_off() -> None:
    check_op(lambda lib, x: lib.max(x, 1, out=(lib.zeros(0), lib.zeros(0, dtype=lib.int64))), X, match="don't support automatic differentiation")


def test_max_of_everything_takes_one_out() -> None:
    check_op(lambda lib, x: (lambda o: (lib.max(x, out=o), o))(lib.zeros(())), X, grad=False)
