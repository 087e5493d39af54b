"""Correct answers of exercise 08 (gather and scatter_add) written other ways than the solution: each must keep full marks."""

from tensorlab.grading import Alternative

ALTERNATIVES = [
    # --- gather_loops -------------------------------------------------------------------------
    Alternative("gather_loops", "ndenumerate-with-tuple-splicing", '''
import numpy as np
def gather_loops(x, dim, index):
    d = dim % x.ndim
    out = np.zeros(index.shape, dtype=x.dtype)
    for position, value in np.ndenumerate(index):
        out[position] = x[position[:d] + (value,) + position[d + 1:]]
    return out
'''),
    Alternative("gather_loops", "loop-over-values-along-dim-with-where", '''
import numpy as np
def gather_loops(x, dim, index):
    d = dim if dim >= 0 else dim + x.ndim
    # only x's leading part in the dims other than d is ever read
    crop = []
    for axis in range(x.ndim):
        crop.append(slice(None) if axis == d else slice(0, index.shape[axis]))
    part = x[tuple(crop)]
    out = np.zeros(index.shape, dtype=x.dtype)
    for value in range(x.shape[d]):
        row = [slice(None)] * x.ndim
        row[d] = slice(value, value + 1)
        out = np.where(index == value, part[tuple(row)], out)
    return out
'''),
    Alternative("gather_loops", "moveaxis-then-nested-loops", '''
import numpy as np
def gather_loops(x, dim, index):
    moved_x = np.moveaxis(x, dim, 0)
    moved_index = np.moveaxis(index, dim, 0)
    moved_out = np.empty(moved_index.shape, dtype=x.dtype)
    for k in range(moved_index.shape[0]):
        for rest in np.ndindex(*moved_index.shape[1:]):
            moved_out[(k,) + rest] = moved_x[(moved_index[(k,) + rest],) + rest]
    return np.ascontiguousarray(np.moveaxis(moved_out, 0, dim))
'''),
    Alternative("gather_loops", "itertools-product-over-the-positions", '''
import itertools
import numpy as np
def gather_loops(x, dim, index):
    d = dim % x.ndim
    out = np.zeros(index.shape, dtype=x.dtype)
    for position in itertools.product(*[range(size) for size in index.shape]):
        source = position[:d] + (int(index[position]),) + position[d + 1:]
        out[position] = x[source]
    return out
'''),
    # --- scatter_add_loops --------------------------------------------------------------------
    Alternative("scatter_add_loops", "ndenumerate-with-tuple-splicing", '''
import numpy as np
def scatter_add_loops(x, dim, index, src):
    d = dim % x.ndim
    out = np.array(x, copy=True)
    for position, value in np.ndenumerate(index):
        target = position[:d] + (value,) + position[d + 1:]
        out[target] = out[target] + src[position]
    return out
'''),
    Alternative("scatter_add_loops", "loop-over-targets-sum-matching-src", '''
import numpy as np
def scatter_add_loops(x, dim, index, src):
    d = dim if dim >= 0 else dim + x.ndim
    block = src[tuple(slice(0, size) for size in index.shape)]
    crop = [slice(0, size) for size in index.shape]
    out = x.copy()
    for value in range(x.shape[d]):
        # everything aimed at slice `value` along d, summed along d
        aimed = np.where(index == value, block, np.zeros_like(block)).sum(axis=d, keepdims=True)
        crop[d] = slice(value, value + 1)
        out[tuple(crop)] += aimed
    return out
'''),
    Alternative("scatter_add_loops", "moveaxis-loop-over-index-slices-along-dim", '''
import numpy as np
def scatter_add_loops(x, dim, index, src):
    out = x.copy()
    moved_out = np.moveaxis(out, dim, 0)                   # a view: adding into it adds into out
    moved_index = np.moveaxis(index, dim, 0)
    block = src[tuple(slice(0, size) for size in index.shape)]
    moved_block = np.moveaxis(block, dim, 0)
    rest = tuple(np.indices(moved_index.shape[1:], sparse=True))
    for k in range(moved_index.shape[0]):
        # within one slice k every position of the other dims is distinct: no target repeats, so += is safe
        moved_out[(moved_index[k],) + rest] += moved_block[k]
    return out
'''),
    # --- gather_vectorised --------------------------------------------------------------------
    Alternative("gather_vectorised", "unravel-index-flat-coordinates", '''
import numpy as np
def gather_vectorised(x, dim, index):
    coordinates = list(np.unravel_index(np.arange(index.size), index.shape))
    coordinates[dim] = index.reshape(-1)
    return x[tuple(coordinates)].reshape(index.shape)
'''),
    Alternative("gather_vectorised", "dense-coordinate-grids-with-index-assigned", '''
import numpy as np
def gather_vectorised(x, dim, index):
    grids = np.indices(index.shape)                        # (ndim, *index.shape): every coordinate, written out
    grids[dim] = index                                     # the coordinates along dim come from index
    return x[tuple(grids)]
'''),
    # --- scatter_add_vectorised ---------------------------------------------------------------
    Alternative("scatter_add_vectorised", "flat-positions-and-add-at-on-a-flat-copy", '''
import numpy as np
def scatter_add_vectorised(x, dim, index, src):
    positions = np.unravel_index(np.arange(index.size), index.shape)
    values = src[positions]                                # src's leading block, flattened
    targets = list(positions)
    targets[dim] = index.reshape(-1)
    flat = np.ravel_multi_index(tuple(targets), x.shape)
    out = x.copy()
    view = out.reshape(-1)                                 # out is a fresh C-contiguous copy: a view
    np.add.at(view, flat, values)
    return out
'''),
    Alternative("scatter_add_vectorised", "moveaxis-views-then-add-at", '''
import numpy as np
def scatter_add_vectorised(x, dim, index, src):
    out = x.copy()
    moved_out = np.moveaxis(out, dim, 0)                   # a view: adding into it adds into out
    moved_index = np.moveaxis(index, dim, 0)
    block = src[np.indices(index.shape, sparse=True)]
    rest = list(np.indices(moved_index.shape, sparse=True))[1:]
    np.add.at(moved_out, (moved_index, *rest), np.moveaxis(block, dim, 0))
    return out
'''),
    Alternative("gather_vectorised", "moveaxis-dim-to-the-front", '''
def gather_vectorised(x, dim, index):
    """gather with advanced indexing, dim moved to the front and back."""
    front, positions = np.moveaxis(x, dim, 0), np.moveaxis(index, dim, 0)
    coordinates = list(np.indices(positions.shape, sparse=True))
    coordinates[0] = positions
    return np.moveaxis(front[tuple(coordinates)], 0, dim)
'''),
]
