"""From raw 32/64-bit words to distributions, the way torch's CPU kernels transform them.

Each function takes a :class:`~tensorlab._generator.Generator` and a number of samples and returns
a flat NumPy array in the order torch's kernel writes them (memory order). The transforms follow
``ATen/core/TransformationHelper.h`` and ``ATen/native/cpu/DistributionTemplates.h``:

- uniform: keep the low ``digits`` bits of one word (24 of a 32-bit word for float32 and
  float16, 53 of a 64-bit word for float64), scale by 2^-digits, then ``x * (to - from) + from``.
- normal: Box-Muller. Fewer than 16 elements (or a non-contiguous tensor): one pair of float64
  uniforms per two samples, the spare kept in the generator. 16 or more: fill with uniforms of
  the dtype first, then transform blocks of 16 (8 cos, 8 sin); a ragged tail redraws the last 16.
- integers: a word modulo the range (32-bit words unless the range needs 64 bits).
- bernoulli, exponential: one float64 uniform per element (float32 when the probabilities are).
"""

from __future__ import annotations

import math

import numpy as np

from ._generator import Generator

_DIGITS = {np.dtype(np.float64): 53, np.dtype(np.float32): 24, np.dtype(np.float16): 11}


def _digits(dtype: np.dtype) -> int:
    """Mantissa bits, counting the implicit one (``std::numeric_limits<T>::digits``)."""
    return _DIGITS.get(np.dtype(dtype), 24)  # bfloat16 is held as float32 here


def _fused_multiply_add(a: np.ndarray, b: float, c: float) -> np.ndarray:
    """a * b + c rounded once, as the compiled kernel's FMA instruction does. The exact product is
    p + e (Dekker's split into halves whose products are exact) and p + c is s + t (Knuth's
    two-sum); the final sum rounds the small parts together before they meet s."""
    split = 134217729.0  # 2^27 + 1

    def halves(v: np.ndarray | float) -> tuple:
        big = split * v
        high = big - (big - v)
        return high, v - high

    p = a * b
    (a_hi, a_lo), (b_hi, b_lo) = halves(a), halves(b)
    e = ((a_hi * b_hi - p) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo
    s = p + c
    back = s - p
    t = (p - (s - back)) + (c - back)
    return s + (t + e)


def uniform(gen: Generator, n: int, dtype: np.dtype, low: float = 0.0, high: float = 1.0) -> np.ndarray:
    """U[low, high) in ``dtype``: ``x * (high - low) + low`` with one rounding (the kernel is
    compiled to a fused multiply-add). float16 is drawn as float32 (24 bits) and rounded."""
    if np.dtype(dtype) == np.float64:
        bits = gen.engine.random64(n) & np.uint64(2**53 - 1)
        return _fused_multiply_add(bits.astype(np.float64) * 2.0**-53, high - low, low)
    bits = gen.engine.random32(n) & np.uint32(2**24 - 1)
    to, from_ = np.array([high, low], dtype=dtype).astype(np.float32)
    x = bits.astype(np.float64) * 2.0**-24
    # exact in float64 (24-bit x times a float32), so one rounding to float32 is the FMA's
    values = (x * np.float64(to - from_) + np.float64(from_)).astype(np.float32).astype(dtype)
    if np.dtype(dtype) == np.float16:  # rounded up to ``high``: torch returns ``low`` instead
        values[values == np.float16(high)] = np.float16(low)
    return values


def _box_muller_pair(gen: Generator) -> tuple[float, float]:
    """Two standard normals from two float64 uniforms: ``r cos(theta)``, and the spare ``r sin``."""
    u1, u2 = uniform(gen, 2, np.dtype(np.float64)).tolist()
    radius = math.sqrt(-2.0 * math.log1p(-u2))
    theta = 2.0 * math.pi * u1
    return radius * math.cos(theta), radius * math.sin(theta)


def normal_scalar(gen: Generator, n: int, mean: float, std: float) -> np.ndarray:
    """torch's path for fewer than 16 elements: one sample at a time, in float64, using (and
    leaving) the generator's cached spare sample."""
    samples = []
    for _ in range(n):
        if gen.next_double_normal is not None:
            z, gen.next_double_normal = gen.next_double_normal, None
        else:
            z, gen.next_double_normal = _box_muller_pair(gen)
        samples.append(z * std + mean)
    return np.array(samples, dtype=np.float64)


def _normal_blocks(u: np.ndarray, mean: float, std: float) -> np.ndarray:
    """Box-Muller on blocks of 16 uniforms: the first 8 of a block give r cos(theta), the last 8
    r sin(theta). float32 rounds after each step, as the C++ float arithmetic does."""
    blocks = u.reshape(-1, 2, 8)
    if u.dtype == np.float64:  # the C library's log, cos and sin (Python's math), for exact bits
        radius = np.sqrt(-2.0 * np.array([math.log(v) for v in (1.0 - blocks[:, 0]).ravel()]).reshape(-1, 8))
        theta = 2.0 * math.pi * blocks[:, 1]
        cos = np.array([math.cos(v) for v in theta.ravel()]).reshape(-1, 8)
        sin = np.array([math.sin(v) for v in theta.ravel()]).reshape(-1, 8)
        return np.stack([radius * cos * std + mean, radius * sin * std + mean], axis=1).ravel()
    f32, f64 = np.float32, np.float64
    one_minus = (f32(1) - blocks[:, 0]).astype(f64)
    radius = np.sqrt(f32(-2) * np.log(one_minus).astype(f32))
    theta = (2.0 * np.pi * blocks[:, 1].astype(f64)).astype(f32).astype(f64)
    cos, sin = np.cos(theta).astype(f32), np.sin(theta).astype(f32)
    return np.stack([radius * cos * f32(std) + f32(mean), radius * sin * f32(std) + f32(mean)], axis=1).ravel()


def normal_fill(gen: Generator, n: int, dtype: np.dtype, mean: float, std: float) -> np.ndarray:
    """torch's path for 16 or more contiguous elements: n uniforms of ``dtype``, transformed 16 at
    a time; if n is not a multiple of 16, 16 fresh uniforms replace the last 16 and are transformed
    too (so the last 16 - n % 16 full-block values are overwritten). float16 is computed in float32
    (24-bit uniforms, rounded once at the end) and draws uniforms for the whole blocks only, before
    the 16 of the tail: measured against torch 2.13, bit for bit."""
    whole = n - n % 16
    if np.dtype(dtype) == np.float16:  # float16 goes through float32 blocks: whole blocks only are drawn first
        draw, work, first = np.dtype(np.float32), np.float32, whole
    else:
        draw, work, first = np.dtype(dtype), (np.float64 if np.dtype(dtype) == np.float64 else np.float32), n
    u = uniform(gen, first, draw).astype(work)
    out = np.empty(n, dtype=work)
    out[:whole] = _normal_blocks(u[:whole], mean, std)
    if n % 16:
        out[n - 16 :] = _normal_blocks(uniform(gen, 16, draw).astype(work), mean, std)
    return out.astype(dtype)


def normal(gen: Generator, n: int, dtype: np.dtype, mean: float = 0.0, std: float = 1.0, contiguous: bool = True) -> np.ndarray:
    """N(mean, std^2): the vectorised path for 16 or more contiguous elements, else the scalar one."""
    if n >= 16 and contiguous:
        return normal_fill(gen, n, dtype, mean, std)
    return normal_scalar(gen, n, mean, std).astype(dtype)


def _uses_64_bits(dtype: np.dtype) -> bool:
    return np.dtype(dtype) in (np.dtype(np.int64), np.dtype(np.float64))


def random_full(gen: Generator, n: int, dtype: np.dtype) -> np.ndarray:
    """``random_()``: a 64-bit word for int64/float64, else 32-bit, reduced to the integers the
    dtype holds (mod 2^63 for int64, mod 2^digits + 1 for floats, the low bit for bool)."""
    words = gen.engine.random64(n) if _uses_64_bits(dtype) else gen.engine.random32(n).astype(np.uint64)
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return (words & np.uint64(1)).astype(np.bool_)
    if dtype.kind == "f":
        modulus = 2 ** _digits(dtype) + 1
    else:
        modulus = int(np.iinfo(dtype).max) + 1
    return (words % np.uint64(modulus)).astype(dtype)


def random_from_to(gen: Generator, n: int, dtype: np.dtype, low: int, high: int) -> np.ndarray:
    """``random_(low, high)`` and ``randint``: ``word % (high - low) + low``, with 32-bit words
    unless the range needs more (and the dtype is int64, float64, float32 or bfloat16)."""
    span = high - low
    wide = np.dtype(dtype) in (np.dtype(np.int64), np.dtype(np.float64), np.dtype(np.float32)) and span >= 2**32
    words = gen.engine.random64(n) if wide else gen.engine.random32(n).astype(np.uint64)
    offsets = (words % np.uint64(span)).astype(np.int64)
    return (offsets + np.int64(low)).astype(dtype)


def randperm(gen: Generator, n: int) -> np.ndarray:
    """torch's CPU randperm: Fisher-Yates, swapping position i with i + (word % (n - i)). (For n of
    2^32 / 20 or more torch switches to the inside-out variant with 64-bit words.)"""
    if n < (2**32 - 1) // 20:
        permutation = list(range(n))
        remaining = np.arange(n - 1, 0, -1, dtype=np.uint64) + np.uint64(1) if n > 1 else np.zeros(0, np.uint64)
        jumps = (gen.engine.random32(max(n - 1, 0)).astype(np.uint64) % remaining).tolist()
        for i, jump in enumerate(jumps):
            j = i + jump
            permutation[i], permutation[j] = permutation[j], permutation[i]
        return np.array(permutation, dtype=np.int64)
    words = gen.engine.random64(n)
    inside_out = np.empty(n, dtype=np.int64)
    for i in range(n):
        j = int(words[i] % np.uint64(i + 1))
        inside_out[i] = inside_out[j]
        inside_out[j] = i
    return inside_out


def bernoulli(gen: Generator, probabilities: np.ndarray) -> np.ndarray:
    """1 where a uniform falls below its probability: float64 uniforms for float64 (or Python
    number) probabilities, float32 uniforms (one 32-bit word each) for other float dtypes."""
    p = np.asarray(probabilities).ravel()
    if p.dtype == np.float64:
        return uniform(gen, p.size, np.dtype(np.float64)) < p
    return uniform(gen, p.size, np.dtype(np.float32)) < p.astype(np.float32)


def exponential(gen: Generator, n: int, rate: float = 1.0) -> np.ndarray:
    """Exponential(rate) as float64: ``-1 / rate * log1p(-u)``, one float64 uniform each."""
    u = uniform(gen, n, np.dtype(np.float64))
    return -1.0 / rate * np.array([math.log1p(-v) for v in u.tolist()])  # the C library's log1p
