"""repr of a tensor in torch's format (placeholder: being written)."""

from __future__ import annotations

from typing import Any


def tensor_repr(t: Any) -> str:
    return f"tensor({t._data.tolist()})"
