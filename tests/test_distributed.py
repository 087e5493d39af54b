"""The collective simulator against real torch.distributed (gloo on 127.0.0.1), and the local launcher.

The simulator's results must be what real collectives give; its traces must have the step counts
and byte counts the ring and tree algorithms promise; its α–β cost must equal the textbook formula.
The launcher must return each rank's result, and never hang: a failing rank or a rank that never
joins a collective ends in ``RankError``, with every process gone.
"""

from __future__ import annotations

import math
import multiprocessing
import os

import numpy as np
import pytest
import torch
import torch.distributed as dist
from hypothesis import given, settings
from hypothesis import strategies as st

from tensorlab.distributed import (
    RankError,
    all_gather,
    assign_buckets,
    ring_all_reduce,
    ring_all_reduce_seconds,
    ring_reduce_scatter,
    run,
    tree_all_reduce_seconds,
    tree_broadcast,
    tree_reduce,
)
from tests.public_cases import tasks_of

OPS = {"sum": np.sum, "max": np.max, "min": np.min, "product": np.prod}


def rank_buffers(world_size: int, shape: tuple[int, ...], seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.integers(-5, 6, size=shape).astype(np.float64) for _ in range(world_size)]


@settings(max_examples=40, deadline=None)
@given(world_size=st.integers(1, 7), length=st.integers(0, 13), op=st.sampled_from(sorted(OPS)))
def test_ring_all_reduce_leaves_every_rank_the_reduction(world_size: int, length: int, op: str) -> None:
    buffers = rank_buffers(world_size, (length,))
    before = [buffer.copy() for buffer in buffers]
    results, trace = ring_all_reduce(buffers, op)
    expected = OPS[op](np.stack(buffers), axis=0)
    assert all(np.array_equal(result, expected) for result in results)
    assert all(np.array_equal(a, b) for a, b in zip(buffers, before, strict=True)), "the inputs changed"
    assert trace.steps == 2 * (world_size - 1)


@pytest.mark.parametrize("world_size", [2, 3, 4, 8])
def test_ring_all_reduce_sends_two_n_minus_one_over_n_of_the_buffer_per_rank(world_size: int) -> None:
    buffers = rank_buffers(world_size, (world_size * 6,))
    nbytes = buffers[0].nbytes
    _, trace = ring_all_reduce(buffers)
    assert all(trace.bytes_sent(rank) == 2 * (world_size - 1) * nbytes // world_size for rank in range(world_size))
    alpha, beta = 5e-6, 1e-9
    assert trace.seconds(alpha, beta) == pytest.approx(ring_all_reduce_seconds(world_size, nbytes, alpha, beta))


def test_ring_all_reduce_keeps_the_shape_of_a_matrix() -> None:
    buffers = rank_buffers(3, (4, 5))
    results, _ = ring_all_reduce(buffers)
    assert all(result.shape == (4, 5) and np.array_equal(result, sum(buffers)) for result in results)


def test_ranks_with_different_shapes_are_refused() -> None:
    with pytest.raises(ValueError, match="same shape"):
        ring_all_reduce([np.zeros(3), np.zeros(4)])


@pytest.mark.parametrize(("world_size", "root"), [(1, 0), (2, 1), (5, 0), (6, 4), (8, 3)])
def test_trees_take_log2_rounds_and_move_whole_buffers(world_size: int, root: int) -> None:
    buffers = rank_buffers(world_size, (3,), seed=world_size)
    broadcast, sent = tree_broadcast(buffers, root)
    assert all(np.array_equal(result, buffers[root]) for result in broadcast)
    reduced, gathered = tree_reduce(buffers, root)
    assert np.array_equal(reduced, np.sum(buffers, axis=0))
    rounds = math.ceil(math.log2(world_size)) if world_size > 1 else 0
    assert sent.steps == gathered.steps == rounds
    assert len(sent.messages) == len(gathered.messages) == world_size - 1  # everyone but the root, once
    nbytes = buffers[0].nbytes
    assert sent.then(gathered).seconds(1e-5, 1e-9) == pytest.approx(tree_all_reduce_seconds(world_size, nbytes, 1e-5, 1e-9))


def collectives_on_gloo(rank: int, world_size: int, buffers: list[np.ndarray]) -> dict[str, list[np.ndarray]]:
    """What real collectives give each rank, for the same per-rank buffers the simulator gets."""
    mine = torch.from_numpy(buffers[rank].copy())
    summed = mine.clone()
    dist.all_reduce(summed)
    maximum = mine.clone()
    dist.all_reduce(maximum, op=dist.ReduceOp.MAX)
    gathered = [torch.empty_like(mine) for _ in range(world_size)]
    dist.all_gather(gathered, mine)
    broadcast = mine.clone()
    dist.broadcast(broadcast, src=1)
    reduced = mine.clone()
    dist.reduce(reduced, dst=2)
    scattered = torch.empty(len(mine) // world_size, dtype=mine.dtype)
    dist.reduce_scatter(scattered, list(mine.chunk(world_size)))
    return {"scatter": scattered.numpy(), "sum": summed.numpy(), "max": maximum.numpy(), "gather": torch.cat(gathered).numpy(),
            "broadcast": broadcast.numpy(), "reduce": reduced.numpy()}


def test_the_simulator_gives_what_gloo_gives() -> None:
    world_size = 3
    buffers = rank_buffers(world_size, (9,), seed=11)
    real = run(collectives_on_gloo, world_size, buffers, timeout=60)
    summed, _ = ring_all_reduce(buffers)
    maximum, _ = ring_all_reduce(buffers, "max")
    gathered, _ = all_gather(buffers)
    broadcast, _ = tree_broadcast(buffers, root=1)
    reduced, _ = tree_reduce(buffers, root=2)
    owned, _ = ring_reduce_scatter(buffers)
    for rank in range(world_size):
        assert np.array_equal(real[rank]["scatter"], owned[rank])
        assert np.array_equal(real[rank]["sum"], summed[rank])
        assert np.array_equal(real[rank]["max"], maximum[rank])
        assert np.array_equal(real[rank]["gather"], gathered[rank])
        assert np.array_equal(real[rank]["broadcast"], broadcast[rank])
    assert np.array_equal(real[2]["reduce"], reduced)


def test_reduce_scatter_gives_rank_r_chunk_r_of_the_sum() -> None:
    buffers = rank_buffers(4, (10,))
    owned, trace = ring_reduce_scatter(buffers)
    total = np.sum(buffers, axis=0)
    assert np.array_equal(np.concatenate(owned), total)  # chunks in rank order tile the sum
    assert max(map(len, owned)) - min(map(len, owned)) <= 1  # chunks as even as the length allows
    assert trace.steps == 3


def rank_and_size(rank: int, world_size: int) -> tuple[int, int, str]:
    return rank, world_size, f"{dist.get_rank()}/{dist.get_world_size()}"


def fails_on_rank_one(rank: int, world_size: int) -> int:
    if rank == 1:
        raise ValueError("rank one cannot go on")
    dist.barrier()
    return rank


def skips_the_collective(rank: int, world_size: int) -> int:
    if rank == 0:
        dist.barrier()  # rank 1 never joins: without a timeout this would wait for ever
    return rank


def test_run_returns_each_ranks_result_in_rank_order() -> None:
    assert run(rank_and_size, 2) == [(0, 2, "0/2"), (1, 2, "1/2")]
    assert not multiprocessing.active_children()


def test_a_failing_rank_is_reported_with_its_traceback() -> None:
    with pytest.raises(RankError, match=r"(?s)rank 1 raised:.*ValueError: rank one cannot go on"):
        run(fails_on_rank_one, 2, timeout=20)
    assert not multiprocessing.active_children()


def test_a_rank_that_never_joins_ends_in_a_timeout_not_a_hang() -> None:
    with pytest.raises(RankError):
        run(skips_the_collective, 2, timeout=3)
    assert not multiprocessing.active_children()


def test_importing_the_simulator_loads_no_torch() -> None:
    import subprocess
    import sys

    probe = "import sys, tensorlab.distributed; print('torch' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.strip() == "False"


@settings(max_examples=60, deadline=None)
@given(elements=st.lists(st.integers(1, 300), min_size=1, max_size=12), cap=st.integers(0, 2000))
def test_buckets_follow_torchs_reducer(elements: list[int], cap: int) -> None:
    """torch's own assignment (the C++ reducer's), for float32 gradients of these many elements."""
    gradients = [torch.empty(count) for count in elements]
    expected, _ = dist._compute_bucket_assignment_by_size(gradients, [cap])
    assert assign_buckets([4 * count for count in elements], cap) == [list(bucket) for bucket in expected]


def test_no_gradients_no_buckets() -> None:
    assert assign_buckets([], 1000) == []  # torch's reducer asserts on an empty list instead


def joins_rpc_by_itself(rank: int, world_size: int) -> str:
    import torch.distributed.rpc as rpc

    rpc.init_rpc(f"worker{rank}", rank=rank, world_size=world_size)
    answer = rpc.rpc_sync("worker1", torch.add, args=(torch.ones(2), rank)).tolist() if rank == 0 else []
    rpc.shutdown()
    return f"{dist.is_initialized()} {answer}"


def test_without_a_backend_the_function_joins_by_itself() -> None:
    assert run(joins_rpc_by_itself, 2, backend=None, timeout=60) == ["False [1.0, 1.0]", "False []"]


def dies_on_rank_one(rank: int, world_size: int) -> int:
    if rank == 1:
        os._exit(3)  # a crash: no exception, no result
    dist.barrier()
    return rank


def test_a_rank_that_dies_without_a_word_is_named() -> None:
    with pytest.raises(RankError, match="rank 1 died with exit code 3"):
        run(dies_on_rank_one, 2, timeout=20)
    assert not multiprocessing.active_children()


def test_ranks_that_cannot_connect_are_relaunched_then_reported() -> None:
    with pytest.warns(RuntimeWarning, match="could not connect") as caught, \
            pytest.raises(RankError, match="raised while connecting"):
        run(rank_and_size, 2, backend="no_such_backend", timeout=10)
    assert len([w for w in caught if "could not connect" in str(w.message)]) == 2  # three attempts in all
    assert not multiprocessing.active_children()


def big_sum(rank: int, world_size: int) -> tuple[float, int]:
    return float(torch.ones(2**21).sum()), torch.get_num_threads()


def test_ranks_compute_after_the_parent_used_its_thread_pool() -> None:
    """torch's intra-op pool started in the parent is never entered in a forked rank (it would hang)."""
    torch.ones(2**22).exp().sum()  # the parent's pool is running now
    assert run(big_sum, 2, timeout=30) == [(2.0**21, 1), (2.0**21, 1)]


def ddp_gradients(rank: int, world_size: int, case: tuple) -> list[np.ndarray]:
    """One rank of torch's own DistributedDataParallel on the mini-DDP exercise's model and data."""
    from tensorlab.grading.harnesses.ddp import mlp

    _, weights, inputs, targets = case
    model = torch.nn.parallel.DistributedDataParallel(mlp(weights))
    loss = ((model(torch.from_numpy(inputs[rank])) - torch.from_numpy(targets[rank])) ** 2).mean()
    loss.backward()
    return [p.grad.numpy() for p in model.parameters()]


def test_the_mini_ddp_reference_is_what_torchs_ddp_leaves_on_every_rank() -> None:
    """The exercise's expected gradients (tensorlab, no processes) against real DDP over gloo."""
    ddp_case, gradient_averaging_reference = (tasks_of("distributed").ddp_case, tasks_of("distributed").gradient_averaging_reference)

    case = ddp_case(np.random.default_rng(7), world=3)
    real = run(ddp_gradients, 3, case, timeout=60)
    for got, expected in zip(real, gradient_averaging_reference(*case), strict=True):
        for g, e in zip(got, expected, strict=True):
            np.testing.assert_allclose(g, e, rtol=1e-10, atol=1e-12)
