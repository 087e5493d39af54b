"""``torch.accelerator`` as a CPU-only torch build answers it: none, so the tutorials' line
``torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"``
picks the CPU."""

from __future__ import annotations

from typing import Any


def is_available() -> bool:
    return False


def current_accelerator(check_available: bool = False) -> Any:
    return None


def device_count() -> int:
    return 0
