"""Unit 04, broadcasting: the shape rule, an add that broadcasts, and stretching to a shape."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..compare import Tolerance
from ..tasks import Task, task

__all__ = ["BROADCAST_ADD", "BROADCAST_SHAPE", "EXPAND_TO", "normal"]


def _tensorlab() -> Any:
    import tensorlab

    return tensorlab


def random_shape(rng: np.random.Generator, max_ndim: int = 4) -> tuple[int, ...]:
    return tuple(int(size) for size in rng.integers(1, 5, size=rng.integers(0, max_ndim + 1)))


def random_shape_pair(rng: np.random.Generator) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Two shapes that broadcast (three times in four) or clash in one dimension."""
    shape = random_shape(rng)
    other = [1 if rng.random() < 0.4 else size for size in shape][int(rng.integers(0, len(shape) + 1)) :]
    if other and rng.random() < 0.25:
        where = int(rng.integers(0, len(other)))
        other[where] = shape[len(shape) - len(other) + where] + 1
        if other[where] == 1:
            other[where] = 2
    return (shape, tuple(other)) if rng.random() < 0.5 else (tuple(other), shape)


def normal(rng: np.random.Generator, shape: Any) -> np.ndarray:
    """Normal values rounded to 3 decimals, always as an array (also for shape ())."""
    return np.asarray(np.round(rng.normal(size=shape), 3))


def random_array(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    if rng.random() < 0.3:
        return np.asarray(rng.integers(-9, 10, size=shape), dtype=np.int64)
    return normal(rng, shape)


def broadcast_shape_reference(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(_tensorlab().broadcast_shapes(a, b))


def broadcast_add_reference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    tensorlab = _tensorlab()
    return (tensorlab.tensor(a) + tensorlab.tensor(b)).numpy()


def expand_to_reference(x: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    return _tensorlab().tensor(x).expand(tuple(shape)).numpy().copy()


def random_add_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    a, b = random_shape_pair(rng)
    dtype_rng = np.random.default_rng(int(rng.integers(1 << 30)))
    first = random_array(dtype_rng, a)
    return first, random_array(dtype_rng, b).astype(first.dtype)


def random_expand_case(rng: np.random.Generator) -> tuple[np.ndarray, tuple[int, ...]]:
    """A small shape and a target it stretches to; one time in five a size clashes."""
    target = random_shape(rng)
    small = [1 if rng.random() < 0.5 else size for size in target][int(rng.integers(0, len(target) + 1)) :]
    if small and rng.random() < 0.2:
        small[-1] += 1
    return random_array(rng, tuple(small)), target


BROADCAST_SHAPE = task(Task(
    name="broadcast_shape",
    reference=broadcast_shape_reference,
    examples=[((3, 1), (4,)), ((5, 1, 4, 1), (3, 1, 1)), ((), (2, 3)), ((5, 2, 4, 1), (3, 1, 1))],
    random_case=random_shape_pair,
    hint="Line the shapes up from the right (pad the shorter with 1s on the left); each pair of "
    "sizes must be equal or contain a 1. Return a tuple of ints; raise RuntimeError when they clash.",
    forbidden=("numpy.broadcast_shapes", "numpy.broadcast", "torch.broadcast_shapes", "tensorlab.broadcast_shapes"),
))

BROADCAST_ADD = task(Task(
    name="broadcast_add",
    reference=broadcast_add_reference,
    examples=[
        (np.array([[2], [4], [6]]), np.array([10, 20, 30, 40])),
        (np.ones((2, 3)), np.arange(3.0)),
        (np.ones((5, 2, 4, 1)), np.ones((3, 1, 1))),
    ],
    random_case=random_add_case,
    hint="Compare the shapes right to left; when two sizes differ and neither is 1, raise RuntimeError("
    "'The size of tensor a (A) must match the size of tensor b (B) at non-singleton dimension D'), "
    "where D counts from the left of the broadcast result.",
    tolerance=Tolerance(match_message=True),
))

EXPAND_TO = task(Task(
    name="expand_to",
    reference=expand_to_reference,
    examples=[(np.array([[1], [2], [3]]), (3, 4)), (np.arange(3.0), (2, 3)), (np.array(7.0), (2, 2))],
    random_case=random_expand_case,
    hint="Add leading size-1 dimensions, then repeat every size-1 dimension to the target size. "
    "Keep the dtype; raise RuntimeError when a size that is not 1 differs from the target.",
    forbidden=("numpy.broadcast_to", "numpy.broadcast_arrays", "torch.broadcast_to", "tensorlab.broadcast_to"),
))
