"""One workload per view op: the cost of a single call on a small tensor.

A view copies nothing, so its whole cost is overhead: argument parsing, the new layout, the
autograd bookkeeping and the new Tensor object. These are what units 01 and 02 use on every
line; the issue's target is at most 2x torch's time per call. The NumPy spelling is the same
view of an ndarray, for scale (NumPy keeps no autograd record).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .inputs import random_inputs
from .registry import Target, workload

PER_CALL = Target(torch=2.0)
SHAPE = (4, 8, 16)


@workload("view", "x.view(32, 16) of a (4, 8, 16)", PER_CALL)
def view(implementation: str) -> Callable[[], Any]:
    (x,) = random_inputs(implementation, SHAPE)
    if implementation == "numpy":
        return lambda: x.reshape(32, 16)
    return lambda: x.view(32, 16)


@workload("reshape", "x.reshape(32, 16) of a (4, 8, 16) (a view)", PER_CALL)
def reshape(implementation: str) -> Callable[[], Any]:
    (x,) = random_inputs(implementation, SHAPE)
    return lambda: x.reshape(32, 16)


@workload("permute", "x.permute(2, 0, 1)", PER_CALL)
def permute(implementation: str) -> Callable[[], Any]:
    (x,) = random_inputs(implementation, SHAPE)
    if implementation == "numpy":
        return lambda: x.transpose(2, 0, 1)
    return lambda: x.permute(2, 0, 1)


@workload("t", "m.t() of an (8, 16)", PER_CALL)
def transpose_2d(implementation: str) -> Callable[[], Any]:
    (m,) = random_inputs(implementation, (8, 16))
    if implementation == "numpy":
        return lambda: m.T
    return lambda: m.t()


@workload("expand", "v.expand(8, 16) of a (1, 16)", PER_CALL)
def expand(implementation: str) -> Callable[[], Any]:
    (v,) = random_inputs(implementation, (1, 16))
    if implementation == "numpy":
        return lambda: np.broadcast_to(v, (8, 16))
    return lambda: v.expand(8, 16)


@workload("select", "x.select(0, 1)", PER_CALL)
def select(implementation: str) -> Callable[[], Any]:
    (x,) = random_inputs(implementation, SHAPE)
    if implementation == "numpy":
        return lambda: x[1]
    return lambda: x.select(0, 1)


@workload("slicing", "x[1:3, ::2]", PER_CALL)
def slicing(implementation: str) -> Callable[[], Any]:
    (x,) = random_inputs(implementation, SHAPE)
    return lambda: x[1:3, ::2]
