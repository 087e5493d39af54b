"""Correct answers of exercise 13 (kernels and precision) written other ways than the solution: each must keep full marks."""

from tensorlab.grading import Alternative

ALTERNATIVES = [
    Alternative("bias_relu_kernel", "expand-dims-broadcast-to-mask-where-relu", '''
@triton.jit
def bias_relu_kernel(x_ptr, bias_ptr, out_ptr, n_rows, n_cols, stride_x_row, stride_out_row,
                     BLOCK_ROWS: tl.constexpr, BLOCK_COLS: tl.constexpr):
    pid_rows = tl.program_id(axis=0)
    pid_cols = tl.program_id(axis=1)
    r = tl.expand_dims(pid_rows * BLOCK_ROWS + tl.arange(0, BLOCK_ROWS), 1)     # (BLOCK_ROWS, 1)
    c = tl.expand_dims(pid_cols * BLOCK_COLS + tl.arange(0, BLOCK_COLS), 0)     # (1, BLOCK_COLS)
    row_ok = tl.broadcast_to(r < n_rows, (BLOCK_ROWS, BLOCK_COLS))
    col_ok = tl.broadcast_to(c < n_cols, (BLOCK_ROWS, BLOCK_COLS))
    mask = row_ok & col_ok
    tile = tl.load(x_ptr + r * stride_x_row + c, mask=mask, other=0.0)
    b = tl.load(bias_ptr + c, mask=c < n_cols, other=0.0)                      # a (1, BLOCK_COLS) row of bias
    y = tile + b
    tl.store(out_ptr + r * stride_out_row + c, tl.where(y > 0.0, y, 0.0), mask=mask)
'''),
    Alternative("bias_relu_kernel", "flat-lane-index-div-mod", '''
@triton.jit
def bias_relu_kernel(x_ptr, bias_ptr, out_ptr, n_rows, n_cols, stride_x_row, stride_out_row,
                     BLOCK_ROWS: tl.constexpr, BLOCK_COLS: tl.constexpr):
    # one 1-d range over the whole tile; each lane finds its row and column by // and %
    lane = tl.arange(0, BLOCK_ROWS * BLOCK_COLS)
    i = tl.program_id(0) * BLOCK_ROWS + lane // BLOCK_COLS
    j = tl.program_id(1) * BLOCK_COLS + lane % BLOCK_COLS
    ok = (i < n_rows) & (j < n_cols)
    v = tl.load(x_ptr + i * stride_x_row + j, mask=ok) + tl.load(bias_ptr + j, mask=ok)
    tl.store(out_ptr + i * stride_out_row + j, (v + tl.abs(v)) * 0.5, mask=ok)   # relu(v) = (v + |v|) / 2
'''),
    Alternative("bias_relu_kernel", "row-by-row-loop-over-existing-rows", '''
@triton.jit
def bias_relu_kernel(x_ptr, bias_ptr, out_ptr, n_rows, n_cols, stride_x_row, stride_out_row,
                     BLOCK_ROWS: tl.constexpr, BLOCK_COLS: tl.constexpr):
    cols = tl.program_id(1) * BLOCK_COLS + tl.arange(0, BLOCK_COLS)
    col_ok = cols < n_cols
    bias = tl.load(bias_ptr + cols, mask=col_ok, other=0.0)     # loaded once for the whole tile
    first = tl.program_id(0) * BLOCK_ROWS
    last = tl.minimum(first + BLOCK_ROWS, n_rows)               # the rows of this tile that exist
    for row in range(first, last):                              # one 1-d block of columns per row
        v = tl.load(x_ptr + row * stride_x_row + cols, mask=col_ok, other=0.0)
        tl.store(out_ptr + row * stride_out_row + cols, tl.maximum(v + bias, 0.0), mask=col_ok)
'''),
    Alternative("row_softmax_kernel", "other-zero-then-where-masks", '''
@triton.jit
def row_softmax_kernel(x_ptr, out_ptr, n_cols, stride_x_row, stride_out_row, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    valid = offs < n_cols
    raw = tl.load(x_ptr + row * stride_x_row + offs, mask=valid, other=0.0)
    vals = tl.where(valid, raw, float("-inf"))                   # padding can never win the max
    biggest = tl.max(vals, axis=0)
    e = tl.where(valid, tl.exp(vals - biggest), 0.0)             # and adds nothing to the sum
    total = tl.sum(e, axis=0)
    tl.store(out_ptr + row * stride_out_row + offs, e / total, mask=valid)
'''),
    Alternative("row_softmax_kernel", "exp2-row-pointers-reciprocal", '''
@triton.jit
def row_softmax_kernel(x_ptr, out_ptr, n_cols, stride_x_row, stride_out_row, BLOCK: tl.constexpr):
    x_row = x_ptr + tl.program_id(0) * stride_x_row
    out_row = out_ptr + tl.program_id(0) * stride_out_row
    idx = tl.arange(0, BLOCK)
    x = tl.load(x_row + idx, mask=idx < n_cols, other=-float("inf"))
    z = (x - tl.max(x, 0)) * 1.4426950408889634                  # exp(t) = 2 ** (t * log2(e))
    p = tl.exp2(z)
    inv = 1.0 / tl.sum(p, 0)
    tl.store(out_row + idx, p * inv, mask=idx < n_cols)
'''),
    Alternative("row_softmax_kernel", "log-softmax-then-exp", '''
@triton.jit
def row_softmax_kernel(x_ptr, out_ptr, n_cols, stride_x_row, stride_out_row, BLOCK: tl.constexpr):
    i = tl.program_id(0)
    j = tl.arange(0, BLOCK)
    inside = j < n_cols
    x = tl.load(x_ptr + i * stride_x_row + j, mask=inside, other=float("-inf"))
    shifted = x - tl.max(x, axis=0)
    log_p = shifted - tl.log(tl.sum(tl.exp(shifted), axis=0))   # log-softmax, max-shifted
    tl.store(out_ptr + i * stride_out_row + j, tl.exp(log_p), mask=inside)
'''),
    Alternative("row_softmax_kernel", "undefined-lanes-replaced-by-where-cast", '''
@triton.jit
def row_softmax_kernel(x_ptr, out_ptr, n_cols, stride_x_row, stride_out_row, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    inside = cols < n_cols
    x = tl.load(x_ptr + row * stride_x_row + cols, mask=inside).to(tl.float32)  # masked lanes: undefined...
    x = tl.where(inside, x, -float("inf"))                                       # ...until replaced here
    numerator = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * stride_out_row + cols, numerator / tl.sum(numerator, axis=0), mask=inside)
'''),
    Alternative("matmul_tile_kernel", "wrapped-rows-advancing-pointers-dot-acc", '''
@triton.jit
def matmul_tile_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                       stride_cm, stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    # rows and columns past the edge wrap around (% M, % N): their loads stay inside a and b,
    # and the store below masks them out
    offs_am = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn
    accumulator = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for kb in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - kb * BLOCK_K
        a = tl.load(a_ptrs, mask=offs_k[None, :] < k_left, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < k_left, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    tl.store(c_ptrs, accumulator, mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))
'''),
    Alternative("matmul_tile_kernel", "step-index-expand-dims-where-zero", '''
@triton.jit
def matmul_tile_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                       stride_cm, stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    row_ok = rows < M
    col_ok = cols < N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for step in range(tl.cdiv(K, BLOCK_K)):
        ks = step * BLOCK_K + tl.arange(0, BLOCK_K)
        k_ok = ks < K
        a_mask = tl.expand_dims(row_ok, 1) & tl.expand_dims(k_ok, 0)
        b_mask = tl.expand_dims(k_ok, 1) & tl.expand_dims(col_ok, 0)
        a_tile = tl.load(a_ptr + tl.expand_dims(rows * stride_am, 1) + tl.expand_dims(ks * stride_ak, 0), mask=a_mask)
        b_tile = tl.load(b_ptr + tl.expand_dims(ks * stride_bk, 1) + tl.expand_dims(cols * stride_bn, 0), mask=b_mask)
        a_tile = tl.where(a_mask, a_tile, 0.0)                   # masked lanes: exactly 0, whatever was loaded
        b_tile = tl.where(b_mask, b_tile, 0.0)
        acc += tl.dot(a_tile, b_tile, out_dtype=tl.float32)
    c_mask = tl.expand_dims(row_ok, 1) & tl.expand_dims(col_ok, 0)
    tl.store(c_ptr + tl.expand_dims(rows * stride_cm, 1) + tl.expand_dims(cols * stride_cn, 0), acc, mask=c_mask)
'''),
    Alternative("round_to_format", "frexp-integer-significand-add-half-trick", '''
import numpy as np

FORMATS = {"bf16": (7, -126, 127), "fp16": (10, -14, 15)}  # mantissa bits, smallest normal exponent, largest exponent

def round_to_format(x, fmt):
    mbits, emin, emax = FORMATS[fmt]
    v = np.asarray(x, dtype=np.float64).astype(np.float32).astype(np.float64)   # torch rounds to float32 first
    finite = np.isfinite(v)
    frac, exp = np.frexp(np.where(finite, np.abs(v), 0.0))     # |v| = frac * 2**exp, frac in [0.5, 1)
    sig = np.ldexp(frac, 53).astype(np.int64)                  # integer significand: |v| = sig * 2**(exp - 53)
    step = np.maximum(exp - 1, emin) - mbits                   # the format's gap is 2**step (fixed below emin)
    shift = np.minimum(step - (exp - 53), 62).astype(np.int64) # how many low bits of sig the format drops
    half = np.left_shift(np.int64(1), shift - 1)
    odd = np.right_shift(sig, shift) & 1
    q = np.right_shift(sig + half - 1 + odd, shift)            # round to nearest, ties to even
    magnitude = np.ldexp(q.astype(np.float64), step)
    largest = np.ldexp(float(2 ** (mbits + 1) - 1), emax - mbits)
    magnitude = np.where(magnitude > largest, np.inf, magnitude)
    magnitude = np.where(finite, magnitude, np.abs(v))         # inf and NaN pass through
    return np.copysign(magnitude, v)
'''),
    Alternative("round_to_format", "float32-uint32-fields", '''
import numpy as np

def round_to_format(x, fmt):
    if fmt == "bf16":
        mbits, emin, emax = 7, -126, 127
    elif fmt == "fp16":
        mbits, emin, emax = 10, -14, 15
    else:
        raise ValueError(f"fmt must be 'bf16' or 'fp16', got {fmt!r}")
    f32 = np.array(x, dtype=np.float64).astype(np.float32)
    u = f32.view(np.uint32).astype(np.int64)
    negative = (u >> 31) == 1
    field = (u >> 23) & 0xFF                                   # biased exponent of the float32
    mantissa = u & 0x7FFFFF
    special = field == 0xFF                                    # inf or NaN
    sig = np.where(field > 0, mantissa | (1 << 23), mantissa)  # float32 subnormals have no hidden 1
    e = np.maximum(field, 1) - 127                             # |f32| = sig * 2**(e - 23)
    step = np.maximum(e, emin) - mbits
    drop = np.clip(step - (e - 23), 0, 40)
    rounded = (sig + (1 << (drop - 1)) - 1 + ((sig >> drop) & 1)) >> drop   # nearest, ties to even
    magnitude = np.ldexp(rounded.astype(np.float64), step)
    too_big = magnitude > np.ldexp(2.0 - 2.0 ** -mbits, emax)
    magnitude = np.where(too_big, np.inf, magnitude)
    signed = np.where(negative, -magnitude, magnitude)
    return np.where(special, f32.astype(np.float64), signed)
'''),
    Alternative('round_to_format', 'frexp-binade-then-magic-number-addition', '''
def round_to_format(x, fmt):
    mantissa_bits, smallest_exponent, largest_exponent = {"bf16": (7, -126, 127), "fp16": (10, -14, 15)}[fmt]
    x32 = np.asarray(x, dtype=np.float64).astype(np.float32).astype(np.float64)
    finite = np.isfinite(x32) & (x32 != 0)
    safe = np.where(finite, np.abs(x32), 1.0)
    _, e = np.frexp(safe)                        # safe = m * 2**e, m in [0.5, 1)
    e = np.maximum(e - 1, smallest_exponent)     # the exponent of the binade, clamped at the subnormals
    big = np.ldexp(1.5, e - mantissa_bits + 52)   # adding it rounds to a multiple of ulp
    rounded = (safe + big) - big
    largest = (2.0 - 2.0 ** -mantissa_bits) * 2.0 ** largest_exponent
    rounded = np.where(rounded > largest, np.inf, rounded)
    rounded = np.where(finite, rounded, np.abs(x32))
    return np.copysign(rounded, x32)
'''),
    Alternative('matmul_tile_kernel', 'tiles-cast-to-float32-before-dot', '''@triton.jit
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
        acc += tl.dot(a.to(tl.float32), b.to(tl.float32))
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn, acc, mask=(rm[:, None] < M) & (rn[None, :] < N))
    ### END SOLUTION'''),
]
