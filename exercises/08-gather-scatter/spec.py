"""Grading spec for 08-gather-scatter: the graded functions, their points, and how many secret random cases."""

from autograder.spec import Exercise, Graded

EXERCISE = Exercise(
    notebook="gather_scatter",
    graded=(
        Graded("gather_loops", points=2, random_cases=20),
        Graded("scatter_add_loops", points=2, random_cases=20),
        Graded("gather_vectorised", points=3, random_cases=20),
        Graded("scatter_add_vectorised", points=3, random_cases=20),
    ),
    timeout=10.0,
    memory_mb=1024,
)
