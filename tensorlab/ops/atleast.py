"""``atleast_1d``, ``atleast_2d``, ``atleast_3d``: give a tensor enough dims, as views.

Code written for matrices can accept a scalar or a vector this way. Size-1 dims are added where
NumPy (and torch) put them: a vector of n becomes (1, n) for 2-d, and (1, n, 1) for 3-d — it stays
a *row*; a matrix (m, n) becomes (m, n, 1). Several tensors in, a tuple out.
"""

from __future__ import annotations

from typing import Any

from .._tensor import Tensor

__all__ = ["atleast_1d", "atleast_2d", "atleast_3d"]

# the shape each (ndim -> new shape) takes, from the old shape
_RESHAPES = {
    1: {0: lambda s: (1,)},
    2: {0: lambda s: (1, 1), 1: lambda s: (1, *s)},
    3: {0: lambda s: (1, 1, 1), 1: lambda s: (1, *s, 1), 2: lambda s: (*s, 1)},
}


def _at_least(n: int, tensors: tuple[Any, ...]) -> Any:
    items = list(tensors[0]) if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)) else list(tensors)
    for position, t in enumerate(items):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {position} in argument 0, but got {type(t).__name__}")
    results = tuple(t.reshape(_RESHAPES[n][t.ndim](tuple(t.shape))) if t.ndim < n else t for t in items)
    return results[0] if len(results) == 1 and not isinstance(tensors[0], (list, tuple)) else results


def atleast_1d(*tensors: Any) -> Any:
    return _at_least(1, tensors)


def atleast_2d(*tensors: Any) -> Any:
    return _at_least(2, tensors)


def atleast_3d(*tensors: Any) -> Any:
    return _at_least(3, tensors)
