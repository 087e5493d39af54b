# Two commands: `make lab` (set up, then open the student tree, build/student, in JupyterLab) and `make test`
# (set up, then run the whole suite). Setup is idempotent: a stamp file records that the
# environment matches pyproject.toml and constraints.txt, so the second run starts at once.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
JOBS ?= 2
# JupyterLab listens on this machine only unless you ask otherwise (LAB_IP=0.0.0.0 make lab).
LAB_IP ?= 127.0.0.1
LAB_PORT ?= 8888
LAB_ARGS ?=
# What JupyterLab serves: the walkthroughs and the released exercises, never the solutions
# (`tensorlab student-tree`). Building it again only adds missing notebooks: your work is kept.
STUDENT_DIR ?= build/student
# Jupyter refuses to run as root (containers, CI) unless told that it is on purpose.
LAB_AS_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root)
# The student's JupyterLab has none of nbgrader (a dependency of tensorlab, whose formgrader, course list and
# create-assignment menus fail with no course configured): these settings switch it off for this launch
# only, outranking the environment's (JUPYTER_CONFIG_PATH); your own `jupyter lab` keeps it.
STUDENT_JUPYTER_CONFIG := $(CURDIR)/autograder/student-jupyter-config

CHROMIUM := /usr/bin/chromium
# PostgreSQL's server binaries, for the gradebook tests against a real server.
POSTGRES := $(firstword $(wildcard /usr/lib/postgresql/*/bin/pg_ctl))

.PHONY: lab test lint bench bench-check bench-readme op-index setup clean postgres-server hub-proxy

setup: $(STAMP)

# The browser tests drive Debian's chromium through Playwright's executable_path (a browser
# download, `playwright install`, is never used). Installed once, with apt, as root or via sudo.
$(CHROMIUM):
	SUDO=$$([ "$$(id -u)" -eq 0 ] || echo sudo); \
	$$SUDO apt-get update -qq && \
	DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends chromium chromium-driver

# Learner code runs in its own OS namespaces through bubblewrap (Debian's bubblewrap package); the
# isolation tests need it. Installed once, with apt, as root or via sudo.
BWRAP := /usr/bin/bwrap
$(BWRAP):
	SUDO=$$([ "$$(id -u)" -eq 0 ] || echo sudo); \
	$$SUDO apt-get update -qq && \
	DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends bubblewrap

# The gradebook tests start a real PostgreSQL server of their own (Debian's postgresql package).
postgres-server:
	@test -n "$(POSTGRES)" || { SUDO=$$([ "$$(id -u)" -eq 0 ] || echo sudo); \
	$$SUDO apt-get update -qq && \
	DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends postgresql; }

# The classroom test (tests/test_classroom_hub.py) runs a real JupyterHub, whose proxy is
# configurable-http-proxy from npm (node's own package manager, installed with apt if missing). The
# hub and the single-user servers run from a virtual environment of the system Python that the
# test builds once and caches (/var/cache/tensorlab-hub-env): the users it creates cannot read .venv.
hub-proxy:
	@command -v configurable-http-proxy >/dev/null || { SUDO=$$([ "$$(id -u)" -eq 0 ] || echo sudo); \
	command -v npm >/dev/null || { $$SUDO apt-get update -qq && \
	DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends nodejs npm; }; \
	$$SUDO npm install -g --silent configurable-http-proxy; }

$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[dev]'
	touch $(STAMP)

lab: $(STAMP)
	$(BIN)/tensorlab student-tree $(STUDENT_DIR)
	JUPYTER_CONFIG_PATH=$(STUDENT_JUPYTER_CONFIG) $(BIN)/jupyter lab --notebook-dir=$(STUDENT_DIR) --ServerApp.ip=$(LAB_IP) --ServerApp.port=$(LAB_PORT) $(LAB_AS_ROOT) $(LAB_ARGS)

# Lint (ruff, mypy) and tests all run, so one report shows all; any failure (pytest's exit 5, "no tests
# collected", included) fails the target.
test: $(STAMP) $(CHROMIUM) $(BWRAP) postgres-server hub-proxy
	status=0; \
	$(BIN)/ruff check . || status=$$?; \
	$(BIN)/mypy || status=$$?; \
	$(BIN)/python -m pytest -n $(JOBS) tests || status=$$?; \
	exit $$status

# ruff, then mypy on all of tensorlab/ (settings: pyproject.toml).
lint: $(STAMP)
	status=0; \
	$(BIN)/ruff check . || status=$$?; \
	$(BIN)/mypy || status=$$?; \
	exit $$status

# docs/op-index.md: every op -> its Function, first test and notebook cells (checked by tests/test_op_index.py).
op-index: $(STAMP)
	$(BIN)/python docs/make_op_index.py

bench: $(STAMP)
	$(BIN)/python -m bench --fresh

# The same workloads, BENCH_REPEAT rounds (each ratio: the median over them); fails naming any ratio over its
# target (bench/registry.py), warns where one is over 1.25x away from the README's table. Not part of `make test`.
BENCH_REPEAT ?= 3
bench-check: $(STAMP)
	$(BIN)/python -m bench --fresh --repeat $(BENCH_REPEAT) --check

# Rewrites the README's performance table (between its bench-table markers) from such a run: the table is never typed.
bench-readme: $(STAMP)
	$(BIN)/python -m bench --fresh --repeat $(BENCH_REPEAT) --write-readme

# Starts over, but keeps the student tree: the notebooks in it are a student's work.
clean:
	rm -rf $(VENV) *.egg-info $(filter-out build/student $(patsubst %/,%,$(STUDENT_DIR)),$(wildcard build/*))
