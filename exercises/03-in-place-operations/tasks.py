"""Unit 03, in-place operations: version counters, an in-place ReLU autograd can differentiate, aliasing.

The references run tensorlab itself: ``track_versions`` runs the program
(:func:`tensorlab.widgets.versions.run_program`, checked against torch in the tests), the ReLU
references call ``relu_`` and ``relu().backward``, and ``overlapping_pairs`` asks the storage
module which slot each element reads.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tensorlab.grading.plain import element_strides
from tensorlab.grading.random_cases import normal
from tensorlab.grading.tasks import Clause, Exercise, Task

__all__ = ["EXERCISE", "OVERLAPPING_PAIRS", "RELU_BACKWARD", "RELU_FORWARD_", "TRACK_VERSIONS"]

Program = list[tuple[str, ...]]
Layout = tuple[str, int, tuple[int, ...], tuple[int, ...]]  # (storage, storage_offset, shape, strides)
LARGE_SHAPE = (1024, 8)  # a loop over rows or elements runs thousands of lines; NumPy runs one


# --- track_versions ---------------------------------------------------------------------------

def track_versions_reference(program: Program) -> dict[str, tuple[int, int]]:
    """Run the program in tensorlab; each name's (storage number, _version) at the end."""
    from tensorlab.widgets.versions import run_program

    states = run_program(program)
    return states[-1] if states else {}


NAMES = ("a", "b", "c", "d")
ALLOCATING = ("new", "clone", "add")
READING = ("view", "detach", "clone", "add")  # target = f(source)
WRITING = ("add_", "setitem", "iadd", "index_iadd")  # one name, written in place


def random_program(rng: np.random.Generator) -> tuple[Program]:
    """3 to 10 statements over up to four names: views, copies, rebinding and in-place writes."""
    program: Program = [("new", str(rng.choice(NAMES)))]
    defined = {program[0][1]}
    for _ in range(int(rng.integers(2, 10))):
        roll = rng.random()
        known = sorted(defined)
        if roll < 0.08:
            target = str(rng.choice(NAMES))
            program.append(("new", target))
        elif roll < 0.45:
            kind = str(rng.choice(READING, p=[0.4, 0.15, 0.2, 0.25]))
            target = str(rng.choice(NAMES))
            program.append((kind, target, str(rng.choice(known))))
        elif roll < 0.9:
            target = str(rng.choice(known))
            program.append((str(rng.choice(WRITING, p=[0.3, 0.2, 0.2, 0.3])), target))
        else:
            target = str(rng.choice(known))
            program.append(("copy_", target, str(rng.choice(known))))
        defined.add(target)
    return (program,)


TRACK_VERSIONS = Task(
    name="track_versions", reference=track_versions_reference,
    examples=[([("new", "a"), ("view", "b", "a"), ("clone", "c", "a"), ("add_", "b")],),
              ([("new", "x"), ("add_", "x"), ("add", "y", "x"), ("setitem", "y")],)],
    clauses=[
        Clause("`b = a[:]` is a view: it shares `a`'s storage, and so its version counter",
               ([("new", "a"), ("view", "b", "a"), ("add_", "b")],)),
        Clause("`b = a.detach()` shares `a`'s storage and its version counter too",
               ([("new", "a"), ("detach", "b", "a"), ("add_", "a"), ("setitem", "b")],)),
        Clause("`b = a.clone()` allocates a new storage, whose counter starts at 0",
               ([("new", "a"), ("add_", "a"), ("clone", "b", "a"), ("add_", "a")],)),
        Clause("`b = a + 1` allocates a new storage, whose counter starts at 0",
               ([("new", "a"), ("add_", "a"), ("add", "b", "a"), ("iadd", "a")],)),
        Clause("`a += 1` writes in place (+1)", ([("new", "a"), ("view", "b", "a"), ("iadd", "a")],)),
        Clause("`a[0] = 5` writes in place (+1)", ([("new", "a"), ("setitem", "a"), ("setitem", "a")],)),
        Clause("`a[0] += 1` counts twice (+2)", ([("new", "a"), ("view", "b", "a"), ("index_iadd", "b")],)),
        Clause("`a.copy_(b)` writes into `a` (+1), not into `b`",
               ([("new", "a"), ("new", "b"), ("copy_", "a", "b")],)),
        Clause("`a.copy_(b)` writes into `a` (+1), not into `b` (here `a` is a view of `c`)",
               ([("new", "c"), ("view", "a", "c"), ("new", "b"), ("copy_", "a", "b")],)),
        Clause("A name assigned again points to the new tensor; views of the old one keep the old storage",
               ([("new", "a"), ("view", "b", "a"), ("add", "a", "a"), ("add_", "b"), ("add_", "a")],)),
        Clause("A name assigned again points to the new tensor (`a = a[:]` is still the same storage)",
               ([("new", "a"), ("add_", "a"), ("view", "a", "a"), ("add_", "a")],)),
        Clause("A storage is numbered by the statement that allocated it, counting from 0",
               ([("new", "a"), ("new", "b"), ("clone", "c", "b"), ("view", "d", "c")],)),
        Clause("A storage is numbered by the statement that allocated it, counting from 0",
               ([("new", "a"), ("add_", "a"), ("view", "b", "a"), ("add", "c", "b")],)),
        Clause("An empty program defines no names: return `{}`", ([],)),
    ],
    random_case=random_program,
    inputs="programs of 0 to 10 statements of every kind in the table over a few one-letter names: views of "
    "views, names assigned again, and writes through any name.",
    hint="Does a version counter belong to a name or to a storage, and which statements make a new storage "
    "rather than another way to reach an old one?",
    allowed=("items", "keys", "values", "get", "setdefault", "Counter", "defaultdict"),
)


# --- the in-place ReLU -------------------------------------------------------------------------

def relu_forward_reference(x: np.ndarray) -> np.ndarray:
    import tensorlab

    return np.asarray(tensorlab.tensor(x).relu_().numpy())


def relu_backward_reference(grad: np.ndarray, out: np.ndarray) -> np.ndarray:
    """The gradient torch's ReLU sends back, from its output alone (``out`` is a ReLU output)."""
    import tensorlab

    x = tensorlab.tensor(out, requires_grad=True)
    x.relu().backward(tensorlab.tensor(grad))
    assert x.grad is not None  # x is a leaf that requires grad: backward filled it in
    return np.asarray(x.grad.numpy().copy())


def maybe_strided(rng: np.random.Generator, array: np.ndarray) -> np.ndarray:
    """``array``, or one time in four the same values as a non-contiguous view (every other column, a transpose)."""
    if array.ndim == 0 or array.size == 0 or rng.random() >= 0.25:
        return array
    if rng.random() < 0.5 and array.ndim >= 2:
        return np.ascontiguousarray(array.swapaxes(0, -1)).swapaxes(0, -1)
    wide = np.zeros((*array.shape[:-1], 2 * array.shape[-1]), dtype=array.dtype)
    wide[..., ::2] = array
    return wide[..., ::2]


def relu_input(rng: np.random.Generator, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    """Mixed signs with exact zeros; floats now and then hold an inf, a -inf or a NaN."""
    values = np.array(np.round(rng.normal(size=shape) * 3) / 2)
    values[rng.random(size=shape) < 0.15] = 0.0
    if np.dtype(dtype).kind == "f" and values.size and rng.random() < 0.3:
        specials = np.array([np.inf, -np.inf, np.nan])
        flat = values.reshape(-1)
        flat[rng.integers(0, flat.size, size=2)] = rng.choice(specials, size=2)
    return np.asarray(values.astype(dtype))


def relu_shape(rng: np.random.Generator) -> tuple[int, ...]:
    shape = [int(size) for size in rng.integers(1, 6, size=int(rng.integers(0, 4)))]
    if shape and rng.random() < 0.1:
        shape[int(rng.integers(0, len(shape)))] = 0
    return tuple(shape)


RELU_DTYPES = (np.float64, np.float64, np.float32, np.int64, np.int32)


def random_relu_forward_case(rng: np.random.Generator) -> tuple[np.ndarray]:
    dtype = RELU_DTYPES[int(rng.integers(0, len(RELU_DTYPES)))]
    return (maybe_strided(rng, relu_input(rng, relu_shape(rng), dtype)),)


def random_relu_backward_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A gradient and a ReLU output of the same shape and float dtype (many exact zeros in the output)."""
    dtype = np.float32 if rng.random() < 0.3 else np.float64
    shape = relu_shape(rng)
    out = np.maximum(np.round(rng.normal(size=shape) * 4) / 4, 0).astype(dtype)
    return maybe_strided(rng, normal(rng, shape).astype(dtype)), maybe_strided(rng, np.asarray(out))


def large_relu_forward_case(rng: np.random.Generator) -> tuple[np.ndarray]:
    """8192 elements: a loop over them runs thousands of lines of the learner's code, np.maximum one."""
    return (normal(rng, LARGE_SHAPE),)


def large_relu_backward_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    return normal(rng, LARGE_SHAPE), np.maximum(normal(rng, LARGE_SHAPE), 0)


def ramp(*shape: int) -> np.ndarray:
    """Distinct values of ``shape``, half of them negative."""
    return np.arange(float(np.prod(shape))).reshape(shape) - float(np.prod(shape)) // 2


RELU_FORWARD_ = Task(
    name="relu_forward_", reference=relu_forward_reference,
    examples=[(np.array([-2.0, -0.5, 0.0, 1.5, 3.0]),), (ramp(2, 3),)],
    clauses=[
        Clause("write max(x, 0) into `x` itself and return `x`", (np.array([[-1.0, 2.0], [3.0, -4.0]]),)),
        Clause("negative values and 0 become 0; -inf becomes 0, inf stays inf",
               (np.array([-np.inf, -1.0, 0.0, 1.0, np.inf]),)),
        Clause("NaN stays NaN, as in torch", (np.array([np.nan, -1.0, 2.0]),)),
        Clause("keep `x`'s dtype: integer arrays too", (np.array([-3, 0, 4, -1], dtype=np.int64),)),
        Clause("keep `x`'s dtype: integer arrays too", (np.array([[5, -2], [-7, 1]], dtype=np.int32),)),
        Clause("keep `x`'s dtype", (np.array([-1.5, 2.5], dtype=np.float32),)),
        Clause("`x` may be a non-contiguous view: write through it", (ramp(4, 6)[:, ::2],)),
        Clause("`x` may be a non-contiguous view: write through it", (ramp(3, 2, 4).transpose(2, 0, 1),)),
        Clause("`x` may be 0-d", (np.asarray(-2.5),)),
        Clause("`x` may have a size 0", (np.zeros((0, 3)),)),
    ],
    random_case=random_relu_forward_case, keeps_inputs=False, view_of=0, returns_itself=True,
    view_strides=element_strides, vectorised=True, large_case=large_relu_forward_case,
    inputs="float64, float32, int64 and int32 arrays of 0 to 3 dims (0-d and size 0 included), contiguous or "
    "non-contiguous views (a transpose, every other column), with exact zeros (-0.0 too), inf, -inf and NaN, "
    "and one large array of 8192 elements.",
    hint="How can a NumPy operation put its result into memory that already exists, instead of a new array, "
    "and which object should the caller get back?",
    allowed=("maximum", "clip", "copyto", "where", "putmask"),
)

RELU_BACKWARD = Task(
    name="relu_backward", reference=relu_backward_reference,
    examples=[(np.ones(4), np.array([0.0, 0.0, 1.5, 3.0])), (ramp(2, 3), np.array([[0.0, 1.0, 2.0], [0.0, 0.0, 0.5]]))],
    clauses=[
        Clause("the gradient passes where `out` is positive", (np.array([2.0, -3.0, 0.5]), np.array([1.0, 4.0, 0.25]))),
        Clause("where `out` is 0 (the input was 0 or negative) the gradient is 0",
               (np.array([2.0, -3.0, 0.5, 7.0]), np.array([0.0, 0.0, 0.0, 2.0]))),
        Clause("the gradient is `grad` (not `grad * out`)", (np.array([1.0, 1.0, 1.0]), np.array([2.0, 0.5, 10.0]))),
        Clause("return a new array: do not change `grad`", (np.array([3.0, -1.0, 2.0]), np.array([0.0, 1.0, 0.0]))),
        Clause("keep the dtype of `grad`", (np.array([1.5, -2.0], dtype=np.float32), np.array([0.0, 1.0], dtype=np.float32))),
        Clause("any shape: 0-d", (np.asarray(2.5), np.asarray(0.0))),
        Clause("any shape: 0-d", (np.asarray(-2.5), np.asarray(3.0))),
        Clause("any shape: size 0", (np.zeros((2, 0)), np.zeros((2, 0)))),
        Clause("non-contiguous views", (ramp(3, 4).T, np.maximum(ramp(4, 3), 0))),
        Clause("non-contiguous views", (ramp(2, 6)[:, ::2], np.maximum(ramp(3, 2), 0).T)),
    ],
    random_case=random_relu_backward_case, vectorised=True, large_case=large_relu_backward_case,
    fresh_result=True,
    inputs="grad and out of the same shape and dtype, float64 or float32, 0 to 3 dims (0-d and size 0 "
    "included), contiguous or non-contiguous views (a transpose, every other column), out >= 0 with many exact "
    "zeros, and one large pair of 8192 elements.",
    hint="Once the forward has overwritten its input, what does the output still tell you about where the "
    "derivative is 1, and does the result leave grad untouched?",
    allowed=("where", "zeros_like", "copy", "astype", "multiply"),
)


# --- overlapping_pairs ---------------------------------------------------------------------------

def positions(layout: Layout) -> set[int]:
    """The storage slots a tensor of this layout reads (tensorlab's own index arithmetic)."""
    from tensorlab._storage import storage_positions

    _, offset, shape, strides = layout
    return {int(slot) for slot in np.ravel(storage_positions(tuple(shape), tuple(strides), offset))}


def overlapping_pairs_reference(tensors: list[Layout]) -> list[tuple[int, int]]:
    slots = [positions(layout) for layout in tensors]
    return [(i, j) for i in range(len(tensors)) for j in range(i + 1, len(tensors))
            if tensors[i][0] == tensors[j][0] and slots[i] & slots[j]]


def contiguous_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


def random_view(rng: np.random.Generator, storage: str, rows: int, columns: int) -> Layout:
    """A view of the (rows, columns) matrix that fills ``storage`` from slot 0: the views students make."""
    row, column = int(rng.integers(0, rows)), int(rng.integers(0, columns))
    start = int(rng.integers(0, rows * columns))
    kinds = {
        "whole": (0, (rows, columns), (columns, 1)),
        "transpose": (0, (columns, rows), (1, columns)),
        "row": (row * columns, (columns,), (1,)),
        "column": (column, (rows,), (columns,)),
        "element": (row * columns + column, (), ()),
        "every other": (start % 2, ((rows * columns - start % 2 + 1) // 2,), (2,)),
        "flat slice": (start, (int(rng.integers(0, rows * columns - start + 1)),), (1,)),
        "expanded row": (row * columns, (int(rng.integers(1, 4)), columns), (0, 1)),
        "rows from": (row * columns, (rows - row, columns), (columns, 1)),
        "empty": (start, (0, columns), (columns, 1)),
    }
    weights = np.array([1, 1, 2, 2, 1, 2, 2, 1, 1, 0.4])
    name = list(kinds)[int(rng.choice(len(kinds), p=weights / weights.sum()))]
    offset, shape, strides = kinds[name]
    return storage, offset, shape, strides


def random_layouts(rng: np.random.Generator) -> tuple[list[Layout]]:
    """2 to 6 views of one or two matrices (in storages "s" and "t")."""
    rows, columns = int(rng.integers(1, 5)), int(rng.integers(1, 5))
    storages = ["s"] if rng.random() < 0.5 else ["s", "t"]
    return ([random_view(rng, str(rng.choice(storages)), rows, columns) for _ in range(int(rng.integers(2, 7)))],)


def matrix(storage: str = "s", rows: int = 3, columns: int = 4) -> Layout:
    return storage, 0, (rows, columns), (columns, 1)


OVERLAPPING_PAIRS = Task(
    name="overlapping_pairs", reference=overlapping_pairs_reference,
    examples=[([matrix(), ("s", 4, (4,), (1,)), ("s", 8, (4,), (1,))],),
              ([("s", 0, (6,), (1,)), ("s", 0, (2, 3), (3, 1)), ("t", 0, (6,), (1,))],)],
    clauses=[
        Clause("the same storage is not enough: two columns of one matrix share no element",
               ([matrix(), ("s", 0, (3,), (4,)), ("s", 1, (3,), (4,))],)),
        Clause("elements in between do not count: x[0::2] and x[1::2] share no element",
               ([("s", 0, (4,), (2,)), ("s", 1, (4,), (2,))],)),
        Clause("one shared element is enough", ([("s", 0, (3,), (1,)), ("s", 2, (3,), (1,))],)),
        Clause("one shared element is enough", ([("s", 3, (2, 2), (4, 1)), ("s", 7, (2,), (1,))],)),
        Clause("different storages never overlap, even with the same layout",
               ([("s", 0, (2, 3), (3, 1)), ("t", 0, (2, 3), (3, 1))],)),
        Clause("a tensor with a size 0 has no element, so it overlaps nothing",
               ([("s", 0, (2, 3), (3, 1)), ("s", 2, (0, 3), (3, 1)), ("s", 4, (0,), (1,))],)),
        Clause("strides may be 0 (an expanded row)", ([("s", 4, (3, 4), (0, 1)), ("s", 0, (3,), (4,)), ("s", 5, (), ())],)),
        Clause("a transpose overlaps the original", ([("s", 0, (3, 2), (1, 3)), ("s", 0, (2, 3), (3, 1))],)),
        Clause("a 0-d tensor holds the one element at its storage_offset",
               ([("s", 5, (), ()), ("s", 0, (2, 3), (3, 1)), ("s", 6, (), ())],)),
        Clause("each pair `(i, j)` once, with `i < j`, the list sorted",
               ([("s", 0, (4,), (1,)), ("s", 2, (2,), (1,)), ("s", 1, (2,), (2,)), ("s", 0, (), ())],)),
        Clause("a tensor is not paired with itself; no overlap gives `[]`", ([("s", 0, (3,), (1,))],)),
        Clause("a tensor is not paired with itself; no overlap gives `[]`",
               ([("s", 0, (2,), (1,)), ("s", 2, (2,), (1,))],)),
    ],
    random_case=random_layouts,
    inputs="1 to 6 layouts over one or two storages: whole matrices, transposes, rows, columns, single "
    "elements (0-d), every other element, flat slices, expanded rows (stride 0), trailing rows and empty "
    "(size 0) views.",
    hint="Which storage slots does each tensor actually read, element by element (not the whole range "
    "between its first and last), and when can two tensors read the same one?",
    allowed=("append", "sum", "set", "add", "sorted", "isdisjoint", "intersection", "values", "defaultdict",
             "combinations", "product", "prod", "array", "arange", "outer", "intersect1d", "unique"),
)

EXERCISE = Exercise(notebook="in_place", tasks=(TRACK_VERSIONS, RELU_FORWARD_, RELU_BACKWARD, OVERLAPPING_PAIRS))
