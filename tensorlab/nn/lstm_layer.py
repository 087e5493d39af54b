"""A whole LSTM layer (one direction) as a single autograd Function: the fast path of nn.LSTM.

``rnn.lstm_step`` spells one step as a dozen tensor ops, and autograd records each of them: fine
to read, but a 35-step sequence then costs some 500 recorded ops forward and as many backward.
Here the time loop runs inside one node: forward in NumPy, backward is backpropagation through
time written out, as torch's fused CPU kernel does (its grad_fn is one node per layer too).
Writing the loop out also lets the weight gradient be one matmul over all steps instead of one
per step. With the fast path off (``tensorlab.set_fast_path(False)``) the plain step-by-step
version runs instead; the tests check that both agree with torch.
"""

from __future__ import annotations

import numpy as np

from .._tensor import Tensor
from ..autograd.function import Function, FunctionCtx
from ..ops.windows import first_order_only

__all__ = ["LSTMLayer"]


def _gate_columns(hidden: int, dtype: np.dtype) -> tuple[np.ndarray, np.ndarray]:
    """Per-column scale and offset that turn one tanh over all four gates into their activations.

    sigmoid(x) = 0.5 + 0.5 tanh(x / 2), so with scale 0.5 on the sigmoid gates (i, f, o) and 1 on
    the tanh gate g: activation = tanh(scale * x) * scale + offset, offset 0.5 on i, f, o and 0 on g.
    Its derivative is scale^2 * (1 - tanh^2): s (1 - s) for a sigmoid, 1 - t^2 for tanh.
    """
    scale = np.full(4 * hidden, 0.5, dtype)
    scale[2 * hidden : 3 * hidden] = 1.0
    return scale, np.where(scale == 0.5, 0.5, 0.0).astype(dtype)


class LSTMLayer(Function):
    """(output, h_n, c_n) of one direction of one layer, from x_proj = W_ih x + b_ih for all steps.

    Each step: gates = x_proj[t] + h W_hh^T + b_hh, split into i, f, g, o (torch's order);
    c = f c_prev + i g; h = o tanh(c). Backward, step by step from the last: dh is the output's
    gradient plus what the next step sends back; dc = dc_next + dh o (1 - tanh(c)^2); then
    di = dc g, df = dc c_prev, dg = dc i, do = dh tanh(c), each times its activation's derivative,
    giving d_gates; the previous step receives dh = d_gates W_hh and dc = dc f. At the end:
    d_x_proj = d_gates of every step, dW_hh = sum over steps of d_gates^T h_prev (one matmul),
    db_hh = sum of d_gates.
    """

    @staticmethod
    def forward(
        ctx: FunctionCtx, x_proj: Tensor, h0: Tensor, c0: Tensor, w_hh: Tensor, b_hh: Tensor | None, reverse: bool
    ) -> tuple[Tensor, Tensor, Tensor]:
        x = x_proj._data if b_hh is None else x_proj._data + b_hh._data  # b_hh added once, not per step
        steps, batch, hidden = x.shape[0], x.shape[1], w_hh.shape[1]
        w_t = np.ascontiguousarray(w_hh._data.T)
        scale, offset = _gate_columns(hidden, x.dtype)
        tanh_gates = np.empty_like(x)  # tanh(scale * gates) of every step, by time index
        h_prev = np.empty((steps, batch, hidden), x.dtype)  # the h and c each step read
        c_prev = np.empty_like(h_prev)
        tanh_c = np.empty_like(h_prev)  # tanh of the c each step wrote
        output = np.empty_like(h_prev)
        h, c = h0._data, c0._data
        for t in range(steps - 1, -1, -1) if reverse else range(steps):
            gates = h @ w_t
            gates += x[t]
            gates *= scale
            np.tanh(gates, out=tanh_gates[t])
            act = tanh_gates[t] * scale + offset
            i, f, g, o = act[:, :hidden], act[:, hidden : 2 * hidden], act[:, 2 * hidden : 3 * hidden], act[:, 3 * hidden :]
            h_prev[t], c_prev[t] = h, c
            c = f * c + i * g
            np.tanh(c, out=tanh_c[t])
            h = output[t] = o * tanh_c[t]
        ctx.reverse = reverse
        ctx.arrays = (h_prev, c_prev, tanh_c, tanh_gates, scale, offset)
        ctx.save_for_backward(w_hh)
        dt = x_proj.dtype
        return Tensor._from_array(output, dt), Tensor._from_array(h, dt), Tensor._from_array(c, dt)

    @staticmethod
    def backward(ctx: FunctionCtx, grad_output: Tensor, grad_h_n: Tensor, grad_c_n: Tensor) -> tuple:
        (w_hh,) = ctx.saved_tensors
        h_prev, c_prev, tanh_c, tanh_gates, scale, offset = ctx.arrays
        w = w_hh._data
        steps, hidden = tanh_gates.shape[0], w.shape[1]
        derivative_scale = scale * scale
        d_gates = np.empty_like(tanh_gates)
        dh_next, dc_next = grad_h_n._data, grad_c_n._data
        for t in range(steps) if ctx.reverse else range(steps - 1, -1, -1):
            act = tanh_gates[t] * scale + offset
            i, f, g, o = act[:, :hidden], act[:, hidden : 2 * hidden], act[:, 2 * hidden : 3 * hidden], act[:, 3 * hidden :]
            dh = grad_output._data[t] + dh_next
            dc = dc_next + dh * o * (1 - tanh_c[t] * tanh_c[t])
            d_act = d_gates[t]  # filled gate by gate, then scaled by the activations' derivative
            np.multiply(dc, g, out=d_act[:, :hidden])
            np.multiply(dc, c_prev[t], out=d_act[:, hidden : 2 * hidden])
            np.multiply(dc, i, out=d_act[:, 2 * hidden : 3 * hidden])
            np.multiply(dh, tanh_c[t], out=d_act[:, 3 * hidden :])
            d_act *= (1 - tanh_gates[t] * tanh_gates[t]) * derivative_scale
            dh_next = d_act @ w
            dc_next = dc * f
        flat = d_gates.reshape(-1, 4 * hidden)
        needs = ctx.needs_input_grad
        dt = grad_output.dtype
        grads = (
            Tensor._from_array(d_gates, dt) if needs[0] else None,
            Tensor._from_array(dh_next, dt) if needs[1] else None,
            Tensor._from_array(dc_next, dt) if needs[2] else None,
            Tensor._from_array(flat.T @ h_prev.reshape(-1, hidden), dt) if needs[3] else None,
            Tensor._from_array(flat.sum(axis=0), dt) if needs[4] else None,
        )
        return (*first_order_only("LSTM layer", grads, grad_output, grad_h_n, grad_c_n, w_hh), None)
