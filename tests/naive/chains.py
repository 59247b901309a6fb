"""Plain-Python chain laws (issue 28): a walk on a word's nodes, its law by recursion.

A chain is ``step(node) -> [(next node, probability), ...]`` from ``start`` to ``end``
(forward ``0 → n`` or backward ``n → 0``); a node without steps is a dead end (the walk
fails there). :func:`chain_law` computes, by memoised recursion over the nodes (the
definitions, not the kernels' forward visit pass), the failure mass, the entropy, E[#tokens],
the token-count pmf, the number of positive paths and the largest path probability — exact
Fractions when the steps are (the entropy is a float). The steps of the three samplers are
written again from their descriptions: :func:`maxmatch_steps`, :func:`weighted_steps` (ULM
over every segmentation with weights ``w(token)``) and GRaMPa's from its arc table.

Nothing here imports the package.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache


def chain_law(start, end, step):
    """``dict`` of the law's summaries given success (see the module docstring)."""

    @cache
    def succ(x):
        return 1 if x == end else sum(p * succ(y) for y, p in step(x))

    @cache
    def moves(x):  # conditioned on success
        return [(y, _div(p * succ(y), succ(x))) for y, p in step(x) if p * succ(y) > 0]

    @cache
    def entropy(x):
        return sum(float(q) * (-math.log(q) + entropy(y)) for y, q in moves(x))

    @cache
    def tokens(x):
        return sum((q * (1 + tokens(y)) for y, q in moves(x)), 0 * succ(start))

    @cache
    def pmf(x):
        if x == end:
            return {0: 1}
        out = {}
        for y, q in moves(x):
            for k, r in pmf(y).items():
                out[k + 1] = out.get(k + 1, 0) + q * r
        return out

    @cache
    def count(x):
        return 1 if x == end else sum(count(y) for y, p in step(x) if p > 0 and succ(y) > 0)

    @cache
    def best(x):
        if x == end:
            return 1
        return max((p * best(y) for y, p in step(x) if p > 0 and succ(y) > 0), default=0)

    s = succ(start)
    out = {"failure": 1 - s, "support": count(start), "max_p": best(start)}
    if s > 0:
        out.update(entropy=entropy(start), tokens=tokens(start),
                   pmf={k: v for k, v in sorted(pmf(start).items()) if v})
    return out


def _div(a, b):
    """``a / b``, a Fraction when both are ints (a step of probability 1 is the int 1)."""
    return Fraction(a, b) if isinstance(a, int) and isinstance(b, int) else a / b


def path_probability(tokens, start, step):
    """Product of the steps the segmentation ``tokens`` takes (0 if it leaves the chain)."""
    forward = start == 0
    cuts = [0]
    for t in tokens:
        cuts.append(cuts[-1] + len(t))
    nodes = cuts if forward else cuts[::-1]
    p = 1
    for x, y in zip(nodes, nodes[1:]):
        p *= dict(step(x)).get(y, 0)
    return p


def maxmatch_steps(word, tokens, q):
    """MaxMatch-dropout forward from 0: the k-th longest match (0-based) w.p. (1 − q) q^k,
    the shortest with what is left; no match: a dead end."""

    def step(i):
        ends = [j for j in range(len(word), i, -1) if word[i:j] in tokens]
        out, left = [], 1
        for k, j in enumerate(ends):
            share = left if k == len(ends) - 1 else left * (1 - q)
            out.append((j, share))
            left -= share
        return out

    return 0, len(word), step


def weighted_steps(word, tokens, weight):
    """P(x) ∝ Π weight(token), backward from n: P(previous node i | at j) = Z(i) w / Z(j),
    ``Z(j)`` the total weight of the segmentations of ``word[:j]``."""

    @cache
    def z(j):
        if j == 0:
            return 1
        return sum(z(i) * weight(word[i:j]) for i in range(j) if word[i:j] in tokens)

    def step(j):
        return [(i, z(i) * weight(word[i:j]) / z(j)) for i in range(j)
                if word[i:j] in tokens and z(i) * weight(word[i:j]) > 0]

    return len(word), 0, step


def arc_steps(n, arcs, direction):
    """GRaMPa's walk from its arc probabilities ``{(i, j): p}`` (word coordinates)."""
    forward = direction == "l2r"

    def step(x):
        if forward:
            return [(j, p) for (i, j), p in arcs.items() if i == x]
        return [(i, p) for (i, j), p in arcs.items() if j == x]

    return (0, n, step) if forward else (n, 0, step)

