"""``tensorlab.Generator``: a random stream of its own, the same stream torch's CPU generator is.

``random_split(ds, [0.8, 0.2], generator=torch.Generator().manual_seed(42))`` is how tutorials
make a split that does not move when other code draws random numbers. A Generator here is what
torch's ``CPUGeneratorImpl`` is: one Mersenne Twister (:mod:`tensorlab._mt19937`) plus the spare
normal sample that Box-Muller makes two at a time. Seeded alike, tensorlab and torch draw the same
words, so every distribution built on them can match torch's numbers.

The global stream (``manual_seed``, ``seed``, ``initial_seed``, ``get_rng_state``,
``set_rng_state``) is one more Generator, ``default_generator``; like torch's, it starts from a
non-deterministic seed, so call ``manual_seed`` for reproducible runs.

``get_state()`` is a 5056-byte uint8 tensor laid out exactly as torch's (the C struct of its old
THGenerator, kept for compatibility), so a state saved by one library can be loaded by the other.
"""

from __future__ import annotations

import secrets
from typing import Any

import numpy as np

from ._device import check_device
from ._dtype import uint8
from ._mt19937 import MT19937, STATE_SIZE
from ._tensor import Tensor

DEFAULT_SEED = 67280421310721  # what torch seeds a new Generator with

# torch's CPUGeneratorImplState, byte for byte: the legacy THGeneratorState, then the float cache.
STATE_LAYOUT = np.dtype([
    ("the_initial_seed", "<u8"), ("left", "<i4"), ("seeded", "<i4"), ("next", "<u8"),
    ("state", "<u8", (STATE_SIZE,)),
    ("normal_x", "<f8"), ("normal_y", "<f8"), ("normal_rho", "<f8"), ("normal_is_valid", "<i4"), ("pad", "V4"),
    ("next_float_normal_sample", "<f4"), ("is_next_float_normal_sample_valid", "u1"), ("pad2", "V3"),
])  # fmt: skip


def _as_uint64(seed: Any) -> int:
    """torch's seeds are 64-bit: a negative seed wraps around (two's complement)."""
    seed = int(seed)
    if not -(2**63) <= seed < 2**64:
        raise ValueError("Overflow when unpacking long long")
    return seed & (2**64 - 1)


def _fresh_seed() -> int:
    """A non-deterministic seed, 53 bits like torch's (so it survives a round trip through a double)."""
    return secrets.randbits(53)


class Generator:
    """An independent random stream; ``manual_seed`` returns the generator, so calls chain."""

    def __init__(self, device: Any = "cpu") -> None:
        check_device(device)
        self.device = "cpu"
        self.engine = MT19937(DEFAULT_SEED)
        self.next_double_normal: float | None = None  # Box-Muller's spare, for the scalar normal path
        self.next_float_normal: float | None = None  # kept only so that states round-trip

    def manual_seed(self, seed: int) -> Generator:
        self.engine.seed(_as_uint64(seed))
        self.next_double_normal = self.next_float_normal = None
        return self

    def seed(self) -> int:
        """Reseed from the operating system's entropy and return the new seed."""
        new = _fresh_seed()
        self.manual_seed(new)
        return new

    def initial_seed(self) -> int:
        return self.engine.initial_seed

    def get_state(self) -> Tensor:
        """torch's 5056-byte state: seed, position, the 624 words, the cached normal samples."""
        record = np.zeros((), dtype=STATE_LAYOUT)
        record["the_initial_seed"] = self.engine.initial_seed
        record["left"], record["seeded"], record["next"] = self.engine.left, 1, self.engine.next
        record["state"] = self.engine.state
        if self.next_double_normal is not None:
            record["normal_is_valid"], record["normal_y"] = 1, self.next_double_normal
        if self.next_float_normal is not None:
            record["is_next_float_normal_sample_valid"], record["next_float_normal_sample"] = 1, self.next_float_normal
        return Tensor._from_array(np.frombuffer(record.tobytes(), dtype=np.uint8).copy(), uint8)

    def set_state(self, new_state: Tensor) -> Generator:
        if not isinstance(new_state, Tensor) or new_state.dtype is not uint8:
            raise TypeError("expected a torch.ByteTensor as the new state")
        raw = np.ascontiguousarray(new_state.numpy()).tobytes()
        if len(raw) != STATE_LAYOUT.itemsize:
            raise RuntimeError(
                f"Expected a CPUGeneratorImplState of size {STATE_LAYOUT.itemsize} but found the input RNG state size to be {len(raw)}"
            )
        record = np.frombuffer(raw, dtype=STATE_LAYOUT)[0]
        left, seeded, next_ = int(record["left"]), int(record["seeded"]), int(record["next"])
        if not (seeded == 1 and 0 < left <= STATE_SIZE and next_ <= STATE_SIZE):
            raise RuntimeError("Invalid mt19937 state")
        self.engine.initial_seed = int(record["the_initial_seed"])
        self.engine.state = record["state"].astype(np.uint32)
        self.engine.left, self.engine.next = left, next_
        self.next_double_normal = float(record["normal_y"]) if record["normal_is_valid"] else None
        valid_float = record["is_next_float_normal_sample_valid"]
        self.next_float_normal = float(record["next_float_normal_sample"]) if valid_float else None
        return self

    def __repr__(self) -> str:
        return f"<tensorlab.Generator object (seed={self.initial_seed()})>"


default_generator = Generator().manual_seed(_fresh_seed())


def manual_seed(seed: int) -> Generator:
    """Reseed the global stream: the draws that follow are torch's draws for the same seed."""
    return default_generator.manual_seed(seed)


def seed() -> int:
    """Reseed the global stream non-deterministically and return the seed."""
    return default_generator.seed()


def initial_seed() -> int:
    return default_generator.initial_seed()


def get_rng_state() -> Tensor:
    return default_generator.get_state()


def set_rng_state(new_state: Tensor) -> None:
    default_generator.set_state(new_state)


def generator_or_default(generator: Any, function: str = "random") -> Generator:
    """The stream a draw uses: the ``generator=`` given, else the global one; anything else is
    torch's TypeError."""
    if generator is None:
        return default_generator
    if isinstance(generator, Generator):
        return generator
    raise TypeError(f"{function}(): argument 'generator' must be torch.Generator, not {type(generator).__name__}")
