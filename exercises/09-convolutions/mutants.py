"""Mutants of exercise 09 (convolutions): plausible wrong versions of each graded function."""

from tensorlab.grading.tasks import Mutant

MUTANTS = [
    # --- conv1d_loops -------------------------------------------------------------------------
    Mutant("conv1d_loops", "calls-torch", '''
import torch
def conv1d_loops(x, weight, padding):
    return torch.nn.functional.conv1d(torch.from_numpy(x), torch.from_numpy(weight), padding=padding).numpy()
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
    Mutant("conv1d_loops", "calls-np-convolve-with-flipped-kernel", '''
def conv1d_loops(x, weight, padding):
    batched = x.ndim == 3
    signals = x if batched else x[None]
    padded = np.pad(signals, ((0, 0), (0, 0), (padding, padding)))
    batch, channels, length = padded.shape
    outputs, _, kernel = weight.shape
    out = np.zeros((batch, outputs, length - kernel + 1), dtype=x.dtype)
    for n in range(batch):
        for o in range(outputs):
            for c in range(channels):
                out[n, o] += np.convolve(padded[n, c], weight[o, c, ::-1], mode="valid")
    return out if batched else out[0]
''', nudge="Is NumPy's convolve among the tools this part lets you use, when the sum is yours to write?"),
    Mutant("conv1d_loops", "flips-the-kernel", '''
def conv1d_loops(x, weight, padding):
    batched = x.ndim == 3
    signals = x if batched else x[None]
    padded = np.pad(signals, ((0, 0), (0, 0), (padding, padding)))
    batch, channels, length = padded.shape
    outputs, _, kernel = weight.shape
    out = np.zeros((batch, outputs, length - kernel + 1), dtype=x.dtype)
    for n in range(batch):
        for o in range(outputs):
            for p in range(length - kernel + 1):
                for c in range(channels):
                    for j in range(kernel):
                        out[n, o, p] += weight[o, c, kernel - 1 - j] * padded[n, c, p + j]
    return out if batched else out[0]
''', nudge="Does torch's conv1d flip the kernel, the way the textbook convolution does?"),
    Mutant("conv1d_loops", "pads-one-side-only", '''
def conv1d_loops(x, weight, padding):
    batched = x.ndim == 3
    signals = x if batched else x[None]
    padded = np.pad(signals, ((0, 0), (0, 0), (padding, 0)))
    batch, channels, length = padded.shape
    outputs, _, kernel = weight.shape
    out = np.zeros((batch, outputs, length - kernel + 1), dtype=x.dtype)
    for n in range(batch):
        for o in range(outputs):
            for p in range(length - kernel + 1):
                out[n, o, p] = np.sum(weight[o] * padded[n, :, p:p + kernel])
    return out if batched else out[0]
''', nudge="On how many sides of the signal are the padding zeros added?"),
    Mutant("conv1d_loops", "first-input-channel-only", '''
def conv1d_loops(x, weight, padding):
    batched = x.ndim == 3
    signals = x if batched else x[None]
    padded = np.pad(signals, ((0, 0), (0, 0), (padding, padding)))
    batch, channels, length = padded.shape
    outputs, _, kernel = weight.shape
    out = np.zeros((batch, outputs, length - kernel + 1), dtype=x.dtype)
    for n in range(batch):
        for o in range(outputs):
            for p in range(length - kernel + 1):
                out[n, o, p] = np.sum(weight[o, 0] * padded[n, 0, p:p + kernel])
    return out if batched else out[0]
''', nudge="Does each output channel sum over one input channel, or over all of them?"),
    Mutant("conv1d_loops", "output-one-too-short", '''
def conv1d_loops(x, weight, padding):
    batched = x.ndim == 3
    signals = x if batched else x[None]
    padded = np.pad(signals, ((0, 0), (0, 0), (padding, padding)))
    batch, channels, length = padded.shape
    outputs, _, kernel = weight.shape
    out = np.zeros((batch, outputs, length - kernel), dtype=x.dtype)
    for n in range(batch):
        for o in range(outputs):
            for p in range(length - kernel):
                out[n, o, p] = np.sum(weight[o] * padded[n, :, p:p + kernel])
    return out if batched else out[0]
''', nudge="How many window positions fit in the padded input, counting the last one?"),
    Mutant("conv1d_loops", "assumes-a-batch-dim", '''
def conv1d_loops(x, weight, padding):
    padded = np.pad(x, ((0, 0), (0, 0), (padding, padding)))
    batch, channels, length = padded.shape
    outputs, _, kernel = weight.shape
    out = np.zeros((batch, outputs, length - kernel + 1), dtype=x.dtype)
    for n in range(batch):
        for o in range(outputs):
            for p in range(length - kernel + 1):
                out[n, o, p] = np.sum(weight[o] * padded[n, :, p:p + kernel])
    return out
''', nudge="What shape does an unbatched x have, and what shape must its result have?"),
    Mutant("conv1d_loops", "float64-output", '''
def conv1d_loops(x, weight, padding):
    batched = x.ndim == 3
    signals = x if batched else x[None]
    padded = np.pad(signals, ((0, 0), (0, 0), (padding, padding)))
    batch, channels, length = padded.shape
    outputs, _, kernel = weight.shape
    out = np.zeros((batch, outputs, length - kernel + 1))
    for n in range(batch):
        for o in range(outputs):
            for p in range(length - kernel + 1):
                out[n, o, p] = np.sum(weight[o] * padded[n, :, p:p + kernel])
    return out if batched else out[0]
''', nudge="What dtype does an array allocated without naming one get, and is it x's dtype?"),
    Mutant("conv1d_loops", "unbatched-input-read-as-a-batch", '''
def conv1d_loops(x, weight, padding):
    signals = x if x.ndim == 3 else x[:, None, :]
    padded = np.pad(signals, ((0, 0), (0, 0), (padding, padding)))
    batch, channels, length = padded.shape
    outputs, _, kernel = weight.shape
    out = np.zeros((batch, outputs, length - kernel + 1), dtype=x.dtype)
    for n in range(batch):
        for o in range(outputs):
            for p in range(length - kernel + 1):
                out[n, o, p] = np.sum(weight[o, :channels] * padded[n, :, p:p + kernel])
    return out if x.ndim == 3 else out.sum(axis=0)
''', nudge="Is an unbatched x a batch of one-channel signals, or one signal with C channels?"),
    Mutant("conv1d_loops", "list-of-results-loses-empty-batch-shape", '''
def conv1d_loops(x, weight, padding):
    batched = x.ndim == 3
    signals = x if batched else x[None]
    padded = np.pad(signals, ((0, 0), (0, 0), (padding, padding)))
    outputs, _, kernel = weight.shape
    samples = []
    for sample in padded:
        rows = []
        for o in range(outputs):
            rows.append([np.sum(weight[o] * sample[:, p:p + kernel]) for p in range(sample.shape[1] - kernel + 1)])
        samples.append(rows)
    out = np.array(samples, dtype=x.dtype)
    return out if batched else out[0]
''', nudge="When the batch is empty, what shape does an array built from an empty list get?"),
    Mutant("conv1d_loops", "fft-convolution-instead-of-loops", '''
def conv1d_loops(x, weight, padding):
    batched = x.ndim == 3
    signals = x if batched else x[None]
    padded = np.pad(signals, ((0, 0), (0, 0), (padding, padding)))
    batch, channels, length = padded.shape
    outputs, _, kernel = weight.shape
    out = np.zeros((batch, outputs, length - kernel + 1), dtype=x.dtype)
    spectrum = np.fft.rfft(padded, length)                                  # (N, C, F)
    taps = np.fft.rfft(weight[:, :, ::-1], length)                          # (O, C, F): the flipped kernel
    for o in range(outputs):
        full = np.fft.irfft((spectrum * taps[o]).sum(axis=1), length)      # circular convolution, (N, length)
        out[:, o] = full[:, kernel - 1:]
    return out if batched else out[0]
''', nudge="Is the FFT among the tools this part lets you use, when the sum is yours to write out with loops?"),
    # --- unfold1d -----------------------------------------------------------------------------
    Mutant("unfold1d", "calls-torch-unfold", '''
import torch
def unfold1d(x, kernel_size, padding, stride, dilation):
    image = torch.from_numpy(np.ascontiguousarray(x))[..., None, :]
    return torch.nn.functional.unfold(image, (1, kernel_size), (1, dilation), (0, padding), (1, stride)).numpy()
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
    Mutant("unfold1d", "sliding-window-view", '''
def unfold1d(x, kernel_size, padding, stride, dilation):
    batched = x.ndim == 3
    signals = x if batched else x[None]
    padded = np.pad(signals, ((0, 0), (0, 0), (padding, padding)))
    span = dilation * (kernel_size - 1) + 1
    windows = np.lib.stride_tricks.sliding_window_view(padded, span, axis=-1)[:, :, ::stride, ::dilation]
    columns = windows.transpose(0, 1, 3, 2).reshape(padded.shape[0], -1, windows.shape[2])
    return columns if batched else columns[0]
''', nudge="Is NumPy's sliding window view among the window helpers the statement rules out?"),
    Mutant("unfold1d", "tap-major-rows", '''
def unfold1d(x, kernel_size, padding, stride, dilation):
    batched = x.ndim == 3
    signals = x if batched else x[None]
    padded = np.pad(signals, ((0, 0), (0, 0), (padding, padding)))
    batch, channels, length = padded.shape
    out_length = (length - dilation * (kernel_size - 1) - 1) // stride + 1
    positions = np.arange(kernel_size)[:, None] * dilation + np.arange(out_length)[None, :] * stride
    columns = padded[:, :, positions].transpose(0, 2, 1, 3).reshape(batch, channels * kernel_size, out_length)
    return columns if batched else columns[0]
''', nudge="In F.unfold's layout, do the rows of one channel sit together, or the rows of one tap?"),
    Mutant("unfold1d", "ignores-stride", '''
def unfold1d(x, kernel_size, padding, stride, dilation):
    batched = x.ndim == 3
    signals = x if batched else x[None]
    padded = np.pad(signals, ((0, 0), (0, 0), (padding, padding)))
    batch, channels, length = padded.shape
    out_length = length - dilation * (kernel_size - 1)
    positions = np.arange(kernel_size)[:, None] * dilation + np.arange(out_length)[None, :]
    columns = padded[:, :, positions].reshape(batch, channels * kernel_size, out_length)
    return columns if batched else columns[0]
''', nudge="Where does window p start when the stride is more than 1?"),
    Mutant("unfold1d", "dilation-spreads-window-starts", '''
def unfold1d(x, kernel_size, padding, stride, dilation):
    batched = x.ndim == 3
    signals = x if batched else x[None]
    padded = np.pad(signals, ((0, 0), (0, 0), (padding, padding)))
    batch, channels, length = padded.shape
    out_length = (length - dilation * (kernel_size - 1) - 1) // stride + 1
    positions = np.arange(kernel_size)[:, None] + np.arange(out_length)[None, :] * stride * dilation
    positions = np.minimum(positions, length - 1)
    columns = padded[:, :, positions].reshape(batch, channels * kernel_size, out_length)
    return columns if batched else columns[0]
''', nudge="Does dilation space out the taps within a window, or the windows' starts?"),
    Mutant("unfold1d", "windows-not-flattened", '''
def unfold1d(x, kernel_size, padding, stride, dilation):
    batched = x.ndim == 3
    signals = x if batched else x[None]
    padded = np.pad(signals, ((0, 0), (0, 0), (padding, padding)))
    length = padded.shape[-1]
    out_length = (length - dilation * (kernel_size - 1) - 1) // stride + 1
    positions = np.arange(out_length)[:, None] * stride + np.arange(kernel_size)[None, :] * dilation
    windows = padded[:, :, positions]
    return windows if batched else windows[0]
''', nudge="How many dims must the columns have, with channels and taps merged into one?"),
    Mutant("unfold1d", "map-over-windows", '''
def unfold1d(x, kernel_size, padding, stride, dilation):
    batched = x.ndim == 3
    signals = x if batched else x[None]
    padded = np.pad(signals, ((0, 0), (0, 0), (padding, padding)))
    batch, channels, length = padded.shape
    out_length = (length - dilation * (kernel_size - 1) - 1) // stride + 1
    span = dilation * (kernel_size - 1) + 1
    windows = np.stack(list(map(lambda p: padded[:, :, p * stride:p * stride + span:dilation], range(out_length))), axis=-1)
    columns = windows.reshape(batch, channels * kernel_size, out_length)
    return columns if batched else columns[0]
''', nudge="Is map over the windows any less a Python loop than a for statement?"),
    Mutant("unfold1d", "as-strided-assuming-contiguous-input", '''
def unfold1d(x, kernel_size, padding, stride, dilation):
    batched = x.ndim == 3
    signals = x if batched else x[None]
    if padding:
        signals = np.pad(signals, ((0, 0), (0, 0), (padding, padding)))
    batch, channels, length = signals.shape
    out_length = (length - dilation * (kernel_size - 1) - 1) // stride + 1
    item = signals.itemsize
    windows = np.lib.stride_tricks.as_strided(
        signals, (batch, channels, kernel_size, out_length),
        (channels * length * item, length * item, dilation * item, stride * item))
    columns = windows.reshape(batch, channels * kernel_size, out_length)
    return columns if batched else columns[0]
''', nudge="When x is a non-contiguous view and no padding makes a copy, do strides worked out from its shape describe its memory?"),
    Mutant("unfold1d", "forgets-padding", '''
def unfold1d(x, kernel_size, padding, stride, dilation):
    batched = x.ndim == 3
    padded = x if batched else x[None]
    batch, channels, length = padded.shape
    out_length = (length + 2 * padding - dilation * (kernel_size - 1) - 1) // stride + 1
    positions = np.arange(kernel_size)[:, None] * dilation + np.arange(out_length)[None, :] * stride
    positions = np.clip(positions - padding, 0, length - 1)
    columns = padded[:, :, positions].reshape(batch, channels * kernel_size, out_length)
    return columns if batched else columns[0]
''', nudge="Are the padded positions zeros, or copies of the edge elements?"),
    # --- conv1d_unfold ------------------------------------------------------------------------
    Mutant("conv1d_unfold", "calls-tensorlab", '''
import tensorlab
def conv1d_unfold(x, weight, padding, stride, dilation):
    out = tensorlab.nn.functional.conv1d(tensorlab.tensor(x), tensorlab.tensor(weight), None, stride, padding, dilation)
    return out.numpy()
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
    Mutant("conv1d_unfold", "flips-the-kernel", '''
def conv1d_unfold(x, weight, padding, stride, dilation):
    outputs, channels, kernel = weight.shape
    columns = unfold1d(x, kernel, padding, stride, dilation)
    return weight[:, :, ::-1].reshape(outputs, channels * kernel) @ columns
''', nudge="Does torch's conv1d flip the kernel, the way the textbook convolution does?"),
    Mutant("conv1d_unfold", "weight-flattened-tap-major", '''
def conv1d_unfold(x, weight, padding, stride, dilation):
    outputs, channels, kernel = weight.shape
    columns = unfold1d(x, kernel, padding, stride, dilation)
    return weight.transpose(0, 2, 1).reshape(outputs, channels * kernel) @ columns
''', nudge="Does your flattened weight order its columns the same way unfold orders its rows?"),
    Mutant("conv1d_unfold", "ignores-dilation", '''
def conv1d_unfold(x, weight, padding, stride, dilation):
    outputs, channels, kernel = weight.shape
    columns = unfold1d(x, kernel, padding, stride, 1)
    return weight.reshape(outputs, channels * kernel) @ columns
''', nudge="Where does the dilation come into the columns you multiply?"),
    Mutant("conv1d_unfold", "stride-applied-to-the-input", '''
def conv1d_unfold(x, weight, padding, stride, dilation):
    outputs, channels, kernel = weight.shape
    columns = unfold1d(x[..., ::stride], kernel, padding, 1, dilation)
    return weight.reshape(outputs, channels * kernel) @ columns
''', nudge="Does the stride skip input elements before the windows are cut, or skip window starts?"),
    Mutant("conv1d_unfold", "positions-last-layout", '''
def conv1d_unfold(x, weight, padding, stride, dilation):
    outputs, channels, kernel = weight.shape
    columns = unfold1d(x, kernel, padding, stride, dilation)
    return np.swapaxes(columns, -1, -2) @ weight.reshape(outputs, channels * kernel).T
''', nudge="In which order must the result's last two dims come: output channels then positions, or the other way round?"),
    Mutant("conv1d_unfold", "while-loop-over-samples", '''
def conv1d_unfold(x, weight, padding, stride, dilation):
    outputs, channels, kernel = weight.shape
    matrix = weight.reshape(outputs, channels * kernel)
    if x.ndim == 2:
        return matrix @ unfold1d(x, kernel, padding, stride, dilation)
    results = []
    n = 0
    while n < x.shape[0]:
        results.append(matrix @ unfold1d(x[n], kernel, padding, stride, dilation))
        n += 1
    return np.stack(results) if results else np.zeros((0, outputs, 0), dtype=x.dtype)
''', nudge="Is a while loop over the samples any less a Python loop?"),
    Mutant("conv1d_unfold", "map-over-output-channels", '''
def conv1d_unfold(x, weight, padding, stride, dilation):
    outputs, channels, kernel = weight.shape
    columns = unfold1d(x, kernel, padding, stride, dilation)
    rows = list(map(lambda w: w.reshape(1, channels * kernel) @ columns, weight))
    return np.concatenate(rows, axis=-2)
''', nudge="Is map over the output channels any less a Python loop?"),
    Mutant("conv1d_unfold", "float64-matmul", '''
def conv1d_unfold(x, weight, padding, stride, dilation):
    outputs, channels, kernel = weight.shape
    columns = unfold1d(x, kernel, padding, stride, dilation).astype(np.float64)
    return weight.reshape(outputs, channels * kernel).astype(np.float64) @ columns
''', nudge="Which dtype does your result come out in, and is it x's?"),
    Mutant("conv1d_unfold", "padding-ignored", '''
def conv1d_unfold(x, weight, padding, stride, dilation):
    outputs, channels, kernel = weight.shape
    columns = unfold1d(x, kernel, 0, stride, dilation)
    return weight.reshape(outputs, channels * kernel) @ columns
''', nudge="Where do the padding zeros come into your columns?"),
    Mutant("conv1d_unfold", "einsum-instead-of-one-matmul", '''
def conv1d_unfold(x, weight, padding, stride, dilation):
    outputs, channels, kernel = weight.shape
    columns = unfold1d(x, kernel, padding, stride, dilation)
    return np.einsum("of,...fp->...op", weight.reshape(outputs, channels * kernel), columns)
''', nudge="Is einsum among the tools this part lets you use, when it asks for one matmul?"),
    # --- conv1d_input_grad --------------------------------------------------------------------
    Mutant("conv1d_input_grad", "calls-torch-autograd", '''
import torch
def conv1d_input_grad(grad, weight, length, padding, stride, dilation):
    g, w = torch.from_numpy(np.ascontiguousarray(grad)), torch.from_numpy(np.ascontiguousarray(weight))
    x = torch.zeros(*g.shape[:-2], w.shape[1], length, dtype=g.dtype, requires_grad=True)
    torch.nn.functional.conv1d(x, w, None, stride, padding, dilation).backward(g)
    return x.grad.numpy()
''', nudge="Which parts of this exercise are yours to write, and which libraries are off limits here?"),
    Mutant("conv1d_input_grad", "fancy-assignment-loses-overlaps", '''
def conv1d_input_grad(grad, weight, length, padding, stride, dilation):
    batched = grad.ndim == 3
    grads = grad if batched else grad[None]
    batch, outputs, out_length = grads.shape
    _, channels, kernel = weight.shape
    columns = (weight.reshape(outputs, channels * kernel).T @ grads).reshape(batch, channels, kernel, out_length)
    positions = np.arange(kernel)[:, None] * dilation + np.arange(out_length)[None, :] * stride
    padded = np.zeros((batch, channels, length + 2 * padding), dtype=grad.dtype)
    padded[:, :, positions] += columns
    result = padded[:, :, padding:padding + length]
    return result if batched else result[0]
''', nudge="When two windows read the same input element, does an in-place add through a fancy index add both gradients?"),
    Mutant("conv1d_input_grad", "flipped-kernel-full-correlation", '''
def conv1d_input_grad(grad, weight, length, padding, stride, dilation):
    batched = grad.ndim == 3
    grads = grad if batched else grad[None]
    batch, outputs, out_length = grads.shape
    _, channels, kernel = weight.shape
    full = np.pad(grads, ((0, 0), (0, 0), (kernel - 1, kernel - 1)))
    positions = np.arange(kernel)[:, None] + np.arange(out_length + kernel - 1)[None, :]
    windows = full[:, :, positions]  # (N, O, K, L_out + K - 1)
    flipped = weight[:, :, ::-1]
    padded = np.einsum("nokp,ock->ncp", windows, flipped).astype(grad.dtype)
    result = np.zeros((batch, channels, length), dtype=grad.dtype)
    kept = padded[:, :, padding:padding + length]
    result[:, :, :kept.shape[-1]] = kept
    return result if batched else result[0]
''', nudge="Does a full correlation with the flipped kernel account for the stride and dilation that placed each window?"),
    Mutant("conv1d_input_grad", "ignores-stride", '''
def conv1d_input_grad(grad, weight, length, padding, stride, dilation):
    batched = grad.ndim == 3
    grads = grad if batched else grad[None]
    batch, outputs, out_length = grads.shape
    _, channels, kernel = weight.shape
    columns = (weight.reshape(outputs, channels * kernel).T @ grads).reshape(batch, channels, kernel, out_length)
    positions = np.arange(kernel)[:, None] * dilation + np.arange(out_length)[None, :]
    padded = np.zeros((batch, channels, length + 2 * padding), dtype=grad.dtype)
    np.add.at(padded, (slice(None), slice(None), positions), columns)
    result = padded[:, :, padding:padding + length]
    return result if batched else result[0]
''', nudge="Where in the padded input did window p start, when the stride is more than 1?"),
    Mutant("conv1d_input_grad", "ignores-dilation", '''
def conv1d_input_grad(grad, weight, length, padding, stride, dilation):
    batched = grad.ndim == 3
    grads = grad if batched else grad[None]
    batch, outputs, out_length = grads.shape
    _, channels, kernel = weight.shape
    columns = (weight.reshape(outputs, channels * kernel).T @ grads).reshape(batch, channels, kernel, out_length)
    positions = np.arange(kernel)[:, None] + np.arange(out_length)[None, :] * stride
    padded = np.zeros((batch, channels, length + 2 * padding), dtype=grad.dtype)
    np.add.at(padded, (slice(None), slice(None), positions), columns)
    result = padded[:, :, padding:padding + length]
    return result if batched else result[0]
''', nudge="How far apart in the padded input did the taps of one window sit?"),
    Mutant("conv1d_input_grad", "padding-not-cropped", '''
def conv1d_input_grad(grad, weight, length, padding, stride, dilation):
    batched = grad.ndim == 3
    grads = grad if batched else grad[None]
    batch, outputs, out_length = grads.shape
    _, channels, kernel = weight.shape
    columns = (weight.reshape(outputs, channels * kernel).T @ grads).reshape(batch, channels, kernel, out_length)
    positions = np.arange(kernel)[:, None] * dilation + np.arange(out_length)[None, :] * stride
    padded = np.zeros((batch, channels, length + 2 * padding), dtype=grad.dtype)
    np.add.at(padded, (slice(None), slice(None), positions), columns)
    result = padded[:, :, :length]
    return result if batched else result[0]
''', nudge="Which positions of the padded gradient belong to the real input, and which to the zeros on the left?"),
    Mutant("conv1d_input_grad", "length-from-the-formula", '''
def conv1d_input_grad(grad, weight, length, padding, stride, dilation):
    batched = grad.ndim == 3
    grads = grad if batched else grad[None]
    batch, outputs, out_length = grads.shape
    _, channels, kernel = weight.shape
    length = (out_length - 1) * stride - 2 * padding + dilation * (kernel - 1) + 1
    columns = (weight.reshape(outputs, channels * kernel).T @ grads).reshape(batch, channels, kernel, out_length)
    positions = np.arange(kernel)[:, None] * dilation + np.arange(out_length)[None, :] * stride
    padded = np.zeros((batch, channels, length + 2 * padding), dtype=grad.dtype)
    np.add.at(padded, (slice(None), slice(None), positions), columns)
    result = padded[:, :, padding:padding + length]
    return result if batched else result[0]
''', nudge="When the stride is more than 1, does the output length pin down the input's length, or is that why length is passed?"),
    Mutant("conv1d_input_grad", "weight-not-transposed-per-channel", '''
def conv1d_input_grad(grad, weight, length, padding, stride, dilation):
    batched = grad.ndim == 3
    grads = grad if batched else grad[None]
    batch, outputs, out_length = grads.shape
    _, channels, kernel = weight.shape
    columns = (weight.transpose(1, 0, 2).reshape(channels * kernel, outputs) @ grads).reshape(batch, channels, kernel, out_length)
    positions = np.arange(kernel)[:, None] * dilation + np.arange(out_length)[None, :] * stride
    padded = np.zeros((batch, channels, length + 2 * padding), dtype=grad.dtype)
    np.add.at(padded, (slice(None), slice(None), positions), columns)
    result = padded[:, :, padding:padding + length]
    return result if batched else result[0]
''', nudge="Reshaping a matrix does not transpose it: which matrix did the forward multiply by, and which does its gradient need?"),
    Mutant("conv1d_input_grad", "map-over-taps", '''
def conv1d_input_grad(grad, weight, length, padding, stride, dilation):
    batched = grad.ndim == 3
    grads = grad if batched else grad[None]
    batch, outputs, out_length = grads.shape
    _, channels, kernel = weight.shape
    columns = (weight.reshape(outputs, channels * kernel).T @ grads).reshape(batch, channels, kernel, out_length)
    padded = np.zeros((batch, channels, length + 2 * padding), dtype=grad.dtype)
    starts = np.arange(out_length) * stride
    list(map(lambda k: np.add.at(padded, (slice(None), slice(None), k * dilation + starts), columns[:, :, k]), range(kernel)))
    result = padded[:, :, padding:padding + length]
    return result if batched else result[0]
''', nudge="Is map over the taps any less a Python loop?"),
    Mutant("conv1d_input_grad", "einsum-for-the-column-gradients", '''
def conv1d_input_grad(grad, weight, length, padding, stride, dilation):
    batched = grad.ndim == 3
    grads = grad if batched else grad[None]
    batch, outputs, out_length = grads.shape
    _, channels, kernel = weight.shape
    columns = np.einsum("ock,nop->nckp", weight, grads)
    positions = np.arange(kernel)[:, None] * dilation + np.arange(out_length)[None, :] * stride
    padded = np.zeros((batch, channels, length + 2 * padding), dtype=grad.dtype)
    np.add.at(padded, (slice(None), slice(None), positions), columns)
    result = padded[:, :, padding:padding + length]
    return result if batched else result[0]
''', nudge="Is einsum among the tools this part lets you use?"),
    Mutant("conv1d_input_grad", "histogram-weights-as-a-scatter-add", '''
def conv1d_input_grad(grad, weight, length, padding, stride, dilation):
    batched = grad.ndim == 3
    grads = grad if batched else grad[None]
    batch, outputs, out_length = grads.shape
    _, channels, kernel = weight.shape
    columns = (weight.reshape(outputs, channels * kernel).T @ grads).reshape(batch, channels, kernel, out_length)
    full = length + 2 * padding
    positions = np.arange(kernel)[:, None] * dilation + np.arange(out_length)[None, :] * stride
    flat = (np.arange(batch * channels).reshape(batch, channels, 1, 1) * full + positions).reshape(-1)
    padded, _ = np.histogram(flat, bins=np.arange(batch * channels * full + 1), weights=columns.reshape(-1))
    result = padded.reshape(batch, channels, full)[:, :, padding:padding + length].astype(grad.dtype)
    return result if batched else result[0]
''', nudge="Is NumPy's histogram among the tools this part lets you use, and in which dtype does it add up weights?"),
]
