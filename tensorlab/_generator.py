"""``tensorlab.Generator``: a random stream of its own, seeded apart from the global one.

``random_split(ds, [0.8, 0.2], generator=torch.Generator().manual_seed(42))`` is how tutorials
make a split that does not move when other code draws random numbers. A Generator here wraps a
NumPy PCG64 stream, so the same seed gives the same draws every run, but not the numbers torch's
Mersenne Twister gives.
"""

from __future__ import annotations

import secrets
from typing import Any

import numpy as np

from ._device import check_device


class Generator:
    """An independent random stream; ``manual_seed`` returns the generator, so calls chain."""

    def __init__(self, device: Any = "cpu") -> None:
        check_device(device)
        self.device = "cpu"
        self._seed = 67280421310721  # torch's default seed for a new Generator
        self._rng = np.random.default_rng(self._seed)

    def manual_seed(self, seed: int) -> Generator:
        self._seed = int(seed)
        self._rng = np.random.default_rng(self._seed)
        return self

    def seed(self) -> int:
        """Reseed from the operating system's entropy and return the new seed."""
        self.manual_seed(secrets.randbits(63))
        return self._seed

    def initial_seed(self) -> int:
        return self._seed

    def get_state(self) -> dict:
        return dict(self._rng.bit_generator.state)

    def set_state(self, state: dict) -> Generator:
        self._rng.bit_generator.state = state
        return self

    def __repr__(self) -> str:
        return f"<tensorlab.Generator object (seed={self._seed})>"
