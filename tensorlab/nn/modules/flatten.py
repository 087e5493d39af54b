"""Flatten: merge dims start_dim..end_dim into one (by default all but the batch dim)."""

from __future__ import annotations

from ..._tensor import Tensor
from .module import Module

__all__ = ["Flatten"]


class Flatten(Module):
    """``input.flatten(start_dim, end_dim)``; defaults keep dim 0 (the batch)."""

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"
