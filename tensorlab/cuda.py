"""``torch.cuda`` as a CPU-only torch build answers it: no GPU, so code that asks first
(``"cuda" if torch.cuda.is_available() else "cpu"``) runs on the CPU unchanged.

torch's answers fall in three groups, mirrored here call for call:

- questions with a CPU answer: ``is_available()`` False, ``device_count()`` 0, ``is_initialized()``
  False, no memory in use, no bfloat16;
- seeding and setting state, which torch *queues* until CUDA starts (it never does here): so
  ``manual_seed(0)``, ``manual_seed_all(0)``, ``seed()``, ``seed_all()``, ``set_rng_state(s)`` do
  nothing, and the CPU's random numbers are untouched (seeding those is ``tensorlab.manual_seed``).
  They still check what they are given, as torch does (``manual_seed("a")`` is int()'s ValueError);
- anything that needs the GPU now (``initial_seed()``, ``get_rng_state()``, ``current_device()``,
  ``synchronize()``...): torch's ``AssertionError: Torch not compiled with CUDA enabled``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ._device import device as _device

__all__ = [
    "current_device", "device_count", "empty_cache", "get_device_capability", "get_device_name",
    "get_device_properties", "get_rng_state", "get_rng_state_all", "init", "initial_seed", "is_available",
    "is_bf16_supported", "is_initialized", "manual_seed", "manual_seed_all", "max_memory_allocated",
    "memory_allocated", "memory_reserved", "seed", "seed_all", "set_rng_state", "set_rng_state_all", "synchronize",
]


def _not_compiled() -> AssertionError:
    return AssertionError("Torch not compiled with CUDA enabled")


# --- questions with a CPU answer --------------------------------------------------------------
def is_available() -> bool:
    return False


def device_count() -> int:
    return 0


def is_initialized() -> bool:
    return False


def is_bf16_supported(including_emulation: bool = True) -> bool:
    return False


def memory_allocated(device: Any = None) -> int:
    return 0


def max_memory_allocated(device: Any = None) -> int:
    return 0


def memory_reserved(device: Any = None) -> int:
    return 0


def empty_cache() -> None:
    """Nothing cached: a no-op, as in torch without CUDA."""


# --- seeding and setting state: queued by torch until CUDA starts, so nothing happens ------------
def manual_seed(seed: int) -> None:
    """Seed the current GPU's generator: with no GPU, checked (``int(seed)``) and ignored."""
    int(seed)


def manual_seed_all(seed: int) -> None:
    """Seed every GPU's generator: with no GPU, checked (``int(seed)``) and ignored."""
    int(seed)


def seed() -> None:
    """Seed the current GPU's generator from the OS: with no GPU, nothing happens."""


def seed_all() -> None:
    """Seed every GPU's generator from the OS: with no GPU, nothing happens."""


def set_rng_state(new_state: Any, device: Any = "cuda") -> None:
    """Set a GPU's generator state: torch copies ``new_state`` (so it must be a tensor) and
    queues the rest; with no GPU nothing more happens."""
    new_state.clone()
    if isinstance(device, str):
        _device(device)


def set_rng_state_all(new_states: Iterable[Any]) -> None:
    for index, state in enumerate(new_states):
        set_rng_state(state, index)


def get_rng_state_all() -> list:
    """One state per GPU: none."""
    return []


# --- anything that needs a GPU now --------------------------------------------------------------
def init() -> None:
    raise _not_compiled()


def initial_seed() -> int:
    raise _not_compiled()


def get_rng_state(device: Any = "cuda") -> Any:
    raise _not_compiled()


def current_device() -> int:
    raise _not_compiled()


def synchronize(device: Any = None) -> None:
    raise _not_compiled()


def get_device_name(device: Any = None) -> str:
    raise _not_compiled()


def get_device_capability(device: Any = None) -> tuple[int, int]:
    raise _not_compiled()


def get_device_properties(device: Any = None) -> Any:
    raise _not_compiled()
