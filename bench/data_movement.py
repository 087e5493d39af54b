"""Workloads of the data-movement unit: conv1d, conv2d, gather/scatter_add, einsum.

NumPy columns are hand-written equivalents: conv1d and conv2d as a sliding-window view + one tensordot
(and its backward written out), gather as fancy indexing, scatter_add as bincount.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from .registry import Target, workload

N, C_IN, C_OUT, LENGTH, KERNEL = 32, 16, 32, 1024, 5
ELEMENTS = 1_000_000


def _conv_arrays() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((N, C_IN, LENGTH), dtype=np.float32)
    w = rng.standard_normal((C_OUT, C_IN, KERNEL), dtype=np.float32) * 0.1
    b = rng.standard_normal(C_OUT, dtype=np.float32)
    return x, w.astype(np.float32), b


def _numpy_conv1d_step(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, ...]:
    """Forward, then backward of out.sum(): windows (N, C, L_out, K) contracted with w."""
    windows = sliding_window_view(x, KERNEL, axis=2)
    out = np.tensordot(windows, w, axes=([1, 3], [1, 2])).transpose(0, 2, 1) + b[:, None]
    grad_out = np.ones_like(out)
    grad_w = np.tensordot(grad_out, windows, axes=([0, 2], [0, 2]))
    grad_b = grad_out.sum(axis=(0, 2))
    grad_x = np.zeros_like(x)
    length_out = out.shape[2]
    contribution = np.tensordot(w, grad_out, axes=([0], [1]))  # (C, K, N, L_out)
    for k in range(KERNEL):
        grad_x[:, :, k : k + length_out] += contribution[:, k].transpose(1, 0, 2)
    return out, grad_x, grad_w, grad_b


@workload("conv1d", "conv1d forward+backward (N=32, C 16->32, L=1024, k=5)", Target(torch=1.5))
def conv1d_step(implementation: str) -> Callable[[], Any]:
    x, w, b = _conv_arrays()
    if implementation == "numpy":
        return lambda: _numpy_conv1d_step(x, w, b)
    lib = importlib.import_module(implementation)
    xt, wt, bt = (lib.tensor(a, requires_grad=True) for a in (x, w, b))

    def step() -> Any:
        for t in (xt, wt, bt):
            t.grad = None
        out = lib.nn.functional.conv1d(xt, wt, bt)
        out.sum().backward()
        return out, xt.grad, wt.grad, bt.grad

    return step


IMAGES, C2_IN, C2_OUT, SIDE, KERNEL_2D = 16, 3, 16, 32, 3


def _conv2d_arrays() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((IMAGES, C2_IN, SIDE, SIDE), dtype=np.float32)
    w = rng.standard_normal((C2_OUT, C2_IN, KERNEL_2D, KERNEL_2D), dtype=np.float32) * 0.1
    b = rng.standard_normal(C2_OUT, dtype=np.float32)
    return x, w, b


def _numpy_conv2d_step(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, ...]:
    """Forward, then backward of out.sum(): windows (N, C, H_out, W_out, kH, kW) contracted with w."""
    windows = sliding_window_view(x, (KERNEL_2D, KERNEL_2D), axis=(2, 3))
    out = np.tensordot(windows, w, axes=([1, 4, 5], [1, 2, 3])).transpose(0, 3, 1, 2) + b[:, None, None]
    grad_out = np.ones_like(out)
    grad_w = np.tensordot(grad_out, windows, axes=([0, 2, 3], [0, 2, 3]))
    grad_b = grad_out.sum(axis=(0, 2, 3))
    grad_x = np.zeros_like(x)
    height, width = out.shape[2:]
    contribution = np.tensordot(w, grad_out, axes=([0], [1]))  # (C, kH, kW, N, H_out, W_out)
    for i in range(KERNEL_2D):
        for j in range(KERNEL_2D):
            grad_x[:, :, i : i + height, j : j + width] += contribution[:, i, j].transpose(1, 0, 2, 3)
    return out, grad_x, grad_w, grad_b


@workload("conv2d", "conv2d forward+backward (N=16, C 3->16, 32x32, k=3)", Target(torch=2.0))
def conv2d_step(implementation: str) -> Callable[[], Any]:
    x, w, b = _conv2d_arrays()
    if implementation == "numpy":
        return lambda: _numpy_conv2d_step(x, w, b)
    lib = importlib.import_module(implementation)
    xt, wt, bt = (lib.tensor(a, requires_grad=True) for a in (x, w, b))

    def step() -> Any:
        for t in (xt, wt, bt):
            t.grad = None
        out = lib.nn.functional.conv2d(xt, wt, bt)
        out.sum().backward()
        return out, xt.grad, wt.grad, bt.grad

    return step


def _index_arrays() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    return rng.standard_normal(ELEMENTS, dtype=np.float32), rng.integers(0, ELEMENTS, ELEMENTS)


@workload("gather_scatter", "gather + scatter_add on 1M elements")
def gather_scatter(implementation: str) -> Callable[[], Any]:
    values, index = _index_arrays()
    if implementation == "numpy":
        return lambda: (values[index], np.bincount(index, weights=values, minlength=ELEMENTS).astype(np.float32))
    lib = importlib.import_module(implementation)
    v, i = lib.from_numpy(values), lib.from_numpy(index)
    zeros = lib.zeros(ELEMENTS)
    return lambda: (v.gather(0, i), zeros.scatter_add(0, i, v))


@workload("einsum", "einsum bilinear bn,anm,bm->ba")
def einsum_bilinear(implementation: str) -> Callable[[], Any]:
    rng = np.random.default_rng(0)
    left = rng.standard_normal((128, 64), dtype=np.float32)
    weight = rng.standard_normal((32, 64, 64), dtype=np.float32)
    right = rng.standard_normal((128, 64), dtype=np.float32)
    if implementation == "numpy":
        return lambda: np.einsum("bn,anm,bm->ba", left, weight, right, optimize=True)
    lib = importlib.import_module(implementation)
    a, w, c = (lib.from_numpy(t) for t in (left, weight, right))
    return lambda: lib.einsum("bn,anm,bm->ba", a, w, c)
