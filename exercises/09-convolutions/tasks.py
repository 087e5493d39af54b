"""Unit 09, convolutions: conv1d with loops, the windows as columns (unfold), conv1d as unfold + one
matmul, and conv1d's input gradient (a transposed convolution), all from NumPy primitives."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tensorlab.grading.compare import Tolerance
from tensorlab.grading.random_cases import normal
from tensorlab.grading.tasks import Clause, Exercise, Task

if TYPE_CHECKING:
    from tensorlab import Tensor

__all__ = ["EXERCISE", "CONV1D_INPUT_GRAD", "CONV1D_LOOPS", "CONV1D_UNFOLD", "UNFOLD1D"]

LIBRARY_CONVOLUTIONS = (
    "numpy.convolve", "numpy.correlate", "numpy.lib.stride_tricks.sliding_window_view",
    "torch.conv1d", "torch.nn.functional.conv1d", "torch.nn.functional.unfold", "torch.Tensor.unfold",
    "torch.nn.functional.conv_transpose1d", "torch.conv_transpose1d", "torch.nn.functional.fold",
    "tensorlab.conv1d", "tensorlab.nn.functional.conv1d", "tensorlab.nn.functional.unfold", "tensorlab.Tensor.unfold",
    "tensorlab.nn.functional.conv_transpose1d", "tensorlab.nn.functional.fold",
)
TOLERANCE = Tolerance(rtol=1e-6, atol=1e-9)  # sums in another order; float32 cases hold integers (exact)
LARGE_BATCH, LARGE_CHANNELS, LARGE_OUT, LARGE_LENGTH, LARGE_KERNEL = 2, 2, 2, 1500, 5  # ~750 output positions


# --- references: tensorlab itself -------------------------------------------------------------------
def _tensor(array: np.ndarray) -> Tensor:
    """A tensorlab tensor of ``array`` (tensorlab imported lazily, as the other units' references do)."""
    import tensorlab

    return tensorlab.tensor(np.ascontiguousarray(array))


def conv1d_reference(x: np.ndarray, weight: np.ndarray, padding: int = 0, stride: int = 1, dilation: int = 1) -> np.ndarray:
    """tensorlab's F.conv1d (no bias); x is (N, C, L) or unbatched (C, L)."""
    from tensorlab.nn import functional

    return functional.conv1d(_tensor(x), _tensor(weight), None, stride, padding, dilation).numpy()


def conv1d_loops_reference(x: np.ndarray, weight: np.ndarray, padding: int) -> np.ndarray:
    return conv1d_reference(x, weight, padding)


def unfold1d_reference(x: np.ndarray, kernel_size: int, padding: int, stride: int, dilation: int) -> np.ndarray:
    """tensorlab's F.unfold on the signal seen as an image of height 1: (N, C*K, L_out), row c*K + k."""
    from tensorlab.nn import functional

    image = _tensor(x[..., None, :])  # (N, C, 1, L) or (C, 1, L)
    return functional.unfold(image, (1, kernel_size), (1, dilation), (0, padding), (1, stride)).numpy()


def conv1d_input_grad_reference(grad: np.ndarray, weight: np.ndarray, length: int, padding: int, stride: int,
                                dilation: int) -> np.ndarray:
    """tensorlab's F.conv_transpose1d with the output_padding that gives back ``length`` elements."""
    from tensorlab.nn import functional

    kernel = weight.shape[-1]
    smallest = (grad.shape[-1] - 1) * stride - 2 * padding + dilation * (kernel - 1) + 1
    return functional.conv_transpose1d(_tensor(grad), _tensor(weight), None, stride, padding, length - smallest, 1,
                                       dilation).numpy()


# --- random cases -------------------------------------------------------------------------------
def values(rng: np.random.Generator, shape: tuple[int, ...], dtype: type) -> np.ndarray:
    """float64 normal values, or small integers held as float32 (so float32 sums are exact)."""
    if dtype is np.float32:
        return rng.integers(-4, 5, size=shape).astype(np.float32)
    return normal(rng, shape)


def strided(rng: np.random.Generator, array: np.ndarray) -> np.ndarray:
    """The same values as a non-contiguous view: every other element of the last dim, or a transposed layout."""
    if array.ndim >= 2 and rng.random() < 0.5:
        return np.ascontiguousarray(np.swapaxes(array, -1, -2)).swapaxes(-1, -2)
    return np.repeat(array, 2, axis=-1)[..., ::2]


def maybe_strided(rng: np.random.Generator, array: np.ndarray) -> np.ndarray:
    return strided(rng, array) if rng.random() < 0.25 else array


def random_geometry(rng: np.random.Generator, strided_windows: bool) -> tuple[int, int, int, int, int, int, int, int]:
    """(batch, or -1 for an unbatched input, C, O, L, K, padding, stride, dilation) such that a window fits.

    One time in eight the batch is empty (N = 0); one time in five the input is unbatched.
    """
    unbatched = rng.random() < 0.2
    batch = 0 if unbatched else (0 if rng.random() < 0.125 else int(rng.integers(1, 4)))
    channels, outputs, kernel = (int(v) for v in rng.integers(1, 4, size=3))
    padding = int(rng.integers(0, 4))
    stride = int(rng.integers(1, 4)) if strided_windows else 1
    dilation = int(rng.integers(1, 4)) if strided_windows else 1
    span = dilation * (kernel - 1) + 1
    length = max(span - 2 * padding, 1) + int(rng.integers(0, 8))
    return (-1 if unbatched else batch), channels, outputs, length, kernel, padding, stride, dilation


def _input(rng: np.random.Generator, batch: int, channels: int, length: int, dtype: type) -> np.ndarray:
    shape = (channels, length) if batch < 0 else (batch, channels, length)
    return maybe_strided(rng, values(rng, shape, dtype))


def _dtype(rng: np.random.Generator) -> type:
    return np.float32 if rng.random() < 0.25 else np.float64


def random_loops_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, int]:
    batch, channels, outputs, length, kernel, padding, _, _ = random_geometry(rng, strided_windows=False)
    dtype = _dtype(rng)
    weight = maybe_strided(rng, values(rng, (outputs, channels, kernel), dtype))
    return _input(rng, batch, channels, length, dtype), weight, padding


def random_unfold_case(rng: np.random.Generator) -> tuple[np.ndarray, int, int, int, int]:
    batch, channels, _, length, kernel, padding, stride, dilation = random_geometry(rng, strided_windows=True)
    return _input(rng, batch, channels, length, _dtype(rng)), kernel, padding, stride, dilation


def random_conv_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, int, int, int]:
    batch, channels, outputs, length, kernel, padding, stride, dilation = random_geometry(rng, strided_windows=True)
    dtype = _dtype(rng)
    weight = maybe_strided(rng, values(rng, (outputs, channels, kernel), dtype))
    return _input(rng, batch, channels, length, dtype), weight, padding, stride, dilation


def output_length(length: int, kernel: int, padding: int, stride: int, dilation: int) -> int:
    return (length + 2 * padding - dilation * (kernel - 1) - 1) // stride + 1


def random_grad_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, int, int, int, int]:
    batch, channels, outputs, length, kernel, padding, stride, dilation = random_geometry(rng, strided_windows=True)
    dtype = _dtype(rng)
    out = output_length(length, kernel, padding, stride, dilation)
    grad = _input(rng, batch, outputs, out, dtype)
    weight = maybe_strided(rng, values(rng, (outputs, channels, kernel), dtype))
    return grad, weight, length, padding, stride, dilation


def large_conv_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, int, int, int]:
    """2 x 2 x 1500 inputs, 2 outputs, a kernel of 5: a loop over positions runs hundreds of lines, unfold + matmul a few."""
    x = normal(rng, (LARGE_BATCH, LARGE_CHANNELS, LARGE_LENGTH))
    return x, normal(rng, (LARGE_OUT, LARGE_CHANNELS, LARGE_KERNEL)), 2, 2, 2


def large_unfold_case(rng: np.random.Generator) -> tuple[np.ndarray, int, int, int, int]:
    return normal(rng, (LARGE_BATCH, LARGE_CHANNELS, LARGE_LENGTH)), LARGE_KERNEL, 2, 1, 2


def large_grad_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, int, int, int, int]:
    out = output_length(LARGE_LENGTH, LARGE_KERNEL, 2, 2, 2)
    grad = normal(rng, (LARGE_BATCH, LARGE_OUT, out))
    return grad, normal(rng, (LARGE_OUT, LARGE_CHANNELS, LARGE_KERNEL)), LARGE_LENGTH, 2, 2, 2


# --- fixed cases: the notes' examples, and one case per clause of the statement -----------------------
def seed(values_: list) -> np.ndarray:
    """The notes' T([...]): float32."""
    return np.array(values_, dtype=np.float32)


SIGNAL = seed([[0, 1, 2, 3]])
THREE_CHANNELS = seed([[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]])
SEED_EXAMPLES = [  # every conv1d of the notes: (x, weight, padding)
    (SIGNAL, seed([[[1]]]), 0),
    (seed([[[0, 1, 2, 3]]]), seed([[[1]]]), 0),
    (SIGNAL, seed([[[1, 1, 1]]]), 0),
    (SIGNAL, seed([[[1, 1, 1]]]), 1),
    (SIGNAL, seed([[[1, 1, 1]]]), 2),
    (SIGNAL, seed([[[1, 1, 1]]]), 3),
    (SIGNAL, seed([[[1, 1, 1]]]), 4),
    (SIGNAL, seed([[[1, 2, 3]], [[1, 1, 1]]]), 0),
    (THREE_CHANNELS, seed([[[1], [1], [1]]]), 0),
    (THREE_CHANNELS, seed([[[1], [2], [3]], [[1], [1], [1]]]), 0),
]
RAMP = np.arange(12.0).reshape(1, 1, 12) * 0.5
PAIR_BATCH = np.array([[[1.0, -2.0, 0.5, 3.0, 1.5, -1.0]], [[2.0, 0.0, -1.5, 1.0, 4.0, 0.25]]])  # (2, 1, 6)
TWO_CHANNELS = np.array([[[0.5, 1.0, -1.0, 2.0, 0.0], [1.5, -0.5, 3.0, 1.0, -2.0]]])  # (1, 2, 5)
TRANSPOSED = np.arange(1.0, 11.0).reshape(5, 2).T.reshape(1, 2, 5)  # values of (1, 2, 5) whose last dim has stride 2
EVERY_OTHER = np.arange(1.0, 13.0).reshape(1, 1, 12)[..., ::2]  # (1, 1, 6), not contiguous

CROSS_CORRELATION = "Do not flip the kernel: out[n, o, p] = Σ over c, j of weight[o, c, j] · x_padded[n, c, p + j]."
CHANNELS_SUM = "Every output channel sums over all input channels: weight is (O, C, K)."
PADDING = "padding zeros are added on both sides, and may be larger than the kernel."
UNBATCHED = "x may be unbatched, (C, L): then the result is (O, L_out), without a batch dim."
EMPTY_BATCH = "The batch may be empty (N = 0): the result is then (0, O, L_out)."
KEEP_DTYPE = "The result has x's dtype: float32 in, float32 out."
ANY_STRIDES = "x (and weight) may be non-contiguous views: index them as arrays."
BATCHES = "Every sample of the batch is convolved with the same weight."

LOOPS_CLAUSES = [
    Clause(CROSS_CORRELATION, (RAMP[:, :, :5], np.array([[[1.0, 2.0, 4.0]]]), 0)),
    Clause(CHANNELS_SUM, (TWO_CHANNELS, np.array([[[1.0, 0.0], [0.0, 1.0]], [[2.0, -1.0], [0.5, 0.5]], [[0.0, 0.0], [1.0, 1.0]]]), 0)),
    Clause(PADDING, (PAIR_BATCH[:1], np.array([[[1.0, -1.0]]]), 3)),
    Clause(UNBATCHED, (TWO_CHANNELS[0], np.array([[[1.0, 2.0], [3.0, 4.0]]]), 1)),
    Clause(EMPTY_BATCH, (np.zeros((0, 2, 5)), np.ones((3, 2, 2)), 1)),
    Clause(KEEP_DTYPE, (seed([[[1, 2, 3, 4, 5]]]), seed([[[1, -1]], [[2, 0]]]), 1)),
    Clause(ANY_STRIDES, (TRANSPOSED, np.array([[[1.0, 0.5], [-1.0, 2.0]]]), 0)),
    Clause(BATCHES, (PAIR_BATCH, np.array([[[1.0, 2.0, 1.0]]]), 1)),
]

STRIDE = "stride s: window p starts at p·s of the padded input."
DILATION = "dilation d: the taps of a window sit d apart, so a window spans d·(K − 1) + 1 elements."
OUTPUT_LENGTH = "L_out = (L + 2·padding − dilation·(K − 1) − 1) // stride + 1: inputs past the last window are not read."
ROW_ORDER = "Row c·K + k of the columns holds tap k of channel c (channel-major, like F.unfold)."

UNFOLD_EXAMPLES = [
    (SIGNAL, 3, 0, 1, 1),
    (seed([[[0, 1, 2, 3, 4, 5]]]), 2, 1, 2, 1),
    (THREE_CHANNELS, 2, 0, 1, 2),
]
UNFOLD_CLAUSES = [
    Clause(ROW_ORDER, (TWO_CHANNELS, 3, 0, 1, 1)),
    Clause(PADDING, (PAIR_BATCH, 2, 3, 1, 1)),
    Clause(STRIDE, (RAMP, 3, 0, 3, 1)),
    Clause(DILATION, (RAMP, 3, 0, 1, 4)),
    Clause(OUTPUT_LENGTH, (RAMP[..., :11], 2, 1, 4, 3)),
    Clause(UNBATCHED, (TWO_CHANNELS[0], 2, 1, 2, 1)),
    Clause(EMPTY_BATCH, (np.zeros((0, 2, 5)), 2, 1, 1, 1)),
    Clause(KEEP_DTYPE, (seed([[[1, 2, 3, 4, 5]]]), 2, 1, 2, 1)),
    Clause(ANY_STRIDES, (TRANSPOSED, 2, 0, 1, 2)),
    Clause(ANY_STRIDES, (EVERY_OTHER, 3, 1, 2, 1)),
]

CONV_EXAMPLES = [(x, w, padding, 1, 1) for x, w, padding in SEED_EXAMPLES] + [
    (np.arange(10.0).reshape(1, 1, 10), np.ones((1, 1, 3)), 1, 2, 1),
    (np.arange(10.0).reshape(1, 1, 10), np.ones((1, 1, 3)), 0, 1, 2),
]
CONV_CLAUSES = [
    Clause(CROSS_CORRELATION, (RAMP[:, :, :5], np.array([[[1.0, 2.0, 4.0]]]), 0, 1, 1)),
    Clause(CHANNELS_SUM, (TWO_CHANNELS, np.array([[[1.0, 0.0], [0.0, 1.0]], [[2.0, -1.0], [0.5, 0.5]], [[0.0, 0.0], [1.0, 1.0]]]), 0, 1, 1)),
    Clause(PADDING, (PAIR_BATCH, np.array([[[1.0, -1.0]]]), 3, 1, 1)),
    Clause(STRIDE, (RAMP, np.array([[[1.0, 10.0, 100.0]]]), 0, 3, 1)),
    Clause(DILATION, (RAMP, np.array([[[1.0, 10.0, 100.0]]]), 0, 1, 4)),
    Clause(OUTPUT_LENGTH, (RAMP[..., :11], np.array([[[1.0, -1.0]]]), 1, 4, 3)),
    Clause(UNBATCHED, (TWO_CHANNELS[0], np.array([[[1.0, 2.0], [3.0, 4.0]]]), 1, 2, 1)),
    Clause(EMPTY_BATCH, (np.zeros((0, 2, 5)), np.ones((3, 2, 2)), 1, 2, 1)),
    Clause(KEEP_DTYPE, (seed([[[1, 2, 3, 4, 5]]]), seed([[[1, -1]], [[2, 0]]]), 1, 2, 1)),
    Clause(ANY_STRIDES, (TRANSPOSED, np.asfortranarray([[[1.0, 0.5], [-1.0, 2.0]]]), 0, 1, 2)),
    Clause(BATCHES, (PAIR_BATCH, np.array([[[1.0, 2.0, 1.0]]]), 1, 2, 1)),
]

OVERLAPS_ADD = "An input element read by several windows receives the sum of their gradients."
UNREAD = "Input elements no window read (past the last window, or hidden by the stride) get gradient 0."
GRAD_SHAPE = "The result has x's shape: (N, C, length), or (C, length) for an unbatched grad (O, L_out)."
PADDING_CROPPED = "Gradients that land on padding zeros are dropped: only the length real elements are returned."

GRAD_EXAMPLES = [  # (grad, weight, length, padding, stride, dilation)
    (np.ones((1, 1, 2)), np.array([[[1.0, 1.0, 1.0]]]), 4, 0, 1, 1),
    (np.array([[[1.0, 2.0, 3.0, 4.0]]]), np.array([[[1.0, 2.0, 3.0]]]), 8, 1, 2, 1),
    (np.array([[[1.0, 0.0, -1.0]], [[2.0, 1.0, 0.5]]]), np.array([[[1.0, -1.0], [0.5, 2.0]]]), 5, 0, 1, 2),
]
GRAD_CLAUSES = [
    Clause(OVERLAPS_ADD, (np.array([[[1.0, 10.0, 100.0]]]), np.array([[[1.0, 2.0, 3.0]]]), 5, 0, 1, 1)),
    Clause(CHANNELS_SUM, (np.array([[[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]]]),
                          np.array([[[1.0, 0.0], [0.0, 1.0]], [[2.0, -1.0], [0.5, 0.5]], [[0.0, 3.0], [1.0, 1.0]]]), 3, 0, 1, 1)),
    Clause(STRIDE, (np.array([[[1.0, 10.0, 100.0]]]), np.array([[[1.0, 2.0]]]), 8, 0, 3, 1)),
    Clause(DILATION, (np.array([[[1.0, 10.0, 100.0]]]), np.array([[[1.0, 2.0, 3.0]]]), 11, 0, 1, 4)),
    Clause(UNREAD, (np.array([[[1.0, 10.0]]]), np.array([[[1.0, 2.0]]]), 9, 0, 4, 1)),
    Clause(PADDING_CROPPED, (np.array([[[1.0, 10.0, 100.0, 1000.0]]]), np.array([[[1.0, 2.0, 3.0]]]), 4, 1, 1, 1)),
    Clause(PADDING_CROPPED, (np.array([[[1.0, 10.0, 100.0, 1000.0, 5.0]]]), np.array([[[1.0, 2.0]]]), 2, 2, 1, 1)),
    Clause(GRAD_SHAPE, (np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 1.0]]), np.array([[[1.0, 2.0]], [[3.0, 4.0]]]), 5, 1, 2, 1)),
    Clause(EMPTY_BATCH, (np.zeros((0, 3, 3)), np.ones((3, 2, 2)), 5, 1, 2, 1)),
    Clause(KEEP_DTYPE, (seed([[[1, 2, 3]]]), seed([[[1, -1]]]), 5, 1, 2, 1)),
    Clause(ANY_STRIDES, (np.arange(1.0, 7.0).reshape(3, 2).T.reshape(1, 2, 3), np.array([[[1.0, 0.5]], [[-1.0, 2.0]]]), 4, 0, 1, 1)),
]

# What each part may use, besides the common names (shape, ndim, dtype, len, range, ...): the statement lists
# them. Never a helper that computes the windows or the convolution (np.convolve, sliding_window_view,
# np.polymul, np.fft), and no einsum/vecdot: the one matmul is the point. A later part may call an earlier
# one, so its list holds the earlier part's too.
LOOPS_ALLOWED = ("pad", "zeros", "zeros_like", "empty", "concatenate", "reshape", "sum", "astype", "matmul")
UNFOLD_ALLOWED = ("pad", "zeros", "concatenate", "arange", "reshape", "transpose", "take", "add", "outer",
                  "lib", "stride_tricks", "as_strided", "strides")
CONV_ALLOWED = (*UNFOLD_ALLOWED, "matmul", "tensordot", "swapaxes", "moveaxis")
GRAD_ALLOWED = ("reshape", "transpose", "swapaxes", "matmul", "arange", "zeros", "pad", "add", "at", "bincount", "astype")

LOOPS_INPUTS = (
    "The cases draw batched (N, C, L) and unbatched (C, L) inputs, empty batches (N = 0), C, O and K from 1 "
    "to 3, padding from 0 to 4 (larger than the kernel too), float64 values and float32 ones holding small "
    "integers, and x and weight as non-contiguous views (every other element, or a transposed layout)."
)
UNFOLD_INPUTS = (
    "The cases draw batched (N, C, L) and unbatched (C, L) inputs, empty batches (N = 0), C and K from 1 to 3, "
    "padding from 0 to 3 (larger than the kernel too), stride and dilation from 1 to 4, float64 values and "
    "float32 ones holding small integers, x as a non-contiguous view (every other element, or a transposed "
    "layout), and a large input of 2 samples × 2 channels × 1500 elements."
)
CONV_INPUTS = (
    "The cases draw batched (N, C, L) and unbatched (C, L) inputs, empty batches (N = 0), C, O and K from 1 "
    "to 3, padding from 0 to 4 (larger than the kernel too), stride and dilation from 1 to 4, float64 values "
    "and float32 ones holding small integers, x and weight as non-contiguous views (every other element, or a "
    "transposed layout), and a large input of 2 samples × 2 channels × 1500 elements."
)
GRAD_INPUTS = (
    "The cases draw batched (N, O, L_out) and unbatched (O, L_out) grads, empty batches (N = 0), C, O and K "
    "from 1 to 3, padding from 0 to 3 (larger than the kernel too), stride and dilation from 1 to 4, lengths "
    "whose last elements no window reads, float64 values and float32 ones holding small integers, grad and "
    "weight as non-contiguous views (every other element, or a transposed layout), and a large grad for "
    "2 samples × 2 channels × 1500-element signals."
)

LOOPS_HINT = (
    "Which elements of the padded input does output position p of output channel o read, and over which "
    "two indices does its sum run?"
)
UNFOLD_HINT = (
    "If the window starts and the tap offsets were two one-dimensional integer arrays, how could broadcasting "
    "turn them into every position to read at once, and in which order must the channel and tap axes merge?"
)
CONV_HINT = (
    "Once every window is a column of C·K numbers, what shape must the weight take so that a single matrix "
    "product gives every output channel at every position, for every sample?"
)
GRAD_HINT = (
    "Each column entry of the forward pass was read from one padded position: going backwards, what must "
    "happen where several windows read the same position, and does indexed assignment add or overwrite?"
)

CONV1D_LOOPS = Task(
    name="conv1d_loops", reference=conv1d_loops_reference, examples=SEED_EXAMPLES, clauses=LOOPS_CLAUSES,
    random_case=random_loops_case, hint=LOOPS_HINT, forbidden=LIBRARY_CONVOLUTIONS, tolerance=TOLERANCE,
    allowed=LOOPS_ALLOWED, inputs=LOOPS_INPUTS,
)
UNFOLD1D = Task(
    name="unfold1d", reference=unfold1d_reference, examples=UNFOLD_EXAMPLES, clauses=UNFOLD_CLAUSES,
    random_case=random_unfold_case, hint=UNFOLD_HINT, forbidden=LIBRARY_CONVOLUTIONS, tolerance=TOLERANCE,
    vectorised=True, large_case=large_unfold_case, allowed=UNFOLD_ALLOWED, inputs=UNFOLD_INPUTS,
)
CONV1D_UNFOLD = Task(
    name="conv1d_unfold", reference=conv1d_reference, examples=CONV_EXAMPLES, clauses=CONV_CLAUSES,
    random_case=random_conv_case, hint=CONV_HINT, forbidden=LIBRARY_CONVOLUTIONS, tolerance=TOLERANCE,
    vectorised=True, large_case=large_conv_case, allowed=CONV_ALLOWED, inputs=CONV_INPUTS,
)
CONV1D_INPUT_GRAD = Task(
    name="conv1d_input_grad", reference=conv1d_input_grad_reference, examples=GRAD_EXAMPLES, clauses=GRAD_CLAUSES,
    random_case=random_grad_case, hint=GRAD_HINT, forbidden=LIBRARY_CONVOLUTIONS, tolerance=TOLERANCE,
    vectorised=True, large_case=large_grad_case, allowed=GRAD_ALLOWED, inputs=GRAD_INPUTS,
)

EXERCISE = Exercise(notebook="convolutions", tasks=(CONV1D_LOOPS, UNFOLD1D, CONV1D_UNFOLD, CONV1D_INPUT_GRAD))
