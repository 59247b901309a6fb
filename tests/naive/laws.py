"""Brute-force laws of the samplers, for words of up to ~8 characters.

Each reference walks every coin sequence (or every boundary mask) of the sampler's own
procedure, written again from its description, and adds up exact ``Fraction`` masses:

* :func:`maxmatch_coins` — Hiraoka's MaxMatch-dropout as :mod:`workbench.samplers.maxmatch`
  runs it: candidates longest first, one coin per multi-character candidate, the shortest
  taken when all are skipped, a failure when no token starts;
* :func:`bpe_dropout_coins` — BPE-dropout as the package's kernel draws it (Provilkov's
  reference semantics): a left-to-right scan of the pairs, a coin for each pair that would
  beat the best surviving one so far, one merge per step, stop when none survives;
* :func:`boundary_law` — every one of the ``2^(n-1)`` boundary masks of a word, weighted,
  kept when every token is in the vocabulary (the rejection samplers, ULM over all
  segmentations, GRaMPa at τ = 1);
* :func:`kbest_law` — ULM's k best by score (ties: fewer tokens, then length order), softmax;
* :func:`greedy_longest` — greedy left-to-right longest match (``None`` where it is stuck);
* :func:`multiplexed_coins` — Algorithm 3 (GRaMPa §4.6): its one coin, then the stochastic
  sampler's brute-force law or the deterministic segmentation.

Nothing here imports the package. A law is ``(dict segmentation -> probability, failure)``.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction


def maxmatch_coins(word, tokens, q):
    """MaxMatch-dropout's law by branching on every coin: ``(law, failure_mass)``."""
    law, fail = {}, [Fraction(0)]
    longest = max(map(len, tokens))

    def run(i, toks, mass):
        if i == len(word):
            law[toks] = law.get(toks, 0) + mass
            return
        cands = [j for j in range(min(len(word), i + longest), i, -1) if word[i:j] in tokens]
        if not cands:
            fail[0] += mass
            return

        def scan(k, mass):  # candidate k reached: it is taken, or skipped by a coin
            if k == len(cands):  # every candidate skipped: the shortest
                run(cands[-1], toks + (word[i:cands[-1]],), mass)
                return
            j = cands[k]
            if j - i > 1 and q > 0:
                scan(k + 1, mass * q)
                if q < 1:
                    run(j, toks + (word[i:j],), mass * (1 - q))
            else:
                run(j, toks + (word[i:j],), mass)

        scan(0, mass)

    run(0, (), Fraction(1))
    return {s: p for s, p in law.items() if p}, fail[0]


def bpe_dropout_coins(word, merges, p):
    """BPE-dropout's law by branching on every coin of the kernel's scan.

    ``merges`` is a list of ``(left, right)`` strings in rank order; symbols are strings
    (the characters of ``word`` at the start). Returns ``(law, 0)``.
    """
    rank = {pair: r for r, pair in enumerate(merges)}
    law = {}

    def step(sym, mass):
        # scan pairs left to right; state (i, best, best_at) branches on each coin
        def scan(i, best, at, mass):
            if i == len(sym) - 1 or len(sym) < 2:
                if best is None:
                    key = tuple(sym)
                    law[key] = law.get(key, 0) + mass
                else:
                    step(sym[:at] + [sym[at] + sym[at + 1]] + sym[at + 2:], mass)
                return
            r = rank.get((sym[i], sym[i + 1]))
            if r is None or (best is not None and r >= best):
                scan(i + 1, best, at, mass)
                return
            if p > 0:
                scan(i + 1, best, at, mass * p)  # dropped
            if p < 1:
                scan(i + 1, r, i, mass * (1 - p))  # survives: the new best

        scan(0, None, -1, mass)

    step(list(word), Fraction(1))
    return {s: m for s, m in law.items() if m}, Fraction(0)


def boundary_law(word, tokens, weight):
    """``P(x) ∝ weight(x)`` over the segmentations of ``word`` into ``tokens``, by masks."""
    n = len(word)
    weights = {}
    for mask in itertools.product((0, 1), repeat=max(n - 1, 0)):
        cuts = [0] + [k + 1 for k in range(n - 1) if mask[k]] + [n]
        seg = tuple(word[a:b] for a, b in zip(cuts, cuts[1:])) if n else ()
        if all(t in tokens for t in seg):
            weights[seg] = weight(seg)
    total = sum(weights.values())
    return {s: w / total for s, w in weights.items() if w}, 0


def kbest_law(word, scores, k, alpha):
    """ULM k-best: the k best segmentations by score, softmax(α · score) over them."""
    segs = boundary_law(word, set(scores), lambda s: 1)[0]
    ranked = sorted(segs, key=lambda s: (-sum(scores[t] for t in s), len(s),
                                         tuple(len(t) for t in s)))[:k]
    logits = [alpha * sum(scores[t] for t in s) for s in ranked]
    top = max(logits)
    w = [math.exp(x - top) for x in logits]
    return {s: x / sum(w) for s, x in zip(ranked, w)}, 0


def greedy_longest(word, tokens):
    """Greedy left-to-right longest match; ``None`` when no token starts where it stands."""
    out, i = [], 0
    while i < len(word):
        ends = [j for j in range(len(word), i, -1) if word[i:j] in tokens]
        if not ends:
            return None
        out.append(word[i:ends[0]])
        i = ends[0]
    return tuple(out)


def multiplexed_coins(word, p, stochastic, deterministic):
    """Algorithm 3's law by branching on its coin: ``(law, failure_mass)``.

    Heads (mass ``p``): every outcome of ``stochastic(word)``, a brute-force ``(law,
    failure)`` of the stochastic sampler. Tails (mass ``1 − p``): ``deterministic(word)``, a
    tuple of tokens, or ``None`` when the deterministic tokeniser fails (a failure).
    """
    law, fail = {}, 0
    heads, heads_fail = stochastic(word)
    for seg, mass in heads.items():
        law[seg] = law.get(seg, 0) + p * mass
    fail += p * heads_fail
    tails = deterministic(word)
    if tails is None:
        fail += 1 - p
    else:
        law[tails] = law.get(tails, 0) + (1 - p)
    return {s: m for s, m in law.items() if m}, fail
