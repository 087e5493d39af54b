"""Unit 15, memory and speed: a saved-bytes meter, a checkpoint plan under a memory budget, and two
slow patterns rewritten without Python loops.

The meter's events are what a ``saved_tensors_hooks`` pair sees (``tests/test_grading_checks.py``
replays a real torch forward and backward through it). The plan's memory model is the one of the
walkthrough: a plain layer keeps its activation, a checkpointed segment keeps only its first
layer's activation (its input) and, in backward, holds all of its activations again while it is
recomputed.
"""

from __future__ import annotations

import numpy as np

from tensorlab.grading.compare import Tolerance
from tensorlab.grading.tasks import Clause, Exercise, Task

__all__ = ["EXERCISE", "BATCHED_LINEAR", "CHECKPOINT_PLAN", "PEAK_SAVED_BYTES", "ROW_STANDARDISE"]

Event = tuple[str, int, int]
Plan = list[tuple[int, int]]


# --- 1. the meter -------------------------------------------------------------------------------
def peak_saved_bytes_reference(events: list[Event]) -> int:
    """Each storage counts once while at least one of its packs has not been unpacked."""
    outstanding: dict[int, int] = {}
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
    return peak


def random_events_case(rng: np.random.Generator) -> tuple[list[Event]]:
    """Packs of a few storages (some packed twice), unpacks interleaved after some packs."""
    n = int(rng.integers(0, 7))
    sizes = [int(rng.integers(1, 9)) * 4 for _ in range(n)]
    packs = [s for s in range(n) for _ in range(int(rng.integers(1, 3)))]
    rng.shuffle(packs)
    events: list[Event] = []
    pending: list[int] = []
    for storage in packs:
        events.append(("pack", storage, sizes[storage]))
        pending.append(storage)
        if rng.random() < 0.35:
            done = pending.pop(int(rng.integers(len(pending))))
            events.append(("unpack", done, sizes[done]))
    order = rng.permutation(len(pending)) if rng.random() < 0.5 else np.arange(len(pending))[::-1]
    events += [("unpack", pending[i], sizes[pending[i]]) for i in order]
    if rng.random() < 0.2:  # forward only: the trace ends with the packs still held
        events = [event for event in events if event[0] == "pack"]
    return (events,)


# --- 2. the plan ----------------------------------------------------------------------------------
def plan_peak(sizes: list[int], plan: Plan) -> int:
    """Bytes held after forward, plus the largest segment recomputed in backward."""
    checkpointed = {i for start, stop in plan for i in range(start, stop)}
    held = sum(size for i, size in enumerate(sizes) if i not in checkpointed) + sum(sizes[start] for start, _ in plan)
    recompute = max((sum(sizes[start + 1 : stop]) for start, stop in plan), default=0)
    return held + recompute


def plan_cost(costs: list[float], plan: Plan) -> float:
    return sum(sum(costs[start:stop]) for start, stop in plan)


def _plans(n: int, start: int = 0) -> list[Plan]:
    """Every way to mark disjoint runs of layers start..n-1 as checkpointed segments."""
    if start >= n:
        return [[]]
    plans = list(_plans(n, start + 1))  # layer `start` runs plainly
    for stop in range(start + 1, n + 1):
        plans += [[(start, stop), *rest] for rest in _plans(n, stop)]
    return plans


def checkpoint_plan_reference(sizes: list[int], costs: list[float], budget: int) -> list[Plan | None]:
    """Every right answer: the plans that fit the budget with the least recomputation ([None] if none fits).

    The task's acceptor takes any of them, so a search that finds another plan of the same cost is right.
    """
    fitting = [plan for plan in _plans(len(sizes)) if plan_peak(sizes, plan) <= budget]
    if not fitting:
        return [None]
    least = min(plan_cost(costs, plan) for plan in fitting)
    return sorted(plan for plan in fitting if plan_cost(costs, plan) <= least + 1e-9)


def random_plan_case(rng: np.random.Generator) -> tuple[list[int], list[float], int]:
    n = int(rng.integers(1, 8))
    sizes = [int(rng.integers(1, 10)) * 8 for _ in range(n)]
    costs = [float(rng.integers(1, 6)) for _ in range(n)]
    lowest = min(plan_peak(sizes, plan) for plan in _plans(n))
    budget = int(rng.integers(lowest - 8, sum(sizes) + 1)) if rng.random() < 0.9 else lowest - 1
    return sizes, costs, budget


# --- 3. and 4. slow patterns, vectorised ------------------------------------------------------------
def row_standardise_reference(x: np.ndarray) -> np.ndarray:
    import tensorlab

    t = tensorlab.tensor(np.ascontiguousarray(x))
    mean = t.mean(dim=1, keepdim=True)
    centred = t - mean
    std = (centred * centred).mean(dim=1, keepdim=True).sqrt()
    return np.asarray((centred / (std + 1e-5)).numpy().copy())


def batched_linear_reference(rows: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    import tensorlab

    layer = tensorlab.nn.functional.linear
    return np.asarray(layer(tensorlab.tensor(np.ascontiguousarray(rows)), tensorlab.tensor(np.ascontiguousarray(weight)),
                            tensorlab.tensor(np.ascontiguousarray(bias))).numpy().copy())


def _maybe_strided(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    if rng.random() < 0.25:
        return rng.standard_normal((shape[1], shape[0])).T
    return rng.standard_normal(shape)


def random_rows_case(rng: np.random.Generator) -> tuple[np.ndarray]:
    shape = (int(rng.integers(0, 6)), int(rng.integers(1, 7)))
    return (_maybe_strided(rng, shape) * rng.integers(1, 100),)


def large_rows_case(rng: np.random.Generator) -> tuple[np.ndarray]:
    return (rng.standard_normal((2000, 8)),)


def random_linear_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n, i, o = int(rng.integers(0, 6)), int(rng.integers(1, 6)), int(rng.integers(1, 6))
    return _maybe_strided(rng, (n, i)), _maybe_strided(rng, (o, i)), rng.standard_normal(o)


def large_linear_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return rng.standard_normal((2000, 4)), rng.standard_normal((3, 4)), rng.standard_normal(3)


# the allow-lists: what each part may use besides rules.COMMON_NAMES (the notebook lists them too)
PEAK_ALLOWED = ("get", "items", "values", "keys", "pop", "append", "setdefault", "sum", "sorted", "set", "Counter",
                "defaultdict", "accumulate", "array", "zeros", "cumsum", "matmul")
PLAN_ALLOWED = ("sum", "sorted", "set", "append", "extend", "pop", "sort", "items", "values", "get", "product",
                "combinations", "chain", "lru_cache", "cache")
ROWS_ALLOWED = ("mean", "std", "var", "sqrt", "sum", "square", "full", "ones", "einsum", "matmul", "reshape",
                "expand_dims", "transpose")
LINEAR_ALLOWED = ("matmul", "dot", "inner", "tensordot", "transpose", "add", "sum", "reshape", "expand_dims")

SHARED = [("pack", 0, 32), ("pack", 0, 32), ("unpack", 0, 32), ("unpack", 0, 32)]
PEAK_SAVED_BYTES = Task(
    name="peak_saved_bytes", reference=peak_saved_bytes_reference,
    examples=[([("pack", 0, 16), ("pack", 1, 8), ("unpack", 1, 8), ("unpack", 0, 16)],)],
    clauses=[
        Clause("a storage packed twice counts once", (SHARED,)),
        Clause("its bytes are freed only when its last pack is unpacked",
               ([("pack", 0, 32), ("pack", 0, 32), ("unpack", 0, 32), ("pack", 1, 8), ("unpack", 0, 32), ("unpack", 1, 8)],)),
        Clause("the largest total held at any moment, not the total at the end",
               ([("pack", 0, 40), ("unpack", 0, 40), ("pack", 1, 8), ("pack", 2, 8)],)),
        Clause("the largest total held at any moment, not the total at the end",
               ([("pack", 0, 8), ("unpack", 0, 8), ("pack", 1, 16), ("pack", 2, 24), ("unpack", 2, 24), ("unpack", 1, 16)],)),
        Clause("no events: 0", ([],)),
        Clause("the largest total held at any moment (a trace may stop before backward)", ([("pack", 0, 8), ("pack", 1, 16)],)),
        Clause("the largest total held at any moment, not the total at the end (a trace may stop partway through backward)",
               ([("pack", 0, 8), ("pack", 1, 16), ("unpack", 1, 16)],)),
    ],
    random_case=random_events_case, allowed=PEAK_ALLOWED,
    inputs="traces of 0 to 6 storages (ints from 0), each packed once or twice, with sizes that are multiples of 4 "
    "bytes, unpacks interleaved in any order, and traces that stop before backward (packs only).",
    hint="When a storage is packed twice, which of its unpacks gives its bytes back, and at which moments can the "
    "total you hold reach its highest?",
)
CHECKPOINT_PLAN = Task(
    name="checkpoint_plan", reference=checkpoint_plan_reference,
    examples=[([8, 8, 8, 8], [1.0, 1.0, 1.0, 1.0], 32), ([8, 8, 8, 8], [1.0, 1.0, 1.0, 1.0], 24)],
    clauses=[
        Clause("a checkpointed segment keeps only its first layer's activation", ([16, 8, 8], [1.0, 1.0, 1.0], 24)),
        Clause("plus, while it is recomputed, the activations of its other layers", ([8, 16, 16, 8], [1.0, 1.0, 1.0, 1.0], 40)),
        Clause("the least recomputation (the sum of the costs of the checkpointed layers)",
               ([8, 8, 8, 8], [5.0, 1.0, 1.0, 5.0], 24)),
        Clause("the least recomputation (the sum of the costs of the checkpointed layers)",
               ([8, 24, 8, 8, 8], [1.0, 9.0, 1.0, 1.0, 1.0], 48)),
        Clause("the least recomputation (the sum of the costs of the checkpointed layers)",
               ([16, 16, 16, 8, 8], [4.0, 5.0, 5.0, 4.0, 3.0], 59)),
        Clause("a peak equal to the budget fits", ([8, 8, 8], [1.0, 1.0, 1.0], 24)),
        Clause("None when no plan fits", ([8, 8, 8], [1.0, 1.0, 1.0], 15)),
        Clause("stop is exclusive: the segment (1, 3) is layers 1 and 2", ([8, 8, 16, 8], [1.0, 1.0, 1.0, 1.0], 32)),
    ],
    random_case=random_plan_case, accept="any_of", allowed=PLAN_ALLOWED,
    inputs="models of 1 to 7 layers whose sizes are multiples of 8 bytes, small whole-number costs stored as floats, "
    "and budgets from below the lowest peak any plan reaches (no plan fits) up to the sum of all the sizes.",
    hint="With at most 7 layers, how many plans are there in all, and could you try every one, keep those whose "
    "peak fits and compare what they recompute?",
)
ROW_STANDARDISE = Task(
    name="row_standardise", reference=row_standardise_reference, examples=[(np.array([[1.0, 2.0, 3.0], [4.0, 4.0, 4.0]]),)],
    clauses=[
        Clause("each row minus its mean, over its standard deviation (population: divide by n) plus 1e-5",
               (np.array([[0.0, 10.0], [1.0, 3.0]]),)),
        Clause("zero rows give an empty (0, n) result", (np.zeros((0, 3)),)),
    ],
    random_case=random_rows_case, tolerance=Tolerance(rtol=1e-6, atol=1e-9), vectorised=True, large_case=large_rows_case,
    allowed=ROWS_ALLOWED,
    inputs="float64 arrays of 0 to 5 rows (2000 in the large case) and 1 to 8 columns, values scaled up to 99 times, "
    "rows whose values are all equal, and transposed (non-contiguous) views.",
    hint="Which reductions take an axis and can keep the reduced dim with size 1, so that a column of per-row "
    "statistics broadcasts against every row at once?",
)
BATCHED_LINEAR = Task(
    name="batched_linear", reference=batched_linear_reference,
    examples=[(np.array([[1.0, 2.0]]), np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]), np.array([0.5, 0.0, -1.0]))],
    clauses=[
        Clause("row i of the result is weight @ rows[i] + bias", (np.arange(6.0).reshape(3, 2), np.array([[1.0, 2.0]]), np.array([3.0]))),
        Clause("no rows: a (0, out) result", (np.zeros((0, 2)), np.ones((3, 2)), np.zeros(3))),
    ],
    random_case=random_linear_case, tolerance=Tolerance(rtol=1e-6, atol=1e-9), vectorised=True,
    large_case=large_linear_case, forbidden=("numpy.einsum",), allowed=LINEAR_ALLOWED,
    inputs="float64 `rows` of 0 to 5 rows (2000 in the large case), 1 to 5 inputs and 1 to 5 outputs, and "
    "transposed (non-contiguous) views of `rows` and `weight`.",
    hint="If every row's product with the weight were stacked as the rows of one matrix, which single matrix "
    "product (with which operand transposed) would give that matrix, and how does the bias broadcast over it?",
)

EXERCISE = Exercise(notebook="memory_speed", tasks=(PEAK_SAVED_BYTES, CHECKPOINT_PLAN, ROW_STANDARDISE, BATCHED_LINEAR))
