"""Unit 13, kernels and precision: three Triton kernels graded on the interpreter, and a float format by hand.

The kernels (fused bias + ReLU, a masked row softmax, one output tile of a matmul) are launched
by the grader's harness (``harnesses/triton_launch.py``) with the grid and block sizes it picks,
on inputs placed inside larger buffers of canaries: an out-of-bounds load or store fails the
case even though the interpreter never traps it. Sizes are never multiples of the blocks, grids
are never square (a swapped ``program_id`` axis leaves tiles unwritten), row strides are longer
than rows and differ between input and output, ``a`` or ``b`` may be column-major. Softmax rows of
values near ±100 overflow (or underflow to 0/0) without the max subtracted; matmul's inputs are
small positive integers whose sums pass 4096, exact in an fp32 accumulator and rounded in fp16.

``round_to_format`` rounds float64 values to bf16 or fp16 by bit manipulation; its clauses are the
format's edges: ties to even, the largest finite value and overflow, subnormals and underflow,
NaN and infinities, and the values a detour through float32 rounds twice.
"""

from __future__ import annotations

import numpy as np

from tensorlab.grading.compare import Tolerance
from tensorlab.grading.rules import PURE_STANDARD_LIBRARY
from tensorlab.grading.tasks import Clause, Exercise, Task

__all__ = ["EXERCISE", "BIAS_RELU", "MATMUL_TILE", "ROUND_TO_FORMAT", "ROW_SOFTMAX"]

KERNEL_BLOCKS = ("triton", *PURE_STANDARD_LIBRARY)  # no NumPy or torch inside a kernel
TRITON_INTERNALS = (  # the interpreter and the grader's watch on it must stay out of reach
    "triton.runtime", "triton._C", "triton.compiler", "triton.knobs", "triton.backends", "triton.testing",
    "triton.tools", "triton.experimental", "triton.language.inline_asm_elementwise",
    # the interpreter adds its globals to a kernel's module when it runs it: these reach its loads and stores
    # (objects and a module: refused statically, never replaced, or the interpreter itself would break)
    *(f"triton.runtime.interpreter.{name}" for name in ("interpreter_builder", "interpreter_semantic", "_interpreter")),
    *(f"triton.language.atomic_{op}" for op in ("add", "and", "cas", "load", "max", "min", "or", "poll", "store",
                                                 "xchg", "xor")),
)
# The allow-lists: what a kernel may name of triton and triton.language (``tl.max``, ``tl.abs``, ``tl.float32``,
# ``range`` are among the common names), and the NumPy of the bit-twiddling part. Each statement lists them.
BIAS_RELU_ALLOWED = ("jit", "constexpr", "program_id", "arange", "load", "store", "maximum", "minimum", "where",
                     "expand_dims", "broadcast_to", "zeros", "full", "to")
ROW_SOFTMAX_ALLOWED = ("jit", "constexpr", "program_id", "arange", "load", "store", "exp", "exp2", "log", "sum",
                       "maximum", "where", "full", "to")
MATMUL_TILE_ALLOWED = ("jit", "constexpr", "program_id", "arange", "load", "store", "zeros", "dot", "cdiv",
                       "expand_dims", "where", "full", "to")
ROUND_ALLOWED = (
    "asarray", "array", "astype", "view", "copy", "reshape", "uint64", "uint32", "uint16", "maximum", "minimum",
    "clip", "where", "isfinite", "isnan", "isinf", "copysign", "signbit", "ldexp", "frexp", "left_shift",
    "right_shift", "bitwise_and", "bitwise_or", "errstate",
)
KERNEL_SECONDS = 20.0  # triton starts in the sandbox, then every case is a launch on the interpreter (~30 ms)
KERNEL_MEMORY_MB = 2048


def next_power_of_two(n: int) -> int:
    return 1 << max(0, (n - 1).bit_length())


def not_a_multiple(rng: np.random.Generator, block: int, most_blocks: int) -> int:
    """A size that needs 1 to ``most_blocks`` blocks, the last one partly empty."""
    return int(block * rng.integers(0, most_blocks) + rng.integers(1, block))


def floats32(rng: np.random.Generator, shape: tuple[int, ...], scale: float = 1.0) -> np.ndarray:
    return np.round(rng.normal(size=shape) * scale, 3).astype(np.float32)


# --- fused bias + ReLU ---------------------------------------------------------------------
def bias_relu_reference(x: np.ndarray, bias: np.ndarray, block_rows: int, block_cols: int) -> np.ndarray:
    """relu(x + bias) in float32 (the block sizes are the launch's, not the result's)."""
    return np.maximum(x + bias, np.float32(0.0)).astype(np.float32)


def bias_relu_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, int, int]:
    """Blocks of 2-8 rows and 4-16 columns, sizes never multiples of them, a grid never square (and small:
    every program is a few hundred NumPy calls on the interpreter)."""
    block_rows, block_cols = int(rng.choice([2, 4, 8])), int(rng.choice([4, 8, 16]))
    while True:
        rows, cols = not_a_multiple(rng, block_rows, 2), not_a_multiple(rng, block_cols, 3)
        if -(-rows // block_rows) != -(-cols // block_cols):
            break
    return floats32(rng, (rows, cols)), floats32(rng, (cols,)), block_rows, block_cols


def _bias_relu(rows: int, cols: int, block_rows: int, block_cols: int, seed: int) -> tuple:
    rng = np.random.default_rng(seed)
    return floats32(rng, (rows, cols)), floats32(rng, (cols,)), block_rows, block_cols


BIAS_RELU = Task(
    name="bias_relu_kernel",
    reference=bias_relu_reference,
    examples=[_bias_relu(5, 19, 4, 8, 1)],
    clauses=[
        Clause("program_id(0) picks the block of rows, program_id(1) the block of columns", _bias_relu(3, 21, 4, 8, 2)),
        Clause("the sizes are not multiples of the blocks: mask the loads and the stores at the edges",
               _bias_relu(9, 5, 4, 4, 3)),
        Clause("a single row: the masks leave one row of the first block of rows", _bias_relu(1, 9, 2, 4, 4)),
        Clause("x's rows are stride_x_row elements apart, out's stride_out_row: neither is n_cols; "
               "column j of every row gets bias[j], negative sums become 0", _bias_relu(6, 7, 8, 4, 5)),
    ],
    random_case=bias_relu_case,
    random_cases=2,  # each case is an interpreter launch: the clauses carry the edges
    allowed=BIAS_RELU_ALLOWED,
    inputs=("A float32 `x` of 1 to 15 rows and 1 to 47 columns and its float32 `bias`, values of a few units of "
            "either sign; blocks of 2, 4 or 8 rows and 4, 8 or 16 columns, never dividing the sizes."),
    hint="Which rows and which columns does one program own, and what must be true of a lane, in both "
         "directions at once, before it may be read or written?",
    tolerance=Tolerance(rtol=1e-6, atol=1e-7),
    building_blocks=KERNEL_BLOCKS,
    forbidden=TRITON_INTERNALS,
    harness="tensorlab.grading.harnesses.triton_launch:launch_bias_relu",
    at_least_seconds=KERNEL_SECONDS,
    at_least_memory_mb=KERNEL_MEMORY_MB,
)


# --- row softmax -----------------------------------------------------------------------------
def row_softmax_reference(x: np.ndarray, block: int) -> np.ndarray:
    """Softmax of each row, computed in float64 from the max-shifted values, returned as float32."""
    shifted = x.astype(np.float64) - x.max(axis=1, keepdims=True)
    exponentials = np.exp(shifted)
    return (exponentials / exponentials.sum(axis=1, keepdims=True)).astype(np.float32)


def row_softmax_case(rng: np.random.Generator) -> tuple[np.ndarray, int]:
    """1-6 rows of 3-40 columns (never a power of two), one row in three shifted to around ±100."""
    rows = int(rng.integers(1, 7))
    cols = int(rng.integers(3, 41))
    while cols & (cols - 1) == 0:
        cols = int(rng.integers(3, 41))
    x = floats32(rng, (rows, cols), scale=3.0)
    shifted = rng.random(rows) < 1 / 3
    x[shifted] += np.float32(rng.choice([-110.0, 100.0]))
    block = next_power_of_two(cols) * (2 if rng.random() < 0.25 else 1)
    return x, block


def _softmax(rows: int, cols: int, block: int, seed: int, shift: float = 0.0, scale: float = 3.0) -> tuple:
    return floats32(np.random.default_rng(seed), (rows, cols), scale) + np.float32(shift), block


def _extreme_rows(cols: int, block: int, seed: int) -> tuple:
    """Two rows: one around +100 (exp overflows float32), one around -120 (every exp underflows to 0)."""
    x, _ = _softmax(2, cols, block, seed)
    return x + np.array([[100.0], [-120.0]], dtype=np.float32), block


def _wide_rows(block: int) -> tuple:
    """Rows spanning -100 to 100: only the maximum keeps every exponent at or below 0 (the mean, the first or
    the smallest value leaves exponents near 100 or 200, which overflow float32)."""
    row = np.array([-100.0, 37.5, -12.0, 100.0, -99.0, 3.0, 64.0, -50.0, 88.0, -75.5, 0.0], dtype=np.float32)
    return np.stack([row, row[::-1] - np.float32(20.0)]), block


ROW_SOFTMAX = Task(
    name="row_softmax_kernel",
    reference=row_softmax_reference,
    examples=[_softmax(3, 10, 16, 1)],
    clauses=[
        Clause("a row around 100 must not overflow, nor one around -120 underflow to 0/0: subtract the row's "
               "maximum before tl.exp", _extreme_rows(7, 8, 2)),
        Clause("subtract the row's maximum, not another of its values (its mean, its first): a row spanning -100 "
               "to 100 overflows from any other", _wide_rows(16)),
        Clause("BLOCK may be larger than the next power of two: the masked lanes count for nothing (load them as -inf)",
               _softmax(2, 5, 16, 4, scale=0.5)),
        Clause("one program per row: program_id(0) is the row; x's rows are stride_x_row elements apart, out's "
               "stride_out_row: neither is n_cols", _softmax(6, 12, 16, 6)),
    ],
    random_case=row_softmax_case,
    random_cases=2,  # each case is an interpreter launch: the clauses carry the edges
    allowed=ROW_SOFTMAX_ALLOWED,
    inputs=("A float32 `x` of 1 to 6 rows and 3 to 40 columns (never a power of two), values of a few units, "
            "some rows shifted to around +100 or -110 (-120 in a clause), rows spanning -120 to 100 in a clause; `BLOCK` the next power of two, or "
            "twice it."),
    hint="What must the lanes past the row hold so that they neither win the maximum nor add to the sum, and "
         "what does exponentiating a row of values around 100 give before the maximum is taken off?",
    tolerance=Tolerance(rtol=1e-5, atol=1e-7),
    building_blocks=KERNEL_BLOCKS,
    forbidden=(*TRITON_INTERNALS, "triton.language.softmax"),
    harness="tensorlab.grading.harnesses.triton_launch:launch_row_softmax",
    at_least_seconds=KERNEL_SECONDS,
    at_least_memory_mb=KERNEL_MEMORY_MB,
)


# --- one tile loop of a matmul ----------------------------------------------------------------
def matmul_tile_reference(a: np.ndarray, b: np.ndarray, block_m: int, block_n: int, block_k: int) -> np.ndarray:
    """a @ b of fp16 inputs, summed in float64 and returned as float32 (exact for small integers)."""
    return (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)


def small_integers(rng: np.random.Generator, shape: tuple[int, int], column_major: bool) -> np.ndarray:
    """fp16 integers 16..32: every dot product of 17+ terms passes 4096, where fp16's spacing is 4
    (an fp16 accumulator rounds it), and stays below 2**24, where fp32 holds every integer."""
    if column_major:
        return rng.integers(16, 33, size=shape[::-1]).astype(np.float16).T
    return rng.integers(16, 33, size=shape).astype(np.float16)


def matmul_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, int, int, int]:
    """Blocks of 16 (K's block sometimes 32), M, N, K never multiples of them, a grid of 1 × 2 or 2 × 1
    programs (never square), one or two steps over K, a or b column-major one time in four each."""
    block_m, block_n, block_k = 16, 16, int(rng.choice([16, 16, 32]))
    while True:
        m, n = not_a_multiple(rng, block_m, 2), not_a_multiple(rng, block_n, 2)
        if -(-m // block_m) != -(-n // block_n):
            break
    k = int(rng.integers(17, 32))  # never a multiple of 16 or 32
    a = small_integers(rng, (m, k), rng.random() < 0.25)
    b = small_integers(rng, (k, n), rng.random() < 0.25)
    return a, b, block_m, block_n, block_k


def _matmul(m: int, n: int, k: int, blocks: tuple[int, int, int], seed: int, a_column_major: bool = False,
            b_column_major: bool = False) -> tuple:
    rng = np.random.default_rng(seed)
    return small_integers(rng, (m, k), a_column_major), small_integers(rng, (k, n), b_column_major), *blocks


MATMUL_TILE = Task(
    name="matmul_tile_kernel",
    reference=matmul_tile_reference,
    examples=[_matmul(20, 9, 24, (16, 16, 16), 1)],
    clauses=[
        Clause("program_id(0) picks the block of rows of c, program_id(1) the block of columns", _matmul(5, 40, 19, (16, 16, 16), 2)),
        Clause("K is not a multiple of BLOCK_K: mask the last step's loads (other=0.0)", _matmul(17, 7, 41, (16, 16, 32), 3)),
        Clause("accumulate in float32: these sums pass 4096, where float16 can no longer hold every integer",
               _matmul(3, 18, 30, (16, 16, 16), 4)),
        Clause("a and b may be column-major (stride_am = 1, stride_bk = 1): use the four strides you are given",
               _matmul(21, 6, 25, (16, 16, 16), 5, a_column_major=True, b_column_major=True)),
    ],
    random_case=matmul_case,
    random_cases=2,  # each case is an interpreter launch: the clauses carry the edges
    allowed=MATMUL_TILE_ALLOWED,
    inputs=("float16 `a` and `b` of small integers (16 to 32), M and N of 1 to 40 and K of 17 to 41, never "
            "multiples of the blocks; blocks of 16 (`BLOCK_K` 32 at times), so one to three steps over K; `a` "
            "or `b` row-major or column-major."),
    hint="What must the masked-off lanes of a tile hold so that they add nothing to the dot product (a lane "
         "you load without saying is undefined), and in which precision can a running sum past 2048 still "
         "hold every integer?",
    tolerance=Tolerance(rtol=1e-6, atol=1e-6),
    building_blocks=KERNEL_BLOCKS,
    forbidden=TRITON_INTERNALS,
    harness="tensorlab.grading.harnesses.triton_launch:launch_matmul_tile",
    at_least_seconds=KERNEL_SECONDS,
    at_least_memory_mb=KERNEL_MEMORY_MB,
)


# --- rounding a float64 to bf16 or fp16, by hand ---------------------------------------------
HALF_PRECISION_TYPES = ("numpy.float16",)
ROUNDING_HELPERS = ("numpy.round", "numpy.rint", "numpy.around")  # rounding to nearest, ties to even, is the work
# (``round`` is a common name: forbidding numpy.round refuses the builtin, which rounds an array the same way)  # the conversion this part asks to write (np.half: a name too common to forbid)
FORMAT_EDGES = {  # (mantissa bits, smallest normal exponent, largest exponent)
    "bf16": (7, -126, 127), "fp16": (10, -14, 15),
}


def round_to_format_reference(x: np.ndarray, fmt: str) -> np.ndarray:
    """What torch's ``.to(bfloat16 / float16)`` gives for float64 values, as float64 (via float32, as torch)."""
    from tensorlab.precision import round_to_format

    if fmt not in FORMAT_EDGES:
        raise ValueError(f"fmt must be 'bf16' or 'fp16', got {fmt!r}")
    return np.asarray(round_to_format(x, fmt), dtype=np.float64).reshape(np.shape(x))


def format_values(rng: np.random.Generator, fmt: str, size: int) -> np.ndarray:
    """Values around every edge of ``fmt``: ordinary ones, exact ties between neighbours, ties a float32
    detour rounds twice, subnormals and below, the largest values and past them, ±0, ±inf, NaN."""
    mantissa_bits, smallest_exponent, largest_exponent = FORMAT_EDGES[fmt]
    exponents = rng.integers(smallest_exponent - mantissa_bits - 2, largest_exponent + 2, size=size)
    gap = np.ldexp(1.0, np.maximum(exponents, smallest_exponent) - mantissa_bits)
    kind = rng.integers(0, 6, size=size)
    significand = rng.integers(1 << mantissa_bits, 2 << mantissa_bits, size=size).astype(np.float64)
    ordinary = np.ldexp(rng.uniform(1.0, 2.0, size=size), exponents)
    tie = (np.floor(ordinary / gap) + 0.5) * gap
    double_rounding = tie + np.ldexp(gap, -40) * rng.choice([-1.0, 1.0], size=size)
    largest = np.ldexp(significand, largest_exponent - mantissa_bits) * rng.choice([1.0, 1.0 + 2.0 ** -(mantissa_bits + 1)], size=size)
    special = rng.choice([0.0, -0.0, np.inf, -np.inf, np.nan], size=size)
    values = np.choose(kind, [ordinary, tie, double_rounding, largest, special, ordinary * 3.0])
    values = values * rng.choice([-1.0, 1.0], size=size)
    return np.where(np.isnan(values), np.nan, values)  # NaN with its sign bit clear, as the statement says


def round_to_format_case(rng: np.random.Generator) -> tuple[np.ndarray, str]:
    """bf16 or fp16; a 0-d, empty, 1-D or 2-D float64 array (one in four a non-contiguous view)."""
    fmt = str(rng.choice(list(FORMAT_EDGES)))
    shape = [(), (0,), (int(rng.integers(1, 25)),), (int(rng.integers(1, 5)), int(rng.integers(1, 7)))][int(rng.choice(4, p=[0.1, 0.1, 0.5, 0.3]))]
    size = int(np.prod(shape))
    if rng.random() < 0.25 and len(shape) >= 1:
        return format_values(rng, fmt, 2 * size).reshape(*shape[:-1], 2 * shape[-1])[..., ::2], fmt
    return format_values(rng, fmt, size).reshape(shape), fmt


def values(*items: float) -> np.ndarray:
    return np.array(items, dtype=np.float64)


ROUND_TO_FORMAT = Task(
    name="round_to_format",
    reference=round_to_format_reference,
    examples=[(values(1.0, 0.1, -3.14159, 1000.3), "bf16"), (values(1.0, 0.1, -3.14159, 1000.3), "fp16")],
    clauses=[
        Clause("a tie goes to the neighbour whose last mantissa bit is 0 (ties to even), upwards or downwards",
               (values(1 + 2**-8, 1 + 3 * 2**-8, -(1 + 2**-8), 256 + 1, 256 + 3), "bf16")),
        Clause("a tie goes to the even neighbour in fp16 too", (values(1 + 2**-11, 1 + 3 * 2**-11, 2048 + 1, 2048 + 3), "fp16")),
        Clause("past the largest finite value (65504 in fp16), from its half-gap on, the result is ±inf",
               (values(65504.0, 65519.0, 65520.0, -70000.0, 1e300), "fp16")),
        Clause("below the smallest normal value the values are subnormal: the gap stays 2**-24 in fp16, "
               "and half of the smallest subnormal is a tie that goes to 0",
               (values(2.0**-15, 2.0**-20 + 2.0**-23, 3 * 2.0**-25, 2.0**-25, 2.0**-26, -(2.0**-24)), "fp16")),
        Clause("bf16 has float32's exponent range: subnormals down to 2**-133",
               (values(2.0**-127 + 2.0**-131, 2.0**-133, 3 * 2.0**-134, 1e-45), "bf16")),
        Clause("as torch does, x is rounded to float32 first: 1 + 2**-8 + 2**-40 becomes a tie there, and then 1.0",
               (values(1 + 2**-8 + 2**-40, 1 + 2**-11 + 2**-40), "bf16")),
        Clause("as torch does, x is rounded to float32 first (fp16 too)", (values(1 + 2**-11 + 2**-40, 3 + 2**-10 + 2**-41), "fp16")),
        Clause("NaN stays NaN; ±inf and ±0.0 stay what they are", (values(np.nan, np.inf, -np.inf, 0.0, -0.0), "bf16")),
        Clause("any shape: a 0-d array gives a 0-d array, an empty one an empty one",
               (np.array(2.0 / 3.0), "fp16")),
        Clause("the result has x's shape, for a 2-D x too", (values(0.1, 0.2, 0.3, 0.4, 0.5, 0.6).reshape(2, 3), "bf16")),
        Clause("an empty x gives an empty float64 array", (np.zeros((0, 3)), "fp16")),
    ],
    random_case=round_to_format_case,
    allowed=ROUND_ALLOWED,
    inputs=("`fmt` is `'bf16'` or `'fp16'`; `x` is a float64 array, 0-d, empty, 1-D or 2-D, now and then a "
            "non-contiguous view, holding values of either sign: ordinary ones, exact ties, ties a float32 detour "
            "makes, subnormals and values below them, values near and past the largest finite one, ±0.0, ±inf "
            "and NaN."),
    hint="Once the float32 value's bits are split into sign, exponent and significand, how many significand "
         "bits does the format keep (and fewer below its smallest normal), and how do the dropped bits decide "
         "whether to round up, ties included?",
    tolerance=Tolerance(rtol=0.0, atol=0.0, signed_zero=True),
    forbidden=(*HALF_PRECISION_TYPES, *ROUNDING_HELPERS),
)

EXERCISE = Exercise(notebook="kernels_precision", tasks=(BIAS_RELU, ROW_SOFTMAX, MATMUL_TILE, ROUND_TO_FORMAT))
