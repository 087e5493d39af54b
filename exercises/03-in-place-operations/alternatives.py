"""Correct answers of exercise 03 (in-place operations) written other ways than the solution: each must keep full marks."""

from tensorlab.grading import Alternative

ALTERNATIVES = [
    Alternative("track_versions", "storage-objects-shared-by-reference", '''
class Storage:
    """One allocation: its number and its version counter, shared by every name that views it."""

    def __init__(self, number):
        self.number = number
        self.version = 0


def track_versions(program):
    """Each name's (storage number, _version) after running program."""
    names = {}
    for step, statement in enumerate(program):
        kind, target = statement[0], statement[1]
        if kind == "new" or kind == "clone" or kind == "add":
            names[target] = Storage(step)
        elif kind == "view" or kind == "detach":
            names[target] = names[statement[2]]
        elif kind == "index_iadd":
            names[target].version += 2  # read a[0], add, write it back: two bumps
        else:  # add_, setitem, iadd, copy_: one write into the target
            names[target].version += 1
    return {name: (storage.number, storage.version) for name, storage in names.items()}
'''),
    Alternative("track_versions", "match-statement-and-counter", '''
from collections import Counter


def track_versions(program):
    """Each name's (storage number, _version) after running program."""
    storage_of = {}
    writes = Counter()  # storage number -> bumps of its version counter
    for step, statement in enumerate(program):
        match statement:
            case ("new", name) | ("clone", name, _) | ("add", name, _):
                storage_of[name] = step
            case ("view", name, source) | ("detach", name, source):
                storage_of[name] = storage_of[source]
            case ("index_iadd", name):
                writes[storage_of[name]] += 2
            case ("add_", name) | ("setitem", name) | ("iadd", name) | ("copy_", name, _):
                writes[storage_of[name]] += 1
    return {name: (number, writes[number]) for name, number in storage_of.items()}
'''),
    Alternative("relu_forward_", "boolean-mask-assignment", '''
def relu_forward_(x):
    """x = max(x, 0), written into x's own memory; returns x."""
    x[x < 0] = 0  # NaN < 0 is False: NaN stays
    return x
'''),
    Alternative("relu_forward_", "copyto-where-negative", '''
def relu_forward_(x):
    """x = max(x, 0), written into x's own memory; returns x."""
    np.copyto(x, 0, where=x < 0)
    return x
'''),
    Alternative("relu_forward_", "clip-out-into-x", '''
def relu_forward_(x):
    """x = max(x, 0), written into x's own memory; returns x."""
    np.clip(x, 0, None, out=x)
    return x
'''),
    Alternative("relu_backward", "where-out-positive", '''
def relu_backward(grad, out):
    """d loss / d input of ReLU, from the output alone."""
    return np.where(out > 0, grad, np.zeros_like(grad))
'''),
    Alternative("relu_backward", "copy-then-zero-by-mask", '''
def relu_backward(grad, out):
    """d loss / d input of ReLU, from the output alone."""
    result = grad.copy()
    result[out <= 0] = 0
    return result
'''),
    Alternative("overlapping_pairs", "itertools-product-and-combinations", '''
import itertools


def storage_slots(offset, shape, strides):
    """The set of storage slots a tensor with this layout reads."""
    return {offset + sum(i * s for i, s in zip(index, strides))
            for index in itertools.product(*(range(size) for size in shape))}


def overlapping_pairs(tensors):
    """The pairs (i, j), i < j, of tensors that read a common storage slot."""
    keys = [(storage, storage_slots(offset, shape, strides)) for storage, offset, shape, strides in tensors]
    return [(i, j) for (i, (si, a)), (j, (sj, b)) in itertools.combinations(enumerate(keys), 2)
            if si == sj and not a.isdisjoint(b)]
'''),
    Alternative("overlapping_pairs", "inverted-index-slot-to-tensors", '''
from collections import defaultdict


def overlapping_pairs(tensors):
    """The pairs (i, j), i < j, of tensors that read a common storage slot."""
    readers = defaultdict(set)  # (storage, slot) -> positions of the tensors that read it
    for position, (storage, offset, shape, strides) in enumerate(tensors):
        if 0 in shape:
            continue
        slots = [offset]
        for size, stride in zip(shape, strides):
            slots = [slot + k * stride for slot in slots for k in range(size)]
        for slot in slots:
            readers[(storage, slot)].add(position)
    pairs = set()
    for group in readers.values():
        ordered = sorted(group)
        for a in range(len(ordered)):
            for b in range(a + 1, len(ordered)):
                pairs.add((ordered[a], ordered[b]))
    return sorted(pairs)
'''),
    Alternative("overlapping_pairs", "numpy-add-outer-and-intersect1d", '''
def slots_of(offset, shape, strides):
    """Every slot the layout reads, as a flat NumPy array (empty for a size 0)."""
    slots = np.array(offset)
    for size, stride in zip(shape, strides):
        slots = np.add.outer(slots, np.arange(size) * stride)
    return np.unique(slots)


def overlapping_pairs(tensors):
    """The pairs (i, j), i < j, of tensors that read a common storage slot."""
    slots = [slots_of(offset, shape, strides) for _, offset, shape, strides in tensors]
    pairs = []
    for i in range(len(tensors)):
        for j in range(i + 1, len(tensors)):
            if tensors[i][0] != tensors[j][0]:
                continue
            if np.intersect1d(slots[i], slots[j]).size > 0:
                pairs.append((i, j))
    return pairs
'''),
    Alternative("relu_forward_", "putmask-negative-to-zero", '''
def relu_forward_(x):
    """x = max(x, 0), written into x's own memory; returns x."""
    np.putmask(x, x < 0, 0)
    return x
'''),
    Alternative("relu_forward_", "where-assigned-through-an-ellipsis", '''
def relu_forward_(x):
    """x = max(x, 0), written into x's own memory; returns x."""
    x[...] = np.where(x < 0, 0, x)  # NaN < 0 is False: NaN stays
    return x
'''),
    Alternative("relu_backward", "multiply-by-a-mask-cast-to-grads-dtype", '''
def relu_backward(grad, out):
    """d loss / d input of ReLU, from the output alone."""
    return np.multiply(grad, (out > 0).astype(grad.dtype))
'''),
    Alternative("relu_backward", "where-with-a-python-zero", '''
def relu_backward(grad, out):
    """d loss / d input of ReLU, from the output alone."""
    return np.where(out > 0, grad, 0)
'''),
    Alternative("track_versions", "defaultdict-of-versions-and-get", '''
from collections import defaultdict


def track_versions(program):
    """Each name's (storage number, _version) after running program."""
    storage = {}
    versions = defaultdict(int)
    for step, statement in enumerate(program):
        kind, name = statement[0], statement[1]
        if kind in ("new", "clone", "add"):
            storage[name] = step
        elif kind in ("view", "detach"):
            storage[name] = storage.get(statement[2])
        else:
            versions[storage[name]] += 2 if kind == "index_iadd" else 1
    return {name: (number, versions[number]) for name, number in storage.items()}
'''),
]
