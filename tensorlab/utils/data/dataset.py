"""Datasets: anything with ``__getitem__`` and ``__len__`` (map-style) or ``__iter__`` (iterable).

A dataset answers "what is sample i?"; the DataLoader decides which i's, in which order, and how
samples are stacked into a batch. ``TensorDataset`` is the dataset made of tensors that share
their first dim; ``Subset`` and ``random_split`` pick samples by index without copying data.
"""

from __future__ import annotations

import bisect
import math
import warnings
from collections.abc import Iterator, Sequence
from typing import Any

from ..._random import randperm
from ..._tensor import Tensor


class Dataset:
    """Map-style dataset: subclasses define ``__getitem__(index)`` and usually ``__len__``."""

    def __getitem__(self, index: Any) -> Any:
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other: Dataset) -> ConcatDataset:
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    """Stream-style dataset: subclasses define ``__iter__``; there is no index and no shuffling."""

    def __iter__(self) -> Iterator[Any]:
        raise NotImplementedError("Subclasses of IterableDataset should implement __iter__.")


class TensorDataset(Dataset):
    """Sample i is ``tuple(t[i] for t in tensors)``: features and labels indexed together."""

    def __init__(self, *tensors: Tensor) -> None:
        if not all(tensors[0].size(0) == tensor.size(0) for tensor in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index: Any) -> tuple:
        return tuple(tensor[index] for tensor in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].size(0)


class Subset(Dataset):
    """The samples of ``dataset`` at ``indices``, in that order; nothing is copied."""

    def __init__(self, dataset: Any, indices: Sequence[int]) -> None:
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, list):
            return self.dataset[[self.indices[i] for i in index]]
        return self.dataset[self.indices[index]]

    def __getitems__(self, indices: list[int]) -> list:
        """A batch at once, when the wrapped dataset can fetch one (as torch's Subset does)."""
        if callable(getattr(self.dataset, "__getitems__", None)):
            return self.dataset.__getitems__([self.indices[i] for i in indices])
        return [self.dataset[self.indices[i]] for i in indices]

    def __len__(self) -> int:
        return len(self.indices)


class ConcatDataset(Dataset):
    """Several datasets one after another: index i is found by a binary search over their ends."""

    def __init__(self, datasets: Sequence[Any]) -> None:
        self.datasets = list(datasets)
        if not self.datasets:
            raise AssertionError("datasets should not be an empty iterable")
        for dataset in self.datasets:
            if isinstance(dataset, IterableDataset):
                raise AssertionError("ConcatDataset does not support IterableDataset")
        self.cumulative_sizes = list(_running_total(len(d) for d in self.datasets))

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, index: int) -> Any:
        if index < 0:
            if -index > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            index += len(self)
        which = bisect.bisect_right(self.cumulative_sizes, index)
        start = self.cumulative_sizes[which - 1] if which > 0 else 0
        return self.datasets[which][index - start]


def _running_total(sizes: Any) -> Iterator[int]:
    total = 0
    for size in sizes:
        total += size
        yield total


def _lengths_from_fractions(fractions: Sequence[float], total: int) -> list[int]:
    """floor(fraction * total) each, then the remainder handed out one by one from the first split."""
    lengths = []
    for i, fraction in enumerate(fractions):
        if fraction < 0 or fraction > 1:
            raise ValueError(f"Fraction at index {i} is not between 0 and 1")
        lengths.append(math.floor(total * fraction))
    for i in range(total - sum(lengths)):
        lengths[i % len(lengths)] += 1
    for i, length in enumerate(lengths):
        if length == 0:
            warnings.warn(f"Length of split at index {i} is 0. This might result in an empty dataset.", stacklevel=3)
    return lengths


def random_split(dataset: Any, lengths: Sequence[float], generator: Any = None) -> list[Subset]:
    """Shuffle the indices once, then cut them into consecutive pieces of ``lengths``.

    ``lengths`` are sample counts, or fractions summing to 1. Pass ``generator=`` (a seeded
    ``tensorlab.Generator``) for a split that stays put whatever else draws random numbers.
    """
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        lengths = _lengths_from_fractions(lengths, len(dataset))
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    indices = randperm(int(sum(lengths)), generator=generator).tolist()
    splits = []
    start = 0
    for length in lengths:
        splits.append(Subset(dataset, indices[start : start + int(length)]))
        start += int(length)
    return splits


__all__ = ["ConcatDataset", "Dataset", "IterableDataset", "Subset", "TensorDataset", "random_split"]
