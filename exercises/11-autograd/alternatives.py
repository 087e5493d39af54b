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

# --- Part 2: the tensor engine, gradcheck and the MLP by hand. The engine's alternatives are whole answer
# cells: the Tensor class, run_program and engine_gradients, written another way.

ALTERNATIVES += [
    Alternative("engine_gradients", "kahn-order-and-a-gradient-table", '''
import numpy as np


class Tensor:
    """Each op stores its inputs and a rule; backward counts users and runs a node once all have sent."""

    def __init__(self, data, requires_grad=False, parents=(), rule=None):
        self.data = np.array(data, dtype=np.float64)
        self.grad = None
        self.requires_grad = requires_grad
        self.parents = parents
        self.rule = rule

    def make(self, data, parents, rule):
        needs = any(p.requires_grad for p in parents)
        return Tensor(data, needs, parents if needs else (), rule if needs else None)

    def __add__(self, other):
        return self.make(self.data + other.data, (self, other),
                         lambda g: (sum_to_shape(g, self.data.shape), sum_to_shape(g, other.data.shape)))

    def __mul__(self, other):
        return self.make(self.data * other.data, (self, other),
                         lambda g: (sum_to_shape(g * other.data, self.data.shape),
                                    sum_to_shape(g * self.data, other.data.shape)))

    def __matmul__(self, other):
        return self.make(self.data @ other.data, (self, other), lambda g: (g @ other.data.T, self.data.T @ g))

    def sum(self):
        return self.make(self.data.sum(), (self,), lambda g: (np.broadcast_to(g, self.data.shape).copy(),))

    def relu(self):
        return self.make(np.where(self.data > 0, self.data, 0.0), (self,), lambda g: (np.where(self.data > 0, g, 0.0),))

    def tanh(self):
        t = np.tanh(self.data)
        return self.make(t, (self,), lambda g: (g - g * t ** 2,))

    def backward(self):
        users, stack, seen = {}, [self], {self}
        while stack:
            node = stack.pop()
            for parent in node.parents:
                users[parent] = users.get(parent, 0) + 1
                if parent not in seen:
                    seen.add(parent)
                    stack.append(parent)
        pending = {self: np.ones_like(self.data)}
        ready = [self]
        while ready:
            node = ready.pop()
            grad = pending.pop(node)
            if node.rule is None:
                if node.requires_grad:
                    node.grad = grad if node.grad is None else node.grad + grad
                continue
            for parent, g in zip(node.parents, node.rule(grad)):
                pending[parent] = g if parent not in pending else pending[parent] + g
                users[parent] -= 1
                if users[parent] == 0:
                    ready.append(parent)


def run_program(program, leaves, requires_grad=()):
    values = {name: Tensor(array, name in requires_grad) for name, array in leaves.items()}
    ops = {"add": lambda a, b: a + b, "mul": lambda a, b: a * b, "matmul": lambda a, b: a @ b,
           "sum": lambda a: a.sum(), "relu": lambda a: a.relu(), "tanh": lambda a: a.tanh()}
    for name, op, inputs in program:
        values[name] = ops[op](*(values[source] for source in inputs))
    return values


def engine_gradients(program, leaves, requires_grad):
    values = run_program(program, leaves, requires_grad)
    values[program[-1][0]].backward()
    return {name: None if values[name].grad is None else values[name].grad.copy() for name in leaves}
'''),
    Alternative("engine_gradients", "reuses-topological-order-on-tensors", '''
import numpy as np


class Tensor:
    """Tensors are hashable by identity, so part 4's topological_order sorts a graph of them."""

    def __init__(self, data, requires_grad=False):
        self.data = np.asarray(data, dtype=np.float64)
        self.requires_grad = requires_grad
        self.grad = None
        self.parents = []
        self.rule = None

    def record(self, data, parents, rule):
        out = Tensor(data, any(p.requires_grad for p in parents))
        if out.requires_grad:
            out.parents, out.rule = list(parents), rule
        return out

    def __add__(self, other):
        return self.record(self.data + other.data, [self, other],
                           lambda g: [sum_to_shape(g, self.data.shape), sum_to_shape(g, other.data.shape)])

    def __mul__(self, other):
        return self.record(self.data * other.data, [self, other], lambda g: mul_backward(g, self.data, other.data))

    def __matmul__(self, other):
        return self.record(self.data @ other.data, [self, other], lambda g: matmul_backward(g, self.data, other.data))

    def sum(self):
        return self.record(np.sum(self.data), [self], lambda g: [np.zeros(self.data.shape) + g])

    def relu(self):
        return self.record(self.data * (self.data > 0), [self], lambda g: [g * (self.data > 0)])

    def tanh(self):
        out = np.tanh(self.data)
        return self.record(out, [self], lambda g: [g * (1.0 - out ** 2)])

    def backward(self):
        graph, stack = {}, [self]
        while stack:
            node = stack.pop()
            if node not in graph:
                graph[node] = node.parents
                stack.extend(node.parents)
        self.grad = np.ones(self.data.shape)
        for node in topological_order(graph, self):
            if node.rule is not None:
                for parent, g in zip(node.parents, node.rule(node.grad)):
                    if parent.requires_grad:
                        parent.grad = g if parent.grad is None else parent.grad + g


def run_program(program, leaves, requires_grad=()):
    values = {name: Tensor(leaves[name], name in requires_grad) for name in leaves}
    for name, op, inputs in program:
        a = values[inputs[0]]
        b = values[inputs[-1]]
        values[name] = {"add": lambda: a + b, "mul": lambda: a * b, "matmul": lambda: a @ b, "sum": a.sum,
                        "relu": a.relu, "tanh": a.tanh}[op]()
    return values


def engine_gradients(program, leaves, requires_grad):
    values = run_program(program, leaves, requires_grad)
    values[program[-1][0]].backward()
    return {name: values[name].grad for name in leaves}
'''),
    Alternative("gradcheck", "numpy-forward-and-allclose-on-a-flat-copy", '''
import numpy as np

EPS = 1e-6
ATOL = 1e-5
RTOL = 1e-3


def gradcheck(program, leaves, grads):
    ops = {"add": np.add, "mul": np.multiply, "matmul": np.matmul, "sum": np.sum, "relu": lambda a: np.maximum(a, 0.0),
           "tanh": np.tanh}

    def f(values):
        values = dict(values)
        for name, op, inputs in program:
            values[name] = ops[op](*(values[source] for source in inputs))
        return values[program[-1][0]]

    for name, claimed in grads.items():
        leaf = leaves[name]
        if claimed.shape != leaf.shape:
            return False
        flat = leaf.ravel().copy()
        numeric = np.zeros(flat.size)
        for i in range(flat.size):
            up, down = flat.copy(), flat.copy()
            up[i] += EPS
            down[i] -= EPS
            numeric[i] = (f({**leaves, name: up.reshape(leaf.shape)}) - f({**leaves, name: down.reshape(leaf.shape)})) / (2 * EPS)
        if not np.allclose(claimed.ravel(), numeric, rtol=RTOL, atol=ATOL):
            return False
    return True
'''),
    Alternative("gradcheck", "one-element-at-a-time-with-isclose", '''
import numpy as np

EPS = 1e-6
ATOL = 1e-5
RTOL = 1e-3


def gradcheck(program, leaves, grads):
    def f(name, value):
        return float(run_program(program, {**leaves, name: value})[program[-1][0]].data)

    verdicts = []
    for name, claimed in grads.items():
        if claimed.shape != leaves[name].shape:
            return False
        for index in np.ndindex(claimed.shape):
            nudged = leaves[name].copy()
            nudged[index] = leaves[name][index] + EPS
            above = f(name, nudged)
            nudged[index] = leaves[name][index] - EPS
            below = f(name, nudged)
            verdicts.append(bool(np.isclose(claimed[index], (above - below) / (2 * EPS), rtol=RTOL, atol=ATOL)))
    return all(verdicts)
'''),
    Alternative("mlp_backward", "einsum-and-one-hot-rows", '''
import numpy as np


def mlp_backward(x, target, w1, b1, w2, b2):
    n, c = len(target), w2.shape[1]
    h = np.tanh(np.einsum("nd,dh->nh", x, w1) + b1)
    logits = np.einsum("nh,hc->nc", h, w2) + b2
    e = np.exp(logits - np.max(logits, axis=1, keepdims=True))
    d_logits = (e / np.sum(e, axis=1, keepdims=True) - np.eye(c)[target]) / n
    d_h = np.einsum("nc,hc->nh", d_logits, w2)
    d_h_pre = d_h * (1 - h ** 2)
    return {"logits": d_logits, "h": d_h, "h_pre": d_h_pre, "w2": np.einsum("nh,nc->hc", h, d_logits),
            "b2": np.sum(d_logits, axis=0), "w1": np.einsum("nd,nh->dh", x, d_h_pre), "b1": np.sum(d_h_pre, axis=0)}
'''),
    Alternative("mlp_backward", "log-softmax-by-logaddexp", '''
import numpy as np


def mlp_backward(x, target, w1, b1, w2, b2):
    h_pre = x @ w1 + b1
    h = np.tanh(h_pre)
    logits = h @ w2 + b2
    log_p = logits - np.logaddexp.reduce(logits, axis=1, keepdims=True)
    one_hot = np.zeros(logits.shape)
    one_hot[np.arange(len(target)), target] = 1.0
    d_logits = (np.exp(log_p) - one_hot) / x.shape[0]
    d_h = d_logits @ w2.T
    d_h_pre = d_h * (1 - h * h)
    return {"logits": d_logits, "h": d_h, "h_pre": d_h_pre, "w2": h.T @ d_logits, "b2": d_logits.sum(axis=0),
            "w1": x.T @ d_h_pre, "b1": d_h_pre.sum(axis=0)}
'''),
]
