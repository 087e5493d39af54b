"""View or copy? Which dims of a layout form one run of memory, and which runs a new shape would merge.

A view regroups dims only inside a *run*: neighbouring dims where stepping off the end of dim
``d+1`` lands on the next element of dim ``d`` (``stride[d] == stride[d+1] * size[d+1]``; a size-1
dim never moves, so it joins any run). ``view`` raises, and ``reshape`` copies, exactly when a
new dim would span two runs (:func:`tensorlab._storage.view_strides` decides; these functions say
*where*, for the :class:`~tensorlab.widgets.strides.StrideExplorer`). Counted from the right, a
run boundary sits after some number of elements; the new shape keeps it only when the product
of its own trailing sizes hits that number exactly.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise

__all__ = ["crossed_boundaries", "explain", "memory_runs"]


def memory_runs(shape: Sequence[int], strides: Sequence[int]) -> list[tuple[int, ...]]:
    """The dims grouped into runs of memory, left to right: ``(3, 2)`` strides ``(1, 3)`` -> ``[(0,), (1,)]``."""
    runs: list[list[int]] = []
    run_elements, run_stride = 1, 0  # the current run's element count and its rightmost stride
    for dim in reversed(range(len(shape))):
        if runs and (shape[dim] == 1 or strides[dim] == run_elements * run_stride):
            runs[-1].insert(0, dim)
        else:
            runs.append([dim])
            run_elements, run_stride = 1, strides[dim]
        run_elements *= shape[dim]
    return [tuple(run) for run in reversed(runs)]


def crossed_boundaries(shape: Sequence[int], strides: Sequence[int], new_shape: Sequence[int]) -> list[tuple[int, int]]:
    """The pairs ``(a, b)`` of neighbouring old dims in different runs that one new dim would merge.

    Empty when ``new_shape`` is a view (a tensor with no elements always has one).
    """
    if 0 in shape:
        return []
    trailing = {math.prod(new_shape[i:]) for i in range(len(new_shape) + 1)}
    runs = memory_runs(shape, strides)
    crossed = []
    for left, right in pairwise(runs):
        if math.prod(shape[right[0]:]) not in trailing:
            crossed.append((left[-1], right[0]))
    return crossed


def explain(shape: Sequence[int], strides: Sequence[int], new_shape: Sequence[int]) -> str:
    """One sentence: why ``new_shape`` is (or is not) a view of this layout."""
    runs = memory_runs(shape, strides)
    listed = " ".join("(" + ", ".join(map(str, run)) + ")" for run in runs)
    crossed = crossed_boundaries(shape, strides, new_shape)
    if not crossed:
        return f"view possible: runs of memory {listed}; every new dim stays inside one run"
    reasons = "; ".join(
        f"dims {a} and {b} cannot merge: stride[{a}] = {strides[a]}, not stride[{b}] * size[{b}] = {strides[b] * shape[b]}"
        for a, b in crossed
    )
    return f"no view of shape {list(new_shape)}: runs of memory {listed}; {reasons}"
