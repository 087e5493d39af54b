"""Grading spec for 10-einsum-and-einops: the graded functions, their points, and how many secret random cases."""

from autograder.spec import Exercise, Graded

EXERCISE = Exercise(
    notebook="einsum_einops",
    graded=(
        Graded("einsum_shape", points=2, random_cases=20),
        Graded("mini_einsum", points=4, random_cases=20),
        Graded("bilinear_by_matmul", points=2, random_cases=20),
        Graded("attention_scores", points=2, random_cases=20),
        Graded("mini_rearrange", points=3, random_cases=20),
    ),
    timeout=10.0,
    memory_mb=1024,
)
