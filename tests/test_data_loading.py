"""tensorlab.utils.data against torch.utils.data: same batches, shapes, dtypes and errors.

Shuffled orders come from different random streams, so those tests check what must hold anyway:
each epoch is a permutation, and ``manual_seed`` (or a seeded Generator) repeats it. Given the
same index order (a list as sampler), the batches must be torch's exactly.
"""

from __future__ import annotations

import collections
import importlib
import warnings
from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import tensorlab as tl
from tests.oracle import assert_same, check_op

Point = collections.namedtuple("Point", ["x", "label"])


def data(lib: Any) -> Any:
    return importlib.import_module(f"{lib.__name__}.utils.data")


def features(n: int = 10, width: int = 3) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(n * 100 + width)
    return rng.standard_normal((n, width)).astype(np.float32), np.arange(n) % 3


def as_lists(batches: list) -> list:
    """Dict batches as sorted (key, value) lists, so ``assert_same`` can walk them."""
    if isinstance(batches, dict):
        return [[key, as_lists(value)] for key, value in sorted(batches.items())]
    if isinstance(batches, (list, tuple)) and not hasattr(batches, "_fields"):
        return [as_lists(b) for b in batches]
    return batches


# --- DataLoader over a TensorDataset: in order -----------------------------------------------


@pytest.mark.parametrize("batch_size", [1, 3, 4, 10, 11])
@pytest.mark.parametrize("drop_last", [False, True])
def test_sequential_batches_match_torch(batch_size: int, drop_last: bool) -> None:
    x, y = features()
    check_op(lambda lib, a, b: list(data(lib).DataLoader(data(lib).TensorDataset(a, b), batch_size=batch_size, drop_last=drop_last)), x, y, grad=False)


@pytest.mark.parametrize("fast", [True, False])
def test_fast_and_plain_path_give_torchs_batches(fast: bool) -> None:
    x, y = features(7)
    with tl.fast_path(fast):
        check_op(lambda lib, a, b: list(data(lib).DataLoader(data(lib).TensorDataset(a, b), batch_size=3, sampler=[6, 0, 2, 5, 1])), x, y, grad=False)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 12), width=st.integers(1, 4), batch_size=st.integers(1, 13), drop_last=st.booleans(), seed=st.integers(0, 99))
def test_any_order_gives_torchs_batches(n: int, width: int, batch_size: int, drop_last: bool, seed: int) -> None:
    x, y = features(n, width)
    order = np.random.default_rng(seed).permutation(n).tolist()
    check_op(
        lambda lib, a, b: list(data(lib).DataLoader(data(lib).TensorDataset(a, b), batch_size=batch_size, sampler=order, drop_last=drop_last)),
        x, y, grad=False,
    )


@pytest.mark.parametrize(("n", "batch_size", "drop_last"), [(10, 3, False), (10, 3, True), (9, 3, True), (2, 5, True), (0, 2, False)])
def test_len_matches_torch(n: int, batch_size: int, drop_last: bool) -> None:
    x, y = features(n)
    check_op(lambda lib, a, b: len(data(lib).DataLoader(data(lib).TensorDataset(a, b), batch_size=batch_size, drop_last=drop_last)), x, y, grad=False)


def test_batch_size_none_yields_single_samples() -> None:
    x, y = features(4)
    check_op(lambda lib, a, b: list(data(lib).DataLoader(data(lib).TensorDataset(a, b), batch_size=None)), x, y, grad=False)


def test_tensor_that_requires_grad_is_stacked_with_history() -> None:
    x, _ = features(5)
    batches = check_op(lambda lib, a: list(data(lib).DataLoader(data(lib).TensorDataset(a), batch_size=2)), x, grad=True)
    assert batches is not None and batches[0][0].grad_fn is not None


# --- shuffling: a permutation, repeatable by seed ---------------------------------------------


def epoch_order(loader: Any) -> list[int]:
    return [int(i) for (batch,) in loader for i in batch.tolist()]


def test_shuffle_is_a_permutation_and_repeats_after_manual_seed() -> None:
    loaders = data(tl)
    loader = loaders.DataLoader(loaders.TensorDataset(tl.arange(50)), batch_size=8, shuffle=True)
    tl.manual_seed(3)
    first, second = epoch_order(loader), epoch_order(loader)
    tl.manual_seed(3)
    again = epoch_order(loader)
    assert sorted(first) == list(range(50)) and sorted(second) == list(range(50))
    assert first == again and first != second  # each epoch draws a new order; the seed repeats them
    assert first != list(range(50))


def test_shuffle_with_a_generator_ignores_the_global_stream() -> None:
    loaders = data(tl)
    orders = []
    for global_seed in (0, 1):
        tl.manual_seed(global_seed)
        loader = loaders.DataLoader(loaders.TensorDataset(tl.arange(20)), batch_size=4, shuffle=True, generator=tl.Generator().manual_seed(7))
        orders.append(epoch_order(loader))
    assert orders[0] == orders[1] and sorted(orders[0]) == list(range(20))


def test_shuffled_batches_have_torchs_shapes_and_dtypes() -> None:
    x, y = features(10)
    torch_batches = list(torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.from_numpy(x), torch.from_numpy(y)), batch_size=4, shuffle=True))
    ours = list(tl.utils.data.DataLoader(tl.utils.data.TensorDataset(tl.from_numpy(x), tl.from_numpy(y)), batch_size=4, shuffle=True))
    assert [(tuple(a.shape), str(a.dtype)[6:], tuple(b.shape), str(b.dtype)[6:]) for a, b in torch_batches] == [
        (tuple(a.shape), str(a.dtype)[10:], tuple(b.shape), str(b.dtype)[10:]) for a, b in ours
    ]


def test_random_sampler_with_replacement_and_num_samples() -> None:
    sampler = tl.utils.data.RandomSampler(range(5), replacement=True, num_samples=12, generator=tl.Generator().manual_seed(0))
    drawn = list(sampler)
    assert len(drawn) == len(sampler) == 12 and set(drawn) <= set(range(5))
    longer = list(tl.utils.data.RandomSampler(range(5), num_samples=12))
    assert len(longer) == 12 and sorted(longer[:5]) == list(range(5)) and sorted(longer[5:10]) == list(range(5))


def test_subset_random_sampler_visits_its_indices() -> None:
    sampler = tl.utils.data.SubsetRandomSampler([3, 8, 9])
    assert sorted(sampler) == [3, 8, 9] and len(sampler) == 3


def test_weighted_random_sampler_follows_the_weights() -> None:
    weights = [0.0, 1.0, 3.0]
    drawn = list(tl.utils.data.WeightedRandomSampler(weights, 4000, generator=tl.Generator().manual_seed(0)))
    counts = np.bincount(drawn, minlength=3) / len(drawn)
    assert counts[0] == 0 and abs(counts[2] - 0.75) < 0.05
    once = list(tl.utils.data.WeightedRandomSampler(tl.tensor([1.0, 1.0, 1.0]), 3, replacement=False))
    assert sorted(once) == [0, 1, 2] and len(tl.utils.data.WeightedRandomSampler(weights, 7)) == 7


@pytest.mark.parametrize(("weights", "num_samples", "replacement"), [([[1.0]], 2, True), ([1.0], 0, True), ([1.0], 2, 1)])
def test_weighted_random_sampler_errors_match_torch(weights: list, num_samples: int, replacement: Any) -> None:
    with pytest.raises(ValueError) as expected:
        torch.utils.data.WeightedRandomSampler(weights, num_samples, replacement)
    with pytest.raises(ValueError, match=str(expected.value).replace("[", r"\[").replace("(", r"\(").replace(")", r"\)")):
        tl.utils.data.WeightedRandomSampler(weights, num_samples, replacement)


def test_get_worker_info_is_none_in_the_main_process() -> None:
    assert tl.utils.data.get_worker_info() is None and torch.utils.data.get_worker_info() is None


# --- samplers and batch samplers as torch has them ---------------------------------------------


@pytest.mark.parametrize(("size", "batch_size", "drop_last"), [(10, 3, False), (10, 3, True), (6, 3, True), (0, 3, False)])
def test_batch_sampler_matches_torch(size: int, batch_size: int, drop_last: bool) -> None:
    def batches(lib: Any) -> tuple[list, int]:
        loaders = data(lib)
        sampler = loaders.BatchSampler(loaders.SequentialSampler(range(size)), batch_size, drop_last)
        return list(sampler), len(sampler)

    assert batches(tl) == batches(torch)


def test_custom_batch_sampler_and_collate_fn() -> None:
    x, y = features(6)
    check_op(lambda lib, a, b: list(data(lib).DataLoader(data(lib).TensorDataset(a, b), batch_sampler=[[0, 5], [2], [1, 3, 4]])), x, y, grad=False)
    check_op(lambda lib, a, b: list(data(lib).DataLoader(data(lib).TensorDataset(a, b), batch_size=4, collate_fn=lambda s: s)), x, y, grad=False)


# --- the default collate -----------------------------------------------------------------------


class Samples:
    """A dataset of Python/NumPy samples (no tensors inside), built the same for both libraries."""

    def __init__(self, make: Any) -> None:
        self.make = make

    def __getitem__(self, i: int) -> Any:
        return self.make(i)

    def __len__(self) -> int:
        return 5


SAMPLES = {
    "int": lambda i: i,
    "float": lambda i: i / 2,
    "bool": lambda i: i % 2 == 0,
    "tuple": lambda i: (i, float(i), np.full(2, i, np.float32)),
    "list": lambda i: [i, i + 1],
    "dict": lambda i: {"x": np.arange(3) * i, "name": f"s{i}"},
    "nested": lambda i: {"pair": (np.float64(i), [i, i]), "y": i},
    "numpy_scalar": lambda i: np.int32(i),
    "namedtuple": lambda i: Point(np.ones(2, np.float32) * i, i),
    "string": lambda i: f"sample {i}",
}


@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_default_collate_matches_torch(kind: str) -> None:
    expected = list(torch.utils.data.DataLoader(Samples(SAMPLES[kind]), batch_size=2))
    got = list(tl.utils.data.DataLoader(Samples(SAMPLES[kind]), batch_size=2))
    assert_same(as_lists(expected), as_lists(got))


@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_default_convert_matches_torch(kind: str) -> None:
    expected = list(torch.utils.data.DataLoader(Samples(SAMPLES[kind]), batch_size=None))
    got = list(tl.utils.data.DataLoader(Samples(SAMPLES[kind]), batch_size=None))
    assert_same(as_lists(expected), as_lists(got))


@pytest.mark.parametrize(
    "batch",
    [[[1, 2], [3]], [object(), object()], [None, None], [np.array(["a"]), np.array(["b"])]],
    ids=["ragged", "object", "none", "strings"],
)
def test_default_collate_errors_in_torchs_words(batch: list) -> None:
    with pytest.raises(Exception) as expected:
        torch.utils.data.default_collate(batch)
    with pytest.raises(type(expected.value), match=str(expected.value).split(";")[0][:40].replace("(", r"\(").replace("[", r"\[")):
        tl.utils.data.default_collate(batch)


def test_stacking_tensors_of_different_sizes_fails_like_torch() -> None:
    check_op(lambda lib, a, b: data(lib).default_collate([a, b]), np.zeros(2), np.zeros(3), grad=False, same_message=True)


# --- datasets -----------------------------------------------------------------------------------


def test_tensor_dataset_sizes_must_agree() -> None:
    check_op(lambda lib, a, b: data(lib).TensorDataset(a, b), np.zeros(2), np.zeros(3), grad=False, same_message=True)


def test_tensor_dataset_indexing_and_len() -> None:
    x, y = features(4)
    check_op(lambda lib, a, b: (data(lib).TensorDataset(a, b)[2], len(data(lib).TensorDataset(a, b))), x, y, grad=False)


def test_subset_and_concat_dataset_match_torch() -> None:
    x, y = features(6)

    def pick(lib: Any, a: Any, b: Any) -> list:
        loaders = data(lib)
        full = loaders.TensorDataset(a, b)
        both = loaders.ConcatDataset([loaders.Subset(full, [4, 1]), full])
        return [len(both), both[0], both[1], both[2], both[-1], list(loaders.DataLoader(loaders.Subset(full, [5, 0, 3]), batch_size=2))]

    check_op(pick, x, y, grad=False)


class Squares(tl.utils.data.Dataset):
    """A user dataset as tutorials write it: subclass Dataset, define __len__ and __getitem__."""

    def __len__(self) -> int:
        return 7

    def __getitem__(self, i: int) -> tuple:
        return tl.tensor([float(i)]), i * i


def test_user_dataset_subclass() -> None:
    got = [(x.tolist(), y.tolist()) for x, y in tl.utils.data.DataLoader(Squares(), batch_size=3)]
    assert got == [([[0.0], [1.0], [2.0]], [0, 1, 4]), ([[3.0], [4.0], [5.0]], [9, 16, 25]), ([[6.0]], [36])]


class Counting(tl.utils.data.IterableDataset):
    def __iter__(self) -> Any:
        return iter(range(7))


class TorchCounting(torch.utils.data.IterableDataset):
    def __iter__(self) -> Any:
        return iter(range(7))


@pytest.mark.parametrize(("batch_size", "drop_last"), [(3, False), (3, True), (None, False)])
def test_iterable_dataset_batches_match_torch(batch_size: int | None, drop_last: bool) -> None:
    expected = list(torch.utils.data.DataLoader(TorchCounting(), batch_size=batch_size, drop_last=drop_last))
    got = list(tl.utils.data.DataLoader(Counting(), batch_size=batch_size, drop_last=drop_last))
    assert_same(expected, got)


# --- random_split -------------------------------------------------------------------------------


@pytest.mark.parametrize("lengths", [[3, 7], [0.3, 0.7], [0.5, 0.5], [1 / 3, 1 / 3, 1 / 3], [0.25, 0.25, 0.5], [10, 0]])
def test_random_split_lengths_match_torch_and_partition(lengths: list) -> None:
    expected = [len(s) for s in torch.utils.data.random_split(range(10), lengths)]
    splits = tl.utils.data.random_split(range(10), lengths)
    assert [len(s) for s in splits] == expected
    assert sorted(i for s in splits for i in s) == list(range(10))


@settings(max_examples=30, deadline=None)
@given(n=st.integers(0, 40), weights=st.lists(st.integers(1, 9), min_size=1, max_size=4))
def test_random_split_fractions_give_torchs_lengths_and_warnings(n: int, weights: list[int]) -> None:
    fractions = [w / sum(weights) for w in weights]
    results = []
    for lib in (torch, tl):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lengths = [len(s) for s in data(lib).random_split(range(n), fractions)]
        results.append((lengths, [str(w.message) for w in caught]))
    assert results[1] == results[0]


def test_random_split_with_a_seeded_generator_repeats() -> None:
    first = tl.utils.data.random_split(range(20), [0.8, 0.2], generator=tl.Generator().manual_seed(42))
    tl.manual_seed(99)  # the global stream does not matter when a generator is given
    again = tl.utils.data.random_split(range(20), [0.8, 0.2], generator=tl.Generator().manual_seed(42))
    assert [s.indices for s in first] == [s.indices for s in again]


@pytest.mark.parametrize("lengths", [[3, 3], [0.5, 0.6], [-0.5, 1.5]])
def test_random_split_errors_match_torch(lengths: list) -> None:
    with pytest.raises(ValueError) as expected:
        torch.utils.data.random_split(range(10), lengths)
    with pytest.raises(ValueError, match=str(expected.value)):
        tl.utils.data.random_split(range(10), lengths)


# --- bad arguments: torch's classes and words ----------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        {"num_workers": -1},
        {"timeout": -1},
        {"shuffle": True, "sampler": [0, 1]},
        {"batch_sampler": [[0]], "batch_size": 2},
        {"batch_sampler": [[0]], "drop_last": True},
        {"batch_size": None, "drop_last": True},
        {"batch_size": 0},
        {"persistent_workers": True},
        {"prefetch_factor": 2},
    ],
)
def test_loader_argument_errors_match_torch(kwargs: dict) -> None:
    check_op(lambda lib, a: data(lib).DataLoader(data(lib).TensorDataset(a), **kwargs), np.zeros(3), grad=False, same_message=True)


def test_num_workers_above_zero_says_what_to_do() -> None:
    with pytest.raises(NotImplementedError, match="num_workers=0"):
        tl.utils.data.DataLoader(tl.utils.data.TensorDataset(tl.zeros(3)), num_workers=2)


def test_loader_settings_are_fixed_after_init() -> None:
    check_op(lambda lib, a: setattr(data(lib).DataLoader(data(lib).TensorDataset(a)), "batch_size", 4), np.zeros(3), grad=False, same_message=True)


def test_randperm_and_generator_basics() -> None:
    assert sorted(tl.randperm(9).tolist()) == list(range(9))
    assert tl.randperm(4).dtype == tl.int64 and tl.randperm(0).shape == (0,)
    assert tl.Generator().manual_seed(5).initial_seed() == 5
    assert tl.Generator().initial_seed() == torch.Generator().initial_seed()
    assert tl.randperm(6, generator=tl.Generator().manual_seed(1)).tolist() == tl.randperm(6, generator=tl.Generator().manual_seed(1)).tolist()
    check_op(lambda lib, n: lib.randperm(n), -1, grad=False, same_message=True)
