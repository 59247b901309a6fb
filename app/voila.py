# Voilà's configuration for `make app` (and for the Voilà browser test): a traitlets config
# file, read by `voila --Voila.config_file_paths=app` (it is executed, never imported; the
# directory is not on sys.path, so this file cannot shadow the `voila` package).
#
# 1. Kernel replies are polled in short slices (app/kernel_poll.py says why: a reply whose
#    wake-up was lost left Voilà at "Executing 9 of 42" in 02 forever). The module is
#    loaded by path: this directory is not on sys.path.
# 2. Cells tagged `checks` are not run in the app (nbclient's skip tag): they assert the
#    notebook's claims for the test suite (tests/notebooks/test_notebooks.py runs them), and a
#    student waits for nothing. The "Checks" heading stays, with nothing under it.
# 3. Kernels are pre-heated: Voilà keeps, per notebook, one kernel that has already run
#    the notebook, so a visitor gets a finished page in seconds (BENCHMARKS.md). The price:
#    at start-up the server runs every notebook once (a few minutes of CPU on two cores,
#    one kernel per notebook in memory), and again after each visit to refill the pool.
#    `voila --VoilaConfiguration.preheat_kernel=False ...` turns it off.

import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location(
    "workbench_kernel_poll", Path(__file__).resolve().with_name("kernel_poll.py"))
_kernel_poll = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_kernel_poll)
SlicedPollChannel = _kernel_poll.SlicedPollChannel
SlicedPollKernelClient = _kernel_poll.SlicedPollKernelClient

c = get_config()  # noqa: F821 (traitlets config files get it injected)
c.AsyncKernelManager.client_factory = SlicedPollKernelClient
c.VoilaExecutor.skip_cells_with_tag = "checks"
# one pre-heated kernel per notebook, the notebook already run in it: a visitor gets a
# finished page; the pool refills (runs the notebook again) a second after it is taken
c.VoilaConfiguration.preheat_kernel = True
c.VoilaConfiguration.default_pool_size = 1
