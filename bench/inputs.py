"""Inputs for a workload in each implementation, and its results read back as NumPy arrays."""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np


def random_inputs(implementation: str, *shapes: tuple[int, ...], seed: int = 0) -> list[Any]:
    """Standard-normal float32 arrays of ``shapes``, as ``implementation``'s arrays or tensors.

    The numbers are made once with NumPy, so all three implementations see the same values.
    """
    rng = np.random.default_rng(seed)
    arrays = [rng.standard_normal(shape, dtype=np.float32) for shape in shapes]
    if implementation == "numpy":
        return arrays
    library = importlib.import_module(implementation)
    return [library.from_numpy(array) for array in arrays]


def as_numpy_list(result: Any) -> list[np.ndarray]:
    """Flatten a result (tensor, array, scalar or nested tuple of them) into a list of arrays."""
    if isinstance(result, tuple | list):
        return [array for item in result for array in as_numpy_list(item)]
    if hasattr(result, "detach"):  # a torch or tensorlab tensor
        result = result.detach()
    if hasattr(result, "numpy") and not isinstance(result, np.ndarray | np.generic):
        result = result.numpy()
    return [np.asarray(result)]


def same_results(result: Any, expected: Any) -> bool:
    """Whether two implementations computed the same thing (float32 sums may round differently)."""
    got, want = as_numpy_list(result), as_numpy_list(expected)
    if len(got) != len(want):
        return False
    for g, w in zip(got, want, strict=True):
        if g.shape != w.shape:
            return False
        tolerance = 1e-3 * max(1.0, float(np.max(np.abs(w), initial=0.0)))
        if not np.allclose(g, w, rtol=1e-3, atol=tolerance):
            return False
    return True
