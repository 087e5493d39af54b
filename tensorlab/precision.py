"""Floating-point formats in NumPy: what fp32, tf32, fp16, bf16 and fp8 can represent, and how a
value is rounded into them.

A float is ``(-1)**sign * 2**(exponent - bias) * 1.mantissa``: the exponent bits buy *range*, the
mantissa bits buy *precision*. fp16 and bf16 are both 16 bits and split them differently: fp16
(5 exponent bits, 10 mantissa bits) resolves 1 + 2**-10 but overflows above 65504; bf16
(8 exponent bits, 7 mantissa bits) has fp32's whole range but cannot tell 1 from 1.004.

Everything here works on float64 NumPy values that are *exactly* representable in the format, so
you can look at a format's values without a GPU, and every claim is checked against torch's own
conversions in ``tests/test_precision.py``. This module never imports torch.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

ArrayLike = npt.ArrayLike
FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class FloatFormat:
    """One binary floating-point format. ``bias = 2**(exponent_bits - 1) - 1``; the all-zeros exponent
    means subnormal (no implicit leading 1), the all-ones exponent means inf/NaN, except in
    fp8 e4m3 (``has_infinity=False``), which spends it on more finite values and keeps only
    ``S.1111.111`` for NaN."""

    name: str
    exponent_bits: int
    mantissa_bits: int
    bias: int
    has_infinity: bool
    max: float
    smallest_normal: float
    smallest_subnormal: float
    epsilon: float

    @property
    def min_exponent(self) -> int:
        """The exponent of the smallest normal number (and, shared with it, of the subnormals)."""
        return 1 - self.bias


def float_format(name: str, exponent_bits: int, mantissa_bits: int, has_infinity: bool = True) -> FloatFormat:
    """Derive a format's limits from its bit counts: they follow from the layout alone."""
    bias = 2 ** (exponent_bits - 1) - 1
    if has_infinity:  # the all-ones exponent is inf/NaN: the largest finite exponent is one below it
        max_exponent = 2**exponent_bits - 2 - bias
        largest_mantissa = 2 - 2.0**-mantissa_bits
    else:  # e4m3fn: the all-ones exponent holds finite values too, all but the NaN mantissa 1...1
        max_exponent = 2**exponent_bits - 1 - bias
        largest_mantissa = 2 - 2.0 ** (1 - mantissa_bits)
    return FloatFormat(
        name=name,
        exponent_bits=exponent_bits,
        mantissa_bits=mantissa_bits,
        bias=bias,
        has_infinity=has_infinity,
        max=math.ldexp(largest_mantissa, max_exponent),
        smallest_normal=math.ldexp(1.0, 1 - bias),
        smallest_subnormal=math.ldexp(1.0, 1 - bias - mantissa_bits),
        epsilon=math.ldexp(1.0, -mantissa_bits),
    )


FORMATS: dict[str, FloatFormat] = {
    "fp32": float_format("fp32", 8, 23),
    "tf32": float_format("tf32", 8, 10),  # fp32's range, fp16's precision: what Tensor Cores multiply
    "fp16": float_format("fp16", 5, 10),
    "bf16": float_format("bf16", 8, 7),
    "fp8_e4m3": float_format("fp8_e4m3", 4, 3, has_infinity=False),  # torch.float8_e4m3fn
    "fp8_e5m2": float_format("fp8_e5m2", 5, 2),
}


def get_format(fmt: str | FloatFormat) -> FloatFormat:
    """A format by name (a key of FORMATS), or the format itself."""
    if isinstance(fmt, FloatFormat):
        return fmt
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}: choose one of {', '.join(FORMATS)}")
    return FORMATS[fmt]


def _quantum(value: FloatArray, f: FloatFormat) -> FloatArray:
    """The gap between consecutive representable values in value's binade: ``2**(e - mantissa_bits)``
    where ``2**e <= |value| < 2**(e+1)``. Below the smallest normal the gap stops shrinking (that
    is what subnormals are): it is the smallest subnormal all the way down to 0."""
    finite_nonzero = np.isfinite(value) & (value != 0)
    _, e = np.frexp(np.where(finite_nonzero, value, 1.0))  # |value| = m * 2**e with 0.5 <= m < 1
    binade = np.where(finite_nonzero, e - 1, f.min_exponent)
    return np.ldexp(1.0, np.maximum(binade, f.min_exponent) - f.mantissa_bits)


def _overflow(value: FloatArray, f: FloatFormat) -> FloatArray:
    """Values beyond the largest finite number: inf where the format has one; e4m3fn saturates."""
    if f.has_infinity:
        return np.where(np.abs(value) > f.max, np.copysign(np.inf, value), value)
    return np.where(np.isnan(value), value, np.clip(value, -f.max, f.max))


def round_to_format(x: ArrayLike, fmt: str | FloatFormat) -> FloatArray:
    """Round ``x`` to the nearest value of ``fmt`` (ties to even), returned as float64 values.

    It does what ``torch.tensor(x, dtype=torch.float64).to(dtype)`` does, and that is two roundings:
    torch converts float64 to float32 first, then float32 to the 16- or 8-bit format (measured with
    torch 2.13 for bfloat16, float16 and both float8s, single values and vectorised tensors alike).
    So ``1 + 2**-8 + 2**-40`` becomes bf16 ``1.0``, not ``1.0078125``: float32 rounds it to the tie
    ``1 + 2**-8`` and the tie goes to the even ``1.0``. We copy the double rounding on purpose.

    Then, with ``q`` the gap between representable values at x (see ``spacing``),
    ``round(x / q) * q`` is the answer: dividing by a power of two is exact, and NumPy's ``round``
    rounds halves to even. Notice:

    - **subnormals**: below ``smallest_normal`` the gap stays ``smallest_subnormal``, so tiny values
      lose precision gradually instead of dropping to 0 (half the smallest subnormal is a tie: 0);
    - **overflow**: above ``max`` (from ``max + q/2`` on, where the tie goes to the even
      ``2**(max_exponent+1)``) the result is inf; fp8 e4m3fn has no inf, and torch *saturates* it to
      ±448, infinities included; NaN stays NaN and ``-0.0`` keeps its sign.

    tf32 has no torch dtype: it is rounded the same way (via float32, ties to even), which models its
    precision; hardware may convert differently (PTX ``cvt.rna.tf32.f32`` rounds ties away from zero).
    """
    f = get_format(fmt)
    with np.errstate(over="ignore", invalid="ignore"):
        as_fp32 = np.asarray(x, dtype=np.float64).astype(np.float32).astype(np.float64)
        if f.name == "fp32":
            return as_fp32
        q = _quantum(as_fp32, f)
        rounded = np.round(as_fp32 / q) * q
    return _overflow(rounded, f)


def round_one(x: float, fmt: str | FloatFormat) -> float:
    """``round_to_format`` for one Python float, spelled with ``math`` instead of NumPy: the same two
    roundings (``struct`` packs to float32 with ties to even), about 30 times faster per call. The
    sequential sums below call it once per operation; tests check it against ``round_to_format``."""
    f = get_format(fmt)
    try:
        value: float = struct.unpack("f", struct.pack("f", x))[0]
    except OverflowError:  # beyond float32's range: float32 itself would round it to inf
        value = math.copysign(math.inf, x)
    if f.name == "fp32" or math.isnan(value):
        return value
    if math.isfinite(value) and value != 0:
        binade = max(math.frexp(value)[1] - 1, f.min_exponent)
        q = math.ldexp(1.0, binade - f.mantissa_bits)
        value = math.copysign(round(abs(value) / q) * q, value)  # round() rounds halves to even
    if abs(value) > f.max:
        return math.copysign(math.inf if f.has_infinity else f.max, value)
    return value


def spacing(x: ArrayLike, fmt: str | FloatFormat) -> FloatArray:
    """The gap between representable values of ``fmt`` at ``x`` (after rounding x), always positive.

    For positive x it is ``np.spacing`` on float16/float32 values, except at ``max``, where NumPy says
    inf (the next value up) and this says the gap inside the top binade. Notice that it doubles at every power of
    two (NaN at inf and NaN): relative precision (``spacing(x) / x``) stays between ``epsilon/2`` and ``epsilon``, which is
    why ``epsilon`` (the gap at 1.0) describes a whole format.
    """
    f = get_format(fmt)
    rounded = round_to_format(x, f)
    return np.where(np.isfinite(rounded), _quantum(rounded, f), np.nan)


# --- the bits ----------------------------------------------------------------------------------
def _fields(value: float, f: FloatFormat) -> tuple[int, int, int]:
    """The (sign, exponent, mantissa) fields of a value already representable in ``f``."""
    sign = int(math.copysign(1.0, value) < 0)
    all_ones = 2**f.exponent_bits - 1
    if math.isnan(value):  # a quiet NaN; e4m3fn has a single NaN pattern, S.1111.111
        return sign, all_ones, 2**f.mantissa_bits - 1 if not f.has_infinity else 2 ** (f.mantissa_bits - 1)
    if math.isinf(value):
        return sign, all_ones, 0
    magnitude = abs(value)
    if magnitude < f.smallest_normal:  # subnormal (or zero): exponent field 0, no implicit leading 1
        return sign, 0, int(magnitude / f.smallest_subnormal)
    _, e = math.frexp(magnitude)  # magnitude = m * 2**e with 0.5 <= m < 1, so 2**(e-1) <= magnitude
    fraction = magnitude / math.ldexp(1.0, e - 1) - 1  # the bits after the implicit 1.
    return sign, e - 1 + f.bias, int(fraction * 2**f.mantissa_bits)


def _value(exponent: int, mantissa: int, f: FloatFormat) -> float:
    """A finite value from its exponent and mantissa fields (positive sign): the inverse of _fields."""
    if exponent == 0:
        return mantissa * f.smallest_subnormal
    return math.ldexp(1 + mantissa / 2**f.mantissa_bits, exponent - f.bias)


def bits_of(x: float, fmt: str | FloatFormat) -> tuple[str, str, str]:
    """The sign, exponent and mantissa bits of ``x`` rounded to ``fmt``, as strings of 0s and 1s.

    Read them as ``(-1)**sign * 2**(exponent - bias) * 1.mantissa``; an exponent of all zeros means
    ``0.mantissa * 2**(1 - bias)`` (a subnormal) and all ones means inf (mantissa 0) or NaN. Notice
    that 1.0 in bf16 is exactly the top half of 1.0 in fp32: bf16 *is* a truncated fp32. NaN is shown
    as the quiet NaN ``1000...``; torch's conversions produce other NaN payloads depending on the path.
    """
    f = get_format(fmt)
    sign, exponent, mantissa = _fields(float(round_to_format(x, f)), f)
    return str(sign), format(exponent, f"0{f.exponent_bits}b"), format(mantissa, f"0{f.mantissa_bits}b")


def neighbours(x: float, fmt: str | FloatFormat, count: int) -> FloatArray:
    """``x`` rounded to ``fmt`` and the ``count`` representable values on each side of it, ascending.

    Consecutive finite values have consecutive bit patterns (read as ``exponent * 2**mantissa_bits +
    mantissa``), so stepping the pattern by one steps to the next value: this is why floats sort like
    integers. Notice the gaps double at each power of two, and that below ``smallest_normal`` they stop
    shrinking. The list stops at ``±max`` (so it is shorter there); an x that overflows is centred on
    ``±max``. ``-0.0`` and ``0.0`` count as one value.
    """
    f = get_format(fmt)
    centre = float(np.clip(round_to_format(x, f), -f.max, f.max))
    if math.isnan(centre):
        raise ValueError("NaN has no neighbours: it is not on the number line")
    sign, exponent, mantissa = _fields(centre, f)
    position = (-1 if sign else 1) * (exponent * 2**f.mantissa_bits + mantissa)
    _, top_exponent, top_mantissa = _fields(f.max, f)
    last = top_exponent * 2**f.mantissa_bits + top_mantissa
    positions = range(max(position - count, -last), min(position + count, last) + 1)
    values = [math.copysign(_value(abs(p) >> f.mantissa_bits, abs(p) % 2**f.mantissa_bits, f), p) for p in positions]
    return np.array(values, dtype=np.float64)


# --- rounding on purpose ---------------------------------------------------------------------------
def stochastic_round(x: ArrayLike, fmt: str | FloatFormat, rng: np.random.Generator) -> FloatArray:
    """Round ``x`` down or up to its two neighbours in ``fmt``, up with probability
    ``(x - below) / (above - below)``.

    Round-to-nearest is biased for a *sequence* of operations: adding 1 to a bf16 running sum of 256
    adds nothing (the gap there is 2, and 257 rounds to the even 256), forever. Stochastic rounding
    is right *in expectation* (``E[stochastic_round(x)] == x``), so small updates survive on average.
    The seed's ``sround(x, p)`` does this on the fixed grid ``2**-p``; here the grid is the format's,
    whose gap depends on x's binade, and x on the grid is kept as is (``sround`` divides 0 by 0 there).
    x is used as the float64 it is (torch has no stochastic conversion to copy); beyond ``max`` it
    overflows as ``round_to_format`` does.
    """
    f = get_format(fmt)
    value = np.asarray(x, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        q = _quantum(value, f)
        below = np.floor(value / q) * q  # exact: q is a power of two
        go_up = rng.random(value.shape) < (value - below) / q
        either_neighbour = np.copysign(np.where(go_up, below + q, below), value)  # -0.0 stays -0.0
        rounded = np.where(np.isfinite(value), either_neighbour, value)
    return _overflow(rounded, f)


def naive_sum(values: ArrayLike, fmt: str | FloatFormat) -> float:
    """Sum left to right with a running total held in ``fmt``: every addition is rounded.

    Once the total is large, the gap at the total exceeds the values added and they vanish (summing
    ``10**5`` fp16 ones stops at 2048). Each sum is computed in float64 and rounded to fmt, which is
    the correctly rounded result (float64 has more than twice the bits of every format here)."""
    f = get_format(fmt)
    total = 0.0
    for v in np.asarray(values, dtype=np.float64).ravel():
        total = round_one(total + round_one(float(v), f), f)
    return total


def kahan_sum(values: ArrayLike, fmt: str | FloatFormat) -> float:
    """Compensated (Kahan) summation with every intermediate held in ``fmt``.

    ``compensation`` catches the low-order bits each addition drops (``(total + y) - total - y``,
    exact in floating point when |total| >= |y|) and feeds them into the next addition, so the error
    stays about one rounding of the result instead of growing with the number of terms. Compare it with
    ``naive_sum``: same format, same values, very different answer. (``tl.dot`` gets the same effect
    differently: it accumulates fp16 products in fp32.)"""
    f = get_format(fmt)

    def rounded(v: float) -> float:
        return round_one(v, f)

    total = compensation = 0.0
    for v in np.asarray(values, dtype=np.float64).ravel():
        y = rounded(rounded(float(v)) - compensation)
        new_total = rounded(total + y)
        compensation = rounded(rounded(new_total - total) - y)
        total = new_total
    return total
