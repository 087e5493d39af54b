"""The one switch: do tensorlab's Triton kernels run natively on a CUDA GPU or on Triton's interpreter?

``TENSORLAB_KERNELS`` decides, read once when this module is imported:

- ``interpret``: Triton's interpreter runs every kernel in Python/NumPy on CPU tensors. Slow, but a
  laptop runs the same kernel code a GPU would, and ``print`` or a debugger works inside a kernel.
- ``cuda``: kernels are compiled for the GPU and tensors must live on ``cuda``.
- unset: ``cuda`` when ``torch.cuda.is_available()``, else ``interpret``.

What actually makes Triton 3.9 interpret (checked by experiment, tests/test_kernels.py keeps it
checked): ``@triton.jit`` reads ``triton.knobs.runtime.interpret`` when it *decorates* a function
and returns an ``InterpretedFunction`` if it is true, a compiled ``JITFunction`` otherwise. The
knob reads ``TRITON_INTERPRET`` from ``os.environ`` on each access (unless someone assigned the
knob, which then wins). Two decorations therefore matter:

- triton's own helpers written in Triton (``tl.sum``, ``tl.max``, ``tl.cdiv``, ``tl.softmax`` ...
  in ``triton/language/standard.py``) are decorated once, when ``triton`` is first imported;
- each kernel is decorated when the module defining it is executed.

A kernel decorated without the variable fails at launch on a machine without a GPU ("0 active
drivers"); a kernel decorated with it that calls a helper decorated without it fails with
"Cannot call @triton.jit'd outside of the scope of a kernel". So the variable must be set before
``import triton`` — but torch may have imported triton already (``torch.compile``/inductor does).
This module therefore sets the variable before it imports triton (subprocesses inherit it), sets the
knob too, and, when it finds triton's helpers already decorated for the compiler, re-wraps them for
the interpreter (``_interpret_triton_helpers``). ``tensorlab.kernels`` imports it before any kernel.

What the interpreter (Triton 3.9) gets wrong, found while testing these kernels: it stores bf16 as
raw ``uint16`` bits, so arithmetic on bf16 values (``x + y``, ``tl.dot``) computes on the bits, and
its float32 -> bf16 conversion truncates instead of rounding to nearest even. The kernels therefore
convert loads to float32 before any arithmetic (what a GPU kernel does anyway), matmul upcasts its
bf16 tiles before ``tl.dot`` on the interpreter only, and tests allow bf16 results one unit in the
last place. fp16 and fp32 values go through the same float32 arithmetic as on a GPU (up to the last
bits of ``exp`` and division, which differ between NumPy and CUDA's fast math).
"""

from __future__ import annotations

import os
import sys

import torch

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


_BACKEND = _choose()  # torch.cuda.is_available() does not import triton: the variable can still come first
if _BACKEND == "interpret":
    os.environ["TRITON_INTERPRET"] = "1"
else:
    os.environ.pop("TRITON_INTERPRET", None)

import triton  # noqa: E402 - after the variable, so triton's own helpers are decorated in the right mode
from triton.runtime.interpreter import InterpretedFunction  # noqa: E402
from triton.runtime.jit import JITFunction  # noqa: E402


def _interpret_triton_helpers() -> None:
    """Swap triton's compiled helper functions (``tl.sum`` ...) for interpreted ones, wherever
    ``triton.language`` stores them (module attributes and ``tl.tensor`` methods such as ``x.sum``).
    Needed only when triton was imported before ``TRITON_INTERPRET=1`` was set."""
    owners: list[object] = [module for name, module in sys.modules.items() if name.startswith("triton.language")]
    owners.append(triton.language.tensor)
    interpreted: dict[int, InterpretedFunction] = {}  # one wrapper per helper, however many names it has
    for owner in owners:
        for name, value in list(vars(owner).items()):
            if isinstance(value, JITFunction):
                if id(value) not in interpreted:
                    interpreted[id(value)] = InterpretedFunction(value.fn)
                setattr(owner, name, interpreted[id(value)])


triton.knobs.runtime.interpret = _BACKEND == "interpret"  # wins over the variable if someone set the knob
if _BACKEND == "interpret" and isinstance(triton.language.sum, JITFunction):
    _interpret_triton_helpers()  # triton was imported before the variable was set (by torch, say)
if _BACKEND == "cuda" and isinstance(triton.language.sum, InterpretedFunction):
    raise RuntimeError(
        "triton was imported with TRITON_INTERPRET=1 but TENSORLAB_KERNELS chose cuda: unset TRITON_INTERPRET "
        "before anything imports triton, or set TENSORLAB_KERNELS=interpret"
    )


def backend() -> str:
    """``"interpret"`` or ``"cuda"``: how this process runs tensorlab's kernels."""
    return _BACKEND


def device() -> torch.device:
    """Where the kernels' tensors must live: ``cpu`` for the interpreter, ``cuda`` natively."""
    return torch.device("cpu" if _BACKEND == "interpret" else "cuda")
