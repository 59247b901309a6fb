"""Plain references for notebook 07's figures (GRaMPa paper Figures 6, 7, 9).

Written from the paper's captions, not from :mod:`workbench`: nothing here imports the
package. Segmentations are enumerated; logarithms come from exact ``int`` counts.
"""

from __future__ import annotations

import math
from collections import Counter


def segmentation_count(word, tokens):
    """Number of ways to write ``word`` as a concatenation of ``tokens`` (a set)."""
    ways = [1] + [0] * len(word)
    for j in range(1, len(word) + 1):
        for i in range(j):
            if word[i:j] in tokens:
                ways[j] += ways[i]
    return ways[len(word)]


def length_counts(tokens):
    """``{length: number of tokens}``."""
    return dict(Counter(len(t) for t in tokens))


def sub_vocabulary(tokens, scores, size):
    """Every single character plus the best ``size - #characters`` longer tokens (by score
    descending, then by position in ``tokens``)."""
    singles = [t for t in tokens if len(t) == 1]
    longer = sorted((t for t in tokens if len(t) > 1),
                    key=lambda t: (-scores[t], tokens.index(t)))
    return set(singles) | set(longer[: size - len(singles)])


def fraction_of_vocab(word, tokens, scores, size):
    """Figure 9 (a) for one word: log N_V'(s) / log N_V(s) (``None`` if N_V(s) <= 1)."""
    full = segmentation_count(word, set(tokens))
    if full <= 1:
        return None
    sub = segmentation_count(word, sub_vocabulary(tokens, scores, size))
    return (math.log(sub) if sub else 0.0) / math.log(full)


def fraction_of_infinite(word, tokens, scores, size):
    """Figure 9 (b) for one word: log N_V'(s) / ((|s| - 1) log 2) (``None`` if |s| <= 1)."""
    if len(word) <= 1:
        return None
    sub = segmentation_count(word, sub_vocabulary(tokens, scores, size))
    return (math.log(sub) if sub else 0.0) / ((len(word) - 1) * math.log(2))


def ulm_regularisation_rate(word, scores, k, alpha):
    """1 - P(best segmentation) for ULM's k-best sampling ∝ exp(α · score) (enumeration)."""
    segs = []

    def walk(rest, acc, total):
        if not rest:
            segs.append(total)
            return
        for j in range(1, len(rest) + 1):
            if rest[:j] in scores:
                walk(rest[j:], acc + [rest[:j]], total + scores[rest[:j]])

    walk(word, [], 0.0)
    best = sorted(segs, reverse=True)[:k]
    weights = [math.exp(alpha * (s - best[0])) for s in best]
    return 1.0 - weights[0] / sum(weights)
