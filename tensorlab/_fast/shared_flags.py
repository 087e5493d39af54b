"""One tuple object per distinct ``needs_input_grad`` of the graph's nodes.

Every node keeps a tuple of flags, and a training graph holds the same few tuples
(``(True, True)``, ``(True, False)``...) over and over. Sharing one object per distinct tuple means
a graph of 100,000 nodes holds 100,000 fewer objects for Python's garbage collector to walk.
"""

from __future__ import annotations

_SHARED: dict[tuple[bool, ...], tuple[bool, ...]] = {}


def shared(flags: tuple[bool, ...]) -> tuple[bool, ...]:
    """The one stored tuple equal to ``flags`` (stored now if it is the first)."""
    return _SHARED.setdefault(flags, flags)
