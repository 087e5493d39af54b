"""Autograd workloads: an MLP train step and a very deep chain of tiny ops.

torch and tensorlab run the same code (``import tensorlab as torch``); the NumPy column is the
same computation with the backward pass written out by hand — what autograd saves you writing.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import numpy as np

from .registry import Target, workload

BATCH, IN, HIDDEN, OUT = 256, 784, 256, 10
LR = 0.01
CHAIN = 10_000


def _mlp_arrays() -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((BATCH, IN), dtype=np.float32)
    y = rng.integers(0, OUT, BATCH)
    w1 = (rng.standard_normal((HIDDEN, IN), dtype=np.float32) * 0.03).astype(np.float32)
    w2 = (rng.standard_normal((OUT, HIDDEN), dtype=np.float32) * 0.06).astype(np.float32)
    return x, y, w1, np.zeros(HIDDEN, np.float32), w2, np.zeros(OUT, np.float32)


def _numpy_mlp_step(x: np.ndarray, y: np.ndarray, params: list[np.ndarray]) -> np.float32:
    w1, b1, w2, b2 = params
    z1 = x @ w1.T + b1
    h = np.maximum(z1, 0)
    logits = h @ w2.T + b2
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    rows = np.arange(len(y))
    loss = -log_probs[rows, y].mean()
    d_logits = np.exp(log_probs)
    d_logits[rows, y] -= 1
    d_logits /= len(y)
    d_h = d_logits @ w2
    d_z1 = d_h * (z1 > 0)
    grads = (d_z1.T @ x, d_z1.sum(axis=0), d_logits.T @ h, d_logits.sum(axis=0))
    for p, g in zip(params, grads, strict=True):
        p -= LR * g
    return loss


@workload("mlp", "MLP train step (784-256-10, batch 256)", Target(torch=1.0))
def mlp_train_step(implementation: str) -> Callable[[], Any]:
    x, y, *weights = _mlp_arrays()
    if implementation == "numpy":
        params = [w.copy() for w in weights]
        return lambda: _numpy_mlp_step(x, y, params)
    lib = importlib.import_module(implementation)
    functional = lib.nn.functional
    xt, yt = lib.from_numpy(x), lib.from_numpy(y)
    params = [lib.tensor(w, requires_grad=True) for w in weights]

    def step() -> Any:
        w1, b1, w2, b2 = params
        logits = functional.linear(functional.relu(functional.linear(xt, w1, b1)), w2, b2)
        loss = functional.cross_entropy(logits, yt)
        loss.backward()
        with lib.no_grad():
            for p in params:
                p -= LR * p.grad
                p.grad = None
        return loss

    return step


@workload("chain", "deep chain: 10,000 tiny ops, forward + backward", Target(torch=2.5))
def deep_chain(implementation: str) -> Callable[[], Any]:
    if implementation == "numpy":

        def numpy_chain() -> np.ndarray:
            x = np.ones(1, np.float32)
            for _ in range(CHAIN):
                x = x * np.float32(1.0001) + np.float32(0.0001)
            grad = np.ones(1, np.float32)
            for _ in range(CHAIN):
                grad = grad * np.float32(1.0001)
            return grad

        return numpy_chain
    lib = importlib.import_module(implementation)

    def chain() -> Any:
        leaf = lib.ones(1, requires_grad=True)
        x = leaf
        for _ in range(CHAIN):
            x = x * 1.0001 + 0.0001
        x.sum().backward()
        return leaf.grad

    return chain
