"""Correct answers of exercise 04 (broadcasting) written other ways than the solution: each must keep full marks."""

from tensorlab.grading import Alternative

ALTERNATIVES = [
    Alternative("broadcast_shape", "zip-longest-and-set-without-1", '''
from itertools import zip_longest


def broadcast_shape(a, b):
    """The shape of a + b, for tensors of shapes a and b."""
    result = []
    for size_a, size_b in zip_longest(reversed(a), reversed(b), fillvalue=1):
        others = {size_a, size_b} - {1}
        if len(others) > 1:
            raise RuntimeError(f"sizes {size_a} and {size_b} cannot be broadcast")
        result.append(others.pop() if others else 1)
    return tuple(reversed(result))
'''),
    Alternative("broadcast_shape", "recursion-on-the-last-dim", '''
def broadcast_shape(a, b):
    """The shape of a + b, for tensors of shapes a and b."""
    a, b = tuple(a), tuple(b)
    if not a:
        return b
    if not b:
        return a
    head = broadcast_shape(a[:-1], b[:-1])
    last_a, last_b = a[-1], b[-1]
    if last_a == last_b or last_b == 1:
        return head + (last_a,)
    if last_a == 1:
        return head + (last_b,)
    raise RuntimeError(f"sizes {last_a} and {last_b} cannot be broadcast")
'''),
    Alternative("broadcast_shape", "numpy-arrays-of-sizes", '''
def broadcast_shape(a, b):
    """The shape of a + b, for tensors of shapes a and b."""
    n = max(len(a), len(b))
    sizes_a = np.ones(n, dtype=np.int64)
    sizes_b = np.ones(n, dtype=np.int64)
    sizes_a[n - len(a):] = a
    sizes_b[n - len(b):] = b
    clash = (sizes_a != sizes_b) & (sizes_a != 1) & (sizes_b != 1)
    if clash.any():
        raise RuntimeError(f"shapes {a} and {b} cannot be broadcast")
    return tuple(np.where(sizes_a == 1, sizes_b, sizes_a).tolist())
'''),
    Alternative("broadcast_add", "try-numpy-then-explain-the-clash", '''
def broadcast_add(a, b):
    """a + b with torch's broadcasting error."""
    try:
        return np.asarray(np.add(a, b))
    except ValueError:
        pass
    ndim = max(a.ndim, b.ndim)
    for k in range(1, ndim + 1):  # from the right: the nearest clash is reported
        size_a = a.shape[-k] if k <= a.ndim else 1
        size_b = b.shape[-k] if k <= b.ndim else 1
        if size_a != size_b and size_a != 1 and size_b != 1:
            raise RuntimeError(f"The size of tensor a ({size_a}) must match the size of tensor b ({size_b}) "
                               f"at non-singleton dimension {ndim - k}")
    raise RuntimeError("shapes cannot be broadcast")
'''),
    Alternative("broadcast_add", "numpy-clash-mask-last-nonzero", '''
def broadcast_add(a, b):
    """a + b with torch's broadcasting error."""
    ndim = max(a.ndim, b.ndim)
    sizes_a = np.array((1,) * (ndim - a.ndim) + a.shape, dtype=np.int64)
    sizes_b = np.array((1,) * (ndim - b.ndim) + b.shape, dtype=np.int64)
    clashes = np.flatnonzero((sizes_a != sizes_b) & (sizes_a != 1) & (sizes_b != 1))
    if clashes.size:
        dim = int(clashes[-1])
        raise RuntimeError(f"The size of tensor a ({sizes_a[dim]}) must match the size of tensor b "
                           f"({sizes_b[dim]}) at non-singleton dimension {dim}")
    return np.asarray(a + b)  # a 0-d array, not the scalar NumPy gives for two 0-d inputs
'''),
    Alternative("expand_to", "numpy-where-for-own-dims-then-leading", '''
def expand_to(x, shape):
    """A view of x stretched to shape: stride 0 wherever one element is repeated, nothing copied."""
    shape = tuple(shape)
    new = len(shape) - x.ndim
    if new < 0:
        raise RuntimeError(f"cannot expand {x.shape} to fewer dims {shape}")
    have = np.array(x.shape, dtype=np.int64)
    want = np.array(shape[new:], dtype=np.int64)
    if np.any((have != want) & (have != 1)):
        raise RuntimeError(f"cannot expand {x.shape} to {shape}")
    own = np.where(have == want, np.array(x.strides, dtype=np.int64), 0)
    strides = own.tolist()
    for dim in range(new - 1, -1, -1):  # new leading dims, right to left
        if shape[dim] != 1:
            stride = 0
        elif dim + 1 < len(shape):
            stride = shape[dim + 1] * strides[0]
        else:
            stride = 0
        strides.insert(0, stride)
    return np.lib.stride_tricks.as_strided(x, shape=shape, strides=tuple(strides))
'''),
    Alternative("expand_to", "zip-longest-from-the-right", '''
from itertools import zip_longest


def expand_to(x, shape):
    """A view of x stretched to shape: stride 0 wherever one element is repeated, nothing copied."""
    if len(shape) < x.ndim:
        raise RuntimeError("expand: the target has fewer dims than x")
    reversed_strides = []
    right = None  # (size, stride) of the dim to the right
    for target, size, stride in zip_longest(reversed(shape), reversed(x.shape), reversed(x.strides)):
        if size is None:  # a new leading dim
            if target != 1 or right is None:
                stride = 0
            else:
                stride = right[0] * right[1]
        elif size != target:
            if size != 1:
                raise RuntimeError(f"expand: size {size} cannot become {target}")
            stride = 0
        reversed_strides.append(stride)
        right = (target, stride)
    return np.lib.stride_tricks.as_strided(x, tuple(shape), tuple(reversed(reversed_strides)))
'''),
]
