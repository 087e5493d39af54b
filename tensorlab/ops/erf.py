"""The error function erf, its complement erfc = 1 - erf, and its inverse erfinv.

erf(x) = 2/sqrt(pi) * integral from 0 to x of e^(-t^2) dt: the integral of a Gaussian, so its
derivative is the Gaussian itself, 2/sqrt(pi) e^(-x^2). NumPy has no erf, so each element goes
through Python's ``math.erf`` (exact to double precision). erfc exists because 1 - erf(x)
rounds to 0 for x > 6 while erfc(x) is still ~1e-17. erfinv inverts erf with Newton's method,
and its derivative is 1 / erf'(erfinv x) — the inverse function rule.
"""

from __future__ import annotations

import math

import numpy as np

from .._tensor import Tensor
from .smooth_unary import SmoothUnary
from .unary_math import one_input

__all__ = ["erf", "erfc", "erfinv"]

_TWO_OVER_SQRT_PI = 2 / math.sqrt(math.pi)
_elementwise_erf = np.vectorize(math.erf, otypes=[np.float64])
_elementwise_erfc = np.vectorize(math.erfc, otypes=[np.float64])


def _erf(a: np.ndarray) -> np.ndarray:
    return _elementwise_erf(a.astype(np.float64)) if a.size else a.astype(np.float64)


def _erfc(a: np.ndarray) -> np.ndarray:
    return _elementwise_erfc(a.astype(np.float64)) if a.size else a.astype(np.float64)


def _erfinv(a: np.ndarray) -> np.ndarray:
    """y with erf(y) = x: a closed-form first guess (Winitzki's, good to ~0.2%), then Newton steps
    y <- y - (erf(y) - x) / erf'(y), each of which roughly doubles the correct digits."""
    x = a.astype(np.float64)
    inside = np.abs(x) < 1
    safe = np.where(inside, x, 0.0)  # the steps run on in-domain values only
    k = 0.147
    log_term = np.log((1 - safe) * (1 + safe))
    first = 2 / (math.pi * k) + log_term / 2
    y = np.sign(safe) * np.sqrt(np.sqrt(first * first - log_term / k) - first)
    for _ in range(4):
        y = y - (_erf(y) - safe) / (_TWO_OVER_SQRT_PI * np.exp(-y * y))
    edge = np.where(np.abs(x) == 1, np.copysign(np.inf, x), np.nan)  # erfinv(+-1) = +-inf, beyond: nan
    return np.where(inside, y, edge)


class Erf(SmoothUnary):
    """z = erf x. dz/dx = 2/sqrt(pi) e^(-x^2)."""

    backward_name = "ErfBackward0"
    numpy_function = staticmethod(_erf)

    @staticmethod
    def derivative(x: Tensor) -> Tensor:
        return _TWO_OVER_SQRT_PI * (-x * x).exp()


class Erfc(SmoothUnary):
    """z = 1 - erf x. dz/dx = -2/sqrt(pi) e^(-x^2)."""

    backward_name = "ErfcBackward0"
    numpy_function = staticmethod(_erfc)

    @staticmethod
    def derivative(x: Tensor) -> Tensor:
        return -_TWO_OVER_SQRT_PI * (-x * x).exp()


class Erfinv(SmoothUnary):
    """z = erf^-1(x). dz/dx = 1/erf'(z) = sqrt(pi)/2 e^(z^2)."""

    backward_name = "ErfinvBackward0"
    numpy_function = staticmethod(_erfinv)

    @staticmethod
    def derivative(x: Tensor) -> Tensor:
        return (x.erfinv() ** 2).exp() / _TWO_OVER_SQRT_PI


erf, erfc, erfinv = (one_input(op) for op in (Erf, Erfc, Erfinv))
