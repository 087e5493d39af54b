"""Grading spec for 06-combine-and-split: the graded functions, their points, and how many secret random cases."""

from autograder.spec import Exercise, Graded

EXERCISE = Exercise(
    notebook="combine_split",
    graded=(
        Graded("cat", points=3, random_cases=20),
        Graded("stack", points=2, random_cases=20),
        Graded("chunk_sizes", points=2, random_cases=20),
        Graded("unbind_views", points=2, random_cases=20),
    ),
    timeout=10.0,
    memory_mb=1024,
)
