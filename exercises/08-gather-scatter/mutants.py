"""Mutants of exercise 08 (gather and scatter_add): plausible wrong versions of each graded function."""

from tensorlab.grading.tasks import Mutant

MUTANTS = [
    # --- gather_loops -------------------------------------------------------------------------
    Mutant("gather_loops", "calls-torch", '''
import torch
def gather_loops(x, dim, index):
    return torch.gather(torch.from_numpy(x), dim, torch.from_numpy(index)).numpy()
'''),
    Mutant("gather_loops", "always-replaces-dim-0", '''
def gather_loops(x, dim, index):
    out = np.empty(index.shape, dtype=x.dtype)
    for position in np.ndindex(*index.shape):
        source = list(position)
        source[0] = index[position]
        out[position] = x[tuple(source)]
    return out
'''),
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
'''),
    Mutant("gather_loops", "float-output", '''
def gather_loops(x, dim, index):
    out = np.zeros(index.shape)
    for position in np.ndindex(*index.shape):
        source = list(position)
        source[dim] = index[position]
        out[position] = x[tuple(source)]
    return out
'''),
    Mutant("gather_loops", "list-then-array-loses-dtype-when-empty", '''
def gather_loops(x, dim, index):
    values = []
    for position in np.ndindex(*index.shape):
        source = list(position)
        source[dim] = index[position]
        values.append(x[tuple(source)])
    return np.array(values).reshape(index.shape)
'''),
    Mutant("gather_loops", "only-2d", '''
def gather_loops(x, dim, index):
    out = np.empty(index.shape, dtype=x.dtype)
    for i in range(index.shape[0]):
        for j in range(index.shape[1]):
            out[i, j] = x[index[i, j], j] if dim == 0 else x[i, index[i, j]]
    return out
'''),
    Mutant("gather_loops", "negative-dim-never-matches", '''
def gather_loops(x, dim, index):
    out = np.empty(index.shape, dtype=x.dtype)
    for position in np.ndindex(*index.shape):
        source = []
        for d in range(x.ndim):
            source.append(index[position] if d == dim else position[d])
        out[position] = x[tuple(source)]
    return out
'''),
    Mutant("gather_loops", "scatters-instead-of-gathering", '''
def gather_loops(x, dim, index):
    out = np.zeros(index.shape, dtype=x.dtype)
    for position in np.ndindex(*index.shape):
        target = list(position)
        target[dim] = index[position]
        out[tuple(target)] = x[position]
    return out
'''),
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
'''),
    Mutant("gather_loops", "index-read-as-flat-position", '''
def gather_loops(x, dim, index):
    out = np.empty(index.shape, dtype=x.dtype)
    for position in np.ndindex(*index.shape):
        out[position] = x.flat[index[position]]
    return out
'''),
    # --- scatter_add_loops --------------------------------------------------------------------
    Mutant("scatter_add_loops", "calls-tensorlab", '''
import tensorlab
def scatter_add_loops(x, dim, index, src):
    out = tensorlab.tensor(x).scatter_add(dim, tensorlab.tensor(index), tensorlab.tensor(src))
    return out.numpy()
'''),
    Mutant("scatter_add_loops", "overwrites-repeats", '''
def scatter_add_loops(x, dim, index, src):
    out = x.copy()
    for position in np.ndindex(*index.shape):
        target = list(position)
        target[dim] = index[position]
        out[tuple(target)] = src[position]
    return out
'''),
    Mutant("scatter_add_loops", "starts-from-zeros", '''
def scatter_add_loops(x, dim, index, src):
    out = np.zeros_like(x)
    for position in np.ndindex(*index.shape):
        target = list(position)
        target[dim] = index[position]
        out[tuple(target)] += src[position]
    return out
'''),
    Mutant("scatter_add_loops", "writes-into-x", '''
def scatter_add_loops(x, dim, index, src):
    for position in np.ndindex(*index.shape):
        target = list(position)
        target[dim] = index[position]
        x[tuple(target)] += src[position]
    return x.copy()
'''),
    Mutant("scatter_add_loops", "loops-over-all-of-src", '''
def scatter_add_loops(x, dim, index, src):
    out = x.copy()
    for position in np.ndindex(*src.shape):
        target = list(position)
        target[dim] = index[position]
        out[tuple(target)] += src[position]
    return out
'''),
    Mutant("scatter_add_loops", "float-result", '''
def scatter_add_loops(x, dim, index, src):
    out = x.astype(float)
    for position in np.ndindex(*index.shape):
        target = list(position)
        target[dim] = index[position]
        out[tuple(target)] += src[position]
    return out
'''),
    Mutant("scatter_add_loops", "reads-src-where-it-writes", '''
def scatter_add_loops(x, dim, index, src):
    out = x.copy()
    for position in np.ndindex(*index.shape):
        target = list(position)
        target[dim] = index[position]
        out[tuple(target)] += src[tuple(target)]
    return out
'''),
    Mutant("scatter_add_loops", "negative-dim-never-matches", '''
def scatter_add_loops(x, dim, index, src):
    out = x.copy()
    for position in np.ndindex(*index.shape):
        target = tuple(index[position] if d == dim else position[d] for d in range(x.ndim))
        out[target] += src[position]
    return out
'''),
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
'''),
    # --- gather_vectorised --------------------------------------------------------------------
    Mutant("gather_vectorised", "calls-tensorlab", '''
import tensorlab
def gather_vectorised(x, dim, index):
    return tensorlab.tensor(x).gather(dim, tensorlab.tensor(index)).numpy()
'''),
    Mutant("gather_vectorised", "list-comprehension", '''
def gather_vectorised(x, dim, index):
    def pick(position):
        source = list(position)
        source[dim] = index[position]
        return x[tuple(source)]
    return np.array([pick(p) for p in np.ndindex(*index.shape)], dtype=x.dtype).reshape(index.shape)
'''),
    Mutant("gather_vectorised", "np-vectorize", '''
def gather_vectorised(x, dim, index):
    def pick(*position):
        source = list(position)
        source[dim] = index[position]
        return x[tuple(source)]
    return np.vectorize(pick, otypes=[x.dtype])(*np.indices(index.shape))
'''),
    Mutant("gather_vectorised", "map", '''
def gather_vectorised(x, dim, index):
    def pick(position):
        source = list(position)
        source[dim] = index[position]
        return x[tuple(source)]
    values = list(map(pick, np.ndindex(*index.shape)))
    return np.array(values, dtype=x.dtype).reshape(index.shape)
'''),
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
'''),
    Mutant("gather_vectorised", "index-in-the-last-dim", '''
def gather_vectorised(x, dim, index):
    coordinates = list(np.indices(index.shape, sparse=True))
    coordinates[-1] = index
    return x[tuple(coordinates)]
'''),
    Mutant("gather_vectorised", "grid-of-x-shape", '''
def gather_vectorised(x, dim, index):
    coordinates = list(np.indices(x.shape, sparse=True))
    coordinates[dim] = index
    return x[tuple(coordinates)]
'''),
    Mutant("gather_vectorised", "storage-position-from-strides", '''
def gather_vectorised(x, dim, index):
    coordinates = list(np.indices(index.shape))
    coordinates[dim] = index
    steps = np.array(x.strides) // x.itemsize
    offsets = np.tensordot(steps, np.stack(coordinates), axes=1)
    return x.ravel()[offsets]
'''),
    Mutant("gather_vectorised", "transposed-coordinates", '''
def gather_vectorised(x, dim, index):
    coordinates = list(np.indices(index.shape, sparse=True))
    coordinates[dim] = index
    return x[tuple(coordinates[::-1])]
'''),
    # --- scatter_add_vectorised ---------------------------------------------------------------
    Mutant("scatter_add_vectorised", "calls-torch", '''
import torch
def scatter_add_vectorised(x, dim, index, src):
    out = torch.from_numpy(x).scatter_add(dim, torch.from_numpy(index), torch.from_numpy(src))
    return out.numpy()
'''),
    Mutant("scatter_add_vectorised", "fancy-index-add-loses-repeats", '''
def scatter_add_vectorised(x, dim, index, src):
    out = x.copy()
    positions = np.indices(index.shape, sparse=True)
    coordinates = list(positions)
    coordinates[dim] = index
    out[tuple(coordinates)] += src[positions]
    return out
'''),
    Mutant("scatter_add_vectorised", "writes-into-x", '''
def scatter_add_vectorised(x, dim, index, src):
    positions = np.indices(index.shape, sparse=True)
    coordinates = list(positions)
    coordinates[dim] = index
    np.add.at(x, tuple(coordinates), src[positions])
    return x.copy()
'''),
    Mutant("scatter_add_vectorised", "whole-src", '''
def scatter_add_vectorised(x, dim, index, src):
    out = x.copy()
    coordinates = list(np.indices(index.shape, sparse=True))
    coordinates[dim] = index
    np.add.at(out, tuple(coordinates), src)
    return out
'''),
    Mutant("scatter_add_vectorised", "np-vectorize", '''
def scatter_add_vectorised(x, dim, index, src):
    out = x.copy()
    def add(*position):
        target = list(position)
        target[dim] = index[position]
        out[tuple(target)] += src[position]
    np.vectorize(add, otypes=[object])(*np.indices(index.shape))
    return out
'''),
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
'''),
    Mutant("scatter_add_vectorised", "reads-src-where-it-writes", '''
def scatter_add_vectorised(x, dim, index, src):
    out = x.copy()
    coordinates = list(np.indices(index.shape, sparse=True))
    coordinates[dim] = index
    np.add.at(out, tuple(coordinates), src[tuple(coordinates)])
    return out
'''),
    Mutant("scatter_add_vectorised", "float-result", '''
def scatter_add_vectorised(x, dim, index, src):
    out = x.astype(float)
    positions = np.indices(index.shape, sparse=True)
    coordinates = list(positions)
    coordinates[dim] = index
    np.add.at(out, tuple(coordinates), src[positions])
    return out
'''),
    Mutant("scatter_add_vectorised", "grid-of-x-shape", '''
def scatter_add_vectorised(x, dim, index, src):
    out = x.copy()
    positions = np.indices(x.shape, sparse=True)
    coordinates = list(positions)
    coordinates[dim] = index
    np.add.at(out, tuple(coordinates), src[positions])
    return out
'''),
    Mutant("scatter_add_vectorised", "index-in-the-last-dim", '''
def scatter_add_vectorised(x, dim, index, src):
    out = x.copy()
    positions = np.indices(index.shape, sparse=True)
    coordinates = list(positions)
    coordinates[-1] = index
    np.add.at(out, tuple(coordinates), src[positions])
    return out
'''),
    Mutant("scatter_add_vectorised", "list-comprehension", '''
def scatter_add_vectorised(x, dim, index, src):
    out = x.copy()
    targets = [tuple(index[p] if d == dim else p[d] for d in range(x.ndim)) for p in np.ndindex(*index.shape)]
    values = [src[p] for p in np.ndindex(*index.shape)]
    np.add.at(out, tuple(np.array(targets, dtype=np.int64).T.reshape(x.ndim, -1)), np.array(values, dtype=x.dtype))
    return out
'''),
    Mutant("scatter_add_vectorised", "transposed-coordinates", '''
def scatter_add_vectorised(x, dim, index, src):
    out = x.copy()
    positions = np.indices(index.shape, sparse=True)
    coordinates = list(positions)
    coordinates[dim] = index
    np.add.at(out, tuple(coordinates[::-1]), src[positions])
    return out
'''),
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
'''),
    Mutant("scatter_add_loops", "adds-in-float64", '''
def scatter_add_loops(x, dim, index, src):
    out = x.astype(np.float64)
    for position in np.ndindex(*index.shape):
        target = list(position)
        target[dim] = index[position]
        out[tuple(target)] += src[position]
    return out.astype(x.dtype)
'''),
    Mutant("scatter_add_loops", "np-add-at-in-the-loops-part", '''
def scatter_add_loops(x, dim, index, src):
    out = x.copy()
    positions = np.indices(index.shape, sparse=True)
    coordinates = list(positions)
    coordinates[dim] = index
    np.add.at(out, tuple(coordinates), src[positions])
    return out
'''),
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
'''),
    Mutant("scatter_add_vectorised", "adds-in-float64", '''
def scatter_add_vectorised(x, dim, index, src):
    out = x.astype(np.float64)
    positions = np.indices(index.shape, sparse=True)
    coordinates = list(positions)
    coordinates[dim] = index
    np.add.at(out, tuple(coordinates), src[positions])
    return out.astype(x.dtype)
'''),
    Mutant("scatter_add_vectorised", "bincount-with-weights", '''
def scatter_add_vectorised(x, dim, index, src):
    positions = np.unravel_index(np.arange(index.size), index.shape)
    targets = list(positions)
    targets[dim] = index.reshape(-1)
    flat = np.ravel_multi_index(tuple(targets), x.shape)
    sums = np.bincount(flat, weights=src[positions], minlength=x.size)
    return (x + sums.reshape(x.shape)).astype(x.dtype)
'''),
    Mutant("gather_vectorised", "sliding-window-view-of-x", '''
def gather_vectorised(x, dim, index):
    windows = np.lib.stride_tricks.sliding_window_view(x, 1, axis=dim)[..., 0]
    coordinates = list(np.indices(index.shape, sparse=True))
    coordinates[dim] = index
    return windows[tuple(coordinates)]
'''),
]
