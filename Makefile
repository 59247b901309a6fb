# Two commands (see README): `make lab` and `make test`. Both create .venv if missing.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.PHONY: lab test lint bench data clean-venv

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev,scale]"
	touch $(STAMP)

# Jupyter refuses to start as root unless told; containers and CI machines often are root.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

lab: $(STAMP)
	$(VENV)/bin/jupyter lab notebooks/ $(ROOT_FLAG)

test: $(STAMP)
	$(VENV)/bin/ruff check workbench tests benchmarks
	$(PY) -m pytest
	$(PY) -m workbench verify

bench: $(STAMP)
	$(PY) benchmarks/bench_grampa.py

data: $(STAMP)
	$(PY) -m workbench.data build

clean-venv:
	rm -rf $(VENV)
