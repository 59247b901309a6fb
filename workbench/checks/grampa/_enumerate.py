"""Enumeration and sympy helpers shared by the GRaMPa check modules; checks nothing itself.

Every composition of small ``n`` (bit-key order), its LOCK keys, sympy symbols."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ...theory.grampa.lock import lock_key

ENUM_MAX_N = 16
LOCK_EXHAUSTIVE_MAX_N = 14


def _all_masks(n: int) -> np.ndarray:
    """Boundary matrix of all compositions: row = bit-key mask, column p = boundary at p.

    Columns ``0`` and ``n`` (the string ends) are always True.
    """
    masks = np.arange(1 << (n - 1), dtype=np.int64)
    cols = np.ones((masks.size, n + 1), dtype=bool)
    for p in range(1, n):
        cols[:, p] = (masks >> (n - 1 - p)) & 1
    return cols


def _enumerate_lengths(n: int) -> tuple[np.ndarray, np.ndarray]:
    """All ``2^(n-1)`` compositions of ``n`` (bit-key order) as (lengths_flat, offsets)."""
    cols = _all_masks(n)
    idx = np.where(cols, np.arange(n + 1), 0)
    prev = np.maximum.accumulate(idx, axis=1)  # last boundary at or before p
    ends = cols[:, 1:]
    lengths = (np.arange(1, n + 1) - prev[:, :-1])[ends]
    m = ends.sum(axis=1)
    offsets = np.concatenate([[0], np.cumsum(m)]).astype(np.int64)
    return lengths.astype(np.int64), offsets


@lru_cache(maxsize=32)
def _compositions(n: int) -> tuple[tuple[int, ...], ...]:
    lengths, offsets = _enumerate_lengths(n)
    flat = lengths.tolist()
    return tuple(tuple(flat[offsets[k]:offsets[k + 1]]) for k in range(offsets.size - 1))


@lru_cache(maxsize=32)
def _lock_keys_python(n: int) -> tuple[int, ...]:
    """:func:`lock_key` of every composition of ``n``, in :func:`_compositions` order."""
    return tuple(lock_key(t) for t in _compositions(n))


def _sym():
    import sympy as sp

    n = sp.Symbol("n", integer=True, positive=True)
    k = sp.Symbol("k", integer=True, positive=True)
    ell = sp.Symbol("ell", integer=True, positive=True)
    q = sp.Symbol("q", positive=True)
    return sp, n, k, ell, q


def _sym_zero(sp, expr) -> bool:
    return sp.simplify(expr) == 0


