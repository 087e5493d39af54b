"""Known wrong readings of a statement, recognised by what they return on the public cases.

Every mutant of an exercise is a plausible wrong answer with a name ("forgot keepdim"). On the public
cases it returns a particular set of wrong outcomes; ``fingerprint`` reduces those outcomes to a short
digest. The instructor's side computes the digest of each mutant once (``autograder/misconceptions.py``
writes ``misconceptions.json`` in the exercise's folder) and ships, in the public cases file, only
digests, names and nudges: no code and no outcome. When a learner's answer returns exactly what a
known mistake returns on every public case, the third tier of ``check()``'s feedback names it.

Values are rounded before hashing (floats to 6 decimals, -0.0 as 0.0, every NaN alike), so two machines
that differ in the last bits of a sum still agree; an exception counts by its class.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import numpy as np

__all__ = ["fingerprint"]


def canonical(value: Any) -> Any:
    """A JSON-ready, rounded rendering of a plain value (arrays keep their dtype and shape)."""
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "fc":
            rounded = np.round(value.astype(np.complex128 if value.dtype.kind == "c" else np.float64), 6) + 0.0
            body: Any = [str(item) for item in rounded.ravel().tolist()]  # nan, inf and -inf as text
        else:
            body = value.ravel().tolist()
        return {"dtype": value.dtype.str, "shape": list(value.shape), "values": body}
    if isinstance(value, np.generic):
        return canonical(np.asarray(value))
    if isinstance(value, float):
        return str(round(value, 6) + 0.0)
    if isinstance(value, (tuple, list)):
        return {type(value).__name__: [canonical(item) for item in value]}
    if isinstance(value, dict):
        return {"dict": [[key, canonical(item)] for key, item in sorted(value.items())]}
    return value


def fingerprint(outcomes: list[Any]) -> str:
    """The digest of a function's outcomes on the public cases, in order (``("raised", class)`` for an exception)."""
    text = json.dumps([canonical(outcome) for outcome in outcomes], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:20]
