"""``tensorlab.functional`` (torch.functional's names) and the ops it brought: meshgrid,
cartesian_prod, atleast_1d/2d/3d, tensordot, cdist, block_diag — values, views (meshgrid's
outputs are stride-0 views, as torch's), gradients and errors against torch."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch
import torch.functional
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import tensorlab as tl
import tensorlab.functional
from tests.oracle import check_op


def test_every_name_of_torch_functional_is_here_or_listed_as_left_out() -> None:
    here = set(tensorlab.functional.__all__)
    left_out = set(tensorlab.functional.LEFT_OUT)
    assert here | left_out == set(torch.functional.__all__)
    assert not here & left_out
    for name in here:
        assert getattr(tensorlab.functional, name) is getattr(tl, name), name  # the namespace's own function


def test_import_as_torch_does() -> None:
    import tensorlab.functional as F  # how course scripts spell it

    check_op(lambda lib, a, b: (F if lib is tl else torch.functional).einsum("ij,jk->ik", a, b), np.ones((2, 3)), np.ones((3, 2)))


@pytest.mark.parametrize("indexing", ["ij", "xy"])
def test_meshgrid(indexing: str) -> None:
    x, y, z = np.arange(2.0), np.arange(3.0) + 10, np.array(7.0)
    check_op(lambda lib, a, b: lib.meshgrid(a, b, indexing=indexing), x, y)
    check_op(lambda lib, a, b, c: lib.meshgrid([a, b, c], indexing=indexing), x, y, z)
    check_op(lambda lib, a: lib.meshgrid(a, indexing=indexing), x)
    check_op(lambda lib, a, b: lib.functional.meshgrid(a, b, indexing=indexing), np.zeros(0), y)


def test_meshgrid_warns_without_indexing_and_checks_its_inputs() -> None:
    for lib in (torch, tl):
        with pytest.warns(UserWarning, match="it will be required to pass the indexing argument"):
            lib.meshgrid(lib.ones(2), lib.ones(3))
    check_op(lambda lib, a: lib.meshgrid(a, a, indexing="foo"), np.ones(2), match='indexing must be one of "xy" or "ij"')
    check_op(lambda lib, a: lib.meshgrid(a, indexing="ij"), np.ones((2, 2)), match="Expected 0D or 1D tensor")
    check_op(lambda lib, a, b: lib.meshgrid(a, b, indexing="ij"), np.ones(2), np.ones(2, "int64"), match="same dtype")
    check_op(lambda lib, _: lib.meshgrid([], indexing="ij"), np.ones(1), match="non-empty TensorList")


def test_cartesian_prod() -> None:
    check_op(lambda lib, a, b: lib.cartesian_prod(a, b), np.array([1, 2]), np.array([3, 4, 5]))
    check_op(lambda lib, a, b, c: lib.cartesian_prod(a, b, c), np.arange(2.0), np.arange(3.0), np.arange(2.0))
    check_op(lambda lib, a: lib.cartesian_prod(a), np.arange(3.0))
    check_op(lambda lib, a: lib.cartesian_prod(a, a), np.ones((2, 2)), match="Expect a 1D vector")


@pytest.mark.parametrize("name", ["atleast_1d", "atleast_2d", "atleast_3d"])
@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (2, 3, 4)])
def test_atleast(name: str, shape: tuple) -> None:
    values = np.arange(float(np.prod(shape))).reshape(shape)
    check_op(lambda lib, a: getattr(lib, name)(a), values)
    check_op(lambda lib, a, b: getattr(lib, name)(a, b), values, np.array(1.0))
    check_op(lambda lib, a: getattr(lib, name)([a]), values)
    check_op(lambda lib, _: getattr(lib, name)([1]), np.ones(1), grad=False)


@pytest.mark.parametrize("a_shape,b_shape,dims", [((2, 3, 4), (3, 4, 5), 2), ((2, 3), (3, 2), ([1], [0])), ((2, 3), (2, 3), 0),
                                                  ((2, 3, 4), (4, 3), ([1, 2], [1, 0])), ((3,), (3,), 1), ((2, 3), (3, 4), (1, 0))])
def test_tensordot(a_shape: tuple, b_shape: tuple, dims) -> None:
    rng = np.random.default_rng(0)
    check_op(lambda lib, a, b: lib.tensordot(a, b, dims=dims), rng.standard_normal(a_shape), rng.standard_normal(b_shape))


@pytest.mark.parametrize("call", [
    lambda lib: lib.tensordot(lib.ones(2, 3), lib.ones(4, 3), dims=1),
    lambda lib: lib.tensordot(lib.ones(2, 3), lib.ones(3, 3, dtype=lib.float64), dims=1),
    lambda lib: lib.tensordot(lib.ones(2, 3), lib.ones(3, 3), dims=-1),
    lambda lib: lib.tensordot(lib.ones(2, 3), lib.ones(3, 3), dims=([0, 1], [0])),
])
def test_tensordot_errors(call) -> None:
    check_op(lambda lib, _: call(lib), np.zeros(1), grad=False)


@pytest.mark.parametrize("p", [2.0, 1.0, 0.0, 3.0, float("inf")])
def test_cdist(p: float) -> None:
    rng = np.random.default_rng(1)
    x1, x2 = rng.standard_normal((2, 3, 4)), rng.standard_normal((2, 5, 4))
    check_op(lambda lib, a, b: lib.cdist(a, b, p=p), x1, x2)
    check_op(lambda lib, a, b: lib.cdist(a, b, p), x1[0].astype("float32"), x2[0].astype("float32"))
    check_op(lambda lib, a, b: lib.cdist(a, b, p), x1, x2[:1])  # batch dims broadcast


def test_cdist_of_equal_rows_has_gradient_zero() -> None:
    rows = np.array([[1.0, 2.0], [3.0, 4.0]])
    check_op(lambda lib, a, b: lib.cdist(a, b), rows, rows.copy())


@pytest.mark.parametrize("call", [
    lambda lib: lib.cdist(lib.ones(2, 3, dtype=lib.int64), lib.ones(2, 3, dtype=lib.int64)),
    lambda lib: lib.cdist(lib.ones(2, 3), lib.ones(2, 4)),
    lambda lib: lib.cdist(lib.ones(2, 3), lib.ones(2, 3), p=-1.0),
    lambda lib: lib.cdist(lib.ones(3), lib.ones(2, 3)),
    lambda lib: lib.cdist(lib.ones(2, 3), lib.ones(2, 3, dtype=lib.float64)),
])
def test_cdist_errors(call) -> None:
    check_op(lambda lib, _: call(lib), np.zeros(1), grad=False)


def test_block_diag() -> None:
    check_op(lambda lib, a, b, c: lib.block_diag(a, b, c), np.ones((2, 2)), np.array([3.0]), np.arange(3.0).reshape(1, 3))
    check_op(lambda lib, a, b: lib.block_diag(a, b), np.array([1, 2]), np.ones((1, 1)))
    check_op(lambda lib, a: lib.block_diag(a), np.array(5.0))
    check_op(lambda lib, _: lib.block_diag(), np.zeros(1), grad=False)
    check_op(lambda lib, a: lib.block_diag(a), np.ones((2, 2, 2)), match="Input tensors must have 2 or fewer dimensions")


@given(shapes=st.lists(st.integers(0, 3), min_size=1, max_size=3), indexing=st.sampled_from(["ij", "xy"]))
def test_any_meshgrid(shapes: list, indexing: str) -> None:
    arrays = [np.arange(float(n)) + 10 * i for i, n in enumerate(shapes)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_op(lambda lib, *xs: lib.meshgrid(*xs, indexing=indexing), *arrays)


@given(x1=hnp.arrays("float64", st.tuples(st.integers(1, 3), st.integers(1, 3)), elements=st.floats(-5, 5)),
       rows=st.integers(1, 3), p=st.sampled_from([1.0, 2.0, 3.0]))
def test_any_cdist(x1: np.ndarray, rows: int, p: float) -> None:
    x2 = np.random.default_rng(rows).standard_normal((rows, x1.shape[1]))
    check_op(lambda lib, a, b: lib.cdist(a, b, p=p), x1, x2, rtol=1e-7, atol=1e-9)


def test_unravel_index() -> None:
    check_op(lambda lib, i: lib.unravel_index(i, (2, 3)), np.array([4, 1, -1, 6, -7]))
    check_op(lambda lib, i: lib.unravel_index(i, (2, 3)), np.array(5))
    check_op(lambda lib, i: lib.unravel_index(i, lib.Size([3])), np.array([[1, 2]]))
    check_op(lambda lib, i: lib.unravel_index(i, 5), np.array([0, 7]))
    check_op(lambda lib, i: lib.unravel_index(i, ()), np.array([0]))
    check_op(lambda lib, i: lib.unravel_index(i, (2, 3)), np.array([1, 2], dtype="uint8"))
    check_op(lambda lib, i: lib.unravel_index(i, (2, 3)), np.array([1.0]), grad=False, match="integer dtype")
    check_op(lambda lib, i: lib.unravel_index(i, (2, 3)), np.array([True]), grad=False)
    check_op(lambda lib, i: lib.unravel_index(i, (2, -3)), np.array([1]), match="cannot have negative values")
    check_op(lambda lib, i: lib.unravel_index(i, (2, 0)), np.array([1]))


@given(shape=st.lists(st.integers(1, 4), min_size=1, max_size=3), indices=st.lists(st.integers(-50, 50), max_size=5))
def test_any_unravel_index(shape: list, indices: list) -> None:
    check_op(lambda lib, i: lib.unravel_index(i, tuple(shape)), np.array(indices, dtype="int64"))
