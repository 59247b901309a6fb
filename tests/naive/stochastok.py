"""StochasTok's law by branching on every random choice (Sims et al. 2025, reference code).

From a base segmentation, ``attempts`` times: a position uniformly among the current tokens
(probability 1/len), then, if that token splits into two vocabulary tokens, one of its
splits uniformly (1/#splits); ``max_splits`` successful splits stop it. Every branch is
walked with its exact Fraction mass. Nothing here imports the package.
"""

from __future__ import annotations

from fractions import Fraction


def every_choice(base, tokens, attempts, max_splits=None):
    """``{segmentation: Fraction}`` over every sequence of choices."""
    law = {}

    def splits(t):
        return [(t[:j], t[j:]) for j in range(1, len(t)) if t[:j] in tokens and t[j:] in tokens]

    def run(seg, left, done, mass):
        if left == 0 or (max_splits is not None and done >= max_splits):
            law[seg] = law.get(seg, 0) + mass
            return
        for idx in range(len(seg)):
            options = splits(seg[idx])
            if not options:
                run(seg, left - 1, done, mass / len(seg))
            for a, b in options:
                run(seg[:idx] + (a, b) + seg[idx + 1:], left - 1, done + 1,
                    mass / len(seg) / len(options))

    run(tuple(base), attempts, 0, Fraction(1))
    return law
