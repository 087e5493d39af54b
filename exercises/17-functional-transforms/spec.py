"""Grading spec for 17-functional-transforms: per-example gradients, two batching rules, jacrev from a vjp."""

from autograder.spec import Exercise, Graded

EXERCISE = Exercise(
    notebook="functional_transforms",
    graded=(
        Graded("per_example_grads", points=3, random_cases=20),
        Graded("sum_batch_rule", points=2, random_cases=20),
        Graded("matmul_batch_rule", points=3, random_cases=20),
        Graded("tanh_layer_jacobian", points=2, random_cases=20),
    ),
    timeout=10.0,
    memory_mb=1024,
)
