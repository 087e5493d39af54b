"""Random-case helpers that several exercises share: values, shapes and layouts that break careless code.

Each task's own generator (in its exercise folder) draws its cases with these. They know nothing of
any answer: they make inputs.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["maybe_strided", "normal", "random_array", "random_shape", "strided"]


def random_shape(rng: np.random.Generator, max_ndim: int = 4) -> tuple[int, ...]:
    return tuple(int(size) for size in rng.integers(1, 5, size=rng.integers(0, max_ndim + 1)))


def normal(rng: np.random.Generator, shape: Any) -> np.ndarray:
    """Normal values rounded to 3 decimals, always as an array (also for shape ())."""
    return np.asarray(np.round(rng.normal(size=shape), 3))


def random_array(rng: np.random.Generator, shape: tuple[int, ...], dtype: Any = np.float64) -> np.ndarray:
    """Values of ``dtype`` in ``shape``; one time in four a non-contiguous view (a transpose or every other column)."""
    def values(of_shape: tuple[int, ...]) -> np.ndarray:
        if np.dtype(dtype).kind == "i":
            return np.asarray(rng.integers(-9, 10, size=of_shape), dtype=dtype)
        return normal(rng, of_shape).astype(dtype)

    if len(shape) < 1 or rng.random() >= 0.25:
        return values(shape)
    if len(shape) >= 2 and rng.random() < 0.5:
        return values(shape[::-1]).T
    return values((*shape[:-1], 2 * shape[-1]))[..., ::2]


def strided(rng: np.random.Generator, array: np.ndarray) -> np.ndarray:
    """The same values, laid out as a non-contiguous view: a transpose, or every other element of the last dim."""
    if array.ndim >= 2 and rng.random() < 0.5:
        return np.ascontiguousarray(array.T).T
    return np.repeat(array, 2, axis=-1)[..., ::2]


def maybe_strided(rng: np.random.Generator, array: np.ndarray) -> np.ndarray:
    """One time in four, a non-contiguous view with the same values (code that assumes contiguity breaks)."""
    return strided(rng, array) if rng.random() < 0.25 else array
