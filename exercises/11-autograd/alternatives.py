"""Correct answers of exercise 11 (autograd by hand) written other ways than the solution: each must keep full marks."""

from tensorlab.grading import Alternative

ALTERNATIVES = [
    # --- sum_to_shape -------------------------------------------------------------------------
    Alternative("sum_to_shape", "one-keepdims-sum-then-reshape", '''
import numpy as np
def sum_to_shape(grad, shape):
    shape = tuple(shape)
    padded = (1,) * (grad.ndim - len(shape)) + shape      # shape lined up on the right, 1s in front
    axes = tuple(d for d in range(grad.ndim) if padded[d] == 1 and grad.shape[d] != 1)
    summed = grad.sum(axis=axes, keepdims=True) if axes else grad
    return np.asarray(summed).reshape(shape)
'''),
    Alternative("sum_to_shape", "peel-leading-dims-then-dim-by-dim", '''
import numpy as np
def sum_to_shape(grad, shape):
    result = grad
    while result.ndim > len(shape):
        result = result.sum(axis=0)                       # one extra leading dim at a time
    for axis in range(len(shape)):
        if shape[axis] == 1 and result.shape[axis] != 1:
            result = np.sum(result, axis=axis, keepdims=True)
    return np.asarray(result)
'''),
    Alternative("sum_to_shape", "reversed-walk-from-the-right", '''
import numpy as np
def sum_to_shape(grad, shape):
    stretched = []
    for offset in range(1, grad.ndim + 1):               # dims lined up from the right
        axis = grad.ndim - offset
        if offset > len(shape):
            stretched.append(axis)                          # a leading dim shape does not have
        elif shape[-offset] == 1 and grad.shape[axis] != 1:
            stretched.append(axis)
    out = np.add.reduce(grad, axis=tuple(stretched), keepdims=True) if stretched else grad.copy()
    return np.asarray(out).reshape(tuple(shape))
'''),
    # --- mul_backward -------------------------------------------------------------------------
    Alternative("mul_backward", "scatter-each-element-back-with-add-at", '''
import numpy as np
def mul_backward(grad, x, y):
    def scatter_back(values, shape):
        """Add every element of values onto the element of an array of `shape` it was broadcast from."""
        size = int(np.prod(shape, dtype=np.int64))
        source = np.broadcast_to(np.arange(size).reshape(shape), values.shape)  # which element each came from
        total = np.zeros(size, dtype=values.dtype)
        np.add.at(total, source.reshape(-1), values.reshape(-1))
        return total.reshape(shape)

    return scatter_back(grad * y, np.shape(x)), scatter_back(grad * x, np.shape(y))
'''),
    Alternative("mul_backward", "own-unbroadcast-with-flatnonzero", '''
import numpy as np
def mul_backward(grad, x, y):
    def unbroadcast(g, shape):
        padded = np.array((1,) * (g.ndim - len(shape)) + tuple(shape), dtype=np.int64)
        axes = tuple(int(a) for a in np.flatnonzero((padded == 1) & (np.array(g.shape, dtype=np.int64) != 1)))
        return np.asarray(np.sum(g, axis=axes, keepdims=True)).reshape(shape)

    return unbroadcast(np.multiply(grad, y), x.shape), unbroadcast(np.multiply(grad, x), y.shape)
'''),
    # --- matmul_backward ----------------------------------------------------------------------
    Alternative("matmul_backward", "einsum", '''
import numpy as np
def matmul_backward(grad, a, b):
    grad_a = np.einsum("nm,km->nk", grad, b)              # sum over m of grad[n, m] * b[k, m]
    grad_b = np.einsum("nk,nm->km", a, grad)              # sum over n of a[n, k] * grad[n, m]
    return grad_a, grad_b
'''),
    Alternative("matmul_backward", "broadcast-multiply-and-sum", '''
import numpy as np
def matmul_backward(grad, a, b):
    grad_a = (grad[:, None, :] * b[None, :, :]).sum(axis=2)   # (n, k, m) summed over m
    grad_b = (a[:, :, None] * grad[:, None, :]).sum(axis=0)   # (n, k, m) summed over n
    return grad_a, grad_b
'''),
    Alternative("matmul_backward", "transposed-products", '''
import numpy as np
def matmul_backward(grad, a, b):
    return np.matmul(b, grad.T).T, np.matmul(grad.T, a).T
'''),
    Alternative("matmul_backward", "matrix-transpose-attribute-mT", '''
def matmul_backward(grad, a, b):
    return grad @ b.mT, a.mT @ grad
'''),
    # --- topological_order --------------------------------------------------------------------
    Alternative("topological_order", "kahn-with-reachable-in-degrees", '''
from collections import deque

def topological_order(graph, root):
    reachable, stack = {root}, [root]
    while stack:
        node = stack.pop()
        for source in graph.get(node, []):
            if source not in reachable:
                reachable.add(source)
                stack.append(source)
    users = {node: 0 for node in reachable}             # how many distinct reachable nodes use it
    for node in reachable:
        for source in set(graph.get(node, [])):
            users[source] += 1
    order, ready = [], deque([root])
    while ready:
        node = ready.popleft()
        order.append(node)
        for source in set(graph.get(node, [])):
            users[source] -= 1
            if users[source] == 0:
                ready.append(source)
    return order
'''),
    Alternative("topological_order", "iterative-dfs-explicit-stack", '''
def topological_order(graph, root):
    finished, entered = [], {root}
    stack = [(root, iter(graph.get(root, [])))]
    while stack:
        node, sources = stack[-1]
        for source in sources:
            if source not in entered:
                entered.add(source)
                stack.append((source, iter(graph.get(source, []))))
                break
        else:
            stack.pop()
            finished.append(node)                           # after all of its inputs
    finished.reverse()
    return finished
'''),
    Alternative("topological_order", "sort-by-height-above-the-inputs", '''
def topological_order(graph, root):
    height = {}

    def measure(node):
        if node not in height:
            height[node] = 1 + max((measure(source) for source in graph.get(node, [])), default=-1)
        return height[node]

    measure(root)
    # a node is strictly higher than every node it was computed from: highest first is a valid order
    return sorted(height, key=lambda node: -height[node])
'''),
    # --- backprop -----------------------------------------------------------------------------
    Alternative("backprop", "kahn-style-pending-users", '''
def backprop(graph, root):
    reachable, stack = {root}, [root]
    while stack:
        node = stack.pop()
        for source, _ in graph.get(node, []):
            if source not in reachable:
                reachable.add(source)
                stack.append(source)
    pending = {node: 0 for node in reachable}           # uses still to hear from, edges counted
    for node in reachable:
        for source, _ in graph.get(node, []):
            pending[source] += 1
    grads = {node: 0.0 for node in reachable}
    grads[root] = 1.0
    ready = [root]
    while ready:
        node = ready.pop()
        for source, local in graph.get(node, []):
            grads[source] += grads[node] * local
            pending[source] -= 1
            if pending[source] == 0:
                ready.append(source)
    return {node: float(value) for node, value in grads.items()}
'''),
    Alternative("backprop", "pull-from-users-memoised", '''
def backprop(graph, root):
    """d root / d node = sum over the nodes that use it of d root / d user * local derivative."""
    reachable, stack = {root}, [root]
    while stack:
        node = stack.pop()
        for source, _ in graph.get(node, []):
            if source not in reachable:
                reachable.add(source)
                stack.append(source)
    used_by = {node: [] for node in reachable}
    for user in reachable:
        for source, local in graph.get(user, []):
            used_by[source].append((user, local))
    memo = {}

    def gradient(node):
        if node not in memo:
            if node == root:
                memo[node] = 1.0
            else:
                memo[node] = float(sum(gradient(user) * local for user, local in used_by[node]))
        return memo[node]

    return {node: gradient(node) for node in reachable}
'''),
    Alternative("backprop", "forward-mode-once-per-node", '''
def backprop(graph, root):
    """For each reachable node v: seed dv/dv = 1 and push the tangent forward up to root."""
    reachable, stack = [root], [root]
    while stack:
        for source, _ in graph.get(stack.pop(), []):
            if source not in reachable:
                reachable.append(source)
                stack.append(source)

    def tangent(node, seed, memo):
        if node == seed:
            return 1.0
        if node not in memo:
            memo[node] = sum((local * tangent(source, seed, memo) for source, local in graph.get(node, [])), 0.0)
        return memo[node]

    return {node: float(tangent(root, node, {})) for node in reachable}
'''),
]
