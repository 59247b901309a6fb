"""Numba kernels of BPE-dropout's exact laws under the four semantics, over boundary masks.

A state is the mask of its boundaries (bit ``k``: a boundary before initial symbol ``k``),
with, for SentencePiece, the pairs skipped since they were formed (``mask | blocked << n``)
and, for HF ``tokenizers``, the stale heap entries (bits of two more int64). Each kernel
propagates the mass as its Python twin in :mod:`workbench.bpe.laws` /
:mod:`workbench.bpe.semantics` does (level by level; HF: then by decreasing heap size), in
insertion-ordered open-addressing tables, so the masses are summed in the same order and the
floats are the same bit for bit — except HF's, whose states are canonicalised
(:func:`_canonical`: about 27 states per segmentation on GPT-2's words instead of 340) and
so summed in another order. :func:`piece_spans` writes each final state's pieces as
span ids ``i·(n + 1) + j``.

This module does not build the rank cube, spell tokens or check budgets
(:func:`workbench.bpe.laws.fast_dropout_states` does), and holds no Fraction path.
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


class Buckets(NamedTuple):
    """HF states ``(mask, stale bits 0-63, stale bits 64-127)``, a list per (level, heap size)."""

    keys: np.ndarray  # (capacity, 3)
    vals: np.ndarray
    link: np.ndarray
    head: np.ndarray  # (levels, heap sizes) -> first state (-1: none)
    tail: np.ndarray
    slots: np.ndarray


class HFMerges(NamedTuple):
    """What HF's law looks merges up in: ``rank[i, m, j]`` (-1: no merge of ``i:m`` and
    ``m:j``), ``tid[i, j]`` (the triplet id of that merge) and ``trip[e] = (i, m, j, rank)``."""

    rank: np.ndarray
    tid: np.ndarray
    trip: np.ndarray


@njit(**JIT)
def _buckets(capacity, n, sizes):
    """An empty :class:`Buckets` and its shift."""
    bits = _table_bits(capacity)
    return Buckets(np.empty((capacity, 3), dtype=np.int64), np.empty(capacity),
                   np.empty(capacity, dtype=np.int64),
                   np.full((n + 1, sizes), -1, dtype=np.int64),
                   np.full((n + 1, sizes), -1, dtype=np.int64),
                   np.full(1 << bits, -1, dtype=np.int64)), 64 - bits


@njit(**JIT_INLINE)
def _put3(b, shift, size, level, hsize, key, amount):
    """``vals[key] += amount`` in bucket (level, hsize), ``key`` a triple of int64; returns
    the size (-1: full)."""
    k0, k1, k2 = key
    h = _slot(k0 ^ (k1 * 31) ^ (k2 * 1000003), shift)
    while b.slots[h] >= 0:
        s = b.slots[h]
        if b.keys[s, 0] == k0 and b.keys[s, 1] == k1 and b.keys[s, 2] == k2:
            b.vals[s] += amount
            return size
        h = (h + 1) & (b.slots.shape[0] - 1)
    if size >= b.keys.shape[0]:
        return -1
    b.slots[h] = size
    b.keys[size, 0] = k0
    b.keys[size, 1] = k1
    b.keys[size, 2] = k2
    b.vals[size] = 0.0 + amount
    b.link[size] = -1
    if b.head[level, hsize] < 0:
        b.head[level, hsize] = size
    else:
        b.link[b.tail[level, hsize]] = size
    b.tail[level, hsize] = size
    return size + 1


@njit(**JIT_INLINE)
def _stale(s0, s1, e):
    """Stale bits with triplet ``e`` set."""
    if e < 64:
        return s0 | (np.int64(1) << e), s1
    return s0, s1 | (np.int64(1) << (e - 64))


@njit(**JIT_INLINE)
def _hf_child(mask, s0, s1, e, count, m, cuts, mt):
    """HF's state after heap entry ``e`` survives its coin: ``(mask, stale bits, heap size,
    merges done)``. A live entry merges (its neighbours' entries go stale, the new pairs'
    are pushed); a stale one is discarded."""
    rank, tid, trip = mt.rank, mt.tid, mt.trip
    i, mid, j = trip[e, 0], trip[e, 1], trip[e, 2]
    q = 0
    while q < m and cuts[q] < i:
        q += 1
    if not (q < m - 1 and cuts[q] == i and cuts[q + 1] == mid and cuts[q + 2] == j):
        if e < 64:
            return mask, s0 & ~(np.int64(1) << e), s1, count - 1, 0
        return mask, s0, s1 & ~(np.int64(1) << (e - 64)), count - 1, 0
    grow = 0
    if q > 0:
        if rank[cuts[q - 1], i, mid] >= 0:
            s0, s1 = _stale(s0, s1, tid[cuts[q - 1], mid])
        if rank[cuts[q - 1], i, j] >= 0:
            grow += 1
    if q + 3 <= m:
        if rank[mid, j, cuts[q + 3]] >= 0:
            s0, s1 = _stale(s0, s1, tid[mid, cuts[q + 3]])
        if rank[i, j, cuts[q + 3]] >= 0:
            grow += 1
    return mask & ~(np.int64(1) << mid), s0, s1, count - 1 + grow, 1


@njit(**JIT_INLINE)
def _bit(s0, s1, e):
    """Bit ``e`` of the 128-bit set ``(s0, s1)``."""
    return ((s0 if e < 64 else s1) >> (e & 63)) & 1


@njit(**JIT_INLINE)
def _piece(mask, n, a, b):
    """Whether ``a:b`` is a piece of boundary mask ``mask``."""
    if (a > 0 and not (mask >> a) & 1) or (b < n and not (mask >> b) & 1):
        return False
    return (mask >> (a + 1)) & ((np.int64(1) << (b - a - 1)) - 1) == 0


@njit(**JIT_INLINE)
def _may_live(mask, n, trip, by_width, made):
    """The triplets that are or may become live entries of a state with boundaries ``mask``
    (both halves are pieces, or can be built from pieces: boundaries only go), as 128 bits.
    ``by_width``: the triplets by width; ``made``: an (n + 1, n + 1) scratch."""
    for x in range(by_width.shape[0]):
        e = by_width[x]
        made[trip[e, 0], trip[e, 2]] = False
    may0, may1 = np.int64(0), np.int64(0)
    for x in range(by_width.shape[0]):
        e = by_width[x]
        i, m, j = trip[e, 0], trip[e, 1], trip[e, 2]
        if (made[i, m] or _piece(mask, n, i, m)) and (made[m, j] or _piece(mask, n, m, j)):
            may0, may1 = _stale(may0, may1, e)
            made[i, j] = True
    return may0, may1


class MayMemo(NamedTuple):
    """:func:`_may_live` of each mask met (open addressing; ``keys`` -1: empty)."""

    keys: np.ndarray
    bits: np.ndarray  # (slots, 2)
    by_width: np.ndarray
    made: np.ndarray


@njit(**JIT_INLINE)
def _may(memo, mask, n, trip):
    """:func:`_may_live` of ``mask``, computed once."""
    shift = 64
    size = memo.keys.shape[0]
    while size > 1:
        size >>= 1
        shift -= 1
    h = _slot(mask, shift)
    while memo.keys[h] >= 0:
        if memo.keys[h] == mask:
            return memo.bits[h, 0], memo.bits[h, 1]
        h = (h + 1) & (memo.keys.shape[0] - 1)
    may0, may1 = _may_live(mask, n, trip, memo.by_width, memo.made)
    memo.keys[h] = mask
    memo.bits[h, 0] = may0
    memo.bits[h, 1] = may1
    return may0, may1


@njit(**JIT_INLINE)
def _canonical(mask, s0, s1, n, trip, memo):
    """The stale bits of HF state ``(mask, s0, s1)`` in canonical form (``trip`` sorted by
    (rank, start)), and how many stale entries it dropped.

    Only a triplet whose halves are pieces or can be built from pieces may be (or become) a
    live entry (:func:`_may_live`). A stale entry is never valid again and acts only when
    popped (coin; a survivor flushes the held entries back and is discarded), so two stale
    entries between the same two such triplets in pop order are interchangeable now and
    later: each run of other triplets keeps its count of stale entries, on its first ones.
    Stale entries before the first such triplet are dropped: one that survives its coin
    ends the round before any live entry has drawn, so the live entries' rounds are those
    of the state without it."""
    may0, may1 = _may(memo, mask, n, trip)
    c0, c1 = np.int64(0), np.int64(0)
    start, stale, dropped = -1, 0, 0
    for e in range(trip.shape[0] + 1):
        if e < trip.shape[0] and not _bit(may0, may1, e):
            stale += _bit(s0, s1, e)
            continue
        if start < 0:
            dropped = stale
        else:
            for x in range(start, start + stale):
                c0, c1 = _stale(c0, c1, x)
        start, stale = e + 1, 0
    return c0, c1, dropped


@njit(**JIT_INLINE)
def _hf_heap(mask, s0, s1, n, mt, cuts, ent):
    """The heap of HF state (mask, stale bits) in pop order into ``ent`` (triplet ids:
    ``trip`` is sorted by (rank, start)); returns (entries, pieces)."""
    rank, tid, trip = mt.rank, mt.tid, mt.trip
    m = _cuts_of(mask, n, cuts)
    h0, h1 = s0, s1
    for q in range(m - 1):
        if rank[cuts[q], cuts[q + 1], cuts[q + 2]] >= 0:
            h0, h1 = _stale(h0, h1, tid[cuts[q], cuts[q + 2]])
    count = 0
    for e in range(trip.shape[0]):
        if _bit(h0, h1, e):
            ent[count] = e
            count += 1
    return count, m


@njit(**JIT)
def _may_memo(trip, n, segmentations):
    """An empty :class:`MayMemo` for ``segmentations`` masks."""
    bits = _table_bits(segmentations)
    return MayMemo(np.full(1 << bits, -1, dtype=np.int64),
                   np.empty((1 << bits, 2), dtype=np.int64),
                   np.argsort(trip[:, 2] - trip[:, 0], kind="mergesort"),
                   np.zeros((n + 1, n + 1), dtype=np.bool_))


class HFRun(NamedTuple):
    """What :func:`_hf_expand` reads besides the table: the word's merges, the may-live
    memo, the dropout rate, the number of symbols and two scratch arrays."""

    mt: HFMerges
    memo: MayMemo
    p: float
    n: int
    cuts: np.ndarray
    ent: np.ndarray


@njit(**JIT_INLINE)
def _hf_expand(b, shift, size, level, key, share, run):
    """Send HF state ``key`` = (mask, stale bits)'s mass ``share`` to its children;
    returns (size, the mass that stops here); size -1: over the capacity."""
    mask, s0, s1 = key
    mt, memo, p, n, cuts, ent = run
    count, m = _hf_heap(mask, s0, s1, n, mt, cuts, ent)
    c = 0
    while c < count and share != 0.0:
        e = ent[c]
        if _bit(s0, s1, e):  # a run of stale entries: one child, one fewer in the run
            r = c + 1
            while r < count and ent[r] == ent[r - 1] + 1 and _bit(s0, s1, ent[r]):
                r += 1
            held = math.pow(p, float(r - c))
            if p != 1.0:
                last = ent[r - 1]
                c0 = s0 & ~(np.int64(1) << last) if last < 64 else s0
                c1 = s1 & ~(np.int64(1) << (last - 64)) if last >= 64 else s1
                size = _put3(b, shift, size, level, count - 1, (mask, c0, c1),
                             share * (1.0 - held))
            share *= held
            c = r
        else:
            if p != 1.0:
                child, c0, c1, hsize, deeper = _hf_child(mask, s0, s1, e, count, m, cuts, mt)
                c0, c1, dropped = _canonical(child, c0, c1, n, mt.trip, memo)
                size = _put3(b, shift, size, level + deeper, hsize - dropped, (child, c0, c1),
                             share * (1.0 - p))
            share *= p
            c += 1
        if size < 0:
            return size, share
    return size, share


@njit(**JIT)
def hf_mask_law(n, rank, tid, trip, p, capacity, segmentations, max_states):
    """HF ``tokenizers``' law, exact up to float rounding (the same law as
    :func:`workbench.bpe.semantics.hf_law`, summed in another order). A state is the
    boundary mask and the stale heap entries (each entry, a triplet ``trip[e] = (i, m, j,
    rank)`` of one merge at one place, sorted by (rank, i), is pushed at most once: when
    the later of its two pieces is made; at most 128 triplets) in :func:`_canonical` form.
    The stale entries of one run pop one after another and lead to one state, so they are
    one transition. Buckets go by level, then by decreasing heap size. Returns ``(masks,
    masses, starts, status, states)``: status 0, 2 (over ``capacity``) or 3 (more than
    ``max_states`` states processed).
    """
    sizes = trip.shape[0] + n + 1
    b, shift = _buckets(capacity, n, sizes)
    f = levels_of(segmentations, n)
    full = _full_mask(n)
    cuts = np.empty(n + 1, dtype=np.int64)
    ent = np.empty(n + trip.shape[0] + 1, dtype=np.int64)
    mt = HFMerges(rank, tid, trip)
    memo = _may_memo(trip, n, segmentations)
    run = HFRun(mt, memo, p, n, cuts, ent)
    count, _ = _hf_heap(full, 0, 0, n, mt, cuts, ent)
    size = _put3(b, shift, 0, 0, count, (full, np.int64(0), np.int64(0)), 1.0)
    fsize, done = 0, 0
    for level in range(n):
        for hs in range(sizes - 1, -1, -1):
            s = b.head[level, hs]
            while s >= 0 and size >= 0 and fsize >= 0 and done < max_states:
                done += 1
                size, share = _hf_expand(b, shift, size, level,
                                         (b.keys[s, 0], b.keys[s, 1], b.keys[s, 2]),
                                         b.vals[s], run)
                if share != 0.0:
                    fsize = _put(f, fsize, level, b.keys[s, 0], share)
                s = b.link[s]
            if size < 0 or fsize < 0:
                return cuts[:0], b.vals[:0], cuts[:0], 2, done
            if s >= 0:
                return cuts[:0], b.vals[:0], cuts[:0], 3, done + 1
    masks, masses, starts = _final_states(f, n)
    return masks, masses, starts, 0, done
