"""Mutants of exercise 16 (distributed): ring collectives that get the sums or the schedule wrong, and bad buckets."""

from tensorlab.grading.tasks import Mutant

# The right reduce-scatter, with one line left for each mutant to change (marked below).
REDUCE_SCATTER = '''
def ring_reduce_scatter(buffers):
    if len({{len(buffer) for buffer in buffers}}) != 1:
        raise ValueError("lengths differ")
    n = len(buffers)
    size = len(buffers[0]) // n
    data = {copies}

    def chunk(k):
        return slice(k * size, (k + 1) * size)

    messages = []
    for step in range({steps}):
        outgoing = [data[rank][chunk({number})].copy() for rank in range(n)]
        for rank in range(n):
            number, target = {number}, {target}
            data[target][chunk(number)] += outgoing[rank]
            messages.append(({step}, rank, target, number, {nbytes}))
    return [data[rank][chunk(rank)]{scale} for rank in range(n)], messages
'''
RIGHT = {"copies": "[np.array(buffer, dtype=np.float64) for buffer in buffers]", "steps": "n - 1",
         "number": "(rank - step - 1) % n", "target": "(rank + 1) % n", "step": "step",
         "nbytes": "outgoing[rank].nbytes", "scale": ".copy()"}


def reduce_scatter(**changed: str) -> str:
    return REDUCE_SCATTER.format(**{**RIGHT, **changed})


ALL_GATHER = '''
def ring_all_gather(chunks):
    n = len(chunks)
    held = [{{rank: np.array(chunks[rank], dtype=np.float64)}} for rank in range(n)]
    messages = []
    for step in range({steps}):
        outgoing = [held[rank][{number}] for rank in range(n)]
        for rank in range(n):
            number, target = {number}, {target}
            held[target][number] = outgoing[rank].copy()
            messages.append(({step}, rank, target, {label}, {nbytes}))
    return [np.concatenate({order}) for rank in range(n)], messages
'''
GATHER_RIGHT = {"steps": "n - 1", "number": "(rank - step) % n", "target": "(rank + 1) % n", "step": "step",
                "label": "number", "nbytes": "outgoing[rank].nbytes", "order": "[held[rank][k] for k in range(n)]"}


def all_gather(**changed: str) -> str:
    return ALL_GATHER.format(**{**GATHER_RIGHT, **changed})


BUCKETS = '''
def bucket_gradients(ready_sizes, cap):
    buckets, current, filled = [], [], 0
    for index, size in {walk}:
        {before}
        current.append(index)
        filled += {counted}
        if {closes}:
            buckets.append(current)
            current, filled = [], 0
    {last}
    return buckets
'''
BUCKETS_RIGHT = {"walk": "enumerate(ready_sizes)", "before": "pass", "closes": "filled >= cap", "counted": "size",
                 "last": "if current:\n        buckets.append(current)"}


def buckets(**changed: str) -> str:
    return BUCKETS.format(**{**BUCKETS_RIGHT, **changed})


MUTANTS = [
    # --- ring_reduce_scatter ----------------------------------------------------------------------
    Mutant("ring_reduce_scatter", "calls tensorlab's simulator", '''
from tensorlab.distributed import ring_reduce_scatter as simulated


def ring_reduce_scatter(buffers):
    chunks, trace = simulated(buffers)
    return [np.array(c) for c in chunks], [(m.step, m.source, m.target, m.chunk, m.nbytes) for m in trace.messages]
'''),
    Mutant("ring_reduce_scatter", "every rank sends its whole buffer to every other", '''
def ring_reduce_scatter(buffers):
    n = len(buffers)
    size = len(buffers[0]) // n
    total = np.sum(buffers, axis=0) if n else None
    messages = [(0, rank, other, rank, buffers[rank].nbytes) for rank in range(n) for other in range(n) if other != rank]
    return [total[rank * size:(rank + 1) * size].copy() for rank in range(n)], messages
'''),
    Mutant("ring_reduce_scatter", "sends to the left-hand neighbour", reduce_scatter(target="(rank - 1) % n")),
    Mutant("ring_reduce_scatter", "sends chunk r - s instead of r - s - 1", reduce_scatter(number="(rank - step) % n")),
    Mutant("ring_reduce_scatter", "one step too few", reduce_scatter(steps="n - 2")),
    Mutant("ring_reduce_scatter", "adds into the input buffers", reduce_scatter(copies="list(buffers)")),
    Mutant("ring_reduce_scatter", "steps numbered from 1", reduce_scatter(step="step + 1")),
    Mutant("ring_reduce_scatter", "counts elements, not bytes", reduce_scatter(nbytes="len(outgoing[rank])")),
    Mutant("ring_reduce_scatter", "averages instead of summing", reduce_scatter(scale=" / n")),
    Mutant("ring_reduce_scatter", "never checks the lengths", reduce_scatter().replace(
        '    if len({len(buffer) for buffer in buffers}) != 1:\n        raise ValueError("lengths differ")\n', "")),
    # --- ring_all_gather ---------------------------------------------------------------------------
    Mutant("ring_all_gather", "calls tensorlab's simulator", '''
import tensorlab.distributed as dist


def ring_all_gather(chunks):
    buffers, trace = dist.all_gather(chunks)
    return buffers, [(m.step, m.source, m.target, m.chunk, m.nbytes) for m in trace.messages]
'''),
    Mutant("ring_all_gather", "chunks kept in arrival order", all_gather(order="list(held[rank].values())")),
    Mutant("ring_all_gather", "always sends its own chunk", '''
def ring_all_gather(chunks):
    n = len(chunks)
    held = [{rank: np.array(chunks[rank], dtype=np.float64)} for rank in range(n)]
    messages = []
    for step in range(n - 1):
        for rank in range(n):
            target = (rank + 1) % n
            held[target][rank] = held[rank][rank].copy()
            messages.append((step, rank, target, rank, held[rank][rank].nbytes))
    return [np.concatenate([held[rank].get(k, np.zeros(0)) for k in range(n)]) for rank in range(n)], messages
'''),
    Mutant("ring_all_gather", "one step too few", all_gather(steps="n - 2", order="[held[rank].get(k, np.zeros(0)) for k in range(n)]")),
    Mutant("ring_all_gather", "sends to the left-hand neighbour", all_gather(
        target="(rank - 1) % n", number="(rank + step) % n")),
    Mutant("ring_all_gather", "every rank sends its chunk to every other", '''
def ring_all_gather(chunks):
    n = len(chunks)
    whole = np.concatenate([np.array(c, dtype=np.float64) for c in chunks])
    messages = [(0, rank, other, rank, chunks[rank].nbytes) for rank in range(n) for other in range(n) if other != rank]
    return [whole.copy() for _ in range(n)], messages
'''),
    Mutant("ring_all_gather", "counts elements, not bytes", all_gather(nbytes="len(outgoing[rank])")),
    Mutant("ring_all_gather", "steps numbered from 1", all_gather(step="step + 1")),
    Mutant("ring_all_gather", "labels a message with its sender, not its chunk", all_gather(label="rank")),
    # --- ring_all_reduce ---------------------------------------------------------------------------
    Mutant("ring_all_reduce", "calls tensorlab's simulator", '''
from tensorlab.distributed.simulator import ring_all_reduce as simulated


def ring_all_reduce(buffers):
    results, trace = simulated(buffers)
    return results, [(m.step, m.source, m.target, m.chunk, m.nbytes) for m in trace.messages]
'''),
    Mutant("ring_all_reduce", "all-gather steps start again at 0", '''
def ring_all_reduce(buffers):
    owned, scattering = ring_reduce_scatter(buffers)
    results, gathering = ring_all_gather(owned)
    return results, scattering + gathering
'''),
    Mutant("ring_all_reduce", "all-gather steps shifted by N, not N - 1", '''
def ring_all_reduce(buffers):
    owned, scattering = ring_reduce_scatter(buffers)
    results, gathering = ring_all_gather(owned)
    return results, scattering + [(step + len(buffers), *rest) for step, *rest in gathering]
'''),
    Mutant("ring_all_reduce", "every rank sends its whole buffer to every other", '''
def ring_all_reduce(buffers):
    n = len(buffers)
    total = np.sum(buffers, axis=0)
    messages = [(0, rank, other, rank, buffers[rank].nbytes) for rank in range(n) for other in range(n) if other != rank]
    return [total.copy() for _ in range(n)], messages
'''),
    Mutant("ring_all_reduce", "stops after the reduce-scatter", '''
def ring_all_reduce(buffers):
    return ring_reduce_scatter(buffers)
'''),
    Mutant("ring_all_reduce", "averages, as DDP does with gradients", '''
def ring_all_reduce(buffers):
    owned, scattering = ring_reduce_scatter(buffers)
    results, gathering = ring_all_gather(owned)
    later = len(buffers) - 1
    return [result / len(buffers) for result in results], scattering + [(step + later, *rest) for step, *rest in gathering]
'''),
    Mutant("ring_all_reduce", "all-gather's messages listed first", '''
def ring_all_reduce(buffers):
    owned, scattering = ring_reduce_scatter(buffers)
    results, gathering = ring_all_gather(owned)
    later = len(buffers) - 1
    return results, [(step + later, *rest) for step, *rest in gathering] + scattering
'''),
    Mutant("ring_all_reduce", "reduce to rank 0, then send the sum to everyone", '''
def ring_all_reduce(buffers):
    n = len(buffers)
    total = np.sum(buffers, axis=0)
    up = [(0, rank, 0, 0, buffers[rank].nbytes) for rank in range(1, n)]
    down = [(1, 0, rank, 0, total.nbytes) for rank in range(1, n)]
    return [total.copy() for _ in range(n)], up + down
'''),
    # --- bucket_gradients --------------------------------------------------------------------------
    Mutant("bucket_gradients", "calls tensorlab's assign_buckets", '''
from tensorlab.distributed.buckets import assign_buckets


def bucket_gradients(ready_sizes, cap):
    return assign_buckets(ready_sizes, cap)
'''),
    Mutant("bucket_gradients", "never lets a bucket pass the cap", buckets(
        before="if current and filled + size > cap:\n            buckets.append(current)\n            current, filled = [], 0")),
    Mutant("bucket_gradients", "keeps a bucket that exactly reaches the cap open", buckets(closes="filled > cap")),
    Mutant("bucket_gradients", "forgets the last bucket", buckets(last="pass")),
    Mutant("bucket_gradients", "drops a gradient larger than the cap", buckets(
        walk="((i, s) for i, s in enumerate(ready_sizes) if s <= cap)")),
    Mutant("bucket_gradients", "sorts the gradients by size first", buckets(
        walk="sorted(enumerate(ready_sizes), key=lambda pair: pair[1])")),
    Mutant("bucket_gradients", "counts gradients, not bytes", buckets(counted="1", closes="filled >= cap // 100")),
    Mutant("bucket_gradients", "fills buckets in parameter order, not ready order", buckets(
        walk="reversed(list(enumerate(ready_sizes)))")),
    Mutant("bucket_gradients", "refuses a cap of 0", buckets(before="if cap <= 0:\n            raise ValueError('cap')")),
]

# The right mini-DDP, with the pieces each mutant changes (the learner's cell imports torch itself).
AVERAGING = '''
import torch
import torch.distributed as dist


def attach_gradient_averaging(model, group):
    world = {world}

    def average(grad):
        total = grad.clone()
        dist.all_reduce(total, {reduce})
        return {returned}

    for parameter in {parameters}:
        if parameter.requires_grad:
            {hooked}.register_hook(average)
'''
AVERAGING_RIGHT = {"world": "dist.get_world_size(group)", "reduce": "group=group", "returned": "total / world",
                   "parameters": "model.parameters()", "hooked": "parameter"}


def averaging(**changes: str) -> str:
    return AVERAGING.format(**{**AVERAGING_RIGHT, **changes})


MUTANTS += [
    Mutant("attach_gradient_averaging", "reduces and divides the hook's argument in place", '''
import torch
import torch.distributed as dist

def attach_gradient_averaging(model, group):
    world = dist.get_world_size(group)

    def average(grad):
        dist.all_reduce(grad, group=group)
        grad /= world

    for parameter in model.parameters():
        if parameter.requires_grad:
            parameter.register_hook(average)
'''),
    Mutant("attach_gradient_averaging", "sums the gradients instead of averaging them", averaging(returned="total")),
    Mutant("attach_gradient_averaging", "divides by a world size of 2, written down", averaging(world="2")),
    Mutant("attach_gradient_averaging", "divides by the whole world's size, not the group's", averaging(world="dist.get_world_size()")),
    Mutant("attach_gradient_averaging", "reduces over the whole world, not the group", averaging(reduce="")),
    Mutant("attach_gradient_averaging", "hooks the weights only, not the biases",
           averaging(parameters="[p for p in model.parameters() if p.ndim > 1]")),
    Mutant("attach_gradient_averaging", "hooks every layer but the last",
           averaging(parameters="list(model.parameters())[:-2]")),
    Mutant("attach_gradient_averaging", "hooks the parameter's data, which autograd never sees", averaging(hooked="parameter.data")),
    Mutant("attach_gradient_averaging", "reduces with MAX instead of SUM",
           averaging(reduce="op=dist.ReduceOp.MAX, group=group")),
    Mutant("attach_gradient_averaging", "reduces a copy but keeps the rank's own gradient", averaging(returned="grad")),
    Mutant("attach_gradient_averaging", "averages the gradients now, before backward made any", '''
import torch
import torch.distributed as dist


def attach_gradient_averaging(model, group):
    for parameter in model.parameters():
        if parameter.grad is not None:
            dist.all_reduce(parameter.grad, group=group)
            parameter.grad /= dist.get_world_size(group)
'''),
    Mutant("attach_gradient_averaging", "wraps the model in DistributedDataParallel", '''
from torch.nn.parallel import DistributedDataParallel


def attach_gradient_averaging(model, group):
    DistributedDataParallel(model, process_group=group)
'''),
    Mutant("attach_gradient_averaging", "calls the reference's launcher", '''
import tensorlab.distributed


def attach_gradient_averaging(model, group):
    return tensorlab.distributed.run(lambda: None, 1)
'''),
]

# found attacking the allow-lists (issue 26): closed-form answers with a message log written from the formula
MUTANTS += [
    Mutant("ring_reduce_scatter", "sums the buffers in closed form and writes the messages from the formula", '''
def ring_reduce_scatter(buffers):
    if len({len(buffer) for buffer in buffers}) != 1:
        raise ValueError("lengths differ")
    n = len(buffers)
    size = len(buffers[0]) // n
    total = np.array(buffers[0], dtype=np.float64)
    for buffer in buffers[1:]:
        total = total + buffer
    messages = [(s, r, (r + 1) % n, (r - s - 1) % n, 8 * size) for s in range(n - 1) for r in range(n)]
    return [total[r * size:(r + 1) * size].copy() for r in range(n)], messages
'''),
    Mutant("ring_all_reduce", "sums the buffers in closed form and writes the messages from the formula", '''
def ring_all_reduce(buffers):
    n = len(buffers)
    size = len(buffers[0]) // n
    total = np.array(buffers[0], dtype=np.float64)
    for buffer in buffers[1:]:
        total = total + buffer
    scatter = [(s, r, (r + 1) % n, (r - s - 1) % n, 8 * size) for s in range(n - 1) for r in range(n)]
    gather = [(n - 1 + s, r, (r + 1) % n, (r - s) % n, 8 * size) for s in range(n - 1) for r in range(n)]
    return [total.copy() for _ in range(n)], scatter + gather
'''),
    Mutant("ring_reduce_scatter", "np.add.reduce of the buffers (a sum by another name)", '''
def ring_reduce_scatter(buffers):
    if len({len(buffer) for buffer in buffers}) != 1:
        raise ValueError("lengths differ")
    n = len(buffers)
    size = len(buffers[0]) // n
    total = np.add.reduce(np.stack(buffers))
    messages = [(s, r, (r + 1) % n, (r - s - 1) % n, 8 * size) for s in range(n - 1) for r in range(n)]
    return [total[r * size:(r + 1) * size].copy() for r in range(n)], messages
'''),
]
