"""Grading spec for 15-memory-and-speed: a saved-bytes meter, a checkpoint plan under a budget, two slow
patterns vectorised."""

from autograder.spec import Exercise, Graded

EXERCISE = Exercise(
    notebook="memory_speed",
    graded=(
        Graded("peak_saved_bytes", points=2, random_cases=20),
        Graded("checkpoint_plan", points=3, random_cases=20),
        Graded("row_standardise", points=2, random_cases=20),
        Graded("batched_linear", points=2, random_cases=20),
    ),
    timeout=10.0,
    memory_mb=1024,
)
