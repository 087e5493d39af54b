"""Recurrent layers: RNN, LSTM and GRU over whole sequences, and their one-step cells.

A recurrent layer is one cell applied at every time step, carrying a hidden state forward;
autograd unrolls the loop, so backpropagation through time is ordinary backward over the
unrolled graph. Parameters have torch's names, shapes and order (``weight_ih_l0``,
``weight_hh_l0``, ``bias_ih_l0``, ``bias_hh_l0``, then ``*_reverse`` for the backward
direction), with the gates stacked in torch's order (LSTM i, f, g, o; GRU r, z, n), so a state
dict moves between torch and tensorlab in both directions.

The step functions below are the plain path, the one to read. On the fast path (the default)
each layer's time loop runs as one autograd node instead (``tensorlab/_fast/recurrent.py``): same
values, a fraction of the Python overhead.
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from ..._creation import empty, zeros
from ..._fast import recurrent as fast_recurrent
from ..._fast import switch as fast
from ..._tensor import Tensor
from ...ops.join import cat, stack
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module

__all__ = ["GRU", "GRUCell", "LSTM", "LSTMCell", "RNN", "RNNBase", "RNNCell", "RNNCellBase"]

State = tuple[Tensor, ...]  # (h,) for RNN and GRU, (h, c) for LSTM


# --- one time step of each cell ---------------------------------------------------------------
# ``x_proj`` is W_ih x + b_ih, already computed (for a whole sequence it is one matmul over all
# time steps, since it does not depend on the hidden state); the step adds W_hh h + b_hh.


def rnn_tanh_step(x_proj: Tensor, state: State, w_hh: Tensor, b_hh: Tensor | None) -> State:
    """h' = tanh(W_ih x + b_ih + W_hh h + b_hh)."""
    return (F.linear(state[0], w_hh, b_hh).add(x_proj).tanh(),)


def rnn_relu_step(x_proj: Tensor, state: State, w_hh: Tensor, b_hh: Tensor | None) -> State:
    """h' = relu(W_ih x + b_ih + W_hh h + b_hh)."""
    return (F.linear(state[0], w_hh, b_hh).add(x_proj).relu(),)


def lstm_step(x_proj: Tensor, state: State, w_hh: Tensor, b_hh: Tensor | None) -> State:
    """Four gates from one matmul: input i, forget f, candidate g, output o (torch's order).

    c' = f * c + i * g (the cell state is updated additively, which is why gradients survive
    long sequences); h' = o * tanh(c').
    """
    h, c = state
    i, f, g, o = F.linear(h, w_hh, b_hh).add(x_proj).chunk(4, 1)
    c_next = f.sigmoid() * c + i.sigmoid() * g.tanh()
    return o.sigmoid() * c_next.tanh(), c_next


def gru_step(x_proj: Tensor, state: State, w_hh: Tensor, b_hh: Tensor | None) -> State:
    """Reset r, update z, candidate n (torch's order). The reset gate scales only the hidden
    part of n (W_hn h + b_hn), which is why the two projections are kept apart:
    n = tanh(W_in x + b_in + r * (W_hn h + b_hn)); h' = (1 - z) * n + z * h."""
    (h,) = state
    x_r, x_z, x_n = x_proj.chunk(3, 1)
    h_r, h_z, h_n = F.linear(h, w_hh, b_hh).chunk(3, 1)
    r = (x_r + h_r).sigmoid()
    z = (x_z + h_z).sigmoid()
    n = (x_n + r * h_n).tanh()
    return ((1 - z) * n + z * h,)


Step = Callable[[Tensor, State, Tensor, "Tensor | None"], State]
GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}
STEPS: dict[str, Step] = {"RNN_TANH": rnn_tanh_step, "RNN_RELU": rnn_relu_step, "LSTM": lstm_step, "GRU": gru_step}


def _check_dropout(dropout: Any, num_layers: int) -> None:
    if not isinstance(dropout, numbers.Number) or isinstance(dropout, bool) or not 0 <= float(dropout) <= 1:  # type: ignore[arg-type]
        raise ValueError("dropout should be a number in range [0, 1] representing the probability of an element being zeroed")
    if float(dropout) > 0 and num_layers == 1:  # type: ignore[arg-type]
        warnings.warn(
            "dropout option adds dropout after all but last recurrent layer, so non-zero dropout expects "
            f"num_layers greater than 1, but got dropout={dropout} and num_layers={num_layers}",
            stacklevel=3,
        )


def _check_type(name: str, value: Any, kind: type) -> None:
    if not isinstance(value, kind):
        raise TypeError(f"{name} should be of type {kind.__name__}, got: {type(value).__name__}")


# --- whole-sequence layers ---------------------------------------------------------------------
class RNNBase(Module):
    """The machinery RNN, LSTM and GRU share: parameters per layer and direction, the time loop.

    Input is (T, N, features), or (N, T, features) with ``batch_first``, or unbatched (T, features).
    The hidden state is always (num_layers * num_directions, N, hidden), whatever ``batch_first``
    says. Layer k > 0 reads the outputs of layer k - 1 (both directions concatenated), with
    dropout in between in training mode.
    """

    def __init__(
        self,
        mode: str,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        proj_size: int = 0,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        _check_dropout(dropout, num_layers)
        _check_type("bias", bias, bool)
        _check_type("batch_first", batch_first, bool)
        _check_type("input_size", input_size, int)
        if input_size <= 0:
            raise ValueError("input_size must be greater than zero")
        _check_type("hidden_size", hidden_size, int)
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        if mode not in GATES:
            raise ValueError("Unrecognized RNN mode: " + mode)
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        directions = 2 if bidirectional else 1
        gate_size = GATES[mode] * hidden_size
        real_hidden = proj_size if proj_size > 0 else hidden_size  # what h is (and what layers pass on)
        self._flat_weights_names: list[str] = []
        for layer in range(num_layers):
            layer_input = input_size if layer == 0 else real_hidden * directions
            for direction in range(directions):
                suffix = f"_l{layer}" + ("_reverse" if direction else "")
                shapes: dict[str, tuple[int, ...]] = {"weight_ih": (gate_size, layer_input), "weight_hh": (gate_size, real_hidden)}
                if bias:
                    shapes |= {"bias_ih": (gate_size,), "bias_hh": (gate_size,)}
                if proj_size > 0:
                    shapes["weight_hr"] = (proj_size, hidden_size)
                for name, shape in shapes.items():
                    setattr(self, name + suffix, Parameter(empty(shape, dtype=dtype)))
                    self._flat_weights_names.append(name + suffix)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Every weight and bias ~ U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)), as torch."""
        bound = 1.0 / math.sqrt(self.hidden_size)
        for weight in self.parameters():
            init.uniform_(weight, -bound, bound)

    def flatten_parameters(self) -> None:
        """A no-op: torch packs weights into one buffer for cuDNN; tensorlab has nothing to pack."""

    @property
    def all_weights(self) -> list[list[Parameter]]:
        """The parameters grouped per layer and direction, in torch's order."""
        per_group = len(self._flat_weights_names) // (self.num_layers * (2 if self.bidirectional else 1))
        names = self._flat_weights_names
        return [[getattr(self, n) for n in names[i : i + per_group]] for i in range(0, len(names), per_group)]

    def _weights(self, layer: int, direction: int) -> tuple[Tensor, Tensor, Tensor | None, Tensor | None, Tensor | None]:
        suffix = f"_l{layer}" + ("_reverse" if direction else "")
        get = self._parameters.get
        return (
            get("weight_ih" + suffix), get("weight_hh" + suffix),
            get("bias_ih" + suffix), get("bias_hh" + suffix), get("weight_hr" + suffix),
        )

    def _run_direction(self, x_proj: Tensor, state: State, w_hh: Tensor, b_hh: Tensor | None, w_hr: Tensor | None, reverse: bool) -> tuple[Tensor, State]:
        """The time loop of one layer in one direction: the outputs (h at every step) and the last state."""
        if w_hr is None and fast.enabled:  # the whole loop as one autograd node: _fast/recurrent.py
            return fast_recurrent.run_layer(x_proj, state, w_hh, b_hh, self.mode, reverse)
        step = STEPS[self.mode]
        inputs = x_proj.unbind(0)
        outputs: list[Tensor] = [state[0]] * len(inputs)
        for t in reversed(range(len(inputs))) if reverse else range(len(inputs)):
            state = step(inputs[t], state, w_hh, b_hh)
            if w_hr is not None:  # LSTM with projections: h is projected down, c is not
                state = (F.linear(state[0], w_hr), *state[1:])
            outputs[t] = state[0]
        return stack(outputs), state

    def _check_hidden(self, hx: Tensor, expected: tuple[int, ...], which: str = "") -> None:
        if tuple(hx.shape) != expected:
            raise RuntimeError(f"Expected hidden{which} size {expected}, got {list(hx.shape)}")

    def _sequence(self, input: Tensor, hx: State | None) -> tuple[Tensor, State, bool]:  # noqa: A002
        """Check the input, give it (T, N, features) layout and return the initial state."""
        if input.ndim not in (2, 3):
            name, tail = ("RNN", "tensor instead") if self.mode.startswith("RNN") else (self.mode, "instead")
            raise ValueError(f"{name}: Expected input to be 2D or 3D, got {input.ndim}D {tail}")
        batched = input.ndim == 3
        weight = self._parameters["weight_ih_l0"]
        assert weight is not None
        if input.dtype != weight.dtype:
            raise ValueError(
                f"RNN input dtype ({input.dtype}) does not match weight dtype ({weight.dtype}). "
                f"Convert input: input.to({weight.dtype}), or convert model: model.to({input.dtype})"
            )
        if not batched:
            input = input.unsqueeze(1)  # noqa: A001
        elif self.batch_first:
            input = input.transpose(0, 1)  # noqa: A001
        if input.shape[-1] != self.input_size:
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected {self.input_size}, got {input.shape[-1]}")
        if input.shape[0] == 0:
            raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
        directions = 2 if self.bidirectional else 1
        batch = input.shape[1]
        h_size = (self.num_layers * directions, batch, self.proj_size or self.hidden_size)
        c_size = (self.num_layers * directions, batch, self.hidden_size)
        if hx is None:
            state: State = (zeros(h_size, dtype=input.dtype),)
            if self.mode == "LSTM":
                state = (*state, zeros(c_size, dtype=input.dtype))
            return input, state, batched
        rank = 3 if batched else 2
        if any(h.ndim != rank for h in hx):
            kind = "batched 3-D" if batched else "unbatched 2-D"
            if self.mode == "LSTM":
                got = ", ".join(f"{h.ndim}-D" for h in hx)
                raise RuntimeError(f"For {kind} input, hx and cx should also be {rank}-D but got ({got}) tensors")
            raise RuntimeError(f"For {kind} input, hx should also be {rank}-D but got {hx[0].ndim}-D tensor")
        if not batched:
            hx = tuple(h.unsqueeze(1) for h in hx)
        if self.mode == "LSTM":
            self._check_hidden(hx[0], h_size, "[0]")
            self._check_hidden(hx[1], c_size, "[1]")
        else:
            self._check_hidden(hx[0], h_size)
        return input, hx, batched

    def _forward(self, input: Tensor, hx: State | None) -> tuple[Tensor, State]:  # noqa: A002
        sequence, initial, batched = self._sequence(input, hx)
        directions = 2 if self.bidirectional else 1
        finals: list[State] = []
        for layer in range(self.num_layers):
            outputs = []
            for direction in range(directions):
                w_ih, w_hh, b_ih, b_hh, w_hr = self._weights(layer, direction)
                index = layer * directions + direction
                steps, batch, features = sequence.shape
                # W_ih x + b_ih does not depend on h: all time steps in one matmul
                x_proj = F.linear(sequence.reshape(steps * batch, features), w_ih, b_ih).view(steps, batch, w_ih.shape[0])
                out, final = self._run_direction(x_proj, tuple(s[index] for s in initial), w_hh, b_hh, w_hr, reverse=direction == 1)
                outputs.append(out)
                finals.append(final)
            sequence = outputs[0] if directions == 1 else cat(outputs, 2)
            if self.dropout and self.training and layer < self.num_layers - 1:
                sequence = F.dropout(sequence, self.dropout, training=True)
        state = tuple(stack([f[k] for f in finals]) for k in range(len(initial)))
        if not batched:
            return sequence.squeeze(1), tuple(s.squeeze(1) for s in state)
        return (sequence.transpose(0, 1) if self.batch_first else sequence), state

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size != 0:
            s += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s


class RNN(RNNBase):
    """Elman RNN: h_t = tanh(W_ih x_t + b_ih + W_hh h_(t-1) + b_hh) (or relu). Returns (output, h_n)."""

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        nonlinearity: str = "tanh",
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or 'relu'.")
        self.nonlinearity = nonlinearity
        mode = "RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU"
        super().__init__(mode, input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional, 0, device, dtype)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> tuple[Tensor, Tensor]:  # noqa: A002
        output, state = self._forward(input, None if hx is None else (hx,))
        return output, state[0]


class LSTM(RNNBase):
    """Long short-term memory: a cell state c next to h, updated through forget/input gates.

    Returns (output, (h_n, c_n)); ``hx`` is the pair (h_0, c_0). With ``proj_size`` > 0, h is
    projected to proj_size features by ``weight_hr_l{k}`` after every step.
    """

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        proj_size: int = 0,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__("LSTM", input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional, proj_size, device, dtype)

    def forward(self, input: Tensor, hx: Sequence[Tensor] | None = None) -> tuple[Tensor, tuple[Tensor, Tensor]]:  # noqa: A002
        output, (h, c) = self._forward(input, None if hx is None else tuple(hx))
        return output, (h, c)


class GRU(RNNBase):
    """Gated recurrent unit: reset and update gates, no separate cell state. Returns (output, h_n)."""

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__("GRU", input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional, 0, device, dtype)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> tuple[Tensor, Tensor]:  # noqa: A002
        output, state = self._forward(input, None if hx is None else (hx,))
        return output, state[0]


# --- single-step cells -------------------------------------------------------------------------
class RNNCellBase(Module):
    """One step of a recurrent layer: weight_ih, weight_hh, bias_ih, bias_hh (no layer suffix).

    Input is (N, input_size) or unbatched (input_size,); the hidden state defaults to zeros.
    """

    def __init__(self, input_size: int, hidden_size: int, bias: bool, num_chunks: int, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(empty((num_chunks * hidden_size, input_size), dtype=dtype))
        self.weight_hh = Parameter(empty((num_chunks * hidden_size, hidden_size), dtype=dtype))
        if bias:
            self.bias_ih = Parameter(empty(num_chunks * hidden_size, dtype=dtype))
            self.bias_hh = Parameter(empty(num_chunks * hidden_size, dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Every weight and bias ~ U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)), as torch."""
        bound = 1.0 / math.sqrt(self.hidden_size)
        for weight in self.parameters():
            init.uniform_(weight, -bound, bound)

    def _step(self, name: str, step: Step, input: Tensor, hx: State | None) -> State:  # noqa: A002
        """Check shapes as torch's cell kernels do, add the batch dim if missing, take one step."""
        if input.ndim not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.ndim}D instead")
        for index, h in enumerate(hx or ()):
            if h.ndim not in (1, 2):
                which = f"hx[{index}]" if name == "LSTMCell" else "hidden"
                raise ValueError(f"{name}: Expected {which} to be 1D or 2D, got {h.ndim}D instead")
        batched = input.ndim == 2
        if not batched:
            input = input.unsqueeze(0)  # noqa: A001
            hx = None if hx is None else tuple(h.unsqueeze(0) for h in hx)
        if hx is None:
            hx = tuple(zeros((input.shape[0], self.hidden_size), dtype=input.dtype) for _ in range(2 if name == "LSTMCell" else 1))
        if input.shape[1] != self.input_size:
            raise RuntimeError(f"input has inconsistent input_size: got {input.shape[1]} expected {self.input_size}")
        for index, h in enumerate(hx):
            if h.shape[0] != input.shape[0]:
                raise RuntimeError(f"Input batch size {input.shape[0]} doesn't match hidden{index} batch size {h.shape[0]}")
            if h.shape[1] != self.hidden_size:
                raise RuntimeError(f"hidden{index} has inconsistent hidden_size: got {h.shape[1]}, expected {self.hidden_size}")
        state = step(F.linear(input, self.weight_ih, self.bias_ih), hx, self.weight_hh, self.bias_hh)
        return state if batched else tuple(s.squeeze(0) for s in state)

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        nonlinearity = getattr(self, "nonlinearity", "tanh")
        if nonlinearity != "tanh":
            s += f", nonlinearity={nonlinearity}"
        return s


class RNNCell(RNNCellBase):
    """h' = tanh(W_ih x + b_ih + W_hh h + b_hh) (or relu), one step."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, nonlinearity: str = "tanh", device: Any = None, dtype: Any = None) -> None:
        super().__init__(input_size, hidden_size, bias, 1, device, dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:  # noqa: A002
        if self.nonlinearity not in ("tanh", "relu"):
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        step = rnn_tanh_step if self.nonlinearity == "tanh" else rnn_relu_step
        return self._step("RNNCell", step, input, None if hx is None else (hx,))[0]


class LSTMCell(RNNCellBase):
    """One LSTM step: returns (h', c'); ``hx`` is the pair (h, c)."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device: Any = None, dtype: Any = None) -> None:
        super().__init__(input_size, hidden_size, bias, 4, device, dtype)

    def forward(self, input: Tensor, hx: Sequence[Tensor] | None = None) -> tuple[Tensor, Tensor]:  # noqa: A002
        if hx is not None and len(hx) != 2:
            raise RuntimeError("lstm_cell expects two hidden states")
        h, c = self._step("LSTMCell", lstm_step, input, None if hx is None else tuple(hx))
        return h, c


class GRUCell(RNNCellBase):
    """One GRU step: returns h'."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device: Any = None, dtype: Any = None) -> None:
        super().__init__(input_size, hidden_size, bias, 3, device, dtype)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:  # noqa: A002
        return self._step("GRUCell", gru_step, input, None if hx is None else (hx,))[0]
