"""Mutants of exercise 13 (kernels and precision): kernels that step outside their tensors, read the
wrong axis or stride, overflow or round in fp16, and float formats rounded the wrong way.

Each mutant is the right answer with one mistake put in (``mutated`` checks that the line it changes
is there, so a mutant never silently stops being one).
"""

from tensorlab.grading.tasks import Mutant


def mutated(right: str, *changes: tuple[str, str]) -> str:
    for old, new in changes:
        assert old in right, old
        right = right.replace(old, new)
    return right


BIAS_RELU = '''
@triton.jit
def bias_relu_kernel(x_ptr, bias_ptr, out_ptr, n_rows, n_cols, stride_x_row, stride_out_row,
                     BLOCK_ROWS: tl.constexpr, BLOCK_COLS: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_ROWS + tl.arange(0, BLOCK_ROWS)
    cols = tl.program_id(1) * BLOCK_COLS + tl.arange(0, BLOCK_COLS)
    inside = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    x = tl.load(x_ptr + rows[:, None] * stride_x_row + cols[None, :], mask=inside)
    bias = tl.load(bias_ptr + cols, mask=cols < n_cols)
    tl.store(out_ptr + rows[:, None] * stride_out_row + cols[None, :], tl.maximum(x + bias[None, :], 0.0), mask=inside)
'''
X_LOAD = "tl.load(x_ptr + rows[:, None] * stride_x_row + cols[None, :], mask=inside)"
STORE_MASK = "tl.maximum(x + bias[None, :], 0.0), mask=inside)"

SOFTMAX = '''
@triton.jit
def row_softmax_kernel(x_ptr, out_ptr, n_cols, stride_x_row, stride_out_row, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    inside = cols < n_cols
    x = tl.load(x_ptr + row * stride_x_row + cols, mask=inside, other=-float("inf"))
    exponentials = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * stride_out_row + cols, exponentials / tl.sum(exponentials, axis=0), mask=inside)
'''
SOFTMAX_STORE_MASK = "exponentials / tl.sum(exponentials, axis=0), mask=inside)"

MATMUL = '''
@triton.jit
def matmul_tile_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                       stride_cm, stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        rk = k + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak,
                    mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        b = tl.load(b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn,
                    mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn, acc, mask=(rm[:, None] < M) & (rn[None, :] < N))
'''
MATMUL_STORE_MASK = "acc, mask=(rm[:, None] < M) & (rn[None, :] < N))"

ROUND = '''
def round_to_format(x, fmt):
    mantissa_bits, smallest_exponent, largest_exponent = {"bf16": (7, -126, 127), "fp16": (10, -14, 15)}[fmt]
    x32 = np.asarray(x, dtype=np.float64).astype(np.float32).astype(np.float64)
    bits = x32.view(np.uint64)
    exponent = ((bits >> np.uint64(52)) & np.uint64(0x7FF)).astype(np.int64) - 1023
    significand = (bits & np.uint64((1 << 52) - 1)) | np.uint64(1 << 52)
    dropped = 52 - mantissa_bits + np.maximum(0, smallest_exponent - exponent)
    dropped = np.minimum(dropped, 60).astype(np.uint64)
    kept = significand >> dropped
    remainder = significand & ((np.uint64(1) << dropped) - np.uint64(1))
    half = np.uint64(1) << (dropped - np.uint64(1))
    up = (remainder > half) | ((remainder == half) & ((kept & np.uint64(1)) == np.uint64(1)))
    rounded = np.ldexp((kept + up.astype(np.uint64)).astype(np.float64), exponent - 52 + dropped.astype(np.int64))
    largest = (2.0 - 2.0 ** -mantissa_bits) * 2.0 ** largest_exponent
    rounded = np.where(rounded > largest, np.inf, rounded)
    rounded = np.where((x32 == 0) | ~np.isfinite(x32), np.abs(x32), rounded)
    return np.copysign(rounded, x32)
'''
UP = "up = (remainder > half) | ((remainder == half) & ((kept & np.uint64(1)) == np.uint64(1)))"

MUTANTS = [
    # --- bias + ReLU
    Mutant("bias_relu_kernel", "no masks at all", mutated(BIAS_RELU, (STORE_MASK, "tl.maximum(x + bias[None, :], 0.0))"),
                                                                     (", mask=inside)", ")"), (", mask=cols < n_cols)", ")")),
        nudge="When the sizes are not multiples of the blocks, which lanes of the last tile fall outside the tensor, and what stops them from being read or written?"),
    Mutant("bias_relu_kernel", "masked loads, unmasked store", mutated(BIAS_RELU, (STORE_MASK, "tl.maximum(x + bias[None, :], 0.0))")),
        nudge="Your loads stay inside the tensor, but where do the lanes past the edge get written?"),
    Mutant("bias_relu_kernel", "masked store, unmasked load of x",
           mutated(BIAS_RELU, (X_LOAD, "tl.load(x_ptr + rows[:, None] * stride_x_row + cols[None, :])")),
        nudge="Is reading past the edge of x harmless, even when the result of those lanes is never stored?"),
    Mutant("bias_relu_kernel", "program_id axes swapped",
           mutated(BIAS_RELU, ("tl.program_id(0) * BLOCK_ROWS", "tl.program_id(1) * BLOCK_ROWS"),
                   ("tl.program_id(1) * BLOCK_COLS", "tl.program_id(0) * BLOCK_COLS")),
        nudge="Which axis of the grid counts blocks of rows, and which counts blocks of columns?"),
    Mutant("bias_relu_kernel", "n_cols used as the row stride",
           mutated(BIAS_RELU, ("rows[:, None] * stride_x_row", "rows[:, None] * n_cols"),
                   ("rows[:, None] * stride_out_row", "rows[:, None] * n_cols")),
        nudge="When a row lives inside a longer buffer row, how far apart in memory are two consecutive rows?"),
    Mutant("bias_relu_kernel", "off-by-one mask (<=)", mutated(BIAS_RELU, ("(rows[:, None] < n_rows)", "(rows[:, None] <= n_rows)")),
        nudge="Is row number n_rows inside a tensor of n_rows rows?"),
    Mutant("bias_relu_kernel", "bias indexed by row", mutated(BIAS_RELU, ("tl.load(bias_ptr + cols, mask=cols < n_cols)", "tl.load(bias_ptr + rows, mask=rows < n_rows)"),
                                                            ("bias[None, :]", "bias[:, None]")),
        nudge="Does the bias vary along the rows or along the columns of the output?"),
    Mutant("bias_relu_kernel", "calls torch", "import torch\n" + mutated(BIAS_RELU, ("tl.maximum(", "torch.relu("), (", 0.0), mask", "), mask")),
        nudge="Which modules may code inside a Triton kernel use, and is torch one of them?"),
    # --- row softmax
    Mutant("row_softmax_kernel", "no max subtracted (overflows)", mutated(SOFTMAX, ("tl.exp(x - tl.max(x, axis=0))", "tl.exp(x)")),
        nudge="What does float32's exponential give for a value around 100, and what can you subtract first without changing the softmax?"),
    Mutant("row_softmax_kernel", "masked load, unmasked store", mutated(SOFTMAX, (SOFTMAX_STORE_MASK, "exponentials / tl.sum(exponentials, axis=0))")),
        nudge="Your load stays inside the row, but where do the lanes past the row get written?"),
    Mutant("row_softmax_kernel", "masked store, unmasked load", mutated(SOFTMAX, (', mask=inside, other=-float("inf"))', ")")),
        nudge="When BLOCK is larger than the row, what do the lanes past the row read, and how do they change the maximum and the sum?"),
    Mutant("row_softmax_kernel", "masked lanes loaded as 0, not -inf", mutated(SOFTMAX, ('other=-float("inf")', "other=0.0")),
        nudge="What does the exponential of a masked-off lane that was loaded as 0 add to the row's sum?"),
    Mutant("row_softmax_kernel", "row from program_id(1)", mutated(SOFTMAX, ("tl.program_id(0)", "tl.program_id(1)")),
        nudge="How many axes does this kernel's grid have, and which one numbers the rows?"),
    Mutant("row_softmax_kernel", "off-by-one mask (<=)", mutated(SOFTMAX, ("inside = cols < n_cols", "inside = cols <= n_cols")),
        nudge="Is column number n_cols inside a row of n_cols columns?"),
    Mutant("row_softmax_kernel", "n_cols used as the row stride", mutated(SOFTMAX, ("row * stride_x_row", "row * n_cols"), ("row * stride_out_row", "row * n_cols")),
        nudge="When a row lives inside a longer buffer row, how far apart in memory are two consecutive rows?"),
    Mutant("row_softmax_kernel", "subtracts the row's mean, not its max",
           mutated(SOFTMAX, ("tl.exp(x - tl.max(x, axis=0))",
                             "tl.exp(x - tl.sum(tl.where(inside, x, 0.0), axis=0) / n_cols)")),
        nudge="After subtracting the mean, can the largest value of a wide row still overflow the exponential?"),
    Mutant("row_softmax_kernel", "subtracts the row's first value, not its max",
           mutated(SOFTMAX, ("tl.exp(x - tl.max(x, axis=0))", "tl.exp(x - tl.load(x_ptr + row * stride_x_row))")),
        nudge="After subtracting the first value, can a larger value further along the row still overflow the exponential?"),
    Mutant("row_softmax_kernel", "masked lanes left undefined (no other=)", mutated(SOFTMAX, (', other=-float("inf"))', ")")),
        nudge="What does a masked-off lane hold when you do not say, and does it then reach the maximum and the sum?"),
    Mutant("row_softmax_kernel", "tl.softmax", mutated(SOFTMAX, ("exponentials / tl.sum(exponentials, axis=0)", "tl.softmax(x)")),
        nudge="Which Triton operations does this part allow, and is a ready-made softmax among them?"),
    Mutant("row_softmax_kernel", "calls torch", "import torch\n" + mutated(SOFTMAX, ("tl.exp(", "torch.exp(")),
        nudge="Which modules may code inside a Triton kernel use, and is torch one of them?"),
    # --- matmul tile
    Mutant("matmul_tile_kernel", "fp16 accumulator", mutated(MATMUL, ("dtype=tl.float32", "dtype=tl.float16"),
                                                              ("acc += tl.dot(a, b)", "acc += tl.dot(a, b, out_dtype=tl.float16)")),
        nudge="Once the running sums pass 4096, how far apart are neighbouring float16 values, and what does that do to an exact integer sum?"),
    Mutant("matmul_tile_kernel", "masked loads, unmasked store", mutated(MATMUL, (MATMUL_STORE_MASK, "acc)")),
        nudge="Your loads stay inside a and b, but where do the lanes of the last tile past the edge of c get written?"),
    Mutant("matmul_tile_kernel", "masked store, unmasked loads",
           mutated(MATMUL, (",\n                    mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)", ")"),
                   (",\n                    mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)", ")")),
        nudge="Is reading past the edges of a and b harmless, and what do those lanes add to the dot product?"),
    Mutant("matmul_tile_kernel", "program_id axes swapped", mutated(MATMUL, ("tl.program_id(0) * BLOCK_M", "tl.program_id(1) * BLOCK_M"),
                                                                     ("tl.program_id(1) * BLOCK_N", "tl.program_id(0) * BLOCK_N")),
        nudge="Which axis of the grid counts blocks of rows of c, and which counts blocks of columns?"),
    Mutant("matmul_tile_kernel", "a assumed row-major (K as its row stride, 1 across)",
           mutated(MATMUL, ("rm[:, None] * stride_am + rk[None, :] * stride_ak", "rm[:, None] * K + rk[None, :]")),
        nudge="When a is column-major, where is its element in row i and column k, and which arguments tell you?"),
    Mutant("matmul_tile_kernel", "off-by-one mask on K (<=)", mutated(MATMUL, ("(rk[None, :] < K)", "(rk[None, :] <= K)"), ("(rk[:, None] < K)", "(rk[:, None] <= K)")),
        nudge="Is index K inside a dimension of size K?"),
    Mutant("matmul_tile_kernel", "masked loads without other= (undefined lanes in the dot product)",
           mutated(MATMUL, (", other=0.0)", ")")),
        nudge="What do the masked-off lanes past K hold when you do not say, and do they reach the dot product?"),
    Mutant("matmul_tile_kernel", "accumulator overwritten each step", mutated(MATMUL, ("acc += tl.dot(a, b)", "acc = tl.dot(a, b)")),
        nudge="After the loop over K, does the accumulator hold every step's contribution, or only the last one's?"),
    Mutant("matmul_tile_kernel", "calls torch", "import torch\n" + mutated(MATMUL, ("tl.dot(a, b)", "torch.matmul(a, b)")),
        nudge="Which modules may code inside a Triton kernel use, and is torch one of them?"),
    # --- round_to_format
    Mutant("round_to_format", "truncates instead of rounding", mutated(ROUND, (UP, "up = remainder != remainder")),
        nudge="When the dropped bits are more than half a gap, should the kept value stay where it is?"),
    Mutant("round_to_format", "ties away from zero", mutated(ROUND, (UP, "up = remainder >= half")),
        nudge="When a value lies exactly halfway between two neighbours, which one does ties-to-even pick?"),
    Mutant("round_to_format", "ties always down", mutated(ROUND, (UP, "up = remainder > half")),
        nudge="When a value lies exactly halfway and the kept last mantissa bit is 1, which neighbour is the even one?"),
    Mutant("round_to_format", "no subnormals (flushed to zero)",
           mutated(ROUND, ("rounded = np.where(rounded > largest", "rounded = np.where(np.abs(x32) < 2.0 ** smallest_exponent, 0.0, rounded)\n    rounded = np.where(rounded > largest")),
        nudge="Below the smallest normal value, does the format have nothing but zero, or values with fewer mantissa bits?"),
    Mutant("round_to_format", "subnormals keep every mantissa bit", mutated(ROUND, (" + np.maximum(0, smallest_exponent - exponent)", "")),
        nudge="Below the smallest normal value, does the gap between neighbours keep shrinking, and how many mantissa bits are left?"),
    Mutant("round_to_format", "overflow saturates instead of inf", mutated(ROUND, ("np.where(rounded > largest, np.inf, rounded)", "np.minimum(rounded, largest)")),
        nudge="Past the largest finite value, from its half-gap on, what does the format round to?"),
    Mutant("round_to_format", "straight from float64 (one rounding, not torch's two)",
           mutated(ROUND, ("np.asarray(x, dtype=np.float64).astype(np.float32).astype(np.float64)", "np.asarray(x, dtype=np.float64).copy()")),
        nudge="Does torch round the float64 straight to the half format, or to float32 first?"),
    Mutant("round_to_format", "NaN lost (becomes inf)", mutated(ROUND, ("(x32 == 0) | ~np.isfinite(x32)", "(x32 == 0) | np.isinf(x32)")),
        nudge="Which special values should come back as they are, and is NaN one of them?"),
    Mutant("round_to_format", "fp16's mantissa width taken for bf16", mutated(ROUND, ('"bf16": (7, -126, 127)', '"bf16": (10, -126, 127)')),
        nudge="How many mantissa bits does bf16 keep, compared with fp16?"),
    Mutant("round_to_format", "sign from x < 0 (loses -0.0)",
           mutated(ROUND, ("return np.copysign(rounded, x32)", "return np.where(x32 < 0, -1.0, 1.0) * rounded")),
        nudge="Is negative zero less than zero, and how else can you read a value's sign?"),
    Mutant("round_to_format", "np.round on the value scaled by its gap", '''
def round_to_format(x, fmt):
    mantissa_bits, smallest_exponent, largest_exponent = {"bf16": (7, -126, 127), "fp16": (10, -14, 15)}[fmt]
    x32 = np.asarray(x, dtype=np.float64).astype(np.float32).astype(np.float64)
    _, exponent = np.frexp(np.where(np.isfinite(x32), x32, 1.0))
    gap = np.ldexp(1.0, np.maximum(exponent - 1, smallest_exponent) - mantissa_bits)
    rounded = np.round(np.abs(x32) / gap) * gap
    largest = (2.0 - 2.0 ** -mantissa_bits) * 2.0 ** largest_exponent
    rounded = np.where(rounded > largest, np.inf, rounded)
    rounded = np.where(np.isfinite(x32), rounded, np.abs(x32))
    return np.copysign(rounded, x32)
''', nudge="Which rounding helpers does the statement rule out, since rounding to nearest with ties to even is the work?"),
    Mutant("round_to_format", "astype(np.float16)", '''
def round_to_format(x, fmt):
    if fmt == "fp16":
        return np.asarray(x, dtype=np.float64).astype(np.float32).astype(np.float16).astype(np.float64)
    bits = np.asarray(x, dtype=np.float64).astype(np.float32).view(np.uint32)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000).view(np.float32).astype(np.float64)
''', nudge="Does the statement let you convert to a half-precision type, or is doing that conversion by hand the exercise?"),
    Mutant("round_to_format", "calls torch", '''
import torch

def round_to_format(x, fmt):
    dtype = torch.bfloat16 if fmt == "bf16" else torch.float16
    return torch.from_numpy(np.asarray(x, dtype=np.float64)).to(dtype).double().numpy()
''', nudge="Which libraries may this part use, and may torch do the conversion for you?"),
    Mutant("round_to_format", "calls the reference", '''
from tensorlab.precision import round_to_format as reference

def round_to_format(x, fmt):
    return reference(x, fmt)
''', nudge="Which parts of this exercise are yours to write, and which code is off limits here?"),
    Mutant("round_to_format", "float16 spelled as the dtype string e", '''
import numpy as np
def round_to_format(x, fmt):
    x32 = np.asarray(x, dtype=np.float64).astype(np.float32)
    if fmt == "fp16":
        return x32.astype("e").astype(np.float64)
    bits = x32.view(np.uint32)
    rounded = (bits + np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1))) & np.uint32(0xFFFF0000)
    special = ~np.isfinite(x32)
    return np.where(special, x32, rounded.view(np.float32)).astype(np.float64)
''', nudge="Is a half-precision type spelled as a short dtype string any less of a conversion to float16?"),
    # found by a fresh attack (issue 26): a second pass gives the same output; only the count of accesses tells
    Mutant('bias_relu_kernel', 'unfused-store-then-reload-and-relu', '''@triton.jit
def bias_relu_kernel(x_ptr, bias_ptr, out_ptr, n_rows, n_cols, stride_x_row, stride_out_row,
                     BLOCK_ROWS: tl.constexpr, BLOCK_COLS: tl.constexpr):
    """out[i, j] = max(x[i, j] + bias[j], 0) for one BLOCK_ROWS x BLOCK_COLS tile."""
    ### BEGIN SOLUTION
    rows = tl.program_id(0) * BLOCK_ROWS + tl.arange(0, BLOCK_ROWS)
    cols = tl.program_id(1) * BLOCK_COLS + tl.arange(0, BLOCK_COLS)
    inside = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    x = tl.load(x_ptr + rows[:, None] * stride_x_row + cols[None, :], mask=inside)
    bias = tl.load(bias_ptr + cols, mask=cols < n_cols)
    tl.store(out_ptr + rows[:, None] * stride_out_row + cols[None, :], x + bias[None, :], mask=inside)
    y = tl.load(out_ptr + rows[:, None] * stride_out_row + cols[None, :], mask=inside)
    tl.store(out_ptr + rows[:, None] * stride_out_row + cols[None, :], tl.maximum(y, 0.0), mask=inside)
    ### END SOLUTION''', nudge='How many times does your kernel write each element of out, and how many would a fused kernel need?'),
    Mutant('bias_relu_kernel', 'x-loaded-twice', '''@triton.jit
def bias_relu_kernel(x_ptr, bias_ptr, out_ptr, n_rows, n_cols, stride_x_row, stride_out_row,
                     BLOCK_ROWS: tl.constexpr, BLOCK_COLS: tl.constexpr):
    """out[i, j] = max(x[i, j] + bias[j], 0) for one BLOCK_ROWS x BLOCK_COLS tile."""
    ### BEGIN SOLUTION
    rows = tl.program_id(0) * BLOCK_ROWS + tl.arange(0, BLOCK_ROWS)
    cols = tl.program_id(1) * BLOCK_COLS + tl.arange(0, BLOCK_COLS)
    inside = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    x = tl.load(x_ptr + rows[:, None] * stride_x_row + cols[None, :], mask=inside)
    bias = tl.load(bias_ptr + cols, mask=cols < n_cols)
    x2 = tl.load(x_ptr + rows[:, None] * stride_x_row + cols[None, :], mask=inside)
    tl.store(out_ptr + rows[:, None] * stride_out_row + cols[None, :], tl.maximum(x2 + bias[None, :], 0.0), mask=inside)
    ### END SOLUTION''', nudge='How many times does your kernel read each element of x, and where could the first read be reused?'),
    Mutant('row_softmax_kernel', 'row-loaded-twice', '''@triton.jit
def row_softmax_kernel(x_ptr, out_ptr, n_cols, stride_x_row, stride_out_row, BLOCK: tl.constexpr):
    """Softmax of row program_id(0) of x, written to the same row of out."""
    ### BEGIN SOLUTION
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    inside = cols < n_cols
    x = tl.load(x_ptr + row * stride_x_row + cols, mask=inside, other=-float("inf"))
    y = tl.load(x_ptr + row * stride_x_row + cols, mask=inside, other=-float("inf"))
    exponentials = tl.exp(y - tl.max(x, axis=0))
    tl.store(out_ptr + row * stride_out_row + cols, exponentials / tl.sum(exponentials, axis=0), mask=inside)
    ### END SOLUTION''', nudge='How many times does your kernel load each element of the row, and could the values it already holds serve both the maximum and the exponentials?'),
    Mutant('row_softmax_kernel', 'unnormalised-result-stored-first', '''@triton.jit
def row_softmax_kernel(x_ptr, out_ptr, n_cols, stride_x_row, stride_out_row, BLOCK: tl.constexpr):
    """Softmax of row program_id(0) of x, written to the same row of out."""
    ### BEGIN SOLUTION
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    inside = cols < n_cols
    x = tl.load(x_ptr + row * stride_x_row + cols, mask=inside, other=-float("inf"))
    exponentials = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * stride_out_row + cols, exponentials, mask=inside)
    tl.store(out_ptr + row * stride_out_row + cols, exponentials / tl.sum(exponentials, axis=0), mask=inside)
    ### END SOLUTION''', nudge='How many times is each element of out stored, and does an intermediate value ever need to leave the program?'),
    Mutant('matmul_tile_kernel', 'accumulator-stored-every-step', '''@triton.jit
def matmul_tile_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                       stride_cm, stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    """One BLOCK_M x BLOCK_N tile of c = a @ b: fp16 tiles in, an fp32 accumulator, fp32 out."""
    ### BEGIN SOLUTION
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        rk = k + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak,
                    mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        b = tl.load(b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn,
                    mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
        tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn, acc, mask=(rm[:, None] < M) & (rn[None, :] < N))
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn, acc, mask=(rm[:, None] < M) & (rn[None, :] < N))
    ### END SOLUTION''', nudge='How many times is each element of c stored, and when is the accumulator complete?'),
]
