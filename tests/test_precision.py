"""tensorlab.precision against torch: torch's finfo and dtype conversions are the oracle.

tf32 has no torch dtype; it is checked as float32 with 10 mantissa bits, rounded by the classic bit
trick on the float32 bit pattern (add 0xFFF plus the lowest kept bit, clear the 13 dropped bits),
which shares nothing with the code under test.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from tensorlab.precision import (
    FORMATS,
    bits_of,
    kahan_sum,
    naive_sum,
    neighbours,
    round_one,
    round_to_format,
    spacing,
    stochastic_round,
)

TORCH_DTYPES = {
    "fp32": torch.float32,
    "fp16": torch.float16,
    "bf16": torch.bfloat16,
    "fp8_e4m3": torch.float8_e4m3fn,
    "fp8_e5m2": torch.float8_e5m2,
}
TF32_DROPPED_BITS = 23 - 10


def torch_round(values: list[float] | np.ndarray, fmt: str) -> np.ndarray:
    """What torch makes of float64 values converted to the format, back in float64."""
    return torch.tensor(np.asarray(values, dtype=np.float64)).to(TORCH_DTYPES[fmt]).double().numpy()


def tf32_round(values: list[float] | np.ndarray) -> np.ndarray:
    """float64 -> float32 (torch) -> tf32 by integer arithmetic on the float32 bits."""
    bits = torch.tensor(np.asarray(values, dtype=np.float64)).float().view(torch.int32).numpy().astype(np.int64)
    lowest_kept = (bits >> TF32_DROPPED_BITS) & 1
    rounded = (bits + (1 << (TF32_DROPPED_BITS - 1)) - 1 + lowest_kept) & ~((1 << TF32_DROPPED_BITS) - 1)
    sign = rounded & 0x80000000  # the carry never reaches the sign bit: keep it as it was
    return torch.tensor(((rounded & 0x7FFFFFFF) | sign).astype(np.uint32).view(np.int32)).view(torch.float32).double().numpy()


def assert_same_floats(expected: np.ndarray, got: np.ndarray, inputs: object = None) -> None:
    """Equal values, NaN where torch has NaN, and the sign of zeros (and infinities) kept."""
    assert got.dtype == np.float64
    assert got.shape == expected.shape
    nan = np.isnan(expected)
    assert np.array_equal(np.isnan(got), nan), (inputs, expected, got)
    bad = (got[~nan] != expected[~nan]) | (np.signbit(got[~nan]) != np.signbit(expected[~nan]))
    assert not bad.any(), (np.asarray(inputs)[~nan][bad] if inputs is not None else None, expected[~nan][bad], got[~nan][bad])


# --- the formats' limits -----------------------------------------------------------------------
@pytest.mark.parametrize("fmt", TORCH_DTYPES)
def test_limits_match_torch_finfo(fmt: str) -> None:
    expected, got = torch.finfo(TORCH_DTYPES[fmt]), FORMATS[fmt]
    assert got.max == expected.max
    assert got.smallest_normal == expected.smallest_normal
    assert got.smallest_subnormal == expected.smallest_normal * expected.eps  # finfo has no field for it
    assert got.epsilon == expected.eps
    assert 1 + got.exponent_bits + got.mantissa_bits == expected.bits


@pytest.mark.parametrize("fmt", TORCH_DTYPES)
def test_smallest_subnormal_is_the_smallest_positive_value_torch_keeps(fmt: str) -> None:
    s = FORMATS[fmt].smallest_subnormal
    assert torch_round([s, s * 0.75, s * 0.5], fmt).tolist() == [s, s, 0.0]


def test_tf32_limits_are_float32_with_10_mantissa_bits() -> None:
    tf32, f32 = FORMATS["tf32"], torch.finfo(torch.float32)
    largest_with_13_zero_bits = torch.tensor(0x7F7FE000, dtype=torch.int32).view(torch.float32).item()
    assert tf32.max == largest_with_13_zero_bits
    assert tf32.smallest_normal == f32.smallest_normal
    assert tf32.smallest_subnormal == f32.smallest_normal * 2.0**-10
    assert tf32.epsilon == 2.0**-10 and tf32.exponent_bits == 8 and tf32.bias == 127


def test_e4m3_has_no_infinity_and_e5m2_has_one() -> None:
    assert not FORMATS["fp8_e4m3"].has_infinity
    assert all(FORMATS[name].has_infinity for name in FORMATS if name != "fp8_e4m3")
    assert torch_round([math.inf], "fp8_e4m3").tolist() == [448.0]
    assert torch_round([math.inf], "fp8_e5m2").tolist() == [math.inf]


# --- round_to_format on fixed edge cases --------------------------------------------------------
def edge_cases(fmt: str) -> list[float]:
    """Ties, halfway subnormals, the largest value and the overflow threshold, and double rounding."""
    f = FORMATS[fmt]
    eps, s, n, top = f.epsilon, f.smallest_subnormal, f.smallest_normal, f.max
    ulp_at_max = 2.0 ** math.floor(math.log2(top)) * eps
    cases = [
        0.0, -0.0, 1.0, -1.0, 1 + eps, 1 + eps / 2, 1 + 3 * eps / 2, -(1 + eps / 2), 1 + eps / 4, 2 - eps / 4,
        1 + eps / 2 + 2.0**-40, 1 + eps / 2 - 2.0**-40, 1 + 3 * eps / 2 - 2.0**-40,  # float32 first turns these into ties
        s, s / 2, -s / 2, s / 2 * (1 + 2.0**-30), 3 * s / 2, 5 * s / 2, s / 4, n - s, n - s / 2, n * (1 - eps / 4),
        top, -top, top + ulp_at_max / 4, top + ulp_at_max / 2, top + ulp_at_max / 2 * (1 - 2.0**-20),
        top + ulp_at_max, 2 * top, -2 * top, 1e300, -1e300, 5e-324, -5e-324,
        math.inf, -math.inf, math.nan, 0.1, 1 / 3, math.pi, 65504.0, 65520.0, 448.0, 464.0, 480.0, 57344.0, 61440.0,
    ]
    return cases


@pytest.mark.parametrize("fmt", TORCH_DTYPES)
def test_round_to_format_matches_torch_on_edge_cases(fmt: str) -> None:
    cases = edge_cases(fmt)
    assert_same_floats(torch_round(cases, fmt), round_to_format(cases, fmt), cases)


@pytest.mark.parametrize("fmt", TORCH_DTYPES)
def test_round_to_format_of_a_scalar_is_a_0d_array(fmt: str) -> None:
    got = round_to_format(1 / 3, fmt)
    assert got.shape == () and got.item() == torch.tensor(1 / 3, dtype=torch.float64).to(TORCH_DTYPES[fmt]).item()


def test_bf16_rounds_twice_like_torch() -> None:
    """The documented finding: torch goes float64 -> float32 -> bfloat16, so a value just above a bf16
    tie becomes the tie in float32 and then rounds to even (down)."""
    x = 1 + 2.0**-8 + 2.0**-40
    torch_result = torch.tensor(x, dtype=torch.float64).to(torch.bfloat16).item()
    assert torch_result == 1.0  # a single rounding would give 1 + 2**-7
    assert round_to_format(x, "bf16").item() == torch_result


@pytest.mark.parametrize("fmt", ["fp16", "bf16", "fp8_e4m3", "fp8_e5m2"])
def test_every_value_and_every_midpoint_of_the_format(fmt: str) -> None:
    """All bit patterns of the format: each value maps to itself, each midpoint between neighbours
    (a tie) and a hair either side of it round as torch rounds them."""
    dtype = TORCH_DTYPES[fmt]
    width = torch.finfo(dtype).bits
    patterns = torch.arange(2**width, dtype=torch.int32).to(torch.int16 if width == 16 else torch.uint8)
    values = np.unique(patterns.view(dtype).double().numpy())
    finite = values[np.isfinite(values)]
    midpoints = (finite[1:] + finite[:-1]) / 2
    nudged = np.concatenate([midpoints * (1 + 2.0**-20), midpoints * (1 - 2.0**-20)])
    for inputs in (values, midpoints, nudged):
        assert_same_floats(torch_round(inputs, fmt), round_to_format(inputs, fmt))


def test_tf32_rounding_matches_the_bit_trick() -> None:
    eps, top = FORMATS["tf32"].epsilon, FORMATS["tf32"].max
    cases = [1 + eps / 2, 1 + 3 * eps / 2, 1 + eps / 2 + 2.0**-40, -(1 + eps / 2), 1 + eps / 4, top, top * (1 + eps / 2), top * (1 + eps / 4),
             2.0**-140, 2.0**-137, 3 * 2.0**-137, 1e-45, 0.0, -0.0, 0.1, math.pi, 1e38, -1e38, math.inf, -math.inf]
    assert_same_floats(tf32_round(cases), round_to_format(cases, "tf32"), cases)


# --- round_to_format on generated inputs ---------------------------------------------------------
any_float64 = st.floats(allow_nan=True, allow_infinity=True, width=64)


def in_range_of(fmt: str) -> st.SearchStrategy[float]:
    """Floats where the format is interesting: up to twice its max, down to its subnormals."""
    top = FORMATS[fmt].max
    return st.one_of(
        st.floats(min_value=-2 * top, max_value=2 * top),
        st.floats(min_value=-4 * FORMATS[fmt].smallest_normal, max_value=4 * FORMATS[fmt].smallest_normal),
    )


@settings(max_examples=60, deadline=None)
@given(data=st.data(), fmt=st.sampled_from(list(TORCH_DTYPES)))
def test_round_to_format_matches_torch_on_generated_floats(data: st.DataObject, fmt: str) -> None:
    values = data.draw(st.lists(st.one_of(any_float64, in_range_of(fmt)), min_size=1, max_size=40))
    assert_same_floats(torch_round(values, fmt), round_to_format(values, fmt), values)


@settings(max_examples=60, deadline=None)
@given(values=st.lists(st.one_of(any_float64, in_range_of("tf32")), min_size=1, max_size=40))
def test_tf32_rounding_matches_the_bit_trick_on_generated_floats(values: list[float]) -> None:
    finite_or_inf = [v for v in values if not math.isnan(v)]
    assert_same_floats(tf32_round(finite_or_inf), round_to_format(finite_or_inf, "tf32"), finite_or_inf)


def test_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="fp16"):
        round_to_format(1.0, "fp12")


# --- spacing ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("fmt", "numpy_type"), [("fp16", np.float16), ("fp32", np.float32)])
def test_spacing_is_numpys_for_positive_values_below_max(fmt: str, numpy_type: type) -> None:
    f = FORMATS[fmt]
    values = [0.0, f.smallest_subnormal, f.smallest_normal / 3, f.smallest_normal, 1.0, 1.5, 2.0, 1000.0, f.max / 2]
    expected = np.spacing(np.asarray(values).astype(numpy_type)).astype(np.float64)
    assert np.array_equal(spacing(values, fmt), expected)


def test_spacing_is_positive_and_nan_beyond_the_range() -> None:
    assert spacing(-1.0, "bf16").item() == torch.finfo(torch.bfloat16).eps
    assert spacing(448.0, "fp8_e4m3").item() == 448.0 - torch_round([430.0], "fp8_e4m3")[0]
    assert np.isnan(spacing(math.inf, "fp16")) and np.isnan(spacing(1e6, "fp16"))


# --- round_one: the scalar spelling used by the sums ---------------------------------------------------
@pytest.mark.parametrize("fmt", list(FORMATS))
def test_round_one_is_round_to_format_on_edge_cases(fmt: str) -> None:
    cases = edge_cases(fmt)
    assert_same_floats(round_to_format(cases, fmt), np.array([round_one(v, fmt) for v in cases]), cases)


@settings(max_examples=60, deadline=None)
@given(value=st.one_of(any_float64, in_range_of("fp16"), in_range_of("fp8_e4m3")), fmt=st.sampled_from(list(TORCH_DTYPES)))
def test_round_one_matches_torch(value: float, fmt: str) -> None:
    assert_same_floats(torch_round([value], fmt), np.array([round_one(value, fmt)]), [value])


# --- bits_of ---------------------------------------------------------------------------------------------
def torch_bit_patterns(fmt: str) -> tuple[np.ndarray, list[str]]:
    """Every bit pattern of an 8-bit format, every 7th of a 16-bit one (and the last), as torch reads
    them: the values and the patterns written as strings of 0s and 1s."""
    dtype = TORCH_DTYPES[fmt]
    width = torch.finfo(dtype).bits
    step = 1 if width == 8 else 7
    codes = [*range(0, 2**width, step), 2**width - 1, 2 ** (width - 1), 2 ** (width - 1) - 1]
    patterns = torch.tensor(codes, dtype=torch.int32).to(torch.int16 if width == 16 else torch.uint8)
    return patterns.view(dtype).double().numpy(), [format(c, f"0{width}b") for c in codes]


@pytest.mark.parametrize("fmt", ["fp16", "bf16", "fp8_e4m3", "fp8_e5m2"])
def test_bits_of_are_torchs_bit_patterns(fmt: str) -> None:
    values, patterns = torch_bit_patterns(fmt)
    f = FORMATS[fmt]
    for value, pattern in zip(values, patterns, strict=True):
        sign, exponent, mantissa = bits_of(float(value), fmt)
        assert (len(sign), len(exponent), len(mantissa)) == (1, f.exponent_bits, f.mantissa_bits)
        if math.isnan(value):  # NaN payloads differ: any all-ones exponent with a non-zero mantissa is NaN
            assert exponent == "1" * f.exponent_bits and "1" in mantissa and pattern[1 : 1 + f.exponent_bits] == exponent
        else:
            assert sign + exponent + mantissa == pattern, (value, pattern)


def test_bits_of_fp32_and_tf32() -> None:
    values = [1.0, -2.5, 0.1, 1e-40, -0.0, 3e38, math.inf, 1 + 2.0**-11, 1 + 3 * 2.0**-11, 6e-39]

    def bits_32(t: torch.Tensor) -> str:
        return format(int(t.float().view(torch.int32).item()) & 0xFFFFFFFF, "032b")

    for value in values:
        assert "".join(bits_of(value, "fp32")) == bits_32(torch.tensor(value))
        tf32_bits = bits_32(torch.tensor(tf32_round([value])))
        assert "".join(bits_of(value, "tf32")) == tf32_bits[:19] and tf32_bits[19:] == "0" * 13


def test_bits_of_rounds_first() -> None:
    assert bits_of(1 + 2.0**-8, "bf16") == bits_of(1.0, "bf16") == ("0", "01111111", "0000000")
    assert bits_of(1000.0, "fp8_e4m3") == ("0", "1111", "110")  # saturated to 448; 1111.111 is NaN


# --- neighbours -----------------------------------------------------------------------------------------
def torch_number_line(fmt: str) -> np.ndarray:
    """Every finite value of an 8- or 16-bit format, ascending, -0.0 merged with 0.0."""
    dtype = TORCH_DTYPES[fmt]
    width = torch.finfo(dtype).bits
    patterns = torch.arange(2**width, dtype=torch.int32).to(torch.int16 if width == 16 else torch.uint8)
    values = patterns.view(dtype).double().numpy()
    return np.unique(values[np.isfinite(values)] + 0.0)


@settings(max_examples=60, deadline=None)
@given(data=st.data(), fmt=st.sampled_from(["fp16", "bf16", "fp8_e4m3", "fp8_e5m2"]), count=st.integers(0, 6))
def test_neighbours_are_the_next_values_on_torchs_number_line(data: st.DataObject, fmt: str, count: int) -> None:
    x = data.draw(st.one_of(in_range_of(fmt), st.sampled_from([0.0, -0.0, 1.0, FORMATS[fmt].max, -FORMATS[fmt].max])))
    line = torch_number_line(fmt)
    centre = float(np.clip(torch_round([x], fmt)[0], -FORMATS[fmt].max, FORMATS[fmt].max))
    i = int(np.searchsorted(line, centre))
    assert line[i] == centre
    expected = line[max(i - count, 0) : i + count + 1]
    got = neighbours(x, fmt, count)
    assert np.array_equal(got, expected), (x, got, expected)


def test_neighbours_in_fp32_are_numpys_nextafter() -> None:
    x = np.float32(0.1)
    below, above = np.nextafter(x, np.float32(-1)), np.nextafter(x, np.float32(1))
    assert neighbours(0.1, "fp32", 1).tolist() == [float(below), float(x), float(above)]


def test_neighbours_of_nan_is_an_error() -> None:
    with pytest.raises(ValueError, match="NaN"):
        neighbours(math.nan, "fp16", 2)


# --- stochastic rounding ------------------------------------------------------------------------------
@pytest.mark.parametrize(("fmt", "x"), [("bf16", 1 + 2.0**-7 / 3), ("fp16", -(1000 + 0.1)), ("fp8_e4m3", 0.3), ("fp8_e5m2", 3e-6)])
def test_stochastic_round_is_unbiased(fmt: str, x: float) -> None:
    """The mean of many roundings is x, within 5 standard errors. Rounding to nearest misses by a
    third of a gap or more, and so would rounding up with probability (above - x) / gap."""
    line = torch_number_line(fmt)
    below, above = line[line <= x].max(), line[line >= x].min()
    p_up = (x - below) / (above - below)
    n = 40_000
    samples = stochastic_round(np.full(n, x), fmt, np.random.default_rng(0))
    assert set(np.unique(samples)) <= {below, above}
    standard_error = (above - below) * math.sqrt(p_up * (1 - p_up) / n)
    assert abs(samples.mean() - x) < 5 * standard_error
    assert abs(torch_round([x], fmt)[0] - x) > 20 * standard_error  # a test round-to-nearest would fail


def test_stochastic_round_keeps_representable_values_nan_and_inf() -> None:
    exact = torch_round([1.0, -0.0, 0.1, 65504.0, 6e-8], "fp16")
    got = stochastic_round(np.r_[exact, math.nan, math.inf, -math.inf], "fp16", np.random.default_rng(0))
    assert_same_floats(np.r_[exact, math.nan, math.inf, -math.inf], got)


def test_stochastic_running_sum_keeps_small_updates() -> None:
    """Adding 1 to a bf16 total: round-to-nearest stalls at 256 (the gap there is 2), stochastic
    rounding keeps counting on average."""
    rng = np.random.default_rng(0)
    nearest = torch.tensor(0.0, dtype=torch.bfloat16)
    stochastic = 0.0
    for _ in range(1000):
        nearest = nearest + torch.tensor(1.0, dtype=torch.bfloat16)
        stochastic = float(stochastic_round(stochastic + 1.0, "bf16", rng))
    assert nearest.item() == 256.0
    assert abs(stochastic - 1000) < 100


# --- sums ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("fmt", "dtype"), [("fp16", torch.float16), ("bf16", torch.bfloat16)])
def test_naive_sum_is_torchs_running_sum_in_the_format(fmt: str, dtype: torch.dtype) -> None:
    values = np.random.default_rng(0).uniform(0, 0.5, 3000)
    total = torch.tensor(0.0, dtype=dtype)
    for v in torch.tensor(values).to(dtype):
        total = total + v  # one fp16/bf16 addition, rounded once
    assert naive_sum(values, fmt) == total.item()


@pytest.mark.parametrize("fmt", ["fp16", "bf16"])
def test_kahan_sum_is_within_two_gaps_of_the_exact_sum(fmt: str) -> None:
    values = np.random.default_rng(0).uniform(0, 0.02, 20_000)
    exact = math.fsum(torch_round(values, fmt))  # the exact sum of the values the format holds
    gap = float(spacing(exact, fmt))
    assert abs(kahan_sum(values, fmt) - exact) <= 2 * gap
    assert abs(naive_sum(values, fmt) - exact) > 50 * gap  # the same sum without compensation
