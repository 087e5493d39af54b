"""``unique``, ``unique_consecutive`` and ``cross`` / ``linalg.cross`` against torch: values, the
inverse map and counts, dims, nan, empty and 0-d tensors, errors, gradients (cross has them;
unique raises torch's error in backward)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import tensorlab as tl
from tests.oracle import check_op, pair

VALUES = np.array([3.0, 1.0, 2.0, 3.0, np.nan, np.nan, 1.0, -0.0, 0.0])
ROWS = np.array([[1, 2, 0], [1, 2, 0], [0, 5, 1], [1, 2, 0], [0, 5, 0]])


@pytest.mark.parametrize("sorted_", [True, False])
@pytest.mark.parametrize("inverse", [True, False])
@pytest.mark.parametrize("counts", [True, False])
def test_unique_flags(sorted_: bool, inverse: bool, counts: bool) -> None:
    kwargs = {"sorted": sorted_, "return_inverse": inverse, "return_counts": counts}
    check_op(lambda lib, x: lib.unique(x, **kwargs), VALUES, grad=False)
    check_op(lambda lib, x: x.unique(**kwargs), ROWS, grad=False)
    check_op(lambda lib, x: lib.unique(x, dim=0, **kwargs), ROWS, grad=False)
    check_op(lambda lib, x: lib.unique(x, dim=1, **kwargs), ROWS, grad=False)
    check_op(lambda lib, x: lib.unique(x, dim=-1, **kwargs), ROWS.astype("float32"), grad=False)


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int32", "int64", "float16", "float32", "float64"])
def test_unique_dtypes(dtype: str) -> None:
    check_op(lambda lib, x: lib.unique(x, return_inverse=True, return_counts=True), (ROWS % 3).astype(dtype), grad=False)


def test_unique_edges() -> None:
    check_op(lambda lib, x: lib.unique(x, return_inverse=True, return_counts=True), np.zeros(0, "int64"), grad=False)
    check_op(lambda lib, x: lib.unique(x, return_inverse=True, return_counts=True), np.array(5), grad=False)
    check_op(lambda lib, x: lib.unique(x, dim=0, return_inverse=True, return_counts=True), np.zeros((0, 3)), grad=False)
    check_op(lambda lib, x: lib.unique(x, dim=0), np.zeros((2, 0)), grad=False)  # torch's error
    check_op(lambda lib, x: lib.unique(x, dim=2), ROWS, grad=False)  # IndexError


def test_unique_records_a_node_without_a_derivative() -> None:
    check_op(lambda lib, x: lib.unique(x), VALUES, grad=False)  # requires_grad compared
    for name, call in [("_unique2", lambda x: x.unique()), ("unique_dim", lambda x: x.unique(dim=0)),
                       ("unique_consecutive", lambda x: x.unique_consecutive())]:
        for x in pair(np.ones((2, 2)), requires_grad=True):
            with pytest.raises(NotImplementedError, match=f"the derivative for '{name}' is not implemented"):
                call(x).sum().backward()


@pytest.mark.parametrize("inverse", [True, False])
@pytest.mark.parametrize("counts", [True, False])
def test_unique_consecutive(inverse: bool, counts: bool) -> None:
    kwargs = {"return_inverse": inverse, "return_counts": counts}
    runs = np.array([1, 1, 2, 2, 3, 1, 1])
    check_op(lambda lib, x: lib.unique_consecutive(x, **kwargs), runs, grad=False)
    check_op(lambda lib, x: x.unique_consecutive(**kwargs), VALUES, grad=False)
    check_op(lambda lib, x: lib.unique_consecutive(x, dim=0, **kwargs), ROWS, grad=False)
    check_op(lambda lib, x: lib.unique_consecutive(x, dim=1, **kwargs), ROWS, grad=False)


@given(values=hnp.arrays("int64", hnp.array_shapes(min_dims=1, max_dims=3, max_side=4), elements=st.integers(-2, 2)),
       data=st.data())
def test_any_unique_matches_torch(values: np.ndarray, data: st.DataObject) -> None:
    dim = data.draw(st.one_of(st.none(), st.integers(-values.ndim, values.ndim - 1)))
    check_op(lambda lib, x: lib.unique(x, return_inverse=True, return_counts=True, dim=dim), values, grad=False)
    check_op(lambda lib, x: lib.unique_consecutive(x, return_inverse=True, return_counts=True, dim=dim), values, grad=False)


# --- cross ---------------------------------------------------------------------------------------
def vectors(shape: tuple, seed: int, dtype: str = "float64") -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


@pytest.mark.parametrize("shapes,dim", [(((3,), (3,)), 0), (((4, 3), (4, 3)), 1), (((4, 3), (1, 3)), -1),
                                        (((3, 5), (3, 5)), 0), (((2, 1, 3), (1, 4, 3)), 2)])
def test_cross_values_and_gradients(shapes: tuple, dim: int) -> None:
    a, b = vectors(shapes[0], 1), vectors(shapes[1], 2)
    check_op(lambda lib, x, y: lib.cross(x, y, dim=dim), a, b)
    check_op(lambda lib, x, y: x.cross(y, dim), a, b)
    check_op(lambda lib, x, y: lib.linalg.cross(x, y, dim=dim), a, b)


def test_linalg_cross_uses_the_last_dim_and_torch_cross_the_first_of_size_3() -> None:
    a, b = vectors((3, 3), 1, "float32"), vectors((3, 3), 2, "float32")
    check_op(lambda lib, x, y: lib.linalg.cross(x, y), a, b)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tl.cross(tl.tensor(a), tl.tensor(b))
    assert any("without specifying the dim arg is deprecated" in str(w.message) for w in caught)
    check_op(lambda lib, x, y: lib.cross(x, y), a, b)
    check_op(lambda lib, x, y: lib.cross(x, y), vectors((1, 3), 1), vectors((3, 3), 2))
    check_op(lambda lib, x, y: lib.cross(x, y), vectors((3, 1), 1), vectors((3, 3), 2))


@pytest.mark.parametrize("call", [
    lambda lib: lib.cross(lib.ones(2, 2), lib.ones(2, 2)),                       # no dim of size 3
    lambda lib: lib.linalg.cross(lib.ones(3, 2), lib.ones(3, 2)),                # last dim is not 3
    lambda lib: lib.cross(lib.ones(2, 3), lib.ones(3, 3), dim=1),                # no broadcast
    lambda lib: lib.cross(lib.ones(3), lib.ones(3, 3), dim=0),                   # ndim differs
    lambda lib: lib.cross(lib.ones(2, 3), lib.ones(2, 3), dim=2),                # IndexError
    lambda lib: lib.cross(lib.tensor([1, 2, 3]), lib.tensor([1.0, 2, 3]), dim=0),  # dtypes differ
    lambda lib: lib.cross(lib.tensor([True, False, True]), lib.tensor([True, True, True]), dim=0),
    lambda lib: lib.cross([1, 2, 3], lib.ones(3), dim=0),
])
def test_cross_errors(call) -> None:
    check_op(lambda lib, _: call(lib), np.zeros(1), grad=False)


def test_cross_integers_and_empty() -> None:
    check_op(lambda lib, x, y: lib.cross(x, y, dim=0), np.array([1, 2, 3]), np.array([4, 5, 6]))
    check_op(lambda lib, x, y: lib.linalg.cross(x, y), np.zeros((0, 3)), np.zeros((0, 3)))


@given(shapes=hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=2, max_side=3), seed=st.integers(0, 99))
def test_any_broadcast_cross_matches_torch(shapes, seed: int) -> None:
    a = vectors((*shapes.input_shapes[0], 3), seed)
    b = vectors((*shapes.input_shapes[1], 3), seed + 1)
    if a.ndim == b.ndim:
        check_op(lambda lib, x, y: lib.linalg.cross(x, y), a, b)
