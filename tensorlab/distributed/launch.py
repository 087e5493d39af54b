"""Run a function on N local processes joined in a ``torch.distributed`` process group, from a notebook.

``run(fn, 4)`` starts four processes on this machine, joins them in a gloo process group on
127.0.0.1 (the same API NCCL offers on GPUs), calls ``fn(rank, world_size, *args)`` in each, and
returns the four results in rank order. That is what ``torchrun`` and a cluster do, on loopback.

Processes are *forked*, so ``fn`` may be defined in a notebook cell (a spawned process could not
import it). Results travel back pickled (tensors by value). Nothing hangs: a rank that raises stops
every rank, and ``RankError`` carries its traceback; a collective waiting for a dead rank is cut
off by ``timeout``; a rank killed by a signal is named with its exit code. Ranks that cannot connect
at all (gloo's connection setup can fail on a busy machine) are relaunched on a fresh port, twice at
most. Every process is joined or killed before ``run`` returns.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import queue
import socket
import time
import traceback
import warnings
from collections.abc import Callable
from datetime import timedelta
from typing import Any

__all__ = ["RankError", "free_port", "run"]


class RankError(RuntimeError):
    """A rank raised, or the group did not finish in time; the message says which and why."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _rank_main(rank: int, world_size: int, port: int, fn: Callable[..., Any], args: tuple,
               results: Any, timeout: float, backend: str | None) -> None:
    """One process: the environment torchrun would set, the process group, the call, the result."""
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), RANK=str(rank), OMP_NUM_THREADS="1",
                      LOCAL_RANK=str(rank), WORLD_SIZE=str(world_size), LOCAL_WORLD_SIZE=str(world_size))
    import torch
    import torch.distributed as dist

    # One intra-op thread per rank, as torchrun sets for several ranks on one machine: N ranks share the
    # cores, and a thread pool the parent started before the fork must never be entered in the child.
    torch.set_num_threads(1)

    stage = "rendezvous"
    try:
        if backend is not None:  # None: fn joins by itself (torch.distributed.rpc.init_rpc uses the same address)
            dist.init_process_group(backend, rank=rank, world_size=world_size, timeout=timedelta(seconds=timeout))
        stage = "error"
        outcome = ("ok", pickle.dumps(fn(rank, world_size, *args)))
    except BaseException:  # the parent reports it; a process must never die silently
        outcome = (stage, pickle.dumps(traceback.format_exc()))
    finally:
        if dist.is_initialized():
            dist.destroy_process_group()
    results.put((rank, *outcome))


class _RendezvousError(RankError):
    """The ranks could not connect (gloo's connection setup on a busy machine); nothing of ``fn`` is lost."""


def run(fn: Callable[..., Any], world_size: int, *args: Any, timeout: float = 60.0, backend: str | None = "gloo",
        attempts: int = 3) -> list[Any]:
    """``[fn(0, N, *args), ..., fn(N-1, N, *args)]``, each computed in its own process of one group.

    ``backend=None`` sets the environment (MASTER_ADDR, MASTER_PORT, RANK, WORLD_SIZE) but starts no
    process group, for functions that join by themselves, such as ``rpc.init_rpc``. When the ranks
    fail to connect at all (before ``fn`` runs), the launch is tried again on a fresh port, up to
    ``attempts`` times in all, with a warning: an elastic launcher such as torchrun restarts too.
    """
    if world_size < 1:
        raise ValueError(f"world_size must be at least 1, got {world_size}")
    for attempt in range(1, attempts + 1):
        try:
            return _launch(fn, world_size, args, timeout, backend)
        except _RendezvousError as failure:
            if attempt == attempts:
                raise RankError(str(failure)) from None
            warnings.warn(f"the ranks could not connect (attempt {attempt} of {attempts}); trying a fresh port",
                          RuntimeWarning, stacklevel=2)
    raise AssertionError("unreachable")


def _launch(fn: Callable[..., Any], world_size: int, args: tuple, timeout: float, backend: str | None) -> list[Any]:
    """One launch: start the ranks, collect every result or the first failures, leave no process behind."""
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    port = free_port()
    processes = [context.Process(target=_rank_main, args=(rank, world_size, port, fn, args, results, timeout, backend),
                                 daemon=True) for rank in range(world_size)]
    for process in processes:
        process.start()
    outcomes: dict[int, Any] = {}
    failures: dict[int, str] = {}
    rendezvous_failed = False
    deadline = time.monotonic() + timeout + 10  # the group's own timeout fires first; this is the backstop
    try:
        while len(outcomes) + len(failures) < world_size:
            try:
                rank, status, payload = results.get(timeout=0.5)
            except queue.Empty:
                for rank, process in enumerate(processes):  # a rank killed by a signal never reports: say so
                    if process.exitcode is not None and rank not in outcomes and rank not in failures:
                        failures[rank] = f"rank {rank} died with exit code {process.exitcode} before returning"
                        deadline = min(deadline, time.monotonic() + 2)
                if time.monotonic() < deadline:
                    continue
                if failures:  # the other ranks are stuck waiting for the one that failed
                    break
                missing = sorted(set(range(world_size)) - set(outcomes))
                raise RankError(f"ranks {missing} did not finish within {timeout:g} s (a collective waiting for "
                                 "a rank that never calls it?)") from None
            if status == "ok":
                outcomes[rank] = pickle.loads(payload)
            else:  # give the others a moment to report too: the first error is not always the cause
                failures[rank] = f"rank {rank} raised{' while connecting' if status == 'rendezvous' else ''}:\n{pickle.loads(payload)}"
                rendezvous_failed = rendezvous_failed or status == "rendezvous"
                deadline = min(deadline, time.monotonic() + 2)
        if failures:
            raise (_RendezvousError if rendezvous_failed else RankError)("\n".join(failures[rank] for rank in sorted(failures)))
        return [outcomes[rank] for rank in range(world_size)]
    finally:
        finished = len(outcomes) == world_size  # else some ranks may wait in a collective for ever: stop them
        for process in processes:
            process.join(timeout=5 if finished else 0)
            if process.is_alive():
                process.kill()
                process.join()
        results.close()
