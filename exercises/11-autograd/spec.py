"""Grading spec for 11-autograd: the graded functions, their points, and how many secret random cases."""

from autograder.spec import Exercise, Graded

EXERCISE = Exercise(
    notebook="autograd",
    graded=(
        Graded("sum_to_shape", points=2, random_cases=20),
        Graded("mul_backward", points=2, random_cases=20),
        Graded("matmul_backward", points=2, random_cases=20),
        Graded("topological_order", points=2, random_cases=20),
        Graded("backprop", points=2, random_cases=20),
    ),
    timeout=10.0,
    memory_mb=1024,
)
