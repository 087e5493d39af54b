"""Grading spec for 01-tensors-and-views: the graded functions, their points, and how many secret random cases."""

from autograder.spec import Exercise, Graded

EXERCISE = Exercise(
    notebook="tensors_and_views",
    graded=(
        Graded("storage_index", points=2, random_cases=20),
        Graded("contiguous_strides", points=2, random_cases=20),
        Graded("permute_meta", points=3, random_cases=20),
        Graded("broadcast_index", points=3, random_cases=20),
    ),
    timeout=10.0,
    memory_mb=1024,
)
