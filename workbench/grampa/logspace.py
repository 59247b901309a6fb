"""The log-space route: Algorithm 1 with path counts kept as natural logarithms, Algorithm 2.

Used for the infinite vocabulary, for words longer than :data:`.params.SHORT_WORD` and for the
exact laws (:mod:`.laws`). Every normalisation subtracts the largest (α > 0) or smallest
(α < 0) exponent first, so no count, weight or probability overflows at any word length.

Kernels here take :mod:`.params` records (a :class:`.params.Walk`, the word's
:class:`.params.Graph`, a batch's :class:`.params.Words` and :class:`.params.Output`); they
validate nothing (:mod:`.sampler` does).
This module does not sample many paths of one word (:mod:`.many`).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .._core.config import JIT, JIT_PARALLEL
from .._core.rng import next_double, stream_state
from ..lattice.kernels import fill_arc_table, keeps_arc, select_arcs
from .fused import CHUNK, longest_word, reverse_span
from .params import Graph


@njit(**JIT)
def _has_arc(j, length, sel, walk):
    """Is the arc of ``length`` into node ``j`` in the walked graph?

    Finite vocabularies read the selection ``sel``. Under the infinite vocabulary every node
    is reachable and the arcs into ``j`` are offered longest first (from node 0), so the
    soft-ℓ_min rule keeps an arc iff ``keeps_arc(length, ell_min, length < j)``.
    """
    if walk.infinite:
        return keeps_arc(length, walk.ell_min, length < j)
    return sel[j, length]


@njit(**JIT)
def count_paths(cps, walk, table, sel, reach, logc):
    """Algorithm 1 (with reachability) on ``cps``; log path counts into ``logc``.

    Returns the longest arc length to consider (``max_len``, or ``n`` if infinite).
    """
    n = cps.shape[0]
    if walk.infinite:
        span = n
        reach[: n + 1] = True
    else:
        span = walk.max_len
        fill_arc_table(cps, walk.da, walk.codes, walk.max_len, table)
        select_arcs(table, n, walk.max_len, walk.ell_min, sel, reach)
    logc[0] = 0.0
    for j in range(1, n + 1):
        if not reach[j]:
            logc[j] = -np.inf
            continue
        top = -np.inf
        for length in range(1, min(j, span) + 1):
            if _has_arc(j, length, sel, walk) and logc[j - length] > top:
                top = logc[j - length]
        total = 0.0
        for length in range(1, min(j, span) + 1):
            if _has_arc(j, length, sel, walk):
                total += np.exp(logc[j - length] - top)
        logc[j] = top + np.log(total)
    return span


@njit(**JIT)
def arc_weights(j, span, walk, logc, sel, row):
    """Unnormalised weights of the arcs into ``j`` (``row[l]`` for length ``l``); their sum."""
    alpha = walk.alpha
    hi = min(j, span)
    if alpha == 1.0:
        ref = logc[j]
    elif alpha == 0.0:
        ref = 0.0
    else:  # largest exponent alpha * logc[i] becomes 0: no overflow for either sign of alpha
        ref = np.nan
        for length in range(1, hi + 1):
            if _has_arc(j, length, sel, walk):
                v = logc[j - length]
                if ref != ref or (alpha > 0.0 and v > ref) or (alpha < 0.0 and v < ref):
                    ref = v
    total = 0.0
    for length in range(1, hi + 1):
        w = 0.0
        if _has_arc(j, length, sel, walk):
            w = 1.0 if alpha == 0.0 else np.exp(alpha * (logc[j - length] - ref))
        row[length] = w
        total += w
    return total


@njit(**JIT)
def pick(row, hi, total, u):
    """Index ``l`` in 1..hi chosen with probability ``row[l] / total`` given uniform ``u``."""
    target = u * total
    acc = 0.0
    last = -1
    for length in range(1, hi + 1):
        w = row[length]
        if w > 0.0:
            acc += w
            last = length
            if acc > target:
                return length
    return last  # rounding left u * total above the running sum: take the last arc


@njit(**JIT)
def walk_back(graph, walk, row, state, out, start):
    """One backward walk (Algorithm 2) over a :class:`.params.Graph` from its node ``n``.

    Lengths go to ``out[start:]``, last token first; returns ``(tokens, state)``.
    """
    span, logc, sel = graph.span, graph.logc, graph.sel
    j = graph.n
    k = 0
    while j > 0:
        hi = min(j, span)
        total = arc_weights(j, span, walk, logc, sel, row)
        u, state = next_double(state)
        length = pick(row, hi, total, u)
        out[start + k] = length
        k += 1
        j -= length
    return k, state


@njit(**JIT)
def workspace(longest, walk):
    """Arrays for :func:`count_paths` on words of up to ``longest`` characters.

    The arc table and selection are ``(longest + 1, max_len + 1)`` (dummies for the infinite
    vocabulary, whose arcs are implicit); ``reach`` and ``logc`` have one entry per node.
    """
    rows = longest + 1
    shape = (1, 1) if walk.infinite else (rows, walk.max_len + 1)
    return (np.empty(shape, dtype=np.int32), np.zeros(shape, dtype=np.bool_),
            np.zeros(rows, dtype=np.bool_), np.empty(rows))


@njit(**JIT)
def word_graph(cps, walk):
    """Workspace plus :func:`count_paths` for one word (mirrored first for l2r).

    Returns its :class:`.params.Graph`.
    """
    n = cps.shape[0]
    work = np.empty(n, dtype=np.int32)
    for k in range(n):
        work[k] = cps[n - 1 - k] if walk.mirror else cps[k]
    table, sel, reach, logc = workspace(n, walk)
    span = count_paths(work, walk, table, sel, reach, logc)
    return Graph(n, span, logc, sel, table)


@njit(**JIT)
def general_chunk(words, lo, hi, walk, seed, out):
    """One sample for each of words ``lo .. hi-1`` with the log-space kernel.

    Same records, layout and streams as :func:`workbench.grampa.fused.short_chunk`.
    """
    cps, offsets = words.cps, words.offsets
    out_len, out_id, ntok = out.lengths, out.ids, out.ntok
    longest = longest_word(offsets, lo, hi)
    table, sel, reach, logc = workspace(longest, walk)
    row = np.empty(longest + 1 if walk.infinite else walk.max_len + 1)
    work = np.empty(longest, dtype=np.int32)
    mirror = walk.mirror
    for w in range(lo, hi):
        start = offsets[w]
        n = offsets[w + 1] - start
        for k in range(n):
            work[k] = cps[start + n - 1 - k] if mirror else cps[start + k]
        span = count_paths(work[:n], walk, table, sel, reach, logc)
        if logc[n] == -np.inf:
            ntok[w] = -1
            continue
        state = stream_state(seed, w)
        k, state = walk_back(Graph(n, span, logc, sel, table), walk, row, state, out_len, start)
        # lengths come out last-token-first in construction order: in word order for
        # l2r (construction on the mirrored word), reversed for r2l.
        if not mirror:
            reverse_span(out_len, start, k)
        if not walk.infinite:
            j = n
            for t in range(k):  # ids follow the construction order, then get placed
                length = out_len[start + (t if mirror else k - 1 - t)]
                out_id[start + (t if mirror else k - 1 - t)] = table[j, length]
                j -= length
        ntok[w] = k


@njit(**JIT_PARALLEL)
def general_batch(words, walk, seed, out):
    """:func:`general_chunk` over all words, in parallel over chunks (same results)."""
    n_words = words.offsets.shape[0] - 1
    n_chunks = (n_words + CHUNK - 1) // CHUNK
    for c in prange(n_chunks):
        general_chunk(words, c * CHUNK, min(n_words, (c + 1) * CHUNK), walk, seed, out)


@njit(**JIT)
def probability_table(graph, walk, probs):
    """``probs[j, l]``: normalised probability of the arc of length ``l`` into node ``j``.

    ``graph`` is the word's :class:`.params.Graph`; ``probs`` is ``(n + 1, span + 1)``.
    """
    n, span, logc, sel = graph.n, graph.span, graph.logc, graph.sel
    row = np.zeros(span + 1)
    probs[:, :] = 0.0
    for j in range(1, n + 1):
        if logc[j] == -np.inf:
            continue
        total = arc_weights(j, span, walk, logc, sel, row)
        for length in range(1, min(j, span) + 1):
            probs[j, length] = row[length] / total
