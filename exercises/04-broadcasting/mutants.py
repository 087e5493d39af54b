"""Mutants of exercise 04 (broadcasting): plausible wrong versions of each graded function."""

from tensorlab.grading.tasks import Mutant

# The right clash check of broadcast_add, shared by the mutants that get something else wrong.
ADD_CHECK = '''
def broadcast_add(a, b):
    ndim = max(a.ndim, b.ndim)
    shape_a = (1,) * (ndim - a.ndim) + a.shape
    shape_b = (1,) * (ndim - b.ndim) + b.shape
    for dim in reversed(range(ndim)):
        size_a, size_b = shape_a[dim], shape_b[dim]
        if size_a != size_b and 1 not in (size_a, size_b):
            raise RuntimeError(
                f"The size of tensor a ({size_a}) must match the size of tensor b ({size_b}) "
                f"at non-singleton dimension {dim}"
            )
'''

# The right strides of expand_to, for the mutants that only get the view itself wrong.
EXPAND_STRIDES = '''
def expand_to(x, shape):
    shape = tuple(shape)
    if len(shape) < x.ndim:
        raise RuntimeError("fewer dimensions")
    new = len(shape) - x.ndim
    strides = [0] * len(shape)
    for dim in reversed(range(len(shape))):
        if dim >= new:
            size, stride = x.shape[dim - new], x.strides[dim - new]
        else:
            size, stride = 1, shape[dim + 1] * strides[dim + 1] if dim + 1 < len(shape) else 0
        if size != shape[dim]:
            if size != 1:
                raise RuntimeError("clash")
            stride = 0
        strides[dim] = stride
'''

MUTANTS = [
    # --- broadcast_shape ------------------------------------------------------------------
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
''', nudge="On which side does the shorter shape get its 1s?"),
    Mutant("broadcast_shape", "sizes-through-floats", '''
import itertools
def broadcast_shape(a, b):
    shape = []
    for size_a, size_b in itertools.zip_longest(reversed(a), reversed(b), fillvalue=1):
        if size_a != size_b and 1 not in (size_a, size_b):
            raise RuntimeError("the shapes clash")
        shape.insert(0, int(max(size_a, size_b) * 1.0) if 0 not in (size_a, size_b) else 0)
    return tuple(shape)
''', nudge="How many digits of an int survive a trip through a float?"),
    Mutant("broadcast_shape", "calls-the-reference", '''
import tensorlab
def broadcast_shape(a, b):
    return tuple(tensorlab.broadcast_shapes(a, b))
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
    Mutant("broadcast_shape", "adds-arrays-of-those-shapes", '''
def broadcast_shape(a, b):
    try:
        return (np.zeros(a) + np.zeros(b)).shape
    except ValueError:
        raise RuntimeError("the shapes clash")
''', nudge="What happens when the shapes are far too large to allocate?"),
    Mutant("broadcast_shape", "adds-zero-stride-arrays", '''
def broadcast_shape(a, b):
    def free(shape):
        return np.lib.stride_tricks.as_strided(np.zeros(1), shape, (0,) * len(shape))
    try:
        return tuple(int(size) for size in (free(a) + free(b)).shape)
    except ValueError:
        raise RuntimeError("the shapes clash")
''', nudge="Does this part let you build arrays of these shapes, or must the answer come from the shapes alone?"),
    Mutant("broadcast_shape", "numpy-broadcast-object", '''
def broadcast_shape(a, b):
    empty = np.lib.stride_tricks.as_strided(np.zeros(1), a, (0,) * len(a))
    other = np.lib.stride_tricks.as_strided(np.zeros(1), b, (0,) * len(b))
    try:
        return tuple(np.broadcast(empty, other).shape)
    except ValueError:
        raise RuntimeError("the shapes clash")
''', nudge="Which NumPy helpers does the statement rule out for this part?"),
    Mutant("broadcast_shape", "allocates-ones-of-those-shapes", '''
def broadcast_shape(a, b):
    try:
        return tuple(int(size) for size in (np.ones(a, dtype=bool) & np.ones(b, dtype=bool)).shape)
    except ValueError:
        raise RuntimeError("the shapes clash") from None
''', nudge="What happens when the shapes are far too large to allocate?"),
    Mutant("broadcast_shape", "larger-size-wins", '''
def broadcast_shape(a, b):
    ndim = max(len(a), len(b))
    a = (1,) * (ndim - len(a)) + tuple(a)
    b = (1,) * (ndim - len(b)) + tuple(b)
    shape = []
    for size_a, size_b in zip(a, b):
        if size_a != size_b and 1 not in (size_a, size_b):
            raise RuntimeError("clash")
        shape.append(max(size_a, size_b))
    return tuple(shape)
''', nudge="When a size 1 meets a size 0, which one is stretched to fit the other?"),
    Mutant("broadcast_shape", "zero-stretches-like-one", '''
def broadcast_shape(a, b):
    ndim = max(len(a), len(b))
    a = (1,) * (ndim - len(a)) + tuple(a)
    b = (1,) * (ndim - len(b)) + tuple(b)
    shape = []
    for size_a, size_b in zip(a, b):
        if size_a != size_b and min(size_a, size_b) > 1:
            raise RuntimeError("clash")
        shape.append(size_a if size_b <= 1 else size_b)
    return tuple(shape)
''', nudge="Can a size 0 stretch to meet a 3, as a size 1 can?"),
    Mutant("broadcast_shape", "zip-drops-the-longer-shapes-leading-dims", '''
def broadcast_shape(a, b):
    shape = []
    for size_a, size_b in zip(reversed(a), reversed(b)):
        if size_a != size_b and 1 not in (size_a, size_b):
            raise RuntimeError("clash")
        shape.append(size_a if size_b == 1 else size_b)
    return tuple(reversed(shape))
''', nudge="When one shape is longer, what becomes of its extra leading dims as you zip the two together?"),
    Mutant("broadcast_shape", "returns-a-list", '''
def broadcast_shape(a, b):
    ndim = max(len(a), len(b))
    a = (1,) * (ndim - len(a)) + tuple(a)
    b = (1,) * (ndim - len(b)) + tuple(b)
    shape = []
    for size_a, size_b in zip(a, b):
        if size_a != size_b and 1 not in (size_a, size_b):
            raise RuntimeError("clash")
        shape.append(size_a if size_b == 1 else size_b)
    return shape
''', nudge="Does a list compare equal to the tuple the statement asks for?"),
    Mutant("broadcast_shape", "numpy-ints-and-no-clash-check", '''
def broadcast_shape(a, b):
    ndim = max(len(a), len(b))
    a = np.array((1,) * (ndim - len(a)) + tuple(a), dtype=np.int64)
    b = np.array((1,) * (ndim - len(b)) + tuple(b), dtype=np.int64)
    return tuple(np.where(a == 1, b, a))
''', nudge="What should happen when two sizes clash, and are your sizes plain Python ints?"),
    Mutant("broadcast_shape", "raises-value-error", '''
def broadcast_shape(a, b):
    ndim = max(len(a), len(b))
    a = (1,) * (ndim - len(a)) + tuple(a)
    b = (1,) * (ndim - len(b)) + tuple(b)
    shape = []
    for size_a, size_b in zip(a, b):
        if size_a != size_b and 1 not in (size_a, size_b):
            raise ValueError("the shapes clash")
        shape.append(size_a if size_b == 1 else size_b)
    return tuple(shape)
''', nudge="Which exception type does torch raise for shapes that clash?"),
    # --- broadcast_add --------------------------------------------------------------------
    Mutant("broadcast_add", "numpy-error", '''
def broadcast_add(a, b):
    return np.asarray(a + b)
''', nudge="When the shapes clash, whose error should come out: NumPy's or torch's?"),
    Mutant("broadcast_add", "calls-the-reference", '''
import tensorlab
def broadcast_add(a, b):
    return (tensorlab.tensor(a) + tensorlab.tensor(b)).numpy()
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
    Mutant("broadcast_add", "rewords-numpys-error", '''
def broadcast_add(a, b):
    try:
        return np.asarray(a + b)
    except ValueError as error:
        raise RuntimeError(str(error)) from None
''', nudge="Does NumPy's message say what torch's says, word for word?"),
    Mutant("broadcast_add", "numpy-scalar-for-0-d-inputs", ADD_CHECK + '''
    return a + b
''', nudge="What type does NumPy's a + b return when both inputs are 0-d, and is that an array?"),
    Mutant("broadcast_add", "returns-a-when-b-adds-nothing", ADD_CHECK + '''
    total = np.asarray(a + b)
    if total.shape == a.shape and (total == a).all():
        return a
    return total
''', nudge="If the caller later writes into your result, which array changes with it?"),
    Mutant("broadcast_add", "reports-the-leftmost-clash", ADD_CHECK.replace("reversed(range(ndim))", "range(ndim)") + '''
    return np.asarray(a + b)
''', nudge="When several dims clash, which one does torch report?"),
    Mutant("broadcast_add", "counts-the-dimension-from-the-right", ADD_CHECK.replace(
        "non-singleton dimension {dim}", "non-singleton dimension {dim - ndim}") + '''
    return np.asarray(a + b)
''', nudge="From which end of the broadcast result does torch count the dimension it names?"),
    Mutant("broadcast_add", "counts-the-dimension-in-a", ADD_CHECK.replace(
        "non-singleton dimension {dim}", "non-singleton dimension {dim - (ndim - a.ndim)}") + '''
    return np.asarray(a + b)
''', nudge="In which shape does torch count the dimension it names: a's own, or the padded broadcast result's?"),
    Mutant("broadcast_add", "sizes-in-the-wrong-order", ADD_CHECK.replace(
        "tensor a ({size_a}) must match the size of tensor b ({size_b})",
        "tensor a ({size_b}) must match the size of tensor b ({size_a})") + '''
    return np.asarray(a + b)
''', nudge="Which tensor's size does torch's message name first?"),
    Mutant("broadcast_add", "only-checks-the-last-two-dims", '''
def broadcast_add(a, b):
    ndim = max(a.ndim, b.ndim)
    shape_a = (1,) * (ndim - a.ndim) + a.shape
    shape_b = (1,) * (ndim - b.ndim) + b.shape
    for dim in reversed(range(max(ndim - 2, 0), ndim)):
        size_a, size_b = shape_a[dim], shape_b[dim]
        if size_a != size_b and 1 not in (size_a, size_b):
            raise RuntimeError(
                f"The size of tensor a ({size_a}) must match the size of tensor b ({size_b}) "
                f"at non-singleton dimension {dim}"
            )
    return np.asarray(a + b)
''', nudge="Can a clash hide in a dim further left than the last two?"),
    Mutant("broadcast_add", "zero-stretches-like-one", ADD_CHECK.replace(
        "1 not in (size_a, size_b)", "min(size_a, size_b) > 1") + '''
    return np.asarray(a + b)
''', nudge="Can a size 0 stretch to meet a 3, as a size 1 can?"),
    Mutant("broadcast_add", "always-floats", ADD_CHECK + '''
    return np.asarray(a + b, dtype=np.float64)
''', nudge="Which dtype should the sum of two integer arrays have?"),
    Mutant("broadcast_add", "adds-into-a", ADD_CHECK + '''
    if a.shape == (a + b).shape:
        a += b
        return a
    return np.asarray(a + b)
''', nudge="Is a yours to change, or should the caller find it as it was?"),
    # --- expand_to ------------------------------------------------------------------------
    Mutant("expand_to", "copies-with-repeat", '''
def expand_to(x, shape):
    if len(shape) < x.ndim:
        raise RuntimeError("fewer dimensions")
    x = x.reshape((1,) * (len(shape) - x.ndim) + x.shape)
    for dim, (size, target) in enumerate(zip(x.shape, shape)):
        if size != target:
            if size != 1:
                raise RuntimeError("clash")
            x = np.repeat(x, target, axis=dim)
    return x
''', nudge="Does your result share the memory of x, or did you copy every element?"),
    Mutant("expand_to", "calls-the-reference", '''
import tensorlab
def expand_to(x, shape):
    return tensorlab.tensor(x).expand(shape).numpy()
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
    Mutant("expand_to", "calls-broadcast-to", '''
def expand_to(x, shape):
    return np.broadcast_to(x, shape)
''', nudge="Which NumPy helpers does the statement rule out for this part?"),
    Mutant("expand_to", "copies-the-view-with-np-array", EXPAND_STRIDES + '''
    return np.array(np.lib.stride_tricks.as_strided(x, shape, strides))
''', nudge="After you built the view, does the array you return still share the memory of x?"),
    Mutant("expand_to", "stride-0-for-every-size-1-dim-of-x", EXPAND_STRIDES.replace(
        "if size != shape[dim]:", "if size != shape[dim] or (dim >= new and size == 1):") + '''
    return np.lib.stride_tricks.as_strided(x, shape, strides)
''', nudge="A size-1 dim whose target size is also 1 is not stretched: which stride does torch keep for it?"),
    Mutant("expand_to", "zero-stride-for-every-new-dim", '''
def expand_to(x, shape):
    shape = tuple(shape)
    if len(shape) < x.ndim:
        raise RuntimeError("fewer dimensions")
    new = len(shape) - x.ndim
    strides = [0] * new
    for size, target, stride in zip(x.shape, shape[new:], x.strides):
        if size != target and size != 1:
            raise RuntimeError("clash")
        strides.append(stride if size == target else 0)
    return np.lib.stride_tricks.as_strided(x, shape, strides)
''', nudge="A new leading dim of target size 1 is not stretched: which stride does torch give it?"),
    Mutant("expand_to", "assumes-x-is-contiguous", '''
def contiguous_stride(x, dim):
    stride = x.itemsize
    for size in x.shape[dim + 1:]:
        stride *= size
    return stride
''' + EXPAND_STRIDES.replace("x.strides[dim - new]", "contiguous_stride(x, dim - new)") + '''
    return np.lib.stride_tricks.as_strided(x, shape, strides)
''', nudge="When x is a non-contiguous view, do its strides still follow from its shape alone?"),
    Mutant("expand_to", "keeps-the-stride-of-a-stretched-dim", EXPAND_STRIDES.replace("stride = 0\n", "pass\n") + '''
    return np.lib.stride_tricks.as_strided(x, shape, strides)
''', nudge="How can every index along a stretched dim read the same element if its stride still moves?"),
    Mutant("expand_to", "strides-in-elements", EXPAND_STRIDES + '''
    return np.lib.stride_tricks.as_strided(x, shape, [stride // x.itemsize for stride in strides])
''', nudge="Does as_strided count its strides in elements, or in bytes like the strides of x?"),
    Mutant("expand_to", "no-fewer-dims-check", EXPAND_STRIDES.replace(
        'raise RuntimeError("fewer dimensions")', "x = x[(0,) * (x.ndim - len(shape))]") + '''
    return np.lib.stride_tricks.as_strided(x, shape, strides)
''', nudge="What should happen when the target shape has fewer dims than x?"),
    Mutant("expand_to", "zero-stretches-like-one", EXPAND_STRIDES.replace("if size != 1:", "if size > 1:") + '''
    return np.lib.stride_tricks.as_strided(x, shape, strides)
''', nudge="Can a size 0 be stretched to a larger size, as a size 1 can?"),
    Mutant("expand_to", "raises-value-error", EXPAND_STRIDES.replace("RuntimeError", "ValueError") + '''
    return np.lib.stride_tricks.as_strided(x, shape, strides)
''', nudge="Which exception type does torch raise when x cannot be expanded?"),
    Mutant("expand_to", "reshapes-x-in-place", '''
def expand_to(x, shape):
    shape = tuple(shape)
    if len(shape) < x.ndim:
        raise RuntimeError("fewer dimensions")
    x.shape = (1,) * (len(shape) - x.ndim) + x.shape
    strides = []
    for size, target, stride in zip(x.shape, shape, x.strides):
        if size != target and size != 1:
            raise RuntimeError("clash")
        strides.append(stride if size == target else 0)
    return np.lib.stride_tricks.as_strided(x, shape, strides)
''', nudge="Does setting the shape attribute of x leave the caller's array as it was?"),
    Mutant("expand_to", "casts-to-float", EXPAND_STRIDES + '''
    return np.lib.stride_tricks.as_strided(x * 1.0, shape, strides)
''', nudge="Does multiplying x by a float keep its dtype, and its memory?"),
]
