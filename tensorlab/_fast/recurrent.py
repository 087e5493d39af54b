"""A whole recurrent layer (one direction) as a single autograd Function: the fast path of nn.RNN/LSTM/GRU.

``nn/modules/rnn.py`` spells each time step as tensor ops, and autograd records each of them: fine to read,
but a 35-step LSTM then costs some 500 recorded ops forward and as many backward. Here the time
loop runs inside one node: forward in NumPy, backward is backpropagation through time written
out, as torch's fused CPU kernels do (their grad_fn is one node per layer too). Writing the loop
out also lets the weight gradient be one matmul over all steps instead of one per step. With the
fast path off (``tensorlab.set_fast_path(False)``) the plain step-by-step version runs instead;
the tests check that both agree with torch.

Every cell has the same outline, so one loop serves all three: a step reads x_proj[t] (W_ih x + b_ih,
computed for all steps beforehand) and h_proj = h W_hh^T + b_hh, and its backward returns the
gradients of both; then dh_prev = d_h_proj W_hh (plus, for the GRU, the direct path h -> h'),
dW_hh = sum over steps of d_h_proj^T h_prev and db_hh = sum of d_h_proj.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np

from .._tensor import Tensor
from ..autograd.function import Function, FunctionCtx
from ..ops.windows import first_order_only

__all__ = ["RecurrentLayer", "run_layer"]

Array = np.ndarray
# step(x_t, h_proj, h, c) -> (h', c', what backward needs); h_proj is the step's to overwrite
StepForward = Callable[[Array, Array, Array, "Array | None"], tuple[Array, "Array | None", Any]]
# step_backward(dh', dc', saved) -> (d x_t, d h_proj, dh through any direct path, dc)
StepBackward = Callable[[Array, "Array | None", Any], tuple[Array, Array, "Array | None", "Array | None"]]


def _chunks(a: Array, n: int) -> list[Array]:
    """The n gates side by side in a's columns, as views (np.split does the same, more slowly)."""
    width = a.shape[1] // n
    return [a[:, k * width : (k + 1) * width] for k in range(n)]


def _sigmoid(x: Array) -> Array:
    """sigmoid(x) = (1 + tanh(x / 2)) / 2: no overflow for large |x|, unlike 1 / (1 + exp(-x))."""
    return 0.5 + 0.5 * np.tanh(0.5 * x)


# --- Elman RNN: h' = tanh(pre) or relu(pre), pre = x_t + h_proj ----------------------------------
def tanh_step(x: Array, h_proj: Array, h: Array, c: Array | None) -> tuple[Array, None, Any]:
    h_next = np.tanh(x + h_proj)
    return h_next, None, h_next


def tanh_step_backward(dh: Array, dc: Array | None, h_next: Any) -> tuple[Array, Array, None, None]:
    d_pre = dh * (1 - h_next * h_next)
    return d_pre, d_pre, None, None


def relu_step(x: Array, h_proj: Array, h: Array, c: Array | None) -> tuple[Array, None, Any]:
    h_next = np.maximum(x + h_proj, 0)
    return h_next, None, h_next


def relu_step_backward(dh: Array, dc: Array | None, h_next: Any) -> tuple[Array, Array, None, None]:
    d_pre = dh * (h_next > 0)
    return d_pre, d_pre, None, None


# --- LSTM: gates i, f, g, o; c' = f c + i g; h' = o tanh(c') ------------------------------------
@cache
def _gate_columns(hidden: int, dtype: np.dtype) -> tuple[Array, Array]:
    """Per-column scale and offset that turn one tanh over all four gates into their activations.

    sigmoid(x) = 0.5 + 0.5 tanh(x / 2), so with scale 0.5 on the sigmoid gates (i, f, o) and 1 on
    the tanh gate g: activation = tanh(scale * x) * scale + offset, offset 0.5 on i, f, o and 0 on g.
    Its derivative is scale^2 * (1 - tanh^2): s (1 - s) for a sigmoid, 1 - t^2 for tanh.
    """
    scale = np.full(4 * hidden, 0.5, dtype)
    scale[2 * hidden : 3 * hidden] = 1.0
    return scale, np.where(scale == 0.5, 0.5, 0.0).astype(dtype)


def lstm_step(x: Array, h_proj: Array, h: Array, c: Array | None) -> tuple[Array, Array, Any]:
    assert c is not None
    scale, offset = _gate_columns(h.shape[1], x.dtype)
    h_proj += x
    h_proj *= scale
    tanh_gates = np.tanh(h_proj, out=h_proj)
    act = tanh_gates * scale
    act += offset
    i, f, g, o = _chunks(act, 4)
    c_next = f * c
    c_next += i * g
    tanh_c = np.tanh(c_next)
    return o * tanh_c, c_next, (tanh_gates, act, c, tanh_c)


def lstm_step_backward(dh: Array, dc_next: Array | None, saved: Any) -> tuple[Array, Array, None, Array]:
    """dc = dc' + dh' o (1 - tanh(c')^2); di = dc g, df = dc c, dg = dc i, do = dh' tanh(c'),
    each times its activation's derivative; the previous step gets dc f."""
    tanh_gates, act, c, tanh_c = saved
    i, f, g, o = _chunks(act, 4)
    dc = dh * o * (1 - tanh_c * tanh_c)
    if dc_next is not None:
        dc += dc_next
    d_pre = np.empty_like(act)
    d_i, d_f, d_g, d_o = _chunks(d_pre, 4)
    np.multiply(dc, g, out=d_i)
    np.multiply(dc, c, out=d_f)
    np.multiply(dc, i, out=d_g)
    np.multiply(dh, tanh_c, out=d_o)
    scale, _ = _gate_columns(c.shape[1], c.dtype)
    d_pre *= (1 - tanh_gates * tanh_gates) * (scale * scale)  # the activations' derivatives
    return d_pre, d_pre, None, dc * f


# --- GRU: r, z, n; n = tanh(x_n + r h_n); h' = (1 - z) n + z h ------------------------------------
def gru_step(x: Array, h_proj: Array, h: Array, c: Array | None) -> tuple[Array, None, Any]:
    x_r, x_z, x_n = _chunks(x, 3)
    h_r, h_z, h_n = _chunks(h_proj, 3)
    r = _sigmoid(x_r + h_r)
    z = _sigmoid(x_z + h_z)
    n = np.tanh(x_n + r * h_n)
    return n + z * (h - n), None, (r, z, n, h_n, h)


def gru_step_backward(dh: Array, dc: Array | None, saved: Any) -> tuple[Array, Array, Array, None]:
    """The reset gate scales only h's part of n, so x and h_proj get different gradients for n:
    d x_n = d n_pre but d h_n = d n_pre r. h also reaches h' directly, through z h."""
    r, z, n, h_n, h = saved
    dn_pre = dh * (1 - z) * (1 - n * n)
    dr_pre = dn_pre * h_n * r * (1 - r)
    dz_pre = dh * (h - n) * z * (1 - z)
    d_x = np.concatenate([dr_pre, dz_pre, dn_pre], axis=1)
    d_h_proj = np.concatenate([dr_pre, dz_pre, dn_pre * r], axis=1)
    return d_x, d_h_proj, dh * z, None


CELLS: dict[str, tuple[StepForward, StepBackward]] = {
    "RNN_TANH": (tanh_step, tanh_step_backward),
    "RNN_RELU": (relu_step, relu_step_backward),
    "LSTM": (lstm_step, lstm_step_backward),
    "GRU": (gru_step, gru_step_backward),
}


class RecurrentLayer(Function):
    """(output, h_n[, c_n]) of one direction of one layer, from x_proj = W_ih x + b_ih for all steps.

    ``c0`` is the LSTM's cell state (None for RNN and GRU, which then return no c_n).
    """

    @staticmethod
    def forward(
        ctx: FunctionCtx, x_proj: Tensor, h0: Tensor, c0: Tensor | None, w_hh: Tensor, b_hh: Tensor | None, mode: str, reverse: bool
    ) -> tuple[Tensor, ...]:
        step, _ = CELLS[mode]
        x, w_t = x_proj._data, np.ascontiguousarray(w_hh._data.T)
        steps = x.shape[0]
        h, c = h0._data, None if c0 is None else c0._data
        h_prev = np.empty((steps, *h.shape), x.dtype)  # the h each step read, for dW_hh
        output = np.empty_like(h_prev)
        saved: list[Any] = [None] * steps
        for t in range(steps - 1, -1, -1) if reverse else range(steps):
            h_proj = h @ w_t
            if b_hh is not None:
                h_proj += b_hh._data
            h_prev[t] = h
            h, c, saved[t] = step(x[t], h_proj, h, c)
            output[t] = h
        ctx.mode, ctx.reverse, ctx.steps_saved, ctx.h_prev = mode, reverse, saved, h_prev
        ctx.save_for_backward(w_hh)
        dt = x_proj.dtype
        outputs = (Tensor._from_array(output, dt), Tensor._from_array(h, dt))
        return outputs if c is None else (*outputs, Tensor._from_array(c, dt))

    @staticmethod
    def backward(ctx: FunctionCtx, grad_output: Tensor, grad_h_n: Tensor, *grad_c_n: Tensor) -> tuple:
        _, step_backward = CELLS[ctx.mode]
        (w_hh,) = ctx.saved_tensors
        w, h_prev, saved = w_hh._data, ctx.h_prev, ctx.steps_saved
        steps = len(saved)
        d_x = np.empty((steps, h_prev.shape[1], w.shape[0]), w.dtype)
        d_h_proj = np.empty_like(d_x)
        dh_next = grad_h_n._data
        dc_next = grad_c_n[0]._data if grad_c_n else None
        for t in range(steps) if ctx.reverse else range(steps - 1, -1, -1):
            d_x[t], d_h_proj[t], dh_direct, dc_next = step_backward(grad_output._data[t] + dh_next, dc_next, saved[t])
            dh_next = d_h_proj[t] @ w
            if dh_direct is not None:
                dh_next += dh_direct
        flat = d_h_proj.reshape(-1, w.shape[0])
        needs = ctx.needs_input_grad
        dt = grad_output.dtype
        grads = (
            Tensor._from_array(d_x, dt) if needs[0] else None,
            Tensor._from_array(dh_next, dt) if needs[1] else None,
            Tensor._from_array(dc_next, dt) if needs[2] and dc_next is not None else None,
            Tensor._from_array(flat.T @ h_prev.reshape(-1, w.shape[1]), dt) if needs[3] else None,
            Tensor._from_array(flat.sum(axis=0), dt) if needs[4] else None,
        )
        return (*first_order_only("recurrent layer", grads, grad_output, grad_h_n, *grad_c_n, w_hh), None, None)


def run_layer(x_proj: Tensor, state: tuple[Tensor, ...], w_hh: Tensor, b_hh: Tensor | None, mode: str, reverse: bool) -> tuple[Tensor, tuple[Tensor, ...]]:
    """The hook nn.RNNBase calls: (output, final state) with the state as (h,) or (h, c), as the plain loop gives."""
    output, *final = RecurrentLayer.apply(x_proj, state[0], state[1] if len(state) > 1 else None, w_hh, b_hh, mode, reverse)
    return output, tuple(final)
