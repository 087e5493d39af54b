"""In-place view changes: ``unsqueeze_``, ``squeeze_``, ``t_``, ``transpose_`` (and its aliases).

They change how self *reads* its storage — shape, strides, offset — not a single element:
``x.unsqueeze_(0)`` is ``x = x.unsqueeze(0)`` without the new name. So each one computes the
out-of-place view and then moves that view's layout into self. The history follows the same
rule: self's new grad_fn is the view's (same backward: reshape or transpose the gradient back),
under torch's in-place node name (``UnsqueezeBackward1``...). As in torch, the version counter
moves (a tensor saved for backward has changed shape under it), a leaf that requires grad
refuses, and other tensors viewing the same storage keep their own layout.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._tensor import Tensor
from ..autograd.copy_slices import VIEW_OF_LEAF_MESSAGE
from ..autograd.grad_mode import state as grad_state
from . import views


def _take_layout(self: Tensor, change: Callable[[Tensor], Tensor], node_name: str) -> Tensor:
    """Give self the layout (and, when recorded, the history) of ``change(self)``."""
    if grad_state.enabled and self._requires_grad:
        if self.grad_fn is None:
            raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
        info = self._view_info
        if info is not None and info.base._requires_grad and info.base.grad_fn is None:
            raise RuntimeError(VIEW_OF_LEAF_MESSAGE)
    moved = change(self)
    self._data, self._strides, self._offset = moved._data, tuple(moved.stride()), moved.storage_offset()
    if moved.grad_fn is not None and grad_state.enabled and self.grad_fn is not None:
        node = moved.grad_fn
        node.__class__ = type(node).function.node_class(node_name)  # same backward, torch's in-place name
        self.grad_fn, self._output_nr = node, moved._output_nr
        if self._view_info is not None:
            self._view_info = moved._view_info  # still a view of the same base, in its new layout
    self._storage.version += 1
    return self


def unsqueeze_(self: Tensor, dim: int) -> Tensor:
    """Insert a size-1 dim at ``dim``, in self."""
    return _take_layout(self, lambda x: views.unsqueeze(x, dim), "UnsqueezeBackward1")


def squeeze_(self: Tensor, dim: Any = None) -> Tensor:
    """Drop size-1 dims (all, one, or a tuple of them), in self."""
    node = "SqueezeBackward3" if dim is None else "SqueezeBackward5" if isinstance(dim, (tuple, list)) else "SqueezeBackward4"
    return _take_layout(self, lambda x: views.squeeze(x, dim), node)


def transpose_(self: Tensor, dim0: int, dim1: int) -> Tensor:
    """Swap two dims, in self: self is no longer contiguous (its strides are swapped, not its data)."""
    return _take_layout(self, lambda x: views.transpose(x, dim0, dim1), "TransposeBackward1")


def t_(self: Tensor) -> Tensor:
    """Transpose a matrix (0-d and 1-d: unchanged), in self."""
    if self.ndim > 2:
        raise RuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is {self.ndim}D")
    return _take_layout(self, views.t, "TBackward1")


swapdims_ = swapaxes_ = transpose_


def as_strided_(self: Tensor, size: Any, stride: Any, storage_offset: int | None = None) -> Tensor:
    """Read self's storage with any (size, stride, offset) — the primitive behind every view, in self."""
    return _take_layout(self, lambda x: views.as_strided(x, size, stride, storage_offset), "AsStridedBackward1")
