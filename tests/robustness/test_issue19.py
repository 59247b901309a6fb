"""Issue 19's reproducers, one test each: a clear error naming what it must, or the right answer.

The probes live in ``issue19_probes.py`` (also a script printing the before/after tally). The
script runs once, in a fresh interpreter (no threads of this test session to inherit), where
each probe runs in a forked child under an address-space and a time limit, so a missing
budget fails here instead of exhausting the machine; each probe's verdict is one test.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


def _probes_module():
    """``issue19_probes.py`` imported from its file, ``sys.path`` left as it is (in
    ``sys.modules`` as any import is: its dataclasses look their module up there)."""
    spec = importlib.util.spec_from_file_location("issue19_probes", HERE / "issue19_probes.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


probes = _probes_module()
NAMES = sorted(p.name for p in probes.probes())


@pytest.fixture(scope="module")
def verdicts() -> dict[str, dict]:
    out = subprocess.run([sys.executable, "-W", "ignore", str(HERE / "issue19_probes.py"),
                          "--json"], capture_output=True, text=True, timeout=1800,
                         cwd=HERE.parents[1], env={**os.environ, "PYTHONWARNINGS": "ignore"})
    rows = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    assert rows, out.stdout[-2000:] + out.stderr[-2000:]
    return {r["name"]: r for r in rows}


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.slow  # all 95 probes in forked children (~25 s)
def test_issue19_reproducer(name, verdicts):
    row = verdicts[name]
    assert row["kind"] in ("CLEAR", "OK"), f"{row['kind']}: {row['detail']}"
