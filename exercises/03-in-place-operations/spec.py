"""Grading spec for 03-in-place-operations: the graded functions, their points, and how many secret random cases."""

from autograder.spec import Exercise, Graded

EXERCISE = Exercise(
    notebook="in_place",
    graded=(
        Graded("track_versions", points=3, random_cases=20),
        Graded("relu_forward_", points=2, random_cases=20),
        Graded("relu_backward", points=2, random_cases=20),
        Graded("overlapping_pairs", points=3, random_cases=20),
    ),
    timeout=10.0,
    memory_mb=1024,
)
