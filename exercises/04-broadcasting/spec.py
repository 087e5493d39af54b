"""Grading spec for 04-broadcasting: the graded functions, their points, and how many secret random cases."""

from autograder.spec import Exercise, Graded

EXERCISE = Exercise(
    notebook="broadcasting",
    graded=(
        Graded("broadcast_shape", points=2, random_cases=20),
        Graded("broadcast_add", points=3, random_cases=20),
        Graded("expand_to", points=2, random_cases=20),
    ),
    timeout=10.0,
    memory_mb=1024,
)
