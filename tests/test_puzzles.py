"""The tensor puzzles' specifications (loops) agree with torch's own ops on every case the grader draws."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from autograder.exercise import find_task
from tensorlab.grading.tasks import expected_outcome
from tests.public_cases import tasks_of

ONLY, SPECS = (tasks_of("puzzles").ONLY, tasks_of("puzzles").SPECS)


def t(array: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(np.ascontiguousarray(array))


def compress(g: np.ndarray, v: np.ndarray, i: int) -> torch.Tensor:
    kept = t(v)[t(g)]
    return F.pad(kept, (0, i - len(kept)))


def pad_to(a: np.ndarray, j: int) -> torch.Tensor:
    return F.pad(t(a)[:j], (0, max(0, j - len(a))))


TORCH: dict[str, Callable[..., torch.Tensor]] = {
    "ones": lambda i: torch.ones(i, dtype=torch.int64),
    "total": lambda a: t(a).sum().reshape(1),
    "outer": lambda a, b: torch.outer(t(a), t(b)),
    "diag": lambda a: torch.diagonal(t(a)),
    "eye": lambda j: torch.eye(j, dtype=torch.int64),
    "triu": lambda j: torch.triu(torch.ones(j, j, dtype=torch.int64)),
    "cumsum": lambda a: torch.cumsum(t(a), 0),
    "diff": lambda a: torch.diff(t(a), prepend=torch.zeros(1, dtype=torch.int64)),
    "vstack": lambda a, b: torch.vstack([t(a), t(b)]),
    "roll": lambda a: torch.roll(t(a), -1),
    "flip": lambda a: torch.flip(t(a), [0]),
    "compress": compress,
    "pad_to": pad_to,
    "sequence_mask": lambda values, lengths: t(values) * (torch.arange(values.shape[1]) < t(lengths)[:, None]),
    "bincount": lambda a, j: torch.bincount(t(a), minlength=j),
    "scatter_add": lambda values, link, j: torch.zeros(j, dtype=torch.int64).scatter_add(0, t(link), t(values)),
}


def test_every_puzzle_has_a_torch_counterpart() -> None:
    assert set(TORCH) == set(SPECS) and len(SPECS) >= 15


@pytest.mark.parametrize("name", sorted(SPECS))
def test_specification_agrees_with_torch(name: str) -> None:
    task = find_task(name)
    for case in task.arguments(seed=5, random_cases=40):
        ours = expected_outcome(task, case)
        theirs = TORCH[name](*case).numpy()
        assert isinstance(ours, np.ndarray) and ours.dtype == np.int64, (name, case, ours)
        assert ours.shape == theirs.shape and np.array_equal(ours, theirs), (name, case, ours, theirs)


def test_the_puzzles_building_blocks_are_the_short_list() -> None:
    assert set(ONLY) == {"arange", "where", "newaxis", "shape", "len"}
    assert all(find_task(name).only == ONLY and find_task(name).vectorised for name in SPECS)
