"""mytorch: your own torch, grown unit by unit from your answers to the exercises of units 01-12.

Every graded function of those exercises is here under its task name (``from mytorch import softmax,
sum_to_shape``), defined by your saved answer cells: the function and every helper it uses, cut out of
the notebook the way the grader cuts it. Nothing to write in this file.

- A function you have not written yet (still nbgrader's ``raise NotImplementedError()``) raises
  NotImplementedError naming the notebook to finish.
- After a unit's deadline your instructor may publish its solution (``NN-topic/solution/``): it is
  used only where your own piece is missing. To fall back on it for a piece you wrote that is broken,
  put the stub back (``raise NotImplementedError()``) as that function's body and save.
- mytorch reads the saved notebooks when it is imported: after saving a change, restart the kernel
  (or ``importlib.reload(mytorch)``).

Your later exercises import from here. The grade of each exercise stays its own: the grader gives a
later exercise the course's pieces, so a broken earlier piece never costs a later grade.
"""

import sys
from pathlib import Path

from tensorlab.grading.student_library import load

load(sys.modules[__name__], Path(__file__).resolve().parent.parent)
