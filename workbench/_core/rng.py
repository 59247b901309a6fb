"""Counter-based random numbers for numba kernels (SplitMix64).

Kernels never touch NumPy's or Numba's global generators: each *stream* (one word of a
batch, one sample block of a word) gets its own 64-bit state derived from the caller's
seed and the stream's index, so results do not depend on the number of threads or on
the order in which a parallel loop visits words.

This module does not decide which seeds are used; the public wrappers draw a 64-bit base
seed from a :class:`numpy.random.Generator` (:func:`workbench._core.seeds.base_seed`), and
:mod:`workbench._core.seeds` has the same streams in plain Python (no numba), tested equal.

Example
-------
>>> import numpy as np
>>> s = stream_state(np.uint64(42), 0)
>>> u, s = next_double(s)
>>> 0.0 <= u < 1.0
True
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .config import JIT

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@njit(**JIT)
def _mix(z: np.uint64) -> np.uint64:
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(**JIT)
def stream_state(seed: np.uint64, stream: int) -> np.uint64:
    """Initial state of stream ``stream`` under base seed ``seed``."""
    return _mix(np.uint64(seed) ^ _mix(np.uint64(stream) * _GOLDEN + _GOLDEN))


@njit(**JIT)
def next_double(state: np.uint64):
    """Advance ``state``; return ``(u, new_state)`` with ``u`` uniform on [0, 1)."""
    state = state + _GOLDEN
    z = _mix(state)
    return (z >> np.uint64(11)) * (1.0 / 9007199254740992.0), state
