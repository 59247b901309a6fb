"""Numba kernels that encode many chunks with a trained merge table (optionally with dropout).

A merge table maps the packed pair ``left << 32 | right`` of two symbols to its rank ``k``;
merge ``k`` makes symbol ``256 + k`` (symbols ``0..255`` are bytes). Encoding a chunk
repeatedly applies the lowest-ranked pair present, at its leftmost occurrence, until none is
left — the order training applied them in, so a training chunk encodes to its trained form.

Plain BPE (``p = 0``) runs in ``O(L log L)`` per chunk of ``L`` bytes: a linked list of
symbols and a heap of ``(rank, position)`` pairs with lazy deletion. Popping the smallest
``(rank, position)`` is the same order as "lowest rank, all occurrences left to right",
because a merge ``k`` only creates pairs of rank ``> k`` (merge ``k``'s output is used
only by later merges; :class:`~workbench.bpe.model.BPEModel` checks this).

BPE-dropout (Provilkov et al., 2020): at every step each applicable pair occurrence is
skipped with probability ``p``; the best surviving one is applied; the chunk is finished
when no occurrence survives. That is ``O(L^2)`` per chunk (fresh draws at every step), so
the public wrapper bounds the chunk length. ``p = 1`` leaves bytes. Chunk ``i`` of a call
draws from SplitMix64 stream ``i``, so results do not depend on batching.

This module does not split text or handle stop words (see :mod:`workbench.bpe.model`).
"""

from __future__ import annotations

import heapq

import numpy as np
from numba import njit

from .._core.config import JIT, JIT_INLINE
from .._core.rng import next_double, stream_state


@njit(**JIT_INLINE)
def hash_slot(H, key):
    """Slot of ``key`` in the map ``H`` (the one holding it, or the empty one to fill).

    ``H`` is one ``int64`` array of ``2 * capacity``: slot ``i`` keeps its key at ``H[2i]``
    (-1 when empty) and its value at ``H[2i + 1]``, so a probe touches one cache line.
    """
    mask = (H.shape[0] >> 1) - 1
    h = (np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(20)
    i = np.int64(h) & mask
    while H[2 * i] != key and H[2 * i] != -1:
        i = (i + 1) & mask
    return i


@njit(**JIT)
def hash_new(need):
    """An empty map (see :func:`hash_slot`) for ``need`` entries at load factor <= 1/2."""
    cap = 16
    while 2 * need > cap:
        cap *= 2
    return np.full(2 * cap, -1, dtype=np.int64)


@njit(**JIT)
def build_merge_table(merges):
    """Hash map (see ``hash_slot``) ``left << 32 | right`` → rank for ``int64[n, 2]`` pairs."""
    H = hash_new(merges.shape[0] + 1)
    for k in range(merges.shape[0]):
        key = (merges[k, 0] << 32) | merges[k, 1]
        i = hash_slot(H, key)
        H[2 * i] = key
        H[2 * i + 1] = k
    return H


@njit(**JIT_INLINE)
def _rank(H, a, b):
    i = hash_slot(H, (np.int64(a) << 32) | np.int64(b))
    if H[2 * i] == -1:
        return -1
    return H[2 * i + 1]


@njit(**JIT)
def _encode_heap(buf, length, H):
    """Plain BPE of ``buf[:length]`` in place in ``O(L log L)``; returns the new length."""
    if length < 2:
        return length
    nxt = np.arange(1, length + 1).astype(np.int64)
    prv = np.arange(-1, length - 1).astype(np.int64)
    nxt[length - 1] = -1
    heap = [(np.int64(0), np.int64(0))]
    heap.pop()
    for i in range(length - 1):
        r = _rank(H, buf[i], buf[i + 1])
        if r >= 0:
            heap.append((r, np.int64(i)))
    heapq.heapify(heap)
    while len(heap) > 0:
        r, i = heapq.heappop(heap)
        j = nxt[i]
        if buf[i] < 0 or j < 0 or _rank(H, buf[i], buf[j]) != r:
            continue  # stale: a neighbour changed since this pair was pushed
        buf[i] = 256 + r
        buf[j] = -1
        k = nxt[j]
        nxt[i] = k
        if k >= 0:
            prv[k] = i
            r2 = _rank(H, buf[i], buf[k])
            if r2 >= 0:
                heapq.heappush(heap, (r2, i))
        h = prv[i]
        if h >= 0:
            r2 = _rank(H, buf[h], buf[i])
            if r2 >= 0:
                heapq.heappush(heap, (r2, h))
    w = 0
    for i in range(length):
        if buf[i] >= 0:
            buf[w] = buf[i]
            w += 1
    return w


@njit(**JIT)
def encode_chunks(sym, offsets, H, p, seed):
    """Encode chunk ``i`` = ``sym[offsets[i]:offsets[i + 1]]`` for every ``i``.

    Returns ``(out, out_offsets)``: chunk ``i``'s symbols are
    ``out[out_offsets[i]:out_offsets[i + 1]]``. ``p`` is the dropout probability.
    """
    n = offsets.shape[0] - 1
    out = sym.copy()
    out_offsets = np.zeros(n + 1, dtype=np.int64)
    w = 0
    for c in range(n):
        s = offsets[c]
        length = offsets[c + 1] - s
        buf = out[w:w + length]
        for i in range(length):
            buf[i] = sym[s + i]
        if p == 0.0:
            w += _encode_heap(buf, length, H)
            out_offsets[c + 1] = w
            continue
        state = stream_state(np.uint64(seed), c)
        while length > 1:
            best = -1
            best_at = -1
            for i in range(length - 1):
                r = _rank(H, buf[i], buf[i + 1])
                if r < 0 or (best >= 0 and r >= best):
                    continue
                if p > 0.0:
                    u, state = next_double(state)
                    if u < p:
                        continue
                best = r
                best_at = i
            if best < 0:
                break
            buf[best_at] = 256 + best  # apply one occurrence, then draw again
            for i in range(best_at + 1, length - 1):
                buf[i] = buf[i + 1]
            length -= 1
        w += length
        out_offsets[c + 1] = w
    return out[:w].copy(), out_offsets
