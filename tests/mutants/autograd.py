"""Mutants of exercise 11 (autograd by hand): plausible wrong versions of each graded function."""

from mutants import Mutant

MUTANTS = [
    Mutant("sum_to_shape", "forgets-keepdims", '''
def sum_to_shape(grad, shape):
    leading = grad.ndim - len(shape)
    grad = grad.sum(axis=tuple(range(leading)))
    stretched = tuple(dim for dim, size in enumerate(shape) if size == 1 and grad.shape[dim] != 1)
    if stretched:
        grad = grad.sum(axis=stretched)
    return np.asarray(grad)
'''),
]
