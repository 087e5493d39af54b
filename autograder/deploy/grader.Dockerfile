# The grader's image: the students' image (same pins, same tensorlab) plus the formgrader and the
# PostgreSQL driver. It runs the formgrader service of a course (k8s/formgrader.yaml) and the
# sharded autograde job (k8s/autograde-job.yaml). Build user.Dockerfile first, then, from the root:
#   docker build -f autograder/deploy/grader.Dockerfile -t tensorlab-grader:0.1.0 .
ARG USER_IMAGE=tensorlab-user:0.1.0
FROM ${USER_IMAGE}

USER root
WORKDIR /opt/tensorlab
RUN pip install --no-cache-dir -c constraints.txt -r autograder/deploy/requirements-grader.txt -e .
RUN jupyter server extension enable --sys-prefix nbgrader.server_extensions.formgrader \
 && jupyter server extension enable --sys-prefix nbgrader.server_extensions.course_list \
 && jupyter labextension enable --level=sys_prefix @jupyter/nbgrader:formgrader \
 && jupyter labextension enable --level=sys_prefix @jupyter/nbgrader:course-list \
 && jupyter labextension enable --level=sys_prefix @jupyter/nbgrader:create-assignment

USER 1000
WORKDIR /home/jovyan
CMD ["jupyterhub-singleuser"]
