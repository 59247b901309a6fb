# Voilà's configuration for `make app` (and for the Voilà browser tests): a traitlets config
# file, read by `voila --Voila.config_file_paths=app` (it is executed, never imported; the
# directory is not on sys.path, so this file cannot shadow the `voila` package). Voilà reads
# app/voila.json from the same directory first; that file is what every Voilà of the
# environment reads (`make` installs it into the venv's Jupyter config path, see the Makefile):
#
# 1. Kernel replies are polled in short slices (workbench/course/kernelpoll.py says why: a
#    reply whose wake-up was lost left Voilà at "Executing 9 of 42" in 02 forever).
# 2. Cells tagged `checks` are not run in the app (nbclient's skip tag): they assert the
#    notebook's claims for the test suite (tests/notebooks/test_notebooks.py runs them), and a
#    student waits for nothing. The "Checks" heading stays, with nothing under it.
# 3. A cell's outputs are waited for up to 60 s after its reply (nbclient's `iopub_timeout`,
#    4 s by default; no wait at all when they came first). nbclient stops collecting a cell's
#    outputs when that wait runs out: on a busy 2-core machine, 13 notebooks pre-heating at
#    once sent a panel's widget later than 4 s, the page never showed its controls and hung
#    (issue 43). `app/site.py` and tests/notebooks/test_notebooks.py read the same value.
#
# This file adds what only `make app` does, for a classroom server:
# 4. Kernels are pre-heated: Voilà keeps, per notebook, one kernel that has already run
#    the notebook, so a visitor gets a finished page in seconds (BENCHMARKS.md). The price:
#    at start-up the server runs every notebook once (a few minutes of CPU on two cores,
#    one kernel per notebook in memory), and again after each visit to refill the pool.
#    `voila --VoilaConfiguration.preheat_kernel=False ...` turns it off.

c = get_config()  # noqa: F821 (traitlets config files get it injected)
# one pre-heated kernel per notebook, the notebook already run in it: a visitor gets a
# finished page; the pool refills (runs the notebook again) a second after it is taken
c.VoilaConfiguration.preheat_kernel = True
c.VoilaConfiguration.default_pool_size = 1
