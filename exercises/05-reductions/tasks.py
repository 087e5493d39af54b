"""Unit 05, reductions: sum over dims (loops, then vectorised), stable logsumexp and softmax, argmax's tie rule.

Each task's clauses test one sentence of the statement in ``exercises/05-reductions``: lists of
dims in any order, negative dims, repeated dims, keepdim, zero-size dims, torch's result dtype,
inputs of +-1000 that overflow a naive ``exp``, rows of ``-inf``, ties and NaN for argmax. The
random cases mix those with ordinary inputs, non-contiguous views and several dtypes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tensorlab.grading.compare import Tolerance
from tensorlab.grading.random_cases import maybe_strided, normal
from tensorlab.grading.tasks import Clause, Exercise, Task

__all__ = ["EXERCISE", "ARGMAX", "LOGSUMEXP", "SOFTMAX", "SUM_DIMS_LOOPS", "SUM_DIMS_VECTORISED"]

# Whatever adds up elements for you: the reductions this exercise asks you to write yourself.
# (Not numpy.apply_over_axes: it only calls the function it is given, which is refused anyway.)
LIBRARY_SUMS = (
    "numpy.sum", "numpy.nansum", "numpy.add.reduce", "numpy.add.reduceat", "numpy.add.accumulate", "numpy.cumsum",
    "numpy.nancumsum", "numpy.mean", "numpy.average", "numpy.einsum", "numpy.tensordot", "numpy.trace",
    "math.fsum", "torch.sum", "tensorlab.sum",
)
NUMPY_LOG_ADDS = ("numpy.logaddexp", "numpy.logaddexp2")  # logaddexp.reduce is a logsumexp
LIBRARY_LOGSUMEXPS = (*NUMPY_LOG_ADDS, "torch.logsumexp", "tensorlab.logsumexp")
LIBRARY_SOFTMAXES = (*NUMPY_LOG_ADDS, "torch.softmax", "torch.nn.functional.log_softmax", "tensorlab.softmax")
LIBRARY_ARGMAXES = (
    "numpy.argmax", "numpy.argmin", "numpy.nanargmax", "numpy.nanargmin", "numpy.argsort", "numpy.argpartition",
    "numpy.lexsort", "numpy.sort", "torch.argmax", "tensorlab.argmax",
)
SUM_TOLERANCE = Tolerance(rtol=1e-5, atol=1e-5)  # float32 sums added in another order differ in the last bits
STABLE_TOLERANCE = Tolerance(rtol=1e-5, atol=1e-7)
FLOAT_DTYPES = (np.float64, np.float64, np.float32)  # float64 twice: the usual case
SUM_DTYPES = (np.float64, np.float64, np.int64, np.float32, np.int32, np.bool_)
LARGE_SHAPE = (4, 1000, 3)  # summed over dims 2 and 0: a loop over what is kept runs 1000 times


def _tensor(x: np.ndarray) -> Any:
    import tensorlab

    return tensorlab.from_numpy(x)


# --- references: tensorlab on the arrays themselves ------------------------------------------
def sum_dims_reference(x: np.ndarray, dims: Any, keepdim: bool) -> np.ndarray:
    return np.asarray(_tensor(x).sum(dims, keepdim=keepdim).numpy())


def logsumexp_reference(x: np.ndarray, dim: int) -> np.ndarray:
    return np.asarray(_tensor(x).logsumexp(dim).numpy())


def softmax_reference(x: np.ndarray, dim: int) -> np.ndarray:
    with np.errstate(invalid="ignore"):  # a row holding inf gives nan, as in torch
        return np.asarray(_tensor(x).softmax(dim).numpy())


def argmax_reference(x: np.ndarray, dim: int | None, keepdim: bool) -> np.ndarray:
    return np.asarray(_tensor(x).argmax(dim, keepdim=keepdim).numpy())


# --- random cases ------------------------------------------------------------------------------
def random_shape(rng: np.random.Generator, min_ndim: int = 1, max_ndim: int = 4, empty: float = 0.125) -> list[int]:
    """Sizes 1..4; with probability ``empty`` one dim has size 0."""
    shape = [int(size) for size in rng.integers(1, 5, size=rng.integers(min_ndim, max_ndim + 1))]
    if rng.random() < empty:
        shape[int(rng.integers(0, len(shape)))] = 0
    return shape


def random_values(rng: np.random.Generator, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    kind = np.dtype(dtype).kind
    if kind == "b":
        return rng.random(size=shape) < 0.5
    if kind in "iu":
        return rng.integers(-9, 10, size=shape).astype(dtype)
    return normal(rng, shape).astype(dtype)


def random_dims(rng: np.random.Generator, ndim: int) -> Any:
    """An int (one time in three) or a list of distinct dims in any order, some counted from the end.

    One case in ten repeats a dim (the second time counted from the other end, sometimes), one in
    twenty names a dim out of range: both raise, as in torch.
    """
    count = 1 if rng.random() < 1 / 3 else int(rng.integers(1, ndim + 1))
    dims = [int(d) for d in rng.permutation(ndim)[:count]]
    dims = [d - ndim if rng.random() < 0.3 else d for d in dims]
    draw = rng.random()
    if draw < 0.1:
        repeated = dims[int(rng.integers(0, len(dims)))]
        dims.insert(int(rng.integers(0, len(dims) + 1)), repeated % ndim if rng.random() < 0.5 else repeated % ndim - ndim)
    elif draw < 0.15:
        dims[int(rng.integers(0, len(dims)))] = int(rng.choice([ndim, -ndim - 1]))
    if count == 1 and len(dims) == 1 and rng.random() < 0.5:
        return dims[0]
    return dims


def random_sum_case(rng: np.random.Generator) -> tuple[np.ndarray, Any, bool]:
    shape = tuple(random_shape(rng))
    dtype = SUM_DTYPES[int(rng.integers(0, len(SUM_DTYPES)))]
    x = maybe_strided(rng, random_values(rng, shape, dtype))
    return x, random_dims(rng, len(shape)), bool(rng.random() < 0.5)


def large_sum_case(rng: np.random.Generator) -> tuple[np.ndarray, Any, bool]:
    return normal(rng, LARGE_SHAPE), [2, 0], bool(rng.random() < 0.5)


def large_values(rng: np.random.Generator, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    """Normal values, and in two cases out of five the scale of logits that overflow exp.

    Large cases shift each element by one of a few offsets in -2000..2000, so rows sit at very
    different heights (one shift for the whole array would not catch a global max), and spread them
    by up to 30 so that exp of the differences underflows too. One case in five puts -inf (a
    masked position) in some elements, and then sometimes +inf in one of them.
    """
    values = normal(rng, shape)
    if rng.random() < 0.4:
        values = values * rng.choice([1.0, 10.0, 30.0]) + rng.choice([-2000.0, -1000.0, 0.0, 1000.0, 2000.0], size=shape)
    if values.size and rng.random() < 0.2:
        values[rng.random(size=shape) < 0.4] = -np.inf
        if rng.random() < 0.3:
            values[np.unravel_index(int(rng.integers(0, values.size)), shape)] = np.inf
    return values.astype(dtype)


def random_stable_case(rng: np.random.Generator, empty: float) -> tuple[np.ndarray, int]:
    shape = tuple(random_shape(rng, 1, 3, empty))
    dtype = FLOAT_DTYPES[int(rng.integers(0, len(FLOAT_DTYPES)))]
    dim = int(rng.integers(0, len(shape)))
    if rng.random() < 0.25:
        dim -= len(shape)
    return maybe_strided(rng, large_values(rng, shape, dtype)), dim


def random_logsumexp_case(rng: np.random.Generator) -> tuple[np.ndarray, int]:
    return random_stable_case(rng, empty=0.125)


def random_softmax_case(rng: np.random.Generator) -> tuple[np.ndarray, int]:
    return random_stable_case(rng, empty=0.0)


def large_stable_case(rng: np.random.Generator) -> tuple[np.ndarray, int]:
    """A long axis that is kept (1500 rows or columns) and a short one reduced: a loop over either is long."""
    dim = int(rng.integers(0, 2))
    return normal(rng, (8, 1500) if dim == 0 else (1500, 8)) * 30 + 1000, dim


def random_argmax_case(rng: np.random.Generator) -> tuple[np.ndarray, int | None, bool]:
    """Few distinct values, so ties are common; NaN in one float case in four; dim None one time in four."""
    shape = tuple(random_shape(rng, 1, 3, empty=0.1))
    if rng.random() < 0.4:
        x = rng.integers(-2, 3, size=shape).astype(np.int64 if rng.random() < 0.7 else np.int32)
    else:
        x = rng.choice([-1.5, 0.0, 0.5, 2.0], size=shape).astype(FLOAT_DTYPES[int(rng.integers(0, 3))])
        if x.size and rng.random() < 0.25:
            x[rng.random(size=shape) < 0.3] = np.nan
    draw = rng.random()
    dim: int | None = None if draw < 0.25 else int(rng.integers(-len(shape), len(shape)))
    if draw > 0.95:
        dim = int(rng.choice([len(shape), -len(shape) - 1]))
    return maybe_strided(rng, x), dim, bool(rng.random() < 0.5)


# --- fixed cases -------------------------------------------------------------------------------
ONES_345 = np.ones((3, 4, 5))
CUBE = np.arange(24.0).reshape(2, 3, 4)
NOT_CONTIGUOUS = np.arange(24.0).reshape(4, 6)[:, ::2].T  # shape (3, 4), neither C nor F contiguous

SUM_EXAMPLES = [
    (ONES_345, 0, False),
    (ONES_345, [0, 1], True),
    (np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), 1, False),
]
SUM_CLAUSES = [
    Clause("dims is an int: sum over that one dim", (CUBE, 1, False)),
    Clause("dims is a list of dims, in any order", (CUBE, [2, 0], False)),
    Clause("dims may list every dim: the result is 0-d (shape ())", (CUBE, [0, 1, 2], False)),
    Clause("negative dims count from the end", (CUBE, [-1], False)),
    Clause("negative dims count from the end", (CUBE, [-3, 2], True)),
    Clause("keepdim=True keeps each summed dim with size 1", (CUBE, [0, 2], True)),
    Clause("keepdim=True keeps each summed dim with size 1", (CUBE, -2, True)),
    Clause("the dims that are not summed keep their sizes, 1 included", (np.arange(6.0).reshape(1, 2, 3), 2, False)),
    Clause("a dim named twice raises RuntimeError", (CUBE, [1, 1], False)),
    Clause("a dim named twice raises RuntimeError (also as 1 and -2)", (CUBE, [1, -2], True)),
    Clause("a dim out of range raises IndexError", (CUBE, 3, False)),
    Clause("a dim out of range raises IndexError", (CUBE, [0, -4], False)),
    Clause("every dim's range is checked before any repeat: a dim out of range raises IndexError",
           (CUBE, [1, 4], False)),
    Clause("every dim's range is checked before any repeat: a dim out of range raises IndexError",
           (CUBE, [1, 1, 5], True)),
    Clause("the dims that are not summed keep their order", (np.arange(18.0).reshape(3, 2, 3), 1, False)),
    Clause("the dims that are not summed keep their order", (np.arange(36.0).reshape(3, 2, 3, 2), [3, 1], True)),
    Clause("summing over a size-0 dim gives 0", (np.ones((2, 0, 3)), 1, False)),
    Clause("a size-0 dim that is kept gives an empty result", (np.ones((0, 3)), [1], True)),
    Clause("an integer x gives int64, like torch", (np.arange(6, dtype=np.int32).reshape(2, 3), 0, False)),
    Clause("an integer x sums exactly, as int64 (beyond 2**53, where float64 skips integers)",
           (np.array([[2**53 + 1, 2], [2**62 + 1, 3]]), 1, False)),
    Clause("an integer x sums exactly, as int64 (beyond 2**53, where float64 skips integers)",
           (np.array([[2**53 + 1, 2], [2**60 + 1, 3]]), [0, 1], True)),
    Clause("a bool x counts its True values, as int64", (np.array([[True, False, True], [True, True, False]]), [1], False)),
    Clause("a float x keeps its dtype", (np.arange(6, dtype=np.float32).reshape(3, 2) / 4, 1, True)),
    Clause("x may be a non-contiguous view", (NOT_CONTIGUOUS, [1], False)),
    Clause("x may be a non-contiguous view", (np.arange(24.0).reshape(2, 3, 4).transpose(2, 0, 1), [0, 2], True)),
]

BIG_ROWS = np.array([[1000.0, 1000.0, 999.0], [-1000.0, -999.0, -1001.0]])
LOGSUMEXP_EXAMPLES = [
    (np.array([[1.0, 2.0], [3.0, 4.0]]), 1),
    (np.log(np.array([1.0, 2.0, 5.0])), 0),
]
STABLE_CLAUSES = [
    Clause("large inputs: exp(1000) overflows, your answer must not", (BIG_ROWS, 1)),
    Clause("large inputs: rows at very different heights", (np.array([[2000.0, 0.0], [2001.0, -3000.0], [1990.0, -3005.0]]), 0)),
    Clause("very negative inputs: exp(-1000) underflows to 0, your answer must not", (BIG_ROWS[1:] - 500, -1)),
    Clause("dim may be any dim of x, e.g. the middle one", (CUBE * 100, 1)),
    Clause("dim may be negative", (CUBE * 100, -3)),
    Clause("-inf entries (masked positions) contribute nothing", (np.array([[-np.inf, 0.0, 1.0], [5.0, -np.inf, -np.inf]]), 1)),
    Clause("keep x's dtype: float32 in, float32 out", (np.array([[100.0, 101.0, 99.5]], np.float32), 1)),
    Clause("x may be a non-contiguous view", (NOT_CONTIGUOUS * 300, 0)),
]
LOGSUMEXP_CLAUSES = [
    *STABLE_CLAUSES,
    Clause("a row that is all -inf gives -inf (not nan)", (np.array([[-np.inf, -np.inf], [0.0, 1.0]]), 1)),
    Clause("a row holding +inf gives +inf (not nan)", (np.array([[np.inf, 1.0], [np.inf, -np.inf], [2.0, 3.0]]), 1)),
    Clause("a size-0 dim gives -inf (the log of an empty sum)", (np.ones((2, 0)), 1)),
    Clause("x may have a size-0 dim that is not reduced: the result is empty", (np.ones((0, 3)), 1)),
    Clause("x is 1-d: the result is 0-d", (np.array([0.5, 1000.0, -2.0]), 0)),
]
SOFTMAX_EXAMPLES = [
    (np.array([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]]), 1),
    (np.array([0.0, np.log(3.0)]), 0),
]
SOFTMAX_CLAUSES = [
    *STABLE_CLAUSES,
    Clause("the result has x's shape: every slice along dim sums to 1", (np.array([[0.5, -0.5], [3.0, 1.0]]), 0)),
    Clause("a row that is all -inf gives nan, as in torch (0 / 0)", (np.array([[-np.inf, -np.inf], [0.0, 1.0]]), 1)),
    Clause("x may have a size-0 dim that is not reduced: the result is empty", (np.ones((0, 3)), 1)),
]

TIES = np.array([[1.0, 3.0, 3.0, 0.0], [2.0, 2.0, 2.0, 2.0], [-1.0, 0.0, 5.0, 5.0]])
ARGMAX_EXAMPLES = [
    (np.array([[1.0, 5.0, 2.0], [7.0, 0.0, 7.5]]), 1, False),
    (np.array([3, 9, 4]), 0, False),
    (np.array([[1.0, 5.0, 2.0], [7.0, 0.0, 7.5]]), None, False),
]
ARGMAX_CLAUSES = [
    Clause("ties: return the index of the first largest value", (TIES, 1, False)),
    Clause("ties: return the index of the first largest value", (TIES, 0, False)),
    Clause("ties: return the index of the first largest value", (np.array([4, 7, 7, 1, 7], np.int32), 0, False)),
    Clause("dim may be negative", (CUBE % 5, -2, False)),
    Clause("keepdim=True keeps dim with size 1", (CUBE % 5, 1, True)),
    Clause("dim=None: the index into x flattened in row-major order", (CUBE % 7, None, False)),
    Clause("dim=None: the index into x flattened in row-major order (x may be a non-contiguous view)",
           (np.array([[0.0, 9.0], [1.0, 2.0], [3.0, 4.0]]).T, None, False)),
    Clause("dim=None with keepdim=True: every dim kept with size 1", (CUBE % 7, None, True)),
    Clause("NaN counts as larger than any number: the first NaN wins",
           (np.array([[1.0, np.nan, 3.0, np.nan], [np.inf, 2.0, 2.0, np.nan]]), 1, False)),
    Clause("NaN counts as larger than any number: the first NaN wins", (np.array([5.0, np.nan, np.inf]), None, False)),
    Clause("-inf and +inf are ordinary values", (np.array([[-np.inf, -np.inf], [np.inf, 3.0]]), 1, False)),
    Clause("the result is int64 (also for an int32 x)", (np.array([[2, 8], [9, 1]], np.int32), 0, True)),
    Clause("a size-0 dim to reduce raises IndexError", (np.ones((2, 0)), 1, False)),
    Clause("dim=None on an empty x raises IndexError", (np.ones((0, 3)), None, False)),
    Clause("a size-0 dim that is not reduced gives an empty result", (np.ones((0, 3)), 1, False)),
    Clause("a dim out of range raises IndexError", (TIES, 2, False)),
    Clause("x may be a non-contiguous view", (NOT_CONTIGUOUS, 1, False)),
]

# What the cases draw, as the notebook says it (each statement quotes its sentence).
SUM_INPUTS = ("`x` has 1 to 4 dims (sizes 0 to 5, possibly a non-contiguous view) of dtype float64, float32, "
              "int64 (values up to `2**62`), int32 or bool; `dims` is an int or a list of dims in any order, negative ones too, "
              "sometimes one named twice or out of range; `keepdim` is `True` or `False`.")
LARGE_SUM_INPUT = "The large case is a float64 `x` of shape (4, 1000, 3), summed over dims 2 and 0."
STABLE_INPUTS = ("`x` is float64 or float32 with 1 to 3 dims (sizes 0 to 4, possibly a non-contiguous view), "
                 "holding ordinary values, values in the thousands (positive or negative, rows at very different "
                 "heights), `-inf` (masked) and `+inf` entries; `dim` is any dim of `x`, negative ones too.")
LARGE_STABLE_INPUT = "The large case is a float64 `x` of shape (8, 1500) or (1500, 8), values near 1000, reduced over its 8."
ARGMAX_INPUTS = ("`x` is int64, int32, float64 or float32 with 1 to 3 dims (sizes 0 to 4, possibly a non-contiguous "
                 "view) and few distinct values (many ties), NaN, `+inf` and `-inf`; `dim` is `None` or any dim, "
                 "negative ones too, sometimes out of range; `keepdim` is `True` or `False`.")

# What each part may use besides rules.COMMON_NAMES (the statement lists the same names). Nothing that adds
# up for you: no sum, cumsum, add.at, bincount, einsum, vecdot; nor exp and log where sums are asked
# (the log of a product of exps is a sum).
DTYPE_FACTS = ("kind", "issubdtype", "integer", "floating", "astype")
SUM_LOOPS_ALLOWED = (
    *DTYPE_FACTS, "asarray", "zeros", "ndindex", "reshape", "ravel", "squeeze", "append", "sorted", "set", "add",
    "product",
)
SUM_VECTORISED_ALLOWED = (
    *DTYPE_FACTS, "array", "asarray", "atleast_1d", "zeros", "ones", "arange", "reshape", "transpose", "moveaxis",
    "expand_dims", "concatenate", "flatnonzero", "count_nonzero", "where", "isin", "sort", "unique", "prod",
    "sorted", "tolist", "dot", "inner", "matmul",
)
STABLE_ALLOWED = (
    "astype", "errstate", "exp", "log", "log1p", "sum", "amax", "maximum", "add", "reduce", "where", "isinf",
    "isfinite", "nan_to_num", "ones", "moveaxis", "swapaxes", "reshape", "squeeze", "expand_dims", "copy", "matmul",
)
ARGMAX_ALLOWED = (
    "reshape", "ravel", "moveaxis", "zeros", "ndindex", "expand_dims", "isnan", "where", "arange", "flatnonzero",
    "astype", "asarray", "array", "flat", "tolist", "item", "append",
)

SUM_DIMS_LOOPS = Task(
    name="sum_dims_loops", reference=sum_dims_reference, examples=SUM_EXAMPLES, clauses=SUM_CLAUSES,
    random_case=random_sum_case, tolerance=SUM_TOLERANCE, forbidden=LIBRARY_SUMS,
    hint="Which element of the output does each element of x add into: what becomes of its index in a summed "
    "dim, and which dtype can hold the sum of a bool or int x?",
    inputs=SUM_INPUTS, allowed=SUM_LOOPS_ALLOWED,
)
SUM_DIMS_VECTORISED = Task(
    name="sum_dims_vectorised", reference=sum_dims_reference, examples=SUM_EXAMPLES, clauses=SUM_CLAUSES,
    random_case=random_sum_case, tolerance=SUM_TOLERANCE, forbidden=LIBRARY_SUMS, vectorised=True,
    large_case=large_sum_case,
    hint="If the summed dims were the last dims, merged into one, which matrix product would add each row up, "
    "and how many elements does such a row hold when some size is 0?",
    inputs=f"{SUM_INPUTS} {LARGE_SUM_INPUT}", allowed=SUM_VECTORISED_ALLOWED,
)
LOGSUMEXP = Task(
    name="logsumexp", reference=logsumexp_reference, examples=LOGSUMEXP_EXAMPLES, clauses=LOGSUMEXP_CLAUSES,
    random_case=random_logsumexp_case, tolerance=STABLE_TOLERANCE, forbidden=LIBRARY_LOGSUMEXPS, vectorised=True,
    large_case=large_stable_case,
    hint="Which number can you take out of every exp along dim so that none overflows or underflows to a sum "
    "of 0, how do you put it back afterwards, and what should it be when the largest entry is infinite?",
    inputs=f"{STABLE_INPUTS} {LARGE_STABLE_INPUT}", allowed=STABLE_ALLOWED,
)
SOFTMAX = Task(
    name="softmax", reference=softmax_reference, examples=SOFTMAX_EXAMPLES, clauses=SOFTMAX_CLAUSES,
    random_case=random_softmax_case, tolerance=STABLE_TOLERANCE, forbidden=LIBRARY_SOFTMAXES, vectorised=True,
    large_case=large_stable_case,
    hint="Which shift of x along dim leaves the ratios of the exps unchanged but keeps them from overflowing, "
    "and must it be one number per slice along dim or one for the whole array?",
    inputs=f"{STABLE_INPUTS} {LARGE_STABLE_INPUT}", allowed=STABLE_ALLOWED,
)
ARGMAX = Task(
    name="argmax", reference=argmax_reference, examples=ARGMAX_EXAMPLES, clauses=ARGMAX_CLAUSES,
    random_case=random_argmax_case, forbidden=LIBRARY_ARGMAXES,
    hint="When two values tie, which index should survive, and what does a comparison with NaN answer: is "
    "NaN ever larger than a number?",
    inputs=ARGMAX_INPUTS, allowed=ARGMAX_ALLOWED,
)

EXERCISE = Exercise(notebook="reductions", tasks=(SUM_DIMS_LOOPS, SUM_DIMS_VECTORISED, LOGSUMEXP, SOFTMAX, ARGMAX))
