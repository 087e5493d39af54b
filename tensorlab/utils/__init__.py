"""tensorlab.utils: the helpers torch keeps under torch.utils (``data``, ``checkpoint``)."""

from __future__ import annotations

import importlib
from typing import Any

_SUBMODULES = {"data", "checkpoint", "hooks"}


def __getattr__(name: str) -> Any:
    """``tensorlab.utils.data`` works after a bare ``import tensorlab``, as ``torch.utils.data`` does."""
    if name in _SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'tensorlab.utils' has no attribute '{name}'")
