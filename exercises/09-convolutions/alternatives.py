"""Correct answers of exercise 09 (convolutions) written other ways than the solution: each must keep full marks."""

from tensorlab.grading import Alternative

ALTERNATIVES = [
    # --- conv1d_loops -------------------------------------------------------------------------
    Alternative("conv1d_loops", "loop-over-taps-matmul-per-tap", '''
import numpy as np
def conv1d_loops(x, weight, padding):
    signals = x.reshape((1,) + x.shape) if x.ndim == 2 else x
    batch, channels, length = signals.shape
    outputs, _, kernel = weight.shape
    padded = np.zeros((batch, channels, length + 2 * padding), dtype=x.dtype)
    padded[:, :, padding:padding + length] = signals
    out_length = length + 2 * padding - kernel + 1
    out = np.zeros((batch, outputs, out_length), dtype=x.dtype)
    for j in range(kernel):
        # tap j of every (o, c) pair, applied to the input shifted by j
        out += weight[:, :, j] @ padded[:, :, j:j + out_length]
    return out if x.ndim == 3 else out[0]
'''),
    Alternative("conv1d_loops", "loop-over-windows-elementwise-product-sum", '''
import numpy as np
def conv1d_loops(x, weight, padding):
    unbatched = x.ndim == 2
    if unbatched:
        x = x[np.newaxis]
    zeros = np.zeros(x.shape[:2] + (padding,), dtype=x.dtype)
    padded = np.concatenate([zeros, x, zeros], axis=2)
    kernel = weight.shape[2]
    out_length = padded.shape[2] - kernel + 1
    out = np.empty((x.shape[0], weight.shape[0], out_length), dtype=x.dtype)
    for n in range(x.shape[0]):
        for o in range(weight.shape[0]):
            for p in range(out_length):
                window = padded[n, :, p:p + kernel]          # (C, K)
                out[n, o, p] = np.sum(weight[o] * window)
    if unbatched:
        return out[0]
    return out
'''),
    Alternative("conv1d_loops", "loop-over-channel-pairs-outer-taps", '''
import numpy as np
def conv1d_loops(x, weight, padding):
    batched = x.ndim == 3
    signals = x if batched else x[None, :, :]
    padded = np.pad(signals, [(0, 0), (0, 0), (padding, padding)], mode="constant", constant_values=0)
    outputs, channels, kernel = weight.shape
    out_length = padded.shape[-1] - kernel + 1
    out = np.zeros((padded.shape[0], outputs, out_length), dtype=x.dtype)
    for o in range(outputs):
        for c in range(channels):
            for j in range(kernel):
                out[:, o, :] += weight[o, c, j] * padded[:, c, j:j + out_length]
    return out if batched else out[0]
'''),
    # --- unfold1d -----------------------------------------------------------------------------
    Alternative("unfold1d", "as-strided-windows-of-padded-copy", '''
import numpy as np
from numpy.lib.stride_tricks import as_strided
def unfold1d(x, kernel_size, padding, stride, dilation):
    signals = x if x.ndim == 3 else x[None]
    padded = np.pad(signals, ((0, 0), (0, 0), (padding, padding)))  # a fresh, C-contiguous array
    batch, channels, length = padded.shape
    out_length = (length - dilation * (kernel_size - 1) - 1) // stride + 1
    s_batch, s_channel, s_length = padded.strides
    windows = as_strided(padded, shape=(batch, channels, kernel_size, out_length),
                         strides=(s_batch, s_channel, dilation * s_length, stride * s_length), writeable=False)
    columns = windows.reshape(batch, channels * kernel_size, out_length)  # copies
    return columns if x.ndim == 3 else columns[0]
'''),
    Alternative("unfold1d", "flat-positions-over-channels-and-taps", '''
import numpy as np
def unfold1d(x, kernel_size, padding, stride, dilation):
    batched = x.ndim == 3
    signals = x if batched else x[np.newaxis]
    batch, channels, length = signals.shape
    full = length + 2 * padding
    padded = np.zeros((batch, channels * full), dtype=x.dtype)   # channels laid end to end
    padded.reshape(batch, channels, full)[:, :, padding:padding + length] = signals
    out_length = (full - dilation * (kernel_size - 1) - 1) // stride + 1
    rows = (np.arange(channels)[:, None] * full + np.arange(kernel_size)[None, :] * dilation).reshape(-1)  # (C*K,)
    flat = rows[:, None] + stride * np.arange(out_length)[None, :]  # (C*K, L_out)
    columns = padded[:, flat]
    return columns if batched else columns[0]
'''),
    Alternative("unfold1d", "np-take-with-add-outer", '''
import numpy as np
def unfold1d(x, kernel_size, padding, stride, dilation):
    batched = x.ndim == 3
    padded = np.pad(x, [(0, 0)] * (x.ndim - 1) + [(padding, padding)])
    length = padded.shape[-1]
    out_length = (length - dilation * (kernel_size - 1) - 1) // stride + 1
    positions = np.add.outer(dilation * np.arange(kernel_size), stride * np.arange(out_length))
    windows = np.take(padded, positions, axis=-1)  # (..., C, K, L_out)
    channels = x.shape[-2]
    return windows.reshape(windows.shape[:-3] + (channels * kernel_size, out_length))
'''),
    # --- conv1d_unfold ------------------------------------------------------------------------
    Alternative("conv1d_unfold", "strided-windows-rows-times-weight-transposed", '''
import numpy as np
from numpy.lib.stride_tricks import as_strided
def conv1d_unfold(x, weight, padding, stride, dilation):
    outputs, channels, kernel = weight.shape
    signals = x if x.ndim == 3 else x[None]
    padded = np.pad(signals, ((0, 0), (0, 0), (padding, padding)))
    batch, _, length = padded.shape
    out_length = (length - dilation * (kernel - 1) - 1) // stride + 1
    sb, sc, sl = padded.strides
    windows = as_strided(padded, shape=(batch, out_length, channels, kernel),
                         strides=(sb, stride * sl, sc, dilation * sl), writeable=False)
    rows = windows.reshape(batch, out_length, channels * kernel)      # one window per row
    out = rows @ weight.reshape(outputs, channels * kernel).T          # (N, L_out, O): one matmul
    out = out.transpose(0, 2, 1)
    return out if x.ndim == 3 else out[0]
'''),
    Alternative("conv1d_unfold", "gathered-columns-tensordot", '''
import numpy as np
def conv1d_unfold(x, weight, padding, stride, dilation):
    batched = x.ndim == 3
    signals = x if batched else x[None]
    padded = np.pad(signals, ((0, 0), (0, 0), (padding, padding)))
    kernel = weight.shape[-1]
    out_length = (padded.shape[-1] - dilation * (kernel - 1) - 1) // stride + 1
    starts = np.arange(0, out_length * stride, stride)
    taps = np.arange(0, kernel * dilation, dilation)
    columns = padded[:, :, taps[:, None] + starts[None, :]]           # (N, C, K, L_out)
    out = np.tensordot(weight, columns, axes=([1, 2], [1, 2]))        # (O, N, L_out)
    out = np.moveaxis(out, 0, 1)
    return out if batched else out[0]
'''),
    # --- conv1d_input_grad --------------------------------------------------------------------
    Alternative("conv1d_input_grad", "bincount-on-flat-positions", '''
import numpy as np
def conv1d_input_grad(grad, weight, length, padding, stride, dilation):
    batched = grad.ndim == 3
    grads = grad if batched else grad[None]
    batch, outputs, out_length = grads.shape
    _, channels, kernel = weight.shape
    full = length + 2 * padding
    matrix = weight.reshape(outputs, channels * kernel).transpose()      # (C*K, O)
    columns = np.matmul(matrix, grads).reshape(batch, channels, kernel, out_length)  # (N, C, K, L_out)
    positions = dilation * np.arange(kernel)[:, None] + stride * np.arange(out_length)[None, :]  # (K, L_out)
    rows = np.arange(batch * channels).reshape(batch, channels, 1, 1) * full
    flat = (rows + positions).reshape(-1)
    padded = np.bincount(flat, weights=columns.reshape(-1), minlength=batch * channels * full)
    result = padded.reshape(batch, channels, full)[:, :, padding:padding + length].astype(grad.dtype)
    return result if batched else result[0]
'''),
    Alternative("conv1d_input_grad", "upsample-grad-then-correlate-with-flipped-kernel", '''
import numpy as np
def conv1d_input_grad(grad, weight, length, padding, stride, dilation):
    """The transposed convolution as an ordinary one: spread grad out by the stride, pad it,
    and correlate it with the kernel flipped along its taps and with in/out channels swapped."""
    batched = grad.ndim == 3
    grads = grad if batched else grad[None]
    batch, outputs, out_length = grads.shape
    _, channels, kernel = weight.shape
    reach = dilation * (kernel - 1)
    spread = (out_length - 1) * stride + 1
    total = max(reach + spread, length + padding + reach)
    upsampled = np.zeros((batch, outputs, total), dtype=grad.dtype)
    upsampled[:, :, reach:reach + spread:stride] = grads
    flipped = weight[:, :, ::-1]                                       # (O, C, K)
    positions = padding + dilation * np.arange(kernel)[:, None] + np.arange(length)[None, :]  # (K, length)
    columns = upsampled[:, :, positions].reshape(batch, outputs * kernel, length)  # (N, O*K, length)
    kernel_matrix = flipped.transpose(1, 0, 2).reshape(channels, outputs * kernel)  # (C, O*K)
    result = kernel_matrix @ columns                                   # (N, C, length)
    return result if batched else result[0]
'''),
]
