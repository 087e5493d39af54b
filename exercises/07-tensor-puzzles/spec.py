"""Grading spec for 07-tensor-puzzles: sixteen one-line puzzles, a point each, 20 secret random cases each."""

from autograder.spec import Exercise, Graded

EXERCISE = Exercise(
    notebook="puzzles",
    graded=(
        Graded("ones", points=1, random_cases=20),
        Graded("total", points=1, random_cases=20),
        Graded("outer", points=1, random_cases=20),
        Graded("diag", points=1, random_cases=20),
        Graded("eye", points=1, random_cases=20),
        Graded("triu", points=1, random_cases=20),
        Graded("cumsum", points=1, random_cases=20),
        Graded("diff", points=1, random_cases=20),
        Graded("vstack", points=1, random_cases=20),
        Graded("roll", points=1, random_cases=20),
        Graded("flip", points=1, random_cases=20),
        Graded("compress", points=1, random_cases=20),
        Graded("pad_to", points=1, random_cases=20),
        Graded("sequence_mask", points=1, random_cases=20),
        Graded("bincount", points=1, random_cases=20),
        Graded("scatter_add", points=1, random_cases=20),
    ),
    timeout=10.0,
    memory_mb=1024,
)
