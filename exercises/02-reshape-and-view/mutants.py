"""Mutants of exercise 02 (reshape and view): plausible wrong versions of each graded function."""

from tensorlab.grading.tasks import Mutant

MUTANTS = [
    # --- infer_shape ---------------------------------------------------------------------------
    Mutant('infer_shape', 'calls-the-reference', '''
import torch
def infer_shape(shape, numel):
    return tuple(torch.empty(numel).view(tuple(shape)).shape)
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
    Mutant('infer_shape', 'counts-the-minus-ones-first', '''
def infer_shape(shape, numel):
    """shape with its -1 (if any) replaced so that the sizes multiply to numel, or torch's error."""
    shape = tuple(shape)
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    inferred = None  # the index of the -1
    known = 1  # the product of the other sizes
    for index, size in enumerate(shape):
        if size == -1:
            if inferred is not None:
                raise RuntimeError("only one dimension can be inferred")
            inferred = index
        elif size < 0:
            raise RuntimeError(f"invalid shape dimension {size} at index {index} of shape {list(shape)}")
        else:
            known *= size
    if inferred is None:
        if known != numel:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        return shape
    if known == 0:
        if numel == 0:
            raise RuntimeError(
                f"cannot reshape tensor of 0 elements into shape {list(shape)} because the unspecified "
                "dimension size -1 can be any value and is ambiguous"
            )
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    if numel % known:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return shape[:inferred] + (numel // known,) + shape[inferred + 1:]
''', nudge="If a size like -3 comes before a second -1, which problem does a left-to-right walk meet first?"),
    Mutant('infer_shape', 'returns-the-list-it-was-given', '''
def infer_shape(shape, numel):
    """shape with its -1 (if any) replaced so that the sizes multiply to numel, or torch's error."""
    inferred = None  # the index of the -1
    known = 1  # the product of the other sizes
    for index, size in enumerate(shape):
        if size == -1:
            if inferred is not None:
                raise RuntimeError("only one dimension can be inferred")
            inferred = index
        elif size < 0:
            raise RuntimeError(f"invalid shape dimension {size} at index {index} of shape {list(shape)}")
        else:
            known *= size
    if inferred is None:
        if known != numel:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        return shape
    if known == 0:
        if numel == 0:
            raise RuntimeError(
                f"cannot reshape tensor of 0 elements into shape {list(shape)} because the unspecified "
                "dimension size -1 can be any value and is ambiguous"
            )
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    if numel % known:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    shape = list(shape)
    shape[inferred] = numel // known
    return shape
''', nudge="When the shape arrives as a list, which type should come back?"),
    Mutant('infer_shape', 'no-ambiguity-check', '''
def infer_shape(shape, numel):
    """shape with its -1 (if any) replaced so that the sizes multiply to numel, or torch's error."""
    shape = tuple(shape)
    inferred = None  # the index of the -1
    known = 1  # the product of the other sizes
    for index, size in enumerate(shape):
        if size == -1:
            if inferred is not None:
                raise RuntimeError("only one dimension can be inferred")
            inferred = index
        elif size < 0:
            raise RuntimeError(f"invalid shape dimension {size} at index {index} of shape {list(shape)}")
        else:
            known *= size
    if inferred is None:
        if known != numel:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        return shape
    if known == 0 and numel != 0:
        if False:
            raise RuntimeError(
                f"cannot reshape tensor of 0 elements into shape {list(shape)} because the unspecified "
                "dimension size -1 can be any value and is ambiguous"
            )
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    if numel % known:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return shape[:inferred] + (numel // known,) + shape[inferred + 1:]
''', nudge="With no elements at all and a 0 among the other sizes, which size would the -1 stand for?"),
    Mutant('infer_shape', 'no-remainder-check', '''
def infer_shape(shape, numel):
    """shape with its -1 (if any) replaced so that the sizes multiply to numel, or torch's error."""
    shape = tuple(shape)
    inferred = None  # the index of the -1
    known = 1  # the product of the other sizes
    for index, size in enumerate(shape):
        if size == -1:
            if inferred is not None:
                raise RuntimeError("only one dimension can be inferred")
            inferred = index
        elif size < 0:
            raise RuntimeError(f"invalid shape dimension {size} at index {index} of shape {list(shape)}")
        else:
            known *= size
    if inferred is None:
        if known != numel:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        return shape
    if known == 0:
        if numel == 0:
            raise RuntimeError(
                f"cannot reshape tensor of 0 elements into shape {list(shape)} because the unspecified "
                "dimension size -1 can be any value and is ambiguous"
            )
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    if False:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return shape[:inferred] + (numel // known,) + shape[inferred + 1:]
''', nudge="What if numel is not a multiple of the product of the other sizes?"),
    Mutant('infer_shape', 'tuple-in-the-message', '''
def infer_shape(shape, numel):
    """shape with its -1 (if any) replaced so that the sizes multiply to numel, or torch's error."""
    shape = tuple(shape)
    inferred = None  # the index of the -1
    known = 1  # the product of the other sizes
    for index, size in enumerate(shape):
        if size == -1:
            if inferred is not None:
                raise RuntimeError("only one dimension can be inferred")
            inferred = index
        elif size < 0:
            raise RuntimeError(f"invalid shape dimension {size} at index {index} of shape {shape}")
        else:
            known *= size
    if inferred is None:
        if known != numel:
            raise RuntimeError(f"shape '{shape}' is invalid for input of size {numel}")
        return shape
    if known == 0:
        if numel == 0:
            raise RuntimeError(
                f"cannot reshape tensor of 0 elements into shape {shape} because the unspecified "
                "dimension size -1 can be any value and is ambiguous"
            )
        raise RuntimeError(f"shape '{shape}' is invalid for input of size {numel}")
    if numel % known:
        raise RuntimeError(f"shape '{shape}' is invalid for input of size {numel}")
    return shape[:inferred] + (numel // known,) + shape[inferred + 1:]
''', nudge="How does torch print the shape in its messages: with round brackets or square ones?"),
    Mutant('infer_shape', 'negative-sizes-multiply-in', '''
def infer_shape(shape, numel):
    """shape with its -1 (if any) replaced so that the sizes multiply to numel, or torch's error."""
    shape = tuple(shape)
    inferred = None  # the index of the -1
    known = 1  # the product of the other sizes
    for index, size in enumerate(shape):
        if size == -1:
            if inferred is not None:
                raise RuntimeError("only one dimension can be inferred")
            inferred = index
        else:
            known *= size
    if inferred is None:
        if known != numel:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        return shape
    if known == 0:
        if numel == 0:
            raise RuntimeError(
                f"cannot reshape tensor of 0 elements into shape {list(shape)} because the unspecified "
                "dimension size -1 can be any value and is ambiguous"
            )
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    if numel % known:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return shape[:inferred] + (numel // known,) + shape[inferred + 1:]
''', nudge="Is a size like -3 a size at all, and what does torch say when it meets one?"),
    Mutant('infer_shape', 'trusts-a-shape-without-minus-one', '''
def infer_shape(shape, numel):
    """shape with its -1 (if any) replaced so that the sizes multiply to numel, or torch's error."""
    shape = tuple(shape)
    inferred = None  # the index of the -1
    known = 1  # the product of the other sizes
    for index, size in enumerate(shape):
        if size == -1:
            if inferred is not None:
                raise RuntimeError("only one dimension can be inferred")
            inferred = index
        elif size < 0:
            raise RuntimeError(f"invalid shape dimension {size} at index {index} of shape {list(shape)}")
        else:
            known *= size
    if inferred is None:
        if False:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        return shape
    if known == 0:
        if numel == 0:
            raise RuntimeError(
                f"cannot reshape tensor of 0 elements into shape {list(shape)} because the unspecified "
                "dimension size -1 can be any value and is ambiguous"
            )
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    if numel % known:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return shape[:inferred] + (numel // known,) + shape[inferred + 1:]
''', nudge="When there is no -1, do the sizes still have to multiply to numel?"),
    Mutant('infer_shape', 'value-error', '''
def infer_shape(shape, numel):
    """shape with its -1 (if any) replaced so that the sizes multiply to numel, or torch's error."""
    shape = tuple(shape)
    inferred = None  # the index of the -1
    known = 1  # the product of the other sizes
    for index, size in enumerate(shape):
        if size == -1:
            if inferred is not None:
                raise ValueError("only one dimension can be inferred")
            inferred = index
        elif size < 0:
            raise ValueError(f"invalid shape dimension {size} at index {index} of shape {list(shape)}")
        else:
            known *= size
    if inferred is None:
        if known != numel:
            raise ValueError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        return shape
    if known == 0:
        if numel == 0:
            raise ValueError(
                f"cannot reshape tensor of 0 elements into shape {list(shape)} because the unspecified "
                "dimension size -1 can be any value and is ambiguous"
            )
        raise ValueError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    if numel % known:
        raise ValueError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return shape[:inferred] + (numel // known,) + shape[inferred + 1:]
''', nudge="Which exception type does torch raise for a shape that does not fit?"),
    Mutant('infer_shape', 'empty-shape-always-fits', '''
def infer_shape(shape, numel):
    """shape with its -1 (if any) replaced so that the sizes multiply to numel, or torch's error."""
    shape = tuple(shape)
    if not shape:
        return ()
    inferred = None  # the index of the -1
    known = 1  # the product of the other sizes
    for index, size in enumerate(shape):
        if size == -1:
            if inferred is not None:
                raise RuntimeError("only one dimension can be inferred")
            inferred = index
        elif size < 0:
            raise RuntimeError(f"invalid shape dimension {size} at index {index} of shape {list(shape)}")
        else:
            known *= size
    if inferred is None:
        if known != numel:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        return shape
    if known == 0:
        if numel == 0:
            raise RuntimeError(
                f"cannot reshape tensor of 0 elements into shape {list(shape)} because the unspecified "
                "dimension size -1 can be any value and is ambiguous"
            )
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    if numel % known:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return shape[:inferred] + (numel // known,) + shape[inferred + 1:]
''', nudge="How many elements does the empty shape hold, and what if numel is not that many?"),
    # --- view_strides --------------------------------------------------------------------------
    Mutant('view_strides', 'calls-the-reference', '''
from tensorlab._storage import view_strides as torch_rule
def view_strides(shape, strides, new_shape):
    return torch_rule(shape, strides, new_shape)
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
    Mutant('view_strides', 'contiguous-only', '''
def row_major(shape):
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


def view_strides(shape, strides, new_shape):
    contiguous = all(size == 1 or stride == want for size, stride, want in zip(shape, strides, row_major(shape)))
    return row_major(tuple(new_shape)) if contiguous or 0 in shape else None
''', nudge="Can a non-contiguous tensor, like every other column, still be viewed in a new shape?"),
    Mutant('view_strides', 'always-row-major', '''
def row_major(shape):
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


def view_strides(shape, strides, new_shape):
    return row_major(tuple(new_shape))
''', nudge="Does a view get fresh row-major strides, or must it read the same slots the old strides read?"),
    Mutant('view_strides', 'size-one-dims-break-runs', '''
def row_major(shape):
    """The strides of a new contiguous tensor of this shape (a size 0 counts as 1)."""
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


def view_strides(shape, strides, new_shape):
    """The strides of x.view(new_shape) for x of this shape and strides, or None when view must raise."""
    shape, strides, new_shape = tuple(shape), tuple(strides), tuple(new_shape)
    if 0 in shape:
        return strides if new_shape == shape else row_major(new_shape)
    if not shape:
        return row_major(new_shape)
    new_strides = [0] * len(new_shape)
    new_dim = len(new_shape) - 1
    run_stride = strides[-1]  # the stride of the last dim of the current run
    run_numel = 1  # elements in the old dims of the run so far
    new_numel = 1  # elements in the new dims given to the run so far
    for dim in reversed(range(len(shape))):
        run_numel *= shape[dim]
        run_ends = dim == 0 or strides[dim - 1] != run_numel * run_stride
        if run_ends:
            while new_dim >= 0 and (new_numel < run_numel or new_shape[new_dim] == 1):
                new_strides[new_dim] = new_numel * run_stride
                new_numel *= new_shape[new_dim]
                new_dim -= 1
            if new_numel != run_numel:
                return None
            if dim > 0:
                run_stride, run_numel, new_numel = strides[dim - 1], 1, 1
    if new_dim != -1:
        return None
    return tuple(new_strides)
''', nudge="Can a size-1 dim, whatever its stride, ever split a run of memory?"),
    Mutant('view_strides', 'merge-rule-uses-the-wrong-size', '''
def row_major(shape):
    """The strides of a new contiguous tensor of this shape (a size 0 counts as 1)."""
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


def view_strides(shape, strides, new_shape):
    """The strides of x.view(new_shape) for x of this shape and strides, or None when view must raise."""
    shape, strides, new_shape = tuple(shape), tuple(strides), tuple(new_shape)
    if 0 in shape:
        return strides if new_shape == shape else row_major(new_shape)
    if not shape:
        return row_major(new_shape)
    new_strides = [0] * len(new_shape)
    new_dim = len(new_shape) - 1
    run_stride = strides[-1]  # the stride of the last dim of the current run
    run_numel = 1  # elements in the old dims of the run so far
    new_numel = 1  # elements in the new dims given to the run so far
    for dim in reversed(range(len(shape))):
        run_ends = dim == 0 or (shape[dim - 1] != 1 and strides[dim - 1] != run_numel * shape[dim - 1] * run_stride)
        run_numel *= shape[dim]
        if run_ends:
            while new_dim >= 0 and (new_numel < run_numel or new_shape[new_dim] == 1):
                new_strides[new_dim] = new_numel * run_stride
                new_numel *= new_shape[new_dim]
                new_dim -= 1
            if new_numel != run_numel:
                return None
            if dim > 0:
                run_stride, run_numel, new_numel = strides[dim - 1], 1, 1
    if new_dim != -1:
        return None
    return tuple(new_strides)
''', nudge="When a dim and the one to its right form a run, how many steps of the right dim does one step of the left dim span?"),
    Mutant('view_strides', 'ignores-empty-tensors', '''
def row_major(shape):
    """The strides of a new contiguous tensor of this shape (a size 0 counts as 1)."""
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


def view_strides(shape, strides, new_shape):
    """The strides of x.view(new_shape) for x of this shape and strides, or None when view must raise."""
    shape, strides, new_shape = tuple(shape), tuple(strides), tuple(new_shape)
    if not shape:
        return row_major(new_shape)
    new_strides = [0] * len(new_shape)
    new_dim = len(new_shape) - 1
    run_stride = strides[-1]  # the stride of the last dim of the current run
    run_numel = 1  # elements in the old dims of the run so far
    new_numel = 1  # elements in the new dims given to the run so far
    for dim in reversed(range(len(shape))):
        run_numel *= shape[dim]
        run_ends = dim == 0 or (shape[dim - 1] != 1 and strides[dim - 1] != run_numel * run_stride)
        if run_ends:
            while new_dim >= 0 and (new_numel < run_numel or new_shape[new_dim] == 1):
                new_strides[new_dim] = new_numel * run_stride
                new_numel *= new_shape[new_dim]
                new_dim -= 1
            if new_numel != run_numel:
                return None
            if dim > 0:
                run_stride, run_numel, new_numel = strides[dim - 1], 1, 1
    if new_dim != -1:
        return None
    return tuple(new_strides)
''', nudge="A tensor with no elements reads no memory: can a view of it ever be impossible?"),
    Mutant('view_strides', 'forgets-the-zero-d-tensor', '''
def row_major(shape):
    """The strides of a new contiguous tensor of this shape (a size 0 counts as 1)."""
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


def view_strides(shape, strides, new_shape):
    """The strides of x.view(new_shape) for x of this shape and strides, or None when view must raise."""
    shape, strides, new_shape = tuple(shape), tuple(strides), tuple(new_shape)
    if 0 in shape:
        return strides if new_shape == shape else row_major(new_shape)
    new_strides = [0] * len(new_shape)
    new_dim = len(new_shape) - 1
    run_stride = strides[-1]  # the stride of the last dim of the current run
    run_numel = 1  # elements in the old dims of the run so far
    new_numel = 1  # elements in the new dims given to the run so far
    for dim in reversed(range(len(shape))):
        run_numel *= shape[dim]
        run_ends = dim == 0 or (shape[dim - 1] != 1 and strides[dim - 1] != run_numel * run_stride)
        if run_ends:
            while new_dim >= 0 and (new_numel < run_numel or new_shape[new_dim] == 1):
                new_strides[new_dim] = new_numel * run_stride
                new_numel *= new_shape[new_dim]
                new_dim -= 1
            if new_numel != run_numel:
                return None
            if dim > 0:
                run_stride, run_numel, new_numel = strides[dim - 1], 1, 1
    if new_dim != -1:
        return None
    return tuple(new_strides)
''', nudge="A 0-d tensor has no strides at all: where does your walk over the runs start?"),
    Mutant('view_strides', 'returns-a-list', '''
def row_major(shape):
    """The strides of a new contiguous tensor of this shape (a size 0 counts as 1)."""
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


def view_strides(shape, strides, new_shape):
    """The strides of x.view(new_shape) for x of this shape and strides, or None when view must raise."""
    shape, strides, new_shape = tuple(shape), tuple(strides), tuple(new_shape)
    if 0 in shape:
        return strides if new_shape == shape else row_major(new_shape)
    if not shape:
        return row_major(new_shape)
    new_strides = [0] * len(new_shape)
    new_dim = len(new_shape) - 1
    run_stride = strides[-1]  # the stride of the last dim of the current run
    run_numel = 1  # elements in the old dims of the run so far
    new_numel = 1  # elements in the new dims given to the run so far
    for dim in reversed(range(len(shape))):
        run_numel *= shape[dim]
        run_ends = dim == 0 or (shape[dim - 1] != 1 and strides[dim - 1] != run_numel * run_stride)
        if run_ends:
            while new_dim >= 0 and (new_numel < run_numel or new_shape[new_dim] == 1):
                new_strides[new_dim] = new_numel * run_stride
                new_numel *= new_shape[new_dim]
                new_dim -= 1
            if new_numel != run_numel:
                return None
            if dim > 0:
                run_stride, run_numel, new_numel = strides[dim - 1], 1, 1
    if new_dim != -1:
        return None
    return new_strides
''', nudge="Does a list compare equal to the tuple the statement asks for?"),
    Mutant('view_strides', 'stride-of-the-runs-first-dim', '''
def row_major(shape):
    """The strides of a new contiguous tensor of this shape (a size 0 counts as 1)."""
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


def view_strides(shape, strides, new_shape):
    """The strides of x.view(new_shape) for x of this shape and strides, or None when view must raise."""
    shape, strides, new_shape = tuple(shape), tuple(strides), tuple(new_shape)
    if 0 in shape:
        return strides if new_shape == shape else row_major(new_shape)
    if not shape:
        return row_major(new_shape)
    new_strides = [0] * len(new_shape)
    new_dim = len(new_shape) - 1
    run_stride = strides[-1]  # the stride of the last dim of the current run
    run_numel = 1  # elements in the old dims of the run so far
    new_numel = 1  # elements in the new dims given to the run so far
    for dim in reversed(range(len(shape))):
        run_numel *= shape[dim]
        run_ends = dim == 0 or (shape[dim - 1] != 1 and strides[dim - 1] != run_numel * run_stride)
        if run_ends:
            while new_dim >= 0 and (new_numel < run_numel or new_shape[new_dim] == 1):
                new_strides[new_dim] = new_numel * strides[dim]
                new_numel *= new_shape[new_dim]
                new_dim -= 1
            if new_numel != run_numel:
                return None
            if dim > 0:
                run_stride, run_numel, new_numel = strides[dim - 1], 1, 1
            else:
                pass
    if new_dim != -1:
        return None
    return tuple(new_strides)
''', nudge="Within one run, which old dim steps through memory in the smallest steps?"),
    Mutant('view_strides', 'numpy-reshapes-a-strided-array', '''
def view_strides(shape, strides, new_shape):
    base = np.zeros(1 + sum((size - 1) * stride for size, stride in zip(shape, strides)))
    x = np.lib.stride_tricks.as_strided(base, shape, [8 * stride for stride in strides])
    y = x.view()
    try:
        y.shape = new_shape
    except AttributeError:
        return None
    return tuple(stride // 8 for stride in y.strides)
''', nudge="Does NumPy decide when a reshape needs a copy by torch's rule, and may this part use NumPy's reshape at all?"),
    # --- flatten_meta --------------------------------------------------------------------------
    Mutant('flatten_meta', 'calls-the-reference', '''
import tensorlab
def flatten_meta(shape, strides, start_dim=0, end_dim=-1):
    x = tensorlab.zeros(1000).as_strided(shape, strides).flatten(start_dim, end_dim)
    return tuple(x.shape), tuple(x.stride())
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
    Mutant('flatten_meta', 'end-dim-excluded', '''
def flatten_meta(shape, strides, start_dim=0, end_dim=-1):
    """(shape, strides) of x.flatten(start_dim, end_dim): a view when possible, else a row-major copy."""
    shape, strides = tuple(shape), tuple(strides)
    ndim = max(len(shape), 1)  # a 0-d tensor takes the dims of a 1-d one
    for dim in (start_dim, end_dim):
        if not -ndim <= dim < ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got {dim})")
    start, end = start_dim % ndim, end_dim % ndim
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if not shape:
        return (1,), (1,)
    if start == end:
        return shape, strides
    merged = 1
    for size in shape[start:end]:
        merged *= size
    new_shape = shape[:start] + (merged,) + shape[end:]
    new_strides = view_strides(shape, strides, new_shape)
    return new_shape, new_strides if new_strides is not None else row_major(new_shape)
''', nudge="Is end_dim itself merged into the flattened dim, or left out?"),
    Mutant('flatten_meta', 'always-a-view', '''
def flatten_meta(shape, strides, start_dim=0, end_dim=-1):
    """(shape, strides) of x.flatten(start_dim, end_dim): a view when possible, else a row-major copy."""
    shape, strides = tuple(shape), tuple(strides)
    ndim = max(len(shape), 1)  # a 0-d tensor takes the dims of a 1-d one
    for dim in (start_dim, end_dim):
        if not -ndim <= dim < ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got {dim})")
    start, end = start_dim % ndim, end_dim % ndim
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if not shape:
        return (1,), (1,)
    if start == end:
        return shape, strides
    merged = 1
    for size in shape[start:end + 1]:
        merged *= size
    new_shape = shape[:start] + (merged,) + shape[end + 1:]
    new_strides = view_strides(shape, strides, new_shape)
    return new_shape, new_strides
''', nudge="When no strides can express the merged shape, does flatten give up, or copy?"),
    Mutant('flatten_meta', 'always-a-copy', '''
def flatten_meta(shape, strides, start_dim=0, end_dim=-1):
    """(shape, strides) of x.flatten(start_dim, end_dim): a view when possible, else a row-major copy."""
    shape, strides = tuple(shape), tuple(strides)
    ndim = max(len(shape), 1)  # a 0-d tensor takes the dims of a 1-d one
    for dim in (start_dim, end_dim):
        if not -ndim <= dim < ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got {dim})")
    start, end = start_dim % ndim, end_dim % ndim
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if not shape:
        return (1,), (1,)
    if start == end:
        return shape, strides
    merged = 1
    for size in shape[start:end + 1]:
        merged *= size
    new_shape = shape[:start] + (merged,) + shape[end + 1:]
    new_strides = view_strides(shape, strides, new_shape)
    return new_shape, row_major(new_shape)
''', nudge="When the merged dims already form one run of memory, does flatten need to copy?"),
    Mutant('flatten_meta', 'negative-dims-not-wrapped', '''
def flatten_meta(shape, strides, start_dim=0, end_dim=-1):
    """(shape, strides) of x.flatten(start_dim, end_dim): a view when possible, else a row-major copy."""
    shape, strides = tuple(shape), tuple(strides)
    ndim = max(len(shape), 1)  # a 0-d tensor takes the dims of a 1-d one
    for dim in (start_dim, end_dim):
        if not -ndim <= dim < ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got {dim})")
    start, end = start_dim, end_dim if end_dim != -1 else ndim - 1
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if not shape:
        return (1,), (1,)
    if start == end:
        return shape, strides
    merged = 1
    for size in shape[start:end + 1]:
        merged *= size
    new_shape = shape[:start] + (merged,) + shape[end + 1:]
    new_strides = view_strides(shape, strides, new_shape)
    return new_shape, new_strides if new_strides is not None else row_major(new_shape)
''', nudge="What does a negative start_dim, like -2, count from?"),
    Mutant('flatten_meta', 'zero-d-stays-zero-d', '''
def flatten_meta(shape, strides, start_dim=0, end_dim=-1):
    """(shape, strides) of x.flatten(start_dim, end_dim): a view when possible, else a row-major copy."""
    shape, strides = tuple(shape), tuple(strides)
    ndim = max(len(shape), 1)  # a 0-d tensor takes the dims of a 1-d one
    for dim in (start_dim, end_dim):
        if not -ndim <= dim < ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got {dim})")
    start, end = start_dim % ndim, end_dim % ndim
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if not shape:
        return (), ()
    if start == end:
        return shape, strides
    merged = 1
    for size in shape[start:end + 1]:
        merged *= size
    new_shape = shape[:start] + (merged,) + shape[end + 1:]
    new_strides = view_strides(shape, strides, new_shape)
    return new_shape, new_strides if new_strides is not None else row_major(new_shape)
''', nudge="How many dims does a 0-d tensor have after flattening?"),
    Mutant('flatten_meta', 'no-order-check', '''
def flatten_meta(shape, strides, start_dim=0, end_dim=-1):
    """(shape, strides) of x.flatten(start_dim, end_dim): a view when possible, else a row-major copy."""
    shape, strides = tuple(shape), tuple(strides)
    ndim = max(len(shape), 1)  # a 0-d tensor takes the dims of a 1-d one
    for dim in (start_dim, end_dim):
        if not -ndim <= dim < ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got {dim})")
    start, end = start_dim % ndim, end_dim % ndim
    if False:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if not shape:
        return (1,), (1,)
    if start == end:
        return shape, strides
    merged = 1
    for size in shape[start:end + 1]:
        merged *= size
    new_shape = shape[:start] + (merged,) + shape[end + 1:]
    new_strides = view_strides(shape, strides, new_shape)
    return new_shape, new_strides if new_strides is not None else row_major(new_shape)
''', nudge="What should happen when start_dim comes after end_dim?"),
    Mutant('flatten_meta', 'no-range-check', '''
def flatten_meta(shape, strides, start_dim=0, end_dim=-1):
    """(shape, strides) of x.flatten(start_dim, end_dim): a view when possible, else a row-major copy."""
    shape, strides = tuple(shape), tuple(strides)
    ndim = max(len(shape), 1)  # a 0-d tensor takes the dims of a 1-d one
    for dim in (start_dim, end_dim):
        if False:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got {dim})")
    start, end = start_dim % ndim, end_dim % ndim
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if not shape:
        return (1,), (1,)
    if start == end:
        return shape, strides
    merged = 1
    for size in shape[start:end + 1]:
        merged *= size
    new_shape = shape[:start] + (merged,) + shape[end + 1:]
    new_strides = view_strides(shape, strides, new_shape)
    return new_shape, new_strides if new_strides is not None else row_major(new_shape)
''', nudge="What should happen when start_dim or end_dim names a dim the tensor does not have?"),
    Mutant('flatten_meta', 'zero-d-shortcut-before-the-dims', '''
def flatten_meta(shape, strides, start_dim=0, end_dim=-1):
    """(shape, strides) of x.flatten(start_dim, end_dim): a view when possible, else a row-major copy."""
    shape, strides = tuple(shape), tuple(strides)
    if not shape:
        return (1,), (1,)
    ndim = max(len(shape), 1)  # a 0-d tensor takes the dims of a 1-d one
    for dim in (start_dim, end_dim):
        if not -ndim <= dim < ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got {dim})")
    start, end = start_dim % ndim, end_dim % ndim
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if not shape:
        return (1,), (1,)
    if start == end:
        return shape, strides
    merged = 1
    for size in shape[start:end + 1]:
        merged *= size
    new_shape = shape[:start] + (merged,) + shape[end + 1:]
    new_strides = view_strides(shape, strides, new_shape)
    return new_shape, new_strides if new_strides is not None else row_major(new_shape)
''', nudge="For a 0-d tensor, are start_dim and end_dim still checked before the result is decided?"),
    Mutant('flatten_meta', 'copies-when-start-equals-end', '''
def flatten_meta(shape, strides, start_dim=0, end_dim=-1):
    """(shape, strides) of x.flatten(start_dim, end_dim): a view when possible, else a row-major copy."""
    shape, strides = tuple(shape), tuple(strides)
    ndim = max(len(shape), 1)  # a 0-d tensor takes the dims of a 1-d one
    for dim in (start_dim, end_dim):
        if not -ndim <= dim < ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got {dim})")
    start, end = start_dim % ndim, end_dim % ndim
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if not shape:
        return (1,), (1,)
    if start == end:
        return shape, row_major(shape)
    merged = 1
    for size in shape[start:end + 1]:
        merged *= size
    new_shape = shape[:start] + (merged,) + shape[end + 1:]
    new_strides = view_strides(shape, strides, new_shape)
    return new_shape, new_strides if new_strides is not None else row_major(new_shape)
''', nudge="When start_dim equals end_dim nothing is merged: does torch return a copy, or the tensor itself?"),
    Mutant('flatten_meta', 'nn-flatten-defaults', '''
def flatten_meta(shape, strides, start_dim=1, end_dim=-1):
    """(shape, strides) of x.flatten(start_dim, end_dim): a view when possible, else a row-major copy."""
    shape, strides = tuple(shape), tuple(strides)
    ndim = max(len(shape), 1)  # a 0-d tensor takes the dims of a 1-d one
    for dim in (start_dim, end_dim):
        if not -ndim <= dim < ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got {dim})")
    start, end = start_dim % ndim, end_dim % ndim
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if not shape:
        return (1,), (1,)
    if start == end:
        return shape, strides
    merged = 1
    for size in shape[start:end + 1]:
        merged *= size
    new_shape = shape[:start] + (merged,) + shape[end + 1:]
    new_strides = view_strides(shape, strides, new_shape)
    return new_shape, new_strides if new_strides is not None else row_major(new_shape)
''', nudge="From which dim does the tensor method flatten start by default, and is that the same default as the flatten layer's?"),
    # --- unflatten_meta ------------------------------------------------------------------------
    Mutant('unflatten_meta', 'calls-the-reference', '''
import torch
def unflatten_meta(shape, strides, dim, sizes):
    x = torch.zeros(1000).as_strided(shape, strides).unflatten(dim, sizes)
    return tuple(x.shape), tuple(x.stride())
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
    Mutant('unflatten_meta', 'row-major-strides', '''
def unflatten_meta(shape, strides, dim, sizes):
    """(shape, strides) of x.unflatten(dim, sizes): always a view."""
    shape, strides, sizes = tuple(shape), tuple(strides), tuple(sizes)
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    ndim = max(len(shape), 1)
    if not -ndim <= dim < ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got {dim})")
    if not shape:
        raise RuntimeError("unflatten: a 0-d tensor has no dimension to split")
    dim %= ndim
    sizes = infer_shape(sizes, shape[dim])  # its RuntimeErrors are unflatten's
    new_shape = shape[:dim] + sizes + shape[dim + 1:]
    return new_shape, row_major(new_shape)
''', nudge="Is unflatten a copy with fresh strides, or a view over the same memory?"),
    Mutant('unflatten_meta', 'split-strides-from-the-left', '''
def unflatten_meta(shape, strides, dim, sizes):
    """(shape, strides) of x.unflatten(dim, sizes): always a view."""
    shape, strides, sizes = tuple(shape), tuple(strides), tuple(sizes)
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    ndim = max(len(shape), 1)
    if not -ndim <= dim < ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got {dim})")
    if not shape:
        raise RuntimeError("unflatten: a 0-d tensor has no dimension to split")
    dim %= ndim
    sizes = infer_shape(sizes, shape[dim])  # its RuntimeErrors are unflatten's
    new_shape = shape[:dim] + sizes + shape[dim + 1:]
    split, step = [], strides[dim]
    for size in sizes:
        split.append(step)
        step *= size
    return new_shape, strides[:dim] + tuple(split) + strides[dim + 1:]
''', nudge="Of the new dims that replace the split dim, which one steps through memory in the smallest steps?"),
    Mutant('unflatten_meta', 'no-minus-one-inference', '''
import math


def unflatten_meta(shape, strides, dim, sizes):
    """(shape, strides) of x.unflatten(dim, sizes): always a view."""
    shape, strides, sizes = tuple(shape), tuple(strides), tuple(sizes)
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    ndim = max(len(shape), 1)
    if not -ndim <= dim < ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got {dim})")
    if not shape:
        raise RuntimeError("unflatten: a 0-d tensor has no dimension to split")
    dim %= ndim
    if -1 not in sizes and math.prod(sizes) != shape[dim]:
        raise RuntimeError('sizes do not fit')
    new_shape = shape[:dim] + sizes + shape[dim + 1:]
    return new_shape, view_strides(shape, strides, new_shape)
''', nudge="What size should a -1 in sizes become?"),
    Mutant('unflatten_meta', 'no-size-check', '''
def unflatten_meta(shape, strides, dim, sizes):
    """(shape, strides) of x.unflatten(dim, sizes): always a view."""
    shape, strides, sizes = tuple(shape), tuple(strides), tuple(sizes)
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    ndim = max(len(shape), 1)
    if not -ndim <= dim < ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got {dim})")
    if not shape:
        raise RuntimeError("unflatten: a 0-d tensor has no dimension to split")
    dim %= ndim
    if -1 in sizes:
        known = 1
        for size in sizes:
            known *= size if size != -1 else 1
        sizes = tuple(shape[dim] // known if size == -1 else size for size in sizes)
    new_shape = shape[:dim] + sizes + shape[dim + 1:]
    return new_shape, view_strides(shape, strides, new_shape)
''', nudge="What should happen when sizes do not multiply to the size of the split dim?"),
    Mutant('unflatten_meta', 'empty-sizes-allowed', '''
def unflatten_meta(shape, strides, dim, sizes):
    """(shape, strides) of x.unflatten(dim, sizes): always a view."""
    shape, strides, sizes = tuple(shape), tuple(strides), tuple(sizes)
    if not sizes:
        sizes = (1,)
    ndim = max(len(shape), 1)
    if not -ndim <= dim < ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got {dim})")
    if not shape:
        raise RuntimeError("unflatten: a 0-d tensor has no dimension to split")
    dim %= ndim
    sizes = infer_shape(sizes, shape[dim])  # its RuntimeErrors are unflatten's
    new_shape = shape[:dim] + sizes + shape[dim + 1:]
    return new_shape, view_strides(shape, strides, new_shape)
''', nudge="What does torch do when sizes is empty?"),
    Mutant('unflatten_meta', 'dim-checked-before-sizes', '''
def unflatten_meta(shape, strides, dim, sizes):
    """(shape, strides) of x.unflatten(dim, sizes): always a view."""
    shape, strides, sizes = tuple(shape), tuple(strides), tuple(sizes)
    ndim = max(len(shape), 1)
    if not -ndim <= dim < ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got {dim})")
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    if not shape:
        raise RuntimeError("unflatten: a 0-d tensor has no dimension to split")
    dim %= ndim
    sizes = infer_shape(sizes, shape[dim])  # its RuntimeErrors are unflatten's
    new_shape = shape[:dim] + sizes + shape[dim + 1:]
    return new_shape, view_strides(shape, strides, new_shape)
''', nudge="When sizes is empty and dim is out of range too, which error does torch raise first?"),
    Mutant('unflatten_meta', 'zero-d-becomes-sizes', '''
def unflatten_meta(shape, strides, dim, sizes):
    """(shape, strides) of x.unflatten(dim, sizes): always a view."""
    shape, strides, sizes = tuple(shape), tuple(strides), tuple(sizes)
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    ndim = max(len(shape), 1)
    if not -ndim <= dim < ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got {dim})")
    if not shape:
        return sizes, row_major(sizes)
    dim %= ndim
    sizes = infer_shape(sizes, shape[dim])  # its RuntimeErrors are unflatten's
    new_shape = shape[:dim] + sizes + shape[dim + 1:]
    return new_shape, view_strides(shape, strides, new_shape)
''', nudge="Does a 0-d tensor have a dim to split?"),
    Mutant('unflatten_meta', 'keeps-the-old-stride-for-every-new-dim', '''
def unflatten_meta(shape, strides, dim, sizes):
    """(shape, strides) of x.unflatten(dim, sizes): always a view."""
    shape, strides, sizes = tuple(shape), tuple(strides), tuple(sizes)
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    ndim = max(len(shape), 1)
    if not -ndim <= dim < ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got {dim})")
    if not shape:
        raise RuntimeError("unflatten: a 0-d tensor has no dimension to split")
    dim %= ndim
    sizes = infer_shape(sizes, shape[dim])  # its RuntimeErrors are unflatten's
    new_shape = shape[:dim] + sizes + shape[dim + 1:]
    return new_shape, strides[:dim] + (strides[dim],) * len(sizes) + strides[dim + 1:]
''', nudge="If every new dim steps by the same stride, do different indices still read different elements?"),
    Mutant('unflatten_meta', 'forgets-to-drop-the-split-dim', '''
def unflatten_meta(shape, strides, dim, sizes):
    """(shape, strides) of x.unflatten(dim, sizes): always a view."""
    shape, strides, sizes = tuple(shape), tuple(strides), tuple(sizes)
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    ndim = max(len(shape), 1)
    if not -ndim <= dim < ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got {dim})")
    if not shape:
        raise RuntimeError("unflatten: a 0-d tensor has no dimension to split")
    dim %= ndim
    sizes = infer_shape(sizes, shape[dim])  # its RuntimeErrors are unflatten's
    new_shape = shape[:dim] + sizes + shape[dim:]
    return new_shape, view_strides(shape, strides, shape[:dim] + sizes + shape[dim + 1:]) + (strides[dim],)
''', nudge="Once its sizes are in the shape, should the split dim itself still be there?"),
    Mutant("view_strides", "numpy-buffer-view-by-setting-shape", '''
import numpy as np


def view_strides(shape, strides, new_shape):
    """Let NumPy decide: an array over a buffer with these strides, reshaped in place by setting .shape."""
    shape, strides, new_shape = tuple(shape), tuple(strides), tuple(new_shape)
    if 0 in shape:
        return strides if new_shape == shape else row_major(new_shape)
    span = 1 + sum((size - 1) * stride for size, stride in zip(shape, strides))
    x = np.ndarray(shape, dtype=np.int64, buffer=np.array([0] * span, dtype=np.int64),
                   strides=tuple(8 * stride for stride in strides))
    try:
        x.shape = new_shape
    except AttributeError:
        return None
    return tuple(stride // 8 for stride in x.strides)
''', nudge="Does NumPy's rule for a copy-free reshape match torch's view on every layout, and may this part use it at all?"),
    Mutant("infer_shape", "divides-in-floats", '''
def infer_shape(shape, numel):
    shape = tuple(shape)
    inferred, known = None, 1
    for index, size in enumerate(shape):
        if size == -1:
            if inferred is not None:
                raise RuntimeError("only one dimension can be inferred")
            inferred = index
        elif size < 0:
            raise RuntimeError(f"invalid shape dimension {size} at index {index} of shape {list(shape)}")
        else:
            known *= size
    if inferred is None:
        if known != numel:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        return shape
    if known == 0:
        if numel == 0:
            raise RuntimeError(f"cannot reshape tensor of 0 elements into shape {list(shape)} because the "
                               "unspecified dimension size -1 can be any value and is ambiguous")
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    if numel % known:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return (*shape[:inferred], int(numel / known), *shape[inferred + 1:])
''', nudge="How many digits of an int survive a trip through a float division?"),
    Mutant("infer_shape", "numpy-ints-in-the-shape", '''
import numpy as np


def infer_shape(shape, numel):
    """np.prod for the product: its sizes are NumPy ints (and 1.0 for no sizes)."""
    shape = tuple(shape)
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    for index, size in enumerate(shape):
        if size < -1:
            raise RuntimeError(f"invalid shape dimension {size} at index {index} of shape {list(shape)}")
    known = np.prod(np.array([size for size in shape if size != -1], dtype=np.int64))
    if -1 not in shape:
        if known != numel:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        return shape
    if known == 0:
        if numel == 0:
            raise RuntimeError(f"cannot reshape tensor of 0 elements into shape {list(shape)} because the "
                               "unspecified dimension size -1 can be any value and is ambiguous")
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    if numel % known:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    where = shape.index(-1)
    return shape[:where] + (numel // known,) + shape[where + 1:]
''', nudge="Are the sizes you return plain Python ints, or NumPy integers that only print like them?"),
]
