"""The kernels under numba's bounds checking (issue 42): an index out of range is an
``IndexError`` there, a failed test, instead of memory corruption (a τ whose reciprocal
overflowed once reached the sampling kernels and wrote out of bounds: wrong tokens, then
``munmap_chunk(): invalid pointer`` and SIGSEGV).

The extreme-value sweep of ``test_hostile_properties.py`` (every numeric argument of every
registered call at every value of ``EXTREME_NUMBERS``) runs again in a child process with
``NUMBA_BOUNDSCHECK=1`` and a numba cache of its own under ``tmp_path``: numba's cache does
not key on the bounds-check switch, so kernels cached without checks must not be loaded.
Compiling every kernel the sweep reaches is most of its ~70 s (own file, so ``--dist
loadfile`` runs it beside the other robustness files).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hangguard import bound

HERE = Path(__file__).resolve().parent
PROPERTIES = HERE / "test_hostile_properties.py"


def _env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "NUMBA_BOUNDSCHECK": "1", "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
            "WORKBENCH_PROPERTY_CHILD": "1"}


def test_the_switch_turns_an_out_of_bounds_read_into_an_index_error(tmp_path):
    """The check can fail: under the child's environment a kernel reading past its array
    raises instead of returning garbage."""
    code = ("import numpy as np\n"
            "from numba import njit\n"
            "from workbench._core.config import JIT\n"
            "@njit(**JIT)\n"
            "def f(a, i):\n"
            "    return a[i]\n"
            "try:\n"
            "    f(np.zeros(3), 10)\n"
            "except IndexError:\n"
            "    print('IndexError')\n")
    script = tmp_path / "oob.py"  # a file: the package's kernels are cached, like this one
    script.write_text(code, encoding="utf-8")
    out = subprocess.run([sys.executable, str(script)], env=_env(tmp_path), cwd=tmp_path,
                         capture_output=True, text=True, timeout=bound(5.0))
    assert out.stdout.strip() == "IndexError", out.stdout + out.stderr


@pytest.mark.slow
def test_the_extreme_value_sweep_under_bounds_checking(tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-W",
         "ignore::UserWarning", "--tb=native", "-rf", str(PROPERTIES), "-k",
         "every_numeric_argument"],
        env=_env(tmp_path), cwd=tmp_path, capture_output=True, text=True,
        timeout=bound(90.0))
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    assert " passed" in out.stdout and "IndexError" not in out.stdout
