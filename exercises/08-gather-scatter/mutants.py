"""Mutants of exercise 08 (gather and scatter_add): plausible wrong versions of each graded function."""

from tensorlab.grading.tasks import Mutant

MUTANTS = [
    # --- gather_loops -------------------------------------------------------------------------
    Mutant("gather_loops", "calls-torch", '''
import torch
def gather_loops(x, dim, index):
    return torch.gather(torch.from_numpy(x), dim, torch.from_numpy(index)).numpy()
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
    Mutant("gather_loops", "always-replaces-dim-0", '''
def gather_loops(x, dim, index):
    out = np.empty(index.shape, dtype=x.dtype)
    for position in np.ndindex(*index.shape):
        source = list(position)
        source[0] = index[position]
        out[position] = x[tuple(source)]
    return out
''', nudge="Which coordinate of the position does the index value replace: always the first, or the one along dim?"),
    Mutant("gather_loops", "output-shaped-like-x-along-other-dims", '''
def gather_loops(x, dim, index):
    shape = list(x.shape)
    shape[dim] = index.shape[dim]
    out = np.empty(shape, dtype=x.dtype)
    for position in np.ndindex(*shape):
        source = list(position)
        source[dim] = index[position]
        out[position] = x[tuple(source)]
    return out
''', nudge="Whose shape does the output take in the dims other than dim: x's or index's?"),
    Mutant("gather_loops", "float-output", '''
def gather_loops(x, dim, index):
    out = np.zeros(index.shape)
    for position in np.ndindex(*index.shape):
        source = list(position)
        source[dim] = index[position]
        out[position] = x[tuple(source)]
    return out
''', nudge="What dtype does an array allocated without naming one get, and is it x's dtype?"),
    Mutant("gather_loops", "list-then-array-loses-dtype-when-empty", '''
def gather_loops(x, dim, index):
    values = []
    for position in np.ndindex(*index.shape):
        source = list(position)
        source[dim] = index[position]
        values.append(x[tuple(source)])
    return np.array(values).reshape(index.shape)
''', nudge="When index has a size-0 dim, what dtype does an array built from an empty list get?"),
    Mutant("gather_loops", "only-2d", '''
def gather_loops(x, dim, index):
    out = np.empty(index.shape, dtype=x.dtype)
    for i in range(index.shape[0]):
        for j in range(index.shape[1]):
            out[i, j] = x[index[i, j], j] if dim == 0 else x[i, index[i, j]]
    return out
''', nudge="Does your loop handle an x of 1 or 3 dims, not only 2?"),
    Mutant("gather_loops", "negative-dim-never-matches", '''
def gather_loops(x, dim, index):
    out = np.empty(index.shape, dtype=x.dtype)
    for position in np.ndindex(*index.shape):
        source = []
        for d in range(x.ndim):
            source.append(index[position] if d == dim else position[d])
        out[position] = x[tuple(source)]
    return out
''', nudge="When dim is negative, does the loop's dim counter ever equal it?"),
    Mutant("gather_loops", "scatters-instead-of-gathering", '''
def gather_loops(x, dim, index):
    out = np.zeros(index.shape, dtype=x.dtype)
    for position in np.ndindex(*index.shape):
        target = list(position)
        target[dim] = index[position]
        out[tuple(target)] = x[position]
    return out
''', nudge="Does gather read from x at the index, or write into the output there?"),
    Mutant("gather_loops", "storage-position-from-strides", '''
def gather_loops(x, dim, index):
    storage = x.ravel()
    steps = [stride // x.itemsize for stride in x.strides]
    out = np.empty(index.shape, dtype=x.dtype)
    for position in np.ndindex(*index.shape):
        source = list(position)
        source[dim] = index[position]
        offset = 0
        for coordinate, step in zip(source, steps):
            offset += coordinate * step
        out[position] = storage[offset]
    return out
''', nudge="What does ravel give for a non-contiguous view, and do x's strides still describe that flat copy?"),
    Mutant("gather_loops", "index-read-as-flat-position", '''
def gather_loops(x, dim, index):
    out = np.empty(index.shape, dtype=x.dtype)
    for position in np.ndindex(*index.shape):
        out[position] = x.flat[index[position]]
    return out
''', nudge="Is an index value a position along dim, or a position in the flattened array?"),
    # --- scatter_add_loops --------------------------------------------------------------------
    Mutant("scatter_add_loops", "calls-tensorlab", '''
import tensorlab
def scatter_add_loops(x, dim, index, src):
    out = tensorlab.tensor(x).scatter_add(dim, tensorlab.tensor(index), tensorlab.tensor(src))
    return out.numpy()
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
    Mutant("scatter_add_loops", "overwrites-repeats", '''
def scatter_add_loops(x, dim, index, src):
    out = x.copy()
    for position in np.ndindex(*index.shape):
        target = list(position)
        target[dim] = index[position]
        out[tuple(target)] = src[position]
    return out
''', nudge="When two index values aim at the same element, does the second replace the first or add to it?"),
    Mutant("scatter_add_loops", "starts-from-zeros", '''
def scatter_add_loops(x, dim, index, src):
    out = np.zeros_like(x)
    for position in np.ndindex(*index.shape):
        target = list(position)
        target[dim] = index[position]
        out[tuple(target)] += src[position]
    return out
''', nudge="What does the result hold before anything is added to it?"),
    Mutant("scatter_add_loops", "writes-into-x", '''
def scatter_add_loops(x, dim, index, src):
    for position in np.ndindex(*index.shape):
        target = list(position)
        target[dim] = index[position]
        x[tuple(target)] += src[position]
    return x.copy()
''', nudge="Does your function leave x unchanged, as the statement asks?"),
    Mutant("scatter_add_loops", "loops-over-all-of-src", '''
def scatter_add_loops(x, dim, index, src):
    out = x.copy()
    for position in np.ndindex(*src.shape):
        target = list(position)
        target[dim] = index[position]
        out[tuple(target)] += src[position]
    return out
''', nudge="When src is bigger than index, which part of src takes part?"),
    Mutant("scatter_add_loops", "float-result", '''
def scatter_add_loops(x, dim, index, src):
    out = x.astype(float)
    for position in np.ndindex(*index.shape):
        target = list(position)
        target[dim] = index[position]
        out[tuple(target)] += src[position]
    return out
''', nudge="Which dtype must the result keep, when x is an int array?"),
    Mutant("scatter_add_loops", "reads-src-where-it-writes", '''
def scatter_add_loops(x, dim, index, src):
    out = x.copy()
    for position in np.ndindex(*index.shape):
        target = list(position)
        target[dim] = index[position]
        out[tuple(target)] += src[tuple(target)]
    return out
''', nudge="Which element of src goes with position p of index: the one at p, or the one at the target?"),
    Mutant("scatter_add_loops", "negative-dim-never-matches", '''
def scatter_add_loops(x, dim, index, src):
    out = x.copy()
    for position in np.ndindex(*index.shape):
        target = tuple(index[position] if d == dim else position[d] for d in range(x.ndim))
        out[target] += src[position]
    return out
''', nudge="When dim is negative, does the loop's dim counter ever equal it?"),
    Mutant("scatter_add_loops", "only-2d", '''
def scatter_add_loops(x, dim, index, src):
    out = x.copy()
    for i in range(index.shape[0]):
        for j in range(index.shape[1]):
            if dim == 0:
                out[index[i, j], j] += src[i, j]
            else:
                out[i, index[i, j]] += src[i, j]
    return out
''', nudge="Does your loop handle an x of 1 or 3 dims, not only 2?"),
    # --- gather_vectorised --------------------------------------------------------------------
    Mutant("gather_vectorised", "calls-tensorlab", '''
import tensorlab
def gather_vectorised(x, dim, index):
    return tensorlab.tensor(x).gather(dim, tensorlab.tensor(index)).numpy()
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
    Mutant("gather_vectorised", "list-comprehension", '''
def gather_vectorised(x, dim, index):
    def pick(position):
        source = list(position)
        source[dim] = index[position]
        return x[tuple(source)]
    return np.array([pick(p) for p in np.ndindex(*index.shape)], dtype=x.dtype).reshape(index.shape)
''', nudge="Is a comprehension any less a loop over elements than a for statement?"),
    Mutant("gather_vectorised", "np-vectorize", '''
def gather_vectorised(x, dim, index):
    def pick(*position):
        source = list(position)
        source[dim] = index[position]
        return x[tuple(source)]
    return np.vectorize(pick, otypes=[x.dtype])(*np.indices(index.shape))
''', nudge="Does NumPy's vectorize run whole-array code, or call your function once per element?"),
    Mutant("gather_vectorised", "map", '''
def gather_vectorised(x, dim, index):
    def pick(position):
        source = list(position)
        source[dim] = index[position]
        return x[tuple(source)]
    values = list(map(pick, np.ndindex(*index.shape)))
    return np.array(values, dtype=x.dtype).reshape(index.shape)
''', nudge="Is map any less a loop over elements than a for statement?"),
    Mutant("gather_vectorised", "callback-loop-through-sorted-key", '''
def gather_vectorised(x, dim, index):
    out = np.empty(index.shape, dtype=x.dtype)
    def read(flat_position):
        position = np.unravel_index(flat_position, index.shape)
        source = list(position)
        source[dim] = index[position]
        out[position] = x[tuple(source)]
        return flat_position
    sorted(range(index.size), key=read)
    return out
''', nudge="If sorting calls your function once per element, is that any less a loop over elements?"),
    Mutant("gather_vectorised", "index-in-the-last-dim", '''
def gather_vectorised(x, dim, index):
    coordinates = list(np.indices(index.shape, sparse=True))
    coordinates[-1] = index
    return x[tuple(coordinates)]
''', nudge="Which coordinate array does index replace: the last one, or the one along dim?"),
    Mutant("gather_vectorised", "grid-of-x-shape", '''
def gather_vectorised(x, dim, index):
    coordinates = list(np.indices(x.shape, sparse=True))
    coordinates[dim] = index
    return x[tuple(coordinates)]
''', nudge="Whose shape should the grid of coordinates have: x's or index's?"),
    Mutant("gather_vectorised", "storage-position-from-strides", '''
def gather_vectorised(x, dim, index):
    coordinates = list(np.indices(index.shape))
    coordinates[dim] = index
    steps = np.array(x.strides) // x.itemsize
    offsets = np.tensordot(steps, np.stack(coordinates), axes=1)
    return x.ravel()[offsets]
''', nudge="What does ravel give for a non-contiguous view, and do x's strides still describe that flat copy?"),
    Mutant("gather_vectorised", "transposed-coordinates", '''
def gather_vectorised(x, dim, index):
    coordinates = list(np.indices(index.shape, sparse=True))
    coordinates[dim] = index
    return x[tuple(coordinates[::-1])]
''', nudge="In which order must the coordinate arrays be listed to address x's dims?"),
    # --- scatter_add_vectorised ---------------------------------------------------------------
    Mutant("scatter_add_vectorised", "calls-torch", '''
import torch
def scatter_add_vectorised(x, dim, index, src):
    out = torch.from_numpy(x).scatter_add(dim, torch.from_numpy(index), torch.from_numpy(src))
    return out.numpy()
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
    Mutant("scatter_add_vectorised", "fancy-index-add-loses-repeats", '''
def scatter_add_vectorised(x, dim, index, src):
    out = x.copy()
    positions = np.indices(index.shape, sparse=True)
    coordinates = list(positions)
    coordinates[dim] = index
    out[tuple(coordinates)] += src[positions]
    return out
''', nudge="When several values aim at one element, does an in-place add through a fancy index add them all?"),
    Mutant("scatter_add_vectorised", "writes-into-x", '''
def scatter_add_vectorised(x, dim, index, src):
    positions = np.indices(index.shape, sparse=True)
    coordinates = list(positions)
    coordinates[dim] = index
    np.add.at(x, tuple(coordinates), src[positions])
    return x.copy()
''', nudge="Does your function leave x unchanged, as the statement asks?"),
    Mutant("scatter_add_vectorised", "whole-src", '''
def scatter_add_vectorised(x, dim, index, src):
    out = x.copy()
    coordinates = list(np.indices(index.shape, sparse=True))
    coordinates[dim] = index
    np.add.at(out, tuple(coordinates), src)
    return out
''', nudge="When src is bigger than index, which part of src goes with index?"),
    Mutant("scatter_add_vectorised", "np-vectorize", '''
def scatter_add_vectorised(x, dim, index, src):
    out = x.copy()
    def add(*position):
        target = list(position)
        target[dim] = index[position]
        out[tuple(target)] += src[position]
    np.vectorize(add, otypes=[object])(*np.indices(index.shape))
    return out
''', nudge="Does NumPy's vectorize run whole-array code, or call your function once per element?"),
    Mutant("scatter_add_vectorised", "callback-loop-through-sorted-key", '''
def scatter_add_vectorised(x, dim, index, src):
    out = x.copy()
    def add(flat_position):
        position = np.unravel_index(flat_position, index.shape)
        target = list(position)
        target[dim] = index[position]
        out[tuple(target)] += src[position]
        return flat_position
    sorted(range(index.size), key=add)
    return out
''', nudge="If sorting calls your function once per element, is that any less a loop over elements?"),
    Mutant("scatter_add_vectorised", "reads-src-where-it-writes", '''
def scatter_add_vectorised(x, dim, index, src):
    out = x.copy()
    coordinates = list(np.indices(index.shape, sparse=True))
    coordinates[dim] = index
    np.add.at(out, tuple(coordinates), src[tuple(coordinates)])
    return out
''', nudge="Which element of src goes with position p of index: the one at p, or the one at the target?"),
    Mutant("scatter_add_vectorised", "float-result", '''
def scatter_add_vectorised(x, dim, index, src):
    out = x.astype(float)
    positions = np.indices(index.shape, sparse=True)
    coordinates = list(positions)
    coordinates[dim] = index
    np.add.at(out, tuple(coordinates), src[positions])
    return out
''', nudge="Which dtype must the result keep, when x is an int array?"),
    Mutant("scatter_add_vectorised", "grid-of-x-shape", '''
def scatter_add_vectorised(x, dim, index, src):
    out = x.copy()
    positions = np.indices(x.shape, sparse=True)
    coordinates = list(positions)
    coordinates[dim] = index
    np.add.at(out, tuple(coordinates), src[positions])
    return out
''', nudge="Whose shape should the grid of coordinates have: x's or index's?"),
    Mutant("scatter_add_vectorised", "index-in-the-last-dim", '''
def scatter_add_vectorised(x, dim, index, src):
    out = x.copy()
    positions = np.indices(index.shape, sparse=True)
    coordinates = list(positions)
    coordinates[-1] = index
    np.add.at(out, tuple(coordinates), src[positions])
    return out
''', nudge="Which coordinate array does index replace: the last one, or the one along dim?"),
    Mutant("scatter_add_vectorised", "list-comprehension", '''
def scatter_add_vectorised(x, dim, index, src):
    out = x.copy()
    targets = [tuple(index[p] if d == dim else p[d] for d in range(x.ndim)) for p in np.ndindex(*index.shape)]
    values = [src[p] for p in np.ndindex(*index.shape)]
    np.add.at(out, tuple(np.array(targets, dtype=np.int64).T.reshape(x.ndim, -1)), np.array(values, dtype=x.dtype))
    return out
''', nudge="Is a comprehension any less a loop over elements than a for statement?"),
    Mutant("scatter_add_vectorised", "transposed-coordinates", '''
def scatter_add_vectorised(x, dim, index, src):
    out = x.copy()
    positions = np.indices(index.shape, sparse=True)
    coordinates = list(positions)
    coordinates[dim] = index
    np.add.at(out, tuple(coordinates[::-1]), src[positions])
    return out
''', nudge="In which order must the coordinate arrays be listed to address x's dims?"),
    # --- holes closed by issue 26: a result in x's memory, float64 sums of int64, helpers not on the list ---
    Mutant("scatter_add_loops", "returns-x-itself-when-nothing-is-added", '''
def scatter_add_loops(x, dim, index, src):
    if index.size == 0:
        return x
    out = x.copy()
    for position in np.ndindex(*index.shape):
        target = list(position)
        target[dim] = index[position]
        out[tuple(target)] += src[position]
    return out
''', nudge="When nothing is added, does your result share memory with x, when a new array is promised?"),
    Mutant("scatter_add_loops", "adds-in-float64", '''
def scatter_add_loops(x, dim, index, src):
    out = x.astype(np.float64)
    for position in np.ndindex(*index.shape):
        target = list(position)
        target[dim] = index[position]
        out[tuple(target)] += src[position]
    return out.astype(x.dtype)
''', nudge="Can float64 count by ones past 2**53, where int64 sums stay exact?"),
    Mutant("scatter_add_loops", "np-add-at-in-the-loops-part", '''
def scatter_add_loops(x, dim, index, src):
    out = x.copy()
    positions = np.indices(index.shape, sparse=True)
    coordinates = list(positions)
    coordinates[dim] = index
    np.add.at(out, tuple(coordinates), src[positions])
    return out
''', nudge="This part asks for the rule written out with loops: is NumPy's add.at on its list of what you may use?"),
    Mutant("scatter_add_vectorised", "returns-x-itself-when-nothing-is-added", '''
def scatter_add_vectorised(x, dim, index, src):
    if index.size == 0:
        return x
    out = x.copy()
    positions = np.indices(index.shape, sparse=True)
    coordinates = list(positions)
    coordinates[dim] = index
    np.add.at(out, tuple(coordinates), src[positions])
    return out
''', nudge="When nothing is added, does your result share memory with x, when a new array is promised?"),
    Mutant("scatter_add_vectorised", "adds-in-float64", '''
def scatter_add_vectorised(x, dim, index, src):
    out = x.astype(np.float64)
    positions = np.indices(index.shape, sparse=True)
    coordinates = list(positions)
    coordinates[dim] = index
    np.add.at(out, tuple(coordinates), src[positions])
    return out.astype(x.dtype)
''', nudge="Can float64 count by ones past 2**53, where int64 sums stay exact?"),
    Mutant("scatter_add_vectorised", "bincount-with-weights", '''
def scatter_add_vectorised(x, dim, index, src):
    positions = np.unravel_index(np.arange(index.size), index.shape)
    targets = list(positions)
    targets[dim] = index.reshape(-1)
    flat = np.ravel_multi_index(tuple(targets), x.shape)
    sums = np.bincount(flat, weights=src[positions], minlength=x.size)
    return (x + sums.reshape(x.shape)).astype(x.dtype)
''', nudge="Is NumPy's bincount on this part's list, and in which dtype does it add up weights?"),
    Mutant("gather_vectorised", "sliding-window-view-of-x", '''
def gather_vectorised(x, dim, index):
    windows = np.lib.stride_tricks.sliding_window_view(x, 1, axis=dim)[..., 0]
    coordinates = list(np.indices(index.shape, sparse=True))
    coordinates[dim] = index
    return windows[tuple(coordinates)]
''', nudge="Is NumPy's sliding window view on this part's list of what you may use?"),
]
