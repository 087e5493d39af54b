"""Samplers: which sample indices an epoch visits, and how they are grouped into batches.

``SequentialSampler`` yields 0, 1, ..., n-1; ``RandomSampler`` a fresh permutation each epoch
(drawn from the global stream, so ``tensorlab.manual_seed`` makes it repeat, or from the
``generator`` given); ``BatchSampler`` cuts any index stream into lists of ``batch_size``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from ..._random import _stream


class Sampler:
    """An iterable of indices (or of index lists, for a batch sampler)."""

    def __init__(self, data_source: Any = None) -> None:
        pass

    def __iter__(self) -> Iterator[Any]:
        raise NotImplementedError


class SequentialSampler(Sampler):
    def __init__(self, data_source: Any) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler):
    """A permutation per epoch (``replacement=False``) or ``num_samples`` independent draws."""

    def __init__(self, data_source: Any, replacement: bool = False, num_samples: int | None = None, generator: Any = None) -> None:
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(replacement, bool):
            raise TypeError(f"replacement should be a boolean value, but got replacement={replacement}")
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got num_samples={self.num_samples}")

    @property
    def num_samples(self) -> int:
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self) -> Iterator[int]:
        n = len(self.data_source)
        stream = _stream(self.generator)
        if self.replacement:
            yield from stream.integers(0, n, self.num_samples).tolist()
            return
        for _ in range(self.num_samples // n):
            yield from stream.permutation(n).tolist()
        yield from stream.permutation(n)[: self.num_samples % n].tolist()

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given indices, in a fresh random order each epoch."""

    def __init__(self, indices: Sequence[int], generator: Any = None) -> None:
        self.indices = indices
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        for position in _stream(self.generator).permutation(len(self.indices)).tolist():
            yield self.indices[position]

    def __len__(self) -> int:
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    """``num_samples`` indices drawn with probability proportional to ``weights``: rebalances
    classes (weight each sample by 1 / its class count)."""

    def __init__(self, weights: Sequence[float], num_samples: int, replacement: bool = True, generator: Any = None) -> None:
        if not isinstance(num_samples, int) or isinstance(num_samples, bool) or num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got num_samples={num_samples}")
        if not isinstance(replacement, bool):
            raise ValueError(f"replacement should be a boolean value, but got replacement={replacement}")
        weights_array = np.asarray(weights.tolist() if hasattr(weights, "tolist") else weights, dtype=np.float64)
        if weights_array.ndim != 1:
            raise ValueError(f"weights should be a 1d sequence but given weights have shape {tuple(weights_array.shape)}")
        self.weights = weights_array
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        if not self.replacement and self.num_samples > np.count_nonzero(self.weights):
            raise RuntimeError("invalid multinomial distribution (with replacement=False, not enough non-negative category to sample)")
        probabilities = self.weights / self.weights.sum()
        drawn = _stream(self.generator).choice(len(self.weights), self.num_samples, replace=self.replacement, p=probabilities)
        yield from drawn.tolist()

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler):
    """Group ``sampler``'s indices into lists of ``batch_size``; ``drop_last`` drops a short tail."""

    def __init__(self, sampler: Iterable[int], batch_size: int, drop_last: bool) -> None:
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError(f"batch_size should be a positive integer value, but got batch_size={batch_size}")
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self) -> Iterator[list[int]]:
        indices = iter(self.sampler)
        batch = list(itertools.islice(indices, self.batch_size))
        while batch and (len(batch) == self.batch_size or not self.drop_last):
            yield batch
            batch = list(itertools.islice(indices, self.batch_size))

    def __len__(self) -> int:
        size = len(self.sampler)  # type: ignore[arg-type]
        if self.drop_last:
            return size // self.batch_size
        return (size + self.batch_size - 1) // self.batch_size


__all__ = ["BatchSampler", "RandomSampler", "Sampler", "SequentialSampler", "SubsetRandomSampler", "WeightedRandomSampler"]
