"""Numba compilation flags and the numba cache location, in one place.

Every kernel in the package is decorated with one of three flag sets: ``njit(**JIT)`` (leaf
kernels, cached), ``njit(**JIT_INLINE)`` (small hot helpers inlined at numba-IR level) or
``njit(**JIT_PARALLEL)`` (batch kernels that ``prange`` over words). This module defines no
kernels and imports nothing of the package.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import numba


def _source_keyed_cache_dir() -> str:
    """A numba cache directory keyed on a hash of every source file of the package.

    Numba's ``cache=True`` re-checks only the file of the cached function, not kernels it
    inlines from other modules: after an edit to ``_core/trie.py`` a cached kernel of
    ``lattice.py`` would keep the old trie lookup and silently return wrong arcs. Keying the
    directory on every ``.py`` file of the package makes any edit start from a clean cache
    (a kernel may be built by a decorator or a factory, so looking for ``@njit`` is not
    enough).
    """
    digest = hashlib.sha256()
    package = Path(__file__).resolve().parent.parent
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(path.read_bytes())
    return os.path.join(tempfile.gettempdir(), f"workbench-numba-{digest.hexdigest()[:16]}")


if not os.environ.get("NUMBA_CACHE_DIR"):
    numba.config.CACHE_DIR = _source_keyed_cache_dir()

JIT = {"cache": True, "nogil": True, "fastmath": False, "error_model": "numpy"}
JIT_PARALLEL = {**JIT, "parallel": True}
#: Small hot helpers are inlined at numba-IR level: no call, no array refcounting per call.
JIT_INLINE = {**JIT, "inline": "always"}
