"""Grading spec for 14-compiler: the graded functions, their points, and how many secret random cases."""

from autograder.spec import Exercise, Graded

EXERCISE = Exercise(
    notebook="compiler",
    graded=(
        Graded("eliminate_dead_code", points=2, random_cases=20),
        Graded("eliminate_common_subexpressions", points=2, random_cases=20),
        Graded("fuse_elementwise", points=2, random_cases=20),
        Graded("split_at_breaks", points=2, random_cases=20),
    ),
    timeout=10.0,
    memory_mb=1024,
)
