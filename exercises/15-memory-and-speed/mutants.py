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
''', nudge="When two saved tensors share one storage, how many times do its bytes take up memory?"),
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
''', nudge="When a storage was packed twice, is its memory free after the first of its two unpacks?"),
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
''', nudge="Is the peak what is held after the last event, or the most held at any moment along the way?"),
    Mutant("peak_saved_bytes", "ignores-unpacks", PEAK + '''
    return sum({storage: nbytes for kind, storage, nbytes in events if kind == "pack"}.values())
''', nudge="What happens to the total held when backward unpacks a storage's last saved tensor?"),
    Mutant("peak_saved_bytes", "sum-of-all-packs", PEAK + '''
    return sum(nbytes for kind, _, nbytes in events if kind == "pack")
''', nudge="Is everything ever packed held at the same moment, even when storages are shared or released?"),
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
''', nudge="With no events at all, what is the most ever held, and does your code get there?"),
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
''', nudge="Do you look at the total held after the last event as well?"),
    Mutant("peak_saved_bytes", "largest-single-storage", PEAK + '''
    return max([nbytes for kind, _, nbytes in events if kind == "pack"], default=0)
''', nudge="Can several storages be held at the same moment?"),
    Mutant("peak_saved_bytes", "calls-the-reference", '''
from autograder.exercise import find_task  # the answer key, where the instructor keeps it
peak_saved_bytes_reference = find_task("peak_saved_bytes").reference

def peak_saved_bytes(events):
    return peak_saved_bytes_reference(events)
''', nudge="Which parts of this exercise are yours to write, and which code is off limits here?"),
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
''' + CHOOSE,
        nudge="While a segment is recomputed during backward, where do its other layers' activations live?"),
    Mutant("checkpoint_plan", "segment-keeps-nothing", PLAN_HEAD + '''
    def peak(plan):
        inside = {i for start, stop in plan for i in range(start, stop)}
        held = sum(s for i, s in enumerate(sizes) if i not in inside)
        return held + max((sum(sizes[start + 1:stop]) for start, stop in plan), default=0)
''' + CHOOSE,
        nudge="What does a checkpointed segment keep, so that it can recompute its layers?"),
    Mutant("checkpoint_plan", "budget-strict", PLAN_HEAD + RIGHT_PEAK + '''
    fitting = [plan for plan in plans(0) if peak(plan) < budget]
    return min(fitting, key=cost) if fitting else None
''', nudge="Does a plan whose peak equals the budget fit?"),
    Mutant("checkpoint_plan", "empty-list-when-nothing-fits", PLAN_HEAD + RIGHT_PEAK + '''
    fitting = [plan for plan in plans(0) if peak(plan) <= budget]
    return min(fitting, key=cost) if fitting else []
''', nudge="Is an empty plan the same as no plan at all, when even checkpointing everything does not fit?"),
    Mutant("checkpoint_plan", "first-plan-that-fits", PLAN_HEAD + RIGHT_PEAK + '''
    fitting = [plan for plan in plans(0) if peak(plan) <= budget]
    return fitting[0] if fitting else None
''', nudge="Of all the plans that fit, which one does the statement ask for?"),
    Mutant("checkpoint_plan", "fewest-segments-not-cheapest", PLAN_HEAD + RIGHT_PEAK + '''
    fitting = [plan for plan in plans(0) if peak(plan) <= budget]
    return min(fitting, key=len) if fitting else None
''', nudge="Is a plan with fewer segments necessarily one with less recomputation?"),
    Mutant("checkpoint_plan", "inclusive-stop", PLAN_HEAD + RIGHT_PEAK + '''
    fitting = [plan for plan in plans(0) if peak(plan) <= budget]
    best = min(fitting, key=cost) if fitting else None
    return None if best is None else [(start, stop - 1) for start, stop in best]
''', nudge="Is the stop of a segment the last layer in it, or the first one after it?"),
    Mutant("checkpoint_plan", "one-segment-at-most", PLAN_HEAD + RIGHT_PEAK + '''
    fitting = [plan for plan in plans(0) if len(plan) <= 1 and peak(plan) <= budget]
    return min(fitting, key=cost) if fitting else None
''', nudge="Can a plan with two or more segments fit a budget that one segment cannot?"),
    Mutant("checkpoint_plan", "recompute-counts-the-input-twice", PLAN_HEAD + '''
    def peak(plan):
        inside = {i for start, stop in plan for i in range(start, stop)}
        held = sum(s for i, s in enumerate(sizes) if i not in inside) + sum(sizes[start] for start, _ in plan)
        return held + max((sum(sizes[start:stop]) for start, stop in plan), default=0)
''' + CHOOSE,
        nudge="While a segment is recomputed, is its first layer's activation an extra one, or the one already kept?"),
    Mutant("checkpoint_plan", "calls-the-reference", '''
from autograder.exercise import find_task  # the answer key, where the instructor keeps it
checkpoint_plan_reference = find_task("checkpoint_plan").reference

def checkpoint_plan(sizes, costs, budget):
    return checkpoint_plan_reference(sizes, costs, budget)
''', nudge="Which parts of this exercise are yours to write, and which code is off limits here?"),
]

ROWS = "\ndef row_standardise(x):\n"
ROW_STANDARDISE = [
    Mutant("row_standardise", "sample-std", ROWS + '''
    centred = x - x.mean(axis=1, keepdims=True)
    return centred / (x.std(axis=1, ddof=1, keepdims=True) + 1e-5)
''', nudge="Does the statement ask for the population standard deviation or the sample one, and what do you divide by?"),
    Mutant("row_standardise", "columns-not-rows", ROWS + '''
    centred = x - x.mean(axis=0, keepdims=True)
    return centred / (np.sqrt((centred * centred).mean(axis=0, keepdims=True)) + 1e-5)
''', nudge="Which axis runs along a row?"),
    Mutant("row_standardise", "forgets-epsilon", ROWS + '''
    centred = x - x.mean(axis=1, keepdims=True)
    return centred / np.sqrt((centred * centred).mean(axis=1, keepdims=True))
''', nudge="What happens to a row whose values are all equal when you divide by its standard deviation?"),
    Mutant("row_standardise", "epsilon-inside-the-root", ROWS + '''
    centred = x - x.mean(axis=1, keepdims=True)
    return centred / np.sqrt((centred * centred).mean(axis=1, keepdims=True) + 1e-5)
''', nudge="Is the small constant added to the variance or to the standard deviation?"),
    Mutant("row_standardise", "only-centres", ROWS + '''
    return x - x.mean(axis=1, keepdims=True)
''', nudge="After subtracting each row's mean, is the row standardised yet?"),
    Mutant("row_standardise", "whole-array-statistics", ROWS + '''
    return (x - x.mean()) / (x.std() + 1e-5)
''', nudge="Is each row standardised with its own mean and deviation, or with the whole array's?"),
    Mutant("row_standardise", "mean-of-first-row", ROWS + '''
    centred = x - x[:1].mean()
    return centred / (np.sqrt((centred * centred).mean(axis=1, keepdims=True)) + 1e-5)
''', nudge="Whose mean should each row have subtracted from it?"),
    Mutant("row_standardise", "loop-without-for", ROWS + '''
    rows = list(map(lambda r: (r - r.mean()) / (r.std() + 1e-5), x))
    return np.array(rows).reshape(x.shape)
''', nudge="Is a map over the rows anything other than a Python loop, and what would whole-array operations do instead?"),
    Mutant("row_standardise", "while-loop", ROWS + '''
    out = np.empty_like(x)
    i = 0
    while i < x.shape[0]:
        r = x[i]
        out[i] = (r - r.mean()) / (r.std() + 1e-5)
        i += 1
    return out
''', nudge="Is a while loop over the rows anything other than a Python loop, and what would whole-array operations do instead?"),
    Mutant("row_standardise", "calls-tensorlab", '''
import tensorlab

def row_standardise(x):
    t = tensorlab.tensor(x)
    centred = t - t.mean(dim=1, keepdim=True)
    return ((centred) / ((centred * centred).mean(dim=1, keepdim=True).sqrt() + 1e-5)).numpy()
''', nudge="Which libraries may this part use, and is tensorlab one of them?"),
]

LINEAR = "\ndef batched_linear(rows, weight, bias):\n"
BATCHED_LINEAR = [
    Mutant("batched_linear", "weight-not-transposed", LINEAR + '''
    return rows @ weight + bias
''', nudge="Weight is stored as outputs by inputs: which way round must it meet a batch of rows, even when it is square?"),
    Mutant("batched_linear", "forgets-bias", LINEAR + '''
    return rows @ weight.T
''', nudge="Where does the bias enter each row of the result?"),
    Mutant("batched_linear", "transposed-result", LINEAR + '''
    return (weight @ rows.T + bias[:, None])
''', nudge="What shape should the result have: samples by outputs, or outputs by samples?"),
    Mutant("batched_linear", "bias-per-row", LINEAR + '''
    return rows @ weight.T + bias[: rows.shape[0], None]
''', nudge="Does the bias have one entry per sample or one per output?"),
    Mutant("batched_linear", "elementwise-product", LINEAR + '''
    return (rows * weight).sum(axis=1, keepdims=True) + bias
''', nudge="Is a matrix product the same as multiplying element by element and summing?"),
    Mutant("batched_linear", "einsum", LINEAR + '''
    return np.einsum("ni,oi->no", rows, weight) + bias
''', nudge="Which functions does this part allow, and is einsum among them?"),
    Mutant("batched_linear", "loop-without-for", LINEAR + '''
    return np.array(list(map(lambda r: weight @ r + bias, rows))).reshape(rows.shape[0], weight.shape[0])
''', nudge="Is a map over the rows anything other than a Python loop, and what would a single matrix product do instead?"),
    Mutant("batched_linear", "while-loop", LINEAR + '''
    out = np.empty((rows.shape[0], weight.shape[0]))
    i = 0
    while i < rows.shape[0]:
        out[i] = weight @ rows[i] + bias
        i += 1
    return out
''', nudge="Is a while loop over the rows anything other than a Python loop, and what would a single matrix product do instead?"),
    Mutant("batched_linear", "calls-torch", '''
import torch

def batched_linear(rows, weight, bias):
    return torch.nn.functional.linear(torch.tensor(rows), torch.tensor(weight), torch.tensor(bias)).numpy()
''', nudge="Which libraries may this part use, and may torch compute the layer for you?"),
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
''', nudge="Which field tells you that two saved tensors share memory: the storage or the size?"),
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
''', nudge="What type does the statement promise the result will be, and what does a NumPy reduction return?"),
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
''', nudge="When a segment is recomputed, which of its layers run again?"),
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
''', nudge="In what type does the statement ask each segment to come back?"),
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
''', nudge="During backward, are the segments recomputed all at once, or one after another?"),
]

# Found by a fresh attack (issue 26): a trace that stops partway through backward.
STOPPED_IN_BACKWARD = [
    Mutant("peak_saved_bytes", "total-at-the-end-when-backward-stopped", '''def peak_saved_bytes(events):
    """The most bytes saved tensors hold at once, each storage counted once."""
    ### BEGIN SOLUTION
    outstanding = {}
    held = peak = 0
    for kind, storage, nbytes in events:
        if kind == "pack":
            if outstanding.get(storage, 0) == 0:
                held += nbytes
            outstanding[storage] = outstanding.get(storage, 0) + 1
        else:
            outstanding[storage] -= 1
            if outstanding[storage] == 0:
                held -= nbytes
        peak = max(peak, held)
    return held if events and events[-1][0] == 'unpack' and held else peak
    ### END SOLUTION''',
           nudge="If backward stops halfway, is what is still held the most that was ever held?"),
]

MUTANTS = PEAK_SAVED_BYTES + CHECKPOINT_PLAN + ROW_STANDARDISE + BATCHED_LINEAR + MORE + STOPPED_IN_BACKWARD
