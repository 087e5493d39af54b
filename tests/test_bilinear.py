"""F.bilinear and nn.Bilinear against torch: values, gradients, errors, parameter shapes and init."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import tensorlab as tl
from tests.oracle import assert_same, check_op, standard_normal


def F(lib: Any) -> Any:  # noqa: N802 - read as torch.nn.functional as F
    return lib.nn.functional


@pytest.mark.parametrize("batch", [(), (2,), (0,), (2, 3)])
@pytest.mark.parametrize("bias", [True, False])
def test_bilinear_matches_torch(batch: tuple, bias: bool) -> None:
    x1, x2 = standard_normal((*batch, 3), 1), standard_normal((*batch, 4), 2)
    weight, b = standard_normal((5, 3, 4), 3), standard_normal((5,), 4)
    if bias:
        check_op(lambda lib, a, c, w, d: F(lib).bilinear(a, c, w, d), x1, x2, weight, b)
    else:
        check_op(lambda lib, a, c, w: F(lib).bilinear(a, c, w), x1, x2, weight)


def test_the_seed_einsum_is_bilinear() -> None:
    """The notes: einsum('bn,anm,bm->ba', l, A, r) is F.bilinear(l, r, A) (bias-free), in both libraries."""
    left, weight, right = standard_normal((2, 5), 5), standard_normal((3, 5, 4), 6), standard_normal((2, 4), 7)
    for lib in (torch, tl):
        l_, a_, r_ = lib.tensor(left), lib.tensor(weight), lib.tensor(right)
        by_einsum = lib.einsum("bn,anm,bm->ba", l_, a_, r_).numpy()
        np.testing.assert_allclose(F(lib).bilinear(l_, r_, a_).numpy(), by_einsum, rtol=1e-12, atol=1e-12)
    check_op(lambda lib, l_, a_, r_: F(lib).bilinear(l_, r_, a_), left, weight, right)


@given(batch=st.lists(st.integers(0, 3), max_size=2).map(tuple), n1=st.integers(1, 4), n2=st.integers(1, 4),
       n_out=st.integers(1, 4), bias=st.booleans(), seed=st.integers(0, 1000), dtype=st.sampled_from(["float32", "float64"]))
def test_bilinear_random(batch: tuple, n1: int, n2: int, n_out: int, bias: bool, seed: int, dtype: str) -> None:
    args = [standard_normal((*batch, n1), seed, dtype), standard_normal((*batch, n2), seed + 1, dtype),
            standard_normal((n_out, n1, n2), seed + 2, dtype)] + ([standard_normal((n_out,), seed + 3, dtype)] if bias else [])
    check_op(lambda lib, *t: F(lib).bilinear(*t), *args, rtol=1e-4, atol=1e-5)


def test_bilinear_non_contiguous_inputs() -> None:
    x1 = standard_normal((3, 2), 1)
    x2 = standard_normal((2, 8), 2)
    check_op(lambda lib, a, c, w: F(lib).bilinear(a.t(), c[:, ::2], w.transpose(1, 2)), x1, x2, standard_normal((5, 4, 3), 3))


@pytest.mark.parametrize(
    ("shapes", "match"),
    [
        (((2, 3), (3, 4), (5, 3, 4), (5,)), "input batch dimensions do not match at dim 0: got 2 and 3"),
        (((2, 3), (2, 5), (5, 3, 4), (5,)), "input2 size does not match weight size: got 5 but expected 4"),
        (((2, 4), (2, 4), (5, 3, 4), (5,)), "input1 size does not match weight size: got 4 but expected 3"),
        (((2, 3), (2, 4), (5, 3, 4), (4,)), "bias size does not match weight size: got 4 but expected 5"),
        (((2, 2, 3), (2, 4), (5, 3, 4), (5,)), "input dimensions do not match: got 3 and 2"),
        (((2, 3), (2, 4), (3, 4), (5,)), None),
    ],
)
def test_bilinear_errors(shapes: tuple, match: str | None) -> None:
    arrays = [standard_normal(shape, k) for k, shape in enumerate(shapes)]
    check_op(lambda lib, *t: F(lib).bilinear(*t), *arrays, match=match, same_message=match is not None)


@pytest.mark.parametrize(("n1", "n2"), [(0, 4), (3, 0)])
def test_bilinear_with_an_empty_feature_dim_is_the_empty_sum(n1: int, n2: int) -> None:
    """torch's F.bilinear raises here (a reshape in its kernel); tensorlab gives what torch.einsum gives (documented)."""
    x1, x2, weight, bias = (standard_normal(shape, k) for k, shape in enumerate([(2, n1), (2, n2), (5, n1, n2), (5,)]))
    with pytest.raises(RuntimeError, match="cannot reshape tensor of 0 elements"):
        torch.nn.functional.bilinear(torch.tensor(x1), torch.tensor(x2), torch.tensor(weight))
    check_op(lambda lib, a, c, w, b: F(lib).bilinear(a, c, w, b) if lib is tl else lib.einsum("bi,oij,bj->bo", a, w, c) + b,
             x1, x2, weight, bias)


def test_bilinear_mixed_dtypes_error() -> None:
    check_op(
        lambda lib, a, c, w, b: F(lib).bilinear(a, c, w, b),
        standard_normal((2, 3)), standard_normal((2, 4), 1, "float32"), standard_normal((5, 3, 4), 2, "float32"),
        standard_normal((5,), 3, "float32"), same_message=True,
    )


# --- the module ----------------------------------------------------------------------------------
@pytest.mark.parametrize("bias", [True, False])
def test_module_shapes_repr_and_forward(bias: bool) -> None:
    t, m = torch.nn.Bilinear(3, 4, 5, bias=bias), tl.nn.Bilinear(3, 4, 5, bias=bias)
    assert repr(m) == repr(t)
    assert [(name, tuple(p.shape)) for name, p in m.named_parameters()] == [(name, tuple(p.shape)) for name, p in t.named_parameters()]
    m.weight.data = tl.tensor(t.weight.detach().numpy().copy())  # torch's initial values, so both compute the same
    if bias:
        m.bias.data = tl.tensor(t.bias.detach().numpy().copy())
    x1, x2 = standard_normal((2, 3), 1, "float32"), standard_normal((2, 4), 2, "float32")
    out_t, out_m = t(torch.tensor(x1), torch.tensor(x2)), m(tl.tensor(x1), tl.tensor(x2))
    assert_same(out_t, out_m)
    out_t.sum().backward()
    out_m.sum().backward()
    assert_same(t.weight.grad, m.weight.grad)
    if bias:
        assert_same(t.bias.grad, m.bias.grad)


def test_module_initialisation_bounds() -> None:
    """Like torch: weight and bias uniform in +-1/sqrt(in1_features), whatever in2_features is."""
    tl.manual_seed(0)
    layer = tl.nn.Bilinear(25, 200, 40)
    bound = 1 / math.sqrt(25)
    for p in (layer.weight, layer.bias):
        values = p.detach().numpy()
        assert values.min() >= -bound and values.max() <= bound
        assert values.max() > 0.8 * bound and values.min() < -0.8 * bound  # uniform, not narrower
    assert layer.weight.dtype is tl.float32 and layer.weight.requires_grad
    assert tl.nn.Bilinear(2, 3, 4, dtype=tl.float64).weight.dtype is tl.float64
    torch_layer = torch.nn.Bilinear(25, 200, 40)
    assert float(torch_layer.weight.detach().abs().max()) <= bound  # the same bound holds in torch


def test_module_needs_in1_features() -> None:
    for lib in (torch, tl):
        with pytest.raises(ValueError, match=r"in1_features must be > 0, but got \(in1_features=0\)"):
            lib.nn.Bilinear(0, 2, 3)
    assert tuple(tl.nn.Bilinear(2, 0, 3).weight.shape) == tuple(torch.nn.Bilinear(2, 0, 3).weight.shape)
