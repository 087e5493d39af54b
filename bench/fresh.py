"""Fresh timing: the first call of a workload in a brand-new Python process.

A first call pays what a warm loop hides: lazy imports, first-touch page faults on newly
allocated outputs, allocator and dispatcher warm-up. Each (workload, implementation) runs in
its own process (so the tensorlab process never imports torch), after its imports and inputs
are made; the processes of the three implementations alternate, and the median is kept.

``python -m bench.fresh WORKLOAD IMPLEMENTATION THREADS`` is the child: it prints one JSON line.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
CHILD_TIMEOUT_SECONDS = 120


def first_call_in_new_process(workload: str, implementation: str, threads: int = 1) -> dict:
    """Run the child for one (workload, implementation); its JSON answer, or an error."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    try:
        child = subprocess.run(
            [sys.executable, "-m", "bench.fresh", workload, implementation, str(threads)],
            capture_output=True, text=True, env=env, timeout=CHILD_TIMEOUT_SECONDS, check=False,
        )
    except subprocess.TimeoutExpired:
        return {"error": f"no answer within {CHILD_TIMEOUT_SECONDS} s"}
    lines = child.stdout.strip().splitlines()
    if child.returncode != 0 or not lines:
        return {"error": (child.stderr.strip().splitlines() or ["child failed"])[-1]}
    return json.loads(lines[-1])


def fresh_first_calls(workload: str, implementations: list[str], processes: int, threads: int) -> dict[str, float]:
    """Median first-call seconds per implementation over ``processes`` new processes each."""
    samples: dict[str, list[float]] = {name: [] for name in implementations}
    for repetition in range(processes):
        shift = repetition % len(implementations)
        for name in implementations[shift:] + implementations[:shift]:
            answer = first_call_in_new_process(workload, name, threads)
            if "seconds" not in answer:
                raise RuntimeError(f"{name}: {answer.get('error', answer)}")
            samples[name].append(answer["seconds"])
    return {name: statistics.median(values) for name, values in samples.items()}


def child(workload_name: str, implementation: str, threads: int) -> dict:
    from .environment import limit_threads
    from .registry import select

    (workload,) = select([workload_name])
    run = workload.build(implementation)
    if run is None:
        return {"error": "no such implementation"}
    limit_threads(threads)  # after the build, which loaded the libraries
    start = time.perf_counter()
    run()
    return {"seconds": time.perf_counter() - start}


if __name__ == "__main__":
    print(json.dumps(child(sys.argv[1], sys.argv[2], int(sys.argv[3]))))
