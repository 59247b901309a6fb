"""Seeds for every random call, and the kernels' SplitMix64 streams in plain Python.

Public functions take ``seed`` (an int, a :class:`numpy.random.Generator` or None):
:func:`as_generator` normalises it and :func:`base_seed` draws the one 64-bit base seed a
kernel call uses. :func:`stream_state` and :func:`next_double` are
:mod:`workbench._core.rng`'s counter-based streams computed with Python ints, for the
plain-Python routes that run before numba is loaded (same numbers, bit for bit;
``tests/grampa/test_interpreted.py`` compares them). This module imports numpy, never numba.

Example
-------
>>> s = stream_state(base_seed(as_generator(42)), 0)
>>> u, s = next_double(s)
>>> 0.0 <= u < 1.0
True
"""

from __future__ import annotations

import numpy as np

from .errors import ArgumentTypeError, InvalidValueError

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB
_UNIT = 1.0 / 9007199254740992.0  # 2**-53


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * _M1) & _MASK
    z = ((z ^ (z >> 27)) * _M2) & _MASK
    return z ^ (z >> 31)


def stream_state(seed: int, stream: int) -> int:
    """Initial state of stream ``stream`` under base seed ``seed`` (as ``rng.stream_state``)."""
    return _mix(int(seed) ^ _mix((int(stream) * _GOLDEN + _GOLDEN) & _MASK))


def next_double(state: int) -> tuple[float, int]:
    """Advance ``state``; return ``(u, new_state)``, ``u`` uniform on [0, 1) (as ``rng``'s)."""
    state = (state + _GOLDEN) & _MASK
    return (_mix(state) >> 11) * _UNIT, state


def base_seed(rng: np.random.Generator) -> np.uint64:
    """Draw the 64-bit base seed for one kernel call from ``rng``."""
    return np.uint64(rng.integers(0, 2**63 - 1, dtype=np.int64))


def as_generator(seed: int | np.random.Generator | None) -> np.random.Generator:
    """Normalise a ``seed`` argument (int, Generator or None) into a Generator.

    Raises
    ------
    TypeError
        If ``seed`` is neither None, an int, nor a Generator.
    ValueError
        If ``seed`` is a negative int.
    """
    if seed is None or isinstance(seed, np.random.Generator):
        return np.random.default_rng(seed)
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise ArgumentTypeError("seed must be an int, a numpy.random.Generator or None, not "
                                f"{seed!r}")
    if seed < 0:
        raise InvalidValueError(f"seed must be non-negative, got {seed}")
    return np.random.default_rng(int(seed))
