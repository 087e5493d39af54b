"""Grading spec for 09-convolutions: the graded functions, their points, and how many secret random cases."""

from autograder.spec import Exercise, Graded

EXERCISE = Exercise(
    notebook="convolutions",
    graded=(
        Graded("conv1d_loops", points=2, random_cases=20),
        Graded("unfold1d", points=3, random_cases=20),
        Graded("conv1d_unfold", points=3, random_cases=20),
        Graded("conv1d_input_grad", points=3, random_cases=20),
    ),
    timeout=10.0,
    memory_mb=1024,
)
