"""Activation checkpointing: trade compute for memory.

Normally every op in a block saves what its backward needs (activations) until backward runs.
``checkpoint(block, x)`` keeps only the block's *inputs*; in backward it runs the block again, with
recording on, and backpropagates through that fresh copy. Gradients are identical; the memory
held between forward and backward shrinks from "every activation in the block" to "its inputs".

Two variants, as in torch:

- ``use_reentrant=True`` (torch's default, with a warning when not passed): the block runs
  under ``no_grad``; backward recomputes and calls ``backward()`` on the recomputed outputs from
  inside the outer backward (a *re-entrant* call), which accumulates parameters' ``.grad``
  directly. So it does not work with ``autograd.grad``, and if no input requires grad the output
  does not either: backward raises when the loss depends on the block alone ("element 0 of
  tensors does not require grad"), and when a later layer needs grad, the block's parameters
  silently get no gradient.
- ``use_reentrant=False`` (recommended): also right when inputs do not require grad, and works
  with ``autograd.grad``. Built, as in torch, on saved-tensor hooks (``autograd.graph``): the
  block's graph is recorded normally but every tensor it saves is replaced by its position;
  backward's first unpack reruns the block and fills those positions. Only the inputs are
  saved, through whatever hooks are active outside, so a hook-based byte meter sees them.

The random-number state is saved and restored around the recomputation (``preserve_rng_state``),
so dropout drops the same elements both times.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any

from .._tensor import Tensor
from ..autograd.function import Function, FunctionCtx
from ..autograd.grad_mode import enable_grad, no_grad, state
from ..autograd.graph import saved_tensors_hooks

__all__ = ["checkpoint", "checkpoint_sequential"]


def _rng_state() -> Tensor:
    from .._generator import get_rng_state

    return get_rng_state()


def _set_rng_state(saved: Tensor) -> None:
    from .._generator import set_rng_state

    set_rng_state(saved)


def _as_tuple(outputs: Any) -> tuple:
    return outputs if isinstance(outputs, tuple) else (outputs,)


def _detached_inputs(args: Sequence[Any]) -> list[Any]:
    """Fresh leaves with the inputs' values: the recomputed graph starts here."""
    detached = []
    for a in args:
        if isinstance(a, Tensor):
            leaf = a.detach()
            leaf.requires_grad = a.requires_grad
            detached.append(leaf)
        else:
            detached.append(a)
    return detached


def _recompute(run_function: Callable, kwargs: dict, rng_state: Any, args: list[Any]) -> tuple:
    """Run the block again with recording on, replaying the random numbers of its first run."""
    if rng_state is not None:
        current = _rng_state()
        _set_rng_state(rng_state)
    try:
        with enable_grad():
            outputs = _as_tuple(run_function(*args, **kwargs))
    finally:
        if rng_state is not None:
            _set_rng_state(current)
    return outputs


def _split_args(ctx: FunctionCtx, args: tuple) -> None:
    """Save tensor arguments for backward; keep the other arguments on ctx as they are."""
    ctx.is_tensor = [isinstance(a, Tensor) for a in args]
    ctx.plain_args = [None if t else a for a, t in zip(args, ctx.is_tensor, strict=True)]
    ctx.save_for_backward(*(a for a in args if isinstance(a, Tensor)))


def _joined_args(ctx: FunctionCtx) -> list[Any]:
    tensors = iter(ctx.saved_tensors)
    return [next(tensors) if t else a for a, t in zip(ctx.plain_args, ctx.is_tensor, strict=True)]


class CheckpointFunction(Function):
    """Reentrant variant. forward: run the block without recording. backward: rerun it with
    recording, backpropagate into it (parameters get .grad there), return the inputs' gradients."""

    backward_name = "CheckpointFunctionBackward"

    @staticmethod
    def forward(ctx: FunctionCtx, run_function: Callable, preserve_rng_state: bool, *args: Any) -> Any:
        ctx.run_function, ctx.kwargs = run_function, {}
        ctx.rng_state = _rng_state() if preserve_rng_state else None
        _split_args(ctx, args)
        with no_grad():  # apply() records nothing when no input requires grad, but grad mode is on
            return run_function(*args)

    @staticmethod
    def backward(ctx: FunctionCtx, *grads: Tensor) -> tuple:
        from ..autograd import backward

        inputs = _detached_inputs(_joined_args(ctx))
        outputs = _recompute(ctx.run_function, ctx.kwargs, ctx.rng_state, inputs)
        pairs = [(o, g) for o, g in zip(outputs, grads, strict=True) if isinstance(o, Tensor) and o.requires_grad]
        if not pairs:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is not necessary")
        backward([o for o, _ in pairs], [g for _, g in pairs])
        input_grads = tuple(x.grad if isinstance(x, Tensor) else None for x in inputs)
        return (None, None, *input_grads)


class SaveInputs(Function):
    """Keeps the block's inputs for the recomputation. Its output (an empty tensor) is unused:
    the node exists only to save the inputs, so they go through the saved-tensor hooks active
    *outside* the block, as every other saved tensor does."""

    backward_name = "NoopSaveInputsBackward"

    @staticmethod
    def forward(ctx: FunctionCtx, dummy: Tensor, *args: Any) -> Tensor:
        ctx.save_for_backward(*(a if isinstance(a, Tensor) else None for a in args))
        ctx.plain_args = [None if isinstance(a, Tensor) else a for a in args]
        return dummy.detach()

    @staticmethod
    def backward(ctx: FunctionCtx, *grads: Tensor) -> tuple:
        return (None,) * (1 + len(ctx.plain_args))


class RecomputeFrame:
    """One checkpointed call (``use_reentrant=False``): its saved tensors are *positions*.

    During the forward every tensor an op inside the block saves is replaced by its index (the
    pack hook); nothing is kept. The first time backward unpacks one, the block runs again from
    its saved inputs, with a pack hook that stores each saved tensor at its index, in the same
    order; each unpack then takes its tensor out, so each is freed once used.
    """

    def __init__(self, function: Callable, kwargs: dict, rng_state: Any, inputs: Tensor) -> None:
        self.function, self.kwargs, self.rng_state = function, kwargs, rng_state
        self.input_saver = inputs.grad_fn  # the SaveInputs node
        self.packed = 0
        self.recomputed: dict[int, Tensor] = {}

    def pack(self, tensor: Tensor) -> int:
        self.packed += 1
        return self.packed - 1

    def unpack(self, index: int) -> Tensor:
        if index not in self.recomputed:
            self.recompute()
        return self.recomputed.pop(index)

    def recompute(self) -> None:
        node = self.input_saver
        assert node is not None
        saved = iter(node.saved_tensors)
        args = [next(saved) if plain is None else plain for plain in node.plain_args]
        stored: list[Tensor] = []

        def store(tensor: Tensor) -> int:
            stored.append(tensor.detach())
            return len(stored) - 1

        with saved_tensors_hooks(store, stored.__getitem__):
            _recompute(self.function, self.kwargs, self.rng_state, _detached_inputs(args))
        self.recomputed = dict(enumerate(stored))


def _checkpoint_without_reentrant(function: Callable, preserve_rng_state: bool, *args: Any, **kwargs: Any) -> Any:
    """torch's design: the block's graph is recorded as usual (gradients flow through its real
    nodes, parameters included), but under hooks that keep no activations."""
    if not state.enabled:
        return function(*args, **kwargs)
    rng_state = _rng_state() if preserve_rng_state else None
    from .._creation import empty

    inputs = SaveInputs.apply(empty(0, requires_grad=True), *args)
    frame = RecomputeFrame(function, kwargs, rng_state, inputs)
    with saved_tensors_hooks(frame.pack, frame.unpack):
        return function(*args, **kwargs)


def checkpoint(function: Callable, *args: Any, use_reentrant: bool | None = None, context_fn: Any = None, determinism_check: str = "default", debug: bool = False, early_stop: bool = True, **kwargs: Any) -> Any:
    """``function(*args)`` without keeping its activations; they are recomputed in backward."""
    if use_reentrant is None:
        warnings.warn(
            "tensorlab.utils.checkpoint: the use_reentrant parameter should be passed explicitly. "
            "use_reentrant=False is recommended, but if you need to preserve the current default "
            "behavior, you can pass use_reentrant=True. Refer to docs for more details on the "
            "differences between the two variants.",
            UserWarning,
            stacklevel=2,
        )
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if not use_reentrant:
        return _checkpoint_without_reentrant(function, preserve, *args, **kwargs)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
    if state.enabled and not any(isinstance(a, Tensor) and a.requires_grad for a in args):
        warnings.warn("None of the inputs have requires_grad=True. Gradients will be None", UserWarning, stacklevel=2)
    return CheckpointFunction.apply(function, preserve, *args)


def checkpoint_sequential(functions: Any, segments: int, input: Any, use_reentrant: bool | None = None, **kwargs: Any) -> Any:  # noqa: A002
    """Split ``functions`` (a Sequential or a list of modules) into ``segments`` chunks and
    checkpoint every chunk but the last, which runs normally (its output is needed anyway)."""
    if use_reentrant is None:
        warnings.warn(
            "tensorlab.utils.checkpoint.checkpoint_sequential: the use_reentrant parameter should be "
            "passed explicitly. use_reentrant=False is recommended, but if you need to preserve the "
            "current default behavior, you can pass use_reentrant=True. Refer to docs for more "
            "details on the differences between the two variants.",
            UserWarning,
            stacklevel=2,
        )
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
    from ..nn import Sequential

    if isinstance(functions, Sequential):
        functions = list(functions.children())

    def run_function(start: int, end: int) -> Callable:
        def forward(x: Any) -> Any:
            for j in range(start, end + 1):
                x = functions[j](x)
            return x

        return forward

    segment_size = len(functions) // segments
    end = -1
    for start in range(0, segment_size * (segments - 1), segment_size):
        end = start + segment_size - 1
        input = checkpoint(run_function(start, end), input, use_reentrant=use_reentrant, preserve_rng_state=preserve)  # noqa: A001
    return run_function(end + 1, len(functions) - 1)(input)
