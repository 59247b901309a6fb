"""Plain references for the baseline samplers (rejection samplers, MaxMatch, statistics).

Written from the GRaMPa paper's text (§2 Eq. 1 and footnote 4, §3.2, Appendices A.1 and B)
and Hiraoka (2022), not from :mod:`workbench`: nothing here imports the package. Exact
``Fraction`` arithmetic where weights are rational; floats (``math.exp``) for unigram weights.

``vocab`` is a Python set of str tokens or the string ``"infinite"``; ``weights`` maps tokens
to positive weights (unigram probabilities).
"""

from __future__ import annotations

import math
from fractions import Fraction

INFINITE = "infinite"


def _is_token(t, vocab):
    return bool(t) and (vocab == INFINITE or t in vocab)


def segmentations(word, vocab):
    """Every segmentation of ``word`` into tokens of ``vocab`` (tuples, any order)."""
    if word == "":
        return [()]
    out = []
    for j in range(1, len(word) + 1):
        head = word[:j]
        if _is_token(head, vocab):
            out += [(head,) + rest for rest in segmentations(word[j:], vocab)]
    return out


def live_out_arcs(word, vocab):
    """``out[i]`` = ends ``j`` of the arcs ``i → j`` that lie on some complete path."""
    n = len(word)
    reach = [False] * (n + 1)
    reach[0] = True
    for j in range(1, n + 1):
        reach[j] = any(reach[i] and _is_token(word[i:j], vocab) for i in range(j))
    co = [False] * (n + 1)
    co[n] = True
    for i in range(n - 1, -1, -1):
        co[i] = any(co[j] and _is_token(word[i:j], vocab) for j in range(i + 1, n + 1))
    return [[j for j in range(i + 1, n + 1) if reach[i] and co[j] and _is_token(word[i:j], vocab)]
            for i in range(n + 1)]


def starts(tokens):
    """Start positions of the tokens of a segmentation."""
    pos, out = 0, []
    for t in tokens:
        out.append(pos)
        pos += len(t)
    return out


def markov_probability(tokens, word, vocab, weights=None):
    """P_Markov of a path: Π 1/δ_o(i) (Eq. 1), or Π P(t)/Z_i on a weighted graph (Eq. 51)."""
    out = live_out_arcs(word, vocab)
    p = Fraction(1) if weights is None else 1.0
    for i, t in zip(starts(tokens), tokens):
        if weights is None:
            p *= Fraction(1, len(out[i]))
        else:
            z = sum(weights[word[i:j]] for j in out[i])
            p *= weights[t] / z
    return p


def epsilon(word, vocab, kind):
    """ε: footnote 4's Π over live nodes of 1/δ_o(i) ("safe") or min over paths ("tight")."""
    out = live_out_arcs(word, vocab)
    if kind == "safe":
        e = Fraction(1)
        for i in range(len(word)):
            if out[i]:
                e *= Fraction(1, len(out[i]))
        return e
    return min(markov_probability(s, word, vocab) for s in segmentations(word, vocab))


def c2(word, vocab, weights):
    """Appendix B's c2 = max over paths of Π Z_i (by enumeration)."""
    out = live_out_arcs(word, vocab)
    best = 0.0
    for s in segmentations(word, vocab):
        prod = 1.0
        for i in starts(s):
            prod *= sum(weights[word[i:j]] for j in out[i])
        best = max(best, prod)
    return best


def markov_rejection_law(word, vocab, kind="tight"):
    """Exact output law of Markov rejection: P_Markov · ε / P_Markov, normalised; E[T]."""
    eps = epsilon(word, vocab, kind)
    segs = segmentations(word, vocab)
    accept = {s: markov_probability(s, word, vocab) * (eps / markov_probability(s, word, vocab))
              for s in segs}
    total = sum(accept.values())
    return {s: a / total for s, a in accept.items()}, 1 / total


def unigram_rejection_law(word, vocab, weights):
    """Exact output law of Appendix B's sampler and its expected number of trials."""
    out = live_out_arcs(word, vocab)
    cc = c2(word, vocab, weights)
    accept = {}
    for s in segmentations(word, vocab):
        zs = 1.0
        for i in starts(s):
            zs *= sum(weights[word[i:j]] for j in out[i])
        accept[s] = markov_probability(s, word, vocab, weights) * zs / cc
    total = sum(accept.values())
    return {s: a / total for s, a in accept.items()}, 1 / total


def joint_law(word, vocab, weights):
    """The joint unigram probability Π P(t), normalised over the word's segmentations."""
    joint = {s: math.prod(weights[t] for t in s) for s in segmentations(word, vocab)}
    total = sum(joint.values())
    return {s: j / total for s, j in joint.items()}


def bit_rejection_law(word, vocab, p):
    """Exact law of bit rejection: ∝ p^(m-1) (1-p)^(n-m) on valid segmentations; E[T]."""
    p = Fraction(p)
    n = len(word)
    w = {s: p ** (len(s) - 1) * (1 - p) ** (n - len(s)) for s in segmentations(word, vocab)}
    total = sum(w.values())
    return {s: x / total for s, x in w.items()}, 1 / total


def kbest(word, scores, k):
    """The k best segmentations by total score (enumeration), best first, as (score, tokens)."""
    segs = segmentations(word, set(scores))
    ranked = sorted(((sum(scores[t] for t in s), s) for s in segs), key=lambda x: -x[0])
    return ranked[:k]


def maxmatch_dropout_law(word, vocab, q):
    """Exact law of MaxMatch-dropout: candidates longest first, each longer than one
    character skipped with probability q; if all are skipped, the shortest match is taken."""
    q = Fraction(q)
    if word == "":
        return {(): Fraction(1)}
    matches = [j for j in range(len(word), 0, -1) if word[:j] in vocab]
    if not matches:
        return {}
    choice = {}
    carry = Fraction(1)
    for j in matches:
        if j == 1 or j == matches[-1]:
            choice[j] = choice.get(j, 0) + carry
            break
        choice[j] = carry * (1 - q)
        carry *= q
    law = {}
    for j, pj in choice.items():
        for rest, pr in maxmatch_dropout_law(word[j:], vocab, q).items():
            law[(word[:j],) + rest] = law.get((word[:j],) + rest, 0) + pj * pr
    return law
