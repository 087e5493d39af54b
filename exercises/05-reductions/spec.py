"""Grading spec for 05-reductions: the graded functions, their points, and how many secret random cases."""

from autograder.spec import Exercise, Graded

EXERCISE = Exercise(
    notebook="reductions",
    graded=(
        Graded("sum_dims_loops", points=2, random_cases=20),
        Graded("sum_dims_vectorised", points=3, random_cases=20),
        Graded("logsumexp", points=2, random_cases=20),
        Graded("softmax", points=2, random_cases=20),
        Graded("argmax", points=2, random_cases=20),
    ),
    timeout=10.0,
    memory_mb=1024,
)
