"""Mutants of exercise 16 (distributed): ring programs that get the sums or the schedule wrong, and bad buckets.

A ring function is the program of one rank; the grader's harness (``harnesses/ring.py``) runs the N ranks
and records every message they send, so a mutant cannot write its own log: each is wrong in what it sends,
in how many steps it takes, or in what it returns.
"""

from tensorlab.grading.tasks import Mutant

# The right reduce-scatter of one rank, with the pieces each mutant changes (marked below).
REDUCE_SCATTER = '''
def ring_reduce_scatter(rank, world_size, buffer, ring):
    if len(buffer) % world_size:
        raise ValueError("the buffer does not split into world_size chunks")
    size = len(buffer) // world_size
    data = {copy}

    def chunk(k):
        return slice(k * size, (k + 1) * size)

    for step in range({steps}):
        sent = {sent}
        number, received = ring.exchange({label}, {payload})
        data[chunk({into})] {adds} {got}
    return data[chunk(rank)]{scale}
'''
RIGHT = {"copy": "np.array(buffer, dtype=np.float64)", "steps": "world_size - 1", "sent": "(rank - step - 1) % world_size",
         "label": "sent", "payload": "data[chunk(sent)]", "into": "number", "adds": "+=", "got": "received",
         "scale": ".copy()"}


def reduce_scatter(**changed: str) -> str:
    return REDUCE_SCATTER.format(**{**RIGHT, **changed})


# The right all-gather of one rank.
ALL_GATHER = '''
def ring_all_gather(rank, world_size, chunk, ring):
    held = {{rank: np.array(chunk, dtype=np.float64)}}
    number = rank
    for step in range({steps}):
        label, payload = {send}
        number, received = ring.exchange(label, payload)
        held[number] = received
    return np.concatenate({order})
'''
GATHER_RIGHT = {"steps": "world_size - 1", "send": "number, held[number]",
                "order": "[held[k] for k in range(world_size)]"}


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


def ring_reduce_scatter(rank, world_size, buffer, ring):
    chunks, trace = simulated([buffer] * world_size)
    return np.array(chunks[rank])
''', nudge="Which rank's data can one rank's program see, other than what its neighbour sends it?"),
    Mutant("ring_reduce_scatter", "reads the other ranks' buffers from a shared dict instead of exchanging", '''
SEEN = {}


def ring_reduce_scatter(rank, world_size, buffer, ring):
    SEEN[rank] = np.array(buffer, dtype=np.float64)
    size = len(buffer) // world_size
    total = np.zeros(len(buffer))
    for other in range(world_size):
        total = total + SEEN.get(other, np.zeros(len(buffer)))
    return total[rank * size:(rank + 1) * size].copy()
''', nudge='On a real cluster the ranks share no memory: how does one rank ever learn what another holds?'),
    Mutant("ring_reduce_scatter", "one step too few", reduce_scatter(steps="world_size - 2"), nudge="How many hops must a chunk make round a ring of N ranks to pick up every rank's part?"),
    Mutant("ring_reduce_scatter", "one step too many", reduce_scatter(steps="world_size"), nudge="Once chunk r has every rank's part on rank r, what is left for another step to do?"),
    Mutant("ring_reduce_scatter", "numbers its chunks as if the ring went left", reduce_scatter(
        sent="(rank + step + 1) % world_size"), nudge='Your messages go to the right-hand neighbour: which chunk does that neighbour need from you next?'),
    Mutant("ring_reduce_scatter", "sends chunk r - s instead of r - s - 1", reduce_scatter(sent="(rank - step) % world_size"), nudge='Which chunk must rank r be the last to add to, so that it ends complete on rank r?'),
    Mutant("ring_reduce_scatter", "labels every message with its own rank", reduce_scatter(label="rank"), nudge="Does a message's label say who sent it, or which chunk of the buffer it carries?"),
    Mutant("ring_reduce_scatter", "adds what it receives into the chunk it sent", reduce_scatter(into="sent"), nudge='The partial sum you receive belongs to which chunk: the one you sent, or the one its label names?'),
    Mutant("ring_reduce_scatter", "keeps what it receives instead of adding its part", reduce_scatter(adds="="), nudge='When a partial sum passes through a rank, what must that rank put into it before passing it on?'),
    Mutant("ring_reduce_scatter", "adds into the input buffer", reduce_scatter(copy="np.asarray(buffer)"), nudge='Whose memory does the buffer you are given belong to, and may your rank change it?'),
    Mutant("ring_reduce_scatter", "averages instead of summing", reduce_scatter(scale=" / world_size"), nudge="Is a reduce-scatter's result the sum of the ranks' chunks or their mean?"),
    Mutant("ring_reduce_scatter", "sends the whole buffer every step", reduce_scatter(
        payload="data", got="received[chunk(number)]"), nudge='How much of its buffer does a rank need to send at one step of the ring, and what does the rest cost?'),
    Mutant("ring_reduce_scatter", "sends its own untouched chunk, not the partial sum", reduce_scatter(
        payload="np.asarray(buffer, dtype=np.float64)[chunk(sent)]"), nudge="What should travel round the ring: each rank's own values, or the sum collected so far?"),
    Mutant("ring_reduce_scatter", "never checks that the buffer splits into N chunks", reduce_scatter().replace(
        '    if len(buffer) % world_size:\n        raise ValueError("the buffer does not split into world_size chunks")\n',
        ""), nudge="What should happen when a buffer's length is not a multiple of the number of ranks?"),
    Mutant("ring_reduce_scatter", "rank 0 skips the last step", reduce_scatter(
        steps="world_size - 1 - (rank == 0 and world_size > 1)"), nudge='In a lock-step ring, can one rank stop early while its neighbour still waits to hear from it?'),
    # --- ring_all_gather ---------------------------------------------------------------------------
    Mutant("ring_all_gather", "calls tensorlab's simulator", '''
import tensorlab.distributed as dist


def ring_all_gather(rank, world_size, chunk, ring):
    buffers, trace = dist.all_gather([chunk] * world_size)
    return buffers[rank]
''', nudge="Which rank's data can one rank's program see, other than what its neighbour sends it?"),
    Mutant("ring_all_gather", "reads the other ranks' chunks from a shared dict instead of exchanging", '''
SEEN = {}


def ring_all_gather(rank, world_size, chunk, ring):
    SEEN[rank] = np.array(chunk, dtype=np.float64)
    return np.concatenate([SEEN.get(k, np.zeros(len(chunk))) for k in range(world_size)])
''', nudge='On a real cluster the ranks share no memory: how does one rank ever learn what another holds?'),
    Mutant("ring_all_gather", "chunks concatenated in arrival order", all_gather(order="list(held.values())"), nudge="Does a chunk's place in the gathered buffer depend on when it arrived, or on its number?"),
    Mutant("ring_all_gather", "always sends its own chunk", all_gather(send="rank, held[rank]"), nudge='After step 0, which chunk does your right-hand neighbour still lack: yours, or the one you just received?'),
    Mutant("ring_all_gather", "one step too few", all_gather(
        steps="world_size - 2", order="[held.get(k, np.zeros(len(chunk))) for k in range(world_size)]"), nudge='How many chunks does a rank still lack at the start, and how many arrive per step?'),
    Mutant("ring_all_gather", "one step too many", all_gather(steps="world_size"), nudge='Once every rank holds all N chunks, what does one more step carry?'),
    Mutant("ring_all_gather", "numbers its chunks as if the ring went left", all_gather(
        send="(rank + step) % world_size, held.get((rank + step) % world_size, np.zeros(len(chunk)))",
        order="[held.get(k, np.zeros(len(chunk))) for k in range(world_size)]"), nudge='Your messages go to the right-hand neighbour: which chunk have you just received that it still lacks?'),
    Mutant("ring_all_gather", "labels what it forwards with its own rank", all_gather(
        send="rank, held[number]", order="[held.get(k, np.zeros(len(chunk))) for k in range(world_size)]"), nudge="Does a message's label say who sent it, or which chunk it carries?"),
    Mutant("ring_all_gather", "sends float32 to halve the traffic", all_gather(
        send="number, np.array(held[number], dtype=np.float32)"), nudge='Is the chunk you send the same type of array as the one you were given, and does its size in bytes change?'),
    Mutant("ring_all_gather", "sends everything it holds so far", all_gather(
        send="number, np.concatenate([held[k] for k in sorted(held)])",
        order="[held.get(k, np.zeros(len(chunk)))[:len(chunk)] for k in range(world_size)]"), nudge='How many bytes must one step carry when each rank lacks one chunk from its neighbour?'),
    Mutant("ring_all_gather", "fills the missing chunks with its own", '''
def ring_all_gather(rank, world_size, chunk, ring):
    return np.concatenate([np.array(chunk, dtype=np.float64) for _ in range(world_size)])
''', nudge="Where do the other ranks' chunks come from, if not from the ring?"),
    # --- ring_all_reduce ---------------------------------------------------------------------------
    Mutant("ring_all_reduce", "calls tensorlab's simulator", '''
from tensorlab.distributed.simulator import ring_all_reduce as simulated


def ring_all_reduce(rank, world_size, buffer, ring):
    results, trace = simulated([buffer] * world_size)
    return results[rank]
''', nudge="Which rank's data can one rank's program see, other than what its neighbour sends it?"),
    Mutant("ring_all_reduce", "reads the other ranks' buffers from a shared dict instead of exchanging", '''
SEEN = {}


def ring_all_reduce(rank, world_size, buffer, ring):
    SEEN[rank] = np.array(buffer, dtype=np.float64)
    total = np.zeros(len(buffer))
    for other in range(world_size):
        total = total + SEEN.get(other, np.zeros(len(buffer)))
    return total
''', nudge='On a real cluster the ranks share no memory: how does one rank ever learn what another holds?'),
    Mutant("ring_all_reduce", "stops after the reduce-scatter", '''
def ring_all_reduce(rank, world_size, buffer, ring):
    return ring_reduce_scatter(rank, world_size, buffer, ring)
''', nudge='After the reduce-scatter each rank holds one complete chunk: how do the others reach it?'),
    Mutant("ring_all_reduce", "all-gathers before it reduce-scatters", '''
def ring_all_reduce(rank, world_size, buffer, ring):
    size = len(buffer) // world_size
    gathered = ring_all_gather(rank, world_size, np.array(buffer[rank * size:(rank + 1) * size]), ring)
    owned = ring_reduce_scatter(rank, world_size, gathered, ring)
    return ring_all_gather(rank, world_size, owned, ring)
''', nudge='Which of the two phases adds, and which only copies, and so which must come first?'),
    Mutant("ring_all_reduce", "averages, as DDP does with gradients", '''
def ring_all_reduce(rank, world_size, buffer, ring):
    owned = ring_reduce_scatter(rank, world_size, buffer, ring)
    return ring_all_gather(rank, world_size, owned, ring) / world_size
''', nudge="Is an all-reduce with the sum the ranks' total or their mean?"),
    Mutant("ring_all_reduce", "passes whole buffers round the ring, adding as they come", '''
def ring_all_reduce(rank, world_size, buffer, ring):
    total = np.array(buffer, dtype=np.float64)
    passing = total.copy()
    for step in range(world_size - 1):
        _, passing = ring.exchange(0, passing)
        total += passing
    return total
''', nudge='The sums come out right, but how many bytes does each rank send, compared with a ring of chunks?'),
    Mutant("ring_all_reduce", "all-gathers every rank's own chunk, not the reduced one", '''
def ring_all_reduce(rank, world_size, buffer, ring):
    size = len(buffer) // world_size
    ring_reduce_scatter(rank, world_size, buffer, ring)
    return ring_all_gather(rank, world_size, np.array(buffer[rank * size:(rank + 1) * size]), ring)
''', nudge="Which chunk should a rank hand to the all-gather: its own input's, or the one the reduce-scatter completed?"),
    Mutant("ring_all_reduce", "reduce-scatters twice", '''
def ring_all_reduce(rank, world_size, buffer, ring):
    owned = ring_reduce_scatter(rank, world_size, buffer, ring)
    owned = ring_reduce_scatter(rank, world_size, np.concatenate([owned for _ in range(world_size)]), ring)
    return ring_all_gather(rank, world_size, owned, ring)
''', nudge="How many times must each rank's part be added into the sum?"),
    Mutant("ring_all_reduce", "rank 0 exchanges once more, to say it is done", '''
def ring_all_reduce(rank, world_size, buffer, ring):
    owned = ring_reduce_scatter(rank, world_size, buffer, ring)
    result = ring_all_gather(rank, world_size, owned, ring)
    if rank == 0:
        ring.exchange(0, np.zeros(0))
    return result
''', nudge='In a lock-step ring, who answers a rank that calls exchange after all the others have returned?'),
    # --- bucket_gradients --------------------------------------------------------------------------
    Mutant("bucket_gradients", "calls tensorlab's assign_buckets", '''
from tensorlab.distributed.buckets import assign_buckets


def bucket_gradients(ready_sizes, cap):
    return assign_buckets(ready_sizes, cap)
''', nudge="If the library's bucketing is the answer, what is left of the rule for you to write?"),
    Mutant("bucket_gradients", "never lets a bucket pass the cap", buckets(
        before="if current and filled + size > cap:\n            buckets.append(current)\n            current, filled = [], 0"), nudge='Is the cap a ceiling a bucket may never pass, or a threshold that closes it once reached?'),
    Mutant("bucket_gradients", "keeps a bucket that exactly reaches the cap open", buckets(closes="filled > cap"), nudge='A bucket that holds exactly cap bytes: has it reached the threshold or not?'),
    Mutant("bucket_gradients", "forgets the last bucket", buckets(last="pass"), nudge='What becomes of the gradients in a bucket that never reached the cap when the walk ends?'),
    Mutant("bucket_gradients", "drops a gradient larger than the cap", buckets(
        walk="((i, s) for i, s in enumerate(ready_sizes) if s <= cap)"), nudge='Where does a gradient go that is larger than the cap on its own?'),
    Mutant("bucket_gradients", "sorts the gradients by size first", buckets(
        walk="sorted(enumerate(ready_sizes), key=lambda pair: pair[1])"), nudge='Do buckets follow the order in which gradients become ready, or their sizes?'),
    Mutant("bucket_gradients", "counts gradients, not bytes", buckets(counted="1", closes="filled >= cap // 100"), nudge='Is the cap a number of gradients or a number of bytes?'),
    Mutant("bucket_gradients", "fills buckets in parameter order, not ready order", buckets(
        walk="reversed(list(enumerate(ready_sizes)))"), nudge='Which gradients are ready first during backward, and so which fill the first bucket?'),
    Mutant("bucket_gradients", "refuses a cap of 0", buckets(before="if cap <= 0:\n            raise ValueError('cap')"), nudge='With a cap of 0, when does a bucket hold at least cap bytes?'),
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
''', nudge='Whose tensor is the gradient a hook is handed, and what should the hook give back instead?'),
    Mutant("attach_gradient_averaging", "sums the gradients instead of averaging them", averaging(returned="total"), nudge='After an all-reduce with the sum, each rank holds the total: is that the mean DDP keeps?'),
    Mutant("attach_gradient_averaging", "divides by a world size of 2, written down", averaging(world="2"), nudge='How many ranks are in the group this time, and where can your code ask?'),
    Mutant("attach_gradient_averaging", "divides by the whole world's size, not the group's", averaging(world="dist.get_world_size()"), nudge='When the group is a sub-group, whose size counts the gradients being averaged?'),
    Mutant("attach_gradient_averaging", "reduces over the whole world, not the group", averaging(reduce=""), nudge='Which ranks should take part in the all-reduce: every process, or the group you were given?'),
    Mutant("attach_gradient_averaging", "hooks the weights only, not the biases",
           averaging(parameters="[p for p in model.parameters() if p.ndim > 1]"), nudge='Do biases have gradients that differ from rank to rank, too?'),
    Mutant("attach_gradient_averaging", "hooks every layer but the last",
           averaging(parameters="list(model.parameters())[:-2]"), nudge='Which parameters does backward compute gradients for, and are they all hooked?'),
    Mutant("attach_gradient_averaging", "hooks the parameter's data, which autograd never sees", averaging(hooked="parameter.data"), nudge="Does autograd track the tensor behind a parameter's data, or the parameter itself?"),
    Mutant("attach_gradient_averaging", "reduces with MAX instead of SUM",
           averaging(reduce="op=dist.ReduceOp.MAX, group=group"), nudge="Which reduction, divided by the group's size, gives a mean?"),
    Mutant("attach_gradient_averaging", "reduces a copy but keeps the rank's own gradient", averaging(returned="grad"), nudge='Which tensor does autograd keep as the gradient: the one the hook returns, or another?'),
    Mutant("attach_gradient_averaging", "averages the gradients now, before backward made any", '''
import torch
import torch.distributed as dist


def attach_gradient_averaging(model, group):
    for parameter in model.parameters():
        if parameter.grad is not None:
            dist.all_reduce(parameter.grad, group=group)
            parameter.grad /= dist.get_world_size(group)
''', nudge='When attach is called, has backward computed any gradient yet, and what should run later?'),
    Mutant("attach_gradient_averaging", "wraps the model in DistributedDataParallel", '''
from torch.nn.parallel import DistributedDataParallel


def attach_gradient_averaging(model, group):
    DistributedDataParallel(model, process_group=group)
''', nudge='If DDP does the averaging, what is left of the hooks for you to write?'),
    Mutant("attach_gradient_averaging", "calls the reference's launcher", '''
import tensorlab.distributed


def attach_gradient_averaging(model, group):
    return tensorlab.distributed.run(lambda: None, 1)
''', nudge='Where may graded code get its processes and groups from, if not from the library?'),
]

# Found by a fresh attack (issue 26): a frozen parameter, and a collective that writes in place without
# bumping the version counter.
MUTANTS += [
    Mutant('attach_gradient_averaging', 'hooks-on-frozen-parameters-too', '''import torch.distributed as dist


def attach_gradient_averaging(model, group):
    """After each backward, every parameter's grad is the mean of the group's ranks' gradients."""
    ### BEGIN SOLUTION
    world = dist.get_world_size(group)

    def average(grad):
        total = grad.clone()
        dist.all_reduce(total, group=group)
        return total / world

    for parameter in model.parameters():
        parameter.register_hook(average)
    ### END SOLUTION''', nudge='Can a parameter that does not require grad take a gradient hook, and does the statement ask you to average it?'),
    Mutant('attach_gradient_averaging', 'hook-argument-all-reduced-in-place', '''import torch.distributed as dist


def attach_gradient_averaging(model, group):
    """After each backward, every parameter's grad is the mean of the group's ranks' gradients."""
    ### BEGIN SOLUTION
    world = dist.get_world_size(group)

    def average(grad):
        dist.all_reduce(grad, group=group)
        return grad / world

    for parameter in model.parameters():
        if parameter.requires_grad:
            parameter.register_hook(average)
    ### END SOLUTION''', nudge='Whose tensor is the gradient your hook receives, and what does an all-reduce do to the tensor you pass it?'),
]
