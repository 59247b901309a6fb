# Two commands (see README): `make lab` and `make test`; `make app` serves the notebooks with
# Voilà for a classroom. All create .venv if missing.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.PHONY: lab app site check test lint bench data clean-venv chromium warmup voila-config

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev,scale]"
	# every Voilà of this venv polls kernel replies in slices (voila-config, below)
	$(MAKE) --no-print-directory voila-config VENV=$(VENV)
	# committed notebooks stay output-free: nbstripout as this clone's git filter (a no-op
	# outside a git work tree; idempotent, it only (re)writes .gitattributes and .git/config)
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then \
	  $(VENV)/bin/nbstripout --install --attributes .gitattributes; fi
	# compile every numba kernel once into the cache, so the first notebook, test or CLI
	# call of a fresh clone does not wait for it, and fill the results notebooks 07, 09, 11
	# keep on disk (python -m workbench warmup; a failed fill is reported, not fatal)
	$(PY) -m workbench warmup
	# the static site's two npm packages (widget renderer, MathJax), fetched once here so no
	# test or `make site` downloads anything later; without npm, tests/app/test_site.py skips
	if command -v npm >/dev/null 2>&1; then $(PY) app/site.py --fetch-only; fi
	touch $(STAMP)

warmup: $(STAMP)
	$(PY) -m workbench warmup

# Every Voilà the environment runs reads app/voila.json (kernel replies polled in slices by
# workbench.course.kernelpoll, so no page hangs on "Executing i of n"; Checks cells skipped):
# `voila notebooks/` from the venv's Jupyter config path (etc/jupyter/voila.json), JupyterLab's
# "Render with Voilà" preview as the server's config (etc/jupyter/jupyter_server_config.json:
# the server reads only extension switches from jupyter_server_config.d/), and `make app` from
# app/ itself. Installed again whenever app/voila.json changes.
JUPYTER_ETC := $(VENV)/etc/jupyter
VOILA_CONFIG := $(JUPYTER_ETC)/voila.json $(JUPYTER_ETC)/jupyter_server_config.json
$(VOILA_CONFIG): app/voila.json
	install -D -m 644 $< $@
voila-config: $(VOILA_CONFIG)

# The browser test (tests/app/test_browser.py) drives the system Chromium (Debian package
# `chromium`); never a browser download. Installed here when missing and we are root;
# otherwise the test skips with its reason.
CHROMIUM := /usr/bin/chromium
chromium:
	@test -x $(CHROMIUM) || { test "$$(id -u)" = 0 && \
	  apt-get update -qq && apt-get install -y -qq chromium >/dev/null; } || \
	  echo "chromium not installed: tests/app/test_browser.py will be skipped"

# Jupyter refuses to start as root unless told; containers and CI machines often are root.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

# Where the servers listen: `make lab HOST=0.0.0.0 PORT=8888` on a remote or headless machine
# (default: localhost only, ports 8888 and 8866). Each target prints the URL to open first;
# JupyterLab's login token is made here so that the printed URL carries it.
HOST ?= localhost
URL_HOST = $(if $(filter 0.0.0.0 ::,$(HOST)),$(shell hostname),$(HOST))

lab: $(STAMP) $(VOILA_CONFIG)
	@token=$$($(PY) -c "import secrets; print(secrets.token_urlsafe(24))"); \
	echo "JupyterLab: open http://$(URL_HOST):$(or $(PORT),8888)/lab?token=$$token"; \
	$(VENV)/bin/jupyter lab notebooks/ $(ROOT_FLAG) --ip=$(HOST) --port=$(or $(PORT),8888) \
	  --ServerApp.port_retries=0 --IdentityProvider.token=$$token

# The notebooks as standalone web apps (Voilà: code hidden, widgets live, all cells run on
# opening, a fresh kernel per visitor). Unlike Jupyter, Voilà has no root check (and no
# --allow-root flag), so it needs no ROOT_FLAG; it never writes into the notebooks.
# app/voila.json configures it as every Voilà (see voila-config above); app/voila.py adds
# pre-heated kernels (a finished page within seconds).
app: $(STAMP) $(VOILA_CONFIG)
	@echo "Voila: open http://$(URL_HOST):$(or $(PORT),8866)/ once it says it is serving"
	$(VENV)/bin/voila notebooks/ --no-browser --Voila.config_file_paths=app \
	  --Voila.ip=$(HOST) --port=$(or $(PORT),8866)

# The executed course as static HTML in site/ (index.html + one page per notebook), for
# students without Python: plotly hover kept, widgets drawn from their stored state, every
# script in site/_static (app/site.py explains where each comes from; two npm packages are
# fetched once with `npm pack` into .venv/share/workbench-site). Nothing loads from the network.
site: $(STAMP)
	$(PY) app/site.py --out site

# The API reference: Sphinx + numpydoc from the docstrings of every name in workbench.__all__
# and the subpackages' __all__ (docs/apigen.py writes the pages into docs/api/), HTML in
# docs/_build/html; warnings are errors; nothing is fetched from the network.
.PHONY: docs
docs: $(STAMP)
	$(PY) -m sphinx -b html -W --keep-going docs docs/_build/html

# The contributor's loop: ruff and the unit tests, in under 3 minutes on 2 cores. Leaves out
# what needs a browser, runs notebooks, builds the site or the docs, installs, or is marked
# slow (the statistical and memory-limited suites); `make test` runs everything.
CHECK_SKIP := --ignore=tests/notebooks --ignore=tests/app --ignore=tests/docs \
  --ignore=tests/project/test_install.py --ignore=tests/project/test_clean_clone.py
check: $(STAMP)
	$(VENV)/bin/ruff check workbench tests benchmarks
	$(PY) -m pytest -q -n 2 -m "not slow and not browser" --durations=10 $(CHECK_SKIP)

# The whole suite on both cores: pytest-xdist, one test file per worker at a time (--dist
# loadfile: a file's module-scoped servers and models are set up once, in one worker; the
# files that start Jupyter or Voilà servers and drive Chromium are one unit, never two at
# once: tests/conftest.py's scheduler). TEST_WORKERS=1: one process. Wall-clock bounds are hang guards (tests/hangguard.py),
# so it passes on a busy machine too.
TEST_WORKERS ?= 2
test: $(STAMP) $(VOILA_CONFIG) chromium
	$(VENV)/bin/ruff check workbench tests benchmarks
	$(PY) -m pytest $(if $(filter 1,$(TEST_WORKERS)),,-n $(TEST_WORKERS) --dist loadfile)
	$(PY) -m workbench verify

bench: $(STAMP)
	$(PY) benchmarks/bench_grampa.py

data: $(STAMP)
	$(PY) -m workbench.datasets.build

clean-venv:
	rm -rf $(VENV)
