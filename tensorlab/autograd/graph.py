"""Saved-tensor hooks: decide how each tensor kept for backward is stored, and how it comes back.

Every op that needs a value in backward (``mul`` its operands, ``relu`` its result) saves it on
its graph node. Inside ``with saved_tensors_hooks(pack, unpack):`` each such tensor is handed to
``pack`` the moment it is saved, and the node keeps *whatever pack returns* instead of the tensor;
backward calls ``unpack`` on that object to get the value back. The pair active when a tensor is
saved is the pair used to unpack it, however the context has changed since; pairs nest, and only
the innermost one applies.

What this allows: count the bytes a forward keeps alive (pack records and returns the tensor),
move saved tensors elsewhere (:class:`save_on_cpu`), or keep nothing and recompute the value in
backward — activation checkpointing (``tensorlab.utils.checkpoint`` with ``use_reentrant=False``).
As in torch, a tensor saved through hooks is not version-checked: the hooks own its value.
"""

from __future__ import annotations

from collections.abc import Callable
from types import TracebackType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .._tensor import Tensor

__all__ = ["save_on_cpu", "saved_tensors_hooks"]

PackHook = Callable[["Tensor"], Any]
UnpackHook = Callable[[Any], "Tensor"]

# innermost last; SavedTensor reads the top when a tensor is saved
_stack: list[tuple[PackHook, UnpackHook]] = []


def current_hooks() -> tuple[PackHook, UnpackHook] | None:
    """The (pack, unpack) pair a tensor saved now goes through, or None."""
    return _stack[-1] if _stack else None


class saved_tensors_hooks:  # noqa: N801 -- torch's name
    """``with saved_tensors_hooks(pack_hook, unpack_hook):`` every tensor saved for backward inside
    goes through ``pack_hook`` when saved and ``unpack_hook`` when backward needs it.

    ``unpack_hook(pack_hook(t))`` must give a tensor with ``t``'s values (shape and dtype too).
    """

    def __init__(self, pack_hook: PackHook, unpack_hook: UnpackHook) -> None:
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self) -> None:
        _stack.append((self.pack_hook, self.unpack_hook))

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        _stack.pop()


def _copy_out(t: Tensor) -> Tensor:
    """A copy of ``t`` that does not share its storage (torch: a copy into pinned CPU memory)."""
    return t.detach().clone()


def _identity(packed: Tensor) -> Tensor:
    return packed


class save_on_cpu(saved_tensors_hooks):  # noqa: N801 -- torch's name
    """Saved tensors are copied to CPU memory when saved and back to their device in backward.

    tensorlab has only the CPU, so the copy is all that happens: it shows the cost (one copy per
    saved tensor) without the benefit (GPU memory freed until backward). ``pin_memory`` is
    accepted and ignored (see unit 15 on pinned memory).
    """

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda") -> None:
        super().__init__(_copy_out, _identity)
