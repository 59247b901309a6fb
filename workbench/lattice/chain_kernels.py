"""Numba kernels of a left-to-right chain on a word's segmentation graph (issue 28).

A *chain* is the record :class:`ChainTable`: ``probs[r, l]`` = P(the walk at construction node
``r`` steps to ``r - l``), walked from ``n`` down to ``0`` (construction coordinates, as
GRaMPa's :func:`workbench.grampa.logspace.probability_table`; ``mirror`` maps them to the
word's, :func:`.rules.to_word_arc`). A row may be empty: the mass that reaches it
fails there (MaxMatch-dropout's dead ends). Every segmentation is one path, so the chain's
path law *is* the segmentation law, and these O(n·L) passes (O(n²·L) for the token-count pmf)
give its summaries without enumerating: success mass, entropy, E[#tokens], the token-count
pmf, the number of positive paths, the mode, and the tables GRaMPa-free samplers need (ULM
over every segmentation, MaxMatch-dropout) built from an arc table
(:func:`workbench.lattice.arc_table`).

This module validates nothing and allocates only O(n·L) (the pmf: O(n²)); the checked
wrapper is :mod:`.chain`.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from .._core.config import JIT, JIT_INLINE


class ChainTable(NamedTuple):
    """One word's chain: ``probs`` ``(n + 1, span + 1)`` float64, construction coordinates."""

    probs: np.ndarray
    n: int
    span: int
    mirror: bool


@njit(**JIT)
def success_mass(chain):
    """``s[r]`` = P(the walk reaches node 0 from ``r``); ``s[0] = 1``."""
    probs, n, span = chain.probs, chain.n, chain.span
    s = np.zeros(n + 1)
    s[0] = 1.0
    for r in range(1, n + 1):
        acc = 0.0
        for length in range(1, min(r, span) + 1):
            p = probs[r, length]
            if p > 0.0:
                acc += p * s[r - length]
        s[r] = min(acc, 1.0)
    return s


@njit(**JIT)
def dead_end_mass(chain):
    """P(the walk from ``n`` reaches a node ``r > 0`` whose row is empty): its failure mass.

    Exactly 0 when no such node is reached (rows that hold any arc must sum to 1).
    """
    probs, n, span = chain.probs, chain.n, chain.span
    visit = np.zeros(n + 1)
    visit[n] = 1.0
    dead = 0.0
    for r in range(n, 0, -1):
        v = visit[r]
        if v == 0.0:
            continue
        empty = True
        for length in range(1, min(r, span) + 1):
            p = probs[r, length]
            if p > 0.0:
                empty = False
                visit[r - length] += v * p
        if empty:
            dead += v
    return min(dead, 1.0)


@njit(**JIT)
def summaries(chain, s, pmf):
    """Entropy (nats), E[#tokens], float count of positive paths, of the law given success.

    The walk conditioned on reaching 0 is the chain ``p s[r-l] / s[r]`` (Doob's transform);
    ``pmf[k]`` receives P(k tokens | success) when ``pmf`` has ``n + 1`` entries (skipped
    when it is empty). ``s`` is :func:`success_mass`; ``s[n] > 0`` is assumed.
    """
    probs, n, span = chain.probs, chain.n, chain.span
    visit = np.zeros(n + 1)
    visit[n] = 1.0
    entropy = 0.0
    tokens = 0.0
    count = np.zeros(n + 1)
    count[0] = 1.0
    for r in range(1, n + 1):
        for length in range(1, min(r, span) + 1):
            if probs[r, length] > 0.0 and s[r - length] > 0.0:
                count[r] += count[r - length]
    do_pmf = pmf.shape[0] == n + 1
    if do_pmf:
        f = np.zeros((n + 1, n + 1))
        f[n, 0] = 1.0
    for r in range(n, 0, -1):
        v = visit[r]
        if v == 0.0 or s[r] == 0.0:
            continue
        tokens += v
        for length in range(1, min(r, span) + 1):
            p = probs[r, length] * s[r - length]
            if p <= 0.0:
                continue
            p /= s[r]
            visit[r - length] += v * p
            entropy -= v * p * math.log(p)
            if do_pmf:
                for k in range(n - r + 1):
                    if f[r, k] != 0.0:
                        f[r - length, k + 1] += f[r, k] * p
    if do_pmf:
        for k in range(n + 1):
            pmf[k] = f[0, k]
    return max(entropy, 0.0), tokens, count[n]


@njit(**JIT_INLINE)
def best_lengths(logw, n, tol, out):
    """The path of largest total log-weight, as token lengths in word order, into ``out``.

    ``logw[i, l]`` is the log-weight of the arc ``i → i + l`` (word coordinates; -inf: no
    arc). Ties (totals within ``tol``, relative) go to fewer tokens, then to the shorter
    first token, the shorter second, ... (the law's order: token tuples compare so on one
    word). Returns the number of tokens, or -1 if no path reaches ``n``.
    """
    span = logw.shape[1] - 1
    best = np.full(n + 1, -np.inf)
    cnt = np.zeros(n + 1, dtype=np.int64)
    pick = np.zeros(n + 1, dtype=np.int64)
    best[n] = 0.0
    for i in range(n - 1, -1, -1):  # the best path from i to n
        for length in range(1, min(n - i, span) + 1):
            w = logw[i, length]
            if w == -np.inf or best[i + length] == -np.inf:
                continue
            lp = w + best[i + length]
            c = cnt[i + length] + 1
            gap = lp - best[i]
            scale = tol * max(1.0, abs(lp))
            if best[i] == -np.inf or gap > scale or (abs(gap) <= scale and c < cnt[i]):
                best[i], cnt[i], pick[i] = lp, c, length
    if best[0] == -np.inf:
        return -1
    k, i = 0, 0
    while i < n:
        out[k] = pick[i]
        i += pick[i]
        k += 1
    return k


@njit(**JIT)
def mode_lengths(chain, tol, out):
    """The chain's most probable successful path (:func:`best_lengths` of its log-probs)."""
    probs, n, span, mirror = chain.probs, chain.n, chain.span, chain.mirror
    logw = np.full((n + 1, span + 1), -np.inf)
    for i in range(n):
        for length in range(1, min(n - i, span) + 1):
            p = probs[n - i, length] if mirror else probs[i + length, length]
            if p > 0.0:
                logw[i, length] = math.log(p)
    return best_lengths(logw, n, tol, out)


@njit(**JIT)
def viterbi_lengths(arcs, scores, n, tol, out):
    """The segmentation of largest total score over ``arcs[j, l]`` (token id or -1; word
    coordinates), as :func:`best_lengths` (ULM's Viterbi)."""
    span = arcs.shape[1] - 1
    logw = np.full((n + 1, span + 1), -np.inf)
    for j in range(1, n + 1):
        for length in range(1, min(j, span) + 1):
            tid = arcs[j, length]
            if tid >= 0:
                logw[j - length, length] = scores[tid]
    return best_lengths(logw, n, tol, out)


@njit(**JIT)
def log_count(arcs, n, max_len):
    """Natural log of the number of segmentations over ``arcs[j, l]`` (token id or -1)."""
    lc = np.full(n + 1, -np.inf)
    lc[0] = 0.0
    for j in range(1, n + 1):
        top = -np.inf
        for length in range(1, min(j, max_len) + 1):
            if arcs[j, length] >= 0 and lc[j - length] > top:
                top = lc[j - length]
        if top == -np.inf:
            continue
        acc = 0.0
        for length in range(1, min(j, max_len) + 1):
            if arcs[j, length] >= 0:
                acc += math.exp(lc[j - length] - top)
        lc[j] = top + math.log(acc)
    return lc[n]


@njit(**JIT)
def weighted_table(arcs, weights, alpha, n, max_len, probs):  # noqa: C901  (numba kernel)
    """ULM over every segmentation: P(x) ∝ exp(α · Σ weights[id]) as a backward chain.

    The forward log-sum of ``word[:j]`` is ``α · v[j] + g[j]``: ``v[j]`` the best prefix
    weight (the worst if ``α < 0``), ``g[j] = log Σ exp(α · (weight − v[j]))``. Every exponent
    is ``α`` times a difference of the sign of ``−α``, so no finite ``α`` overflows, and an
    ``α`` past the floats gives the law's limit (the best segmentations share the mass).
    ``probs[j, l] = exp(g[j-l] − g[j] + α · (v[j-l] + w − v[j]))`` (word coordinates =
    construction coordinates, not mirrored). Returns ``g[n]`` (-inf: no segmentation).
    """
    v = np.zeros(n + 1)
    g = np.zeros(n + 1)
    reach = np.zeros(n + 1, dtype=np.bool_)
    reach[0] = True
    for j in range(1, n + 1):
        for length in range(1, min(j, max_len) + 1):
            tid = arcs[j, length]
            if tid >= 0 and reach[j - length]:
                x = v[j - length] + weights[tid]
                if not reach[j] or (x > v[j] if alpha >= 0 else x < v[j]):
                    v[j] = x
                reach[j] = True
        if not reach[j]:
            continue
        top = -np.inf  # log-sum-exp from the largest term: g grows to log(count), no overflow
        for length in range(1, min(j, max_len) + 1):
            tid = arcs[j, length]
            if tid >= 0 and reach[j - length]:
                d = v[j - length] + weights[tid] - v[j]
                top = max(top, g[j - length] + (0.0 if alpha == 0.0 or d == 0.0 else alpha * d))
        acc = 0.0
        for length in range(1, min(j, max_len) + 1):
            tid = arcs[j, length]
            if tid >= 0 and reach[j - length]:
                d = v[j - length] + weights[tid] - v[j]
                acc += math.exp(g[j - length] + (0.0 if alpha == 0.0 or d == 0.0 else alpha * d)
                                - top)
        g[j] = top + math.log(acc)
    for j in range(n + 1):
        for length in range(max_len + 1):
            probs[j, length] = 0.0
    for j in range(1, n + 1):
        if not reach[j]:
            continue
        for length in range(1, min(j, max_len) + 1):
            tid = arcs[j, length]
            if tid >= 0 and reach[j - length]:
                d = v[j - length] + weights[tid] - v[j]
                probs[j, length] = math.exp(g[j - length] - g[j]
                                            + (0.0 if alpha == 0.0 or d == 0.0 else alpha * d))
    return g[n] if reach[n] else -np.inf


@njit(**JIT)
def maxmatch_table(arcs, n, max_len, q, probs):
    """MaxMatch-dropout as a forward chain (mirrored construction coordinates, r = n − i).

    At word position ``i`` the candidates are the tokens ``word[i:i+l]``, longest first; the
    ``k``-th (0-based) of ``K`` is taken with ``(1 − q) q^k``, the last with ``q^(K−1)``. A
    position without candidates keeps an empty row (its mass fails).
    """
    for r in range(n + 1):
        for length in range(max_len + 1):
            probs[r, length] = 0.0
    for i in range(n):
        top = min(n - i, max_len)
        n_cand = 0
        for length in range(top, 0, -1):
            if arcs[i + length, length] >= 0:
                n_cand += 1
        k = 0
        for length in range(top, 0, -1):
            if arcs[i + length, length] < 0:
                continue
            share = q ** k if k == n_cand - 1 else (1.0 - q) * q ** k
            probs[n - i, length] = share
            k += 1


@njit(**JIT)
def longest_match_lengths(arcs, n, out):
    """Greedy longest match over ``arcs[j, l]`` (word coordinates) as token lengths into
    ``out``; returns their number, or -1 where no token starts (MaxMatch is stuck)."""
    span = arcs.shape[1] - 1
    k, i = 0, 0
    while i < n:
        take = 0
        for length in range(min(span, n - i), 0, -1):
            if arcs[i + length, length] >= 0:
                take = length
                break
        if take == 0:
            return -1
        out[k] = take
        i += take
        k += 1
    return k
