"""Mutants of exercise 15 (memory and speed): plausible wrong versions of each graded function."""

from tensorlab.grading.tasks import Mutant

PEAK = "\ndef peak_saved_bytes(events):\n"
PEAK_SAVED_BYTES = [
    Mutant("peak_saved_bytes", "counts-every-pack", PEAK + '''
    held = peak = 0
    for kind, storage, nbytes in events:
        held += nbytes if kind == "pack" else -nbytes
        peak = max(peak, held)
    return peak
'''),
    Mutant("peak_saved_bytes", "frees-on-first-unpack", PEAK + '''
    live = {}
    peak = 0
    for kind, storage, nbytes in events:
        if kind == "pack":
            live[storage] = nbytes
        else:
            live.pop(storage, None)
        peak = max(peak, sum(live.values()))
    return peak
'''),
    Mutant("peak_saved_bytes", "total-at-the-end", PEAK + '''
    outstanding = {}
    held = 0
    for kind, storage, nbytes in events:
        if kind == "pack":
            if outstanding.get(storage, 0) == 0:
                held += nbytes
            outstanding[storage] = outstanding.get(storage, 0) + 1
        else:
            outstanding[storage] -= 1
            if outstanding[storage] == 0:
                held -= nbytes
    return held
'''),
    Mutant("peak_saved_bytes", "ignores-unpacks", PEAK + '''
    return sum({storage: nbytes for kind, storage, nbytes in events if kind == "pack"}.values())
'''),
    Mutant("peak_saved_bytes", "sum-of-all-packs", PEAK + '''
    return sum(nbytes for kind, _, nbytes in events if kind == "pack")
'''),
    Mutant("peak_saved_bytes", "empty-raises", PEAK + '''
    outstanding, held, totals = {}, 0, []
    for kind, storage, nbytes in events:
        if kind == "pack":
            if outstanding.get(storage, 0) == 0:
                held += nbytes
            outstanding[storage] = outstanding.get(storage, 0) + 1
        else:
            outstanding[storage] -= 1
            if outstanding[storage] == 0:
                held -= nbytes
        totals.append(held)
    return max(totals)
'''),
    Mutant("peak_saved_bytes", "peak-before-the-event", PEAK + '''
    outstanding = {}
    held = peak = 0
    for kind, storage, nbytes in events:
        peak = max(peak, held)
        if kind == "pack":
            if outstanding.get(storage, 0) == 0:
                held += nbytes
            outstanding[storage] = outstanding.get(storage, 0) + 1
        else:
            outstanding[storage] -= 1
            if outstanding[storage] == 0:
                held -= nbytes
    return peak
'''),
    Mutant("peak_saved_bytes", "largest-single-storage", PEAK + '''
    return max([nbytes for kind, _, nbytes in events if kind == "pack"], default=0)
'''),
    Mutant("peak_saved_bytes", "calls-the-reference", '''
from autograder.exercise import find_task  # the answer key, where the instructor keeps it
peak_saved_bytes_reference = find_task("peak_saved_bytes").reference

def peak_saved_bytes(events):
    return peak_saved_bytes_reference(events)
'''),
]

PLAN_HEAD = '''
def checkpoint_plan(sizes, costs, budget):
    def plans(start):
        if start >= len(sizes):
            return [[]]
        found = list(plans(start + 1))
        for stop in range(start + 1, len(sizes) + 1):
            found += [[(start, stop), *rest] for rest in plans(stop)]
        return found

    def cost(plan):
        return sum(sum(costs[start:stop]) for start, stop in plan)
'''
RIGHT_PEAK = '''
    def peak(plan):
        inside = {i for start, stop in plan for i in range(start, stop)}
        held = sum(s for i, s in enumerate(sizes) if i not in inside) + sum(sizes[start] for start, _ in plan)
        return held + max((sum(sizes[start + 1:stop]) for start, stop in plan), default=0)
'''
CHOOSE = '''
    fitting = [plan for plan in plans(0) if peak(plan) <= budget]
    return min(fitting, key=cost) if fitting else None
'''
CHECKPOINT_PLAN = [
    Mutant("checkpoint_plan", "forgets-the-recompute-peak", PLAN_HEAD + '''
    def peak(plan):
        inside = {i for start, stop in plan for i in range(start, stop)}
        return sum(s for i, s in enumerate(sizes) if i not in inside) + sum(sizes[start] for start, _ in plan)
''' + CHOOSE),
    Mutant("checkpoint_plan", "segment-keeps-nothing", PLAN_HEAD + '''
    def peak(plan):
        inside = {i for start, stop in plan for i in range(start, stop)}
        held = sum(s for i, s in enumerate(sizes) if i not in inside)
        return held + max((sum(sizes[start + 1:stop]) for start, stop in plan), default=0)
''' + CHOOSE),
    Mutant("checkpoint_plan", "budget-strict", PLAN_HEAD + RIGHT_PEAK + '''
    fitting = [plan for plan in plans(0) if peak(plan) < budget]
    return min(fitting, key=cost) if fitting else None
'''),
    Mutant("checkpoint_plan", "empty-list-when-nothing-fits", PLAN_HEAD + RIGHT_PEAK + '''
    fitting = [plan for plan in plans(0) if peak(plan) <= budget]
    return min(fitting, key=cost) if fitting else []
'''),
    Mutant("checkpoint_plan", "first-plan-that-fits", PLAN_HEAD + RIGHT_PEAK + '''
    fitting = [plan for plan in plans(0) if peak(plan) <= budget]
    return fitting[0] if fitting else None
'''),
    Mutant("checkpoint_plan", "fewest-segments-not-cheapest", PLAN_HEAD + RIGHT_PEAK + '''
    fitting = [plan for plan in plans(0) if peak(plan) <= budget]
    return min(fitting, key=len) if fitting else None
'''),
    Mutant("checkpoint_plan", "inclusive-stop", PLAN_HEAD + RIGHT_PEAK + '''
    fitting = [plan for plan in plans(0) if peak(plan) <= budget]
    best = min(fitting, key=cost) if fitting else None
    return None if best is None else [(start, stop - 1) for start, stop in best]
'''),
    Mutant("checkpoint_plan", "one-segment-at-most", PLAN_HEAD + RIGHT_PEAK + '''
    fitting = [plan for plan in plans(0) if len(plan) <= 1 and peak(plan) <= budget]
    return min(fitting, key=cost) if fitting else None
'''),
    Mutant("checkpoint_plan", "recompute-counts-the-input-twice", PLAN_HEAD + '''
    def peak(plan):
        inside = {i for start, stop in plan for i in range(start, stop)}
        held = sum(s for i, s in enumerate(sizes) if i not in inside) + sum(sizes[start] for start, _ in plan)
        return held + max((sum(sizes[start:stop]) for start, stop in plan), default=0)
''' + CHOOSE),
    Mutant("checkpoint_plan", "calls-the-reference", '''
from autograder.exercise import find_task  # the answer key, where the instructor keeps it
checkpoint_plan_reference = find_task("checkpoint_plan").reference

def checkpoint_plan(sizes, costs, budget):
    return checkpoint_plan_reference(sizes, costs, budget)
'''),
]

ROWS = "\ndef row_standardise(x):\n"
ROW_STANDARDISE = [
    Mutant("row_standardise", "sample-std", ROWS + '''
    centred = x - x.mean(axis=1, keepdims=True)
    return centred / (x.std(axis=1, ddof=1, keepdims=True) + 1e-5)
'''),
    Mutant("row_standardise", "columns-not-rows", ROWS + '''
    centred = x - x.mean(axis=0, keepdims=True)
    return centred / (np.sqrt((centred * centred).mean(axis=0, keepdims=True)) + 1e-5)
'''),
    Mutant("row_standardise", "forgets-epsilon", ROWS + '''
    centred = x - x.mean(axis=1, keepdims=True)
    return centred / np.sqrt((centred * centred).mean(axis=1, keepdims=True))
'''),
    Mutant("row_standardise", "epsilon-inside-the-root", ROWS + '''
    centred = x - x.mean(axis=1, keepdims=True)
    return centred / np.sqrt((centred * centred).mean(axis=1, keepdims=True) + 1e-5)
'''),
    Mutant("row_standardise", "only-centres", ROWS + '''
    return x - x.mean(axis=1, keepdims=True)
'''),
    Mutant("row_standardise", "whole-array-statistics", ROWS + '''
    return (x - x.mean()) / (x.std() + 1e-5)
'''),
    Mutant("row_standardise", "mean-of-first-row", ROWS + '''
    centred = x - x[:1].mean()
    return centred / (np.sqrt((centred * centred).mean(axis=1, keepdims=True)) + 1e-5)
'''),
    Mutant("row_standardise", "loop-without-for", ROWS + '''
    rows = list(map(lambda r: (r - r.mean()) / (r.std() + 1e-5), x))
    return np.array(rows).reshape(x.shape)
'''),
    Mutant("row_standardise", "while-loop", ROWS + '''
    out = np.empty_like(x)
    i = 0
    while i < x.shape[0]:
        r = x[i]
        out[i] = (r - r.mean()) / (r.std() + 1e-5)
        i += 1
    return out
'''),
    Mutant("row_standardise", "calls-tensorlab", '''
import tensorlab

def row_standardise(x):
    t = tensorlab.tensor(x)
    centred = t - t.mean(dim=1, keepdim=True)
    return ((centred) / ((centred * centred).mean(dim=1, keepdim=True).sqrt() + 1e-5)).numpy()
'''),
]

LINEAR = "\ndef batched_linear(rows, weight, bias):\n"
BATCHED_LINEAR = [
    Mutant("batched_linear", "weight-not-transposed", LINEAR + '''
    return rows @ weight + bias
'''),
    Mutant("batched_linear", "forgets-bias", LINEAR + '''
    return rows @ weight.T
'''),
    Mutant("batched_linear", "transposed-result", LINEAR + '''
    return (weight @ rows.T + bias[:, None])
'''),
    Mutant("batched_linear", "bias-per-row", LINEAR + '''
    return rows @ weight.T + bias[: rows.shape[0], None]
'''),
    Mutant("batched_linear", "elementwise-product", LINEAR + '''
    return (rows * weight).sum(axis=1, keepdims=True) + bias
'''),
    Mutant("batched_linear", "einsum", LINEAR + '''
    return np.einsum("ni,oi->no", rows, weight) + bias
'''),
    Mutant("batched_linear", "loop-without-for", LINEAR + '''
    return np.array(list(map(lambda r: weight @ r + bias, rows))).reshape(rows.shape[0], weight.shape[0])
'''),
    Mutant("batched_linear", "while-loop", LINEAR + '''
    out = np.empty((rows.shape[0], weight.shape[0]))
    i = 0
    while i < rows.shape[0]:
        out[i] = weight @ rows[i] + bias
        i += 1
    return out
'''),
    Mutant("batched_linear", "calls-torch", '''
import torch

def batched_linear(rows, weight, bias):
    return torch.nn.functional.linear(torch.tensor(rows), torch.tensor(weight), torch.tensor(bias)).numpy()
'''),
]

# found attacking the allow-lists and the statement (issue 26)
MORE = [
    Mutant("peak_saved_bytes", "counts per size, not per storage", '''
def peak_saved_bytes(events):
    outstanding = {}
    held = peak = 0
    for kind, storage, nbytes in events:
        if kind == "pack":
            if outstanding.get(nbytes, 0) == 0:
                held += nbytes
            outstanding[nbytes] = outstanding.get(nbytes, 0) + 1
        else:
            outstanding[nbytes] -= 1
            if outstanding[nbytes] == 0:
                held -= nbytes
        peak = max(peak, held)
    return peak
'''),
    Mutant("peak_saved_bytes", "a NumPy integer where a Python int is promised", '''
import numpy as np
def peak_saved_bytes(events):
    outstanding = {}
    held = 0
    totals = [0]
    for kind, storage, nbytes in events:
        if kind == "pack":
            if outstanding.get(storage, 0) == 0:
                held += nbytes
            outstanding[storage] = outstanding.get(storage, 0) + 1
        else:
            outstanding[storage] -= 1
            if outstanding[storage] == 0:
                held -= nbytes
        totals.append(held)
    return np.max(np.array(totals))
'''),
    Mutant("checkpoint_plan", "recomputation counts only each segment's first layer", '''
def checkpoint_plan(sizes, costs, budget):
    def plans(start):
        if start >= len(sizes):
            return [[]]
        found = list(plans(start + 1))
        for stop in range(start + 1, len(sizes) + 1):
            found += [[(start, stop), *rest] for rest in plans(stop)]
        return found

    def peak(plan):
        inside = {i for start, stop in plan for i in range(start, stop)}
        held = sum(s for i, s in enumerate(sizes) if i not in inside) + sum(sizes[start] for start, _ in plan)
        return held + max((sum(sizes[start + 1:stop]) for start, stop in plan), default=0)

    def cost(plan):
        return sum(costs[start] for start, stop in plan)

    fitting = [plan for plan in plans(0) if peak(plan) <= budget]
    return min(fitting, key=cost) if fitting else None
'''),
    Mutant("checkpoint_plan", "segments as lists, not (start, stop) tuples", '''
def checkpoint_plan(sizes, costs, budget):
    def plans(start):
        if start >= len(sizes):
            return [[]]
        found = list(plans(start + 1))
        for stop in range(start + 1, len(sizes) + 1):
            found += [[[start, stop], *rest] for rest in plans(stop)]
        return found

    def peak(plan):
        inside = {i for start, stop in plan for i in range(start, stop)}
        held = sum(s for i, s in enumerate(sizes) if i not in inside) + sum(sizes[start] for start, _ in plan)
        return held + max((sum(sizes[start + 1:stop]) for start, stop in plan), default=0)

    def cost(plan):
        return sum(sum(costs[start:stop]) for start, stop in plan)

    fitting = [plan for plan in plans(0) if peak(plan) <= budget]
    return min(fitting, key=cost) if fitting else None
'''),
    Mutant("checkpoint_plan", "every segment's recompute held at once", '''
def checkpoint_plan(sizes, costs, budget):
    def plans(start):
        if start >= len(sizes):
            return [[]]
        found = list(plans(start + 1))
        for stop in range(start + 1, len(sizes) + 1):
            found += [[(start, stop), *rest] for rest in plans(stop)]
        return found

    def peak(plan):
        inside = {i for start, stop in plan for i in range(start, stop)}
        held = sum(s for i, s in enumerate(sizes) if i not in inside) + sum(sizes[start] for start, _ in plan)
        return held + sum(sum(sizes[start + 1:stop]) for start, stop in plan)

    def cost(plan):
        return sum(sum(costs[start:stop]) for start, stop in plan)

    fitting = [plan for plan in plans(0) if peak(plan) <= budget]
    return min(fitting, key=cost) if fitting else None
'''),
]

MUTANTS = PEAK_SAVED_BYTES + CHECKPOINT_PLAN + ROW_STANDARDISE + BATCHED_LINEAR + MORE
