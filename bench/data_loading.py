"""Data-loading workload: one shuffled DataLoader epoch over an MNIST-sized TensorDataset.

torch and tensorlab run the same code (``import tensorlab as torch``); the NumPy column is the
loop a loader saves you writing: a permutation, then one fancy-index gather per batch.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import numpy as np

from .registry import Target, workload

SAMPLES, FEATURES, BATCH = 60_000, 784, 64


def _dataset_arrays() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    return rng.standard_normal((SAMPLES, FEATURES), dtype=np.float32), rng.integers(0, 10, SAMPLES)


def _numpy_epoch(x: np.ndarray, y: np.ndarray, rng: np.random.Generator) -> int:
    order = rng.permutation(len(x))
    batches = 0
    for start in range(0, len(x), BATCH):
        rows = order[start : start + BATCH]
        x[rows], y[rows]
        batches += 1
    return batches


@workload("dataloader", "DataLoader epoch: 60,000 x 784 float32, batch 64, shuffled, num_workers=0", Target(torch=1.5))
def dataloader_epoch(implementation: str) -> Callable[[], Any]:
    x, y = _dataset_arrays()
    if implementation == "numpy":
        rng = np.random.default_rng(0)
        return lambda: _numpy_epoch(x, y, rng)
    lib = importlib.import_module(implementation)
    data = importlib.import_module(f"{implementation}.utils.data")
    loader = data.DataLoader(data.TensorDataset(lib.from_numpy(x), lib.from_numpy(y)), batch_size=BATCH, shuffle=True, num_workers=0)

    def epoch() -> int:
        batches = 0
        for _features, _labels in loader:
            batches += 1
        return batches

    return epoch
