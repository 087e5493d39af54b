"""The one switch: do tensorlab's Triton kernels run natively on a CUDA GPU or on Triton's interpreter?

``TENSORLAB_KERNELS`` decides, read once when this module is imported:

- ``interpret``: Triton's interpreter runs every kernel in Python/NumPy on CPU tensors. Slow, but a
  laptop runs the same kernel code a GPU would, and out-of-range accesses can be inspected.
- ``cuda``: kernels are compiled for the GPU and tensors must live on ``cuda``.
- unset: ``cuda`` when ``torch.cuda.is_available()``, else ``interpret``.

What actually makes Triton 3.9 interpret (checked by experiment): the environment variable
``TRITON_INTERPRET`` is *not* read once when ``triton`` is imported. ``@triton.jit`` reads
``triton.knobs.runtime.interpret`` at *decoration* time — when the module defining the kernel is
executed — and returns an ``InterpretedFunction`` if it is true, a compiled ``JITFunction``
otherwise. That knob reads ``TRITON_INTERPRET`` from ``os.environ`` on every access unless
someone assigned the knob directly, which then wins over the variable. So:

- importing triton first (torch's inductor does, lazily) does not matter;
- a kernel decorated before the switch keeps its mode (a ``JITFunction`` decorated on a machine
  without a GPU fails at launch with "0 active drivers");
- this module therefore sets both the variable (for subprocesses) and the knob (in case it was
  assigned), and ``tensorlab.kernels`` imports it before any module that defines a kernel.
"""

from __future__ import annotations

import os

import torch
import triton

BACKENDS = ("interpret", "cuda")
SWITCH = "TENSORLAB_KERNELS"


def _choose() -> str:
    requested = os.environ.get(SWITCH, "").strip().lower()
    if requested == "":
        return "cuda" if torch.cuda.is_available() else "interpret"
    if requested not in BACKENDS:
        raise ValueError(f"{SWITCH}={requested!r}: expected one of {', '.join(BACKENDS)} (or unset)")
    if requested == "cuda" and not torch.cuda.is_available():
        raise RuntimeError(f"{SWITCH}=cuda but torch sees no CUDA device; unset it to use the interpreter")
    return requested


_BACKEND = _choose()
if _BACKEND == "interpret":
    os.environ["TRITON_INTERPRET"] = "1"
    triton.knobs.runtime.interpret = True
else:
    os.environ.pop("TRITON_INTERPRET", None)
    triton.knobs.runtime.interpret = False


def backend() -> str:
    """``"interpret"`` or ``"cuda"``: how this process runs tensorlab's kernels."""
    return _BACKEND


def device() -> torch.device:
    """Where the kernels' tensors must live: ``cpu`` for the interpreter, ``cuda`` natively."""
    return torch.device("cpu" if _BACKEND == "interpret" else "cuda")
