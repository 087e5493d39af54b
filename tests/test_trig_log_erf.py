"""tan, inverse trig, hyperbolic, log1p/expm1/log2/log10/exp2, erf/erfc/erfinv, atan2 against torch:
values, dtype promotion (integers and bools become float32), gradients, domain edges (nan, inf),
empty tensors, the in-place forms and torch's namespace in-place functions (``torch.sin_``)."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import tensorlab as tl
from tests.oracle import check_op, pair

UNARY = ["tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "log1p", "expm1", "log2",
         "log10", "exp2", "erf", "erfc", "erfinv"]
ALIASES = ["arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh"]


def inside_domain(name: str, shape: tuple = (2, 3), seed: int = 0, dtype: str = "float64") -> np.ndarray:
    """Values where the function and its derivative are finite."""
    rng = np.random.default_rng(seed)
    if name in ("asin", "acos", "atanh", "erfinv", "arcsin", "arccos", "arctanh"):
        values = rng.uniform(-0.9, 0.9, shape)
    elif name in ("acosh", "arccosh"):
        values = rng.uniform(1.1, 4, shape)
    elif name in ("log2", "log10"):
        values = rng.uniform(0.1, 4, shape)
    elif name == "log1p":
        values = rng.uniform(-0.9, 3, shape)
    elif name == "tan":
        values = rng.uniform(-1.2, 1.2, shape)
    else:
        values = rng.uniform(-3, 3, shape)
    return values.astype(dtype)


@pytest.mark.parametrize("name", UNARY + ALIASES)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_values_and_gradients_match_torch(name: str, dtype: str) -> None:
    check_op(lambda lib, x: getattr(lib, name)(x), inside_domain(name, dtype=dtype))


@pytest.mark.parametrize("name", UNARY)
def test_method_and_float16(name: str) -> None:
    check_op(lambda lib, x: getattr(x, name)(), inside_domain(name, dtype="float16"), rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("dtype", ["bool", "uint8", "int32", "int64"])
def test_integers_and_bools_become_float32(name: str, dtype: str) -> None:
    values = np.array([[0, 1], [1, 0]], dtype=dtype)
    check_op(lambda lib, x: getattr(lib, name)(x), values)


@pytest.mark.parametrize("name", UNARY)
def test_outside_the_domain_gives_nan_or_inf_as_torch(name: str) -> None:
    values = np.array([-2.0, -1.0, -0.0, 0.0, 1.0, 2.0, 1000.0, -1000.0, np.inf, -np.inf, np.nan])
    check_op(lambda lib, x: getattr(lib, name)(x), values, grad=False)
    check_op(lambda lib, x: getattr(lib, name)(x), values.astype("float32"), grad=False)


@pytest.mark.parametrize("name", UNARY)
def test_gradient_at_the_domain_edges(name: str) -> None:
    check_op(lambda lib, x: getattr(lib, name)(x), np.array([-1.0, 0.0, 1.0, 0.5]))


@pytest.mark.parametrize("name", UNARY)
def test_empty_and_zero_dim(name: str) -> None:
    check_op(lambda lib, x: getattr(lib, name)(x), np.zeros((0, 3)))
    check_op(lambda lib, x: getattr(lib, name)(x), np.array(0.25))


@pytest.mark.parametrize("name", UNARY)
def test_not_a_tensor_is_a_type_error(name: str) -> None:
    check_op(lambda lib, x: getattr(lib, name)([0.5]), np.zeros(1), grad=False)


@pytest.mark.parametrize("name", ["tan", "sinh", "erf", "log1p", "asinh"])
def test_double_backward(name: str) -> None:
    def second_derivative(lib, x):
        (g,) = lib.autograd.grad(getattr(lib, name)(x).sum(), x, create_graph=True)
        return g

    check_op(second_derivative, inside_domain(name))


def test_log1p_and_expm1_keep_small_values() -> None:
    tiny = np.array([1e-8, -1e-10, 3e-20], dtype="float32")
    check_op(lambda lib, x: lib.log1p(x), tiny)
    check_op(lambda lib, x: lib.expm1(x), tiny)


@pytest.mark.parametrize("dtypes", [("float32", "float32"), ("float64", "float32"), ("int64", "int64"),
                                    ("int32", "float64"), ("bool", "int64")])
def test_atan2_promotes_and_differentiates(dtypes: tuple) -> None:
    rng = np.random.default_rng(1)
    y = (rng.standard_normal((2, 3)) * 3).astype(dtypes[0])
    x = (rng.standard_normal((3,)) * 3).astype(dtypes[1])
    check_op(lambda lib, a, b: lib.atan2(a, b), y, x)
    check_op(lambda lib, a, b: a.atan2(b), y, x)
    check_op(lambda lib, a, b: lib.arctan2(a, b), y, x)


def test_atan2_quadrants_zeros_and_errors() -> None:
    y = np.array([0.0, -0.0, 1.0, -1.0, 0.0, 1.0])
    x = np.array([0.0, -1.0, 0.0, 0.0, -0.0, -1.0])
    check_op(lambda lib, a, b: lib.atan2(a, b), y, x, grad=False)
    check_op(lambda lib, a: lib.atan2(a, 1.0), y, grad=False, match="must be Tensor")
    check_op(lambda lib, a: lib.atan2(1.0, a), y, grad=False, match="must be Tensor")
    check_op(lambda lib, a, b: lib.atan2(a, b), np.zeros(2), np.zeros(3), grad=False)


NO_INPLACE_DERIVATIVE = ("asinh", "acosh", "atanh")  # torch's quirk: asinh_().backward() raises


@pytest.mark.parametrize("name", UNARY)
def test_in_place_forms(name: str) -> None:
    values = inside_domain(name)
    grad = name not in NO_INPLACE_DERIVATIVE
    check_op(lambda lib, x: getattr(x.clone(), name + "_")(), values, grad=grad)
    check_op(lambda lib, x: getattr(lib, name + "_")(x.clone()) if hasattr(torch, name + "_") else x, values, grad=grad)
    check_op(lambda lib, x: getattr(x, name + "_")(), np.array([1, 2]), match="can't be cast")


@pytest.mark.parametrize("name", NO_INPLACE_DERIVATIVE)
def test_in_place_forms_without_a_derivative(name: str) -> None:
    for x in pair(inside_domain(name), requires_grad=True):
        with pytest.raises(NotImplementedError, match=f"inplace version of {name}"):
            getattr(x.clone(), name + "_")().sum().backward()


def test_in_place_atan2_and_aliases() -> None:
    check_op(lambda lib, a, b: a.clone().atan2_(b), np.array([1.0, -2.0]), np.array([3.0, 0.5]))
    check_op(lambda lib, a: a.clone().arcsin_().arctan_(), np.array([0.1, -0.3]))
    check_op(lambda lib, a: a.clone().arctanh_(), np.array([0.1, -0.3]), grad=False)


def test_in_place_guards_and_version() -> None:
    leaf_t, leaf_m = pair(np.array([0.1, 0.2]), requires_grad=True)
    for leaf in (leaf_t, leaf_m):
        with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
            leaf.asin_()
    for lib in (torch, tl):
        x = lib.tensor([0.1, 0.2])
        before = x._version
        assert x.erf_() is x and x._version == before + 1


def test_namespace_in_place_functions_exist_where_torch_has_them() -> None:
    names = [n for n in dir(torch) if n.endswith("_") and not n.startswith("_")]
    methods = {n for n in names if hasattr(torch.Tensor, n) and hasattr(tl.Tensor, n)} - {"detach_"}  # autograd, not math
    missing = sorted(n for n in methods if not hasattr(tl, n))
    assert missing == [], missing
    check_op(lambda lib, x: lib.sin_(x.clone()), np.array([0.5, 1.0]))
    check_op(lambda lib, x: lib.clip_(x.clone(), 0, 0.7), np.array([0.5, 1.0]))


def test_out_keyword() -> None:
    def with_out(lib, x):
        out = lib.empty(0)
        lib.asin(x, out=out)
        return out

    check_op(with_out, np.array([0.1, 0.5]), grad=False)


small_floats = st.floats(-20, 20, width=32, allow_subnormal=False)


@given(name=st.sampled_from(UNARY), values=hnp.arrays("float64", hnp.array_shapes(min_dims=0, max_dims=3, max_side=3), elements=small_floats))
def test_any_values_match_torch(name: str, values: np.ndarray) -> None:
    """Any finite values, in the domain or not: nan where torch gives nan, same gradients."""
    check_op(lambda lib, x: getattr(lib, name)(x), values, rtol=1e-7, atol=1e-9)


@given(values=hnp.arrays("float32", st.tuples(st.integers(0, 3), st.integers(1, 3)), elements=small_floats),
       other=hnp.arrays("float32", st.just((1,)), elements=small_floats))
def test_any_atan2_matches_torch(values: np.ndarray, other: np.ndarray) -> None:
    check_op(lambda lib, a, b: lib.atan2(a, b), values, other)
