"""Every background thread a test starts is joined before the next test: a fixture that
``conftest.py`` imports (issue 43).

A thread left running by one test ran on into later tests: it allocated in a later test's
memory measurement and took CPU from a later test's timing, far from its cause. After each
test, :func:`threads_joined` joins the Python threads the test started (up to
:data:`JOIN_SECONDS` each) and fails the test naming those still alive.

What may outlive a test, by design, is listed in :data:`LASTING` by thread-name prefix: pools
the package keeps for the whole process (so later calls reuse them) and those of libraries
that keep one per process. A thread started in a fixture of wider scope (a Dask cluster, a
server) is not the test's: the fixture is set up before the check takes its first look.

What this module does not do: see threads that are not Python threads (numba's and BLAS's
worker threads), or processes a test starts.
"""

from __future__ import annotations

import threading

import pytest

#: Seconds each thread a test left behind gets to finish before the test fails.
JOIN_SECONDS = 10.0

#: Thread-name prefixes that may outlive the test that started them, and why.
LASTING = {
    "workbench-count": "workbench.bpe.counting keeps one pool per thread count for the "
                       "process (_pool), so repeated counts do not start threads again",
    "TMonitor": "tqdm's monitor thread, one per process (disabled in conftest.py; listed in "
                "case a library re-enables it)",
    "Dask-Offload": "distributed's offload pool, one per process (distributed.utils), started "
                    "by the first client",
    "asyncio_": "the default executor of an event loop kept by Jupyter's client libraries",
    "IPythonHistorySavingThread": "an in-process IPython shell's history writer, one per "
                                  "shell",
}


#: Thread classes (module.qualname) that may outlive the test that started them, and why.
LASTING_CLASSES = {
    "zmq.utils.garbage.GarbageCollectorThread": "pyzmq's zero-copy garbage collector, one per "
                                                "process (started by a kernel client's send)",
}


def lasting(thread: threading.Thread) -> bool:
    """Whether ``thread`` may outlive its test (:data:`LASTING`, :data:`LASTING_CLASSES`).

    >>> lasting(threading.Thread(name="workbench-count_0")), lasting(threading.Thread())
    (True, False)
    """
    kind = f"{type(thread).__module__}.{type(thread).__qualname__}"
    return thread.name.startswith(tuple(LASTING)) or kind in LASTING_CLASSES


def left_running(before: set[threading.Thread], timeout: float = JOIN_SECONDS
                 ) -> list[threading.Thread]:
    """The threads started since ``before`` that are still alive after being joined (up to
    ``timeout`` seconds each), leaving out :func:`lasting` ones."""
    started = [t for t in threading.enumerate()
               if t not in before and t is not threading.current_thread() and not lasting(t)]
    for thread in started:
        thread.join(timeout)
    return [t for t in started if t.is_alive()]


def _described(thread: threading.Thread) -> str:
    """A thread's name, class and target, for a failure message."""
    target = getattr(thread, "_target", None)
    where = getattr(target, "__qualname__", None) or type(thread).__qualname__
    module = getattr(target, "__module__", None) or type(thread).__module__
    return f"{thread.name} ({module}.{where}{', daemon' if thread.daemon else ''})"


@pytest.fixture(autouse=True)
def threads_joined():
    """Fail the test when a thread it started is still running after it (:func:`left_running`)."""
    before = set(threading.enumerate())
    yield
    alive = left_running(before)
    if alive:
        pytest.fail(f"the test left {len(alive)} thread(s) running: "
                    f"{[_described(t) for t in alive]}; join them (or list a process-wide "
                    f"pool in tests/threadcheck.py's LASTING with the reason)")
