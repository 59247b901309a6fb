"""Wall-clock bounds in tests are hang guards, never benchmarks (issue 43).

A test that bounds a call's wall-clock time does it through :func:`hang_guard`, naming the
call's *quiet figure*: its time on a quiet 2-core machine, measured and written at the call
site. The bound is :data:`MARGIN` times that figure, and never under :data:`FLOOR_SECONDS`
(ten times the package's promise that a refusal comes within a second), so the test still
passes on a machine busy with four CPU-bound processes beside the suite (where the suite's
process gets about a third of a core, and a collection of the suite's large heap or a
scheduler pause costs seconds: a 0.05 s refusal once took 3.5 s there), while a call that
hangs, or does the work it was meant to refuse (the probes behind these tests ran 30 s to
minutes), still fails it.

To measure quiet figures, run the guarded tests with ``$HANG_GUARD_LOG`` set to a file: each
guard appends ``what<TAB>quiet figure<TAB>elapsed`` to it. Timings themselves belong to
``benchmarks/`` and BENCHMARKS.md. ``tests/project/
test_hang_guards.py`` checks that no test compares a clock reading in any other way.

>>> with hang_guard(0.01, "a refusal"):
...     pass
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager

#: How many times its quiet figure a guarded call may take (the issue's "at least 10x").
MARGIN = 10
#: The smallest bound any guard sets: no test fails for a pause shorter than this.
FLOOR_SECONDS = 10.0


def bound(quiet_seconds: float) -> float:
    """The wall-clock bound of a call whose quiet figure is ``quiet_seconds``.

    >>> bound(0.05), bound(2.0)
    (10.0, 20.0)
    """
    if not quiet_seconds > 0:
        raise ValueError(f"quiet_seconds must be > 0, got {quiet_seconds!r}")
    return max(MARGIN * quiet_seconds, FLOOR_SECONDS)


@contextmanager
def hang_guard(quiet_seconds: float, what: str) -> Iterator[None]:
    """Fail when the block takes longer than :func:`bound` of its quiet figure.

    Parameters
    ----------
    quiet_seconds : float
        The block's time on a quiet 2-core machine (the figure the call site states).
    what : str
        What the block does, for the failure message.
    """
    limit = bound(quiet_seconds)
    start = time.perf_counter()
    yield
    elapsed = time.perf_counter() - start
    log = os.environ.get("HANG_GUARD_LOG")
    if log:
        with open(log, "a", encoding="utf-8") as handle:
            handle.write(f"{what}\t{quiet_seconds}\t{elapsed:.4f}\n")
    assert elapsed < limit, (
        f"{what} took {elapsed:.2f} s: over {MARGIN}x its quiet figure of {quiet_seconds} s "
        f"(bound {limit:.1f} s), a hang or work that should have been refused")
