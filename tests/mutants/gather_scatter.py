"""Mutants of exercise 08 (gather and scatter_add): plausible wrong versions of each graded function."""

from tests.mutants import Mutant

MUTANTS = [
    Mutant("gather_vectorised", "list-comprehension", '''
def gather_vectorised(x, dim, index):
    def pick(position):
        source = list(position)
        source[dim] = index[position]
        return x[tuple(source)]
    return np.array([pick(p) for p in np.ndindex(*index.shape)], dtype=x.dtype).reshape(index.shape)
'''),
]
