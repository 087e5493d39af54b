"""``set_num_threads`` / ``get_num_threads``: how many threads a big operation may use.

torch sizes its own intra-op thread pool. tensorlab has none: its heavy lifting (matmul, the
decompositions) is NumPy calling a BLAS library (OpenBLAS or MKL), which runs its own threads, and
everything else runs on one thread. So ``set_num_threads(n)`` limits the BLAS pools through
``threadpoolctl`` (a development dependency; without it the number is only remembered), and
``get_num_threads()`` reports the largest BLAS pool, or what was set.
"""

from __future__ import annotations

import builtins
import os
from types import ModuleType

try:
    import threadpoolctl as _threadpoolctl  # type: ignore[import-untyped]
except ImportError:  # pragma: no cover - threadpoolctl comes with the development dependencies
    _threadpoolctl = None
threadpoolctl: ModuleType | None = _threadpoolctl

__all__ = ["get_num_threads", "set_num_threads"]

_requested: int | None = None


def set_num_threads(int: int) -> None:  # noqa: A002 - torch's argument name
    """Limit the BLAS thread pools NumPy calls into to ``int`` threads (1: deterministic timings)."""
    global _requested
    if isinstance(int, bool) or not isinstance(int, builtins.int):
        raise RuntimeError(f"set_num_threads expects an int, but got {type(int).__name__}")
    if int <= 0:
        raise RuntimeError("set_num_threads expects a positive integer")
    _requested = int
    if threadpoolctl is not None:
        threadpoolctl.threadpool_limits(limits=int, user_api="blas")  # applies now and stays (not used as a context manager)


def get_num_threads() -> int:
    """The threads a BLAS call may use now (the largest pool), or the number last set."""
    if threadpoolctl is None:
        return _requested or os.cpu_count() or 1
    pools = [pool["num_threads"] for pool in threadpoolctl.threadpool_info() if pool.get("user_api") == "blas"]
    if pools:
        return max(pools)
    return _requested or os.cpu_count() or 1

