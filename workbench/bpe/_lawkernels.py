"""Numba kernels of BPE-dropout's exact laws (reference, SentencePiece, subword-nmt), by masks.

A state is the mask of its boundaries (bit ``k``: a boundary before initial symbol ``k``),
with, for SentencePiece, the pairs skipped since they were formed (``mask | blocked << n``).
Each kernel propagates the mass as its Python twin in :mod:`workbench.bpe.laws` /
:mod:`workbench.bpe.semantics` does (level by level), in insertion-ordered open-addressing
tables, so the masses are summed in the same order and the floats are the same bit for bit.
:func:`piece_spans` writes each final state's pieces as span ids ``i·(n + 1) + j``.

This module does not build the rank cube, spell tokens or check budgets
(:func:`workbench.bpe.laws.fast_dropout_states` does), holds no Fraction path, and does not
hold HF ``tokenizers``' kernel (:mod:`workbench.bpe._hfkernel`).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from .._core.config import JIT, JIT_INLINE

_MIX = np.uint64(0x9E3779B97F4A7C15)  # Fibonacci hashing


@njit(**JIT_INLINE)
def _slot(key, shift):
    """Home slot of ``key`` in a table of ``2^(64 − shift)`` slots."""
    return np.int64((np.uint64(key) * _MIX) >> np.uint64(shift))


@njit(**JIT)
def _table_bits(capacity):
    """log2 of the hash slots for ``capacity`` entries (at most half full)."""
    bits = 1
    while (1 << bits) < 2 * capacity:
        bits += 1
    return bits


@njit(**JIT)
def _full_mask(n):
    """The mask of the single symbols: every boundary ``1 .. n − 1``."""
    full = np.int64(0)
    for k in range(1, n):
        full |= np.int64(1) << k
    return full


@njit(**JIT)
def _scratch(n, capacity):
    """The buffers of a level-by-level propagation: ``(masks, masses, starts)`` of the final
    states and ``(cuts, occ_r, occ_k)`` for :func:`_occurrences`."""
    return (np.empty(capacity, dtype=np.int64), np.empty(capacity),
            np.zeros(n + 1, dtype=np.int64), np.empty(n + 1, dtype=np.int64),
            np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64))


class Table(NamedTuple):
    """Every state met, level by level (insertion order), and the hash slots of one level."""

    keys: np.ndarray  # state masks
    vals: np.ndarray  # their incoming masses
    slots: np.ndarray  # slot -> index into keys (valid where stamp is the current level)
    stamp: np.ndarray  # slot -> the level that last wrote it


@njit(**JIT_INLINE)
def _add(t, shift, size, level, child, amount):
    """``vals[child] += amount`` at ``level`` (a new state is appended); returns the size
    (-1: past the capacity).

    The table has ``2^(64 − shift)`` slots."""
    h = _slot(child, shift)
    while t.stamp[h] == level and t.keys[t.slots[h]] != child:
        h = (h + 1) & (t.slots.shape[0] - 1)
    if t.stamp[h] == level:
        t.vals[t.slots[h]] += amount
        return size
    if size >= t.keys.shape[0]:
        return -1
    t.stamp[h] = level
    t.slots[h] = size
    t.keys[size] = child
    t.vals[size] = 0.0 + amount
    return size + 1


@njit(**JIT_INLINE)
def _cuts_of(mask, n, cuts):
    """Cut positions of boundary mask ``mask`` into ``cuts``; returns the number of pieces."""
    m = 0
    cuts[0] = 0
    for k in range(1, n):
        if (mask >> k) & 1:
            m += 1
            cuts[m] = k
    m += 1
    cuts[m] = n
    return m


@njit(**JIT_INLINE)
def _occurrences(mask, n, rank, cuts, occ_r, occ_k):
    """The merge occurrences of state ``mask`` by (rank, position) into ``occ_r``,
    ``occ_k`` (``occ_k``: the index of the left piece; the merge removes the boundary
    ``cuts[occ_k + 1]``); returns their number."""
    m = _cuts_of(mask, n, cuts)
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
            occ_k[at] = t
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
    t, shift = _table(capacity)
    t.keys[0] = _full_mask(n)
    t.vals[0] = 1.0
    size = 1
    masks, masses, starts, cuts, occ_r, occ_k = _scratch(n, capacity)
    out = 0
    lo, hi, level = 0, 1, 0
    while lo < hi:
        starts[level] = out
        for s in range(lo, hi):
            mask = t.keys[s]
            share = t.vals[s]
            for c in range(_occurrences(mask, n, rank, cuts, occ_r, occ_k)):
                if p != 1.0:
                    child = mask & ~(np.int64(1) << cuts[occ_k[c] + 1])
                    size = _add(t, shift, size, level, child, share * (1.0 - p))
                    if size < 0:
                        raise ValueError("more BPE-dropout states than the capacity")
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


class Levels(NamedTuple):
    """States met so far, each level a list in insertion order (levels may grow in any order)."""

    keys: np.ndarray  # state keys
    vals: np.ndarray  # their incoming masses
    link: np.ndarray  # next state of the same level (-1: last)
    head: np.ndarray  # level -> first state (-1: none)
    tail: np.ndarray  # level -> last state
    slots: np.ndarray  # hash slot -> state (-1: empty)


@njit(**JIT)
def levels_of(capacity, n):
    """An empty :class:`Levels` for ``capacity`` states of levels ``0 .. n``."""
    bits = _table_bits(capacity)
    return Levels(np.empty(capacity, dtype=np.int64), np.empty(capacity),
                  np.empty(capacity, dtype=np.int64), np.full(n + 1, -1, dtype=np.int64),
                  np.full(n + 1, -1, dtype=np.int64), np.full(1 << bits, -1, dtype=np.int64))


@njit(**JIT_INLINE)
def _put(t, size, level, key, amount):
    """``vals[key] += amount`` (a new key is appended to ``level``); returns the new size,
    -1 past the capacity."""
    bits = t.slots.shape[0]
    shift = 64
    while bits > 1:
        bits >>= 1
        shift -= 1
    h = _slot(key, shift)
    while t.slots[h] >= 0 and t.keys[t.slots[h]] != key:
        h = (h + 1) & (t.slots.shape[0] - 1)
    if t.slots[h] >= 0:
        t.vals[t.slots[h]] += amount
        return size
    if size >= t.keys.shape[0]:
        return -1
    t.slots[h] = size
    t.keys[size] = key
    t.vals[size] = 0.0 + amount
    t.link[size] = -1
    if t.head[level] < 0:
        t.head[level] = size
    else:
        t.link[t.tail[level]] = size
    t.tail[level] = size
    return size + 1


@njit(**JIT_INLINE)
def _merge_subset(mask, cuts, occ_k, g, size, sub):
    """``mask`` with the occurrences ``occ_k[g + b]`` of one pair (bits ``b`` of ``sub``)
    merged left to right, an overlapping one passed over; returns (child, merges, kept)."""
    child, kept, merged, free = mask, 0, 0, -1
    for b in range(size):
        if (sub >> b) & 1:
            kept += 1
            q = occ_k[g + b]
            if q > free:  # pieces q, q + 1 are both untouched
                child &= ~(np.int64(1) << cuts[q + 1])
                merged += 1
                free = q + 1
    return child, merged, kept


@njit(**JIT)
def subword_nmt_mask_law(n, rank, p, capacity, max_repeats):
    """subword-nmt's law over boundary masks, in the order of
    :func:`workbench.bpe.semantics.subword_nmt_law` (bit for bit).

    Returns ``(masks, masses, starts, status)``: status 0, 1 (a pair repeats more than
    ``max_repeats`` times: no law) or 2 (more states than ``capacity``).
    """
    t = levels_of(capacity, n)
    size = _put(t, 0, 0, _full_mask(n), 1.0)
    masks, masses, starts, cuts, occ_r, occ_k = _scratch(n, capacity)
    out = 0
    for level in range(n):
        starts[level] = out
        s = t.head[level]
        while s >= 0:
            share = t.vals[s]
            count = _occurrences(t.keys[s], n, rank, cuts, occ_r, occ_k)
            g = 0
            while g < count:  # one group: every occurrence of one pair type
                e = g
                while e < count and occ_r[e] == occ_r[g]:
                    e += 1
                if e - g > max_repeats:
                    return masks[:0], masses[:0], starts, 1
                for sub in range(1, 1 << (e - g) if p != 1.0 else 1):
                    child, merged, kept = _merge_subset(t.keys[s], cuts, occ_k, g, e - g, sub)
                    w = share * math.pow(1.0 - p, float(kept)) * math.pow(p, float(e - g - kept))
                    size = _put(t, size, level + merged, child, w)
                    if size < 0:
                        return masks[:0], masses[:0], starts, 2
                share = share * math.pow(p, float(e - g))
                if share == 0.0:
                    break
                g = e
            if share != 0.0:
                masks[out] = t.keys[s]
                masses[out] = share
                out += 1
            s = t.link[s]
    starts[n] = out
    return masks[:out].copy(), masses[:out].copy(), starts, 0


@njit(**JIT)
def _table(capacity):
    """An empty :class:`Table` for ``capacity`` states, and its shift."""
    bits = _table_bits(capacity)
    return Table(np.empty(capacity, dtype=np.int64), np.empty(capacity),
                 np.empty(1 << bits, dtype=np.int64),
                 np.full(1 << bits, -1, dtype=np.int64)), 64 - bits


@njit(**JIT)
def _final_states(f, n):
    """The states of :class:`Levels` ``f`` level by level: ``(masks, masses, starts)``."""
    total = 0
    for level in range(n + 1):
        s = f.head[level]
        while s >= 0:
            total += 1
            s = f.link[s]
    masks = np.empty(total, dtype=np.int64)
    masses = np.empty(total)
    starts = np.zeros(n + 1, dtype=np.int64)
    out = 0
    for level in range(n):
        starts[level] = out
        s = f.head[level]
        while s >= 0:
            masks[out] = f.keys[s]
            masses[out] = f.vals[s]
            out += 1
            s = f.link[s]
    starts[n] = out
    return masks, masses, starts


@njit(**JIT)
def sentencepiece_mask_law(n, rank, p, capacity, segmentations):
    """SentencePiece's law, in the order of :func:`workbench.bpe.semantics.sentencepiece_law`
    (bit for bit). A state is ``mask | blocked << n`` (``blocked``: bit ``i`` for the pair
    whose left piece starts at ``i``), so ``2n ≤ 63``. ``segmentations`` bounds the final
    masks. Returns ``(masks, masses, starts, status)``: status 0, or 2 (more states than
    ``capacity``).
    """
    t, shift = _table(capacity)
    f = levels_of(segmentations, n)
    low = (np.int64(1) << n) - 1
    t.keys[0] = _full_mask(n)
    t.vals[0] = 1.0
    size, fsize = 1, 0
    masks, masses, starts, cuts, occ_r, occ_k = _scratch(n, 0)
    lo, hi, level = 0, 1, 0
    while lo < hi:
        for s in range(lo, hi):
            mask, skipped = t.keys[s] & low, t.keys[s] >> n
            share = t.vals[s]
            for c in range(_occurrences(mask, n, rank, cuts, occ_r, occ_k)):
                q = occ_k[c]
                if (t.keys[s] >> (n + cuts[q])) & 1:
                    continue  # blocked since it was formed: not live
                if p != 1.0:
                    gone = (np.int64(1) << cuts[q]) | (np.int64(1) << cuts[q + 1])
                    if q > 0:
                        gone |= np.int64(1) << cuts[q - 1]
                    child = (mask & ~(np.int64(1) << cuts[q + 1])) | ((skipped & ~gone) << n)
                    size = _add(t, shift, size, level, child, share * (1.0 - p))
                    if size < 0:
                        return cuts[:0], t.vals[:0], cuts[:0], 2
                skipped |= np.int64(1) << cuts[q]
                share *= p
                if share == 0.0:
                    break
            if share != 0.0:
                fsize = _put(f, fsize, level, mask, share)
                if fsize < 0:
                    return cuts[:0], t.vals[:0], cuts[:0], 2
        lo, hi, level = hi, size, level + 1
    masks, masses, starts = _final_states(f, n)
    return masks, masses, starts, 0
