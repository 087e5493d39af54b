"""Exercises graded in real processes: N ranks talking over gloo on 127.0.0.1 (unit 16's mini-DDP).

Loaded by path by the sandbox (sandbox.py) in the grandchild of a job with ``ranks``, which passes
itself in as ``sandbox``: each rank opens the grader's process group, then locks itself down with the
sandbox's own lock-down before any learner code runs, and the grandchild merges the ranks' lines.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import time
import warnings
from typing import Any


def free_loopback_port() -> int:
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def load_harness(sandbox: Any, job: dict) -> Any:
    """The grader's code that runs one case on one rank (a file and a function name, like plain.py)."""
    path, name = job["harness"]
    return getattr(sandbox.load_plain(path), name)


def run_rank(sandbox: Any, request: dict, job: dict, plain: Any, rank: int, port: int, writer: int) -> None:
    """One rank: join the gloo group and make its sub-groups (before lock-down: the grader's own
    sockets and libraries), then lock down, load the learner's code and run every case.

    ``harness(function, arguments, rank, groups)`` builds what the case needs (a model, its data),
    calls the learner's function and returns this rank's result, or None when the case's world
    leaves this rank out. Learner code cannot open sockets (the audit hook refuses them, and
    ``init_process_group``/``new_group`` are forbidden names), so the only network it reaches is
    the group the grader opened on loopback.
    """
    import datetime

    import torch
    import torch.distributed as dist

    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    torch.set_num_threads(1)
    harness = load_harness(sandbox, job)
    dist.init_process_group("gloo", rank=rank, world_size=job["ranks"],
                            timeout=datetime.timedelta(seconds=max(1.0, request["timeout"])))
    groups = {size: dist.new_group(list(range(size))) for size in range(1, job["ranks"] + 1)}
    for size, group in groups.items():  # every library a collective loads, loaded now
        if rank < size:
            dist.all_reduce(torch.zeros(1), group=group)
    function, forbidden = sandbox.lock_down_and_load(request, job)
    results = os.fdopen(writer, "w")
    for case in job["cases"]:
        started = (time.perf_counter(), time.process_time())
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                if function is None:
                    raise NameError(f"name {job['function']!r} is not defined")
                value = harness(function, plain.decode(case), rank, groups)
                line: dict[str, Any] = {"idle": True} if value is None else {"value": plain.encode(value)}
            except plain.NotPlainData as error:
                line = {"not_plain": str(error)}
            except BaseException as error:
                line = sandbox.raised_line(error)
        line["seconds"] = sandbox.seconds_spent(started)
        line["forbidden_called"] = sorted(set(forbidden.called))
        results.write(json.dumps(line) + "\n")
        results.flush()
        if "raised" in line:
            break  # the other ranks may now wait in a collective: the collector stops them
    results.close()
    dist.destroy_process_group()


def run_ranked_cases(sandbox: Any, request: dict, job: dict, plain: Any, results: Any) -> None:
    """In the grandchild: fork ``job["ranks"]`` rank processes and merge their lines case by case.

    Case k's line holds every participating rank's result in rank order; a rank that raised makes
    the case raise (its message names the rank). Once a rank has raised, the others get a short
    grace period before they are stopped, so a learner's error never waits for a collective timeout.
    """
    sandbox.set_limits(request["cpu_seconds"], request["memory_bytes"])
    import torch  # noqa: F401 - loaded once here, before the ranks fork

    port, ranks, readers = free_loopback_port(), [], []
    for rank in range(job["ranks"]):
        reader, writer = os.pipe()
        pid = os.fork()
        if pid == 0:
            status = 0
            try:
                os.close(reader)
                run_rank(sandbox, request, job, plain, rank, port, writer)
            except BaseException as error:  # the rank could not start (or its group broke): say so as a case line
                status = 1
                line = sandbox.raised_line(error)
                line["message"] = f"rank {rank} of the grader's process group: {line['message']}"
                with contextlib.suppress(OSError):
                    os.write(writer, (json.dumps(line) + "\n").encode())
            finally:
                os._exit(status)
        os.close(writer)
        ranks.append(pid)
        readers.append(reader)
    per_rank = collect_ranks(sandbox, ranks, readers, request["timeout"])
    for number in range(min(len(lines) for lines in per_rank)):
        rows = [json.loads(lines[number]) for lines in per_rank]
        results.write(json.dumps(merged_line(rows, plain)) + "\n")
        results.flush()


def collect_ranks(sandbox: Any, ranks: list[int], readers: list[int], timeout: float,
                  grace: float = 2.0) -> list[list[str]]:
    """Every rank's complete lines; ranks still running at the deadline, or ``grace`` seconds
    after one of them reported an error, are killed."""
    received: list[list[bytes]] = [[] for _ in ranks]
    open_readers = dict(enumerate(readers))
    deadline = time.monotonic() + timeout
    while open_readers and time.monotonic() < deadline:
        ready, _, _ = select.select(list(open_readers.values()), [], [], 0.05)
        for rank, reader in list(open_readers.items()):
            if reader in ready:
                chunk = os.read(reader, 1 << 16)
                if chunk:
                    before = received[rank][-1][-8:] if received[rank] else b""  # a marker split between reads
                    received[rank].append(chunk)
                    if b'"raised"' in before + chunk:  # only the new bytes are searched, not everything so far
                        deadline = min(deadline, time.monotonic() + grace)
                else:
                    os.close(reader)
                    del open_readers[rank]
    for rank, pid in enumerate(ranks):
        if rank in open_readers:
            os.close(open_readers[rank])
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)
    return [sandbox.complete_lines(chunks) for chunks in received]


def merged_line(rows: list[dict], plain: Any) -> dict:
    """One case's line from its ranks' lines: the results of the ranks that took part, as a list."""
    line: dict[str, Any] = {"seconds": max(row.get("seconds", 0.0) for row in rows),
                            "forbidden_called": sorted({name for row in rows for name in row.get("forbidden_called", [])}),
                            "changed": []}
    for rank, row in enumerate(rows):
        if "raised" in row:
            return {**line, "raised": row["raised"], "message": f"on rank {rank}: {row.get('message', '')}"}
        if "not_plain" in row:
            return {**line, "not_plain": f"on rank {rank}: {row['not_plain']}"}
    values = [plain.decode(row["value"]) for row in rows if "value" in row]
    return {**line, "value": plain.encode(values)}
