"""Grading spec for 02-reshape-and-view: the graded functions, their points, and how many secret random cases."""

from autograder.spec import Exercise, Graded

EXERCISE = Exercise(
    notebook="reshape_and_view",
    graded=(
        Graded("infer_shape", points=2, random_cases=20),
        Graded("view_strides", points=4, random_cases=20),
        Graded("flatten_meta", points=2, random_cases=20),
        Graded("unflatten_meta", points=2, random_cases=20),
    ),
    timeout=10.0,
    memory_mb=1024,
)
