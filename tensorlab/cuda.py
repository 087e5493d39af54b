"""``torch.cuda`` as a CPU-only torch build answers it: no GPU, so code that asks first
(``"cuda" if torch.cuda.is_available() else "cpu"``) runs on the CPU unchanged."""

from __future__ import annotations


def is_available() -> bool:
    return False


def device_count() -> int:
    return 0
