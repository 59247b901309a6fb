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

import numpy as np
from numba import njit

from .._core.config import JIT, JIT_INLINE

_MIX = np.uint64(0x9E3779B97F4A7C15)  # Fibonacci hashing


@njit(**JIT_INLINE)
def _slot(key, shift):
    """Home slot of ``key`` in a table of ``2^(64 − shift)`` slots."""
    return np.int64((np.uint64(key) * _MIX) >> np.uint64(shift))


@njit(**JIT)
def mask_law(n, rank, p, capacity):
    """Every final state's mask, mass and level, in the reference propagation's order.

    ``rank[i, m, j]`` is the rank of the merge making span ``i:j`` of spans ``i:m`` and
    ``m:j`` (-1: none); ``capacity`` bounds the number of reachable states (more raise).
    Returns ``(masks, masses, starts)``: level ``l``'s final states are
    ``starts[l]:starts[l + 1]``; states whose mass stops nowhere (``p = 0``) are left out.
    """
    keys = np.empty(capacity, dtype=np.int64)  # every state, level by level
    vals = np.empty(capacity)
    bits = 1
    while (1 << bits) < 2 * capacity:
        bits += 1
    slots = np.empty(1 << bits, dtype=np.int64)  # index into keys (valid if stamp matches)
    stamp = np.full(1 << bits, -1, dtype=np.int64)
    shift = 64 - bits
    lmask = (1 << bits) - 1
    full = np.int64(0)
    for k in range(1, n):
        full |= np.int64(1) << k
    keys[0] = full
    vals[0] = 1.0
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
            mask = keys[s]
            mass = vals[s]
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
            share = mass
            for c in range(count):
                if p != 1.0:
                    child = mask & ~(np.int64(1) << occ_k[c])
                    h = _slot(child, shift)
                    while stamp[h] == level and keys[slots[h]] != child:
                        h = (h + 1) & lmask
                    if stamp[h] == level:
                        vals[slots[h]] += share * (1.0 - p)
                    else:
                        if size >= capacity:
                            raise ValueError("more BPE-dropout states than the capacity")
                        stamp[h] = level
                        slots[h] = size
                        keys[size] = child
                        vals[size] = 0.0 + share * (1.0 - p)
                        size += 1
                share *= p
                if share == 0.0:
                    break
            if share != 0.0:
                masks[out] = mask
                masses[out] = share
                out += 1
        lo, hi, level = hi, size, level + 1
    for rest in range(level, n + 1):
        starts[rest] = out
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
