"""Mutants of exercise 02 (reshape and view): plausible wrong versions of each graded function."""

from tensorlab.grading.tasks import Mutant

MUTANTS = [
    # --- infer_shape ---------------------------------------------------------------------------
    Mutant('infer_shape', 'calls-the-reference', '''
import torch
def infer_shape(shape, numel):
    return tuple(torch.empty(numel).view(tuple(shape)).shape)
'''),
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
'''),
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
'''),
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
'''),
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
'''),
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
'''),
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
'''),
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
'''),
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
'''),
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
'''),
    # --- view_strides --------------------------------------------------------------------------
    Mutant('view_strides', 'calls-the-reference', '''
from tensorlab._storage import view_strides as torch_rule
def view_strides(shape, strides, new_shape):
    return torch_rule(shape, strides, new_shape)
'''),
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
'''),
    Mutant('view_strides', 'always-row-major', '''
def row_major(shape):
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


def view_strides(shape, strides, new_shape):
    return row_major(tuple(new_shape))
'''),
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
'''),
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
'''),
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
'''),
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
'''),
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
'''),
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
'''),
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
'''),
    # --- flatten_meta --------------------------------------------------------------------------
    Mutant('flatten_meta', 'calls-the-reference', '''
import tensorlab
def flatten_meta(shape, strides, start_dim=0, end_dim=-1):
    x = tensorlab.zeros(1000).as_strided(shape, strides).flatten(start_dim, end_dim)
    return tuple(x.shape), tuple(x.stride())
'''),
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
'''),
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
'''),
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
'''),
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
'''),
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
'''),
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
'''),
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
'''),
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
'''),
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
'''),
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
'''),
    # --- unflatten_meta ------------------------------------------------------------------------
    Mutant('unflatten_meta', 'calls-the-reference', '''
import torch
def unflatten_meta(shape, strides, dim, sizes):
    x = torch.zeros(1000).as_strided(shape, strides).unflatten(dim, sizes)
    return tuple(x.shape), tuple(x.stride())
'''),
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
'''),
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
'''),
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
'''),
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
'''),
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
'''),
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
'''),
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
'''),
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
'''),
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
'''),
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
'''),
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
'''),
]
