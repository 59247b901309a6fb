"""Numba kernels that encode many chunks with a trained merge table (optionally with dropout).

A merge table maps the packed pair ``left << 32 | right`` of two symbols to its rank ``k``;
merge ``k`` makes symbol ``256 + k`` (symbols ``0..255`` are bytes). Encoding a chunk
repeatedly applies the lowest-ranked pair present, at its leftmost occurrence, until none is
left — the order training applied them in, so a training chunk encodes to its trained form.

BPE-dropout (Provilkov et al., 2020): at every step each applicable pair occurrence is
skipped with probability ``p``; the best surviving one is applied; the chunk is finished
when no occurrence survives. ``p = 0`` is plain BPE, ``p = 1`` leaves bytes. Chunk ``i`` of a
call draws from SplitMix64 stream ``i``, so results do not depend on batching.

This module does not split text or handle stop words (see :mod:`workbench.bpe.model`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._core.config import JIT
from .._core.rng import next_double, stream_state
from ._kernels import hash_grow, hash_slot


@njit(**JIT)
def build_merge_table(merges):
    """Hash map ``left << 32 | right`` → rank for an ``int64[n, 2]`` array of symbol pairs."""
    hkeys = np.full(16, -1, dtype=np.int64)
    hvals = np.full(16, -1, dtype=np.int32)
    hkeys, hvals = hash_grow(hkeys, hvals, merges.shape[0] + 1)
    for k in range(merges.shape[0]):
        key = (merges[k, 0] << 32) | merges[k, 1]
        i = hash_slot(hkeys, key)
        hkeys[i] = key
        hvals[i] = k
    return hkeys, hvals


@njit(**JIT)
def _rank(hkeys, hvals, a, b):
    i = hash_slot(hkeys, (np.int64(a) << 32) | np.int64(b))
    if hkeys[i] == -1:
        return -1
    return hvals[i]


@njit(**JIT)
def encode_chunks(sym, offsets, hkeys, hvals, p, seed):
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
        state = stream_state(np.uint64(seed), c)
        while length > 1:
            best = -1
            best_at = -1
            for i in range(length - 1):
                r = _rank(hkeys, hvals, buf[i], buf[i + 1])
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
            z = 256 + best
            if p > 0.0:  # apply one occurrence, then draw again
                buf[best_at] = z
                for i in range(best_at + 1, length - 1):
                    buf[i] = buf[i + 1]
                length -= 1
                continue
            a = buf[best_at]
            b = buf[best_at + 1]
            j = best_at
            i = best_at
            while i < length:
                if i < length - 1 and buf[i] == a and buf[i + 1] == b:
                    buf[j] = z
                    i += 2
                else:
                    buf[j] = buf[i]
                    i += 1
                j += 1
            length = j
        w += length
        out_offsets[c + 1] = w
    return out[:w].copy(), out_offsets
