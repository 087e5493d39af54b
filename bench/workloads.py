"""Tensor-op workloads: per-op overhead, elementwise, reductions, views, matmul.

Each function builds one implementation of its workload (see ``registry``). torch and
tensorlab share one spelling — ``import tensorlab as torch`` is the point — and NumPy gets
the equivalent NumPy spelling, computing the same values (the bench checks that it does).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .inputs import random_inputs
from .registry import Target, workload

# The target for ops that stream a million elements: near torch, near NumPy (which
# tensorlab calls underneath), on the first call in a new process as well as in a warm loop.
STREAMING_TARGET = Target(torch=1.2, numpy=1.5, fresh=True)


@workload("add", "8x8 add (per-op overhead)", Target(torch=2.0))
def add_8x8(implementation: str) -> Callable[[], Any]:
    a, b = random_inputs(implementation, (8, 8), (8, 8))
    return lambda: a + b


@workload("elementwise", "1M-element elementwise chain", STREAMING_TARGET)
def elementwise_chain(implementation: str) -> Callable[[], Any]:
    x, y = random_inputs(implementation, (1_000_000,), (1_000_000,))
    if implementation == "numpy":
        return lambda: (np.exp(x * 2 + 1) * y).sum()
    return lambda: ((x * 2 + 1).exp() * y).sum()


@workload("reductions", "reductions over 1000x1000", STREAMING_TARGET)
def reductions(implementation: str) -> Callable[[], Any]:
    (x,) = random_inputs(implementation, (1000, 1000))
    if implementation == "numpy":  # torch's max(dim) returns values and indices
        return lambda: (x.sum(axis=0), x.mean(axis=1), x.max(axis=1), x.argmax(axis=1))
    return lambda: (x.sum(dim=0), x.mean(dim=1), x.max(dim=1))


@workload("views", "a view chain ending in contiguous()", STREAMING_TARGET)
def view_chain(implementation: str) -> Callable[[], Any]:
    (x,) = random_inputs(implementation, (64 * 128 * 128,))
    if implementation == "numpy":
        return lambda: np.ascontiguousarray(x.reshape(64, 128, 128).transpose(2, 0, 1).swapaxes(1, 2)[::2])
    return lambda: x.view(64, 128, 128).permute(2, 0, 1).transpose(1, 2)[::2].contiguous()


@workload("matmul", "512x512 matmul", Target(torch=1.05))
def matmul_512(implementation: str) -> Callable[[], Any]:
    a, b = random_inputs(implementation, (512, 512), (512, 512))
    return lambda: a @ b


def _chain(x: Any) -> Any:
    return ((x * 0.5 + 1).sin() * 2 - 0.25).abs() / 3


@workload("fx_fused_chain", "1M-element 7-op chain, tensorlab.fx fused (torch, numpy: eager)")
def fx_fused_chain(implementation: str) -> Callable[[], Any]:
    """Unit 14: tensorlab's column runs the chain as one generated NumPy kernel writing one out= buffer."""
    (x,) = random_inputs(implementation, (1_000_000,))
    if implementation == "tensorlab":
        from tensorlab.fx import fuse_elementwise, trace

        fused = fuse_elementwise(trace(_chain))
        return lambda: fused(x)
    if implementation == "numpy":
        return lambda: np.abs(np.sin(x * 0.5 + 1) * 2 - 0.25) / 3
    return lambda: _chain(x)
