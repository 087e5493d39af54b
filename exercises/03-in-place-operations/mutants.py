"""Mutants of exercise 03 (in-place operations): plausible wrong versions of each graded function."""

from tensorlab.grading.tasks import Mutant

TRACK_VERSIONS = [
    Mutant("track_versions", "views-are-copies", '''
def track_versions(program):
    storage_of, version = {}, {}
    bumps = {"add_": 1, "setitem": 1, "iadd": 1, "index_iadd": 2, "copy_": 1}
    for step, (kind, *names) in enumerate(program):
        target = names[0]
        if kind in ("new", "clone", "add", "view"):
            storage_of[target] = step
            version[step] = 0
        elif kind == "detach":
            storage_of[target] = storage_of[names[1]]
        else:
            version[storage_of[target]] += bumps[kind]
    return {name: (storage, version[storage]) for name, storage in storage_of.items()}
''', nudge="Does a view get a storage of its own, or share the one it looks into?"),
    Mutant("track_versions", "detach-gets-its-own-counter", '''
def track_versions(program):
    storage_of, version = {}, {}
    bumps = {"add_": 1, "setitem": 1, "iadd": 1, "index_iadd": 2, "copy_": 1}
    for step, (kind, *names) in enumerate(program):
        target = names[0]
        if kind in ("new", "clone", "add", "detach"):
            storage_of[target] = step
            version[step] = 0
        elif kind == "view":
            storage_of[target] = storage_of[names[1]]
        else:
            version[storage_of[target]] += bumps[kind]
    return {name: (storage, version[storage]) for name, storage in storage_of.items()}
''', nudge="Does detach copy the data, or share the storage and its version counter?"),
    Mutant("track_versions", "clone-is-a-view", '''
def track_versions(program):
    storage_of, version = {}, {}
    bumps = {"add_": 1, "setitem": 1, "iadd": 1, "index_iadd": 2, "copy_": 1}
    for step, (kind, *names) in enumerate(program):
        target = names[0]
        if kind in ("new", "add"):
            storage_of[target] = step
            version[step] = 0
        elif kind in ("view", "detach", "clone"):
            storage_of[target] = storage_of[names[1]]
        else:
            version[storage_of[target]] += bumps[kind]
    return {name: (storage, version[storage]) for name, storage in storage_of.items()}
''', nudge="Does clone copy the data into a new storage, or look into the old one?"),
    Mutant("track_versions", "index-iadd-counts-once", '''
def track_versions(program):
    storage_of, version = {}, {}
    for step, (kind, *names) in enumerate(program):
        target = names[0]
        if kind in ("new", "clone", "add"):
            storage_of[target] = step
            version[step] = 0
        elif kind in ("view", "detach"):
            storage_of[target] = storage_of[names[1]]
        else:
            version[storage_of[target]] += 1
    return {name: (storage, version[storage]) for name, storage in storage_of.items()}
''', nudge="How many writes does Python make for an indexed +=, once it is broken into a read, an add and a store?"),
    Mutant("track_versions", "a-version-per-name", '''
def track_versions(program):
    storage_of, version = {}, {}
    bumps = {"add_": 1, "setitem": 1, "iadd": 1, "index_iadd": 2, "copy_": 1}
    for step, (kind, *names) in enumerate(program):
        target = names[0]
        if kind in ("new", "clone", "add"):
            storage_of[target] = step
            version[target] = 0
        elif kind in ("view", "detach"):
            storage_of[target] = storage_of[names[1]]
            version[target] = version[names[1]]
        else:
            version[target] += bumps[kind]
    return {name: (storage, version[name]) for name, storage in storage_of.items()}
''', nudge="Is the version counter kept per name, or per storage, shared by every view of it?"),
    Mutant("track_versions", "new-tensor-inherits-the-version", '''
def track_versions(program):
    storage_of, version = {}, {}
    bumps = {"add_": 1, "setitem": 1, "iadd": 1, "index_iadd": 2, "copy_": 1}
    for step, (kind, *names) in enumerate(program):
        target = names[0]
        if kind in ("new", "clone", "add"):
            storage_of_source = storage_of.get(names[-1]) if kind != "new" else None
            version[step] = version[storage_of_source] if storage_of_source is not None else 0
            storage_of[target] = step
        elif kind in ("view", "detach"):
            storage_of[target] = storage_of[names[1]]
        else:
            version[storage_of[target]] += bumps[kind]
    return {name: (storage, version[storage]) for name, storage in storage_of.items()}
''', nudge="Does a freshly allocated storage start counting from 0, whatever it was computed from?"),
    Mutant("track_versions", "copy-bumps-the-source-too", '''
def track_versions(program):
    storage_of, version = {}, {}
    bumps = {"add_": 1, "setitem": 1, "iadd": 1, "index_iadd": 2, "copy_": 1}
    for step, (kind, *names) in enumerate(program):
        target = names[0]
        if kind in ("new", "clone", "add"):
            storage_of[target] = step
            version[step] = 0
        elif kind in ("view", "detach"):
            storage_of[target] = storage_of[names[1]]
        else:
            version[storage_of[target]] += bumps[kind]
            if kind == "copy_":
                version[storage_of[names[1]]] += 1
    return {name: (storage, version[storage]) for name, storage in storage_of.items()}
''', nudge="In a copy, which tensor is written to: the destination or the source?"),
    Mutant("track_versions", "rebinding-writes-in-place", '''
def track_versions(program):
    storage_of, version = {}, {}
    bumps = {"add_": 1, "setitem": 1, "iadd": 1, "index_iadd": 2, "copy_": 1}
    for step, (kind, *names) in enumerate(program):
        target = names[0]
        if kind == "add" and target == names[1]:
            version[storage_of[target]] += 1
        elif kind in ("new", "clone", "add"):
            storage_of[target] = step
            version[step] = 0
        elif kind in ("view", "detach"):
            storage_of[target] = storage_of[names[1]]
        else:
            version[storage_of[target]] += bumps[kind]
    return {name: (storage, version[storage]) for name, storage in storage_of.items()}
''', nudge="When a name is rebound to the result of an out-of-place add, is its old storage written, or a new one allocated?"),
    Mutant("track_versions", "storages-counted-not-numbered-by-statement", '''
def track_versions(program):
    storage_of, version = {}, {}
    bumps = {"add_": 1, "setitem": 1, "iadd": 1, "index_iadd": 2, "copy_": 1}
    for kind, *names in program:
        target = names[0]
        if kind in ("new", "clone", "add"):
            number = len(version)
            storage_of[target] = number
            version[number] = 0
        elif kind in ("view", "detach"):
            storage_of[target] = storage_of[names[1]]
        else:
            version[storage_of[target]] += bumps[kind]
    return {name: (storage, version[storage]) for name, storage in storage_of.items()}
''', nudge="Is a storage numbered by how many storages came before it, or by the statement that allocated it?"),
    Mutant("track_versions", "lists-instead-of-tuples", '''
def track_versions(program):
    storage_of, version = {}, {}
    bumps = {"add_": 1, "setitem": 1, "iadd": 1, "index_iadd": 2, "copy_": 1}
    for step, (kind, *names) in enumerate(program):
        target = names[0]
        if kind in ("new", "clone", "add"):
            storage_of[target] = step
            version[step] = 0
        elif kind in ("view", "detach"):
            storage_of[target] = storage_of[names[1]]
        else:
            version[storage_of[target]] += bumps[kind]
    return {name: [storage, version[storage]] for name, storage in storage_of.items()}
''', nudge="Does a list compare equal to the tuple the statement asks for?"),
    Mutant("track_versions", "runs-the-program-in-tensorlab", '''
import tensorlab

def track_versions(program):
    from tensorlab.widgets.versions import run_program
    states = run_program(program, tensorlab)
    return states[-1] if states else {}
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
]

RELU_FORWARD_ = [
    Mutant("relu_forward_", "returns-a-new-array", '''
def relu_forward_(x):
    return np.maximum(x, 0)
''', nudge="Does your result share memory with x, or is it a new array?"),
    Mutant("relu_forward_", "writes-but-returns-nothing", '''
def relu_forward_(x):
    np.maximum(x, 0, out=x)
''', nudge="After writing into x, what does your function hand back to the caller?"),
    Mutant("relu_forward_", "returns-a-new-view-of-x", '''
def relu_forward_(x):
    np.maximum(x, 0, out=x)
    return x[...]
''', nudge="Is x[...] the very object the caller passed in, or a new array that only looks at its memory?"),
    Mutant("relu_forward_", "rebinds-the-name", '''
def relu_forward_(x):
    x = x * (x > 0)
    return x
''', nudge="Does assigning to the name x change the caller's array, or only what your local name points to?"),
    Mutant("relu_forward_", "multiplies-by-the-mask-in-place", '''
def relu_forward_(x):
    x *= x > 0
    return x
''', nudge="What is -inf times 0, and what should ReLU give for -inf?"),
    Mutant("relu_forward_", "where-turns-nan-into-zero", '''
def relu_forward_(x):
    x[...] = np.where(x > 0, x, 0)
    return x
''', nudge="Is NaN greater than 0, and what should ReLU leave where x is NaN?"),
    Mutant("relu_forward_", "writes-into-a-flattened-copy", '''
def relu_forward_(x):
    flat = x.reshape(-1)
    flat[flat < 0] = 0
    return flat.reshape(x.shape)
''', nudge="When x is a non-contiguous view, does reshaping it give a view of x or a copy?"),
    Mutant("relu_forward_", "float-zero-into-an-int-array", '''
def relu_forward_(x):
    np.maximum(x, 0.0, out=x, casting="unsafe")
    return x.astype(np.float64)
''', nudge="Which dtype should an integer x still have after ReLU, and is the array you return still x itself?"),
    Mutant("relu_forward_", "average-with-abs", '''
def relu_forward_(x):
    x[...] = (x + np.abs(x)) / 2
    return x
''', nudge="What do -inf and inf add up to?"),
    Mutant("relu_forward_", "copies-then-masks", '''
def relu_forward_(x):
    result = x.copy()
    result[result < 0] = 0
    return result
''', nudge="After your function returns, has the caller's own x changed?"),
    Mutant("relu_forward_", "while-loop-over-elements", '''
def relu_forward_(x):
    i = 0
    values = x.ravel()
    while i < values.size:
        if values[i] < 0:
            x[np.unravel_index(i, x.shape)] = 0
        i += 1
    return x
''', nudge="What would a single whole-array operation do here instead of visiting elements one at a time?"),
    Mutant("relu_forward_", "calls-tensorlab-relu", '''
import tensorlab

def relu_forward_(x):
    x[...] = tensorlab.tensor(x).relu().numpy()
    return x
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
]

RELU_BACKWARD = [
    Mutant("relu_backward", "gradient-also-at-zero", '''
def relu_backward(grad, out):
    return grad * (out >= 0)
''', nudge="Where the output is exactly 0, does torch let the gradient through?"),
    Mutant("relu_backward", "multiplies-by-the-output", '''
def relu_backward(grad, out):
    return grad * out
''', nudge="Is the derivative of ReLU the output itself, or a 0 or a 1 at each element?"),
    Mutant("relu_backward", "passes-grad-through", '''
def relu_backward(grad, out):
    return grad.copy()
''', nudge="Where the input was negative, does any gradient reach it?"),
    Mutant("relu_backward", "changes-grad-in-place", '''
def relu_backward(grad, out):
    grad[out <= 0] = 0
    return grad
''', nudge="Is grad yours to overwrite, or does the caller still need it unchanged?"),
    Mutant("relu_backward", "returns-the-mask", '''
def relu_backward(grad, out):
    return (out > 0).astype(grad.dtype)
''', nudge="The 0/1 mask is ReLU's derivative: what does the chain rule multiply it by?"),
    Mutant("relu_backward", "relu-of-the-gradient", '''
def relu_backward(grad, out):
    return np.maximum(grad, 0)
''', nudge="Does the gradient pass according to its own sign, or according to the output?"),
    Mutant("relu_backward", "float64-mask", '''
def relu_backward(grad, out):
    return grad * (out > 0).astype(np.float64)
''', nudge="When grad is float32, which dtype does multiplying it by a float64 mask give?"),
    Mutant("relu_backward", "selects-instead-of-masking", '''
def relu_backward(grad, out):
    return grad[out > 0]
''', nudge="Should the result keep the shape of grad, or hold only the elements that pass?"),
    Mutant("relu_backward", "while-loop-over-elements", '''
def relu_backward(grad, out):
    result = np.zeros_like(grad)
    i = 0
    while i < grad.size:
        index = np.unravel_index(i, grad.shape)
        if out[index] > 0:
            result[index] = grad[index]
        i += 1
    return result
''', nudge="What would a single whole-array operation do here instead of visiting elements one at a time?"),
    Mutant("relu_backward", "calls-tensorlab-backward", '''
import tensorlab

def relu_backward(grad, out):
    x = tensorlab.tensor(out, requires_grad=True)
    x.relu().backward(tensorlab.tensor(grad))
    return x.grad.numpy()
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
]

OVERLAPPING_PAIRS = [
    Mutant("overlapping_pairs", "same-storage-is-enough", '''
def overlapping_pairs(tensors):
    return [(i, j) for i in range(len(tensors)) for j in range(i + 1, len(tensors)) if tensors[i][0] == tensors[j][0]]
''', nudge="Do two columns of one matrix share an element, though they share a storage?"),
    Mutant("overlapping_pairs", "compares-ranges-not-elements", '''
def span(offset, shape, strides):
    if 0 in shape:
        return None
    return offset, offset + sum((size - 1) * stride for size, stride in zip(shape, strides))

def overlapping_pairs(tensors):
    spans = [span(offset, shape, strides) for _, offset, shape, strides in tensors]
    pairs = []
    for i in range(len(tensors)):
        for j in range(i + 1, len(tensors)):
            if tensors[i][0] == tensors[j][0] and spans[i] and spans[j]:
                if spans[i][0] <= spans[j][1] and spans[j][0] <= spans[i][1]:
                    pairs.append((i, j))
    return pairs
''', nudge="Do the even and the odd elements of one vector share a slot, though their ranges interleave?"),
    Mutant("overlapping_pairs", "ranges-that-only-touch-do-not-count", '''
def storage_slots(offset, shape, strides):
    slots = {offset}
    for size, stride in zip(shape, strides):
        slots = {slot + i * stride for slot in slots for i in range(size)}
    return slots

def overlapping_pairs(tensors):
    slots = [storage_slots(offset, shape, strides) for _, offset, shape, strides in tensors]
    pairs = []
    for i in range(len(tensors)):
        for j in range(i + 1, len(tensors)):
            if tensors[i][0] == tensors[j][0] and len(slots[i] & slots[j]) > 1:
                pairs.append((i, j))
    return pairs
''', nudge="How many shared slots does it take for two tensors to overlap?"),
    Mutant("overlapping_pairs", "assumes-contiguous", '''
import math

def overlapping_pairs(tensors):
    slots = [set(range(offset, offset + math.prod(shape))) for _, offset, shape, _ in tensors]
    pairs = []
    for i in range(len(tensors)):
        for j in range(i + 1, len(tensors)):
            if tensors[i][0] == tensors[j][0] and slots[i] & slots[j]:
                pairs.append((i, j))
    return pairs
''', nudge="Does a tensor whose strides are not row-major read one unbroken block of slots?"),
    Mutant("overlapping_pairs", "size-0-still-holds-the-offset", '''
def storage_slots(offset, shape, strides):
    slots = {offset}
    for size, stride in zip(shape, strides):
        slots = slots | {slot + i * stride for slot in slots for i in range(size)}
    return slots

def overlapping_pairs(tensors):
    slots = [storage_slots(offset, shape, strides) for _, offset, shape, strides in tensors]
    pairs = []
    for i in range(len(tensors)):
        for j in range(i + 1, len(tensors)):
            if tensors[i][0] == tensors[j][0] and slots[i] & slots[j]:
                pairs.append((i, j))
    return pairs
''', nudge="A tensor with a size-0 dim has no elements: which slots does it read?"),
    Mutant("overlapping_pairs", "ignores-the-storage-name", '''
def storage_slots(offset, shape, strides):
    slots = {offset}
    for size, stride in zip(shape, strides):
        slots = {slot + i * stride for slot in slots for i in range(size)}
    return slots

def overlapping_pairs(tensors):
    slots = [storage_slots(offset, shape, strides) for _, offset, shape, strides in tensors]
    return [(i, j) for i in range(len(tensors)) for j in range(i + 1, len(tensors)) if slots[i] & slots[j]]
''', nudge="Can tensors over different storages share a slot, even with the same layout?"),
    Mutant("overlapping_pairs", "pairs-each-tensor-with-itself", '''
def storage_slots(offset, shape, strides):
    slots = {offset}
    for size, stride in zip(shape, strides):
        slots = {slot + i * stride for slot in slots for i in range(size)}
    return slots

def overlapping_pairs(tensors):
    slots = [storage_slots(offset, shape, strides) for _, offset, shape, strides in tensors]
    return [(i, j) for i in range(len(tensors)) for j in range(i, len(tensors))
            if tensors[i][0] == tensors[j][0] and slots[i] & slots[j]]
''', nudge="Is a tensor ever paired with itself?"),
    Mutant("overlapping_pairs", "both-orders", '''
def storage_slots(offset, shape, strides):
    slots = {offset}
    for size, stride in zip(shape, strides):
        slots = {slot + i * stride for slot in slots for i in range(size)}
    return slots

def overlapping_pairs(tensors):
    slots = [storage_slots(offset, shape, strides) for _, offset, shape, strides in tensors]
    return [(i, j) for i in range(len(tensors)) for j in range(len(tensors))
            if i != j and tensors[i][0] == tensors[j][0] and slots[i] & slots[j]]
''', nudge="Should each overlapping pair appear once, or in both orders?"),
    Mutant("overlapping_pairs", "same-offset-means-overlap", '''
def overlapping_pairs(tensors):
    return [(i, j) for i in range(len(tensors)) for j in range(i + 1, len(tensors))
            if tensors[i][:2] == tensors[j][:2]]
''', nudge="Can two tensors that start at different slots still share one, or two that start at the same slot share nothing else worth checking?"),
    Mutant("overlapping_pairs", "strides-paired-with-reversed-shape", '''
def storage_slots(offset, shape, strides):
    slots = {offset}
    for size, stride in zip(reversed(shape), strides):
        slots = {slot + i * stride for slot in slots for i in range(size)}
    return slots

def overlapping_pairs(tensors):
    slots = [storage_slots(offset, shape, strides) for _, offset, shape, strides in tensors]
    pairs = []
    for i in range(len(tensors)):
        for j in range(i + 1, len(tensors)):
            if tensors[i][0] == tensors[j][0] and slots[i] & slots[j]:
                pairs.append((i, j))
    return pairs
''', nudge="Which size goes with each stride: the one of the same dim, counted from the same end?"),
    Mutant("overlapping_pairs", "lists-instead-of-tuples", '''
def storage_slots(offset, shape, strides):
    slots = {offset}
    for size, stride in zip(shape, strides):
        slots = {slot + i * stride for slot in slots for i in range(size)}
    return slots

def overlapping_pairs(tensors):
    slots = [storage_slots(offset, shape, strides) for _, offset, shape, strides in tensors]
    return [[i, j] for i in range(len(tensors)) for j in range(i + 1, len(tensors))
            if tensors[i][0] == tensors[j][0] and slots[i] & slots[j]]
''', nudge="Does a list compare equal to the tuple the statement asks for?"),
    Mutant("overlapping_pairs", "asks-tensorlab-for-the-slots", '''
import numpy as np
from tensorlab._storage import storage_positions

def overlapping_pairs(tensors):
    slots = [set(np.ravel(storage_positions(shape, strides, offset)).tolist()) for _, offset, shape, strides in tensors]
    return [(i, j) for i in range(len(tensors)) for j in range(i + 1, len(tensors))
            if tensors[i][0] == tensors[j][0] and slots[i] & slots[j]]
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
]

RELU_BACKWARD += [
    Mutant("relu_backward", "returns-grad-itself-when-nothing-is-masked", '''
def relu_backward(grad, out):
    if (out > 0).all():
        return grad  # the same values, but the caller's own array
    return grad * (out > 0)
''', nudge="When nothing is masked, is the array you return a new one, or the caller's grad itself?"),
    Mutant("relu_backward", "a-view-of-grad-when-nothing-is-masked", '''
def relu_backward(grad, out):
    mask = out > 0
    return grad[...] if mask.all() else np.where(mask, grad, 0)
''', nudge="Does a view of grad count as a new array, if a write into it would change grad?"),
    Mutant("relu_backward", "heaviside-step-of-the-output", '''
def relu_backward(grad, out):
    return (grad * np.heaviside(out, 0)).astype(grad.dtype)
''', nudge="Which NumPy functions does the statement allow for this part?"),
]

RELU_FORWARD_ += [
    Mutant("relu_forward_", "fmax-through-out", '''
def relu_forward_(x):
    np.fmax(x, 0, out=x)  # right for every number, and a helper the statement does not list
    return x
''', nudge="Which NumPy functions does the statement list for this part, and what does yours give for a NaN?"),
]

OVERLAPPING_PAIRS += [
    Mutant("overlapping_pairs", "numpy-shares-memory-of-strided-views", '''
import numpy as np


def overlapping_pairs(tensors):
    """Let NumPy answer: one buffer per storage, as_strided views of it, np.shares_memory."""
    buffers = {}
    for storage, offset, shape, strides in tensors:
        reach = offset + 1 + sum((size - 1) * stride for size, stride in zip(shape, strides) if size > 0)
        buffers[storage] = max(buffers.get(storage, 0), reach)
    memory = {storage: np.zeros(size, dtype=np.int8) for storage, size in buffers.items()}
    views = [np.lib.stride_tricks.as_strided(memory[storage][offset:], shape, strides)
             for storage, offset, shape, strides in tensors]
    return [(i, j) for i in range(len(views)) for j in range(i + 1, len(views))
            if views[i].size and views[j].size and np.shares_memory(views[i], views[j])]
''', nudge="Which names does the statement let this part use, and is NumPy's memory check among them?"),
]

MUTANTS = TRACK_VERSIONS + RELU_FORWARD_ + RELU_BACKWARD + OVERLAPPING_PAIRS
