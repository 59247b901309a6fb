"""Numba kernels of the rejection samplers: a word's pruned lattice, Markov walks, bit masks.

One record, :class:`Scheme`, tells every kernel which sampler it runs:

* ``kind = MARKOV_SAFE`` / ``MARKOV_TIGHT`` — Cognetta et al. (2024): walk from node 0
  choosing an out-arc uniformly, accept with ``ε / P_Markov``; ε is footnote 4's
  ``Π_i 1/δ_o(i)`` over the live nodes (safe) or ``min`` over paths of ``P_Markov``
  (tight, a max-product DP);
* ``kind = UNIGRAM`` — Appendix B: walk with arc weights ``P(t)`` renormalised per node by
  ``Z_i``, accept with ``Π Z_i / c2``, ``c2 = max`` over paths of ``Π Z_i`` (Viterbi);
* ``kind = BITS`` — §3.2: a boundary after each of the ``n-1`` inner characters with
  probability ``p``; retry until every token is in the vocabulary;
* ``kind = BIT_MASK`` — §3.2 at ``p = ½`` drawn as the paper states it: one uniform
  ``(n-1)``-bit mask per trial (one 53-bit uniform, so ``n <= 53``), read most significant
  bit first (C.1's bit key), retried like ``BITS``. Same law as ``BITS`` at ``p = ½``, other
  draws (this is :func:`workbench.samplers.rejection.bit_rejection_samples`' stream).

The infinite vocabulary is every non-empty substring; with ``max_len > 0`` it is every string
of at most ``max_len`` characters (the vocabulary of §3.2's bit-rejection example).

The lattice is *pruned*: an arc ``i → j`` is kept only if node ``i`` is reachable from 0 and
node ``j`` reaches ``n``, so a walk never gets stuck. Everything is in log space. Before the
first trial a kernel computes the exact expected number of trials per sample (``c2 / W``,
``W`` the total path weight; ``1 / Σ_valid p^(m-1) (1-p)^(n-m)`` for bits) and refuses the
word if it exceeds ``max_trials``; a sample that uses ``max_trials`` trials stops the word.

This module validates nothing (:mod:`.rejection` does) and holds no Python objects.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit, prange

from .._core.config import JIT, JIT_INLINE, JIT_PARALLEL
from .._core.rng import next_double, stream_state
from ..lattice.kernels import fill_arc_table

MARKOV_SAFE, MARKOV_TIGHT, UNIGRAM, BITS, BIT_MASK = 0, 1, 2, 3, 4
#: Status codes a kernel returns per word.
OK, UNSEGMENTABLE, TOO_EXPENSIVE, GUARD_HIT = 0, 1, 2, 3


class Scheme(NamedTuple):
    """Constants of one rejection sampler, as the kernels see them.

    Attributes
    ----------
    da, codes, max_len
        The vocabulary's forward trie (dummies for the infinite vocabulary, whose tokens are
        capped at ``max_len`` characters if ``max_len > 0``).
    infinite : bool
        Every non-empty substring (of at most ``max_len`` characters if ``max_len > 0``) is a
        token (no ids).
    kind : int
        ``MARKOV_SAFE``, ``MARKOV_TIGHT``, ``UNIGRAM``, ``BITS`` or ``BIT_MASK``.
    logw : numpy.ndarray
        Log weight per token id (``UNIGRAM``; empty otherwise).
    p : float
        Boundary proclivity (``BITS``).
    max_trials : int
        Trials allowed per sample (and the largest expected number accepted).
    """

    da: np.ndarray
    codes: np.ndarray
    max_len: int
    infinite: bool
    kind: int
    logw: np.ndarray
    p: float
    max_trials: int


class Samples(NamedTuple):
    """Where a kernel writes its samples (flat, so a parallel kernel may carry it).

    Attributes
    ----------
    lengths, ids : numpy.ndarray of int32
        Token lengths and ids; sample ``s`` of an ``n``-character word at ``s * n``.
    ntok : numpy.ndarray of int64
        Tokens per sample (``-1`` from a sample that hit the guard on).
    trials : numpy.ndarray of int64
        Trials per sample.
    """

    lengths: np.ndarray
    ids: np.ndarray
    ntok: np.ndarray
    trials: np.ndarray


class Lattice(NamedTuple):
    """A word's pruned lattice, as :func:`prune` leaves it (``n`` characters, arcs ``<= span``)."""

    n: int
    span: int
    table: np.ndarray
    alive: np.ndarray
    logz: np.ndarray


@njit(**JIT)
def logaddexp(a, b):
    """``log(exp(a) + exp(b))`` without overflow (``-inf`` is the zero)."""
    if a == -np.inf:
        return b
    if b == -np.inf:
        return a
    if a > b:
        return a + math.log1p(math.exp(b - a))
    return b + math.log1p(math.exp(a - b))


@njit(**JIT)
def arc_table(cps, scheme):
    """``table[j, l]`` = token id of ``cps[j-l:j]`` (0 for the infinite vocabulary) or -1."""
    n = cps.shape[0]
    if scheme.infinite:
        cap = scheme.max_len if scheme.max_len > 0 else n
        table = np.full((n + 1, n + 1), -1, dtype=np.int32)
        for j in range(n + 1):
            for length in range(1, min(j, cap) + 1):
                table[j, length] = 0
        return table
    table = np.empty((n + 1, scheme.max_len + 1), dtype=np.int32)
    fill_arc_table(cps, scheme.da, scheme.codes, scheme.max_len, table)
    return table


@njit(**JIT)
def arc_logweight(scheme, tid):
    """Log weight of an arc whose token id is ``tid``."""
    if scheme.kind == UNIGRAM:
        return scheme.logw[tid]
    return 0.0


@njit(**JIT)
def prune(table, n, scheme, alive):  # noqa: C901  (numba kernel)
    """Mark live arcs: ``alive[j, l]`` iff ``j-l`` is reachable from 0 and ``j`` reaches n.

    Returns ``(logz, log_total)``: per node the log of the total weight of its live out-arcs
    (``-inf`` for dead nodes), and the log of the total weight of all paths (``-inf`` if
    the word has no segmentation).
    """
    span = table.shape[1] - 1
    reach = np.zeros(n + 1, dtype=np.bool_)
    co = np.zeros(n + 1, dtype=np.bool_)
    reach[0] = True
    for j in range(1, n + 1):
        for length in range(1, min(span, j) + 1):
            if table[j, length] >= 0 and reach[j - length]:
                if scheme.kind != UNIGRAM or arc_logweight(scheme, table[j, length]) > -np.inf:
                    reach[j] = True
                    break
    co[n] = True
    for i in range(n - 1, -1, -1):
        for length in range(1, min(span, n - i) + 1):
            j = i + length
            if table[j, length] >= 0 and co[j]:
                if scheme.kind != UNIGRAM or arc_logweight(scheme, table[j, length]) > -np.inf:
                    co[i] = True
                    break
    logz = np.full(n + 1, -np.inf)
    fwd = np.full(n + 1, -np.inf)
    fwd[0] = 0.0
    for j in range(n + 1):
        for length in range(span + 1):
            alive[j, length] = False
    for j in range(1, n + 1):
        if not co[j]:
            continue
        for length in range(1, min(span, j) + 1):
            i = j - length
            tid = table[j, length]
            if tid < 0 or not reach[i]:
                continue
            w = arc_logweight(scheme, tid)
            if w == -np.inf:
                continue
            alive[j, length] = True
            logz[i] = logaddexp(logz[i], w)
            fwd[j] = logaddexp(fwd[j], fwd[i] + w)
    return logz, fwd[n]


@njit(**JIT)
def log_c2(n, span, alive, logz, safe):
    """``log c2``: the largest ``Σ log Z_i`` over paths (Viterbi), or over all live nodes."""
    if safe:
        total = 0.0
        for i in range(n):
            if logz[i] > -np.inf:
                total += logz[i]
        return total
    best = np.full(n + 1, -np.inf)
    best[n] = 0.0
    for i in range(n - 1, -1, -1):
        if logz[i] == -np.inf:
            continue
        top = -np.inf
        for length in range(1, min(span, n - i) + 1):
            if alive[i + length, length] and best[i + length] > top:
                top = best[i + length]
        best[i] = logz[i] + top
    return best[0]


@njit(**JIT)
def bit_log_acceptance(table, n, p):
    """``log Σ`` over valid segmentations of ``p^(m-1) (1-p)^(n-m)``: a trial's success odds."""
    span = table.shape[1] - 1
    lp = math.log(p) if p > 0.0 else -np.inf
    lq = math.log1p(-p) if p < 1.0 else -np.inf
    f = np.full(n + 1, -np.inf)
    f[0] = 0.0
    for j in range(1, n + 1):
        for length in range(1, min(span, j) + 1):
            i = j - length
            if table[j, length] < 0 or f[i] == -np.inf:
                continue
            w = f[i]
            if i > 0:
                w += lp
            if length > 1:
                w += (length - 1) * lq
            f[j] = logaddexp(f[j], w)
    return f[n]


@njit(**JIT)
def _walk(lat, scheme, state, out, start):
    """One Markov walk from node 0; writes tokens at ``start``; returns (count, Σ log Z, state)."""
    n, span, table, alive, logz = lat.n, lat.span, lat.table, lat.alive, lat.logz
    out_len, out_id = out.lengths, out.ids
    i = 0
    k = start
    acc = 0.0
    while i < n:
        u, state = next_double(state)
        acc += logz[i]
        hi = min(span, n - i)
        chosen = 0
        if scheme.kind == UNIGRAM:
            target = u * math.exp(logz[i])
            cum = 0.0
            for length in range(1, hi + 1):
                if alive[i + length, length]:
                    chosen = length
                    cum += math.exp(scheme.logw[table[i + length, length]])
                    if cum > target:
                        break
        else:
            degree = int(round(math.exp(logz[i])))
            pick = min(int(u * degree), degree - 1)
            for length in range(1, hi + 1):
                if alive[i + length, length]:
                    chosen = length
                    if pick == 0:
                        break
                    pick -= 1
        out_len[k] = chosen
        out_id[k] = table[i + chosen, chosen]
        k += 1
        i += chosen
    return k - start, acc, state


@njit(**JIT_INLINE)
def _emit_cut(table, pos, last, out_len, out_id, k):
    """Write the token ``last:pos`` (a cut of a bit-mask trial) at ``k``; return ``k + 1``,
    or -1 if it is longer than the table's span or not in the vocabulary."""
    length = pos - last
    if length > table.shape[1] - 1 or table[pos, length] < 0:
        return -1
    out_len[k] = length
    out_id[k] = table[pos, length]
    return k + 1


@njit(**JIT)
def _bits(n, table, p, state, out_len, out_id, start):
    """One bit-mask trial; returns (token count or -1 if a token is not in V, state)."""
    last = 0
    k = start
    for pos in range(1, n + 1):
        cut = pos == n
        if not cut:
            u, state = next_double(state)
            cut = u < p
        if cut:
            k = _emit_cut(table, pos, last, out_len, out_id, k)
            if k < 0:
                return -1, state
            last = pos
    return k - start, state


@njit(**JIT)
def _bit_mask(n, table, state, out_len, out_id, start):
    """One ``BIT_MASK`` trial: one uniform ``(n-1)``-bit mask; as :func:`_bits` otherwise."""
    u, state = next_double(state)
    mask = np.int64(u * float(np.int64(1) << (n - 1)))  # uniform on 0 .. 2^(n-1) - 1
    last = 0
    k = start
    for pos in range(1, n + 1):
        if pos == n or (mask >> (n - 1 - pos)) & 1:
            k = _emit_cut(table, pos, last, out_len, out_id, k)
            if k < 0:
                return -1, state
            last = pos
    return k - start, state


@njit(**JIT)
def sample_word(cps, scheme, seed, stream0, count, out, info):  # noqa: C901  (numba kernel)
    """``count`` samples of one word (sample ``s`` on stream ``stream0 + s``) into ``out``.

    ``out.lengths`` / ``out.ids`` hold ``count * n`` slots (sample ``s`` at ``s * n``);
    ``info[0]`` receives the expected number of trials per sample. Returns a status code
    (``OK``, ``UNSEGMENTABLE``, ``TOO_EXPENSIVE`` or ``GUARD_HIT``; then ``out.ntok[s] = -1``
    from the sample that hit the guard on).
    """
    out_len, out_id, ntok, trials = out.lengths, out.ids, out.ntok, out.trials
    n = cps.shape[0]
    for s in range(count):
        ntok[s] = -1
        trials[s] = 0
    if n == 0:
        for s in range(count):
            ntok[s] = 0
        info[0] = 1.0
        return OK
    table = arc_table(cps, scheme)
    span = table.shape[1] - 1
    alive = np.empty((n + 1, span + 1), dtype=np.bool_)
    if scheme.kind == BITS or scheme.kind == BIT_MASK:
        logacc = bit_log_acceptance(table, n, scheme.p)
        if logacc == -np.inf:
            info[0] = np.inf
            logz, total = prune(table, n, scheme, alive)
            return UNSEGMENTABLE if total == -np.inf else TOO_EXPENSIVE
        info[0] = math.exp(-logacc)
    else:
        logz, total = prune(table, n, scheme, alive)
        if total == -np.inf:
            info[0] = np.inf
            return UNSEGMENTABLE
        c2 = log_c2(n, span, alive, logz, scheme.kind == MARKOV_SAFE)
        info[0] = math.exp(c2 - total)
        lat = Lattice(n, span, table, alive, logz)
    if info[0] > scheme.max_trials:
        return TOO_EXPENSIVE
    for s in range(count):
        state = stream_state(seed, stream0 + s)
        start = s * n
        tries = 0
        while True:
            if tries >= scheme.max_trials:
                trials[s] = tries
                return GUARD_HIT
            tries += 1
            if scheme.kind == BITS:
                m, state = _bits(n, table, scheme.p, state, out_len, out_id, start)
                if m > 0:
                    break
            elif scheme.kind == BIT_MASK:
                m, state = _bit_mask(n, table, state, out_len, out_id, start)
                if m > 0:
                    break
            else:
                m, acc, state = _walk(lat, scheme, state, out, start)
                u, state = next_double(state)
                if u == 0.0 or math.log(u) < acc - c2:
                    break
        ntok[s] = m
        trials[s] = tries
    return OK


@njit(**JIT_PARALLEL)
def sample_batch(cps, offsets, scheme, seed, out, expected, status):
    """One sample per word (word ``w`` on stream ``w``), parallel over words.

    Word ``w``'s tokens go to ``out.lengths[offsets[w]:]``, its token count and trials to
    ``out.ntok[w]`` / ``out.trials[w]``; ``status[w]`` as :func:`sample_word`.
    """
    n_words = offsets.shape[0] - 1
    out_len, out_id, ntok, trials = out.lengths, out.ids, out.ntok, out.trials
    for w in prange(n_words):
        lo, hi = offsets[w], offsets[w + 1]
        info = np.zeros(1)
        status[w] = sample_word(cps[lo:hi], scheme, seed, w, 1,
                                Samples(out_len[lo:hi], out_id[lo:hi], ntok[w:w + 1],
                                        trials[w:w + 1]), info)
        expected[w] = info[0]
