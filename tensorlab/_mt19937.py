"""The Mersenne Twister (mt19937): the engine behind torch's CPU random numbers.

Every random tensor torch makes on the CPU starts as 32-bit words from one mt19937 (Matsumoto &
Nishimura, 1998), seeded the way torch seeds it; the distributions (:mod:`tensorlab._distributions`)
only transform these words. Reproducing the engine word for word is what lets tensorlab draw the
same numbers as torch for the same seed.

The state is 624 words. Read as one long sequence ``x``, the generator is a linear recurrence::

    x[k + 624] = x[k + 397] ^ twist(x[k], x[k + 1])

and each output is a "tempered" ``x``: a fixed bit shuffle that hides the linear structure. The
twist reads only words 623 or more back, and the xor tap 227 (= 624 - 397) back, so hundreds of new
words are computed at once with NumPy; tempering is elementwise. That keeps a million draws in NumPy, not in
a Python loop per number.
"""

from __future__ import annotations

import numpy as np

STATE_SIZE = 624  # N: words of state
SHIFT = 397  # M: the recurrence's middle tap
BLOCK = STATE_SIZE - SHIFT  # 227: new words that depend only on words already known
MATRIX_A = np.uint32(0x9908B0DF)
UPPER_MASK = np.uint32(0x80000000)
LOWER_MASK = np.uint32(0x7FFFFFFF)


def seeded_state(seed: int) -> np.ndarray:
    """The 624 words torch's ``mt19937(seed)`` starts from: Knuth's multiplicative recurrence on
    the seed's low 32 bits (the other 32 bits of torch's 64-bit seed are kept, but not used)."""
    state = [seed & 0xFFFFFFFF]
    for j in range(1, STATE_SIZE):
        previous = state[-1]
        state.append((1812433253 * (previous ^ (previous >> 30)) + j) & 0xFFFFFFFF)
    return np.array(state, dtype=np.uint32)


def twist(upper: np.ndarray, lower: np.ndarray) -> np.ndarray:
    """The part of a new word computed from the words 624 and 623 places back: the top bit of
    one and the low 31 of the other, shifted right and folded through MATRIX_A when odd."""
    y = (upper & UPPER_MASK) | (lower & LOWER_MASK)
    return (y >> np.uint32(1)) ^ ((y & np.uint32(1)) * MATRIX_A)


def _extend(words: np.ndarray, generations: int) -> np.ndarray:
    """``words`` (624 of them) followed by ``generations`` * 624 more words of the recurrence.

    A new word x[j] = x[j - 227] ^ twist(x[j - 624], x[j - 623]). The twists only read words at
    least 623 back, so 623 of them are computed at once; the xor with x[j - 227] then runs in
    slices of 227, each slice reading the one before it."""
    x = np.empty(STATE_SIZE * (generations + 1), dtype=np.uint32)
    x[:STATE_SIZE] = words
    end = x.size
    for first in range(STATE_SIZE, end, STATE_SIZE - 1):
        last = min(first + STATE_SIZE - 1, end)
        twists = twist(x[first - STATE_SIZE : last - STATE_SIZE], x[first - STATE_SIZE + 1 : last - STATE_SIZE + 1])
        for start in range(first, last, BLOCK):
            stop = min(start + BLOCK, last)
            x[start:stop] = x[start - BLOCK : stop - BLOCK] ^ twists[start - first : stop - first]
    return x


def temper(y: np.ndarray) -> np.ndarray:
    """The output bit shuffle (elementwise, so vectorised over any number of words)."""
    y = y ^ (y >> np.uint32(11))
    y = y ^ ((y << np.uint32(7)) & np.uint32(0x9D2C5680))
    y = y ^ ((y << np.uint32(15)) & np.uint32(0xEFC60000))
    return y ^ (y >> np.uint32(18))


class MT19937:
    """mt19937 with torch's bookkeeping: ``left`` and ``next`` are the fields torch saves in
    ``get_rng_state()``. ``left - 1`` words of the current state are still unread, from ``next`` on;
    ``left == 1`` means "twist before the next draw" (as after seeding)."""

    def __init__(self, seed: int = 5489) -> None:
        self.seed(seed)

    def seed(self, seed: int) -> None:
        self.initial_seed = seed
        self.state = seeded_state(seed)
        self.left = 1
        self.next = 0

    def random32(self, n: int) -> np.ndarray:
        """The next ``n`` 32-bit outputs (uint32), in order."""
        unread = self.left - 1
        if n <= unread:
            words = self.state[self.next : self.next + n]
            self.next += n
            self.left -= n
            return temper(words)
        generations = -(-(n - unread) // STATE_SIZE)
        sequence = _extend(self.state, generations)
        start = STATE_SIZE - unread  # the unread old words, then new ones
        words = sequence[start : start + n]
        self.state = sequence[-STATE_SIZE:].copy()
        self.next = (n - unread) - STATE_SIZE * (generations - 1)
        self.left = STATE_SIZE + 1 - self.next
        return temper(words)

    def random64(self, n: int) -> np.ndarray:
        """``n`` 64-bit outputs (uint64): two 32-bit words each, the first one high, as torch's
        ``random64()`` joins them."""
        words = self.random32(2 * n).astype(np.uint64)
        return (words[0::2] << np.uint64(32)) | words[1::2]
