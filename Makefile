# Two commands: `make lab` (set up, then open the course in JupyterLab) and `make test`
# (set up, then run the whole suite). Setup is idempotent: a stamp file records that the
# environment matches pyproject.toml and constraints.txt, so the second run starts at once.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
JOBS ?= 2

.PHONY: lab test lint bench setup clean

setup: $(STAMP)

$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[dev]'
	touch $(STAMP)

lab: $(STAMP)
	$(BIN)/jupyter lab --notebook-dir=notebooks

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -n $(JOBS) tests

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) build *.egg-info
