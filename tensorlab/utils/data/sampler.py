"""Samplers: which sample indices an epoch visits, and how they are grouped into batches.

``SequentialSampler`` yields 0, 1, ..., n-1; ``RandomSampler`` a fresh permutation each epoch;
``BatchSampler`` cuts any index stream into lists of ``batch_size``. The random samplers draw
exactly what torch's do (same calls, same order), so a seed gives torch's shuffle.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from ... import _random
from ..._generator import Generator
from ..._tensor import Tensor
from ...ops.sampling import multinomial


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
        """Without a generator, a fresh one is seeded from one 64-bit draw of the global stream at
        the first index. With replacement, indices come 32 at a time (``randint``), so a huge
        ``num_samples`` costs nothing until iterated."""
        n = len(self.data_source)
        if self.generator is None:
            generator = Generator().manual_seed(int(_random.empty_int64_random()))
        else:
            generator = self.generator
        if self.replacement:
            for _ in range(self.num_samples // 32):
                yield from _random.randint(high=n, size=(32,), generator=generator).tolist()
            yield from _random.randint(high=n, size=(self.num_samples % 32,), generator=generator).tolist()
            return
        for _ in range(self.num_samples // n):
            yield from _random.randperm(n, generator=generator).tolist()
        yield from _random.randperm(n, generator=generator).tolist()[: self.num_samples % n]

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given indices, in a fresh random order each epoch."""

    def __init__(self, indices: Sequence[int], generator: Any = None) -> None:
        self.indices = indices
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        for position in _random.randperm(len(self.indices), generator=self.generator).tolist():
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
        weights = Tensor._from_array(self.weights, _random.float64)
        yield from multinomial(weights, self.num_samples, self.replacement, generator=self.generator).tolist()

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
