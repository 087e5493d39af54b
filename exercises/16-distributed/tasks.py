"""Unit 16, distributed: the ring collectives on a simulator, DDP's gradient buckets, and a mini-DDP.

The learner writes what ``tensorlab.distributed`` does: ring reduce-scatter, ring all-gather,
all-reduce as the two in a row (each returning the results *and* every message it sent), and
DDP's bucket assignment. Messages are graded exactly, so a schedule that sends whole buffers,
goes the wrong way round the ring or takes a step too many loses the points even when its sums
are right. Values are small integers stored as float64, so every order of adding is exact.

The mini-DDP is graded in real processes: the sandbox starts 4 gloo ranks on loopback, each
builds the case's model, lets the learner's ``attach_gradient_averaging(model, group)`` hook its
parameters and runs a backward on its own shard (``harnesses/ddp.py``); every rank must end with
the mean of all the ranks' gradients.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tensorlab.grading.rules import PURE_STANDARD_LIBRARY
from tensorlab.grading.tasks import Clause, Exercise, Task

__all__ = ["EXERCISE", "BUCKETS", "GRADIENT_AVERAGING", "RING_ALL_GATHER", "RING_ALL_REDUCE", "RING_REDUCE_SCATTER"]

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


RING_REDUCE_SCATTER = Task(
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
)

RING_ALL_GATHER = Task(
    name="ring_all_gather",
    reference=all_gather_reference,
    examples=[(floats([1, 2], [3, 4], [5, 6]),)],
    clauses=[
        Clause("one rank: no messages, its own chunk is the whole buffer", (floats([7, 8, 9]),)),
        Clause("chunks are put in rank order, whichever rank sent them", (floats([1], [2], [3], [4], [5]),)),
    ],
    random_case=lambda rng: (rank_buffers(rng, int(rng.integers(1, 7)), int(rng.integers(0, 4))),),
    hint="at step s rank r forwards chunk (r - s) mod N (its own at step 0, then the one it just received) to rank r + 1",
)

RING_ALL_REDUCE = Task(
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
)

BUCKETS = Task(
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
)


# --- the mini-DDP: gradient averaging from per-parameter hooks, in real gloo processes ------
DDP_RANKS = 4  # the grader starts 4 ranks; a case's world is the sub-group of its first N
DDP_FORBIDDEN = (  # DDP itself, and every way to open a group or a connection of one's own
    "torch.nn.parallel", "torch.nn.parallel.DistributedDataParallel", "torch.distributed.init_process_group",
    "torch.distributed.new_group", "torch.distributed.new_subgroups", "torch.distributed.TCPStore",
    "torch.distributed.rpc", "torch.distributed.algorithms", "torch.distributed.fsdp",
)  # tensorlab is refused as the reference (and "distributed" alone would refuse torch.distributed)


def rank_gradients(weights: list[np.ndarray], inputs: np.ndarray, targets: np.ndarray) -> list[np.ndarray]:
    """One rank's gradients of its mean squared error, computed by tensorlab (no processes)."""
    import tensorlab

    first_weight, first_bias, second_weight, second_bias = (tensorlab.tensor(w, requires_grad=True) for w in weights)
    hidden = tensorlab.tanh(tensorlab.tensor(inputs) @ first_weight.T + first_bias)
    loss = ((hidden @ second_weight.T + second_bias - tensorlab.tensor(targets)) ** 2).mean()
    return [tensorlab.autograd.grad(loss, parameter, retain_graph=True)[0].numpy()
            for parameter in (first_weight, first_bias, second_weight, second_bias)]


def gradient_averaging_reference(world: int, weights: list[np.ndarray], inputs: list[np.ndarray],
                                 targets: list[np.ndarray]) -> list[list[np.ndarray]]:
    """What DDP leaves on every rank after backward: the mean over the ranks of their gradients."""
    per_rank = [rank_gradients(weights, inputs[rank], targets[rank]) for rank in range(world)]
    average = [np.sum([grads[k] for grads in per_rank], axis=0) / world for k in range(len(weights))]
    return [average for _ in range(world)]


def ddp_case(rng: np.random.Generator, world: int | None = None) -> tuple:
    """A world of 1 to 4 ranks (mostly 2 to 4), an MLP of a few units, 1 to 3 samples per rank."""
    world = world or int(rng.choice([1, 2, 2, 3, 3, 4, 4]))
    features, hidden, outputs, samples = (int(n) for n in rng.integers(1, 4, size=4))
    weights = [rng.normal(size=(hidden, features)), rng.normal(size=hidden),
               rng.normal(size=(outputs, hidden)), rng.normal(size=outputs)]
    inputs = [rng.normal(size=(samples, features)) for _ in range(world)]
    targets = [rng.normal(size=(samples, outputs)) for _ in range(world)]
    return world, weights, inputs, targets


def _ddp_clause(seed: int, world: int) -> tuple:
    return ddp_case(np.random.default_rng(seed), world)


GRADIENT_AVERAGING = Task(
    name="attach_gradient_averaging",
    reference=gradient_averaging_reference,
    examples=[_ddp_clause(1, 2), _ddp_clause(2, 3)],
    clauses=[
        Clause("every rank ends with the mean of the ranks' gradients, not their sum", _ddp_clause(3, 4)),
        Clause("every parameter, biases included, is averaged", _ddp_clause(4, 2)),
        Clause("the group may be a sub-group: its size, not the whole world's, divides", _ddp_clause(5, 3)),
        Clause("a group of one rank: the gradients are its own", _ddp_clause(6, 1)),
    ],
    random_case=ddp_case,
    hint="for each parameter that requires grad, p.register_hook(fn): fn(grad) gets the gradient as autograd "
         "computes it and returns the one to keep. Return a reduced copy (all_reduce works in place, and autograd's "
         "gradient is not yours to change), summed over the group and divided by the group's size",
    building_blocks=("numpy", "torch", *PURE_STANDARD_LIBRARY),
    forbidden=DDP_FORBIDDEN,
    ranks=DDP_RANKS,
    harness="tensorlab.grading.harnesses.ddp:gradient_averaging_case",
    at_least_seconds=20.0,
    at_least_memory_mb=4096,
)

EXERCISE = Exercise(notebook="distributed", tasks=(RING_REDUCE_SCATTER, RING_ALL_GATHER, RING_ALL_REDUCE, BUCKETS, GRADIENT_AVERAGING))
