"""Recycling big output buffers, so a chain of ops does not page-fault on every step.

``((x * 2 + 1).exp() * y)`` on a million floats makes four 4 MB results. Memory that big comes
fresh from the operating system, and touching each new page costs a page fault — on a first call
that is more time than the arithmetic. But ``x * 2`` is dead as soon as ``+ 1`` has read it, so
its buffer can hold the result of ``exp``. This module keeps a few such dead buffers and hands
them out again (NumPy does the same trick inside one expression; torch's GPU allocator does it
on the device).

A buffer is recycled only when nothing can see it any more: its storage has died *and* no NumPy
array (``t.numpy()`` a user kept, a view) still points into it — checked by reference count.
Small arrays are left to NumPy, whose own allocator is fast for them.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .._storage import Storage
from . import switch

if TYPE_CHECKING:
    from .._dtype import dtype
    from .._tensor import Tensor

MIN_ELEMENTS = 1 << 16  # below this, page faults are negligible and NumPy's allocator is faster
MAX_BUFFERS_PER_SIZE = 4
MAX_HELD_BYTES = 256 << 20

_free: dict[tuple[int, np.dtype], list[np.ndarray]] = {}
_held_bytes = 0


def empty(shape: Sequence[int], dtype: np.dtype) -> np.ndarray:
    """An uninitialised C-contiguous array of ``shape``: a view of a flat (maybe recycled) buffer.

    Wrap the result with :func:`storage_for` so the buffer comes back here when it dies.
    """
    global _held_bytes
    size = 1
    for s in shape:
        size *= s
    stack = _free.get((size, dtype))
    if stack:
        flat = stack.pop()
        _held_bytes -= flat.nbytes
    else:
        flat = np.empty(size, dtype)
    return flat.reshape(shape)


class RecyclingStorage(Storage):
    """A Storage whose flat buffer returns to the pool when the storage dies unseen."""

    __slots__ = ()

    def __del__(self) -> None:
        flat = self.array
        # References: self.array, the local ``flat`` and getrefcount's argument. Any more means
        # a NumPy array somewhere still reads this memory: then it must not be reused.
        if sys.getrefcount(flat) == 3:
            _keep(flat)


def _keep(flat: np.ndarray) -> None:
    """Hold a dead flat buffer for the next :func:`empty` of its size (within the limits;
    never while the fast path is off: nothing would take it)."""
    global _held_bytes
    if not switch.enabled or _held_bytes + flat.nbytes > MAX_HELD_BYTES:
        return
    stack = _free.setdefault((flat.size, flat.dtype), [])
    if len(stack) < MAX_BUFFERS_PER_SIZE:
        stack.append(flat)
        _held_bytes += flat.nbytes


def storage_for(array: np.ndarray) -> Storage:
    """The storage of an array made by :func:`empty`: its flat buffer, recycled on death."""
    flat = array.base
    assert flat is not None, "storage_for takes arrays made by buffers.empty (views of a pooled buffer)"
    return RecyclingStorage(flat)


def give_back(scratch: np.ndarray) -> None:
    """Return a temporary from :func:`empty` that never became a tensor (im2col columns, say) to
    the pool now. Drop its views first: any other reference keeps the buffer out of the pool."""
    flat = scratch.base
    if flat is None or flat.ndim != 1 or not flat.flags.owndata or not flat.flags.writeable:
        return
    # scratch: the caller's name, our parameter, getrefcount's argument;
    # flat: scratch.base, the local ``flat``, getrefcount's argument.
    if sys.getrefcount(scratch) == 3 and sys.getrefcount(flat) == 3:
        _keep(flat)


def computed_into(shape: Sequence[int], dt: dtype, compute: Callable[[np.ndarray], Any]) -> Tensor:
    """A new tensor of ``shape`` whose values ``compute(out)`` writes into a (maybe recycled) buffer."""
    from .._tensor import Tensor

    out = empty(shape, dt.numpy)
    compute(out)
    return Tensor._from_array(out, dt, storage=storage_for(out))


def ufunc_into_pool(ufunc: Callable, dt: dtype, xa: Any, ya: Any = None) -> Tensor | None:
    """``ufunc(xa[, ya])`` written into a recycled buffer, for a large row-major result of known
    shape (``xa``'s: ``ya`` is a scalar or has the same shape); None when that does not apply."""
    if not (
        type(xa) is np.ndarray
        and xa.size >= MIN_ELEMENTS
        and xa.flags.c_contiguous
        and type(ufunc) is np.ufunc
        and (type(ya) is not np.ndarray or (ya.shape == xa.shape and ya.flags.c_contiguous))
    ):
        return None
    operands = (xa,) if ya is None else (xa, ya)
    return computed_into(xa.shape, dt, lambda out: ufunc(*operands, out=out))


def matmul_into_pool(x: np.ndarray, y: np.ndarray, dt: dtype) -> Tensor | None:
    """``x @ y`` (matrices or batches of them) written into a recycled buffer when the product is
    big: a training step makes the same few products every time. None for small or 1-D products."""
    if x.ndim < 2 or y.ndim < 2:
        return None
    batch = np.broadcast_shapes(x.shape[:-2], y.shape[:-2]) if x.ndim > 2 or y.ndim > 2 else ()
    shape = (*batch, x.shape[-2], y.shape[-1])
    if math.prod(shape) < MIN_ELEMENTS:
        return None
    return computed_into(shape, dt, lambda out: np.matmul(x, y, out=out))


def release_all() -> None:
    """Give every held buffer back to the operating system (tests, memory-tight sessions)."""
    global _held_bytes
    _free.clear()
    _held_bytes = 0
