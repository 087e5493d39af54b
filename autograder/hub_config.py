"""nbgrader's settings on a classroom JupyterHub, written from a course directory (``tensorlab course hub-config``).

A hub needs two files, read by nbgrader wherever it runs (a student's server, the formgrader):

    /etc/jupyter/nbgrader_config.py                 global: where the exchange is, and that it holds
                                                    several courses, one folder each (``path_includes_course``);
                                                    courses come from the hub's groups nbgrader-<course>
                                                    and formgrade-<course> (``JupyterHubAuthPlugin``)
    ~grader-<course>/.jupyter/nbgrader_config.py    per course: its id, its folder, its gradebook,
                                                    and how long nbgrader may run a cell

The per-course file carries the gradebook URL (a PostgreSQL password, perhaps): it is written
readable by its owner only.
"""

from __future__ import annotations

from pathlib import Path

from .course import Course
from .student_tree import CODE_STUB

__all__ = ["CELL_TIMEOUT", "KERNEL_START_TIMEOUT", "course_config", "global_config", "write_hub_config"]

# nbgrader executes notebooks itself when the formgrader's buttons are used (tensorlab's grader does
# not): a torch import on a busy hub takes seconds, so its 30 s default per cell is too tight.
CELL_TIMEOUT = 120
KERNEL_START_TIMEOUT = 120

GLOBAL_TEMPLATE = '''\
"""nbgrader's settings for every user of this hub, written by `tensorlab course hub-config`.

Install as /etc/jupyter/nbgrader_config.py (on Kubernetes: z2jh's singleuser.extraFiles).
"""
c = get_config()  # noqa: F821 - nbgrader provides it
c.Exchange.root = {exchange!r}
c.Exchange.path_includes_course = True  # one exchange, several courses: <root>/<course_id>/...
# A student's courses are the hub groups nbgrader-<course> (students) and formgrade-<course> (graders).
c.Authenticator.plugin_class = "nbgrader.auth.JupyterHubAuthPlugin"
'''

COURSE_TEMPLATE = '''\
"""nbgrader's settings for the course {course_id!r}, written by `tensorlab course hub-config`.

Install as ~grader-{course_id}/.jupyter/nbgrader_config.py, the formgrader service's account.
"""
c = get_config()  # noqa: F821 - nbgrader provides it
c.CourseDirectory.course_id = {course_id!r}
c.CourseDirectory.root = {root!r}
c.CourseDirectory.db_url = {db_url!r}
c.ClearSolutions.code_stub = {code_stub!r}
c.Execute.timeout = {cell_timeout}  # seconds per cell when nbgrader itself runs a notebook
c.Execute.startup_timeout = {kernel_start_timeout}  # seconds for a kernel to start
'''


def global_config(exchange: str) -> str:
    """The hub-wide settings: the exchange folder, shared by all courses."""
    return GLOBAL_TEMPLATE.format(exchange=exchange)


def course_config(course: Course, root: str | None = None) -> str:
    """The course's settings, from its ``tensorlab-course.json``; ``root`` is where the course folder
    lies on the hub (default: where it lies now)."""
    return COURSE_TEMPLATE.format(
        course_id=course.course_id, root=root or str(course.root.resolve()),
        db_url=course.db_url_under(root) if root else course.db_url,
        code_stub={"python": CODE_STUB},
        cell_timeout=CELL_TIMEOUT, kernel_start_timeout=KERNEL_START_TIMEOUT,
    )


def write_hub_config(course: Course, exchange: str, output: Path, root: str | None = None) -> tuple[Path, Path]:
    """Write ``output/global_nbgrader_config.py`` and ``output/course_nbgrader_config.py`` (owner-only)."""
    output.mkdir(parents=True, exist_ok=True)
    global_path = output / "global_nbgrader_config.py"
    global_path.write_text(global_config(exchange))
    course_path = output / "course_nbgrader_config.py"
    course_path.touch(mode=0o600)
    course_path.chmod(0o600)  # touch keeps an existing file's mode
    course_path.write_text(course_config(course, root))
    return global_path, course_path
