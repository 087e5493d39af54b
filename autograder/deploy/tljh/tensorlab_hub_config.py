"""JupyterHub settings for tensorlab courses on The Littlest JupyterHub (TLJH reads this file from
/opt/tljh/config/jupyterhub_config.d/; tljh/install.sh puts it there).

Per course: a formgrader service named after the course id, run by the hub as the Unix user
grader-<course> in its course folder, with its own API token (a root-only file written by install.sh);
the group formgrade-<course> (graders: they open the formgrader) and nbgrader-<course> (students:
the course appears in their Assignments tab), and the roles that grant exactly that (JupyterHub 5).
The courses are listed in a JSON file that `install.sh course COURSE_ID GRADER` adds to:
{"<course id>": ["<hub users who grade it>", ...]}; then `sudo tljh-config reload hub`.
"""

import json
import os
from pathlib import Path

c = get_config()  # noqa: F821 - JupyterHub provides it

STATE = Path(os.environ.get("TENSORLAB_HUB_STATE", "/opt/tljh/state/tensorlab"))
COURSES_FILE = STATE / "courses.json"  # course id -> its graders (students are added later: docs/jupyterhub.md)
COURSES: dict[str, list[str]] = json.loads(COURSES_FILE.read_text()) if COURSES_FILE.exists() else {}
FIRST_PORT = 9990  # each course's formgrader listens on 127.0.0.1, one port per course

# TLJH sets services and roles of its own (the idle culler): add to them, never replace them.
# The servers' own tokens act as their users: nbgrader's course list asks the hub for the user's groups.
c.JupyterHub.load_roles.append({"name": "server", "scopes": ["inherit"]})
for number, (course, graders) in enumerate(sorted(COURSES.items())):
    c.JupyterHub.load_groups.update({f"formgrade-{course}": {"users": graders}, f"nbgrader-{course}": {"users": []}})
    c.JupyterHub.services.append({
        "name": course,
        "url": f"http://127.0.0.1:{FIRST_PORT + number}",
        "command": ["/opt/tljh/user/bin/jupyterhub-singleuser"],
        "user": f"grader-{course}",
        "cwd": f"/home/grader-{course}",  # the server's root: the course folder is ~/<course>
        "environment": {"JUPYTERHUB_DEFAULT_URL": "/lab"},
        "api_token": (STATE / f"{course}.token").read_text().strip(),
        "oauth_no_confirm": True,
    })
    c.JupyterHub.load_roles.extend([
        {"name": f"formgrade-{course}", "groups": [f"formgrade-{course}"],
         "scopes": [f"access:services!service={course}"]},
        {"name": f"nbgrader-{course}", "groups": [f"nbgrader-{course}"],
         "scopes": ["list:services", f"read:services!service={course}"]},
        {"name": f"formgrader-{course}", "services": [course],
         "scopes": ["list:groups", f"groups!group=nbgrader-{course}"]},
    ])
