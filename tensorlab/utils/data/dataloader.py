"""``DataLoader``: iterate over a dataset in batches, in order or shuffled.

One epoch is: the batch sampler yields a list of indices; the loader fetches those samples from
the dataset and ``collate_fn`` stacks them into a batch. Everything runs in the calling process:
tensorlab has no worker processes, so ``num_workers`` must be 0 (the numbers are the same;
workers only overlap loading with training).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ... import _fast as fast
from ... import _random
from ..._fast import batched_fetch
from .collate import default_collate, default_convert
from .dataset import IterableDataset
from .sampler import BatchSampler, RandomSampler, SequentialSampler

_FIXED_AFTER_INIT = ("batch_size", "batch_sampler", "sampler", "drop_last", "dataset")


def get_worker_info() -> None:
    """Which worker process runs this code: always None here, as in torch's main process
    (tensorlab has no workers; a dataset that shards its work by worker sees one whole process)."""
    return None


class DataLoader:
    """Batches of ``dataset``: ``for x, y in DataLoader(TensorDataset(X, Y), batch_size=64, shuffle=True)``.

    ``shuffle=True`` draws a new permutation each epoch from the global stream (repeatable after
    ``tensorlab.manual_seed``) or from ``generator``. ``sampler`` chooses the index order yourself;
    ``batch_sampler`` chooses whole batches (and excludes batch_size, shuffle, sampler, drop_last).
    ``batch_size=None`` turns batching off: each sample comes through ``default_convert`` alone.
    """

    def __init__(
        self,
        dataset: Any,
        batch_size: int | None = 1,
        shuffle: bool | None = None,
        sampler: Iterable | None = None,
        batch_sampler: Iterable[list] | None = None,
        num_workers: int = 0,
        collate_fn: Callable[[list], Any] | None = None,
        pin_memory: bool = False,
        drop_last: bool = False,
        timeout: float = 0,
        worker_init_fn: Callable[[int], None] | None = None,
        multiprocessing_context: Any = None,
        generator: Any = None,
        *,
        prefetch_factor: int | None = None,
        persistent_workers: bool = False,
        pin_memory_device: str = "",
        in_order: bool = True,
    ) -> None:
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable multiprocessing.")
        if num_workers > 0:
            raise NotImplementedError(
                f"tensorlab's DataLoader loads in the calling process only: use num_workers=0 (got "
                f"num_workers={num_workers}). Worker processes change how fast batches arrive, not what they hold."
            )
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if prefetch_factor is not None:
            raise ValueError(
                "prefetch_factor option could only be specified in multiprocessing.let num_workers > 0 to enable "
                "multiprocessing, otherwise set prefetch_factor to None."
            )
        if persistent_workers:
            raise ValueError("persistent_workers option needs num_workers > 0")
        self._iterable = isinstance(dataset, IterableDataset)
        if self._iterable:
            if shuffle not in (False, None):
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified shuffle option, but got shuffle={shuffle}")
            if sampler is not None:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified sampler option, but got sampler={sampler}")
            if batch_sampler is not None:
                raise ValueError(
                    "DataLoader with IterableDataset: expected unspecified batch_sampler option, but got "
                    f"batch_sampler={batch_sampler}"
                )
        shuffle = bool(shuffle)
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and drop_last")
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive with drop_last")
        if sampler is None and not self._iterable:
            sampler = RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None and not self._iterable:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)  # type: ignore[arg-type]
        self.dataset = dataset
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.num_workers = num_workers
        self.pin_memory = pin_memory
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.generator = generator
        self.prefetch_factor = prefetch_factor
        self.persistent_workers = persistent_workers
        self._auto_collation = batch_sampler is not None or (self._iterable and batch_size is not None)
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn
        self._initialized = True

    def __setattr__(self, name: str, value: Any) -> None:
        if getattr(self, "_initialized", False) and name in _FIXED_AFTER_INIT:
            raise ValueError(f"{name} attribute should not be set after {type(self).__name__} is initialized")
        super().__setattr__(name, value)

    def __iter__(self) -> Iterator[Any]:
        # torch draws its workers' base seed at every new iterator, even with no workers; the draw
        # moves the stream, so it is drawn here too (before a RandomSampler draws its own seed)
        self._base_seed = _random.empty_int64_random(self.generator)
        if self._iterable:
            return self._iterate_stream()
        if self.batch_sampler is not None:
            return (self._batch(indices) for indices in self.batch_sampler)
        return (self.collate_fn(self.dataset[index]) for index in self.sampler)  # type: ignore[union-attr]

    def _batch(self, indices: list) -> Any:
        """Fetch the samples at ``indices`` and collate them."""
        if fast.switch.enabled:
            batch = batched_fetch.tensor_dataset_batch(self.dataset, self.collate_fn, indices)
            if batch is not None:
                return batch
        return self.collate_fn(self._fetch(indices))

    def _fetch(self, indices: list) -> list:
        """The samples at ``indices``: in one call when the dataset offers ``__getitems__``."""
        getitems = getattr(self.dataset, "__getitems__", None)
        if callable(getitems):
            return getitems(indices)
        return [self.dataset[i] for i in indices]

    def _iterate_stream(self) -> Iterator[Any]:
        """An IterableDataset: take samples in the order it yields them, batch_size at a time."""
        stream = iter(self.dataset)
        if self.batch_size is None:
            yield from (self.collate_fn(sample) for sample in stream)
            return
        while True:
            batch = [sample for _, sample in zip(range(self.batch_size), stream, strict=False)]
            if not batch or (self.drop_last and len(batch) < self.batch_size):
                return
            yield self.collate_fn(batch)

    def __len__(self) -> int:
        if self._iterable:
            length = len(self.dataset)
            if self.batch_size is None:
                return length
            if self.drop_last:
                return length // self.batch_size
            return -(-length // self.batch_size)
        if self.batch_sampler is not None:
            return len(self.batch_sampler)  # type: ignore[arg-type]
        return len(self.sampler)  # type: ignore[arg-type]


__all__ = ["DataLoader", "get_worker_info"]
