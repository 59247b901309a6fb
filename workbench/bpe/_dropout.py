"""Numba kernels that sample BPE-dropout under the HF, SentencePiece and subword-nmt semantics.

The reference semantics (Provilkov et al.'s code) is :func:`workbench.bpe._encode.encode_chunks`;
:mod:`workbench.bpe.semantics` says what each semantics is and where it comes from, and gives
their exact laws. Here each procedure is followed step by step on kernel symbols (bytes
``0..255``, merge ``k`` makes ``256 + k``), with a pair table ``H`` (packed pair → row, see
:func:`workbench.bpe._encode.build_merge_table`) and per-row ``rank`` and ``made`` arrays.
A queue is kept as flat arrays scanned for its minimum (words are short; the
:data:`~workbench.bpe.model.DROPOUT_MAX_CHUNK` bound makes that ``O(L^2)`` like the reference
kernel). Chunk ``c`` draws from SplitMix64 stream ``c`` of ``seed``.

This module does not compute laws, split text or handle stop words.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .._core.config import JIT
from .._core.rng import next_double, stream_state
from ._encode import _rank  # the merge table's row of a pair (-1: none)

HF, SENTENCEPIECE, SUBWORD_NMT = 1, 2, 3


@njit(**JIT)
def _queue_min(qr, qp, flag, n):
    """Index of the smallest ``(rank, position)`` entry with ``flag == 0`` (-1: none)."""
    best = -1
    for e in range(n):
        if flag[e] == 0 and (best < 0 or qr[e] < qr[best]
                             or (qr[e] == qr[best] and qp[e] < qp[best])):
            best = e
    return best


class Queue(NamedTuple):
    """The pair queue of one chunk, as parallel arrays (a record, not four arguments)."""

    rank: np.ndarray  # the pair's merge rank
    pos: np.ndarray  # where the pair starts
    made: np.ndarray  # the token the merge makes
    flag: np.ndarray  # 0 queued, 1 skipped (HF: held aside), 2 gone


@njit(**JIT)
def _queued(H, rank, made, buf, nxt, a, q, n):
    """Push the pair starting at position ``a`` (if it is in the table); returns the new size."""
    if a < 0 or nxt[a] < 0:
        return n
    row = _rank(H, buf[a], buf[nxt[a]])
    if row >= 0:
        q.rank[n] = rank[row]
        q.pos[n] = a
        q.made[n] = made[row]
        q.flag[n] = 0
        n += 1
    return n


@njit(**JIT)
def _queue_chunk(buf, length, H, rank, made, p, state, mode):
    """HF (``mode`` 1) or SentencePiece (2) on ``buf[:length]``; returns (length, state)."""
    nxt = np.arange(1, length + 1).astype(np.int64)
    prv = np.arange(-1, length - 1).astype(np.int64)
    nxt[length - 1] = -1
    alive = np.ones(length, dtype=np.bool_)
    cap = 3 * length + 3
    qr = np.empty(cap, dtype=np.int64)
    qp = np.empty(cap, dtype=np.int64)
    qm = np.empty(cap, dtype=np.int64)
    flag = np.empty(cap, dtype=np.int8)  # 0 queued, 1 skipped (HF: held aside), 2 gone
    q = Queue(qr, qp, qm, flag)
    n = 0
    for i in range(length - 1):
        n = _queued(H, rank, made, buf, nxt, i, q, n)
    while True:
        e = _queue_min(qr, qp, flag, n)
        if e < 0:
            break
        a = qp[e]
        b = nxt[a] if alive[a] else -1
        row = _rank(H, buf[a], buf[b]) if b >= 0 else -1
        valid = row >= 0 and made[row] == qm[e]
        if mode == SENTENCEPIECE and not valid:
            flag[e] = 2  # a stale entry is dropped before any coin
            continue
        u, state = next_double(state)
        if u < p:
            flag[e] = 1 if mode == HF else 2  # HF holds it aside; SentencePiece drops it
            continue
        flag[e] = 2
        if mode == HF:
            for f in range(n):  # HF: every held entry goes back into the queue
                if flag[f] == 1:
                    flag[f] = 0
            if not valid:
                continue  # the coin was spent on a stale entry
        buf[a] = qm[e]
        alive[b] = False
        nxt[a] = nxt[b]
        if nxt[b] >= 0:
            prv[nxt[b]] = a
        n = _queued(H, rank, made, buf, nxt, prv[a], q, n)
        n = _queued(H, rank, made, buf, nxt, a, q, n)
    w = 0
    for i in range(length):
        if alive[i]:
            buf[w] = buf[i]
            w += 1
    return w, state


@njit(**JIT)
def _subword_nmt_chunk(buf, length, H, rank, made, p, state):
    """subword-nmt on ``buf[:length]``: every surviving occurrence of the best pair merges."""
    keep = np.zeros(length, dtype=np.bool_)
    while length > 1:
        best = -1
        best_row = -1
        for i in range(length - 1):
            keep[i] = False
            row = _rank(H, buf[i], buf[i + 1])
            if row < 0:
                continue
            u, state = next_double(state)
            if u < p:  # subword-nmt keeps a pair when random() > dropout
                continue
            keep[i] = True
            if best < 0 or rank[row] < best:
                best = rank[row]
                best_row = row
        if best < 0:
            break
        w = 0
        i = 0
        while i < length:
            if (i < length - 1 and keep[i] and _rank(H, buf[i], buf[i + 1]) == best_row):
                buf[w] = made[best_row]
                i += 2  # an overlapping occurrence (x x x) is passed over
            else:
                buf[w] = buf[i]
                i += 1
            w += 1
        length = w
    return length, state


@njit(**JIT)
def sample_chunks(sym, offsets, H, rank, made, p, seed, mode):
    """Chunk ``i`` = ``sym[offsets[i]:offsets[i + 1]]`` under semantics ``mode``.

    Returns ``(out, out_offsets)`` as :func:`workbench.bpe._encode.encode_chunks`.
    """
    n = offsets.shape[0] - 1
    out = sym.astype(np.int64)
    out_offsets = np.zeros(n + 1, dtype=np.int64)
    w = 0
    for c in range(n):
        s = offsets[c]
        length = offsets[c + 1] - s
        buf = out[w:w + length]
        for i in range(length):
            buf[i] = sym[s + i]
        state = stream_state(np.uint64(seed), c)
        if length > 1:
            if mode == SUBWORD_NMT:
                length, state = _subword_nmt_chunk(buf, length, H, rank, made, p, state)
            else:
                length, state = _queue_chunk(buf, length, H, rank, made, p, state, mode)
        w += length
        out_offsets[c + 1] = w
    return out[:w].copy(), out_offsets
