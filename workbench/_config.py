"""Numba compilation flags, in one place.

Every kernel in the package is decorated with ``njit(**JIT)`` (leaf kernels with concrete,
cacheable types) or ``njit(**JIT_PARALLEL)`` (batch kernels that ``prange`` over words).
This module does not define kernels itself.
"""

from __future__ import annotations

JIT = {"cache": True, "nogil": True, "fastmath": False, "error_model": "numpy"}
JIT_PARALLEL = {**JIT, "parallel": True}
