"""Grading spec for 12-modules-and-losses: the graded functions, their points, and how many secret random cases."""

from autograder.spec import Exercise, Graded

EXERCISE = Exercise(
    notebook="modules_losses",
    graded=(
        Graded("state_dict_shapes", points=2, random_cases=20),
        Graded("forward_with_hooks", points=2, random_cases=20),
        Graded("cross_entropy", points=3, random_cases=20),
        Graded("binary_auroc", points=2, random_cases=20),
        Graded("loss_mismatch", points=2, random_cases=20),
    ),
    timeout=10.0,
    memory_mb=1024,
)
