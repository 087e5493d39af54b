"""Grading spec for 16-distributed: the ring collectives on a simulator, DDP's gradient buckets, and a
mini-DDP graded in real gloo processes."""

from autograder.spec import Exercise, Graded

EXERCISE = Exercise(
    notebook="distributed",
    graded=(
        Graded("ring_reduce_scatter", points=3, random_cases=20),
        Graded("ring_all_gather", points=2, random_cases=20),
        Graded("ring_all_reduce", points=2, random_cases=20),
        Graded("bucket_gradients", points=3, random_cases=20),
        Graded("attach_gradient_averaging", points=3, random_cases=20),
    ),
    timeout=10.0,  # the mini-DDP's task asks for more itself (torch and 4 gloo ranks start)
    memory_mb=1024,
)
