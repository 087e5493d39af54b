"""Mutants of exercise 04 (broadcasting): plausible wrong versions of each graded function."""

from mutants import Mutant

MUTANTS = [
    Mutant("broadcast_shape", "pads-on-the-right", '''
def broadcast_shape(a, b):
    ndim = max(len(a), len(b))
    a = tuple(a) + (1,) * (ndim - len(a))
    b = tuple(b) + (1,) * (ndim - len(b))
    shape = []
    for size_a, size_b in zip(a, b):
        if size_a != size_b and 1 not in (size_a, size_b):
            raise RuntimeError("clash")
        shape.append(size_a if size_b == 1 else size_b)
    return tuple(shape)
'''),
    Mutant("broadcast_shape", "calls-the-reference", '''
import tensorlab
def broadcast_shape(a, b):
    return tuple(tensorlab.broadcast_shapes(a, b))
'''),
    Mutant("broadcast_add", "numpy-error", '''
def broadcast_add(a, b):
    return np.asarray(a + b)
'''),
]
