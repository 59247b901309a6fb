"""Notebook 02: what τ, ℓ_min, direction and multiplexing do to one word (§4.3–4.6).

Pure functions (samples use an explicit seed), so a notebook can bind sliders to them and a
test can call them directly and compare:

- :func:`skew_coordinate`: −1/τ, the axis along which skew towards longer tokens grows
  monotonically (footnote 10 / Figure 8: 0⁺ … 1 … +∞ ≡ −∞ … 0⁻);
- :func:`segmentality_moments`, :func:`segmentality_curve`: exact mean and standard deviation
  of S = (m−1)/(n−1), per τ (Figures 4 and 8 for one word);
- :func:`skew_panel`: samples and exact laws of m and token length, optionally multiplexed
  with a deterministic segmenter through :class:`workbench.Multiplexer` (Algorithm 3);
- :func:`m_histograms_per_tau`: Figure 3's data.

This module draws nothing: the matplotlib figures are in :mod:`.skew_plots`, the plotly ones
in :mod:`.skew_plotly`, the panel in :mod:`.skew_widget`. GRaMPa's arc probabilities are
:func:`workbench.grampa.arc_probabilities`.

Example
-------
>>> [round(skew_coordinate(t), 2) for t in (0.5, 1.0, 5.0, float("inf"), -10.0)]
[-2.0, -1.0, -0.2, 0.0, 0.1]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .._core.seeds import as_generator
from ..grampa import Grampa, check_tau
from ..lattice import check_word, tokens_from_lengths
from ..segmenters import Multiplexer, default_segmenter
from ..theory.grampa.mixture import mix
from ..vocab import Vocabulary

__all__ = [
    "PAPER_TAUS",
    "TAU_GRID",
    "TAU_SLIDER_GRID",
    "m_histograms_per_tau",
    "segmentality_curve",
    "segmentality_moments",
    "skew_coordinate",
    "skew_panel",
]

#: τ values in increasing skew towards longer tokens (footnote 10's order).
TAU_GRID = (0.25, 0.5, 1.0, 2.0, 5.0, 20.0, math.inf, -20.0, -10.0, -5.0, -2.0, -1.0)

#: The temperatures of the paper's experiments and Figure 3: uniform, moderate, heavy skew.
PAPER_TAUS: tuple[float, ...] = (1.0, 5.0, -10.0)

#: τ values for a slider, in increasing skew towards longer tokens (footnote 10's order:
#: 0⁺ … 1 … +∞ ≡ −∞ … 0⁻), i.e. sorted by −1/τ, which runs from −4 to 4.
TAU_SLIDER_GRID: tuple[float, ...] = (
    0.25, 0.3, 0.4, 0.5, 0.6, 0.75, 1.0, 1.25, 1.5, 2.0, 3.0, 5.0, 10.0, 20.0, 50.0,
    math.inf,
    -50.0, -20.0, -10.0, -5.0, -3.0, -2.0, -1.5, -1.25, -1.0, -0.75, -0.6, -0.5, -0.4, -0.3,
    -0.25,
)



def skew_coordinate(tau: float) -> float:
    """−1/τ: increases with the skew towards longer tokens; ±inf both map to 0."""
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
    ``deterministic(word)`` otherwise (default: :func:`workbench.segmenters.default_segmenter`):
    the coins are :meth:`workbench.Multiplexer.coins` (Algorithm 3), drawn from the same
    generator as GRaMPa's seed, and the exact laws are the corresponding mixtures
    (:func:`workbench.theory.grampa.mixture.mix`).

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
    n = len(word)
    rng = as_generator(seed)  # one stream: the coins first, then GRaMPa's base seed
    g = Grampa(vocab, tau=tau, ell_min=ell_min, direction=direction, seed=rng)
    mux = Multiplexer(deterministic or default_segmenter(vocab), g, p, seed=rng)
    m_pmf = g.token_count_pmf(word)
    expected_len = g.token_length_pmf(word) * g.expected_token_count(word)
    n_heads = int(mux.coins(n_samples).sum())
    lengths, offsets = g.sample_lengths(word, n_heads)
    m_samples = np.diff(offsets)
    length_counts = np.bincount(lengths, minlength=n + 1)
    det = None
    if mux.p < 1.0:  # the exact laws are the mixtures of Algorithm 3
        det = list(mux.deterministic(word))
        det_lengths = np.bincount([len(t) for t in det], minlength=n + 1)
        m_pmf = mix(mux.p, m_pmf, np.bincount([len(det)], minlength=n + 1))
        expected_len = mix(mux.p, expected_len, det_lengths)
        length_counts = length_counts + (n_samples - n_heads) * det_lengths
        m_samples = np.concatenate([m_samples, np.full(n_samples - n_heads, len(det))])
    examples = [tokens_from_lengths(word, lengths[offsets[s]:offsets[s + 1]].tolist())
                for s in range(min(n_examples, n_heads))]
    return {
        "m_counts": np.bincount(m_samples, minlength=n + 1),
        "m_pmf": m_pmf,
        "length_counts": length_counts,
        "length_pmf": expected_len / expected_len.sum(),
        "examples": examples,
        "deterministic": det,
        "n_samples": n_samples,
    }


def m_histograms_per_tau(
    word: str,
    vocab: Vocabulary,
    taus: Sequence[float] = PAPER_TAUS,
    ell_min: int = 1,
    direction: str = "l2r",
    n_samples: int = 20_000,
    seed: int = 0,
) -> dict[float, dict[str, Any]]:
    """Figure 3's data for one word: ``{τ: skew_panel(word, vocab, τ, ..., p=1)}``.

    ``word`` is taken as given (already in the vocabulary's alphabet). ``n_samples=0``
    gives the exact laws only.
    """
    return {float(t): skew_panel(word, vocab, t, ell_min, direction, 1.0, n_samples,
                                       seed)
            for t in taus}
