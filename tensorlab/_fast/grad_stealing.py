"""Gradient stealing: a leaf's first gradient becomes its ``.grad`` without a copy, when it can.

``.grad`` must own its memory: a later ``backward`` adds into it in place, and an optimizer
updates with it. So the first gradient that reaches a leaf is normally copied. But most such
gradients are fresh results nobody else can see (``X^T @ grad`` for a weight), and copying a
weight-sized array on every training step is pure waste. torch checks reference counts and
*steals* such a gradient (it stores ``grad.detach()``); so do we.

"Nobody else can see it" is checked with ``sys.getrefcount``, which CPython keeps exact:

- nothing but the engine holds the gradient tensor;
- the only other tensor over its memory is the base it is a view of (``X^T @ grad`` comes back
  through a transpose), and only the view holds that base;
- no NumPy array outside these tensors (a ``.numpy()`` someone kept, a slice) points into it.

The gradient must also be laid out as ``.grad`` would be (like its leaf), cover its whole
storage (so ``.grad`` keeps no hidden memory alive), and have no history of its own.

Part of the fast path: the engine asks here only when ``tensorlab.fast_path_enabled()``, and
copies otherwise. The engine holds each gradient only as long as its node runs (the locals of
``engine._send_gradients`` die on return), so the count it passes, ``held_by_caller``, is exact.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .._storage import Storage
    from .._tensor import Tensor


def can_steal(grad: Tensor, leaf: Tensor, held_by_caller: int) -> bool:
    """Whether ``grad.detach()`` may become ``leaf.grad`` with no copy: the caller's
    ``held_by_caller`` references (names, list slots) are the only ones to ``grad``."""
    # References from now on are counted exactly; getrefcount's argument is one more each time.
    if sys.getrefcount(grad) != held_by_caller + 2:  # + our parameter ``grad``
        return False
    storage = grad._storage
    if grad._requires_grad or grad._data.size != storage.array.size:
        return False
    if grad.stride() != leaf.stride():  # .grad is laid out like its leaf
        return False
    tensors = [grad]  # every tensor over this memory
    info = grad._view_info
    if info is not None:
        # info: grad's __dict__ and ``info``; the base: ``info.base`` only
        if sys.getrefcount(info) != 3 or sys.getrefcount(info.base) != 2:
            return False
        if info.base._storage is not storage:
            return False
        tensors.append(info.base)
    if sys.getrefcount(storage) != len(tensors) + 2:  # their slots, ``storage``
        return False
    holders = _array_holders(tensors, storage)
    if holders is None:
        return False
    # Each array: its known holders, plus the dict's list and ``array`` here.
    return all(sys.getrefcount(array) == known + 3 for array, known in holders.values())


def _array_holders(tensors: list[Tensor], storage: Storage) -> dict[int, list] | None:
    """Every NumPy array behind ``tensors``, with how many references we can account for:
    the tensors' ``_data`` slots, the storage's ``array`` slot, and arrays that are views of it
    (``.base``). None when an array's base is not a NumPy array (memory owned elsewhere)."""
    holders: dict[int, list] = {}
    for slot in [t._data for t in tensors] + [storage.array]:
        holders.setdefault(id(slot), [slot, 0])[1] += 1
    pending = [entry[0] for entry in holders.values()]
    while pending:
        base = pending.pop().base
        if base is None:
            continue
        if type(base) is not np.ndarray:
            return None
        if id(base) not in holders:
            holders[id(base)] = [base, 0]
            pending.append(base)
        holders[id(base)][1] += 1
    return holders
