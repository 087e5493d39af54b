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
  does not either (parameters inside the block then get no gradient).
- ``use_reentrant=False`` (recommended): also right when inputs do not require grad, and works
  with ``autograd.grad``. torch implements it with saved-tensor hooks, which tensorlab lacks;
  here the block runs once with recording on to find which leaf tensors (parameters) it reads,
  then that graph is dropped and only the inputs are kept — so between forward and backward
  the memory held is the same as torch's, though the peak inside the block's forward is not.

The random-number state is saved and restored around the recomputation (``preserve_rng_state``),
so dropout drops the same elements both times.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .._tensor import Tensor
from ..autograd.function import AccumulateGrad, Function, FunctionCtx, Node, _sequence
from ..autograd.grad_mode import enable_grad, no_grad, state

__all__ = ["checkpoint", "checkpoint_sequential"]


def _rng_state() -> Mapping[str, Any]:
    from .. import _random

    return _random._generator.bit_generator.state


def _set_rng_state(saved: Mapping[str, Any]) -> None:
    from .. import _random

    _random._generator.bit_generator.state = saved


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


def _recompute(ctx: FunctionCtx, args: list[Any]) -> tuple:
    if ctx.rng_state is not None:
        current = _rng_state()
        _set_rng_state(ctx.rng_state)
    try:
        with enable_grad():
            outputs = _as_tuple(ctx.run_function(*args, **ctx.kwargs))
    finally:
        if ctx.rng_state is not None:
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
        outputs = _recompute(ctx, inputs)
        pairs = [(o, g) for o, g in zip(outputs, grads, strict=True) if isinstance(o, Tensor) and o.requires_grad]
        if not pairs:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is not necessary")
        backward([o for o, _ in pairs], [g for _, g in pairs])
        input_grads = tuple(x.grad if isinstance(x, Tensor) else None for x in inputs)
        return (None, None, *input_grads)


class NonReentrantCheckpoint(Function):
    """Non-reentrant variant: the block's inputs *and* the leaves it reads are this node's inputs,
    so the engine routes every gradient; backward recomputes and calls ``autograd.grad``."""

    backward_name = "CheckpointBackward"

    @staticmethod
    def forward(ctx: FunctionCtx, run_function: Callable, rng_state: Any, kwargs: dict, values: tuple, n_args: int, *tensors: Any) -> Any:
        ctx.run_function, ctx.rng_state, ctx.kwargs = run_function, rng_state, kwargs
        # the leaves (parameters) exist anyway: referenced, not saved; only the inputs are saved
        ctx.leaves = tensors[n_args:]
        _split_args(ctx, tensors[:n_args])
        return values if len(values) > 1 else values[0]

    @staticmethod
    def backward(ctx: FunctionCtx, *grads: Tensor) -> tuple:
        from ..autograd import grad as autograd_grad

        args, leaves = _detached_inputs(_joined_args(ctx)), list(ctx.leaves)
        outputs = _recompute(ctx, args)
        pairs = [(o, g) for o, g in zip(outputs, grads, strict=True) if isinstance(o, Tensor) and o.requires_grad and g is not None]
        wanted = [x for x in [*args, *leaves] if isinstance(x, Tensor) and x.requires_grad]
        found = autograd_grad([o for o, _ in pairs], wanted, [g for _, g in pairs], allow_unused=True) if pairs and wanted else []
        by_id = {id(x): g for x, g in zip(wanted, found, strict=True)}
        return (None, None, None, None, None, *(by_id.get(id(x)) for x in [*args, *leaves]))


def _leaves_read(outputs: tuple, args: tuple, first_node: int) -> list[Tensor]:
    """Leaf tensors requiring grad that the block's fresh graph reaches, other than its arguments.

    Nodes numbered below ``first_node`` were recorded before the block started: they belong to
    an argument's history, which the checkpoint node reaches through the argument itself.
    """
    arg_nodes = {id(a.grad_fn) for a in args if isinstance(a, Tensor) and a.grad_fn is not None}
    arg_ids = {id(a) for a in args}
    leaves: dict[int, Tensor] = {}
    stack: list[Node] = [o.grad_fn for o in outputs if isinstance(o, Tensor) and o.grad_fn is not None]
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        for next_node, _ in node.next_functions:
            if next_node is None:
                continue
            if isinstance(next_node, AccumulateGrad):
                leaf = next_node.variable
                if id(leaf) not in arg_ids:
                    leaves.setdefault(id(leaf), leaf)
            elif next_node.sequence_nr >= first_node:
                stack.append(next_node)
            elif id(next_node) not in arg_nodes:
                raise RuntimeError(
                    "checkpoint (use_reentrant=False): the checkpointed function uses a tensor with "
                    "history that is not one of its arguments; pass that tensor as an argument."
                )
    return list(leaves.values())


def _checkpoint_without_reentrant(function: Callable, preserve_rng_state: bool, *args: Any, **kwargs: Any) -> Any:
    if not state.enabled:
        return function(*args, **kwargs)
    rng_state = _rng_state() if preserve_rng_state else None
    first_node = next(_sequence)
    outputs = _as_tuple(function(*args, **kwargs))
    leaves = _leaves_read(outputs, args, first_node)
    values = tuple(o.detach() if isinstance(o, Tensor) else o for o in outputs)
    del outputs  # the block's graph, and the activations it saved, are freed here
    return NonReentrantCheckpoint.apply(function, rng_state, kwargs, values, len(args), *args, *leaves)


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
