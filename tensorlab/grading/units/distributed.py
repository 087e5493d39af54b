"""Unit 16, distributed: the ring collectives on a simulator, and DDP's gradient buckets.

The learner writes what ``tensorlab.distributed`` does: ring reduce-scatter, ring all-gather,
all-reduce as the two in a row (each returning the results *and* every message it sent), and
DDP's bucket assignment. Messages are graded exactly, so a schedule that sends whole buffers,
goes the wrong way round the ring or takes a step too many loses the points even when its sums
are right. Values are small integers stored as float64, so every order of adding is exact.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..tasks import Clause, Task, task

__all__ = ["BUCKETS", "RING_ALL_GATHER", "RING_ALL_REDUCE", "RING_REDUCE_SCATTER"]

Messages = list[tuple[int, int, int, int, int]]


def _simulator() -> Any:
    from tensorlab.distributed import simulator

    return simulator


def _plain(trace: Any) -> Messages:
    return [(m.step, m.source, m.target, m.chunk, m.nbytes) for m in trace.messages]


def _check_buffers(buffers: list[np.ndarray]) -> None:
    lengths = {len(buffer) for buffer in buffers}
    if len(lengths) != 1:
        raise ValueError(f"every rank must hold a buffer of the same length, got lengths {sorted(lengths)}")


def reduce_scatter_reference(buffers: list[np.ndarray]) -> tuple[list[np.ndarray], Messages]:
    _check_buffers(buffers)
    chunks, trace = _simulator().ring_reduce_scatter(buffers)
    return [np.array(chunk) for chunk in chunks], _plain(trace)


def all_gather_reference(chunks: list[np.ndarray]) -> tuple[list[np.ndarray], Messages]:
    _check_buffers(chunks)
    buffers, trace = _simulator().all_gather(chunks)
    return buffers, _plain(trace)


def all_reduce_reference(buffers: list[np.ndarray]) -> tuple[list[np.ndarray], Messages]:
    _check_buffers(buffers)
    results, trace = _simulator().ring_all_reduce(buffers)
    return results, _plain(trace)


def buckets_reference(ready_sizes: list[int], cap: int) -> list[list[int]]:
    from tensorlab.distributed.buckets import assign_buckets

    return assign_buckets(ready_sizes, cap)


def rank_buffers(rng: np.random.Generator, world_size: int, length: int) -> list[np.ndarray]:
    """One float64 buffer of small integers per rank; one rank in four holds a non-contiguous view."""
    buffers = []
    for _ in range(world_size):
        if rng.random() < 0.25:
            buffers.append(rng.integers(-9, 10, size=2 * length).astype(np.float64)[::2])
        else:
            buffers.append(rng.integers(-9, 10, size=length).astype(np.float64))
    return buffers


def ring_case(rng: np.random.Generator) -> tuple[list[np.ndarray]]:
    """N from 1 to 6 ranks, buffers of N·k elements (k = 0 one time in ten)."""
    world_size = int(rng.integers(1, 7))
    per_chunk = 0 if rng.random() < 0.1 else int(rng.integers(1, 4))
    return (rank_buffers(rng, world_size, world_size * per_chunk),)


def buckets_case(rng: np.random.Generator) -> tuple[list[int], int]:
    """Up to 12 gradients of 4 to 400 bytes (float32 counts), a cap they sometimes exceed alone (or 0)."""
    count = int(rng.integers(0, 13))
    sizes = [4 * int(size) for size in rng.integers(1, 101, size=count)]
    cap = 0 if rng.random() < 0.05 else 4 * int(rng.integers(10, 151))
    return sizes, cap


def floats(*rows: list[int]) -> list[np.ndarray]:
    return [np.array(row, dtype=np.float64) for row in rows]


RING_REDUCE_SCATTER = task(Task(
    name="ring_reduce_scatter",
    reference=reduce_scatter_reference,
    examples=[(floats([1, 2, 3], [10, 20, 30], [100, 200, 300]),)],
    clauses=[
        Clause("one rank: no messages, its own buffer is the sum", (floats([4, 5]),)),
        Clause("empty chunks still travel: a message of 0 bytes", (floats([], []),)),
        Clause("buffers of different lengths raise ValueError", (floats([1, 2], [1, 2, 3, 4]),)),
        Clause("rank r ends with chunk r, which it receives last, at step N-2",
               (floats([1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]),)),
    ],
    random_case=ring_case,
    hint="at step s rank r sends chunk (r - s - 1) mod N to rank (r + 1) mod N, which adds it to its own copy; "
         "every rank sends at once, so take all the chunks to send before adding any",
))

RING_ALL_GATHER = task(Task(
    name="ring_all_gather",
    reference=all_gather_reference,
    examples=[(floats([1, 2], [3, 4], [5, 6]),)],
    clauses=[
        Clause("one rank: no messages, its own chunk is the whole buffer", (floats([7, 8, 9]),)),
        Clause("chunks are put in rank order, whichever rank sent them", (floats([1], [2], [3], [4], [5]),)),
    ],
    random_case=lambda rng: (rank_buffers(rng, int(rng.integers(1, 7)), int(rng.integers(0, 4))),),
    hint="at step s rank r forwards chunk (r - s) mod N (its own at step 0, then the one it just received) to rank r + 1",
))

RING_ALL_REDUCE = task(Task(
    name="ring_all_reduce",
    reference=all_reduce_reference,
    examples=[(floats([1, 2, 3], [10, 20, 30], [100, 200, 300]),)],
    clauses=[
        Clause("the all-gather's steps are numbered after the reduce-scatter's: 2(N-1) steps in all",
               (floats([1, 2], [3, 4]),)),
        Clause("one rank: no messages", (floats([1, 2, 3]),)),
    ],
    random_case=ring_case,
    hint="reduce-scatter, then all-gather the chunks each rank owns; add N - 1 to the all-gather's step numbers",
))

BUCKETS = task(Task(
    name="bucket_gradients",
    reference=buckets_reference,
    examples=[([400, 400, 400, 400], 1000), ([100, 2000, 100, 100], 1000)],
    clauses=[
        Clause("a bucket is closed as soon as it holds at least cap bytes: exactly cap closes it", ([600, 400, 100], 1000)),
        Clause("a bucket may pass the cap by its last gradient", ([400, 400, 400, 400], 1000)),
        Clause("a gradient larger than the cap fills a bucket alone, even the first", ([3000, 10, 10], 1000)),
        Clause("no gradients, no buckets", ([], 1000)),
        Clause("a cap of 0 puts every gradient in a bucket of its own", ([4, 4, 4], 0)),
    ],
    random_case=buckets_case,
    hint="walk the sizes in order: add the gradient to the open bucket, then close the bucket if it holds at least "
         "cap bytes; a last, unfinished bucket is still a bucket",
))
