"""Numba compilation flags, in one place.

Every kernel in the package is decorated with ``njit(**JIT)`` (leaf kernels with concrete,
cacheable types) or ``njit(**JIT_PARALLEL)`` (batch kernels that ``prange`` over words).
This module does not define kernels itself.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import numba


def _source_keyed_cache_dir() -> str:
    """A numba cache directory keyed on a hash of every kernel-defining source file.

    Numba's ``cache=True`` re-checks only the file of the cached function, not kernels it
    inlines from other modules: after an edit to ``_trie.py`` a cached kernel of
    ``lattice.py`` would keep the old trie lookup and silently return wrong arcs. Keying the
    directory on all files that define kernels (and this one) makes any kernel edit start
    from a clean cache, while edits to plotting or docs keep it.
    """
    digest = hashlib.sha256()
    package = Path(__file__).resolve().parent
    for path in sorted(package.rglob("*.py")):
        text = path.read_bytes()
        if b"@njit" in text or path.name == "_config.py":
            digest.update(path.relative_to(package).as_posix().encode())
            digest.update(text)
    return os.path.join(tempfile.gettempdir(), f"workbench-numba-{digest.hexdigest()[:16]}")


if not os.environ.get("NUMBA_CACHE_DIR"):
    numba.config.CACHE_DIR = _source_keyed_cache_dir()

JIT = {"cache": True, "nogil": True, "fastmath": False, "error_model": "numpy"}
JIT_PARALLEL = {**JIT, "parallel": True}
#: Small hot helpers are inlined at numba-IR level: no call, no array refcounting per call.
JIT_INLINE = {**JIT, "inline": "always"}
