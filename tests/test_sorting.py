"""sort, argsort, msort, topk, kthvalue against torch: values, indices (torch's stable order, NaN
largest), dtype, shape, the gradient routed back through the indices, node names and errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from tests.oracle import check_op, standard_normal

TIES = np.array([[3.0, 1.0, np.nan, 1.0, 2.0], [0.0, 0.0, -1.0, 5.0, 0.0]])
X = standard_normal((3, 4, 5), seed=4)


@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("descending", [False, True])
def test_stable_sort_and_argsort(dim: int, descending: bool) -> None:
    for x in (X, TIES, X.astype("float32")):
        check_op(lambda lib, a: tuple(lib.sort(a, dim=dim, descending=descending, stable=True)), x)
        check_op(lambda lib, a: lib.argsort(a, dim=dim, descending=descending, stable=True), x)
        check_op(lambda lib, a: a.sort(dim, descending), x)


@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8", "bool", "float16"])
def test_sort_other_dtypes(dtype: str) -> None:
    values = (standard_normal((4, 6), seed=5) * 3).astype(dtype)
    for descending in (False, True):
        check_op(lambda lib, a, descending=descending: tuple(lib.sort(a, dim=1, descending=descending, stable=True)), values)


def test_zero_dim_and_empty_inputs() -> None:
    check_op(lambda lib, a: tuple(lib.sort(a)), np.array(5.0))
    check_op(lambda lib, a: tuple(lib.topk(a, 1)), np.array(5.0))
    check_op(lambda lib, a: tuple(lib.kthvalue(a, 1)), np.array(5.0))
    check_op(lambda lib, a: tuple(lib.sort(a, 0)), np.zeros((0, 3)))
    check_op(lambda lib, a: tuple(lib.topk(a, 0, dim=1)), np.zeros((2, 3)))
    check_op(lambda lib, a: lib.msort(a), X)


@pytest.mark.parametrize("k", [1, 3, 5])
@pytest.mark.parametrize("largest", [True, False])
def test_topk(k: int, largest: bool) -> None:
    check_op(lambda lib, a: tuple(lib.topk(a, k, dim=2, largest=largest)), X)
    check_op(lambda lib, a: tuple(a.topk(k, 2, largest)), X)


def test_topk_with_ties_picks_elements_equal_to_torchs() -> None:
    """Which of several equal elements topk names is torch's choice; the values and the gradient
    reaching the tied positions in total are not."""
    check_op(lambda lib, a: lib.topk(a, 3).values, TIES, grad=False)
    check_op(lambda lib, a: lib.topk(a, 3, largest=False).values, TIES, grad=False)
    check_op(lambda lib, a: (lambda r: bool(a.gather(1, r.indices).equal(r.values)))(lib.topk(a, 4)), TIES[1:], grad=False)


@pytest.mark.parametrize("k", [1, 2, 4])
@pytest.mark.parametrize("keepdim", [False, True])
def test_kthvalue(k: int, keepdim: bool) -> None:
    check_op(lambda lib, a: tuple(lib.kthvalue(a, k, 1, keepdim)), X)
    check_op(lambda lib, a: tuple(a.kthvalue(k, dim=0, keepdim=keepdim)), X[:, :, 0])


@pytest.mark.parametrize("call", [
    lambda lib, a: lib.topk(a, 6),
    lambda lib, a: lib.topk(a, -1),
    lambda lib, a: lib.kthvalue(a, 0),
    lambda lib, a: lib.kthvalue(a, 6, 1),
    lambda lib, a: lib.sort(a, 3),
    lambda lib, a: lib.argsort(a, -4),
])
def test_errors(call) -> None:
    check_op(call, X[0])


def test_node_names() -> None:
    import tensorlab as tl

    x = tl.ones(2, 3, requires_grad=True)
    assert type(tl.sort(x).values.grad_fn).__name__ == "SortBackward0"
    assert type(tl.sort(x, stable=True).values.grad_fn).__name__ == "SortBackward1"
    assert type(tl.topk(x, 1).values.grad_fn).__name__ == "TopkBackward0"
    assert type(tl.kthvalue(x, 1).values.grad_fn).__name__ == "KthvalueBackward0"


@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=1, max_dims=3, max_side=5), unique=True,
                  elements=st.floats(-100, 100, allow_nan=False)), st.data())
def test_hypothesis_sort_topk_kthvalue(x: np.ndarray, data: st.DataObject) -> None:
    dim = data.draw(st.integers(-x.ndim, x.ndim - 1))
    k = data.draw(st.integers(1, x.shape[dim]))
    descending = data.draw(st.booleans())
    check_op(lambda lib, a: tuple(lib.sort(a, dim=dim, descending=descending, stable=True)), x)
    check_op(lambda lib, a: tuple(lib.topk(a, k, dim, largest=descending)), x)
    check_op(lambda lib, a: tuple(lib.kthvalue(a, k, dim)), x)


@given(hnp.arrays(np.int64, hnp.array_shapes(min_dims=1, max_dims=2, max_side=6), elements=st.integers(-3, 3)))
def test_hypothesis_stable_ties(x: np.ndarray) -> None:
    for descending in (False, True):
        check_op(lambda lib, a, descending=descending: tuple(lib.sort(a, dim=-1, descending=descending, stable=True)), x)
