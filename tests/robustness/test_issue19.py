"""Issue 19's reproducers, one test each: a clear error naming what it must, or the right answer.

The probes live in ``issue19_probes.py`` (also a script printing the before/after tally);
each runs in a forked child under an address-space and a time limit, so a missing budget
fails here instead of exhausting the machine.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import issue19_probes as probes  # noqa: E402

PROBES = {p.name: p for p in probes.probes()}


@pytest.mark.parametrize("name", sorted(PROBES))
def test_issue19_reproducer(name):
    kind, detail = probes.run_probe(PROBES[name])
    assert kind in ("CLEAR", "OK"), f"{kind}: {detail}"
