"""Shared pytest fixtures (kept small). Makes ``import naive`` work in every import mode.

Every test runs in a temporary working directory, and the run fails when it leaves the
repository's working tree other than it found it (``cleantree.py``), or leaves a thread it
started running (``threadcheck.py``).

(The numba cache is keyed on the package's sources by ``workbench._core.config``; the bug that
motivated it — a stale cached kernel after an edit to ``_core/trie.py`` — is described there.)
"""

from __future__ import annotations

import sys
from pathlib import Path

import hypothesis
import pytest
import tqdm

_TESTS = Path(__file__).resolve().parent
if str(_TESTS) not in sys.path:
    sys.path.insert(0, str(_TESTS))

from cleantree import (  # noqa: E402,F401  (pytest finds the hooks and the fixture by name)
    pytest_sessionfinish,
    pytest_sessionstart,
    work_in_a_temporary_directory,
)
from fixtures import efficiency_setup, renyi_small, shipped  # noqa: E402,F401
from threadcheck import threads_joined  # noqa: E402,F401

# tqdm's monitor thread (one per process, started by the first bar) outlives every test; the
# package's bars do not need it (threadcheck.py joins what a test starts).
tqdm.tqdm.monitor_interval = 0

# Hypothesis's per-example deadline (200 ms by default) is a wall-clock bound a busy machine
# breaks: off for every property test (a hang is caught by the test's own guards; issue 43).
hypothesis.settings.register_profile("workbench", deadline=None)
hypothesis.settings.load_profile("workbench")


#: The test files that start Jupyter or Voilà servers and drive the system Chromium. Under
#: ``make test`` (``--dist loadfile``) they are one unit, run one after the other on one
#: worker: two of them at once, each with its server, kernels and browser, starved each other
#: on a busy 2-core machine until pages missed every hang guard (issue 43).
BROWSER_FILES = frozenset({"tests/app/test_browser.py", "tests/app/test_voila_plain.py",
                           "tests/app/test_site.py"})
BROWSER_GROUP = "tests/app/browser-files"


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadfile`` (a file per unit: its module-scoped servers and models are set up
    once, on one worker) with :data:`BROWSER_FILES` one unit together.

    A scheduler, not ``xdist_group`` marks with ``--dist loadgroup``: pytest-xdist 3.8 names a
    group by rewriting ``item._nodeid``, which pytest 9.2 no longer reads (``Node.nodeid``
    comes from ``_id``), so every marked test was scheduled alone.
    """
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class BrowserFilesTogether(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            scope = super()._split_scope(nodeid)
            return BROWSER_GROUP if scope in BROWSER_FILES else scope

    return BrowserFilesTogether(config, log)


@pytest.fixture(scope="session")
def warm_kernels():
    """Run each lattice kernel once so that timing tests do not measure JIT compilation."""
    from workbench import Vocabulary, count_segmentations

    v = Vocabulary(["a", "b", "ab"])
    for direction in ("l2r", "r2l"):
        count_segmentations("abab", v, 2, direction)
    return True


@pytest.fixture(autouse=True)
def main_module_kept():
    """Every test leaves ``sys.modules["__main__"]`` as it found it.

    An in-process IPython shell once left its (reset, ``__spec__``-less) user module there,
    and every later test that spawned processes (Dask's default scheduler) failed in CI far
    from the cause. This names the test that did it and puts ``__main__`` back.
    """
    main = sys.modules.get("__main__")
    yield
    if sys.modules.get("__main__") is not main:
        sys.modules["__main__"] = main
        pytest.fail("the test replaced sys.modules['__main__'] and did not put it back")


@pytest.fixture(autouse=True)
def pyplot_figures_closed():
    """Every test leaves pyplot's figures as it found them: the ones it opened are closed.

    The plotting functions return pyplot figures, and tests that inspect one left it open:
    they piled up across the session (14 in ``tests/figures/``), and a panel's step shows
    the figures open in pyplot (``tests/figures/test_panel.py`` had to close them all first).
    """
    pyplot = sys.modules.get("matplotlib.pyplot")
    before = set(pyplot.get_fignums()) if pyplot is not None else set()
    yield
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is not None:
        for number in set(pyplot.get_fignums()) - before:
            pyplot.close(number)
