#!/usr/bin/env bash
# tensorlab on The Littlest JupyterHub (TLJH), after TLJH itself is installed (https://tljh.jupyter.org):
#   sudo autograder/deploy/tljh/install.sh hub                 # once: user environment, exchange, settings
#   sudo autograder/deploy/tljh/install.sh course tl101 instructor1 [DB_URL]   # per course: grader account,
#                                                   token, course folder, formgrader service; instructor1 grades it
# DB_URL: the course's shared gradebook (postgresql+psycopg2://...); without it, SQLite in the course folder.
# Run from a clone of tensorlab at /opt/tensorlab (readable by every user). Nothing here downloads the
# course: pip installs the pinned packages into TLJH's user environment, /opt/tljh/user.
set -euo pipefail

REPO=/opt/tensorlab
USER_ENV=/opt/tljh/user
EXCHANGE=/srv/nbgrader/exchange
STATE=/opt/tljh/state/tensorlab  # courses.json and one API token per course, root only
cd "$REPO"

hub() {
  # TLJH has one environment for all users: the grader's (the students' pins, as in the Docker images,
  # plus the PostgreSQL driver); the formgrader is switched off here and on for the grader accounts.
  "$USER_ENV/bin/pip" install --no-cache-dir -c constraints.txt -r autograder/deploy/requirements-grader.txt -e .
  # Students see nbgrader's assignment list and validate button; graders switch the rest on for themselves.
  "$USER_ENV/bin/jupyter" server extension disable --sys-prefix nbgrader.server_extensions.formgrader
  "$USER_ENV/bin/jupyter" server extension disable --sys-prefix nbgrader.server_extensions.course_list
  for plugin in formgrader course-list create-assignment; do
    "$USER_ENV/bin/jupyter" labextension disable --level=sys_prefix "@jupyter/nbgrader:$plugin"
  done
  # The exchange: everyone may write, the sticky bit keeps anyone but the owner from deleting or
  # renaming a course's folder (nbgrader sets the modes of what it creates inside).
  install -d -m 1777 "$EXCHANGE"
  install -d -m 700 "$STATE"
  # The global nbgrader settings, the same file `tensorlab course hub-config` writes.
  install -d /etc/jupyter
  "$USER_ENV/bin/python" -c "from autograder.hub_config import global_config; print(global_config('$EXCHANGE'), end='')" \
    > /etc/jupyter/nbgrader_config.py
  install -m 644 autograder/deploy/tljh/tensorlab_hub_config.py /opt/tljh/config/jupyterhub_config.d/tensorlab.py
  # JupyterHub 5 lets in only the users it is told about: the admin adds them (or use allowed groups).
  tljh-config set user_environment.default_app jupyterlab
  tljh-config set limits.memory 3G
  tljh-config set limits.cpu 2
  tljh-config reload hub
}

course() {
  local id=$1 instructor=$2 db=${3:-} grader="grader-$1"
  id -u "$grader" >/dev/null 2>&1 || useradd --create-home --shell /bin/bash "$grader"
  [ -s "$STATE/$id.token" ] || (umask 077 && openssl rand -hex 32 > "$STATE/$id.token")
  # The course folder and its settings, as the grader; then the formgrader switched on for that account.
  sudo -u "$grader" -H "$USER_ENV/bin/tensorlab" course init "/home/$grader/$id" --course-id "$id" ${db:+--db "$db"}
  sudo -u "$grader" -H "$USER_ENV/bin/tensorlab" course hub-config "/home/$grader/$id" --exchange "$EXCHANGE"
  sudo -u "$grader" -H install -D -m 600 "/home/$grader/$id/hub/course_nbgrader_config.py" \
    "/home/$grader/.jupyter/nbgrader_config.py"
  sudo -u "$grader" -H "$USER_ENV/bin/jupyter" server extension enable --user nbgrader.server_extensions.formgrader
  for plugin in formgrader create-assignment; do
    sudo -u "$grader" -H "$USER_ENV/bin/jupyter" labextension enable --level=user "@jupyter/nbgrader:$plugin"
  done
  # The course's service, groups and roles (tensorlab_hub_config.py reads this list).
  "$USER_ENV/bin/python" - "$STATE/courses.json" "$id" "$instructor" <<'PYTHON'
import json, sys
from pathlib import Path
path, course, instructor = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
courses = json.loads(path.read_text()) if path.exists() else {}
courses[course] = sorted(set(courses.get(course, [])) | {instructor})
path.write_text(json.dumps(courses, indent=1) + "\n")
PYTHON
  tljh-config add-item users.allowed "$instructor"
  tljh-config reload hub
}

case "${1:-}" in
  hub) hub ;;
  course) course "${2:?usage: install.sh course COURSE_ID GRADER [DB_URL]}" "${3:?usage: install.sh course COURSE_ID GRADER [DB_URL]}" "${4:-}" ;;
  *) echo "usage: install.sh hub | install.sh course COURSE_ID GRADER [DB_URL]" >&2; exit 2 ;;
esac
