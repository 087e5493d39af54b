"""The fast path: every trick tensorlab plays only for speed, behind one switch.

The op modules (``ops/``, ``autograd/engine.py``) are written as their docstrings read: one
rule per gradient, fresh NumPy arrays for results, copies where ``.grad`` must own its memory.
That is the code the notebooks quote. Each trick that makes training loops fast without changing
what they compute lives in a module of this package, and the op code asks for it at one marked
place (``if fast.enabled: ...``):

- ``buffers``: big results and temporaries reuse dead buffers instead of fresh pages;
- ``grad_stealing``: a leaf's first gradient becomes its ``.grad`` without a copy;
- ``matrix_layout``: matrix-product gradients laid out like their operands, so they can be stolen;
- ``relu_mask``: relu's backward as a branch-free bit mask;
- ``inplace``: ``add_``/``sub_``/``mul_`` computed straight into self when nothing is recorded;
- ``conv``: the convolution as one 2-D GEMM over the whole batch, with pooled temporaries;
- ``views``: view ops straight to their forward when nothing is recorded, NumPy's own views for
  basic indexing, the row-major strides of a view of a row-major tensor without the walk, and
  expand's layouts remembered;
- ``shared_flags``: one tuple object per distinct ``needs_input_grad`` of the graph's nodes;
- ``batched_fetch``: a DataLoader batch of a TensorDataset as one gather per tensor.

``tensorlab.set_fast_path(False)`` (or ``TENSORLAB_FAST_PATH=0`` in the environment before
``import tensorlab``) turns them all off. Every op returns the same values either way (up to
float rounding where a sum runs in another order: the convolution's GEMM over the whole batch).
The one visible difference: with the fast path off, a matrix-product gradient of a column-major
operand (``w.t()``) is row-major, where torch's is column-major (``.grad`` is laid out as torch's
either way, because it is a copy then).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["enabled_now", "fast_path", "set_fast_path"]


class _Switch:
    """One flag, read as ``switch.enabled`` on hot paths (a slot read costs next to nothing)."""

    __slots__ = ("enabled",)

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled


def _from_environment() -> bool:
    """``TENSORLAB_FAST_PATH`` read once, at import: 0/false/off/no turn the fast path off."""
    return os.environ.get("TENSORLAB_FAST_PATH", "1").strip().lower() not in ("0", "false", "off", "no")


switch = _Switch(_from_environment())


def set_fast_path(enabled: bool) -> None:
    """Turn the speed-only tricks on (the default) or off (the plain, readable implementation).

    Turning it off also empties the buffer pool, so no memory is held for a path not taken.
    """
    switch.enabled = bool(enabled)
    if not switch.enabled:
        from . import buffers

        buffers.release_all()


def enabled_now() -> bool:
    """Whether the fast path is on (``tensorlab.fast_path_enabled()``)."""
    return switch.enabled


@contextmanager
def fast_path(enabled: bool) -> Iterator[None]:
    """``with tensorlab.fast_path(False): ...`` runs a block on the plain path, then restores the switch."""
    previous = switch.enabled
    set_fast_path(enabled)
    try:
        yield
    finally:
        set_fast_path(previous)
