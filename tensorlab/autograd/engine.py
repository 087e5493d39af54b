"""The backward pass: walk the graph from the outputs to the leaves in topological order.

Two phases, both iterative (a graph 100,000 ops deep needs no recursion):

1. count, for every node reachable from the roots, how many edges point at it;
2. run nodes whose every consumer has already sent its gradient ("ready"), newest first as
   torch does, adding each gradient a node returns into the buffer of the node it flows to.

Leaves end in :class:`AccumulateGrad`, which adds into ``.grad``. When only some ``inputs``
are wanted (``autograd.grad``, ``backward(inputs=...)``), only the nodes on a path from the
roots to those inputs run; ``autograd.grad`` *captures* the gradient arriving at each input
instead of touching ``.grad``.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from itertools import count, repeat
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from .._fast import grad_stealing
from .._fast import switch as fast
from . import anomaly_mode
from .function import AccumulateGrad, BackwardNode, Node, gradient_edge
from .grad_mode import state

if TYPE_CHECKING:
    from .._tensor import Tensor


def run_backward(
    roots: Sequence[Tensor],
    root_grads: Sequence[Tensor],
    retain_graph: bool,
    create_graph: bool,
    inputs: Sequence[Tensor] | None = None,
    accumulate_grad: bool = True,
) -> list[Tensor | None]:
    """Backpropagate ``root_grads`` from ``roots``.

    ``accumulate_grad=True`` (``backward``): add into ``.grad`` of every leaf, or only of
    ``inputs`` when given. ``accumulate_grad=False`` (``autograd.grad``): return the gradient
    that reaches each of ``inputs``, leaving every ``.grad`` alone.
    """
    root_edges = [_root_edge(t, i) for i, t in enumerate(roots)]
    root_nodes = list(dict.fromkeys(node for node, _ in root_edges))
    dependencies, consumers = _count_dependencies(root_nodes, want_consumers=inputs is not None)
    buffers: dict[Node, list] = {}
    for (node, nr), grad in zip(root_edges, root_grads, strict=True):
        _add_to_buffer(buffers, node, nr, grad)

    needed: set[Node] | None = None
    captures: dict[Node, list[tuple[int, int]]] = {}
    captured: list[Tensor | None] = [None] * len(inputs or ())
    if inputs is not None:
        needed, captures = _plan_partial_backward(inputs, consumers, accumulate_grad)

    tiebreak = count()  # equal priorities (leaves) pop in the order they became ready
    ready = [(-node.sequence_nr, next(tiebreak), node) for node in root_nodes if node not in dependencies]
    heapq.heapify(ready)
    previous_mode = state.enabled
    state.enabled = create_graph  # backward's own ops are recorded only for double backward
    try:
        while ready:
            node = heapq.heappop(ready)[2]
            grads = buffers.pop(node, None)
            if grads is not None:
                if node._tensor_pre_hooks or node._retained or type(node) is AccumulateGrad:
                    _call_tensor_pre_hooks(node, grads)
                if captures:
                    for nr, slot in captures.get(node, ()):
                        captured[slot] = grads[nr]
            if needed is not None and node not in needed:
                continue  # leads to no requested input: skip it and everything below it
            if type(node) is AccumulateGrad:
                if grads is not None and accumulate_grad:
                    _accumulate_into_leaf(node, grads[0], create_graph)
                continue
            assert isinstance(node, BackwardNode)  # every node but a leaf's is an op's
            for child in _send_gradients(node, grads, buffers, dependencies, retain_graph):
                heapq.heappush(ready, (-child.sequence_nr, next(tiebreak), child))
    finally:
        state.enabled = previous_mode
    return captured


# --- planning --------------------------------------------------------------------------------
def _root_edge(t: Tensor, index: int) -> tuple[Node, int]:
    if not t._requires_grad:
        raise RuntimeError(
            f"element {index} of tensors does not require grad and does not have a grad_fn"
        )
    return gradient_edge(t)


def _count_dependencies(roots: list[Node], want_consumers: bool) -> tuple[dict[Node, int], dict[Node, list[Node]]]:
    """For each reachable node, how many edges point at it (and, if asked, from which nodes)."""
    dependencies: dict[Node, int] = {}
    consumers: dict[Node, list[Node]] = {}
    is_root = set(roots)
    stack = list(roots)
    while stack:
        node = stack.pop()
        for child, *_ in node.edges:
            if child is None:
                continue
            if child in dependencies:
                dependencies[child] += 1
            else:  # first visit: explore below it (roots are on the stack already)
                dependencies[child] = 1
                if child not in is_root:
                    stack.append(child)
            if want_consumers:
                consumers.setdefault(child, []).append(node)
    return dependencies, consumers


def _plan_partial_backward(
    inputs: Sequence[Tensor], consumers: dict[Node, list[Node]], accumulate_grad: bool
) -> tuple[set[Node], dict[Node, list[tuple[int, int]]]]:
    """Which nodes must run to reach ``inputs``, and where their gradients are captured.

    ``backward(inputs=...)`` runs the inputs' own nodes (their AccumulateGrad, or the
    retain_grad of a non-leaf); ``autograd.grad`` only captures what arrives at them.
    """
    captures: dict[Node, list[tuple[int, int]]] = {}
    targets = []
    for slot, t in enumerate(inputs):
        if not t._requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
        node, nr = gradient_edge(t)
        targets.append(node)
        if accumulate_grad:
            if t.grad_fn is not None:
                t.retain_grad()
        else:
            captures.setdefault(node, []).append((nr, slot))
    needed: set[Node] = set() if captures else set(targets)
    stack = list(targets)
    while stack:  # every node with a path down to a target is needed
        for consumer in consumers.get(stack.pop(), ()):
            if consumer not in needed:
                needed.add(consumer)
                stack.append(consumer)
    return needed, captures


# --- running one node ------------------------------------------------------------------------
def _send_gradients(node: BackwardNode, grads: list | None, buffers: dict[Node, list], dependencies: dict[Node, int], retain_graph: bool) -> list[Node]:
    """Run ``node``'s backward and add each input's gradient into the buffer of the node it
    flows to; return the nodes that have now heard from all their consumers (ready to run)."""
    if grads is None:  # no gradient reached this node: nothing flows on from it either
        input_grads: Any = repeat(None)
    else:
        input_grads = _call_function(node, grads)
        if not retain_graph:
            node.release_saved()
    ready = []
    for (child, nr, *_), grad in zip(node.edges, input_grads, strict=False):  # repeat(None) is endless
        if child is None:
            continue
        if grad is not None:
            _add_to_buffer(buffers, child, nr, grad)
        remaining = dependencies[child] - 1
        dependencies[child] = remaining
        if remaining == 0:
            ready.append(child)
    return ready


def _add_to_buffer(buffers: dict[Node, list], node: Node, nr: int, grad: Tensor) -> None:
    """Gradients arriving at the same output of a node add up (the multivariate chain rule)."""
    buffer = buffers.get(node)
    if buffer is None:
        buffer = buffers[node] = [None] * getattr(node, "num_outputs", 1)
    buffer[nr] = grad if buffer[nr] is None else buffer[nr] + grad


def _call_tensor_pre_hooks(node: Node, grads: list) -> None:
    """Hooks from ``tensor.register_hook`` (a leaf's, or a non-leaf's), then retain_grad, last."""
    if type(node) is AccumulateGrad:
        hooks = node.variable._hooks
        if hooks and grads[0] is not None:
            for hook in list(hooks):
                grads[0] = _apply_tensor_hook(hook, grads[0])
        return
    if node._tensor_pre_hooks:
        for nr, hooks in node._tensor_pre_hooks.items():
            for hook in list(hooks):
                if grads[nr] is not None:
                    grads[nr] = _apply_tensor_hook(hook, grads[nr])
    if node._retained:
        for nr, ref in node._retained.items():
            tensor = ref()
            if tensor is not None and grads[nr] is not None:
                grad = grads[nr] if state.enabled else grads[nr].detach()
                tensor._grad = grad.clone() if tensor._grad is None else tensor._grad + grad


def _apply_tensor_hook(hook: Any, grad: Tensor) -> Tensor:
    result = hook(grad)
    if result is None:
        return grad
    if not hasattr(result, "_requires_grad"):
        raise TypeError(f"expected Variable, but hook returned '{type(result).__name__}'")
    if result.shape != grad.shape:
        raise RuntimeError(f"hook '{getattr(hook, '__name__', hook)}' has changed the size of value")
    return result


def _call_function(node: BackwardNode, grads: list) -> list:
    """Run the Function's backward and check what it returns: one gradient per input."""
    if node._pre_hooks:
        for hook in node._pre_hooks:
            replaced = hook(tuple(grads))
            if replaced is not None:
                grads = list(replaced)
    if node.num_outputs > 1 and node.materialize_grads:
        grads = [_zeros(meta) if g is None and meta else g for g, meta in zip(grads, node.output_meta, strict=True)]
    result = node.function.backward(node, *grads)
    if type(result) is not tuple:
        result = (result,)
    if len(result) != node.num_inputs:
        result = _drop_extra_nones(node, result)
    input_grads = []
    for child, _, argument, shape, dtype in node.edges:
        grad = None if child is None else result[argument]
        if grad is not None and (grad._data.shape != shape or grad.dtype is not dtype):
            assert argument is not None and shape is not None  # an edge to a node records its input
            grad = _validate_gradient(node, grad, argument, shape, dtype)
        input_grads.append(grad)
    if anomaly_mode.state.enabled:
        anomaly_mode.check_backward_result(node, input_grads)
    if node._post_hooks:
        for hook in node._post_hooks:
            replaced = hook(tuple(input_grads), tuple(grads))
            if replaced is not None:
                input_grads = list(replaced)
    return input_grads


def _drop_extra_nones(node: BackwardNode, result: tuple) -> tuple:
    expected = node.num_inputs
    if len(result) > expected and all(g is None for g in result[expected:]):
        return result[:expected]
    raise RuntimeError(
        f"function {node.name()} returned an incorrect number of gradients "
        f"(expected {expected}, got {len(result)})"
    )


def _validate_gradient(node: BackwardNode, grad: Tensor, index: int, shape: tuple, dtype: Any) -> Tensor:
    """A gradient must have its input's shape and dtype.

    Every built-in op sums its gradients back to its inputs' shapes itself (``sum_to_shape`` in its
    backward, where the reader sees it), so for them this is only a check. A user's
    ``autograd.Function`` may return a gradient of the broadcast shape: torch's engine sums that
    back too, and so does this one.
    """
    if grad._data.shape != shape:
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


def _zeros(meta: tuple) -> Tensor:
    from .._creation import zeros

    return zeros(meta[0], dtype=meta[1])


def _accumulate_into_leaf(node: AccumulateGrad, grad: Tensor, create_graph: bool) -> None:
    """``leaf.grad += grad``: in place normally; out of place (keeping a graph) for create_graph.

    A first gradient is copied, so ``.grad`` owns its memory; on the fast path it becomes
    ``.grad`` without a copy when nothing else can see it (``_fast/grad_stealing.py``).
    """
    if node._pre_hooks:
        for hook in node._pre_hooks:
            replaced = hook((grad,))
            if replaced is not None:
                grad = replaced[0]
    leaf = node.variable
    if leaf._grad is None:
        if create_graph:
            leaf._grad = grad.clone()
        elif fast.enabled and not node._pre_hooks and grad_stealing.can_steal(grad, leaf, held_by_caller=2):  # ours, run_backward's list
            leaf._grad = grad.detach()
        else:
            leaf._grad = _owned_copy(grad, leaf)
    elif create_graph:
        leaf._grad = leaf._grad + grad
    else:
        leaf._grad._data += grad._data
        leaf._grad._storage.version += 1
    if node._post_hooks:
        for hook in node._post_hooks:
            hook((), (grad,))
    for hook in getattr(leaf, "_post_accumulate_grad_hooks", None) or ():
        hook(leaf)


def _owned_copy(grad: Tensor, leaf: Tensor) -> Tensor:
    """A copy that ``.grad`` owns (later backwards add into it), contiguous like its leaf."""
    from .._tensor import Tensor

    order: Literal["C", "K"] = "C" if leaf.is_contiguous() else "K"
    return Tensor._from_array(np.array(grad._data, order=order), grad.dtype)
