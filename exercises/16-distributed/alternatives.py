"""Correct answers of exercise 16 (distributed) written other ways than the solution: each must keep full marks.

The ring functions are programs of one rank, run by the grader's harness (``harnesses/ring.py``).
"""

from tensorlab.grading import Alternative

ALTERNATIVES = [
    Alternative("ring_reduce_scatter", "chunk-grid-rows-expected-index", '''
import numpy as np

def ring_reduce_scatter(rank, world_size, buffer, ring):
    if len(buffer) % world_size != 0:
        raise ValueError(f"{len(buffer)} elements do not make {world_size} equal chunks")
    grid = np.array(buffer, dtype=np.float64).reshape(world_size, -1)   # grid[k]: chunk k (a copy of the input)
    for step in range(world_size - 1):
        outgoing = (rank - step - 1) % world_size
        incoming = (rank - step - 2) % world_size        # what the left-hand neighbour sends at this step
        _, partial = ring.exchange(outgoing, grid[outgoing])
        grid[incoming] = grid[incoming] + partial
    return grid[rank].copy()
'''),
    Alternative("ring_reduce_scatter", "split-pieces-partial-in-hand", '''
import numpy as np

def ring_reduce_scatter(rank, world_size, buffer, ring):
    pieces = np.split(np.asarray(buffer, dtype=np.float64), world_size)   # ValueError when it does not divide
    number = (rank - 1) % world_size
    partial = pieces[number] if world_size > 1 else pieces[rank].copy()
    for step in range(world_size - 1):
        number, received = ring.exchange(number, partial)
        partial = received + pieces[number]              # the new partial sum to pass on (a new array)
    return partial
'''),
    Alternative("ring_all_gather", "preallocated-buffer", '''
import numpy as np

def ring_all_gather(rank, world_size, chunk, ring):
    size = len(chunk)
    whole = np.zeros(world_size * size)
    whole[rank * size:(rank + 1) * size] = chunk
    number, piece = rank, chunk                          # step 0: send this rank's own chunk (the ring copies it)
    for step in range(world_size - 1):
        number, piece = ring.exchange(number, piece)
        whole[number * size:(number + 1) * size] = piece
    return whole
'''),
    Alternative("ring_all_gather", "slots-by-expected-index", '''
import numpy as np

def ring_all_gather(rank, world_size, chunk, ring):
    slots = [None] * world_size
    slots[rank] = np.array(chunk, dtype=np.float64)
    for step in range(world_size - 1):
        sending = (rank - step) % world_size
        _, slots[(rank - step - 1) % world_size] = ring.exchange(sending, slots[sending])
    return np.concatenate(slots)
'''),
    Alternative("ring_all_reduce", "both-phases-inline-on-a-grid", '''
import numpy as np

def ring_all_reduce(rank, world_size, buffer, ring):
    grid = np.array(buffer, dtype=np.float64).reshape(world_size, -1)
    for step in range(world_size - 1):                   # reduce-scatter: add what comes in
        number, partial = ring.exchange((rank - step - 1) % world_size, grid[(rank - step - 1) % world_size])
        grid[number] += partial
    for step in range(world_size - 1):                   # all-gather: keep what comes in
        number, done = ring.exchange((rank - step) % world_size, grid[(rank - step) % world_size])
        grid[number] = done
    return grid.reshape(-1)
'''),
    Alternative("ring_all_reduce", "scatter-then-forward-loop", '''
import numpy as np

def ring_all_reduce(rank, world_size, buffer, ring):
    owned = ring_reduce_scatter(rank, world_size, buffer, ring)
    chunks = {rank: owned}
    number, piece = rank, owned
    while len(chunks) < world_size:                      # N - 1 more steps: forward what arrived last
        number, piece = ring.exchange(number, piece)
        chunks[number] = piece
    return np.concatenate([chunks[k] for k in sorted(chunks)])
'''),
    Alternative("bucket_gradients", "accumulate-running-fill-then-split", '''
from itertools import accumulate

def bucket_gradients(ready_sizes, cap):
    # the fill of the open bucket after each gradient joins it (a closed bucket starts again from 0)
    fills = list(accumulate(ready_sizes, lambda filled, size: size if filled >= cap else filled + size))
    closes = [index + 1 for index, filled in enumerate(fills) if filled >= cap]
    if not closes or closes[-1] != len(ready_sizes):
        closes.append(len(ready_sizes))                  # the last, unfinished bucket
    starts = [0] + closes[:-1]
    return [list(range(start, stop)) for start, stop in zip(starts, closes) if stop > start]
'''),
    Alternative("bucket_gradients", "nested-while-ranges", '''
def bucket_gradients(ready_sizes, cap):
    buckets = []
    start = 0
    while start < len(ready_sizes):
        stop, total = start, 0
        while stop < len(ready_sizes):
            total += ready_sizes[stop]
            stop += 1
            if total >= cap:
                break
        buckets.append(list(range(start, stop)))
        start = stop
    return buckets
'''),
    Alternative("attach_gradient_averaging", "post-accumulate-grad-hooks", '''
import torch
import torch.distributed as dist


def attach_gradient_averaging(model, group):
    size = dist.get_world_size(group=group)

    def average_in_place(parameter):
        # runs once parameter.grad holds this rank's gradient: p.grad is ours to change
        dist.all_reduce(parameter.grad, op=dist.ReduceOp.SUM, group=group)
        parameter.grad.div_(size)

    for parameter in model.parameters():
        if parameter.requires_grad:
            parameter.register_post_accumulate_grad_hook(average_in_place)
'''),
    Alternative("attach_gradient_averaging", "pre-divide-async-all-reduce", '''
import torch
import torch.distributed as dist


def make_hook(group, ranks):
    def hook(grad):
        share = grad / ranks                             # a new tensor: autograd's grad is left alone
        work = dist.all_reduce(share, group=group, async_op=True)
        work.wait()
        return share
    return hook


def attach_gradient_averaging(model, group):
    ranks = dist.get_world_size(group)
    for name, parameter in model.named_parameters():
        if parameter.requires_grad:
            parameter.register_hook(make_hook(group, ranks))
'''),
    Alternative("attach_gradient_averaging", "one-flat-bucket-when-all-ready", '''
import torch
import torch.distributed as dist


def attach_gradient_averaging(model, group):
    parameters = [p for p in model.parameters() if p.requires_grad]
    ready = []

    def on_ready(parameter):
        ready.append(parameter)
        if len(ready) < len(parameters):
            return
        flat = torch.cat([p.grad.reshape(-1) for p in parameters])   # one bucket of every gradient
        dist.all_reduce(flat, group=group)
        flat /= dist.get_world_size(group)
        offset = 0
        for p in parameters:
            p.grad.copy_(flat[offset:offset + p.numel()].view_as(p))
            offset += p.numel()
        ready.clear()                                     # ready for the next backward

    for p in parameters:
        p.register_post_accumulate_grad_hook(on_ready)
'''),
]
