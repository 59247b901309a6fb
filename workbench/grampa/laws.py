"""Exact laws of a GRaMPa sampler on one word, from its arc probability table.

The table ``probs[j, l]`` (construction coordinates, :func:`.logspace.probability_table`) is
the Markov chain Algorithm 2 walks. From it: the probability of one segmentation, the law of
the number of tokens (forward DP over the backward walk), the expected number of tokens of
each length, and every arc's transition probability in the word's coordinates.

This module samples nothing, validates nothing and builds no sampler: it takes a table
someone already built. :class:`workbench.Grampa` exposes these as methods
(``probability``, ``distribution``, ``arc_probabilities``, ``token_count_pmf``,
``token_length_pmf``); the function :func:`workbench.grampa.arc_probabilities`, which builds
a ``Grampa`` for one call, lives beside it in :mod:`.sampler`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from .._core.config import JIT
from ..lattice.kernels import to_word_arc


def path_probability(probs: np.ndarray, span: int, lengths: Sequence[int],
                     mirror: bool) -> float:
    """Probability of the segmentation with token ``lengths`` (in word order).

    The backward walk starts at the construction's end: the word's start for l2r
    (``mirror``), its end for r2l, so it meets the tokens in word order or reversed.

    >>> probs = np.array([[0, 0, 0], [0, 1.0, 0], [0, 0.5, 0.5]])
    >>> path_probability(probs, 2, [1, 1], False)
    0.5
    """
    j, p = probs.shape[0] - 1, 1.0
    for length in (lengths if mirror else lengths[::-1]):
        if length > span or length > j:
            return 0.0
        p *= float(probs[j, length])
        j -= length
    return p


def word_arc_probabilities(probs: np.ndarray, span: int, mirror: bool
                           ) -> dict[tuple[int, int], float]:
    """Every arc with a non-zero probability, keyed by ``(i, j)`` in the word's coordinates."""
    n = probs.shape[0] - 1
    out = {}
    for j in range(1, n + 1):
        for length in range(1, min(j, span) + 1):
            p = float(probs[j, length])
            if p > 0.0:
                out[to_word_arc(n, j, length, mirror)] = p
    return dict(sorted(out.items()))


@njit(**JIT)
def token_count_law(n, span, probs):
    """P(m = k) by forward DP over the backward walk: ``f[j, k]`` = P(at node j after k)."""
    f = np.zeros((n + 1, n + 1))
    f[n, 0] = 1.0
    for j in range(n, 0, -1):
        for k in range(n - j + 1):
            mass = f[j, k]
            if mass == 0.0:
                continue
            for length in range(1, min(j, span) + 1):
                p = probs[j, length]
                if p > 0.0:
                    f[j - length, k + 1] += mass * p
    return f[0].copy()


@njit(**JIT)
def length_expectations(n, span, probs):
    """E[number of tokens of each length] via node-visit probabilities."""
    visit = np.zeros(n + 1)
    visit[n] = 1.0
    expected = np.zeros(n + 1)
    for j in range(n, 0, -1):
        v = visit[j]
        if v == 0.0:
            continue
        for length in range(1, min(j, span) + 1):
            p = probs[j, length]
            if p > 0.0:
                visit[j - length] += v * p
                expected[length] += v * p
    return expected
