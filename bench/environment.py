"""What the numbers were measured on: versions, threads, and the BLAS settings in force.

Ratios move with the machine. In particular OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE, which some
machines set so that old OpenBLAS builds do not crash, make a current NumPy pick a slower
kernel; tensorlab computes with NumPy, torch does not use that OpenBLAS. The bench reports
them and never changes them: to compare with the native kernel, unset both for that one
command (``env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python -m bench``).
"""

from __future__ import annotations

import os
import platform

BLAS_VARIABLES = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def describe_environment() -> list[str]:
    """One line per fact; call it after numpy and torch are imported so their BLAS shows."""
    import numpy as np

    lines = [f"python {platform.python_version()}, numpy {np.__version__}, {os.cpu_count()} CPUs"]
    try:
        import torch

        lines.append(f"torch {torch.__version__}, {torch.get_num_threads()} intra-op threads")
    except ImportError:
        lines.append("torch not installed")
    set_variables = [f"{name}={os.environ[name]}" for name in BLAS_VARIABLES if name in os.environ]
    lines.append("environment: " + (", ".join(set_variables) if set_variables else "no BLAS variables set"))
    lines.extend(blas_libraries())
    return lines


def blas_libraries() -> list[str]:
    """The BLAS/OpenMP libraries loaded in this process, as threadpoolctl sees them."""
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return ["threadpoolctl not installed: BLAS libraries not listed"]
    lines = []
    for pool in threadpool_info():
        name = " ".join(filter(None, [pool.get("internal_api"), pool.get("version")]))
        architecture = f" ({pool['architecture']} kernel)" if pool.get("architecture") else ""
        library = pool.get("filepath", "").split("site-packages/")[-1]
        lines.append(f"{name}{architecture}, {pool.get('num_threads')} threads: {library}")
    return lines


def limit_threads(threads: int) -> None:
    """Give torch and the BLAS/OpenMP libraries loaded so far ``threads`` threads (0: leave them).

    One thread each is the default: NumPy's elementwise kernels and reductions run on one core
    anyway, and on a busy machine torch's multi-threaded loops swing with everyone else's load.
    """
    if threads <= 0:
        return
    try:
        from threadpoolctl import threadpool_limits

        threadpool_limits(limits=threads)
    except ImportError:
        pass
    import sys

    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(threads)


def describe_machine() -> str:
    """The README's words for this machine: CPUs, their model, and the OPENBLAS_* kernel settings in force."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            model = next((line.split(":", 1)[1].strip() for line in cpuinfo if line.startswith("model name")), model)
    except OSError:
        pass
    kernel_settings = [f"`{name}={os.environ[name]}`" for name in BLAS_VARIABLES[:2] if name in os.environ]
    settings = f" whose environment sets {' and '.join(kernel_settings)}" if kernel_settings else ""
    return f"a machine with {os.cpu_count()} CPUs ({model}){settings}"
