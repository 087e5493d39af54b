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
'''),
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
'''),
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
'''),
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
'''),
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
'''),
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
'''),
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
'''),
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
'''),
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
'''),
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
'''),
    Mutant("track_versions", "runs-the-program-in-tensorlab", '''
import tensorlab

def track_versions(program):
    from tensorlab.widgets.versions import run_program
    states = run_program(program, tensorlab)
    return states[-1] if states else {}
'''),
]

RELU_FORWARD_ = [
    Mutant("relu_forward_", "returns-a-new-array", '''
def relu_forward_(x):
    return np.maximum(x, 0)
'''),
    Mutant("relu_forward_", "writes-but-returns-nothing", '''
def relu_forward_(x):
    np.maximum(x, 0, out=x)
'''),
    Mutant("relu_forward_", "rebinds-the-name", '''
def relu_forward_(x):
    x = x * (x > 0)
    return x
'''),
    Mutant("relu_forward_", "multiplies-by-the-mask-in-place", '''
def relu_forward_(x):
    x *= x > 0
    return x
'''),
    Mutant("relu_forward_", "where-turns-nan-into-zero", '''
def relu_forward_(x):
    x[...] = np.where(x > 0, x, 0)
    return x
'''),
    Mutant("relu_forward_", "writes-into-a-flattened-copy", '''
def relu_forward_(x):
    flat = x.reshape(-1)
    flat[flat < 0] = 0
    return flat.reshape(x.shape)
'''),
    Mutant("relu_forward_", "float-zero-into-an-int-array", '''
def relu_forward_(x):
    np.maximum(x, 0.0, out=x, casting="unsafe")
    return x.astype(np.float64)
'''),
    Mutant("relu_forward_", "average-with-abs", '''
def relu_forward_(x):
    x[...] = (x + np.abs(x)) / 2
    return x
'''),
    Mutant("relu_forward_", "copies-then-masks", '''
def relu_forward_(x):
    result = x.copy()
    result[result < 0] = 0
    return result
'''),
    Mutant("relu_forward_", "while-loop-over-elements", '''
def relu_forward_(x):
    i = 0
    values = x.ravel()
    while i < values.size:
        if values[i] < 0:
            x[np.unravel_index(i, x.shape)] = 0
        i += 1
    return x
'''),
    Mutant("relu_forward_", "calls-tensorlab-relu", '''
import tensorlab

def relu_forward_(x):
    x[...] = tensorlab.tensor(x).relu().numpy()
    return x
'''),
]

RELU_BACKWARD = [
    Mutant("relu_backward", "gradient-also-at-zero", '''
def relu_backward(grad, out):
    return grad * (out >= 0)
'''),
    Mutant("relu_backward", "multiplies-by-the-output", '''
def relu_backward(grad, out):
    return grad * out
'''),
    Mutant("relu_backward", "passes-grad-through", '''
def relu_backward(grad, out):
    return grad.copy()
'''),
    Mutant("relu_backward", "changes-grad-in-place", '''
def relu_backward(grad, out):
    grad[out <= 0] = 0
    return grad
'''),
    Mutant("relu_backward", "returns-the-mask", '''
def relu_backward(grad, out):
    return (out > 0).astype(grad.dtype)
'''),
    Mutant("relu_backward", "relu-of-the-gradient", '''
def relu_backward(grad, out):
    return np.maximum(grad, 0)
'''),
    Mutant("relu_backward", "float64-mask", '''
def relu_backward(grad, out):
    return grad * (out > 0).astype(np.float64)
'''),
    Mutant("relu_backward", "selects-instead-of-masking", '''
def relu_backward(grad, out):
    return grad[out > 0]
'''),
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
'''),
    Mutant("relu_backward", "calls-tensorlab-backward", '''
import tensorlab

def relu_backward(grad, out):
    x = tensorlab.tensor(out, requires_grad=True)
    x.relu().backward(tensorlab.tensor(grad))
    return x.grad.numpy()
'''),
]

OVERLAPPING_PAIRS = [
    Mutant("overlapping_pairs", "same-storage-is-enough", '''
def overlapping_pairs(tensors):
    return [(i, j) for i in range(len(tensors)) for j in range(i + 1, len(tensors)) if tensors[i][0] == tensors[j][0]]
'''),
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
'''),
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
'''),
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
'''),
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
'''),
    Mutant("overlapping_pairs", "ignores-the-storage-name", '''
def storage_slots(offset, shape, strides):
    slots = {offset}
    for size, stride in zip(shape, strides):
        slots = {slot + i * stride for slot in slots for i in range(size)}
    return slots

def overlapping_pairs(tensors):
    slots = [storage_slots(offset, shape, strides) for _, offset, shape, strides in tensors]
    return [(i, j) for i in range(len(tensors)) for j in range(i + 1, len(tensors)) if slots[i] & slots[j]]
'''),
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
'''),
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
'''),
    Mutant("overlapping_pairs", "same-offset-means-overlap", '''
def overlapping_pairs(tensors):
    return [(i, j) for i in range(len(tensors)) for j in range(i + 1, len(tensors))
            if tensors[i][:2] == tensors[j][:2]]
'''),
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
'''),
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
'''),
    Mutant("overlapping_pairs", "asks-tensorlab-for-the-slots", '''
import numpy as np
from tensorlab._storage import storage_positions

def overlapping_pairs(tensors):
    slots = [set(np.ravel(storage_positions(shape, strides, offset)).tolist()) for _, offset, shape, strides in tensors]
    return [(i, j) for i in range(len(tensors)) for j in range(i + 1, len(tensors))
            if tensors[i][0] == tensors[j][0] and slots[i] & slots[j]]
'''),
]

RELU_BACKWARD += [
    Mutant("relu_backward", "returns-grad-itself-when-nothing-is-masked", '''
def relu_backward(grad, out):
    if (out > 0).all():
        return grad  # the same values, but the caller's own array
    return grad * (out > 0)
'''),
    Mutant("relu_backward", "a-view-of-grad-when-nothing-is-masked", '''
def relu_backward(grad, out):
    mask = out > 0
    return grad[...] if mask.all() else np.where(mask, grad, 0)
'''),
    Mutant("relu_backward", "heaviside-step-of-the-output", '''
def relu_backward(grad, out):
    return (grad * np.heaviside(out, 0)).astype(grad.dtype)
'''),
]

RELU_FORWARD_ += [
    Mutant("relu_forward_", "fmax-through-out", '''
def relu_forward_(x):
    np.fmax(x, 0, out=x)  # right for every number, and a helper the statement does not list
    return x
'''),
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
'''),
]

MUTANTS = TRACK_VERSIONS + RELU_FORWARD_ + RELU_BACKWARD + OVERLAPPING_PAIRS
