"""Grading spec for 13-kernels-and-precision: three Triton kernels launched on the interpreter inside
canary buffers, and a float format rounded by hand. Few secret random cases for the kernels: every case
is a launch on Triton's interpreter, and the clauses already cover each edge."""

from autograder.spec import Exercise, Graded

EXERCISE = Exercise(
    notebook="kernels_precision",
    graded=(
        Graded("bias_relu_kernel", points=2, random_cases=2),
        Graded("row_softmax_kernel", points=3, random_cases=2),
        Graded("matmul_tile_kernel", points=3, random_cases=2),
        Graded("round_to_format", points=3, random_cases=20),
    ),
    timeout=10.0,  # the kernels' tasks ask for more themselves (triton starts in the sandbox, and each case is an interpreter launch)
    memory_mb=1024,
)
