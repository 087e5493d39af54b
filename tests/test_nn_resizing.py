"""adaptive_avg_pool2d / AdaptiveAvgPool2d and interpolate / Upsample against torch: values,
dtype, gradients, grad_fn names, reprs, errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import tensorlab as tl
from tests.oracle import check_op


def F(lib):  # noqa: N802 - reads like the usual ``F.``
    return lib.nn.functional


def randn(*shape: int, seed: int = 0, dtype: str = "float64") -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


# --- adaptive_avg_pool2d ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("shape", "output_size"),
    [
        ((2, 3, 8, 8), 4),  # even bins
        ((2, 3, 7, 5), 3),  # uneven bins that overlap
        ((1, 2, 5, 7), (2, 4)),
        ((1, 2, 5, 7), (None, 3)),
        ((1, 2, 5, 7), 1),  # global average pooling
        ((3, 4, 6), (4, 6)),  # unbatched
        ((1, 1, 3, 3), 5),  # output larger than input
        ((1, 0, 4, 4), 2),  # no channels (torch's backward refuses an empty grad: forward only)
    ],
)
def test_adaptive_avg_pool2d_matches_torch(shape, output_size):
    grad = 0 not in shape
    check_op(lambda lib, x: F(lib).adaptive_avg_pool2d(x, output_size), randn(*shape), grad=grad)
    check_op(lambda lib, x: F(lib).adaptive_avg_pool2d(x, output_size), randn(*shape, dtype="float32"), grad=grad)


def test_adaptive_avg_pool2d_records_torchs_node():
    got = F(tl).adaptive_avg_pool2d(tl.ones(1, 1, 4, 4, requires_grad=True), 3)
    expected = F(torch).adaptive_avg_pool2d(torch.ones(1, 1, 4, 4, requires_grad=True), 3)
    assert type(got.grad_fn).__name__ == type(expected.grad_fn).__name__


@pytest.mark.parametrize(
    ("x", "output_size"),
    [(randn(4, 4), 2), (randn(1, 1, 4, 4), (2, 2, 2)), (np.ones((1, 1, 4, 4), dtype=np.int64), 2), (randn(1, 1, 0, 4), 2)],
    ids=["2-d", "three-sizes", "integers", "empty-spatial"],
)
def test_adaptive_avg_pool2d_errors(x, output_size):
    check_op(lambda lib, x: F(lib).adaptive_avg_pool2d(x, output_size), x)


@pytest.mark.parametrize("output_size", [3, (2, None), (1, 1)])
def test_adaptive_avg_pool2d_module(output_size):
    module_t, module_m = torch.nn.AdaptiveAvgPool2d(output_size), tl.nn.AdaptiveAvgPool2d(output_size)
    assert repr(module_m) == repr(module_t)
    check_op(lambda lib, x: (module_t if lib is torch else module_m)(x), randn(2, 3, 7, 6))


@settings(max_examples=30, deadline=None)
@given(h=st.integers(1, 9), w=st.integers(1, 9), oh=st.integers(1, 6), ow=st.integers(1, 6), seed=st.integers(0, 2**16))
def test_random_adaptive_avg_pool2d(h, w, oh, ow, seed):
    check_op(lambda lib, x: F(lib).adaptive_avg_pool2d(x, (oh, ow)), randn(2, 2, h, w, seed=seed))


# --- interpolate / Upsample ------------------------------------------------------------------
RESIZES = [
    {"scale_factor": 2},
    {"scale_factor": (2, 3)},
    {"scale_factor": 0.5},
    {"scale_factor": 1.7},
    {"scale_factor": 1.7, "recompute_scale_factor": True},
    {"size": 7},
    {"size": (3, 8)},
    {"size": (1, 1)},
    {"size": (5, 5)},  # the input's own size
]


@pytest.mark.parametrize("resize", RESIZES, ids=[str(r) for r in RESIZES])
@pytest.mark.parametrize(("mode", "align_corners"), [("nearest", None), ("bilinear", False), ("bilinear", True)])
def test_interpolate_matches_torch(resize, mode, align_corners):
    x = randn(2, 3, 5, 4)
    check_op(lambda lib, x: F(lib).interpolate(x, mode=mode, align_corners=align_corners, **resize), x)
    check_op(lambda lib, x: F(lib).interpolate(x, mode=mode, align_corners=align_corners, **resize), x.astype("float32"))


@pytest.mark.parametrize("mode", ["nearest", "bilinear"])
def test_interpolate_records_torchs_node(mode):
    got = F(tl).interpolate(tl.ones(1, 1, 2, 2, requires_grad=True), scale_factor=2, mode=mode)
    expected = F(torch).interpolate(torch.ones(1, 1, 2, 2, requires_grad=True), scale_factor=2, mode=mode)
    assert type(got.grad_fn).__name__ == type(expected.grad_fn).__name__


def test_nearest_keeps_inf_and_nan_in_place():
    x = np.array([[[[1.0, np.inf], [np.nan, 2.0]]]])
    check_op(lambda lib, x: F(lib).interpolate(x, scale_factor=2), x, grad=False)


@pytest.mark.parametrize(
    ("x", "options"),
    [
        (randn(1, 1, 4, 4), {}),
        (randn(1, 1, 4, 4), {"size": 2, "scale_factor": 2}),
        (randn(1, 1, 4, 4), {"size": 2, "align_corners": True}),
        (randn(1, 4, 4), {"size": 2, "mode": "bilinear"}),
        (randn(1, 1, 4, 4), {"size": (2, 2, 2)}),
        (randn(1, 1, 4, 4), {"scale_factor": 0.1}),
        (np.ones((1, 1, 4, 4), dtype=np.int64), {"scale_factor": 2}),
        (np.ones((1, 1, 4, 4), dtype=np.int64), {"scale_factor": 2, "mode": "bilinear"}),
    ],
    ids=["no-size", "both", "corners-with-nearest", "3-d-bilinear", "three-sizes", "empty-output", "int-nearest", "int-bilinear"],
)
def test_interpolate_errors(x, options):
    check_op(lambda lib, x: F(lib).interpolate(x, **options), x)


@pytest.mark.parametrize(
    "options",
    [{"scale_factor": 2}, {"scale_factor": (2, 3)}, {"size": (3, 4), "mode": "bilinear"}, {"size": 6, "mode": "bilinear", "align_corners": True}],
)
def test_upsample_module(options):
    module_t, module_m = torch.nn.Upsample(**options), tl.nn.Upsample(**options)
    assert repr(module_m) == repr(module_t)
    check_op(lambda lib, x: (module_t if lib is torch else module_m)(x), randn(2, 2, 3, 5))


@settings(max_examples=40, deadline=None)
@given(
    h=st.integers(1, 6), w=st.integers(1, 6), seed=st.integers(0, 2**16),
    mode=st.sampled_from([("nearest", None), ("bilinear", False), ("bilinear", True)]),
    resize=st.one_of(
        st.tuples(st.integers(1, 9), st.integers(1, 9)).map(lambda s: {"size": s}),
        st.tuples(st.sampled_from([0.5, 1.0, 1.5, 2.0, 2.5, 3.0]), st.sampled_from([0.75, 1.0, 2.0, 3.0])).map(lambda f: {"scale_factor": f}),
    ),
)
def test_random_interpolate(h, w, seed, mode, resize):
    if "scale_factor" in resize and min(int(h * resize["scale_factor"][0]), int(w * resize["scale_factor"][1])) == 0:
        resize = {"size": (h, w)}
    check_op(lambda lib, x: F(lib).interpolate(x, mode=mode[0], align_corners=mode[1], **resize), randn(2, 2, h, w, seed=seed))
