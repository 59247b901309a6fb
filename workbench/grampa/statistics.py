"""Exact statistics of GRaMPa's segmentation distribution of one word, by dynamic programming.

The walk over the word's graph is a first-order Markov chain, so its law
(:meth:`Grampa.law`, the one source of GRaMPa's exact summaries) gives, in one pass over the
arcs:

* the Shannon entropy of the segmentation distribution in bits, ``Σ_arcs π(src) p log2(1/p)``
  (``π``: node visit probabilities from the start node of the walk);
* ``E[m] = Σ_arcs π(src) p`` and ``E[S] = (E[m] - 1)/(n - 1)``;
* the mean and standard deviation of segmentality ``S = (m - 1)/(n - 1)`` from the exact
  law of m (:func:`segmentality_moments`, Figures 4 and 8 of GRaMPa);
* the probability of any given segmentation (the product of its arcs), hence the
  regularisation rate ``1 - P(deterministic segmentation)``.

No enumeration and no sampling: linear in the number of arcs. This module does not compare
with samples (:mod:`workbench.metrics.segmentation` does that from samples).

Example
-------
>>> from workbench import Grampa, Vocabulary
>>> g = Grampa(Vocabulary(["a", "b", "ab"]))
>>> exact_statistics(g, "abab", reference=["ab", "ab"])
{'entropy': 2.0, 'E_m': 3.0, 'E_S': 0.6666666666666666, 'P_reference': 0.25, 'RR': 0.75}
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from .._core.errors import ArgumentTypeError, InvalidValueError
from ..lattice import check_word
from .sampler import Grampa


def segmentality(m: float | np.ndarray, n: int) -> float | np.ndarray:
    """``S = (m - 1)/(n - 1)``: 0 for one token, 1 for one token per character (n ≥ 2)."""
    return (m - 1) / (n - 1)


def segmentality_moments(sampler: Grampa, word: str) -> tuple[float, float]:
    """Exact mean and standard deviation of segmentality S of ``word`` (n ≥ 2 characters),
    from the token-count law of :meth:`Grampa.law`.

    >>> from workbench import Vocabulary
    >>> segmentality_moments(Grampa(Vocabulary.infinite()), "abc")
    (0.5, 0.3535533905932738)
    """
    if not isinstance(sampler, Grampa):
        raise ArgumentTypeError(f"sampler must be a Grampa, not {type(sampler).__name__}")
    word = check_word(word)
    n = len(word)
    if n < 2:
        raise InvalidValueError("segmentality needs a word of at least 2 characters")
    pmf = sampler.law(word).token_count_pmf()
    m = np.fromiter(pmf.keys(), dtype=float, count=len(pmf))
    q = np.fromiter(pmf.values(), dtype=float, count=len(pmf))
    s = segmentality(m, n)
    mean = float(np.dot(q, s))
    var = float(np.dot(q, (s - mean) ** 2))
    return mean, math.sqrt(max(var, 0.0))


def exact_statistics(sampler: Grampa, word: str, reference: Sequence[str] | None = None
                     ) -> dict[str, float]:
    """Entropy (bits), E[m], E[S], and P / regularisation rate of ``reference`` if given.

    ``E_S`` is NaN for words of one character. Raises :class:`SegmentationError` if the
    word has no segmentation.
    """
    if not isinstance(sampler, Grampa):
        raise ArgumentTypeError(f"sampler must be a Grampa, not {type(sampler).__name__}")
    word = check_word(word)
    n = len(word)
    if n == 0:
        return {"entropy": 0.0, "E_m": 0.0, "E_S": math.nan,
                "P_reference": 1.0, "RR": 0.0}
    law = sampler.law(word)  # the one source of the exact summaries
    e_m = float(law.expected_tokens)
    out = {"entropy": law.shannon_entropy(), "E_m": e_m,
           "E_S": segmentality(e_m, n) if n > 1 else math.nan}
    if reference is not None:
        if isinstance(reference, str):
            raise ArgumentTypeError("reference must be a sequence of tokens, not one str")
        prob = float(law.probability(tuple(reference))) if "".join(reference) == word else 0.0
        out["P_reference"] = prob
        out["RR"] = 1.0 - prob
    return out
