"""A DataLoader batch of a TensorDataset fetched with one gather per tensor.

The plain loader indexes the dataset once per sample (``t[i]``, a view each) and stacks the
views: 64 Python-level indexings per batch. When the dataset is a ``TensorDataset`` (possibly
inside ``Subset``s, as ``random_split`` makes) and the collate is the default one, the batch is
exactly ``t[indices]`` for each tensor: the same values, shape and dtype, in one NumPy gather.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .._tensor import Tensor


def tensor_dataset_batch(dataset: Any, collate_fn: Callable[[list], Any], indices: list[int]) -> list[Tensor] | None:
    """The collated batch, or None when this shortcut does not apply (the plain path runs)."""
    from ..utils.data.collate import default_collate
    from ..utils.data.dataset import Subset, TensorDataset

    if collate_fn is not default_collate:
        return None
    while type(dataset) is Subset:
        indices = [dataset.indices[i] for i in indices]
        dataset = dataset.dataset
    if type(dataset) is not TensorDataset or any(t.requires_grad for t in dataset.tensors):
        return None  # a tensor that requires grad gets stack's history on the plain path
    rows = np.asarray(indices, dtype=np.int64)
    return [Tensor._from_array(t._data[rows], t.dtype) for t in dataset.tensors]
