"""Mutants of exercise 11 (autograd by hand): plausible wrong versions of each graded function."""

from tensorlab.grading.tasks import Mutant

SUM_TO_SHAPE = [
    Mutant("sum_to_shape", "forgets-keepdims", '''
def sum_to_shape(grad, shape):
    leading = grad.ndim - len(shape)
    grad = grad.sum(axis=tuple(range(leading)))
    stretched = tuple(dim for dim, size in enumerate(shape) if size == 1 and grad.shape[dim] != 1)
    if stretched:
        grad = grad.sum(axis=stretched)
    return np.asarray(grad)
''', nudge="After summing over a stretched size-1 dimension, is that dimension still there unless you ask to keep it?"),
    Mutant("sum_to_shape", "sums-trailing-dims", '''
def sum_to_shape(grad, shape):
    grad = grad.sum(axis=tuple(range(len(shape), grad.ndim)))
    stretched = tuple(dim for dim, size in enumerate(shape) if size == 1 and grad.shape[dim] != 1)
    if stretched:
        grad = grad.sum(axis=stretched, keepdims=True)
    return np.asarray(grad)
''', nudge="When a shape with fewer dims is broadcast, are its missing dimensions added at the front or at the back?"),
    Mutant("sum_to_shape", "size-1-dims-lined-up-from-the-left", '''
def sum_to_shape(grad, shape):
    stretched = tuple(dim for dim, size in enumerate(shape) if size == 1 and grad.shape[dim] != 1)
    if stretched:
        grad = grad.sum(axis=stretched, keepdims=True)
    grad = grad.sum(axis=tuple(range(grad.ndim - len(shape))))
    return np.asarray(grad)
''', nudge="While the gradient still has its extra leading dimensions, does dimension i of shape face dimension i of the gradient?"),
    Mutant("sum_to_shape", "size-1-dims-shifted-twice", '''
def sum_to_shape(grad, shape):
    leading = grad.ndim - len(shape)
    grad = grad.sum(axis=tuple(range(leading)))
    stretched = tuple(dim + leading for dim, size in enumerate(shape) if size == 1 and dim + leading < grad.ndim)
    if stretched:
        grad = grad.sum(axis=stretched, keepdims=True)
    return np.asarray(grad)
''', nudge="Once the leading dimensions are summed away, do the positions in shape still need an offset?"),
    Mutant("sum_to_shape", "only-leading-dims", '''
def sum_to_shape(grad, shape):
    return np.asarray(grad.sum(axis=tuple(range(grad.ndim - len(shape)))))
''', nudge="Besides the new leading dimensions, where else can broadcasting have stretched the input?"),
    Mutant("sum_to_shape", "at-most-one-leading-dim", '''
def sum_to_shape(grad, shape):
    if grad.ndim > len(shape):
        grad = grad.sum(axis=0)
    stretched = tuple(dim for dim, size in enumerate(shape) if size == 1 and grad.shape[dim] != 1)
    if stretched:
        grad = grad.sum(axis=stretched, keepdims=True)
    return np.asarray(grad)
''', nudge="How many new leading dimensions can broadcasting add: always at most one?"),
    Mutant("sum_to_shape", "returns-early-without-leading-dims", '''
def sum_to_shape(grad, shape):
    if grad.ndim == len(shape):
        return grad
    grad = grad.sum(axis=tuple(range(grad.ndim - len(shape))))
    stretched = tuple(dim for dim, size in enumerate(shape) if size == 1 and grad.shape[dim] != 1)
    if stretched:
        grad = grad.sum(axis=stretched, keepdims=True)
    return np.asarray(grad)
''', nudge="With no new leading dimensions, can a size-1 dimension still have been stretched?"),
    Mutant("sum_to_shape", "stretched-means-bigger-misses-size-0", '''
def sum_to_shape(grad, shape):
    grad = grad.sum(axis=tuple(range(grad.ndim - len(shape))))
    stretched = tuple(dim for dim, size in enumerate(shape) if grad.shape[dim] > size)
    if stretched:
        grad = grad.sum(axis=stretched, keepdims=True)
    return np.asarray(grad)
''', nudge="When a size 1 was stretched to size 0, is the gradient's size bigger than the shape's?"),
    Mutant("sum_to_shape", "float64-result-whatever-the-dtype", '''
def sum_to_shape(grad, shape):
    leading = grad.ndim - len(shape)
    out = np.zeros(shape)
    out += grad.sum(axis=tuple(range(leading))).sum(
        axis=tuple(dim for dim, size in enumerate(shape) if size == 1), keepdims=True)
    return out
''', nudge="What dtype does a freshly made array of zeros have, and is it the gradient's dtype?"),
    Mutant("sum_to_shape", "shape-()-keeps-dims", '''
def sum_to_shape(grad, shape):
    leading = grad.ndim - len(shape)
    stretched = tuple(leading + dim for dim, size in enumerate(shape) if size == 1)
    return grad.sum(axis=tuple(range(leading)) + stretched, keepdims=True).reshape(shape or (1,))
''', nudge="When shape is (), how many dimensions should the result have?"),
    Mutant("sum_to_shape", "adds-leading-slices-into-grad-in-place", '''
def sum_to_shape(grad, shape):
    while grad.ndim > len(shape):
        for i in range(1, grad.shape[0]):
            grad[0] += grad[i]
        grad = grad[0]
    stretched = tuple(dim for dim, size in enumerate(shape) if size == 1 and grad.shape[dim] != 1)
    if stretched:
        grad = grad.sum(axis=stretched, keepdims=True)
    return np.asarray(grad)
''', nudge="Whose memory are you adding the slices into, and may the gradient you were handed change?"),
    Mutant("sum_to_shape", "calls-torch-sum_to_size", '''
import torch

def sum_to_shape(grad, shape):
    return torch.from_numpy(grad).sum_to_size(shape).numpy()
''', nudge="Which libraries may this part use, and is the PyTorch method the statement mentions one of them?"),
    Mutant("sum_to_shape", "numpy-scalar-for-shape-()", '''
def sum_to_shape(grad, shape):
    leading = grad.ndim - len(shape)
    grad = grad.sum(axis=tuple(range(leading)))
    stretched = tuple(dim for dim, size in enumerate(shape) if size == 1 and grad.shape[dim] != 1)
    if stretched:
        grad = grad.sum(axis=stretched, keepdims=True)
    return grad
''', nudge="When every dimension is summed away, does a sum give back an array or a NumPy scalar?"),
]

MUL_BACKWARD = [
    Mutant("mul_backward", "unreduced-grads", '''
def mul_backward(grad, x, y):
    return grad * y, grad * x
''', nudge="When an input was broadcast in the forward pass, what shape must its gradient have?"),
    Mutant("mul_backward", "swapped-factors", '''
def mul_backward(grad, x, y):
    return sum_to_shape(grad * x, x.shape), sum_to_shape(grad * y, y.shape)
''', nudge="When x moves a little in x times y, by what factor does the output move: x or y?"),
    Mutant("mul_backward", "returns-y-grad-first", '''
def mul_backward(grad, x, y):
    return sum_to_shape(grad * x, y.shape), sum_to_shape(grad * y, x.shape)
''', nudge="In which order does the statement ask for the two gradients, and whose shape does each one take?"),
    Mutant("mul_backward", "reduces-only-x", '''
def mul_backward(grad, x, y):
    return sum_to_shape(grad * y, x.shape), grad * x
''', nudge="Could y have been broadcast too, and what shape must its gradient then have?"),
    Mutant("mul_backward", "reduces-only-y", '''
def mul_backward(grad, x, y):
    return grad * y, sum_to_shape(grad * x, y.shape)
''', nudge="Could x have been broadcast too, and what shape must its gradient then have?"),
    Mutant("mul_backward", "forgets-the-incoming-grad", '''
def mul_backward(grad, x, y):
    ones = np.ones(grad.shape)
    return sum_to_shape(ones * y, x.shape), sum_to_shape(ones * x, y.shape)
''', nudge="The chain rule multiplies the local derivative by the gradient from above: where does that incoming gradient enter?"),
    Mutant("mul_backward", "reduces-before-multiplying", '''
def mul_backward(grad, x, y):
    x_big, y_big = np.broadcast_to(x, grad.shape), np.broadcast_to(y, grad.shape)
    return (sum_to_shape(grad, x.shape) * sum_to_shape(y_big, x.shape),
            sum_to_shape(grad, y.shape) * sum_to_shape(x_big, y.shape))
''', nudge="Is a sum of products the same as a product of sums?"),
    Mutant("mul_backward", "multiplies-grad-in-place", '''
def mul_backward(grad, x, y):
    grad_y = sum_to_shape(grad * x, y.shape)
    grad *= y  # reuses grad's memory for grad_x
    return sum_to_shape(grad, x.shape), grad_y
''', nudge="May your function change the gradient array it was handed?"),
    Mutant("mul_backward", "returns-a-list", '''
def mul_backward(grad, x, y):
    return [sum_to_shape(grad * y, x.shape), sum_to_shape(grad * x, y.shape)]
''', nudge="What kind of container does the statement ask the pair of gradients to come back in?"),
    Mutant("mul_backward", "calls-tensorlab-backward", '''
import tensorlab

def mul_backward(grad, x, y):
    a, b = tensorlab.tensor(x, requires_grad=True), tensorlab.tensor(y, requires_grad=True)
    (a * b).backward(tensorlab.tensor(grad))
    return a.grad.numpy(), b.grad.numpy()
''', nudge="Which parts of this exercise are yours to write, and may the library's own autograd do them for you?"),
    Mutant("mul_backward", "numpy-scalar-gradient-for-a-0-d-input", '''
def mul_backward(grad, x, y):
    grad_x = (grad * y).sum() if x.ndim == 0 else sum_to_shape(grad * y, x.shape)
    grad_y = (grad * x).sum() if y.ndim == 0 else sum_to_shape(grad * x, y.shape)
    return grad_x, grad_y
''', nudge="For a 0-d input, does a full sum give back a 0-d array or a NumPy scalar?"),
]

MATMUL_BACKWARD = [
    Mutant("matmul_backward", "grad.T-@-a", '''
def matmul_backward(grad, a, b):
    return grad @ b.T, grad.T @ a
''', nudge="Does your gradient for b come out in b's shape, or in its transpose's?"),
    Mutant("matmul_backward", "transposes-on-the-wrong-side", '''
def matmul_backward(grad, a, b):
    return b.T @ grad, grad @ a.T
''', nudge="On which side of the incoming gradient does each input sit, and do the shapes of your products line up with a and b?"),
    Mutant("matmul_backward", "forgets-the-transposes", '''
def matmul_backward(grad, a, b):
    return grad @ b, a @ grad
''', nudge="When a and b are not square, what shapes do your two products come out in?"),
    Mutant("matmul_backward", "returns-b-grad-first", '''
def matmul_backward(grad, a, b):
    return a.T @ grad, grad @ b.T
''', nudge="In which order does the statement ask for the two gradients?"),
    Mutant("matmul_backward", "grad_a-transposed", '''
def matmul_backward(grad, a, b):
    return b @ grad.T, a.T @ grad
''', nudge="Does your gradient for a come out in a's shape, or in its transpose's?"),
    Mutant("matmul_backward", "transposed-results", '''
def matmul_backward(grad, a, b):
    return (grad @ b.T).T, (a.T @ grad).T
''', nudge="Does each gradient have the shape of its own input, or of that input's transpose?"),
    Mutant("matmul_backward", "forgets-the-incoming-grad", '''
def matmul_backward(grad, a, b):
    ones = np.ones(grad.shape)
    return ones @ b.T, a.T @ ones
''', nudge="The chain rule multiplies by the gradient from above: where does that incoming gradient enter your products?"),
    Mutant("matmul_backward", "returns-a-list", '''
def matmul_backward(grad, a, b):
    return [grad @ b.T, a.T @ grad]
''', nudge="What kind of container does the statement ask the pair of gradients to come back in?"),
    Mutant("matmul_backward", "calls-torch-backward", '''
import torch

def matmul_backward(grad, a, b):
    left, right = torch.tensor(a, requires_grad=True), torch.tensor(b, requires_grad=True)
    (left @ right).backward(torch.from_numpy(grad))
    return left.grad.numpy(), right.grad.numpy()
''', nudge="Which libraries are off limits here, and may PyTorch's autograd do this part for you?"),
]

TOPOLOGICAL_ORDER = [
    Mutant("topological_order", "post-order", '''
def topological_order(graph, root):
    order, visited = [], set()

    def visit(node):
        visited.add(node)
        for source in graph.get(node, []):
            if source not in visited:
                visit(source)
        order.append(node)

    visit(root)
    return order
''', nudge="Should the root come first or last, and in what order does a depth-first walk finish its nodes?"),
    Mutant("topological_order", "pre-order", '''
def topological_order(graph, root):
    order, visited = [], set()

    def visit(node):
        visited.add(node)
        order.append(node)
        for source in graph.get(node, []):
            if source not in visited:
                visit(source)

    visit(root)
    return order
''', nudge="When a node is reached by two paths, can a walk that lists nodes on arrival put it before a node that still uses it?"),
    Mutant("topological_order", "no-visited-set-duplicates", '''
def topological_order(graph, root):
    order = []

    def visit(node):
        for source in graph.get(node, []):
            visit(source)
        order.append(node)

    visit(root)
    return order[::-1]
''', nudge="When a node is reached by two paths, how many times does your walk list it?"),
    Mutant("topological_order", "deduplicates-keeping-the-first", '''
def topological_order(graph, root):
    order = []

    def visit(node):
        for source in graph.get(node, []):
            visit(source)
        order.append(node)

    visit(root)
    return list(dict.fromkeys(order[::-1]))
''', nudge="When a node turns up twice in your walk, which of its two places comes after every node that uses it?"),
    Mutant("topological_order", "breadth-first", '''
from collections import deque

def topological_order(graph, root):
    order, seen, queue = [], {root}, deque([root])
    while queue:
        node = queue.popleft()
        order.append(node)
        for source in graph.get(node, []):
            if source not in seen:
                seen.add(source)
                queue.append(source)
    return order
''', nudge="Can a breadth-first walk list a node before another node that uses it through a longer path?"),
    Mutant("topological_order", "forgets-the-root", '''
def topological_order(graph, root):
    order, visited = [], {root}

    def visit(node):
        visited.add(node)
        for source in graph.get(node, []):
            if source not in visited:
                visit(source)
        order.append(node)

    for source in graph.get(root, []):
        if source not in visited:
            visit(source)
    return order[::-1]
''', nudge="Is the root itself one of the nodes the order must list?"),
    Mutant("topological_order", "whole-graph-not-just-reachable", '''
def topological_order(graph, root):
    order, visited = [], set()

    def visit(node):
        visited.add(node)
        for source in graph.get(node, []):
            if source not in visited:
                visit(source)
        order.append(node)

    visit(root)
    for node in graph:
        if node not in visited:
            visit(node)
    return order[::-1]
''', nudge="Should the order list nodes that the root cannot reach?"),
    Mutant("topological_order", "only-computed-nodes", '''
def topological_order(graph, root):
    order, visited = [], set()

    def visit(node):
        visited.add(node)
        for source in graph.get(node, []):
            if source not in visited:
                visit(source)
        if node in graph:
            order.append(node)

    visit(root)
    return order[::-1] or [root]
''', nudge="Do the inputs, computed from nothing, belong in the order too?"),
    Mutant("topological_order", "kahn-empties-the-graph", '''
def topological_order(graph, root):
    reachable, stack = {root}, [root]
    while stack:
        for source in graph.get(stack.pop(), []):
            if source not in reachable:
                reachable.add(source)
                stack.append(source)
    users = {node: 0 for node in reachable}
    for node in reachable:
        for source in graph.get(node, []):
            users[source] += 1
    order, ready = [], [root]
    while ready:
        node = ready.pop()
        order.append(node)
        while graph.get(node):
            source = graph[node].pop()
            users[source] -= 1
            if users[source] == 0:
                ready.append(source)
    return order
''', nudge="May your function change the graph it was given while it walks it?"),
    Mutant("topological_order", "calls-the-reference", '''
from autograder.exercise import find_task  # the answer key, where the instructor keeps it
topological_order_reference = find_task("topological_order").reference

def topological_order(graph, root):
    return topological_order_reference(graph, root)
''', nudge="Which parts of this exercise are yours to write, and which code is off limits here?"),
    Mutant("topological_order", "graphlib-topological-sorter", '''
from graphlib import TopologicalSorter

def topological_order(graph, root):
    reachable, stack = {root}, [root]
    while stack:
        for source in graph.get(stack.pop(), []):
            if source not in reachable:
                reachable.add(source)
                stack.append(source)
    inputs = {node: set(graph.get(node, [])) for node in reachable}
    return list(TopologicalSorter(inputs).static_order())[::-1]
''', nudge="Which modules does the statement allow here, and is graphlib among them?"),
]

BACKPROP = [
    Mutant("backprop", "overwrites-instead-of-accumulating", '''
def backprop(graph, root):
    order = topological_order({node: [source for source, _ in inputs] for node, inputs in graph.items()}, root)
    grads = {node: 0.0 for node in order}
    grads[root] = 1.0
    for node in order:
        for source, local in graph.get(node, []):
            grads[source] = grads[node] * local
    return grads
''', nudge="When a node feeds two others, should its gradient keep only the last contribution?"),
    Mutant("backprop", "walks-inputs-first", '''
def backprop(graph, root):
    order = topological_order({node: [source for source, _ in inputs] for node, inputs in graph.items()}, root)
    grads = {node: 0.0 for node in order}
    grads[root] = 1.0
    for node in order[::-1]:
        for source, local in graph.get(node, []):
            grads[source] += grads[node] * local
    return grads
''', nudge="Can a node pass its gradient on before every node that uses it has added into it?"),
    Mutant("backprop", "breadth-first-order", '''
def backprop(graph, root):
    grads, queue = {root: 1.0}, [root]
    for node in queue:
        for source, local in graph.get(node, []):
            if source not in grads:
                grads[source] = 0.0
                queue.append(source)
            grads[source] += grads[node] * local
    return grads
''', nudge="Does a breadth-first walk make sure a node's gradient is complete before it passes it on?"),
    Mutant("backprop", "counts-a-repeated-input-once", '''
def backprop(graph, root):
    order = topological_order({node: [source for source, _ in inputs] for node, inputs in graph.items()}, root)
    grads = {node: 0.0 for node in order}
    grads[root] = 1.0
    for node in order:
        for source, local in dict(graph.get(node, [])).items():
            grads[source] += grads[node] * local
    return grads
''', nudge="When a node is listed twice in one input list, as in x times x, how many contributions should it get?"),
    Mutant("backprop", "whole-graph-not-just-reachable", '''
def backprop(graph, root):
    order = topological_order({node: [source for source, _ in inputs] for node, inputs in graph.items()}, root)
    grads = {node: 0.0 for node in graph}
    for inputs in graph.values():
        for source, _ in inputs:
            grads[source] = 0.0
    grads[root] = 1.0
    for node in order:
        for source, local in graph.get(node, []):
            grads[source] += grads[node] * local
    return grads
''', nudge="Should the result have entries for nodes the root cannot reach?"),
    Mutant("backprop", "drops-zero-gradients", '''
def backprop(graph, root):
    order = topological_order({node: [source for source, _ in inputs] for node, inputs in graph.items()}, root)
    grads = {node: 0.0 for node in order}
    grads[root] = 1.0
    for node in order:
        for source, local in graph.get(node, []):
            grads[source] += grads[node] * local
    return {node: grad for node, grad in grads.items() if grad != 0.0}
''', nudge="When a node's gradient comes out 0.0, does it still belong in the result?"),
    Mutant("backprop", "root-gradient-int-1", '''
def backprop(graph, root):
    order = topological_order({node: [source for source, _ in inputs] for node, inputs in graph.items()}, root)
    grads = {node: 0.0 for node in order}
    grads[root] = 1
    for node in order:
        for source, local in graph.get(node, []):
            grads[source] += grads[node] * local
    return grads
''', nudge="What type does the statement ask every value to be, the root's included?"),
    Mutant("backprop", "forgets-the-node-gradient", '''
def backprop(graph, root):
    order = topological_order({node: [source for source, _ in inputs] for node, inputs in graph.items()}, root)
    grads = {node: 0.0 for node in order}
    grads[root] = 1.0
    for node in order:
        for source, local in graph.get(node, []):
            grads[source] += local
    return grads
''', nudge="The chain rule multiplies the local derivative by what: is the local derivative alone enough?"),
    Mutant("backprop", "pops-inputs-from-graph", '''
def backprop(graph, root):
    order = topological_order({node: [source for source, _ in inputs] for node, inputs in graph.items()}, root)
    grads = {node: 0.0 for node in order}
    grads[root] = 1.0
    for node in order:
        for source, local in graph.pop(node, []):
            grads[source] += grads[node] * local
    return grads
''', nudge="May your function change the graph it was given?"),
    Mutant("backprop", "calls-torch-backward", '''
import torch

def backprop(graph, root):
    values = {}

    def value(node):
        if node not in values:
            inputs = graph.get(node, [])
            values[node] = torch.tensor(1.0, requires_grad=True) if not inputs else sum(
                local * value(source) for source, local in inputs)
            values[node].retain_grad()
        return values[node]

    value(root).backward()
    return {node: float(tensor.grad) for node, tensor in values.items()}
''', nudge="Which libraries may this part use, and may PyTorch's autograd do it for you?"),
    Mutant("backprop", "numpy-float64-gradients", '''
def backprop(graph, root):
    order = topological_order({node: [source for source, _ in inputs] for node, inputs in graph.items()}, root)
    grads = {node: np.float64(0.0) for node in order}
    grads[root] = np.float64(1.0)
    for node in order:
        for source, local in graph.get(node, []):
            grads[source] += grads[node] * local
    return grads
''', nudge="Are the values you return plain Python floats, or NumPy ones?"),
]

MUTANTS = SUM_TO_SHAPE + MUL_BACKWARD + MATMUL_BACKWARD + TOPOLOGICAL_ORDER + BACKPROP

# --- Part 2: the tensor engine, gradcheck and the MLP by hand. A mutant of the engine is the whole answer
# cell (the Tensor class, run_program and engine_gradients) with one mistake, made from the solution's cell so
# that the mistake is the only difference.

import json  # noqa: E402
from pathlib import Path  # noqa: E402


def solution_cell(function: str) -> str:
    """The solution notebook's answer cell for ``function``, without its solution markers."""
    notebook = json.loads((Path(__file__).parent / "autograd.ipynb").read_text(encoding="utf-8"))
    cell = next(cell for cell in notebook["cells"]
                if cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") == f"{function}_solution")
    return "".join(line for line in "".join(cell["source"]).splitlines(keepends=True) if "### " not in line)


def with_mistake(function: str, *edits: tuple[str, str]) -> str:
    """``function``'s solution cell with each ``(old, new)`` edit made (each ``old`` found exactly once)."""
    source = solution_cell(function)
    for old, new in edits:
        assert source.count(old) == 1, f"{old!r} is not once in the {function} cell"
        source = source.replace(old, new)
    return source


ACCUMULATE = "parent.grad = grad if parent.grad is None else parent.grad + grad"
WALK = "for node in reversed(order):"

ENGINE_GRADIENTS = [
    Mutant("engine_gradients", "replaces-instead-of-accumulating", with_mistake(
        "engine_gradients", (ACCUMULATE, "parent.grad = grad")),
        nudge="When a value feeds two steps, what becomes of the first gradient when the second one arrives?"),
    Mutant("engine_gradients", "walks-breadth-first", with_mistake(
        "engine_gradients", ("visit(self)\n", "queue = [self]\n        while queue:\n"
                             "            node = queue.pop(0)\n            if node not in visited:\n"
                             "                visited.add(node)\n                order.insert(0, node)\n"
                             "                queue.extend(node.parents)\n")),
        nudge="Nearest first: does a node reached by a short path and by a long one have all its gradient when "
              "its turn comes?"),
    Mutant("engine_gradients", "leaves-first", with_mistake("engine_gradients", (WALK, "for node in order:")),
        nudge="Can a node hand on its gradient before the nodes computed from it have sent theirs?"),
    Mutant("engine_gradients", "broadcast-not-summed-back", with_mistake(
        "engine_gradients", ("return sum_to_shape(grad, self.data.shape), sum_to_shape(grad, other.data.shape)",
                             "return grad, grad")),
        nudge="A bias of shape (k,) was added to every row: which shape must its gradient have?"),
    Mutant("engine_gradients", "matmul-rule-operands-swapped", with_mistake(
        "engine_gradients", ("matmul_backward(grad, self.data, other.data)",
                             "matmul_backward(grad, other.data.T, self.data.T)")),
        nudge="Which of the two inputs is on the left of the product, and which shape must each gradient have?"),
    Mutant("engine_gradients", "tanh-derivative-without-the-square", with_mistake(
        "engine_gradients", ("(grad * (1 - out * out),)", "(grad * (1 - out),)")),
        nudge="What is the derivative of tanh, written with tanh itself?"),
    Mutant("engine_gradients", "relu-scales-by-its-output", with_mistake(
        "engine_gradients", ("(grad * (self.data > 0),)", "(grad * np.maximum(self.data, 0.0),)")),
        nudge="Where relu is the identity, what is its slope?"),
    Mutant("engine_gradients", "sum-rule-keeps-the-scalar", with_mistake(
        "engine_gradients", ("(grad * np.ones_like(self.data),)", "(grad,)")),
        nudge="sum made one number of many elements: which shape must the gradient sent back have?"),
    Mutant("engine_gradients", "sends-gradients-into-frozen-leaves", with_mistake(
        "engine_gradients", ("                if parent.requires_grad:\n                    " + ACCUMULATE,
                             "                " + ACCUMULATE)),
        nudge="What must the grad of a leaf that does not require grad be after backward?"),
    Mutant("engine_gradients", "calls-torch", '''
import torch


def engine_gradients(program, leaves, requires_grad):
    ops = {"add": torch.add, "mul": torch.mul, "matmul": torch.matmul, "sum": torch.sum, "relu": torch.relu,
           "tanh": torch.tanh}
    values = {name: torch.tensor(array, requires_grad=name in requires_grad) for name, array in leaves.items()}
    for name, op, inputs in program:
        values[name] = ops[op](*(values[source] for source in inputs))
    values[program[-1][0]].backward()
    return {name: None if values[name].grad is None else values[name].grad.numpy() for name in leaves}
''', nudge="Which libraries may this part use, and may PyTorch's autograd do it for you?"),
]

NUMERIC = "numeric[index] = (output({**leaves, name: up}) - output({**leaves, name: down})) / (2 * EPS)"
COMPARE = "if not np.all(np.abs(claimed - numeric) <= ATOL + RTOL * np.abs(numeric)):"

GRADCHECK = [
    Mutant("gradcheck", "always-passes", '''
def gradcheck(program, leaves, grads):
    return True
''', nudge="Would your check ever say no: what does it return for a gradient that is twice the right one?"),
    Mutant("gradcheck", "one-sided-differences", with_mistake(
        "gradcheck", (NUMERIC, "numeric[index] = (output({**leaves, name: up}) - output(leaves)) / EPS")),
        nudge="Taylor-expand a one-sided difference: which term of the error is left, and does it cancel "
              "when you step both ways?"),
    Mutant("gradcheck", "absolute-tolerance-only", with_mistake(
        "gradcheck", (COMPARE, "if not np.all(np.abs(claimed - numeric) <= ATOL):")),
        nudge="For a gradient near 200, is a difference of 0.02 an error or rounding?"),
    Mutant("gradcheck", "relative-tolerance-only", with_mistake(
        "gradcheck", (COMPARE, "if not np.all(np.abs(claimed - numeric) <= RTOL * np.abs(numeric)):")),
        nudge="When the numeric gradient comes out exactly 0, which claimed values could a relative test accept?"),
    Mutant("gradcheck", "divides-by-eps-not-two-eps", with_mistake("gradcheck", ("/ (2 * EPS)", "/ EPS")),
        nudge="How far apart are x + eps and x - eps?"),
    Mutant("gradcheck", "checks-the-first-element-only", with_mistake(
        "gradcheck", ("for index in np.ndindex(claimed.shape):", "for index in list(np.ndindex(claimed.shape))[:1]:"),
        (COMPARE, "if claimed.size and not np.all(np.abs(claimed.flat[0] - numeric.flat[0]) <= "
                  "ATOL + RTOL * np.abs(numeric.flat[0])):")),
        nudge="Which elements of the claimed gradient did you nudge and compare?"),
    Mutant("gradcheck", "checks-the-first-leaf-only", with_mistake(
        "gradcheck", ("            return False\n    return True", "            return False\n        return True\n"
                      "    return True")),
        nudge="Does your loop ever reach the second leaf of grads?"),
    Mutant("gradcheck", "no-shape-check", with_mistake(
        "gradcheck", ("        if claimed.shape != leaves[name].shape:\n            return False\n", ""),
        ("numeric = np.zeros(claimed.shape)", "numeric = np.zeros(leaves[name].shape)"),
        ("np.ndindex(claimed.shape)", "np.ndindex(leaves[name].shape)")),
        nudge="What should happen when a claimed gradient does not even have its leaf's shape?"),
    Mutant("gradcheck", "nudges-all-elements-at-once", '''
EPS = 1e-6
ATOL = 1e-5
RTOL = 1e-3


def gradcheck(program, leaves, grads):
    def output(values):
        return run_program(program, values)[program[-1][0]].data

    for name, claimed in grads.items():
        if claimed.shape != leaves[name].shape:
            return False
        numeric = (output({**leaves, name: leaves[name] + EPS}) - output({**leaves, name: leaves[name] - EPS})) / (2 * EPS)
        if not abs(claimed.sum() - numeric) <= ATOL + RTOL * abs(numeric):
            return False
    return True
''', nudge="Nudging every element at once measures the sum of the gradient: which wrong gradients have the right sum?"),
    Mutant("gradcheck", "float32-differences", with_mistake(
        "gradcheck", ("up, down = leaves[name].copy(), leaves[name].copy()",
                      "up, down = leaves[name].astype(np.float32), leaves[name].astype(np.float32)")),
        nudge="With about 7 significant digits, how many are left of the difference of two outputs a millionth "
              "apart?"),
    Mutant("gradcheck", "calls-torch-gradcheck", '''
import torch


def gradcheck(program, leaves, grads):
    names = list(grads)
    ops = {"add": torch.add, "mul": torch.mul, "matmul": torch.matmul, "sum": torch.sum, "tanh": torch.tanh}

    def f(*checked):
        values = {**{n: torch.tensor(a) for n, a in leaves.items()}, **dict(zip(names, checked))}
        for name, op, inputs in program:
            values[name] = ops[op](*(values[s] for s in inputs))
        return values[program[-1][0]]

    inputs = [torch.tensor(leaves[n], requires_grad=True) for n in names]
    numeric = torch.autograd.functional.jacobian(f, tuple(inputs))
    return all(torch.allclose(torch.tensor(grads[n]), j, rtol=1e-3, atol=1e-5) for n, j in zip(names, numeric))
''', nudge="Which libraries may this part use, and may PyTorch check the gradients for you?"),
]

SOFTMAX = "d_logits = shifted / shifted.sum(axis=1, keepdims=True)"

MLP_BACKWARD = [
    Mutant("mlp_backward", "softmax-without-subtracting-the-target", with_mistake(
        "mlp_backward", ("    d_logits[np.arange(len(target)), target] -= 1.0\n", "")),
        nudge="The loss is -log p of the target class only: which entry of the logits' gradient does the target "
              "change?"),
    Mutant("mlp_backward", "sum-not-mean", with_mistake(
        "mlp_backward", ("    d_logits = d_logits / len(target)\n", "")),
        nudge="The loss is the mean over the N samples: how much does one sample's logit move it?"),
    Mutant("mlp_backward", "unstable-softmax", with_mistake(
        "mlp_backward", ("np.exp(logits - logits.max(axis=1, keepdims=True))", "np.exp(logits)")),
        nudge="What is exp(800) in float64, and which shift leaves a softmax unchanged?"),
    Mutant("mlp_backward", "softmax-over-the-batch", with_mistake(
        "mlp_backward", ("np.exp(logits - logits.max(axis=1, keepdims=True))",
                         "np.exp(logits - logits.max(axis=0, keepdims=True))"),
        (SOFTMAX, "d_logits = shifted / shifted.sum(axis=0, keepdims=True)")),
        nudge="Over which axis do a sample's class probabilities sum to 1?"),
    Mutant("mlp_backward", "tanh-derivative-from-the-pre-activation", with_mistake(
        "mlp_backward", ("d_h_pre = d_h * (1.0 - h * h)", "d_h_pre = d_h * (1.0 - h_pre * h_pre)")),
        nudge="tanh's derivative is 1 - tanh(z)²: is that 1 - z²?"),
    Mutant("mlp_backward", "second-layer-weights-from-the-pre-activation", with_mistake(
        "mlp_backward", ("d_h, d_w2 = matmul_backward(d_logits, h, w2)",
                         "d_h, d_w2 = matmul_backward(d_logits, h_pre, w2)")),
        nudge="Which value was multiplied by w2 in the forward pass?"),
    Mutant("mlp_backward", "weight-gradients-transposed", with_mistake(
        "mlp_backward", ('"w2": d_w2,', '"w2": d_w2.T if d_w2.shape[0] == d_w2.shape[1] else d_w2,'),
        ('"w1": d_w1,', '"w1": d_w1.T if d_w1.shape[0] == d_w1.shape[1] else d_w1,')),
        nudge="Which of the weight's indices runs over the hidden units, and which over the inputs?"),
    Mutant("mlp_backward", "biases-summed-over-features", with_mistake(
        "mlp_backward", ('"b2": sum_to_shape(d_logits, b2.shape)', '"b2": d_logits.sum(axis=1)[:b2.shape[0]]'),
        ('"b1": sum_to_shape(d_h_pre, b1.shape)', '"b1": d_h_pre.sum(axis=1)[:b1.shape[0]]')),
        nudge="A bias is added to every sample: over which axis do its gradients pile up?"),
    Mutant("mlp_backward", "hidden-gradient-after-tanh-reported-as-pre-activation", with_mistake(
        "mlp_backward", ('"h_pre": d_h_pre,', '"h_pre": d_h,')),
        nudge="Between h and h_pre sits tanh: what does the gradient go through on the way?"),
    Mutant("mlp_backward", "calls-torch", '''
import torch


def mlp_backward(x, target, w1, b1, w2, b2):
    params = [torch.tensor(p, requires_grad=True) for p in (w1, b1, w2, b2)]
    h_pre = torch.tensor(x) @ params[0] + params[1]
    h = torch.tanh(h_pre)
    logits = h @ params[2] + params[3]
    for t in (h_pre, h, logits):
        t.retain_grad()
    torch.nn.functional.cross_entropy(logits, torch.tensor(target)).backward()
    found = {"logits": logits, "h": h, "h_pre": h_pre, "w1": params[0], "b1": params[1], "w2": params[2], "b2": params[3]}
    return {name: t.grad.numpy() for name, t in found.items()}
''', nudge="Which libraries may this part use, and may PyTorch's autograd do it for you?"),
]

MUTANTS = MUTANTS + ENGINE_GRADIENTS + GRADCHECK + MLP_BACKWARD
