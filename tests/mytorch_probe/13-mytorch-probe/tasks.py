"""A probe exercise for tests/test_student_library.py: a later unit whose answer imports an earlier piece
(unit 05's ``logsumexp``) from mytorch. Copied beside exercise 05 by the tests, never released."""

from __future__ import annotations

import numpy as np

from tensorlab.grading import Clause, Exercise, Task
from tensorlab.grading.rules import PURE_STANDARD_LIBRARY


def log_softmax_reference(x: np.ndarray) -> np.ndarray:
    """log(softmax(x)) along dim 1, shifted by the row maximum so that large values do not overflow."""
    top = x.max(axis=1, keepdims=True)
    return x - (top + np.log(np.exp(x - top).sum(axis=1, keepdims=True)))


def random_log_softmax_case(rng: np.random.Generator) -> tuple[np.ndarray]:
    """1 to 4 rows of 1 to 5 float64 values, spread wide (scale 10)."""
    rows, columns = (int(size) for size in rng.integers(1, 5, size=2))
    return (rng.normal(size=(rows, columns + 1)) * 10,)


LOG_SOFTMAX = Task(
    name="log_softmax", hint="log(softmax(x)) is x minus the log of the sum of exp(x) along the row: which piece "
    "of unit 05 computes that last part?", reference=log_softmax_reference,
    examples=[(np.array([[1.0, 2.0], [3.0, 4.0]]),)],
    clauses=[Clause("Large values do not overflow.", (np.array([[1000.0, 0.0], [-1000.0, 1.0]]),))],
    random_case=random_log_softmax_case, random_cases=5, inputs="1 to 4 rows of float64 values",
    building_blocks=("numpy", "mytorch", *PURE_STANDARD_LIBRARY),
)

EXERCISE = Exercise(notebook="probe", tasks=(LOG_SOFTMAX,))
