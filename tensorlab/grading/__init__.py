"""The grading engine: static rules, the sandbox, the comparison, and the notebooks' ``check()``.

Test cells are one line, ``check("gather_loops", gather_loops)``: the checking logic lives here,
not in the notebook, and the cases it checks on come with the released exercise as plain data
(``tensorlab-cases.json``). No exercise's answers are in this package: each exercise's tasks
(references, case generators, mutants) stay in its folder on the instructor's side, and the grade
that counts is computed out of the kernel by ``tensorlab course autograde``.
"""

from .check import CheckFailed, check, public_case
from .compare import Raised, Tolerance, difference
from .student_library import install_finder
from .tasks import Alternative, Clause, Exercise, Mutant, Rules, Task

install_finder()  # ``import mytorch`` in any exercise notebook: the student's own pieces (student_library.py)

__all__ = ["Alternative", "CheckFailed", "Clause", "Exercise", "Mutant", "Raised", "Rules", "Task", "Tolerance", "check",
           "difference", "public_case"]
