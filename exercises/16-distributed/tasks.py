"""Unit 16, distributed: the ring collectives, run rank by rank by the grader, DDP's gradient buckets, and a mini-DDP.

The learner writes what ``tensorlab.distributed`` does, as the program of ONE rank: ring reduce-scatter,
ring all-gather, and all-reduce as the two in a row, each a function ``(rank, world_size, data, ring)`` that
returns that rank's result. The grader's harness (``harnesses/ring.py``) runs the N ranks of each case, one
at a time and step by step: ``ring.exchange(chunk_index, array)`` sends a labelled chunk to the right-hand
neighbour and returns what the left-hand one sent at the same step, and the harness records every message
it carries, ``(step, source, target, chunk_index, nbytes)``. A case's outcome is ``(each rank's result, the
recorded messages)``, and the references give the same from tensorlab's simulator. So the messages graded
are the ones actually sent, never a log the learner wrote: a schedule that sends whole buffers, numbers
its chunks the wrong way round or takes a step too many loses the points even when its sums are right,
and no rank can know another's data without it being sent. Values are small integers stored as float64,
so every order of adding is exact, except in one clause: there 1e16 + 1 rounds to 1e16, so only the ring's
order of adding (each chunk starts on rank k + 1 and every rank adds its own part to what it receives)
gives the right sums.

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
    """What every rank checks of its own buffer: it splits into N chunks of one length."""
    for buffer in buffers:
        if len(buffer) % len(buffers):
            raise ValueError(f"a buffer of {len(buffer)} elements does not split into {len(buffers)} equal chunks")
    lengths = {len(buffer) for buffer in buffers}
    if len(lengths) != 1:
        raise ValueError(f"every rank must hold a buffer of the same length, got lengths {sorted(lengths)}")


def reduce_scatter_reference(buffers: list[np.ndarray]) -> tuple[list[np.ndarray], Messages]:
    """Rank r's result is chunk r of the sum; the messages are the simulator's (the harness records the learner's)."""
    _check_buffers(buffers)
    chunks, trace = _simulator().ring_reduce_scatter(buffers)
    return [np.array(chunk) for chunk in chunks], _plain(trace)


def all_gather_reference(chunks: list[np.ndarray]) -> tuple[list[np.ndarray], Messages]:
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


BIG = 1e16  # 1e16 + 1 == 1e16 in float64: the order of adding shows in the sum
ORDER_SHOWS = floats([BIG, 1, -BIG, 1], [1, -BIG, 1, BIG], [-BIG, BIG, 1, 1], [1, 1, BIG, -BIG])
ORDER_SAYS = "each chunk is added up in the ring's order (float64 rounding shows it: 1e16 + 1 is 1e16)"


# the allow-lists: what each part may use besides rules.COMMON_NAMES (the notebook lists them too). No sums:
# a rank adds what it receives, chunk by chunk, and it can only receive through ring.exchange.
RING_INPUTS = ("1 to 6 ranks; float64 buffers of whole numbers with 0 to 3 elements per chunk, some of them "
               "non-contiguous views (every other element of a longer array); and 1e16 and -1e16 among ones, whose float64 "
               "sum depends on the order of adding.")
ARRAYS = ("exchange", "array", "asarray", "copy", "reshape", "zeros", "empty", "arange", "stack", "concatenate",
          "split", "array_split", "append", "extend", "set", "sorted", "sort", "map", "values", "keys", "items", "get")
SCATTER_ALLOWED = ARRAYS
GATHER_ALLOWED = ARRAYS
REDUCE_ALLOWED = ARRAYS  # ring_all_reduce calls the other two: what they use, it uses
RING_HARNESS = "tensorlab.grading.harnesses.ring:launch"  # runs the N ranks, delivers and records every message
BUCKETS_ALLOWED = ("append", "extend", "pop", "clear", "copy", "sum", "accumulate")
DDP_ALLOWED = (
    "distributed", "all_reduce", "get_world_size", "get_rank", "ReduceOp", "SUM", "wait", "parameters",
    "named_parameters", "requires_grad", "register_hook", "register_post_accumulate_grad_hook", "grad", "clone",
    "detach", "div", "div_", "mul", "mul_", "copy_", "cat", "reshape", "view", "view_as", "numel", "no_grad",
    "append", "clear",
)

RING_REDUCE_SCATTER = Task(
    name="ring_reduce_scatter",
    reference=reduce_scatter_reference,
    examples=[(floats([1, 2, 3], [10, 20, 30], [100, 200, 300]),)],
    clauses=[
        Clause("one rank: no exchanges, its own buffer is the sum", (floats([4, 5]),)),
        Clause("empty chunks still travel: a message of 0 bytes", (floats([], []),)),
        Clause("a buffer that does not split into N equal chunks raises ValueError", (floats([1, 2, 3], [4, 5, 6]),)),
        Clause("rank r ends with chunk r, which it receives last, at step N-2",
               (floats([1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]),)),
        Clause(ORDER_SAYS, (ORDER_SHOWS,)),
    ],
    random_case=ring_case, allowed=SCATTER_ALLOWED, harness=RING_HARNESS,
    inputs=RING_INPUTS + " Buffers whose length is not a multiple of N, too.",
    hint="At step s, which chunk of its buffer has a rank added the most contributions to so far, and what should "
         "it do with the partial sum its left-hand neighbour hands it before the next step?",
)

RING_ALL_GATHER = Task(
    name="ring_all_gather",
    reference=all_gather_reference,
    examples=[(floats([1, 2], [3, 4], [5, 6]),)],
    clauses=[
        Clause("one rank: no exchanges, its own chunk is the whole buffer", (floats([7, 8, 9]),)),
        Clause("chunks are put in rank order, whichever rank sent them", (floats([1], [2], [3], [4], [5]),)),
        Clause("empty chunks still travel: a message of 0 bytes", (floats([], [], []),)),
    ],
    random_case=lambda rng: (rank_buffers(rng, int(rng.integers(1, 7)), int(rng.integers(0, 4))),),
    allowed=GATHER_ALLOWED, harness=RING_HARNESS,
    inputs="1 to 6 ranks; float64 chunks of whole numbers with 0 to 3 elements, some of them non-contiguous views "
           "(every other element of a longer array).",
    hint="After step 0, which chunk does a rank forward, its own or the one it has just received, and where in the "
         "buffer it ends with does a chunk go: by when it arrived, or by its number?",
)

RING_ALL_REDUCE = Task(
    name="ring_all_reduce",
    reference=all_reduce_reference,
    examples=[(floats([1, 2, 3], [10, 20, 30], [100, 200, 300]),)],
    clauses=[
        Clause("the all-gather's steps follow the reduce-scatter's: 2(N-1) steps in all", (floats([1, 2], [3, 4]),)),
        Clause("one rank: no exchanges", (floats([1, 2, 3]),)),
        Clause(ORDER_SAYS, (ORDER_SHOWS,)),
    ],
    random_case=ring_case, allowed=REDUCE_ALLOWED, inputs=RING_INPUTS, harness=RING_HARNESS,
    hint="Which of your two functions, run one after the other on the same ring, gives every rank the whole sum, "
         "and which rank's chunk does each rank hold when the first of them returns?",
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
    random_case=buckets_case, allowed=BUCKETS_ALLOWED,
    inputs="0 to 12 gradient sizes from 4 to 3000 bytes, caps from 40 to 1000 bytes or 0, gradients larger than "
           "the cap (even the first), and buckets that reach the cap exactly.",
    hint="Is cap a ceiling a bucket may never pass, or a threshold that closes the bucket once it is reached, and "
         "what becomes of a last bucket that never reached it?",
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
                                 targets: list[np.ndarray], frozen: tuple[int, ...] = ()) -> list[list[np.ndarray | None]]:
    """What DDP leaves on every rank after backward: the mean over the ranks of their gradients (None for a
    frozen parameter, which has no gradient)."""
    per_rank = [rank_gradients(weights, inputs[rank], targets[rank]) for rank in range(world)]
    average: list[np.ndarray | None] = [None if k in frozen else np.sum([grads[k] for grads in per_rank], axis=0) / world
                                        for k in range(len(weights))]
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


FROZEN_CHOICES = ((0, 1), (2, 3), (0,), (3,))  # the first layer, the head, a weight alone, a bias alone


def random_ddp_case(rng: np.random.Generator) -> tuple:
    """A ``ddp_case``, one time in four with some parameters frozen (their places in ``model.parameters()``):
    "every parameter that requires grad" must meet one that does not."""
    case = ddp_case(rng)
    frozen = FROZEN_CHOICES[int(rng.integers(len(FROZEN_CHOICES)))] if rng.random() < 0.25 else ()
    return (*case, frozen)


def _ddp_clause(seed: int, world: int, frozen: tuple[int, ...] = ()) -> tuple:
    return (*ddp_case(np.random.default_rng(seed), world), frozen)


GRADIENT_AVERAGING = Task(
    name="attach_gradient_averaging",
    reference=gradient_averaging_reference,
    examples=[_ddp_clause(1, 2), _ddp_clause(2, 3)],
    clauses=[
        Clause("every rank ends with the mean of the ranks' gradients, not their sum", _ddp_clause(3, 4)),
        Clause("every parameter, biases included, is averaged", _ddp_clause(4, 2)),
        Clause("the group may be a sub-group: its size, not the whole world's, divides", _ddp_clause(5, 3)),
        Clause("a group of one rank: the gradients are its own", _ddp_clause(6, 1)),
        Clause("for every parameter that requires grad (a frozen one has no gradient: its grad stays None)",
               _ddp_clause(7, 3, (0, 1))),
        Clause("for every parameter that requires grad (a frozen one has no gradient: its grad stays None)",
               _ddp_clause(8, 2, (3,))),
    ],
    random_case=random_ddp_case,
    hint="Which per-parameter hook runs while backward computes each gradient, and since the gradient it is given "
         "belongs to autograd, what should it reduce over the group, and divide by which size, before returning it?",
    allowed=DDP_ALLOWED,
    inputs="groups of 1 to 4 ranks (the whole world of 4 ranks or a sub-group of its first ranks), a float64 MLP "
           "(Linear, Tanh, Linear) of 1 to 3 units per layer, now and then with some parameters frozen "
           "(requires_grad False: a layer, a weight or a bias), and 1 to 3 samples per rank.",
    building_blocks=("numpy", "torch", *PURE_STANDARD_LIBRARY),
    forbidden=DDP_FORBIDDEN,
    ranks=DDP_RANKS,
    harness="tensorlab.grading.harnesses.ddp:gradient_averaging_case",
    at_least_seconds=20.0,
    at_least_memory_mb=4096,
)

EXERCISE = Exercise(notebook="distributed", tasks=(RING_REDUCE_SCATTER, RING_ALL_GATHER, RING_ALL_REDUCE, BUCKETS, GRADIENT_AVERAGING))
