"""ViewInfo: what a view remembers about how it was made, so in-place writes stay correct.

A view shares its base's storage. When either is written in place, autograd must know which
tensor owns the storage, at which version the view's history was built, and whether in-place
writes into the view may be recorded at all (torch's view metadata and CreationMeta).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .autograd.grad_mode import state as grad_state

if TYPE_CHECKING:
    from ._tensor import Tensor


class ViewInfo:
    """What a view remembers (torch's view metadata): its base, and how and when it was made.

    ``version`` is the storage version its grad_fn was built at: after an in-place write
    anywhere in the storage, autograd rebuilds the view's history from the base
    (``autograd.copy_slices.refresh_view_history``). ``creation_meta`` says whether in-place
    writes into the view may be recorded at all.
    """

    __slots__ = ("base", "grad_mode", "inherited", "multi_output", "version")
    base: Tensor  # the tensor that owns the storage (a view of a view remembers the first base)
    version: int
    grad_mode: bool
    multi_output: bool
    inherited: str

    def __init__(self, parent: Tensor, multi_output: bool) -> None:
        parent_info = parent._view_info
        self.base = parent if parent_info is None else parent_info.base
        self.version = parent._storage.version
        self.grad_mode = grad_state.enabled
        self.multi_output = multi_output
        inherited = "default" if parent_info is None else parent_info.creation_meta(parent)
        self.inherited = inherited

    def creation_meta(self, view: Tensor) -> str:
        """torch's CreationMeta: "default", or "multi_output" / "no_grad" (no recorded in-place).

        A view made with recording off is a no_grad view unless autograd recorded it (a view
        op's forward always runs with recording off). A view of a view inherits the parent's
        restriction unless it has its own.
        """
        if not self.grad_mode and view.grad_fn is None:
            return "no_grad"
        own = "multi_output" if self.multi_output else "default"
        return self.inherited if own == "default" else own
