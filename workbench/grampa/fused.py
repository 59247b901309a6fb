"""The fused route: Algorithms 1 and 2 in one pass per word, with exact float path counts.

Used by :meth:`workbench.Grampa.encode_flat` / ``tokenize_batch`` for finite vocabularies and
words of at most :data:`.params.SHORT_WORD` characters (almost every real word). Path counts
are plain floats: exact integers up to 2**53, rounded beyond, and never overflowing (a word of
at most 1,000 characters has at most 2**999 segmentations).

This module does not handle the infinite vocabulary, long words or many samples of one word
(:mod:`.logspace`, :mod:`.many`), and it does not validate anything: :mod:`.sampler` does.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from .._core.config import JIT, JIT_INLINE, JIT_PARALLEL
from .._core.rng import next_double, stream_state
from .._core.trie import child, word_codes
from ..lattice.kernels import keeps_arc
from .params import SHORT_WORD, Output, Walk, Words  # noqa: F401  (the records the kernels take)

CHUNK = 64  # words per parallel task


class TrieRows(NamedTuple):
    """The three rows of a double-array trie (``Walk.da``), taken apart once per chunk."""

    base: np.ndarray
    check: np.ndarray
    terminal: np.ndarray


class FusedWork(NamedTuple):
    """Per-chunk workspace of :func:`_short_word`, sized for the chunk's longest word.

    ``wc``: the word's trie codes; per node ``j``: ``counts[j]`` (path count), ``wsum[j]``
    (``Σ c_i ** α`` over the arcs into ``j``) and ``indeg[j]`` (arcs kept into ``j``); per
    arc ``k`` into ``j``: ``arc_len[j, k]``, ``arc_id[j, k]`` and ``arc_cum[j, k]`` (``wsum``
    over the first ``k + 1`` arcs); ``row``: one node's arc weights.
    """

    wc: np.ndarray  # int32, longest + 1
    counts: np.ndarray  # float64, longest + 1
    wsum: np.ndarray  # float64, longest + 1
    indeg: np.ndarray  # int32, longest + 1
    arc_len: np.ndarray  # int32, (longest + 1, max_len)
    arc_id: np.ndarray  # int32, (longest + 1, max_len)
    arc_cum: np.ndarray  # float64, (longest + 1, max_len)
    row: np.ndarray  # float64, max_len


@njit(**JIT_INLINE)
def reverse_span(values, start, count):
    """Reverse ``values[start:start + count]`` in place."""
    a, b = start, start + count - 1
    while a < b:
        values[a], values[b] = values[b], values[a]
        a += 1
        b -= 1


@njit(**JIT_INLINE)
def longest_word(offsets, lo, hi):
    """Length of the longest of words ``lo .. hi-1`` (sizes a chunk's workspace)."""
    longest = 0
    for w in range(lo, hi):
        longest = max(longest, offsets[w + 1] - offsets[w])
    return longest


@njit(**JIT_INLINE)
def _short_word(n, trie, walk, state, work, out, start):  # noqa: C901, PLR0915  (numba kernel)
    """Fused Algorithm 1 + 2 for one word of a finite vocabulary, ``n <= SHORT_WORD``.

    ``work.wc`` holds the word's trie codes in construction order, ending in a 0
    (:func:`workbench._core.trie.word_codes`); ``trie`` is ``walk.da`` as :class:`TrieRows`.
    The :class:`FusedWork` arrays are all built in one forward pass: path counts ``c`` and,
    per node, the total weight ``Σ c_i ** α`` of the arcs into it; ``arc_cum[j, k]`` is that
    total over the first ``k + 1`` arcs kept into ``j``. Where every weight is exact without
    rescaling (τ = 1: the counts themselves; τ = ±∞: ones; otherwise counts below the
    ``walk.powers`` table's size), a sampling step is one uniform and a count of prefix sums.
    Otherwise the step rescales by the largest (α > 0) or smallest (α < 0) count first, so no
    weight overflows.

    Arcs into each node are kept in the order Algorithm 1 finds them (longest first); the
    walk picks among them as if accumulating by increasing length and draws one uniform per
    node, exactly like :func:`workbench.grampa.logspace.walk_back`, so both kernels give the
    same sample for the same stream (up to rounding at the boundaries). Returns
    ``(k, state)``: the number of tokens written to ``out.lengths/ids[start:]`` (an
    :class:`.params.Output`) in word order, or -1 if the word has no segmentation.
    """
    alpha, ell_min, powers = walk.alpha, walk.ell_min, walk.powers
    wc, counts, wsum, indeg = work.wc, work.counts, work.wsum, work.indeg
    arc_len, arc_id, arc_cum, row = work.arc_len, work.arc_id, work.arc_cum, work.row
    base, check, terminal = trie.base, trie.check, trie.terminal
    out_len, out_id = out.lengths, out.ids
    n_powers = powers.shape[0]
    for j in range(n + 1):
        counts[j] = 0.0
        wsum[j] = 0.0
        indeg[j] = 0
    counts[0] = 1.0
    tabulated = True  # every weight is c ** alpha itself, without rescaling
    for i in range(n):
        c_i = counts[i]
        if c_i == 0.0:  # unreachable: its arcs carry no paths and are not kept
            continue
        if alpha == 1.0:
            w_i = c_i
        elif alpha == 0.0:
            w_i = 1.0
        elif c_i < n_powers:
            w_i = powers[int(c_i)]
        else:
            w_i = 0.0
            tabulated = False
        node = np.int64(0)
        j = i
        while True:  # stops at the first code that leaves the trie (wc[n] = 0 at the latest)
            node = child(base, check, node, wc[j])
            if node < 0:
                break
            j += 1
            tid = terminal[node]
            if tid < 0:
                continue
            length = j - i
            if keeps_arc(length, ell_min, indeg[j] > 0):
                k = indeg[j]
                arc_len[j, k] = length
                arc_id[j, k] = tid
                indeg[j] = k + 1
                counts[j] += c_i
                wsum[j] += w_i
                arc_cum[j, k] = wsum[j]
    if counts[n] == 0.0:
        return -1, state
    j = n
    k = 0
    while j > 0:
        m = indeg[j]
        u, state = next_double(state)
        pick = m - 1  # arcs were stored longest first; m - 1 is the shortest
        if m > 1:
            if tabulated:
                # the shortest arcs a..m-1 carry total - cum[a-1]: pick the largest a whose
                # share exceeds u * total, i.e. count the prefix sums below (1 - u) * total
                total = wsum[j]
                threshold = total - u * total
                pick = 0
                for a in range(m - 1):
                    pick += arc_cum[j, a] < threshold
            else:
                ref = counts[j - arc_len[j, 0]]
                for a in range(1, m):
                    v = counts[j - arc_len[j, a]]
                    if (alpha > 0.0 and v > ref) or (alpha < 0.0 and v < ref):
                        ref = v
                total = 0.0
                for a in range(m):
                    w = (counts[j - arc_len[j, a]] / ref) ** alpha
                    row[a] = w
                    total += w
                target = u * total
                acc = 0.0
                for a in range(m - 1, -1, -1):
                    if row[a] > 0.0:
                        acc += row[a]
                        pick = a
                        if acc > target:
                            break
        length = arc_len[j, pick]
        out_len[start + k] = length
        out_id[start + k] = arc_id[j, pick]
        k += 1
        j -= length
    if not walk.mirror:  # r2l emits the last token first
        reverse_span(out_len, start, k)
        reverse_span(out_id, start, k)
    return k, state


@njit(**JIT)
def short_chunk(words, lo, hi, walk, seed, out):
    """Words ``lo .. hi-1`` of ``words`` through the fused kernel, sharing one workspace.

    Word ``w`` (a :class:`.params.Words` batch) draws from stream ``w`` of ``seed``; its
    tokens go to the :class:`.params.Output` ``out`` (-1 tokens when it has no segmentation).
    """
    cps, offsets = words.cps, words.offsets
    longest = longest_word(offsets, lo, hi)
    width = max(walk.max_len, 1)
    work = FusedWork(np.empty(longest + 1, dtype=np.int32), np.empty(longest + 1),
                     np.empty(longest + 1), np.empty(longest + 1, dtype=np.int32),
                     np.empty((longest + 1, width), dtype=np.int32),
                     np.empty((longest + 1, width), dtype=np.int32),
                     np.empty((longest + 1, width)), np.empty(width))
    da = walk.da
    trie = TrieRows(da[0], da[1], da[2])
    codes, mirror = walk.codes, walk.mirror
    ntok = out.ntok
    for w in range(lo, hi):
        start = offsets[w]
        n = offsets[w + 1] - start
        word_codes(cps, start, n, mirror, codes, work.wc)
        k, _ = _short_word(n, trie, walk, stream_state(seed, w), work, out, start)
        ntok[w] = k


@njit(**JIT_PARALLEL)
def short_batch(words, walk, seed, out):
    """:func:`short_chunk` over all words, in parallel over chunks (same results)."""
    n_words = words.offsets.shape[0] - 1
    n_chunks = (n_words + CHUNK - 1) // CHUNK
    for c in prange(n_chunks):
        short_chunk(words, c * CHUNK, min(n_words, (c + 1) * CHUNK), walk, seed, out)
