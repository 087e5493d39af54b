"""The backward pass: walk the graph from the outputs to the leaves in topological order.

Two phases, both iterative (a graph 100,000 ops deep needs no recursion):

1. count, for every node reachable from the roots, how many edges point at it;
2. run nodes whose every consumer has already sent its gradient ("ready"), newest first as
   torch does, adding each returned gradient into the buffer of the node it flows to.

Leaves end in :class:`AccumulateGrad`, which adds into ``.grad``; ``autograd.grad`` instead
captures the gradient arriving at the requested inputs and leaves ``.grad`` alone.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from itertools import count
from typing import TYPE_CHECKING, Any

from .function import AccumulateGrad, BackwardNode, grad_accumulator
from .grad_mode import state

if TYPE_CHECKING:
    from .._tensor import Tensor


def _root_edge(t: Tensor, index: int) -> tuple[Any, int]:
    if not t.requires_grad:
        raise RuntimeError(
            f"element {index} of tensors does not require grad and does not have a grad_fn"
        )
    if t.grad_fn is not None:
        return (t.grad_fn, t._output_nr)
    return (grad_accumulator(t), 0)


def _count_dependencies(roots: Sequence[Any]) -> dict[Any, int]:
    dependencies: dict[Any, int] = {}
    seen = set()
    stack = [node for node in roots]
    for node in stack:
        seen.add(node)
    while stack:
        node = stack.pop()
        for next_node, _ in node.next_functions:
            if next_node is None:
                continue
            dependencies[next_node] = dependencies.get(next_node, 0) + 1
            if next_node not in seen:
                seen.add(next_node)
                stack.append(next_node)
    return dependencies


def _accumulate(buffer: list, index: int, grad: Tensor) -> None:
    buffer[index] = grad if buffer[index] is None else buffer[index] + grad


def _check_gradient(node: BackwardNode, index: int, grad: Tensor) -> Tensor:
    """A backward must return a gradient shaped like its input (broadcastable ones are summed)
    and of the input's dtype (``float32 + float64`` sends a float32 gradient to the float32 side)."""
    meta = node.input_meta[index]
    if meta is None:
        return grad
    shape, dtype = meta
    if grad.shape != shape:
        from ..ops.broadcasting import sum_to_shape

        try:
            grad = sum_to_shape(grad, shape)
        except RuntimeError:
            raise RuntimeError(
                f"Function {node.name()} returned an invalid gradient at index {index} - got "
                f"{list(grad.shape)} but expected shape compatible with {list(shape)}"
            ) from None
    if grad.dtype is not dtype:
        grad = grad.to(dtype)
    return grad


def _call_backward(node: BackwardNode, grads: list) -> tuple:
    for hook in node.pre_hooks:
        replaced = hook(tuple(grads))
        if replaced is not None:
            grads = list(replaced)
    if node.materialize_grads:
        from .._creation import zeros

        grads = [
            zeros(meta[0], dtype=meta[1]) if g is None and meta is not None else g
            for g, meta in zip(grads, node.output_meta, strict=True)
        ]
    result = node.function.backward(node, *grads)
    if not isinstance(result, tuple):
        result = (result,)
    expected = len(node.next_functions)
    if len(result) != expected:
        if len(result) > expected and all(g is None for g in result[expected:]):
            result = result[:expected]
        else:
            raise RuntimeError(
                f"function {node.name()} returned an incorrect number of gradients "
                f"(expected {expected}, got {len(result)})"
            )
    result = tuple(
        None if g is None or not node.needs_input_grad[i] else _check_gradient(node, i, g)
        for i, g in enumerate(result)
    )
    for hook in node.hooks:
        replaced = hook(result, tuple(grads))
        if replaced is not None:
            result = tuple(replaced)
    return result


def _apply_tensor_hooks(node: Any, grads: list) -> None:
    """Hooks registered with ``tensor.register_hook`` on a non-leaf, then retain_grad (last)."""
    for nr, hooks in getattr(node, "tensor_pre_hooks", {}).items():
        for hook in list(hooks):
            if grads[nr] is not None:
                replaced = hook(grads[nr])
                if replaced is not None:
                    grads[nr] = replaced
    for nr, ref in getattr(node, "retained", {}).items():
        tensor = ref()
        if tensor is not None and grads[nr] is not None:
            g = grads[nr] if state.enabled else grads[nr].detach()
            tensor._grad = g.clone() if tensor._grad is None else tensor._grad + g


def _accumulate_into_leaf(node: AccumulateGrad, grad: Tensor, create_graph: bool) -> Tensor:
    leaf = node.variable
    for hook in list(leaf._hooks):
        replaced = hook(grad)
        if replaced is not None:
            grad = replaced
    if leaf._grad is None:
        leaf._grad = grad if create_graph else grad.detach().clone()
    elif create_graph:
        leaf._grad = leaf._grad + grad
    else:
        leaf._grad._data += grad._data  # in-place, as torch accumulates, without a graph
        leaf._grad._storage.version += 1
    for hook in list(node.hooks):
        hook(leaf)
    return grad


def run_backward(
    roots: Sequence[Tensor],
    root_grads: Sequence[Tensor],
    retain_graph: bool,
    create_graph: bool,
    capture: Sequence[Tensor] | None = None,
) -> list[Tensor | None] | None:
    """Backpropagate ``root_grads`` from ``roots``.

    With ``capture`` (autograd.grad), return the gradient that reaches each captured tensor
    instead of accumulating into ``.grad``.
    """
    edges = [_root_edge(t, i) for i, t in enumerate(roots)]
    capture_at: dict[tuple[int, int], int] = {}
    if capture is not None:
        for i, t in enumerate(capture):
            if not t.requires_grad:
                raise RuntimeError("One of the differentiated Tensors does not require grad")
            node, nr = (t.grad_fn, t._output_nr) if t.grad_fn is not None else (grad_accumulator(t), 0)
            capture_at[(id(node), nr)] = i
    captured: list[Tensor | None] = [None] * len(capture or ())

    root_nodes = list(dict.fromkeys(node for node, _ in edges))
    dependencies = _count_dependencies(root_nodes)
    buffers: dict[Any, list] = {}
    for (node, nr), grad in zip(edges, root_grads, strict=True):
        buffer = buffers.setdefault(node, [None] * getattr(node, "num_outputs", 1))
        _accumulate(buffer, nr, grad)

    tiebreak = count()
    ready = [(-node.sequence_nr, next(tiebreak), node) for node in root_nodes if node not in dependencies]
    heapq.heapify(ready)
    previous_mode = state.enabled
    state.enabled = create_graph
    try:
        while ready:
            _, _, node = heapq.heappop(ready)
            grads = buffers.pop(node)
            _apply_tensor_hooks(node, grads)
            for nr, g in enumerate(grads):
                slot = capture_at.get((id(node), nr))
                if slot is not None and g is not None:
                    captured[slot] = g
            if isinstance(node, AccumulateGrad):
                if capture is None and grads[0] is not None:
                    _accumulate_into_leaf(node, grads[0], create_graph)
                continue
            input_grads = _call_backward(node, grads)
            if not retain_graph:
                node.release_saved()
            for (next_node, nr), grad in zip(node.next_functions, input_grads, strict=True):
                if next_node is None:
                    continue
                if grad is not None:
                    buffer = buffers.setdefault(next_node, [None] * getattr(next_node, "num_outputs", 1))
                    _accumulate(buffer, nr, grad)
                dependencies[next_node] -= 1
                if dependencies[next_node] == 0:
                    if next_node in buffers:
                        heapq.heappush(ready, (-next_node.sequence_nr, next(tiebreak), next_node))
                    else:
                        _skip_subgraph(next_node, dependencies, buffers, ready, tiebreak, retain_graph)
    finally:
        state.enabled = previous_mode
    return captured if capture is not None else None


def _skip_subgraph(node: Any, dependencies: dict, buffers: dict, ready: list, tiebreak: Any, retain_graph: bool) -> None:
    """A node that received no gradient at all: release it and count down its inputs."""
    stack = [node]
    while stack:
        current = stack.pop()
        if not retain_graph and isinstance(current, BackwardNode):
            current.release_saved()
        for next_node, _ in current.next_functions:
            if next_node is None:
                continue
            dependencies[next_node] -= 1
            if dependencies[next_node] == 0:
                if next_node in buffers:
                    heapq.heappush(ready, (-next_node.sequence_nr, next(tiebreak), next_node))
                else:
                    stack.append(next_node)
