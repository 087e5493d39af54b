"""Recurrent workload: one training step of a small LSTM (nn.LSTM + a linear head, SGD).

torch and tensorlab run the same code (``import tensorlab as torch``), from the same weights;
there is no NumPy column (backpropagation through time written out by hand is not the point).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import numpy as np

from .registry import Target, workload

BATCH, SEQ, FEATURES, HIDDEN, CLASSES = 32, 35, 128, 128, 10
LR = 0.1


def _lstm_arrays() -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
    """Inputs, labels and every parameter, drawn once so both libraries start equal."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((SEQ, BATCH, FEATURES), dtype=np.float32)
    y = rng.integers(0, CLASSES, BATCH)
    bound = 1 / np.sqrt(HIDDEN)
    shapes = {
        "lstm.weight_ih_l0": (4 * HIDDEN, FEATURES), "lstm.weight_hh_l0": (4 * HIDDEN, HIDDEN),
        "lstm.bias_ih_l0": (4 * HIDDEN,), "lstm.bias_hh_l0": (4 * HIDDEN,),
        "head.weight": (CLASSES, HIDDEN), "head.bias": (CLASSES,),
    }
    weights = {name: rng.uniform(-bound, bound, shape).astype(np.float32) for name, shape in shapes.items()}
    return x, y, weights


@workload("lstm", "LSTM train step (batch 32, seq 35, hidden 128)", Target(torch=2.0))
def lstm_train_step(implementation: str) -> Callable[[], Any] | None:
    if implementation == "numpy":
        return None
    lib = importlib.import_module(implementation)
    nn = lib.nn
    x, y, weights = _lstm_arrays()

    class Model(nn.Module):  # type: ignore[name-defined]
        def __init__(self) -> None:
            super().__init__()
            self.lstm = nn.LSTM(FEATURES, HIDDEN)
            self.head = nn.Linear(HIDDEN, CLASSES)

        def forward(self, inputs: Any) -> Any:
            output, _ = self.lstm(inputs)
            return self.head(output[-1])

    model = Model()
    model.load_state_dict({name: lib.tensor(value) for name, value in weights.items()})
    optimizer = lib.optim.SGD(model.parameters(), lr=LR)
    xt, yt = lib.from_numpy(x), lib.from_numpy(y)

    def step() -> Any:
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(xt), yt)
        loss.backward()
        optimizer.step()
        return loss.detach()

    return step
