"""Numba kernels of BPE-dropout's exact law (reference semantics) over boundary masks.

A state is the mask of its boundaries (bit ``k``: a boundary before initial symbol ``k``);
:func:`mask_law` propagates the mass level by level (level ``l``: ``l`` merges done, so
``n − l`` pieces) in an insertion-ordered open-addressing table of int64 keys, so that the
masses are summed in the order :func:`workbench.bpe.laws.dropout_law` sums them;
:func:`piece_spans` writes each final state's pieces as span ids ``i·(n + 1) + j``.

This module does not build the rank cube, spell tokens or check budgets
(:func:`workbench.bpe.laws.fast_dropout_law` does), and holds no Fraction path.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .._core.config import JIT, JIT_INLINE

_MIX = np.uint64(0x9E3779B97F4A7C15)  # Fibonacci hashing


@njit(**JIT_INLINE)
def _slot(key, shift):
    """Home slot of ``key`` in a table of ``2^(64 − shift)`` slots."""
    return np.int64((np.uint64(key) * _MIX) >> np.uint64(shift))


class Table(NamedTuple):
    """Every state met, level by level (insertion order), and the hash slots of one level."""

    keys: np.ndarray  # state masks
    vals: np.ndarray  # their incoming masses
    slots: np.ndarray  # slot -> index into keys (valid where stamp is the current level)
    stamp: np.ndarray  # slot -> the level that last wrote it


@njit(**JIT_INLINE)
def _add(t, shift, size, level, child, amount):
    """``vals[child] += amount`` at ``level`` (a new state is appended); returns the size.

    The table has ``2^(64 − shift)`` slots."""
    h = _slot(child, shift)
    while t.stamp[h] == level and t.keys[t.slots[h]] != child:
        h = (h + 1) & (t.slots.shape[0] - 1)
    if t.stamp[h] == level:
        t.vals[t.slots[h]] += amount
        return size
    if size >= t.keys.shape[0]:
        raise ValueError("more BPE-dropout states than the capacity")
    t.stamp[h] = level
    t.slots[h] = size
    t.keys[size] = child
    t.vals[size] = 0.0 + amount
    return size + 1


@njit(**JIT_INLINE)
def _occurrences(mask, n, rank, cuts, occ_r, occ_k):
    """The merge occurrences of state ``mask`` by (rank, position) into ``occ_r``,
    ``occ_k`` (``occ_k``: the boundary the merge removes); returns their number."""
    m = 0
    cuts[0] = 0
    for k in range(1, n):
        if (mask >> k) & 1:
            m += 1
            cuts[m] = k
    m += 1
    cuts[m] = n
    count = 0
    for t in range(m - 1):  # pieces t, t + 1 share the boundary cuts[t + 1]
        r = rank[cuts[t], cuts[t + 1], cuts[t + 2]]
        if r >= 0:  # insert (r, position) in order
            at = count
            while at > 0 and occ_r[at - 1] > r:
                occ_r[at] = occ_r[at - 1]
                occ_k[at] = occ_k[at - 1]
                at -= 1
            occ_r[at] = r
            occ_k[at] = cuts[t + 1]
            count += 1
    return count


@njit(**JIT)
def mask_law(n, rank, p, capacity):
    """Every final state's mask, mass and level, in the reference propagation's order.

    ``rank[i, m, j]`` is the rank of the merge making span ``i:j`` of spans ``i:m`` and
    ``m:j`` (-1: none); ``capacity`` bounds the number of reachable states (more raise).
    Returns ``(masks, masses, starts)``: level ``l``'s final states are
    ``starts[l]:starts[l + 1]``; states whose mass stops nowhere (``p = 0``) are left out.
    """
    bits = 1
    while (1 << bits) < 2 * capacity:
        bits += 1
    t = Table(np.empty(capacity, dtype=np.int64), np.empty(capacity),
              np.empty(1 << bits, dtype=np.int64), np.full(1 << bits, -1, dtype=np.int64))
    full = np.int64(0)
    for k in range(1, n):
        full |= np.int64(1) << k
    t.keys[0] = full
    t.vals[0] = 1.0
    size = 1
    masks = np.empty(capacity, dtype=np.int64)
    masses = np.empty(capacity)
    starts = np.zeros(n + 1, dtype=np.int64)
    out = 0
    cuts = np.empty(n + 1, dtype=np.int64)
    occ_r = np.empty(n, dtype=np.int64)
    occ_k = np.empty(n, dtype=np.int64)
    lo, hi, level = 0, 1, 0
    while lo < hi:
        starts[level] = out
        for s in range(lo, hi):
            mask = t.keys[s]
            share = t.vals[s]
            for c in range(_occurrences(mask, n, rank, cuts, occ_r, occ_k)):
                if p != 1.0:
                    child = mask & ~(np.int64(1) << occ_k[c])
                    size = _add(t, 64 - bits, size, level, child, share * (1.0 - p))
                share *= p
                if share == 0.0:
                    break
            if share != 0.0:
                masks[out] = mask
                masses[out] = share
                out += 1
        lo, hi, level = hi, size, level + 1
    starts[level:] = out
    return masks[:out].copy(), masses[:out].copy(), starts


@njit(**JIT)
def piece_spans(masks, starts, n):
    """Span ids ``i·(n + 1) + j`` of every state's pieces, flat (level ``l``: ``n − l`` each)."""
    total = 0
    for level in range(n):
        total += (starts[level + 1] - starts[level]) * (n - level)
    flat = np.empty(total, dtype=np.int64)
    w = 0
    for s in range(masks.shape[0]):
        mask = masks[s]
        i = 0
        for k in range(1, n):
            if (mask >> k) & 1:
                flat[w] = i * (n + 1) + k
                w += 1
                i = k
        flat[w] = i * (n + 1) + n
        w += 1
    return flat
