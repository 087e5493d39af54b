"""Grading spec for 07-indexing: the graded functions, their points, and how many secret random cases."""

from autograder.spec import Exercise, Graded

EXERCISE = Exercise(
    notebook="indexing",
    graded=(
        Graded("index_shape", points=3, random_cases=20),
        Graded("mask_select", points=2, random_cases=20),
        Graded("assignment_sources", points=3, random_cases=20),
        Graded("storage_positions", points=2, random_cases=20),
    ),
    timeout=10.0,
    memory_mb=1024,
)
