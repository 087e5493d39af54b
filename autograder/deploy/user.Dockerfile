# The single-user image of a classroom hub: the server each student gets (z2jh's singleuser.image).
# JupyterLab 4, ipywidgets, anywidget, CPU torch, tensorlab and nbgrader's student extensions only.
# Build from the repository root (the tag is pyproject.toml's version):
#   docker build -f autograder/deploy/user.Dockerfile -t tensorlab-user:0.1.0 .
FROM python:3.11-slim-bookworm

# z2jh starts the server as uid 1000 and Jupyter will not run as root.
RUN useradd --create-home --uid 1000 --shell /bin/bash jovyan

# The whole course ships in the image (notebooks and exercise sources for `tensorlab student-tree`),
# installed editable so that tensorlab finds them next to its code.
WORKDIR /opt/tensorlab
COPY pyproject.toml README.md constraints.txt ./
COPY tensorlab tensorlab
COPY autograder autograder
COPY exercises exercises
COPY notebooks notebooks
RUN pip install --no-cache-dir -c constraints.txt -r autograder/deploy/requirements-user.txt -e .

# Students fetch, work and submit; creating assignments, the course list and the formgrader are the graders'.
RUN jupyter server extension disable --sys-prefix nbgrader.server_extensions.formgrader \
 && jupyter server extension disable --sys-prefix nbgrader.server_extensions.course_list \
 && jupyter labextension disable --level=sys_prefix @jupyter/nbgrader:formgrader \
 && jupyter labextension disable --level=sys_prefix @jupyter/nbgrader:course-list \
 && jupyter labextension disable --level=sys_prefix @jupyter/nbgrader:create-assignment

USER 1000
WORKDIR /home/jovyan
ENV HOME=/home/jovyan
CMD ["jupyterhub-singleuser"]
