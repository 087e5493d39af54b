"""N ranks in one process: collectives as the messages they send, step by step, with their cost.

A real all-reduce (``torch.distributed.all_reduce`` over gloo or NCCL) leaves every rank holding
the sum of every rank's buffer. How it gets there decides its cost. The **ring** splits each
buffer into N chunks and passes chunks to the right-hand neighbour:

1. *reduce-scatter*, N-1 steps: at step s rank r sends chunk (r - s - 1) mod N, and the receiver
   adds it to its own copy. Each chunk travels once round the ring, collecting every rank's part,
   and ends fully summed on the rank of the same number (rank r owns chunk r, as torch's
   ``reduce_scatter`` gives it).
2. *all-gather*, N-1 steps: at step s rank r sends chunk (r - s) mod N, and the receiver stores it.

So each rank sends 2(N-1) chunks of B/N bytes: 2(N-1)/N · B in all, nearly independent of N. A
**tree** (binomial: at step k, every rank below 2^k that holds the data sends it 2^k ranks on)
needs only ceil(log2 N) steps, but sends whole buffers.

The **α–β model** prices a step at α (latency: a message's fixed cost) + β · bytes (the inverse
bandwidth) for its largest message, since the messages of a step travel on separate links at once;
a collective costs the sum of its steps. Ring all-reduce: 2(N-1)·α + 2(N-1)/N · B · β.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

__all__ = [
    "Message", "Trace", "all_gather", "ring_all_reduce", "ring_all_reduce_seconds", "ring_reduce_scatter",
    "tree_all_reduce_seconds", "tree_broadcast", "tree_reduce",
]

REDUCTIONS: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "sum": np.add, "product": np.multiply, "max": np.maximum, "min": np.minimum,
}
WHOLE = -1  # the chunk number of a message that carries the whole buffer (tree algorithms)


@dataclass(frozen=True)
class Message:
    """One send: at ``step``, ``source`` sends chunk ``chunk`` (``WHOLE``: the buffer) of ``nbytes`` to ``target``."""

    step: int
    source: int
    target: int
    chunk: int
    nbytes: int


@dataclass
class Trace:
    """Every message a collective sent, in order; what it costs and who sent how much."""

    world_size: int
    messages: list[Message] = field(default_factory=list)

    @property
    def steps(self) -> int:
        return len({message.step for message in self.messages})

    def bytes_sent(self, rank: int) -> int:
        return sum(message.nbytes for message in self.messages if message.source == rank)

    def seconds(self, alpha: float, beta: float) -> float:
        """α–β time: each step costs α plus β times its largest message's bytes."""
        largest: dict[int, int] = {}
        for message in self.messages:
            largest[message.step] = max(largest.get(message.step, 0), message.nbytes)
        return sum(alpha + beta * nbytes for nbytes in largest.values())

    def then(self, other: Trace) -> Trace:
        """This trace followed by ``other``, its steps numbered after this one's."""
        offset = self.steps
        moved = [Message(m.step + offset, m.source, m.target, m.chunk, m.nbytes) for m in other.messages]
        return Trace(self.world_size, self.messages + moved)


def _copies(buffers: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Each rank's buffer, copied (a collective must not change the caller's arrays), all of one shape."""
    if not buffers:
        raise ValueError("a collective needs at least one rank")
    shapes = {np.shape(buffer) for buffer in buffers}
    if len(shapes) != 1:
        raise ValueError(f"every rank must hold a buffer of the same shape, got {sorted(shapes)}")
    return [np.array(buffer, copy=True).reshape(-1) for buffer in buffers]


def chunk_bounds(length: int, world_size: int) -> list[slice]:
    """Where each of the N chunks of a flat buffer starts and stops (sizes differ by at most one)."""
    cuts = [length * k // world_size for k in range(world_size + 1)]
    return [slice(start, stop) for start, stop in itertools.pairwise(cuts)]


def ring_reduce_scatter(buffers: Sequence[np.ndarray], op: str = "sum") -> tuple[list[np.ndarray], Trace]:
    """Rank r ends with chunk r of the reduction of every buffer (flat), after N-1 ring steps."""
    data, reduce = _copies(buffers), REDUCTIONS[op]
    n, trace = len(data), Trace(len(data))
    bounds = chunk_bounds(data[0].size, n)
    for step in range(n - 1):
        sent = [data[rank][bounds[(rank - step - 1) % n]].copy() for rank in range(n)]  # all send at once
        for rank in range(n):
            chunk, target = (rank - step - 1) % n, (rank + 1) % n
            data[target][bounds[chunk]] = reduce(data[target][bounds[chunk]], sent[rank])
            trace.messages.append(Message(step, rank, target, chunk, sent[rank].nbytes))
    return [data[rank][bounds[rank]] for rank in range(n)], trace


def all_gather(chunks: Sequence[np.ndarray]) -> tuple[list[np.ndarray], Trace]:
    """Rank r starts with chunk r; after N-1 ring steps every rank holds all chunks, in rank order."""
    n, trace = len(chunks), Trace(len(chunks))
    held: list[dict[int, np.ndarray]] = [{rank: np.array(chunks[rank], copy=True)} for rank in range(n)]
    for step in range(n - 1):
        sent = [held[rank][(rank - step) % n] for rank in range(n)]
        for rank in range(n):
            chunk, target = (rank - step) % n, (rank + 1) % n
            held[target][chunk] = sent[rank].copy()
            trace.messages.append(Message(step, rank, target, chunk, sent[rank].nbytes))
    return [np.concatenate([held[rank][chunk].reshape(-1) for chunk in range(n)]) for rank in range(n)], trace


def ring_all_reduce(buffers: Sequence[np.ndarray], op: str = "sum") -> tuple[list[np.ndarray], Trace]:
    """Every rank ends with the reduction of every buffer: reduce-scatter, then all-gather (2(N-1) steps)."""
    shape = np.shape(buffers[0]) if len(buffers) else ()
    owned, scattering = ring_reduce_scatter(buffers, op)
    gathered, gathering = all_gather(owned)
    return [flat.reshape(shape) for flat in gathered], scattering.then(gathering)


def _tree_rounds(world_size: int) -> int:
    return math.ceil(math.log2(world_size)) if world_size > 1 else 0


def tree_broadcast(buffers: Sequence[np.ndarray], root: int = 0) -> tuple[list[np.ndarray], Trace]:
    """Every rank ends with the root's buffer: at round k, each rank that has it sends it 2^k ranks on."""
    data = _copies(buffers)
    n, trace, shape = len(data), Trace(len(data)), np.shape(buffers[0])
    for round_ in range(_tree_rounds(n)):
        for relative in range(2**round_):  # ranks counted from the root: those below 2^k have the data
            if relative + 2**round_ < n:
                source, target = (root + relative) % n, (root + relative + 2**round_) % n
                data[target] = data[source].copy()
                trace.messages.append(Message(round_, source, target, WHOLE, data[source].nbytes))
    return [flat.reshape(shape) for flat in data], trace


def tree_reduce(buffers: Sequence[np.ndarray], root: int = 0, op: str = "sum") -> tuple[np.ndarray, Trace]:
    """The root ends with the reduction of every buffer: the broadcast's tree, walked backwards."""
    data, reduce = _copies(buffers), REDUCTIONS[op]
    n, trace, shape = len(data), Trace(len(data)), np.shape(buffers[0])
    rounds = _tree_rounds(n)
    for step, round_ in enumerate(reversed(range(rounds))):
        for relative in range(2**round_):
            if relative + 2**round_ < n:
                target, source = (root + relative) % n, (root + relative + 2**round_) % n
                data[target] = reduce(data[target], data[source])
                trace.messages.append(Message(step, source, target, WHOLE, data[source].nbytes))
    return data[root].reshape(shape), trace


def ring_all_reduce_seconds(world_size: int, nbytes: int, alpha: float, beta: float) -> float:
    """The α–β formula for ring all-reduce of ``nbytes`` (a multiple of N): 2(N-1)(α + β·B/N)."""
    return 2 * (world_size - 1) * (alpha + beta * nbytes / world_size)


def tree_all_reduce_seconds(world_size: int, nbytes: int, alpha: float, beta: float) -> float:
    """Tree reduce then tree broadcast: 2·ceil(log2 N)·(α + β·B), whole buffers every round."""
    return 2 * _tree_rounds(world_size) * (alpha + beta * nbytes)
