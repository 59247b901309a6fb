"""The numba kernels of GreedTok's encoder (App. D.2, Alg. 4): the token trie and the encoding.

:class:`workbench.greedtok.encoder.GreedTokModel` builds a :class:`TokenTrie` once
(:func:`build_trie`) and encodes many words in one parallel call (:func:`encode_words`, then
:func:`compact`); what Alg. 4 does to one word is :func:`encode_word`. The arguments are
checked by the model: these kernels see only its arrays.

This module does not validate input or know files (:mod:`.encoder`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from .._core.config import JIT, JIT_INLINE, JIT_PARALLEL
from .candidates import hash_slot

__all__ = ["EncodeWork", "TokenTrie", "build_trie", "child", "compact", "encode_word",
           "encode_words"]

#: Words of at most this many occurrences are sorted by insertion sort (else ``np.sort``).
SMALL_SORT = 48

class TokenTrie(NamedTuple):
    """A model as the encoder kernels see it: the trie of its tokens and their ranks.

    ``keys``, ``vals``, ``shift``: the trie's edges, as a
    :class:`workbench.greedtok.candidates.ChildMap` (flat here: numba's parallel loops do not
    take nested records).
    """

    keys: np.ndarray  # int64
    vals: np.ndarray  # int32
    shift: int
    node_rank: np.ndarray  # int64 per node: rank of the token it spells, or -1
    tok_len: np.ndarray  # int64 per rank: token length in bytes
    max_len: int  # longest token, bytes


class EncodeWork(NamedTuple):
    """Per-thread workspace of :func:`encode_word`, sized for the longest word."""

    recs: np.ndarray  # int64: (rank, position) sort keys of the word's token occurrences
    marks: np.ndarray  # uint8 per byte pair: covered by a token
    owner: np.ndarray  # int64 per position: rank of the token starting there


@njit(**JIT)
def build_trie(tok_buf, tok_off, keys, vals, shift, node_rank):
    """Insert each token (rank = index) into the (parent * 256 + byte) -> child table."""
    mask = keys.shape[0] - 1
    n_nodes = 256
    for r in range(tok_off.shape[0] - 1):
        node = np.int64(tok_buf[tok_off[r]])
        for p in range(tok_off[r] + 1, tok_off[r + 1]):
            key = node * 256 + np.int64(tok_buf[p])
            h = hash_slot(key, shift, mask)
            while True:
                if keys[h] == key:
                    node = np.int64(vals[h])
                    break
                if keys[h] == -1:
                    keys[h] = key
                    vals[h] = n_nodes
                    node = np.int64(n_nodes)
                    n_nodes += 1
                    break
                h = (h + 1) & mask
        node_rank[node] = r
    return n_nodes


@njit(**JIT_INLINE)
def child(trie, node, byte):
    """Child of ``node`` along ``byte`` in a :class:`TokenTrie`, or -1."""
    keys, vals = trie.keys, trie.vals
    key = node * 256 + np.int64(byte)
    mask = keys.shape[0] - 1
    h = hash_slot(key, trie.shift, mask)
    while True:
        k = keys[h]
        if k == key:
            return np.int64(vals[h])
        if k == -1:
            return np.int64(-1)
        h = (h + 1) & mask


@njit(**JIT_INLINE)
def encode_word(buf, base, n, trie, work, out, out_pos):
    """Alg. 4 on ``buf[base:base+n]``; writes ids to ``out[out_pos:]``; returns their number.

    ``trie`` is the model's :class:`TokenTrie`, ``work`` an :class:`EncodeWork`.
    """
    node_rank, tok_len, max_len = trie.node_rank, trie.tok_len, trie.max_len
    recs, marks, owner = work.recs, work.marks, work.owner
    cnt = 0
    for i in range(n):
        node = np.int64(buf[base + i])
        for ell in range(2, min(max_len, n - i) + 1):
            node = child(trie, node, buf[base + i + ell - 1])
            if node < 0:
                break
            r = node_rank[node]
            if r >= 0:
                recs[cnt] = r * 65536 + i  # sort key: (rank, position)
                cnt += 1
    if cnt > SMALL_SORT:
        recs[:cnt] = np.sort(recs[:cnt])
    else:
        for a in range(1, cnt):
            x = recs[a]
            b = a - 1
            while b >= 0 and recs[b] > x:
                recs[b + 1] = recs[b]
                b -= 1
            recs[b + 1] = x
    for p in range(n):
        marks[p] = 0
    for a in range(cnt):
        r = recs[a] // 65536
        i = recs[a] % 65536
        end = i + tok_len[r]  # exclusive; pairs i .. end-2
        if (i > 0 and marks[i - 1] != 0) or marks[end - 1] != 0:
            continue
        for p in range(i, end - 1):
            marks[p] = 1
        owner[i] = r
    m = 0
    p = 0
    while p < n:
        q = p
        while marks[q] != 0:
            q += 1
        out[out_pos + m] = np.int32(buf[base + p]) if q == p else np.int32(256 + owner[p])
        m += 1
        p = q + 1
    return m


@njit(**JIT_PARALLEL)
def encode_words(buf, woff, trie, out, n_tok):
    """Encode every word; word ``w``'s ids go to ``out[woff[w]:]``, their number to n_tok."""
    n_words = woff.shape[0] - 1
    longest = 1
    for w in range(n_words):
        longest = max(longest, woff[w + 1] - woff[w])
    n_blocks = min(n_words, 256)
    for blk in prange(n_blocks):
        work = EncodeWork(np.empty(longest * max(trie.max_len, 2) + 1, dtype=np.int64),
                          np.zeros(longest + 1, dtype=np.uint8),
                          np.zeros(longest + 1, dtype=np.int64))
        for w in range(blk, n_words, n_blocks):
            base = woff[w]
            n_tok[w] = encode_word(buf, base, woff[w + 1] - base, trie, work, out, base)


@njit(**JIT)
def compact(out, woff, n_tok, ids, offsets):
    for w in range(n_tok.shape[0]):
        offsets[w + 1] = offsets[w] + n_tok[w]
        ids[offsets[w]:offsets[w + 1]] = out[woff[w]:woff[w] + n_tok[w]]
