"""In-place writes through a view: the base's history becomes a CopySlices node.

``a = x * 1; v = a[:2]; v.mul_(2)`` changes ``a``'s values, so it must change ``a``'s history
too, although the op was called on ``v``. As torch does, the base ``a`` gets a new grad_fn,
:class:`CopySlices`: for the gradient of the new ``a`` it

1. copies the incoming gradient (laid out like the base),
2. takes the window of that copy where the view sits, and runs the in-place op's backward on
   it: what comes out for the op's ``self`` is written back into the window, what comes out
   for the op's other inputs (``w`` in ``v.add_(w)``) is sent on to them,
3. sends the copy on to the base's old history. Outside the window it is the gradient
   unchanged (those elements were not touched).

The op ran on stand-ins (a copy of the view's old values, detached aliases of the other
inputs), so its little graph is separate from the big one; step 2 runs the engine on it.
Afterwards every view of the base describes its history afresh as ``as_strided`` of the base
(torch's ``AsStridedBackward0``): eagerly for the view written into, lazily (when the view is
next used by autograd, see ``function.gradient_edge``) for the others.

Known difference: double backward (``create_graph=True``) does not differentiate through a
CopySlices node's own backward.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from .._storage import storage_extent
from .engine import run_backward
from .function import FREED_MESSAGE, BackwardNode
from .grad_mode import state

if TYPE_CHECKING:
    from .._tensor import Tensor
    from .._view_info import ViewInfo

MULTI_OUTPUT_ADVICE = (
    " This view is the output of a function that returns multiple views. Such functions do not "
    "allow the output views to be modified inplace. You should replace the inplace operation by "
    "an out-of-place one."
)
NO_GRAD_ADVICE = (
    " Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify "
    "your code by moving both the view and the inplace either both inside the no_grad block (if "
    "you don't want the inplace to be tracked) or both outside (if you want the inplace to be "
    "tracked)."
)
VIEW_OF_LEAF_MESSAGE = "a view of a leaf Variable that requires grad is being used in an in-place operation."


# --- may this view be written into? ---------------------------------------------------------
def _view_info(view: Tensor) -> ViewInfo:
    """What a view knows about its base: every function in this module is given views only."""
    info = view._view_info
    assert info is not None, "expected a view"
    return info


def check_view_write(view: Tensor) -> None:
    """torch's errors for a recorded in-place write into ``view`` (before any data changes)."""
    info = _view_info(view)
    meta = info.creation_meta(view)
    if meta != "default":
        raise RuntimeError(rebase_error(view, meta, indirect=False))
    base = info.base
    if view._requires_grad and base._requires_grad and base.grad_fn is None:
        raise RuntimeError(VIEW_OF_LEAF_MESSAGE)


def rebase_error(view: Tensor, meta: str, indirect: bool) -> str:
    """torch's message for a view that may not take part in a recorded in-place write.

    ``indirect``: the write went into its base or another view, and the view is used later.
    """
    modified = "its base or another view of its base has been" if indirect else "is being"
    op = f"Output {view._output_nr} of {_forward_name(view.grad_fn)}" if view.grad_fn else ""
    if meta == "no_grad" or view.grad_fn is None:
        prefix = f"{op} is a view of a view which was created in" if op else "A view was created in"
        message = f"{prefix} no_grad mode and {modified} modified inplace with grad mode enabled."
    else:
        message = f"{op} is a view and {modified} modified inplace."
    return message + (MULTI_OUTPUT_ADVICE if meta == "multi_output" else NO_GRAD_ADVICE)


def _forward_name(node: Any) -> str:
    """``SliceBackward0`` -> ``Slice``: torch names the forward op in these messages."""
    return re.sub(r"Backward\d*$", "", node.name())


# --- the node --------------------------------------------------------------------------------
class CopySlices(BackwardNode):
    """The base's grad_fn after an in-place op wrote into one of its views (see module doc).

    Inputs, in order: the base (its history before the write), then every tensor argument of
    the op that requires grad. ``stand_ins`` are what the op really ran on, in the same order
    (a copy of the view's old values in place of the base; None if the base needs no grad).
    """

    def __init__(self, base: Tensor, view: Tensor, result: Tensor, stand_ins: tuple, arguments: tuple) -> None:
        super().__init__((base, *arguments))
        self.base_layout = (tuple(base.shape), base.stride(), base.storage_offset())
        self.view_layout = (tuple(view.shape), view.stride(), view.storage_offset())
        self.result: Tensor | None = result
        self.stand_ins = stand_ins

    def release_saved(self) -> None:
        self.result = None
        self.stand_ins = ()

    @staticmethod
    def backward(ctx: CopySlices, grad: Tensor) -> tuple:
        from .._tensor import Tensor

        result = ctx.result
        if result is None:
            raise RuntimeError(FREED_MESSAGE)
        shape, strides, offset = ctx.base_layout
        holder = Tensor._from_array(np.zeros(storage_extent(shape, strides, 0), grad.dtype.numpy), grad.dtype)
        grad_base = holder._alias(shape, strides, 0)
        grad_base._data[...] = grad._data
        view_shape, view_strides, view_offset = ctx.view_layout
        window = holder._alias(view_shape, view_strides, view_offset - offset)

        wanted = [t for t in ctx.stand_ins if t is not None]
        grad_result = Tensor._from_array(window._data.astype(result.dtype.numpy), result.dtype)
        found = iter(run_backward([result], [grad_result], True, False, inputs=wanted, accumulate_grad=False))
        grads = [None if t is None else next(found) for t in ctx.stand_ins]
        window._data[...] = 0 if grads[0] is None else grads[0]._data
        return (grad_base, *grads[1:])


CopySlices.function = CopySlices  # type: ignore[assignment]  # the engine calls node.function.backward


# --- writing through a view ------------------------------------------------------------------
def write_through_view(
    view: Tensor, op: Callable[..., Tensor], args: tuple, kwargs: dict, store: Callable[[Tensor, Tensor], Any]
) -> Tensor:
    """``op(view, *args, **kwargs)`` written into ``view``, with the base's history rewritten.

    ``store(view, result)`` checks the result (shape, dtype) and copies its values in.
    """
    from .._tensor import Tensor

    base = _view_info(view).base
    before = Tensor._from_array(view._data.copy(), view.dtype)  # the op's self: the old values
    before._requires_grad = base._requires_grad
    arguments: list[Tensor] = []
    stand_ins: list[Tensor | None] = [before if before._requires_grad else None]

    def stand_in(x: Any) -> Any:
        if not getattr(x, "_requires_grad", False):
            return x
        alias = x.detach()  # same values and version counter, no history
        alias._requires_grad = True
        arguments.append(x)
        stand_ins.append(alias)
        return alias

    args = tuple(stand_in(a) for a in args)
    kwargs = {name: stand_in(value) for name, value in kwargs.items()}
    result = op(before, *args, **kwargs)
    store(view, result)
    if not result._requires_grad:
        return view
    base.grad_fn = CopySlices(base, view, result, tuple(stand_ins), tuple(arguments))
    base._requires_grad = True
    base._output_nr = 0
    refresh_view_history(view)
    return view


def refresh_view_history(view: Tensor) -> None:
    """Rebuild a view's grad_fn as ``as_strided`` of its base's current history, like torch.

    Called when the storage's version moved on since the view's grad_fn was made: an in-place
    write (into the base or any of its views) may have given the base a new history.
    """
    info = _view_info(view)
    info.version = view._storage.version
    base = info.base
    if not base._requires_grad:
        return
    meta = info.creation_meta(view)
    if meta != "default":
        raise RuntimeError(rebase_error(view, meta, indirect=True))
    from ..ops.views import AsStrided

    previous, state.enabled = state.enabled, True
    try:
        replay = AsStrided.apply(base, tuple(view.shape), view.stride(), view.storage_offset())
    finally:
        state.enabled = previous
    view.grad_fn = replay.grad_fn
    view._output_nr = 0
    view._requires_grad = True
