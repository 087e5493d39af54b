"""Correct answers of exercise 15 (memory and speed) written other ways than the solution: each must keep full marks."""

from tensorlab.grading import Alternative

ALTERNATIVES = [
    # --- peak_saved_bytes ------------------------------------------------------------------------
    Alternative("peak_saved_bytes", "counter-recompute-live-total", '''
from collections import Counter


def peak_saved_bytes(events):
    """After each event, add up the sizes of the storages that still have a pack outstanding."""
    outstanding = Counter()
    size = {}
    peak = 0
    for kind, storage, nbytes in events:
        size[storage] = nbytes
        outstanding[storage] += 1 if kind == "pack" else -1
        held = sum(size[s] for s, count in outstanding.items() if count > 0)
        peak = max(peak, held)
    return peak
'''),
    Alternative("peak_saved_bytes", "numpy-cumsum-per-storage", '''
import numpy as np


def peak_saved_bytes(events):
    """An events x storages matrix of +1/-1, summed down the time axis: a storage is live where its count is > 0."""
    if not events:
        return 0
    storages = sorted(set(storage for _, storage, _ in events))
    column = {storage: j for j, storage in enumerate(storages)}
    steps = np.zeros((len(events), len(storages)), dtype=np.int64)
    sizes = np.zeros(len(storages), dtype=np.int64)
    for i, (kind, storage, nbytes) in enumerate(events):
        steps[i, column[storage]] = 1 if kind == "pack" else -1
        sizes[column[storage]] = nbytes
    live = np.cumsum(steps, axis=0) > 0
    return int(max(0, (live @ sizes).max()))
'''),
    Alternative("peak_saved_bytes", "live-sizes-summed-after-packs-only", '''
def peak_saved_bytes(events):
    live = {}
    count = {}
    peak = 0
    for kind, storage, nbytes in events:
        count[storage] = count.get(storage, 0) + (1 if kind == "pack" else -1)
        if count[storage] > 0:
            live[storage] = nbytes
        else:
            live.pop(storage, None)
        if kind == "pack":
            peak = max(peak, sum(live.values()))
    return peak
'''),

    # --- checkpoint_plan -------------------------------------------------------------------------
    Alternative("checkpoint_plan", "itertools-product-layer-states", '''
import itertools


def checkpoint_plan(sizes, costs, budget):
    """Label each layer plain (0), first of a segment (1) or inside the current segment (2); try them all."""
    n = len(sizes)
    best, best_cost = None, None
    for labels in itertools.product((0, 1, 2), repeat=n):
        if any(label == 2 and (i == 0 or labels[i - 1] == 0) for i, label in enumerate(labels)):
            continue  # "inside" needs a segment to continue
        plan = []
        for i, label in enumerate(labels):
            if label == 1:
                plan.append([i, i + 1])
            elif label == 2:
                plan[-1][1] = i + 1
        plan = [(start, stop) for start, stop in plan]
        in_segment = [label != 0 for label in labels]
        held = sum(s for s, inside in zip(sizes, in_segment) if not inside) + sum(sizes[a] for a, _ in plan)
        recompute = max([sum(sizes[a + 1:b]) for a, b in plan] + [0])
        if held + recompute > budget:
            continue
        cost = sum(c for c, inside in zip(costs, in_segment) if inside)
        if best_cost is None or cost < best_cost:
            best, best_cost = plan, cost
    return best
'''),
    Alternative("checkpoint_plan", "dp-per-recompute-bound", '''
def checkpoint_plan(sizes, costs, budget):
    """For each bound R on the recomputed bytes, a dynamic programme over the layers:
    state = bytes held after forward, value = the cheapest (cost, plan) reaching it."""
    n = len(sizes)
    bounds = sorted({0} | {sum(sizes[a + 1:b]) for a in range(n) for b in range(a + 1, n + 1)})
    best = None
    for bound in bounds:
        states = [dict() for _ in range(n + 1)]  # states[i][held] = (cost, plan) for layers 0..i-1
        states[0][0] = (0.0, [])
        for i in range(n):
            for held, (cost, plan) in states[i].items():
                options = [(i + 1, held + sizes[i], cost, plan)]  # layer i runs plainly
                for stop in range(i + 1, n + 1):
                    if sum(sizes[i + 1:stop]) <= bound:
                        options.append((stop, held + sizes[i], cost + sum(costs[i:stop]), plan + [(i, stop)]))
                for where, new_held, new_cost, new_plan in options:
                    if new_held + bound > budget:
                        continue
                    old = states[where].get(new_held)
                    if old is None or new_cost < old[0]:
                        states[where][new_held] = (new_cost, new_plan)
        for cost, plan in states[n].values():
            if best is None or cost < best[0]:
                best = (cost, plan)
    return None if best is None else best[1]
'''),
    Alternative("checkpoint_plan", "bitmasks-sorted-by-cost", '''
def checkpoint_plan(sizes, costs, budget):
    """A plan is a bitmask of checkpointed layers plus a bitmask of the layers that start a segment;
    list every valid pair, cheapest first, and return the first plan whose peak fits."""
    n = len(sizes)
    candidates = []
    for inside in range(1 << n):
        run_heads = inside & ~(inside << 1)  # checkpointed layers whose predecessor is not
        for starts in range(1 << n):
            if starts & ~inside or run_heads & ~starts:
                continue
            plan = []
            for i in range(n):
                if starts >> i & 1:
                    stop = i + 1
                    while stop < n and inside >> stop & 1 and not starts >> stop & 1:
                        stop += 1
                    plan.append((i, stop))
            cost = sum(costs[i] for i in range(n) if inside >> i & 1)
            candidates.append((cost, plan, inside))
    candidates.sort(key=lambda entry: entry[0])
    for cost, plan, inside in candidates:
        held = sum(sizes[i] for i in range(n) if not inside >> i & 1) + sum(sizes[a] for a, _ in plan)
        recompute = max([sum(sizes[a + 1:b]) for a, b in plan], default=0)
        if held + recompute <= budget:
            return plan
    return None
'''),

    # --- row_standardise -------------------------------------------------------------------------
    Alternative("row_standardise", "np-std-and-mean", '''
import numpy as np

def row_standardise(x):
    mean = np.mean(x, axis=1, keepdims=True)
    std = np.std(x, axis=1, keepdims=True)  # ddof=0: the population standard deviation
    return (x - mean) / (std + 1e-5)
'''),
    Alternative("row_standardise", "ones-matmul-and-einsum", '''
import numpy as np

def row_standardise(x):
    n = x.shape[1]
    mean = (x @ np.full(n, 1.0 / n))[:, None]
    centred = x - mean
    variance = np.einsum("ij,ij->i", centred, centred) / n
    return centred / (np.sqrt(variance) + 1e-5)[:, None]
'''),
    Alternative("row_standardise", "variance-from-transposed-columns", '''
import numpy as np

def row_standardise(x):
    columns = x.T  # one column per row of x: the statistics reduce along axis 0
    centred = columns - columns.mean(axis=0)
    std = np.sqrt(np.var(columns, axis=0))
    return (centred / (std + 1e-5)).T
'''),

    # --- batched_linear --------------------------------------------------------------------------
    Alternative("batched_linear", "transposed-product", '''
import numpy as np

def batched_linear(rows, weight, bias):
    # weight @ rows.T has one column per row: add bias as a column, then transpose back
    return (weight @ rows.T + bias[:, None]).T
'''),
    Alternative("batched_linear", "broadcast-multiply-sum", '''
import numpy as np

def batched_linear(rows, weight, bias):
    return (rows[:, None, :] * weight[None, :, :]).sum(axis=2) + bias
'''),
    Alternative("batched_linear", "np-inner", '''
import numpy as np

def batched_linear(rows, weight, bias):
    return np.inner(rows, weight) + bias
'''),
    Alternative("batched_linear", "tensordot", '''
import numpy as np

def batched_linear(rows, weight, bias):
    return np.add(np.tensordot(rows, weight, axes=([1], [1])), bias)
'''),
    Alternative('peak_saved_bytes', 'counter-deltas-then-accumulate', '''
from collections import Counter
from itertools import accumulate
def peak_saved_bytes(events):
    live = Counter()
    steps = [0]
    for kind, storage, nbytes in events:
        before = live[storage]
        live[storage] += 1 if kind == "pack" else -1
        steps.append(nbytes if before == 0 and kind == "pack" else -nbytes if live[storage] == 0 else 0)
    return max(accumulate(steps))
'''),
    Alternative('checkpoint_plan', 'product-of-layer-marks', '''
from itertools import product
def checkpoint_plan(sizes, costs, budget):
    n = len(sizes)
    best = None
    # each layer: 0 plain, 1 starts a segment, 2 continues the segment before it
    for marks in product((0, 1, 2), repeat=n):
        if any(m == 2 and (i == 0 or marks[i - 1] == 0) for i, m in enumerate(marks)):
            continue
        plan, i = [], 0
        while i < n:
            if marks[i] == 1:
                j = i + 1
                while j < n and marks[j] == 2:
                    j += 1
                plan.append((i, j))
                i = j
            else:
                i += 1
        inside = set(k for a, b in plan for k in range(a, b))
        peak = sum(s for k, s in enumerate(sizes) if k not in inside) + sum(sizes[a] for a, _ in plan)
        peak += max([sum(sizes[a + 1:b]) for a, b in plan] + [0])
        cost = sum(sum(costs[a:b]) for a, b in plan)
        if peak <= budget and (best is None or cost < best[0]):
            best = (cost, plan)
    return None if best is None else best[1]
'''),
]
