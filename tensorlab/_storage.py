"""Flat storage and the strided-view arithmetic that every tensor is built on.

A tensor never owns its numbers: it is a *view* of a flat :class:`Storage` described by
``shape``, ``strides`` (in elements) and ``storage_offset``. Element ``(i0, i1, ...)`` lives at
storage position ``offset + i0*stride0 + i1*stride1 + ...`` (:func:`storage_index`). Everything
about views — transpose is a swap of strides, expand is a stride of 0, ``view`` works only when
the new shape can be expressed with strides over the same memory — follows from that formula.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np


class Storage:
    """One flat NumPy buffer plus the version counter shared by every view of it.

    Every in-place write to any view bumps ``version``; autograd compares it with the version a
    saved tensor had, which is how it notices that a value it needs was overwritten.
    """

    __slots__ = ("__weakref__", "array", "version")

    def __init__(self, array: np.ndarray) -> None:
        assert array.ndim == 1, "storage is flat"
        self.array = array
        self.version = 0

    def data_ptr(self) -> int:
        """Address of the first element: equal for tensors that share this memory."""
        return self.array.__array_interface__["data"][0]

    def nbytes(self) -> int:
        return self.array.nbytes

    def size(self) -> int:
        return self.array.size

    def __len__(self) -> int:
        return self.array.nbytes

    def __repr__(self) -> str:
        return f"Storage({self.array.size} x {self.array.dtype}, version={self.version})"


def contiguous_strides(shape: Sequence[int]) -> tuple[int, ...]:
    """Row-major strides: the last dim moves by 1, each earlier dim by the product of later sizes."""
    strides = []
    step = 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


def storage_index(index: Sequence[int], strides: Sequence[int], offset: int) -> int:
    """Where element ``index`` lives in storage: offset + sum(i_k * stride_k)."""
    return offset + sum(i * s for i, s in zip(index, strides, strict=True))


def storage_positions(shape: Sequence[int], strides: Sequence[int], offset: int) -> np.ndarray:
    """:func:`storage_index` for every element at once: an int array of ``shape``.

    Built one dim at a time by broadcasting ``arange(size) * stride`` into the running sum, which
    is the same formula with the loop over elements done by NumPy.
    """
    positions = np.full(tuple(shape), offset, dtype=np.int64)
    for d, (size, stride) in enumerate(zip(shape, strides, strict=True)):
        steps = np.arange(size, dtype=np.int64) * stride
        positions += steps.reshape((size,) + (1,) * (len(shape) - d - 1))
    return positions


def storage_extent(shape: Sequence[int], strides: Sequence[int], offset: int) -> int:
    """How many storage elements a view needs: one past its furthest element (``offset`` if empty)."""
    if any(size == 0 for size in shape):
        return offset
    return offset + sum((size - 1) * stride for size, stride in zip(shape, strides, strict=True)) + 1


def is_contiguous(shape: Sequence[int], strides: Sequence[int]) -> bool:
    """True when the elements sit in row-major order with no gaps (size-1 dims may have any stride)."""
    if 0 in shape:  # no elements: nothing can be out of place
        return True
    expected = 1
    for size, stride in zip(reversed(shape), reversed(strides), strict=True):
        if size != 1:
            if stride != expected:
                return False
            expected *= size
    return True


def is_non_overlapping_and_dense(shape: Sequence[int], strides: Sequence[int]) -> bool:
    """True when the elements fill a gap-free block in *some* dim order (e.g. a transposed matrix).

    torch's ``preserve_format`` (the default of clone and the ``*_like`` factories) copies such a
    tensor's strides exactly, those of size-1 dims included. An empty tensor counts as dense.
    """
    if 0 in shape:
        return True
    expected = 1
    for stride, size in sorted((stride, size) for size, stride in zip(shape, strides, strict=True) if size > 1):
        if stride != expected:
            return False
        expected *= size
    return True


def view_strides(
    shape: Sequence[int], strides: Sequence[int], new_shape: Sequence[int]
) -> tuple[int, ...] | None:
    """Strides that make ``new_shape`` a view of the same memory, or None if no such strides exist.

    Walk the old dims from the last, grouping them into "chunks" that are contiguous with each
    other (stride[k] == stride[k+1] * size[k+1]). Each chunk is one flat run of memory, so the new
    shape may split or merge dims only *within* a chunk. This is why ``x.t().view(-1)`` fails:
    after a transpose no two dims form a single run.
    """
    numel = 1
    for s in shape:
        numel *= s
    if not shape:  # a 0-d tensor's single element fits any all-ones shape
        return contiguous_strides(new_shape)
    if numel == 0:
        return tuple(strides) if tuple(shape) == tuple(new_shape) else contiguous_strides(new_shape)
    new_strides = [0] * len(new_shape)
    view_d = len(new_shape) - 1
    chunk_base_stride = strides[-1] if strides else 1
    tensor_numel = 1  # elements in the current chunk of old dims
    view_numel = 1  # elements in the new dims assigned to that chunk so far
    for tensor_d in range(len(shape) - 1, -1, -1):
        tensor_numel *= shape[tensor_d]
        chunk_ends = tensor_d == 0 or (
            shape[tensor_d - 1] != 1 and strides[tensor_d - 1] != tensor_numel * chunk_base_stride
        )
        if chunk_ends:
            while view_d >= 0 and (view_numel < tensor_numel or new_shape[view_d] == 1):
                new_strides[view_d] = view_numel * chunk_base_stride
                view_numel *= new_shape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if tensor_d > 0:
                chunk_base_stride = strides[tensor_d - 1]
                tensor_numel = 1
                view_numel = 1
    if view_d != -1:
        return None
    return tuple(new_strides)


def strided_array(
    storage: Storage, shape: Sequence[int], strides: Sequence[int], offset: int
) -> np.ndarray:
    """The NumPy array that reads ``storage`` through (shape, strides, offset): no copy.

    This is NumPy's own version of what :func:`storage_index` computes; NumPy counts strides in
    bytes, so we multiply by the item size.
    """
    base = storage.array
    item = base.itemsize
    if 0 in shape:  # an empty view reads nothing; NumPy only accepts an offset inside the buffer
        offset = 0
    return np.ndarray(shape, base.dtype, base, offset * item, byte_strides(tuple(strides), item))


@functools.lru_cache(maxsize=4096)  # views ask for the same few layouts over and over
def byte_strides(strides: tuple[int, ...], itemsize: int) -> tuple[int, ...]:
    """Strides counted in bytes, as NumPy counts them (a tuple: NumPy reads it faster than a list)."""
    return tuple([s * itemsize for s in strides])
