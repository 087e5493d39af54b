"""tensorlab.utils.data: datasets, samplers, the default collate and the DataLoader, as in torch.

A dataset says what sample i is; a sampler says which i's an epoch visits; the DataLoader fetches
a batch of samples and collates them. Read ``dataset.py``, ``sampler.py``, ``collate.py`` and
``dataloader.py`` in that order.
"""

from __future__ import annotations

from .collate import default_collate, default_convert
from .dataloader import DataLoader, get_worker_info
from .dataset import ConcatDataset, Dataset, IterableDataset, Subset, TensorDataset, random_split
from .sampler import (
    BatchSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)

__all__ = [
    "BatchSampler", "ConcatDataset", "DataLoader", "Dataset", "IterableDataset", "RandomSampler", "Sampler",
    "SequentialSampler", "Subset", "SubsetRandomSampler", "TensorDataset", "WeightedRandomSampler", "default_collate",
    "default_convert", "get_worker_info", "random_split",
]
