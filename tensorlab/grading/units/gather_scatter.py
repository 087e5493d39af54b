"""Unit 08, gather and scatter_add: first with loops over the index, then vectorised."""

from __future__ import annotations

import numpy as np

from ..tasks import Task, task
from .broadcasting import normal

__all__ = ["GATHER_LOOPS", "GATHER_VECTORISED", "SCATTER_ADD_LOOPS", "SCATTER_ADD_VECTORISED"]

LIBRARY_GATHERS = (
    "numpy.take_along_axis", "numpy.take", "numpy.choose",
    "torch.gather", "torch.Tensor.gather", "torch.take_along_dim",
    "tensorlab.gather", "tensorlab.Tensor.gather", "tensorlab.take_along_dim",
)
LIBRARY_SCATTERS = (
    "numpy.put_along_axis", "torch.scatter_add", "torch.Tensor.scatter_add", "torch.Tensor.scatter_add_",
    "torch.index_add", "tensorlab.scatter_add", "tensorlab.Tensor.scatter_add", "tensorlab.Tensor.scatter_add_",
    "tensorlab.index_add",
)


def gather_reference(x: np.ndarray, dim: int, index: np.ndarray) -> np.ndarray:
    import tensorlab

    return tensorlab.gather(tensorlab.tensor(x), dim, tensorlab.tensor(index)).numpy().copy()


def scatter_add_reference(x: np.ndarray, dim: int, index: np.ndarray, src: np.ndarray) -> np.ndarray:
    import tensorlab

    out = tensorlab.tensor(x).scatter_add(dim, tensorlab.tensor(index), tensorlab.tensor(src))
    return out.numpy().copy()


def random_index(rng: np.random.Generator, shape: tuple[int, ...], dim: int) -> np.ndarray:
    """An int64 index no bigger than ``shape`` off ``dim``, any length along ``dim``, values in range."""
    index_shape = [int(rng.integers(1, size + 1)) for size in shape]
    index_shape[dim] = int(rng.integers(1, 5))
    return rng.integers(0, shape[dim], size=index_shape).astype(np.int64)


def random_gather_case(rng: np.random.Generator) -> tuple[np.ndarray, int, np.ndarray]:
    shape = tuple(int(size) for size in rng.integers(1, 5, size=rng.integers(1, 4)))
    dim = int(rng.integers(0, len(shape)))
    x = normal(rng, shape)
    return x, dim, random_index(rng, shape, dim)


def random_scatter_case(rng: np.random.Generator) -> tuple[np.ndarray, int, np.ndarray, np.ndarray]:
    x, dim, index = random_gather_case(rng)
    src_shape = tuple(size + int(rng.integers(0, 2)) for size in index.shape)
    return x, dim, index, normal(rng, src_shape)


GATHER_EXAMPLES = [
    (np.array([[1.0, 2.0], [3.0, 4.0]]), 1, np.array([[0, 0], [1, 0]])),
    (np.arange(12.0).reshape(3, 4), 0, np.array([[2, 1, 0, 0]])),
    (np.arange(6.0), 0, np.array([5, 5, 0])),
]
SCATTER_EXAMPLES = [
    (np.zeros(5), 0, np.array([0, 1, 0, 4]), np.ones(4)),
    (np.zeros((2, 3)), 1, np.array([[0, 0], [2, 1]]), np.array([[1.0, 2.0], [3.0, 4.0]])),
    (np.ones((3, 2)), 0, np.array([[2, 2], [0, 2]]), np.arange(6.0).reshape(3, 2)),
]
GATHER_HINT = (
    "out[i][j][k] = x[index[i][j][k]][j][k] when dim == 0: the output has index's shape, and only the "
    "coordinate along dim is replaced by the index value."
)
SCATTER_HINT = (
    "Start from a copy of x; for every position p of index, add src[p] to the element of the copy at p "
    "with the coordinate along dim replaced by index[p]. Repeated indices add up. Do not change x."
)

GATHER_LOOPS = task(Task(
    name="gather_loops", reference=gather_reference, examples=GATHER_EXAMPLES,
    random_case=random_gather_case, hint=GATHER_HINT, forbidden=LIBRARY_GATHERS,
))
SCATTER_ADD_LOOPS = task(Task(
    name="scatter_add_loops", reference=scatter_add_reference, examples=SCATTER_EXAMPLES,
    random_case=random_scatter_case, hint=SCATTER_HINT, forbidden=LIBRARY_SCATTERS,
))
GATHER_VECTORISED = task(Task(
    name="gather_vectorised", reference=gather_reference, examples=GATHER_EXAMPLES,
    random_case=random_gather_case, forbidden=LIBRARY_GATHERS, vectorised=True,
    hint="Build one integer array of coordinates per dimension (np.indices(index.shape)), put index in "
    "place of the coordinates along dim, and index x with that tuple: no Python loops.",
))
SCATTER_ADD_VECTORISED = task(Task(
    name="scatter_add_vectorised", reference=scatter_add_reference, examples=SCATTER_EXAMPLES,
    random_case=random_scatter_case, forbidden=LIBRARY_SCATTERS, vectorised=True,
    hint="Build the target coordinates as in gather, then np.add.at(out, coordinates, src_block): "
    "plain `out[coordinates] += ...` loses repeated indices. Use only the block of src with index's shape.",
))
