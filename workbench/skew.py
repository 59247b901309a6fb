"""What τ, ℓ_min, direction and multiplexing do to one word: pure functions for notebook 02.

Every function here is a pure function of its parameters (samples use an explicit seed), so
a notebook can bind sliders to it and a test can call it directly and compare.

- :func:`arc_probabilities`: the Markov probabilities GRaMPa attaches to each arc (the
  4/7, 2/7, 1/7 of Figure 1 at τ = 1);
- :func:`skew_coordinate`: −1/τ, the axis along which skew towards longer tokens grows
  monotonically (footnote 10 / Figure 8: 0⁺ … 1 … +∞ ≡ −∞ … 0⁻);
- :func:`segmentality_moments`: exact mean and standard deviation of S = (m−1)/(n−1);
- :func:`skew_panel`: samples and exact laws of m and token length, optionally multiplexed.

This module draws nothing; see :mod:`workbench.viz` for plots.

Example
-------
>>> [round(skew_coordinate(t), 2) for t in (0.5, 1.0, 5.0, float("inf"), -10.0)]
[-2.0, -1.0, -0.2, 0.0, 0.1]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from ._core.rng import as_generator
from .grampa import Grampa, arc_probabilities, check_tau  # noqa: F401  (notebook 02 uses skew.arc_probabilities)
from .lattice import check_word
from .segmenters import default_segmenter
from .vocab import Vocabulary

#: τ values in increasing skew towards longer tokens (footnote 10's order).
TAU_GRID = (0.25, 0.5, 1.0, 2.0, 5.0, 20.0, math.inf, -20.0, -10.0, -5.0, -2.0, -1.0)


def skew_coordinate(tau: float) -> float:
    """−1/τ (−α): increases with the skew towards longer tokens; ±inf both map to 0."""
    return 0.0 - check_tau(tau)  # 0.0 - 0.0 is +0.0 (plain negation would give -0.0)


def segmentality_moments(
    word: str, vocab: Vocabulary, tau: float = 1.0, ell_min: int = 1, direction: str = "l2r"
) -> tuple[float, float]:
    """Exact mean and standard deviation of segmentality S = (m − 1)/(n − 1) (n ≥ 2)."""
    word = check_word(word)
    n = len(word)
    if n < 2:
        raise ValueError("segmentality needs a word of at least 2 characters")
    pmf = Grampa(vocab, tau=tau, ell_min=ell_min, direction=direction).token_count_pmf(word)
    s = (np.arange(pmf.size) - 1) / (n - 1)
    mean = float(np.dot(pmf, s))
    var = float(np.dot(pmf, (s - mean) ** 2))
    return mean, math.sqrt(max(var, 0.0))


def segmentality_curve(
    word: str,
    vocab: Vocabulary,
    taus: Sequence[float] = TAU_GRID,
    ell_min: int = 1,
    direction: str = "l2r",
) -> dict[str, np.ndarray]:
    """Figure 4/8 for one word: exact mean and sd of S for each τ, in skew order.

    Returns arrays ``tau``, ``coordinate`` (−1/τ, sorted ascending), ``mean``, ``sd``.
    """
    ordered = sorted(taus, key=skew_coordinate)
    moments = [segmentality_moments(word, vocab, t, ell_min, direction) for t in ordered]
    return {
        "tau": np.array(ordered, dtype=float),
        "coordinate": np.array([skew_coordinate(t) for t in ordered]),
        "mean": np.array([m for m, _ in moments]),
        "sd": np.array([s for _, s in moments]),
    }


def skew_panel(
    word: str,
    vocab: Vocabulary,
    tau: float = 1.0,
    ell_min: int = 1,
    direction: str = "l2r",
    p: float = 1.0,
    n_samples: int = 20_000,
    seed: int = 0,
    deterministic: Callable[[str], list[str]] | None = None,
    n_examples: int = 5,
) -> dict:
    """Samples and exact laws of the number of tokens m and of token lengths for one word.

    With multiplexing rate ``p`` < 1, each sample is GRaMPa's with probability ``p`` and
    ``deterministic(word)`` otherwise (default: :func:`workbench.segmenters.default_segmenter`),
    and the exact laws are the corresponding mixtures.

    Returns
    -------
    dict
        ``m_counts``, ``m_pmf`` (length n + 1), ``length_counts``, ``length_pmf`` (pooled
        share of tokens of each length, length n + 1), ``examples`` (a few sampled
        segmentations), ``deterministic`` (its segmentation or None), ``n_samples``.
    """
    word = check_word(word)
    if word == "":
        raise ValueError("pick a non-empty word")
    if isinstance(p, bool) or not 0.0 <= float(p) <= 1.0:
        raise ValueError(f"p must be in [0, 1], got {p}")
    n = len(word)
    rng = as_generator(seed)
    g = Grampa(vocab, tau=tau, ell_min=ell_min, direction=direction, seed=rng)
    m_pmf = g.token_count_pmf(word)
    expected_len = g.token_length_pmf(word) * g.expected_token_count(word)
    heads = rng.random(n_samples) < p
    n_heads = int(heads.sum())
    lengths, offsets = g.sample_lengths(word, n_heads)
    m_samples = np.diff(offsets)
    length_counts = np.bincount(lengths, minlength=n + 1)
    det = None
    if p < 1.0:
        det = list((deterministic or default_segmenter(vocab))(word))
        det_lengths = np.bincount([len(t) for t in det], minlength=n + 1)
        m_pmf = p * m_pmf
        m_pmf[len(det)] += 1.0 - p
        expected_len = p * expected_len + (1.0 - p) * det_lengths
        length_counts = length_counts + (n_samples - n_heads) * det_lengths
        m_samples = np.concatenate([m_samples, np.full(n_samples - n_heads, len(det))])
    examples = []
    for s in range(min(n_examples, n_heads)):
        pos, toks = 0, []
        for length in lengths[offsets[s]:offsets[s + 1]].tolist():
            toks.append(word[pos:pos + length])
            pos += length
        examples.append(toks)
    return {
        "m_counts": np.bincount(m_samples, minlength=n + 1),
        "m_pmf": m_pmf,
        "length_counts": length_counts,
        "length_pmf": expected_len / expected_len.sum(),
        "examples": examples,
        "deterministic": det,
        "n_samples": n_samples,
    }
