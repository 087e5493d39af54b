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
    "flatten": lambda a: torch.flatten(t(a)),
    "linspace": lambda i, j, n: torch.linspace(i, j, n, dtype=torch.float64),
    "heaviside": lambda a, b: torch.heaviside(t(a), t(b)),
    "repeat": lambda a, d: t(a).repeat(d, 1),
    "bucketize": lambda v, boundaries: torch.bucketize(t(v), t(boundaries), right=False),
}
# Every puzzle returns int64 but linspace, whose points fall between the integers (torch computes them in a
# different order: from i for the first half, from j for the second, so they agree to rounding only).
DTYPES = {"linspace": np.float64}


def test_every_puzzle_has_a_torch_counterpart() -> None:
    assert set(TORCH) == set(SPECS) and len(SPECS) >= 21


@pytest.mark.parametrize("name", sorted(SPECS))
def test_specification_agrees_with_torch(name: str) -> None:
    task = find_task(name)
    for case in task.arguments(seed=5, random_cases=40):
        ours = expected_outcome(task, case)
        theirs = TORCH[name](*case).numpy()
        assert isinstance(ours, np.ndarray) and ours.dtype == DTYPES.get(name, np.int64), (name, case, ours)
        assert ours.dtype == theirs.dtype and ours.shape == theirs.shape, (name, case, ours, theirs)
        assert np.allclose(ours, theirs, rtol=1e-12, atol=1e-12) if ours.dtype.kind == "f" else \
            np.array_equal(ours, theirs), (name, case, ours, theirs)


def test_the_puzzles_building_blocks_are_the_short_list() -> None:
    assert set(ONLY) == {"arange", "where", "newaxis", "shape", "len"}
    assert all(find_task(name).only == ONLY and find_task(name).vectorised for name in SPECS)


@pytest.mark.parametrize("name", sorted(SPECS))
def test_a_failing_example_is_drawn_as_grids(name: str) -> None:
    """check() draws a failing public case as expected-vs-got grids: every puzzle's output draws (1-d, 2-d, and
    linspace's floats), with each wrong cell outlined in red."""
    from tensorlab.grading.drawing import failure_svg
    from tensorlab.widgets.svg import COLOURS

    case = find_task(name).examples[0]
    expected = SPECS[name](*case)
    picture = failure_svg(case, expected, expected + 1)
    assert picture is not None and picture.count(f'stroke="{COLOURS["error"]}"') == expected.size
