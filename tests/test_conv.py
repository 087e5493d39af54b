"""conv1d/conv2d/conv_transpose, unfold/fold and pooling against torch.nn.functional."""

from __future__ import annotations

import numpy as np
import pytest
import torch.nn.functional as torch_f
from hypothesis import given
from hypothesis import strategies as st

import tensorlab as tl
import tensorlab.nn.functional as tl_f
from tests.oracle import check_op

T32 = np.float32


def functional(lib):
    """torch.nn.functional, or tensorlab's functions with the same names."""
    return torch_f if lib.__name__ == "torch" else tl_f


def arr(values: list) -> np.ndarray:
    """The seed writes T([...]) for torch.Tensor([...]): float32."""
    return np.array(values, T32)


# --- the seed's conv1d examples ----------------------------------------------------------------
SEED_CASES = {
    "identity kernel, unbatched": ([[0, 1, 2, 3]], [[[1]]], {}),
    "identity kernel, batched": ([[[0, 1, 2, 3]]], [[[1]]], {}),
    "box kernel": ([[0, 1, 2, 3]], [[[1, 1, 1]]], {}),
    "padding=1": ([[0, 1, 2, 3]], [[[1, 1, 1]]], {"padding": 1}),
    "padding=2": ([[0, 1, 2, 3]], [[[1, 1, 1]]], {"padding": 2}),
    "padding=3 (>= kernel size)": ([[0, 1, 2, 3]], [[[1, 1, 1]]], {"padding": 3}),
    "padding=4": ([[0, 1, 2, 3]], [[[1, 1, 1]]], {"padding": 4}),
    "two kernels": ([[0, 1, 2, 3]], [[[1, 2, 3]], [[1, 1, 1]]], {}),
    "three input channels summed": ([[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]], [[[1], [1], [1]]], {}),
    "3 in, 2 out, size-1 kernel": ([[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]], [[[1], [2], [3]], [[1], [1], [1]]], {}),
}


@pytest.mark.parametrize("name", SEED_CASES)
def test_seed_conv1d(name: str) -> None:
    x, w, kwargs = SEED_CASES[name]
    check_op(lambda lib, a, b: functional(lib).conv1d(a, b, **kwargs), arr(x), arr(w))


def test_conv_is_unfold_plus_matmul() -> None:
    """The course's identity: conv2d(x, w) == (w.view(O, -1) @ unfold(x, k)).view(N, O, oh, ow)."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3, 5, 6)).astype(T32)
    w = rng.standard_normal((4, 3, 2, 3)).astype(T32)
    direct = tl_f.conv2d(tl.tensor(x), tl.tensor(w))
    via = (tl.tensor(w).reshape(4, -1) @ tl_f.unfold(tl.tensor(x), (2, 3))).reshape(2, 4, 4, 4)
    np.testing.assert_allclose(direct.numpy(), via.numpy(), rtol=1e-5, atol=1e-5)


# --- hypothesis: conv1d / conv2d --------------------------------------------------------------
@st.composite
def conv_case(draw: st.DrawFn, n: int) -> tuple:
    groups = draw(st.sampled_from([1, 1, 2, 3]))
    c_in = groups * draw(st.integers(1, 2))
    c_out = groups * draw(st.integers(1, 2))
    kernel = tuple(draw(st.integers(1, 3)) for _ in range(n))
    stride = tuple(draw(st.integers(1, 3)) for _ in range(n))
    dilation = tuple(draw(st.integers(1, 2)) for _ in range(n))
    padding: object = draw(st.one_of(st.integers(0, 4), st.sampled_from(["valid", "same"])))
    if padding == "same":
        stride = (1,) * n
    spatial = tuple(d * (k - 1) + 1 + draw(st.integers(0, 5)) for k, d in zip(kernel, dilation, strict=True))
    batch = draw(st.sampled_from([None, 1, 2]))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    dt = draw(st.sampled_from([np.float32, np.float64]))
    x = rng.standard_normal(((batch,) if batch else ()) + (c_in, *spatial)).astype(dt)
    w = rng.standard_normal((c_out, c_in // groups, *kernel)).astype(dt)
    b = rng.standard_normal(c_out).astype(dt) if draw(st.booleans()) else None
    kwargs = {"stride": stride, "padding": padding, "dilation": dilation, "groups": groups}
    return x, w, b, kwargs


@given(case=conv_case(1))
def test_conv1d_matches_torch(case: tuple) -> None:
    x, w, b, kwargs = case
    if b is None:
        check_op(lambda lib, a, k: functional(lib).conv1d(a, k, **kwargs), x, w)
    else:
        check_op(lambda lib, a, k, c: functional(lib).conv1d(a, k, c, **kwargs), x, w, b)


@given(case=conv_case(2))
def test_conv2d_matches_torch(case: tuple) -> None:
    x, w, b, kwargs = case
    check_op(lambda lib, a, k, c: functional(lib).conv2d(a, k, c, **kwargs), x, w, b if b is not None else np.zeros(w.shape[0], w.dtype))


def test_conv_integer_and_int_stride_tuple_padding() -> None:
    check_op(lambda lib, a, k: functional(lib).conv1d(a, k), np.arange(8).reshape(1, 2, 4), np.ones((1, 2, 1), np.int64))
    rng = np.random.default_rng(1)
    x, w = rng.standard_normal((1, 2, 5, 7)), rng.standard_normal((3, 2, 3, 2))
    check_op(lambda lib, a, k: functional(lib).conv2d(a, k, stride=(2, 1), padding=(1, 2), dilation=(1, 2)), x, w)


def test_conv_errors() -> None:
    rng = np.random.default_rng(2)
    x = rng.standard_normal((2, 3, 10)).astype(T32)
    f = functional
    check_op(lambda lib, a, k: f(lib).conv1d(a, k), x, rng.standard_normal((4, 2, 3)).astype(T32),
             match="Given groups=1, weight of size [4, 2, 3], expected input[2, 3, 10] to have 2 channels, but got 3 channels instead")
    check_op(lambda lib, a, k: f(lib).conv1d(a, k, groups=2), x, rng.standard_normal((4, 3, 3)).astype(T32), match="to have 6 channels")
    check_op(lambda lib, a, k: f(lib).conv1d(a, k, stride=2, padding="same"), x, rng.standard_normal((4, 3, 3)).astype(T32),
             match="not supported for strided convolutions")
    check_op(lambda lib, a, k: f(lib).conv1d(a, k, padding="foo"), x, rng.standard_normal((4, 3, 3)).astype(T32), match="Invalid padding string")
    check_op(lambda lib, a, k, b: f(lib).conv1d(a, k, b), x, rng.standard_normal((4, 3, 3)).astype(T32), np.zeros(3, T32),
             match="expected bias to be 1-dimensional with 4 elements")
    check_op(lambda lib, a, k: f(lib).conv1d(a, k), x, rng.standard_normal((4, 3, 30)).astype(T32), match="Kernel size can't be greater")
    check_op(lambda lib, a, k: f(lib).conv1d(a, k), x[None], rng.standard_normal((4, 3, 3)).astype(T32),
             match="Expected 2D (unbatched) or 3D (batched) input to conv1d")
    check_op(lambda lib, a, k: f(lib).conv1d(a, k), x.astype(np.float64), rng.standard_normal((4, 3, 3)).astype(T32),
             match="expected scalar type Double but found Float")
    check_op(lambda lib, a, k: f(lib).conv1d(a, k, stride=0), x, rng.standard_normal((4, 3, 3)).astype(T32), match="non-positive stride")
    check_op(lambda lib, a, k: f(lib).conv1d(a, k, padding=-1), x, rng.standard_normal((4, 3, 3)).astype(T32), match="negative padding")
    check_op(lambda lib, a, k: f(lib).conv2d(a, k), x[:, :, None], rng.standard_normal((4, 2, 3, 3)).astype(T32), match="to have 2 channels")
    check_op(lambda lib, a, k: f(lib).conv2d(a, k, padding=(1, 0)), x[:, :, None, :2], rng.standard_normal((4, 3, 2, 3)).astype(T32),
             same_message=True)  # 2-d sizes read (3 x 2)


# --- transposed convolution -------------------------------------------------------------------
@given(
    groups=st.sampled_from([1, 2]), k=st.integers(1, 3), stride=st.integers(1, 3), padding=st.integers(0, 2),
    dilation=st.integers(1, 2), extra=st.integers(0, 2), length=st.integers(1, 5), bias=st.booleans(),
    batched=st.booleans(), seed=st.integers(0, 1000),
)
def test_conv_transpose1d_matches_torch(groups: int, k: int, stride: int, padding: int, dilation: int, extra: int, length: int, bias: bool, batched: bool, seed: int) -> None:
    rng = np.random.default_rng(seed)
    c_in, c_out_g = 2 * groups, 2
    x = rng.standard_normal(((2,) if batched else ()) + (c_in, length))
    w = rng.standard_normal((c_in, c_out_g, k))
    b = rng.standard_normal(c_out_g * groups) if bias else None
    kwargs = {"stride": stride, "padding": padding, "output_padding": extra, "groups": groups, "dilation": dilation}
    check_op(lambda lib, a, kk, bb: functional(lib).conv_transpose1d(a, kk, bb, **kwargs), x, w, b)


def test_conv_transpose2d_and_error() -> None:
    rng = np.random.default_rng(3)
    x, w = rng.standard_normal((2, 4, 3, 3)), rng.standard_normal((4, 1, 2, 3))
    check_op(lambda lib, a, k: functional(lib).conv_transpose2d(a, k, stride=(2, 1), padding=(0, 1), groups=2), x, w)
    check_op(lambda lib, a, k: functional(lib).conv_transpose1d(a, k), rng.standard_normal((2, 3, 10)), rng.standard_normal((4, 2, 3)),
             match="Given transposed=1, weight of size [4, 2, 3], expected input[2, 3, 10] to have 4 channels")


# --- unfold / fold -----------------------------------------------------------------------------
@given(
    k=st.tuples(st.integers(1, 3), st.integers(1, 3)), stride=st.tuples(st.integers(1, 2), st.integers(1, 2)),
    padding=st.integers(0, 1), dilation=st.integers(1, 2), hw=st.tuples(st.integers(4, 6), st.integers(4, 6)),
    batched=st.booleans(), seed=st.integers(0, 1000),
)
def test_unfold_and_fold_match_torch(k: tuple, stride: tuple, padding: int, dilation: int, hw: tuple, batched: bool, seed: int) -> None:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(((2,) if batched else ()) + (3, *hw))
    kwargs = {"kernel_size": k, "dilation": dilation, "padding": padding, "stride": stride}
    cols = check_op(lambda lib, a: functional(lib).unfold(a, **kwargs), x)
    if cols is None:  # no sliding block fits: both raised
        return
    check_op(lambda lib, c: functional(lib).fold(c, hw, **kwargs), cols.detach().numpy())


def test_fold_block_count_error() -> None:
    check_op(lambda lib, c: functional(lib).fold(c, (5, 5), 2), np.zeros((2, 12, 15)), match="calculated number of sliding blocks")


# --- pooling ----------------------------------------------------------------------------------
@st.composite
def pool_case(draw: st.DrawFn, n: int, dilated: bool) -> tuple:
    kernel = tuple(draw(st.integers(1, 3)) for _ in range(n))
    stride = draw(st.one_of(st.none(), st.tuples(*(st.integers(1, 3) for _ in range(n)))))
    padding = tuple(draw(st.integers(0, k // 2)) for k in kernel)
    dilation = tuple(draw(st.integers(1, 2)) if dilated else 1 for _ in range(n))
    spatial = tuple(d * (k - 1) + 1 + draw(st.integers(0, 4)) for k, d in zip(kernel, dilation, strict=True))
    ceil_mode = draw(st.booleans())
    batched = draw(st.booleans())
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    x = rng.standard_normal(((2,) if batched else ()) + (3, *spatial))
    if draw(st.booleans()):
        x = np.round(x)  # ties inside windows: torch takes the first maximum
    return x, kernel, stride, padding, dilation, ceil_mode


@given(case=pool_case(1, dilated=True), return_indices=st.booleans())
def test_max_pool1d_matches_torch(case: tuple, return_indices: bool) -> None:
    x, k, s, p, d, ceil = case
    check_op(lambda lib, a: functional(lib).max_pool1d(a, k, s, p, d, ceil, return_indices), x)


@given(case=pool_case(2, dilated=True))
def test_max_pool2d_matches_torch(case: tuple) -> None:
    x, k, s, p, d, ceil = case
    check_op(lambda lib, a: functional(lib).max_pool2d(a, k, s, p, d, ceil_mode=ceil, return_indices=True), x)


@given(case=pool_case(1, dilated=False), count_include_pad=st.booleans())
def test_avg_pool1d_matches_torch(case: tuple, count_include_pad: bool) -> None:
    x, k, s, p, _, ceil = case
    check_op(lambda lib, a: functional(lib).avg_pool1d(a, k, s, p, ceil, count_include_pad), x)


@given(case=pool_case(2, dilated=False), count_include_pad=st.booleans(), divisor=st.sampled_from([None, 3]))
def test_avg_pool2d_matches_torch(case: tuple, count_include_pad: bool, divisor: int | None) -> None:
    x, k, s, p, _, ceil = case
    check_op(lambda lib, a: functional(lib).avg_pool2d(a, k, s, p, ceil, count_include_pad, divisor), x)


def test_pool_errors() -> None:
    x = np.zeros((2, 3, 10))
    check_op(lambda lib, a: functional(lib).max_pool1d(a, 3, 2, 2), x, match="padding should be at most half of kernel size")
    check_op(lambda lib, a: functional(lib).avg_pool1d(a, 3, 2, 2), x, match="pad should be at most half")
    check_op(lambda lib, a: functional(lib).max_pool2d(a, 3), np.zeros((1, 3, 2, 2)), match="Output size is too small")
    check_op(lambda lib, a: functional(lib).max_pool1d(a, 2), np.arange(8).reshape(1, 2, 4))


def test_benchmark_shape_and_non_contiguous_input_match_torch() -> None:
    """The benchmark's shape (N=32, C 16->32, L=1024, k=5) at a smaller batch, fed a transposed view."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 256, 16)).astype(T32)  # (N, L, C): transposed to (N, C, L) inside
    w = rng.standard_normal((32, 16, 5)).astype(T32)
    b = rng.standard_normal(32).astype(T32)
    check_op(lambda lib, a, k, c: functional(lib).conv1d(a.transpose(1, 2), k, c, padding=2), x, w, b, rtol=1e-4, atol=1e-4)
    check_op(lambda lib, a, k: functional(lib).conv2d(a, k[:, :, None, :].expand(32, 16, 2, 5), stride=(1, 3), groups=1), x.transpose(0, 2, 1)[:, :, None, :].repeat(3, axis=2), w, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("groups", [1, 3])
def test_conv_empty_batch_matches_torch(groups: int) -> None:
    x = np.zeros((0, 3, 5), np.float32)
    w = np.ones((3, 3 // groups, 2), np.float32)
    check_op(lambda lib, a, k, c: functional(lib).conv1d(a, k, c, groups=groups), x, w, np.ones(3, np.float32))


@given(case=pool_case(1, dilated=False), count_include_pad=st.booleans(), dtype=st.sampled_from([np.int64, np.int32, np.int16, np.uint8]))
def test_avg_pool1d_of_integers_rounds_toward_zero(case: tuple, count_include_pad: bool, dtype: type) -> None:
    """int64 windows average in C's integer division: -3 / 2 is -1 (NumPy's // gives -2); torch
    has no kernel for the other integer dtypes (NotImplementedError)."""
    x, k, s, p, _, ceil = case
    values = np.round(x * 50).astype(dtype)
    check_op(lambda lib, a: functional(lib).avg_pool1d(a, k, s, p, ceil, count_include_pad), values)
    check_op(lambda lib, a: functional(lib).avg_pool1d(a, 2), np.array([[[-1, -2, -3, 4, 7, -9]]]))
    check_op(lambda lib, a: functional(lib).avg_pool2d(a, 2, padding=1), np.array([[[[-1, -2, 5], [-3, 4, 0]]]]))
