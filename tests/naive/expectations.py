"""Expected unigram counts of GRaMPa over a word-count table, by enumerating segmentations.

The obvious definition, written without the package: for every word, list every segmentation
the sampler can return with its probability (:mod:`naive.grampa`, which builds them from the
paper's Algorithms 1–2), and add ``count × probability`` to each token of it. Multiplexing
(Algorithm 3) adds ``(1 − p) × count`` to each token of the deterministic segmentation and
scales the sampled part by ``p``. With ``exact=True`` every probability is a Fraction
(``1/tau`` must then be an integer, and ``p`` may be a Fraction). Small words only.
"""

from __future__ import annotations

from fractions import Fraction

from naive.grampa import segmentation_distribution, segmentation_distribution_exact


def expected_token_counts(word_counts: dict, vocab_set, tau=1.0, ell_min: int = 1,
                          direction: str = "l2r", p=1, deterministic=None,
                          exact: bool = False) -> dict:
    """Token → expected count (floats, or Fractions with ``exact``); zero entries omitted.

    Raises ``ValueError`` for a word without segmentation (only when ``p > 0``).

    >>> expected_token_counts({"ab": 4}, {"a", "b", "ab"}, exact=True)
    {'a': Fraction(2, 1), 'b': Fraction(2, 1), 'ab': Fraction(2, 1)}
    """
    law = segmentation_distribution_exact if exact else segmentation_distribution
    one = Fraction(1) if exact else 1.0
    p = Fraction(p) if exact else float(p)
    out: dict = {}
    for word, count in word_counts.items():
        if p != 0:
            dist = law(word, vocab_set, tau, ell_min, direction)
            if not dist:
                raise ValueError(f"{word!r} has no segmentation")
            for segmentation, prob in dist.items():
                for token in segmentation:
                    out[token] = out.get(token, 0 * one) + p * count * prob
        if p != 1:
            for token in deterministic(word):
                out[token] = out.get(token, 0 * one) + (1 - p) * count
    return {t: v for t, v in out.items() if v != 0}
