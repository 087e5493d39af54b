"""Checks for the exercise notebooks, and the tasks (references and cases) they check against.

Test cells are one line, ``check("gather_loops", gather_loops)``: the checking logic lives
here, not in the notebook. The grade that counts is computed out of the kernel by the
autograder (``tensorlab course autograde``), which reuses these tasks with secret cases.
"""

from .check import CheckFailed, check
from .compare import Raised, Tolerance, difference
from .tasks import Task, all_tasks, find_task

__all__ = ["CheckFailed", "Raised", "Task", "Tolerance", "all_tasks", "check", "difference", "find_task"]
