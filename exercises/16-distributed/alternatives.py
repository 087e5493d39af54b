"""Correct answers of exercise 16 (distributed) written other ways than the solution: each must keep full marks."""

from tensorlab.grading import Alternative

ALTERNATIVES = [
    Alternative("ring_reduce_scatter", "chunk-grid-fancy-indexing", '''
import numpy as np

def ring_reduce_scatter(buffers):
    lengths = [len(buffer) for buffer in buffers]
    if min(lengths) != max(lengths):
        raise ValueError(f"buffers of different lengths: {lengths}")
    n = len(buffers)
    size = lengths[0] // n
    grid = np.stack([np.asarray(buffer, dtype=np.float64) for buffer in buffers]).reshape(n, n, size)  # [rank, chunk]
    ranks = np.arange(n)
    messages = []
    for step in range(n - 1):
        sent = (ranks - step - 1) % n
        targets = (ranks + 1) % n
        outgoing = grid[ranks, sent]                      # fancy indexing copies: every send taken at once
        grid[targets, sent] += outgoing                   # then every receiver adds what it got
        messages += [(step, rank, int(targets[rank]), int(sent[rank]), outgoing[rank].nbytes) for rank in range(n)]
    return [grid[rank, rank].copy() for rank in range(n)], messages
'''),
    Alternative("ring_reduce_scatter", "split-chunks-receiver-side", '''
import numpy as np

def ring_reduce_scatter(buffers):
    if len(set(map(len, buffers))) > 1:
        raise ValueError("every buffer must have the same length")
    n = len(buffers)
    pieces = [np.split(np.array(buffer, dtype=np.float64), n) for buffer in buffers]   # pieces[rank][chunk]
    messages = []
    for step in range(n - 1):
        snapshot = [list(held) for held in pieces]       # what every rank holds before this step's sends
        for receiver in range(n):
            sender = (receiver - 1) % n
            number = (sender - step - 1) % n
            pieces[receiver][number] = snapshot[receiver][number] + snapshot[sender][number]
            messages.append((step, sender, receiver, number, snapshot[sender][number].nbytes))
    messages.sort()                                      # by step, then by sender
    return [pieces[rank][rank] for rank in range(n)], messages
'''),
    Alternative("ring_all_gather", "preallocated-grid-fancy-indexing", '''
import numpy as np

def ring_all_gather(chunks):
    n = len(chunks)
    size = len(chunks[0]) if n else 0
    grid = np.zeros((n, n, size))                        # grid[rank, chunk]: what rank holds of chunk
    ranks = np.arange(n)
    grid[ranks, ranks] = np.array([np.asarray(chunk, dtype=np.float64) for chunk in chunks]).reshape(n, size)
    messages = []
    for step in range(n - 1):
        sent = (ranks - step) % n
        targets = (ranks + 1) % n
        grid[targets, sent] = grid[ranks, sent]          # the right-hand side is read (copied) before any write
        nbytes = grid[0, 0].nbytes
        messages.extend((step, rank, int(targets[rank]), int(sent[rank]), nbytes) for rank in range(n))
    return [grid[rank].reshape(n * size) for rank in range(n)], messages
'''),
    Alternative("ring_all_gather", "forward-what-you-just-received", '''
import numpy as np

def ring_all_gather(chunks):
    n = len(chunks)
    slots = [[None] * n for _ in range(n)]               # slots[rank][k]: chunk k once rank has it
    in_hand = []                                         # what each rank sends next: (chunk number, values)
    for rank, chunk in enumerate(chunks):
        own = np.array(chunk, dtype=np.float64)
        slots[rank][rank] = own
        in_hand.append((rank, own))
    messages = []
    for step in range(n - 1):
        received = [None] * n
        for rank, (number, values) in enumerate(in_hand):
            target = (rank + 1) % n
            slots[target][number] = values.copy()
            received[target] = (number, slots[target][number])
            messages.append((step, rank, target, number, values.nbytes))
        in_hand = received                               # next step, each rank forwards what it just got
    return [np.concatenate(held) for held in slots], messages
'''),
    Alternative("ring_all_reduce", "offset-from-last-step-message-table", '''
import numpy as np

def ring_all_reduce(buffers):
    owned, scattered = ring_reduce_scatter(buffers)
    results, gathered = ring_all_gather(owned)
    offset = scattered[-1][0] + 1 if scattered else 0    # the all-gather starts after the reduce-scatter's last step
    table = np.array(gathered, dtype=np.int64).reshape(-1, 5)
    table[:, 0] += offset
    return results, scattered + [tuple(row) for row in table.tolist()]
'''),
    Alternative("ring_all_reduce", "offset-counts-distinct-steps", '''
def ring_all_reduce(buffers):
    chunks, messages = ring_reduce_scatter(buffers)
    steps_taken = len({message[0] for message in messages})   # N - 1 (none with one rank)
    everywhere, gathered = ring_all_gather(chunks)
    for step, source, target, chunk, nbytes in gathered:
        messages.append((steps_taken + step, source, target, chunk, nbytes))
    return everywhere, messages
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
