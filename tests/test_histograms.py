"""histogram and histogramdd against torch: counts, edges (to torch's last bit), dtypes, the named
tuple, weights, density, the NotImplemented gradient, and torch's errors on bad input.
(bincount and histc are tested in test_sampling_and_histograms.py.)"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import tensorlab as tl
from tests.oracle import check_op

X = np.array([1.0, 2.0, 1.0, 4.0, 2.5], dtype="float32")
POINTS = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 0.0], [2.0, 2.0]], dtype="float32")


# --- histogram --------------------------------------------------------------------------------
@pytest.mark.parametrize("call", [
    lambda lib, a: lib.histogram(a),  # 100 bins over [min, max]
    lambda lib, a: lib.histogram(a, 4),
    lambda lib, a: a.histogram(4),
    lambda lib, a: lib.histogram(a, bins=4, range=(0.0, 5.0)),
    lambda lib, a: lib.histogram(a, bins=4, range=[0, 5]),  # ints are floats here
    lambda lib, a: lib.histogram(a, bins=4, range=(0.0, 5.0), density=True),
    lambda lib, a: lib.histogram(a, 4, weight=lib.tensor([1.0, 2.0, 3.0, 4.0, 5.0])),
    lambda lib, a: lib.histogram(a, 4, weight=lib.tensor([[1.0], [2.0], [3.0], [4.0], [5.0]])),  # any shape, same numel
    lambda lib, a: lib.histogram(a, 2, weight=lib.ones(5), density=True),
    lambda lib, a: lib.histogram(a, lib.tensor([0.0, 1.0, 3.0, 5.0])),  # given edges
    lambda lib, a: a.histogram(lib.tensor([0.0, 1.0, 3.0, 5.0]), density=True),
    lambda lib, a: lib.histogram(a, lib.tensor([0.0, 1.0, 1.0, 5.0])),  # a repeated edge: an empty bin
    lambda lib, a: lib.histogram(a, lib.tensor([5.0, 3.0, 1.0, 0.0])),  # descending edges count nothing
    lambda lib, a: lib.histogram(a, 3, range=(1.0, 1.0)),  # one point: widened by 0.5 each side
    lambda lib, a: lib.histogram(a, 3, range=(2.0, 3.0)),  # values outside are left out
    lambda lib, a: lib.histogram(a.reshape(5, 1), 2),  # any shape: flattened
    lambda lib, a: lib.histogram(a[0], 2),  # 0-d
    lambda lib, a: lib.histogram(a.double(), 3),
    lambda lib, a: lib.histogram(a.double(), 3, weight=lib.ones(5, dtype=lib.float64)),
])
def test_histogram_fixed(call) -> None:
    check_op(call, X, grad=False)


@pytest.mark.parametrize("values", [
    [2.0, 2.0],  # one distinct value
    [],  # no data: edges over [0, 1], density 0/0 = nan
    [0.1, 0.2, 0.30000000000000004, 0.7],  # values right on computed edges
    [-1e6, 1e6, 3.0],
])
@pytest.mark.parametrize("density", [False, True])
def test_histogram_edge_cases(values: list, density: bool) -> None:
    for dtype in ("float32", "float64"):
        check_op(lambda lib, a: lib.histogram(a, 10, density=density), np.array(values, dtype), grad=False)
        check_op(lambda lib, a: lib.histogram(a, 10, range=(0.0, 1.0), density=density), np.array(values, dtype), grad=False)


def test_histogram_result_is_a_named_tuple() -> None:
    hist, edges = tl.histogram(tl.tensor([1.0, 2.0]), 2)
    result = tl.histogram(tl.tensor([1.0, 2.0]), 2)
    assert result.hist is result[0] and result.bin_edges is result[1] and hist.shape == (2,) and edges.shape == (3,)
    assert type(result).__name__ == type(torch.histogram(torch.tensor([1.0, 2.0]), 2)).__name__ == "histogram"
    assert repr(result).startswith("tensorlab.return_types.histogram(\nhist=tensor(")


def test_histogram_has_no_gradient() -> None:
    """Like torch: the results require grad, hanging off a NotImplemented node, and backward raises."""
    check_op(lambda lib, a: lib.histogram(a, 3).hist.sum().backward(), X, match="derivative for aten::histogram is not implemented")
    for lib in (torch, tl):
        x, y = lib.tensor([1.0, 2.0], requires_grad=True), lib.tensor([1.0, 2.0])
        for result in (lib.histogram(x, 2), lib.histogram(y, 2, weight=x), lib.histogram(y, x), lib.histogramdd(x.reshape(2, 1), 2)):
            assert all(t.requires_grad for t in (result.hist, *result[1:]) if isinstance(t, lib.Tensor))
            assert type(result.hist.grad_fn).__name__ == "NotImplemented"
        assert not lib.histogram(y, 2).hist.requires_grad
        with lib.no_grad():
            assert not lib.histogram(x, 2).hist.requires_grad


@pytest.mark.parametrize(("call", "match"), [
    (lambda lib, a: lib.histogram(a.long(), 3), "\"histogramdd\" not implemented for 'Long'"),
    (lambda lib, a: lib.histogram(a.half(), 3), "not implemented for 'Half'"),
    (lambda lib, a: lib.histogram(a.long(), lib.tensor([0, 2, 4])), "\"histogram_cpu\" not implemented for 'Long'"),
    (lambda lib, a: lib.histogram(a, 0), "torch.histogram(): bins must be > 0, but got 0 for dimension 0"),
    (lambda lib, a: lib.histogram(a, -1), "bins must be > 0, but got -1"),
    (lambda lib, a: lib.histogram(a, lib.tensor([1.0])), "bins must be > 0, but got 0"),
    (lambda lib, a: lib.histogram(a, lib.tensor([], dtype=lib.float32)), "bins tensor should have at least 1 element"),
    (lambda lib, a: lib.histogram(a, lib.tensor([[0.0, 1.0]])), "bins tensor should have one dimension, but got 2"),
    (lambda lib, a: lib.histogram(a, lib.tensor([0, 1, 3])), "input with dtype float and bins for dimension 0 with dtype long int"),
    (lambda lib, a: lib.histogram(a, lib.tensor([0.0, 1.0], dtype=lib.float64)), "bins for dimension 0 with dtype double"),
    (lambda lib, a: lib.histogram(a, 3, range=(5.0, 1.0)), "min should not exceed max, but got min 5 max 1 for dimension 0"),
    (lambda lib, a: lib.histogram(a, 3, range=(0.0, float("inf"))), "dimension 0's range [0, inf] is not finite"),
    (lambda lib, a: lib.histogram(lib.tensor([1.0, float("nan")]), 3), "range [nan, nan] is not finite"),
    (lambda lib, a: lib.histogram(lib.tensor([1.0, float("inf")]), 3), "range [1, inf] is not finite"),
    (lambda lib, a: lib.histogram(a, 2, range=(0.0, 1.0, 2.0)), "range should have 2 elements, but got 3"),
    (lambda lib, a: lib.histogram(a, 3, weight=lib.tensor([1.0, 2.0])), "input with shape [5, 1] and weight with shape [2]"),
    (lambda lib, a: lib.histogram(a, 3, weight=lib.tensor([1, 2, 3, 4, 5])), "got input(float), and weight(long int)"),
    (lambda lib, a: lib.histogram(a, 3, weight=lib.ones(5, dtype=lib.float64)), "and weight(double)"),
])
def test_histogram_errors(call, match: str) -> None:
    check_op(call, X, grad=False, match=match)


@pytest.mark.parametrize("call", [
    lambda lib, a: lib.histogram(a, 2.5),
    lambda lib, a: lib.histogram(a, True),
    lambda lib, a: lib.histogram(a, "4"),
    lambda lib, a: lib.histogram(a, lib.tensor([0.0, 1.0]), range=(0.0, 1.0)),  # range only with a number of bins
    lambda lib, a: lib.histogram(a.tolist(), 2),
    lambda lib, a: lib.histogram(a, 2, weight=[1.0, 2.0, 3.0, 4.0, 5.0]),
])
def test_histogram_argument_types(call) -> None:
    check_op(call, X, grad=False)


@st.composite
def histogram_cases(draw: st.DrawFn) -> tuple:
    """Values with ties (small halves) or normal floats; bins as a count (with or without range)
    or as sorted edges; weights or not; density or not."""
    dtype = draw(st.sampled_from(["float32", "float64"]))
    size = draw(st.integers(0, 20))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    values = (rng.integers(-6, 7, size) / 2 if draw(st.booleans()) else rng.standard_normal(size) * 3).astype(dtype)
    weights = rng.standard_normal(size).astype(dtype) if draw(st.booleans()) else None
    if draw(st.booleans()):
        edges = np.sort(rng.integers(-8, 9, draw(st.integers(2, 6))) / 2).astype(dtype)
        return values, edges, None, weights, draw(st.booleans())
    low = draw(st.integers(-4, 4)) / 2
    span = (low, low + draw(st.integers(0, 8)) / 2) if draw(st.booleans()) else None
    return values, draw(st.integers(1, 12)), span, weights, draw(st.booleans())


@given(case=histogram_cases())
def test_histogram_hypothesis(case: tuple) -> None:
    values, bins, span, weights, density = case
    arrays = [values] + ([] if isinstance(bins, int) else [bins]) + ([] if weights is None else [weights])

    def call(lib, a, *rest):
        rest = list(rest)
        edges = bins if isinstance(bins, int) else rest.pop(0)
        weight = rest.pop(0) if weights is not None else None
        if span is None:
            return lib.histogram(a, edges, weight=weight, density=density)
        return lib.histogram(a, edges, range=span, weight=weight, density=density)

    check_op(call, *arrays, grad=False)


# --- histogramdd --------------------------------------------------------------------------------
@pytest.mark.parametrize("call", [
    lambda lib, a: lib.histogramdd(a, 2),
    lambda lib, a: lib.histogramdd(a, [3, 3], weight=lib.tensor([1.0, 2.0, 4.0, 8.0])),
    lambda lib, a: lib.histogramdd(a, (2, 2)),
    lambda lib, a: lib.histogramdd(a, [2, 3], range=[0.0, 1.0, 0.0, 2.0]),
    lambda lib, a: lib.histogramdd(a, [lib.tensor([0.0, 1.0, 2.0]), lib.tensor([0.0, 2.0])]),
    lambda lib, a: lib.histogramdd(a, 2, density=True),
    lambda lib, a: lib.histogramdd(a.reshape(2, 2, 2), 2),  # leading dims are points
    lambda lib, a: lib.histogramdd(a[:0], 2),
    lambda lib, a: lib.histogramdd(a.double(), [1, 4]),
])
def test_histogramdd_fixed(call) -> None:
    check_op(call, POINTS, grad=False)


@pytest.mark.parametrize(("call", "match"), [
    (lambda lib, a: lib.histogramdd(a[0], 2), "input tensor should have at least 2 dimensions"),
    (lambda lib, a: lib.histogramdd(a, [2]), "The size of bins must be equal to the innermost dimension"),
    (lambda lib, a: lib.histogramdd(a, [2, 0]), "bins must be > 0, but got 0 for dimension 1"),
    (lambda lib, a: lib.histogramdd(a, [2, 3], range=[0.0, 1.0]), "2-dimensional histogram range should have 4 elements"),
    (lambda lib, a: lib.histogramdd(a, [2, 3], range=[0.0, 1.0, 3.0, 2.0]), "min 3 max 2 for dimension 1"),
    (lambda lib, a: lib.histogramdd(a, [lib.tensor([0.0, 1.0])]), "expected 2 sequences of bin edges"),
    (lambda lib, a: lib.histogramdd(a, 2, weight=lib.ones(4, 1)), "input with shape [4, 2] and weight with shape [4, 1]"),
    (lambda lib, a: lib.histogramdd(a.long(), 2), "\"histogramdd\" not implemented for 'Long'"),
])
def test_histogramdd_errors(call, match: str) -> None:
    check_op(call, POINTS, grad=False, match=match)


def test_histogramdd_takes_no_single_tensor_of_edges() -> None:
    check_op(lambda lib, a: lib.histogramdd(a, lib.tensor([0.0, 1.0, 2.0])), POINTS, grad=False)


@given(seed=st.integers(0, 2**32 - 1), size=st.integers(0, 12), dims=st.integers(1, 3), weighted=st.booleans(), density=st.booleans())
def test_histogramdd_hypothesis(seed: int, size: int, dims: int, weighted: bool, density: bool) -> None:
    rng = np.random.default_rng(seed)
    points = (rng.integers(-4, 5, (size, dims)) / 2).astype("float32")
    bins = [int(b) for b in rng.integers(1, 5, dims)]
    if weighted:
        check_op(lambda lib, a, w: lib.histogramdd(a, bins, weight=w, density=density), points, rng.random(size).astype("float32"), grad=False)
    else:
        check_op(lambda lib, a: lib.histogramdd(a, bins, density=density), points, grad=False)


@given(values=st.lists(st.floats(-1e3, 1e3, width=32), max_size=3), bins=st.integers(1, 40), dtype=st.sampled_from(["float32", "float64"]))
def test_histogram_edges_are_torchs_to_the_last_bit(values: list, bins: int, dtype: str) -> None:
    """One value sits exactly on the middle edge of its widened range: it must land in torch's bin."""
    check_op(lambda lib, a: lib.histogram(a, bins), np.array(values, dtype), grad=False)
