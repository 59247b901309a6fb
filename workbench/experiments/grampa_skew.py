"""GRaMPa §4.3–4.6 on one word (notebook 02): what τ, ℓ_min, direction and p do, as data.

* :func:`skew_coordinate` — −1/τ, the axis along which skew towards longer tokens grows
  (footnote 10 / Figure 8: 0⁺ … 1 … +∞ ≡ −∞ … 0⁻); :data:`TAU_GRID`,
  :data:`TAU_SLIDER_GRID` and :data:`PAPER_TAUS` in that order;
* :func:`segmentality_curve` — Figures 4 and 8 for one word: the exact mean and sd of
  S = (m − 1)/(n − 1) per τ (:func:`workbench.grampa.statistics.segmentality_moments`);
* :func:`pooled_curve` — Figure 4 over many words: the curves pooled (law of total
  variance);
* :func:`skew_panel` — samples and exact laws of m and token length, optionally multiplexed
  with a deterministic segmenter (Algorithm 3; the law is
  :func:`workbench.theory.grampa.mixture.mix`); :func:`m_histograms_per_tau` — Figure 3;
* :func:`skew_summary` — everything notebook 02's panel shows for a word typed by a reader,
  the package's documented errors as a message.

Results are frozen records (:class:`SkewPanel`, :class:`SegmentalityCurve`,
:class:`SkewSummary`) with read-only arrays. Each part is cached by what it depends on
(``functools.lru_cache`` on the vocabulary, word and parameters): Figure 3 and the curve
depend on neither τ nor p, the exact laws not on p, so a τ or p step of the panel only
recomputes what moved. The vocabulary must not be changed after use (it is hashed by value).

This module draws nothing (:mod:`workbench.figures.skew_plots`, ``skew_plotly`` and
``skew_widget`` do), samples only through :class:`workbench.Grampa` and
:class:`workbench.Multiplexer`, and asserts nothing.

Example
-------
>>> [round(skew_coordinate(t), 2) for t in (0.5, 1.0, 5.0, float("inf"), -10.0)]
[-2.0, -1.0, -0.2, 0.0, 0.1]
>>> from workbench import Vocabulary
>>> curve = segmentality_curve("abcd", Vocabulary.infinite(), (1.0, -1.0))
>>> curve.mean.round(3).tolist()
[0.5, 0.264]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .._core.errors import ArgumentTypeError, InvalidValueError
from .._core.records import ArrayRecord
from .._core.seeds import as_generator
from ..grampa import Grampa, check_tau
from ..grampa.statistics import segmentality_moments as grampa_segmentality_moments
from ..lattice import (
    EMPTY_WORD_NOTE,
    SegmentationError,
    check_vocab,
    check_word,
    tokens_from_lengths,
)
from ..segmenters import Multiplexer, default_segmenter
from ..stats import frequencies, tv_distance
from ..theory.grampa.mixture import mix
from ..vocab import Vocabulary
from .grampa_lattice import LatticeView, lattice_view

__all__ = [
    "PAPER_TAUS",
    "TAU_GRID",
    "TAU_SLIDER_GRID",
    "SegmentalityCurve",
    "SkewPanel",
    "SkewSummary",
    "m_histograms_per_tau",
    "pooled_curve",
    "segmentality_curve",
    "segmentality_moments",
    "skew_coordinate",
    "skew_panel",
    "skew_summary",
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

_CACHE = 256  # entries per cached part: a reader's session of slider steps
# the moments and curves of Figure 4 over many words (notebook 02: 100 words, 4 settings,
# 12 τ) must not push out the reader's panel: a small entry each, more of them kept
_CURVE_CACHE = 1024
_MOMENTS_CACHE = 16384


@dataclass(frozen=True, eq=False)
class SkewPanel(ArrayRecord):
    """Samples and exact laws of m and token length for one word (:func:`skew_panel`).

    Attributes
    ----------
    m_counts, m_pmf : np.ndarray
        Sampled counts and exact law of the number of tokens m (length n + 1).
    length_counts, length_pmf : np.ndarray
        Sampled token lengths (pooled) and their expected share (length n + 1).
    examples : tuple of tuple of str
        A few sampled segmentations (GRaMPa's).
    deterministic : tuple of str or None
        The deterministic segmentation when p < 1.
    n_samples : int
    """

    m_counts: np.ndarray
    m_pmf: np.ndarray
    length_counts: np.ndarray
    length_pmf: np.ndarray
    examples: tuple[tuple[str, ...], ...]
    deterministic: tuple[str, ...] | None
    n_samples: int

    @property
    def expected_m(self) -> float:
        """E[m] under the exact law (the mixture's when p < 1)."""
        return float(np.dot(np.arange(self.m_pmf.size), self.m_pmf))

    @property
    def m_tv(self) -> float:
        """TV distance between the sampled shares of m and its exact law (NaN: no samples)."""
        return _tv(self.m_counts, self.m_pmf)

    @property
    def length_tv(self) -> float:
        """TV distance between the sampled token-length shares and their exact law."""
        return _tv(self.length_counts, self.length_pmf)


def _tv(counts: np.ndarray, pmf: np.ndarray) -> float:
    return tv_distance(frequencies(counts), pmf) if counts.sum() > 0 else math.nan


@dataclass(frozen=True, eq=False)
class SegmentalityCurve(ArrayRecord):
    """Figures 4/8 for one word: arrays in skew order (:func:`segmentality_curve`).

    Attributes
    ----------
    tau, coordinate, mean, sd : np.ndarray
        τ sorted by −1/τ, that coordinate, the exact mean and sd of S.
    """

    tau: np.ndarray
    coordinate: np.ndarray
    mean: np.ndarray
    sd: np.ndarray


@dataclass(frozen=True, eq=False)
class SkewSummary(ArrayRecord):
    """Everything notebook 02's panel shows for one word (:func:`skew_summary`).

    After an error the fields computed before it are kept, the others are None.

    Attributes
    ----------
    word : str or None
        The word in the vocabulary's alphabet.
    tau, ell_min, direction, p, n_samples, seed
        As asked.
    panel : SkewPanel or None
    lattice : LatticeView or None
        The lattice with the arcs' probabilities at τ.
    arc_probabilities : dict {(i, j): float} or None
    per_tau : dict {τ: SkewPanel} or None
        Figure 3 (GRaMPa alone, p = 1).
    curve : SegmentalityCurve or None
        Figures 4/8 (None for words of one character).
    current : (float, float) or None
        Mean and sd of S at τ.
    error : str or None
    """

    word: str | None
    tau: float
    ell_min: int
    direction: str
    p: float
    n_samples: int
    seed: int
    panel: SkewPanel | None
    lattice: LatticeView | None
    arc_probabilities: Mapping[tuple[int, int], float] | None
    per_tau: Mapping[float, SkewPanel] | None
    curve: SegmentalityCurve | None
    current: tuple[float, float] | None
    error: str | None


def skew_coordinate(tau: float) -> float:
    """−1/τ: increases with the skew towards longer tokens; ±inf both map to 0."""
    return 0.0 - check_tau(tau)  # 0.0 - 0.0 is +0.0 (plain negation would give -0.0)


@lru_cache(maxsize=_CACHE)
def _exact(vocab: Vocabulary, word: str, tau: float, ell_min: int, direction: str
           ) -> tuple[np.ndarray, np.ndarray, dict[tuple[int, int], float]]:
    """GRaMPa's exact law of m, expected token-length counts and arc probabilities."""
    g = Grampa(vocab, tau=tau, ell_min=ell_min, direction=direction)
    law = g.law(word)
    pmf = law.token_count_pmf()
    m_pmf = np.array([pmf.get(k, 0.0) for k in range(len(word) + 1)])
    expected_len = g.token_length_pmf(word) * float(law.expected_tokens)
    for a in (m_pmf, expected_len):
        a.flags.writeable = False
    return m_pmf, expected_len, g.arc_probabilities(word)


def segmentality_moments(word: str, vocab: Vocabulary, tau: float = 1.0, ell_min: int = 1,
                         direction: str = "l2r") -> tuple[float, float]:
    """Exact mean and standard deviation of S = (m − 1)/(n − 1) (n ≥ 2): the one
    computation, :func:`workbench.grampa.statistics.segmentality_moments`."""
    return _moments(check_word(word), check_vocab(vocab), tau, ell_min, direction)


@lru_cache(maxsize=_MOMENTS_CACHE)
def _moments(word: str, vocab: Vocabulary, tau: float, ell_min: int, direction: str
             ) -> tuple[float, float]:
    return grampa_segmentality_moments(
        Grampa(vocab, tau=tau, ell_min=ell_min, direction=direction), word)


def segmentality_curve(
    word: str,
    vocab: Vocabulary,
    taus: Sequence[float] = TAU_GRID,
    ell_min: int = 1,
    direction: str = "l2r",
) -> SegmentalityCurve:
    """Figure 4/8 for one word: exact mean and sd of S for each τ, in skew order."""
    return _curve(check_word(word), check_vocab(vocab), tuple(float(t) for t in taus), ell_min,
                  direction)


@lru_cache(maxsize=_CURVE_CACHE)
def _curve(word: str, vocab: Vocabulary, taus: tuple[float, ...], ell_min: int,
           direction: str) -> SegmentalityCurve:
    ordered = sorted(taus, key=skew_coordinate)
    moments = [segmentality_moments(word, vocab, t, ell_min, direction) for t in ordered]
    return SegmentalityCurve(
        tau=np.array(ordered, dtype=float),
        coordinate=np.array([skew_coordinate(t) for t in ordered]),
        mean=np.array([m for m, _ in moments]),
        sd=np.array([s for _, s in moments]))


def pooled_curve(curves: Sequence[SegmentalityCurve]) -> SegmentalityCurve:
    """Figure 4 over words: the mean of the means and the pooled sd (law of total variance:
    mean within-word variance plus the variance of the means), on the curves' common τ.

    Raises ``ValueError`` if there are no curves or their τ differ.
    """
    curves = list(curves)
    if not curves:
        raise InvalidValueError("pooled_curve needs at least one curve")
    if any(not np.array_equal(c.tau, curves[0].tau) for c in curves):
        raise InvalidValueError("the curves must share their τ")
    means = np.array([c.mean for c in curves])
    sds = np.array([c.sd for c in curves])
    return SegmentalityCurve(tau=curves[0].tau.copy(), coordinate=curves[0].coordinate.copy(),
                             mean=means.mean(axis=0),
                             sd=np.sqrt((sds**2).mean(axis=0) + means.var(axis=0)))


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
) -> SkewPanel:
    """Samples and exact laws of the number of tokens m and of token lengths for one word.

    With multiplexing rate ``p`` < 1, each sample is GRaMPa's with probability ``p`` and
    ``deterministic(word)`` otherwise (default: :func:`workbench.segmenters.default_segmenter`):
    the coins are :meth:`workbench.Multiplexer.coins` (Algorithm 3), drawn from the same
    generator as GRaMPa's seed, and the exact laws are the corresponding mixtures
    (:func:`workbench.theory.grampa.mixture.mix`). With the default segmenter and an int
    seed the result is cached.
    """
    word = check_word(word)
    vocab = check_vocab(vocab)
    if word == "":
        raise InvalidValueError("pick a non-empty word")
    if (deterministic is None and isinstance(seed, (int, np.integer))
            and not isinstance(seed, bool)):
        return _cached_panel(word, vocab, tau, ell_min, direction, p, n_samples, int(seed),
                             n_examples)
    return _panel(word, vocab, tau, ell_min, direction, p, n_samples, seed, deterministic,
                  n_examples)


@lru_cache(maxsize=_CACHE)
def _cached_panel(word: str, vocab: Vocabulary, tau: float, ell_min: int, direction: str,
                  p: float, n_samples: int, seed: int, n_examples: int) -> SkewPanel:
    return _panel(word, vocab, tau, ell_min, direction, p, n_samples, seed, None, n_examples)


def _panel(word: str, vocab: Vocabulary, tau: float, ell_min: int, direction: str, p: float,
           n_samples: int, seed: object, deterministic: Callable[[str], list[str]] | None,
           n_examples: int) -> SkewPanel:
    n = len(word)
    rng = as_generator(seed)  # one stream: the coins first, then GRaMPa's base seed
    g = Grampa(vocab, tau=tau, ell_min=ell_min, direction=direction, seed=rng)
    mux = Multiplexer(deterministic or _default_segmenter(vocab), g, p, seed=rng)
    m_pmf, expected_len, _ = _exact(vocab, word, float(tau), ell_min, direction)
    n_heads = int(mux.coins(n_samples).sum())
    lengths, offsets = g.sample_lengths(word, n_heads)
    m_samples = np.diff(offsets)
    length_counts = np.bincount(lengths, minlength=n + 1)
    det = None
    if mux.p < 1.0:  # the exact laws are the mixtures of Algorithm 3
        det = tuple(mux.deterministic(word))
        det_lengths = np.bincount([len(t) for t in det], minlength=n + 1)
        m_pmf = mix(mux.p, m_pmf, np.bincount([len(det)], minlength=n + 1))
        expected_len = mix(mux.p, expected_len, det_lengths)
        length_counts = length_counts + (n_samples - n_heads) * det_lengths
        m_samples = np.concatenate([m_samples, np.full(n_samples - n_heads, len(det))])
    examples = tuple(tuple(tokens_from_lengths(word, lengths[offsets[s]:offsets[s + 1]].tolist()))
                     for s in range(min(n_examples, n_heads)))
    return SkewPanel(
        m_counts=np.bincount(m_samples, minlength=n + 1),
        m_pmf=np.array(m_pmf),
        length_counts=length_counts,
        length_pmf=expected_len / expected_len.sum(),
        examples=examples,
        deterministic=det,
        n_samples=n_samples)


@lru_cache(maxsize=16)
def _default_segmenter(vocab: Vocabulary) -> Callable[[str], list[str]]:
    return default_segmenter(vocab)


def m_histograms_per_tau(
    word: str,
    vocab: Vocabulary,
    taus: Sequence[float] = PAPER_TAUS,
    ell_min: int = 1,
    direction: str = "l2r",
    n_samples: int = 20_000,
    seed: int = 0,
) -> dict[float, SkewPanel]:
    """Figure 3's data for one word: ``{τ: skew_panel(word, vocab, τ, ..., p=1)}``.

    ``word`` is taken as given (already in the vocabulary's alphabet). ``n_samples=0``
    gives the exact laws only.
    """
    return {float(t): skew_panel(word, vocab, t, ell_min, direction, 1.0, n_samples, seed)
            for t in taus}


def skew_summary(
    word: str,
    vocab: Vocabulary,
    tau: float = 1.0,
    ell_min: int = 1,
    direction: str = "l2r",
    p: float = 1.0,
    n_samples: int = 20_000,
    seed: int = 0,
    figure_taus: Sequence[float] = PAPER_TAUS,
    curve_taus: Sequence[float] = TAU_GRID,
) -> SkewSummary:
    """Everything notebook 02's panel shows for one word typed by a reader.

    Parameters
    ----------
    word : str
        A plain word, spelled in the vocabulary's alphabet first (``vocab.to_alphabet``).
    vocab : Vocabulary
    tau, ell_min, direction, p, n_samples, seed
        As in :func:`skew_panel`.
    figure_taus : sequence of float
        Temperatures of Figure 3 (default the paper's 1, 5, −10).
    curve_taus : sequence of float
        Temperatures of the segmentality curve (default :data:`TAU_GRID`).

    Returns
    -------
    SkewSummary
        ``panel`` = ``skew_panel(spelled, vocab, tau, ell_min, direction, p, n_samples,
        seed)``; ``lattice`` = ``lattice_view(word, vocab, ell_min, direction, 0, tau)``;
        ``arc_probabilities`` = ``arc_probabilities(spelled, vocab, tau, ell_min,
        direction)``; ``per_tau`` = :func:`m_histograms_per_tau` (p = 1); ``curve`` =
        :func:`segmentality_curve` and ``current`` = :func:`segmentality_moments` (both None
        for words of one character). :class:`workbench.SegmentationError`, ``ValueError``
        and ``TypeError`` become ``error``.
    """
    got: dict[str, object] = {}
    error = None
    try:
        if not isinstance(vocab, Vocabulary):
            raise ArgumentTypeError("vocab must be a workbench.Vocabulary, not "
                                    f"{type(vocab).__name__}")
        spelled = vocab.to_alphabet(word)
        got["word"] = spelled
        if spelled == "":
            raise InvalidValueError(EMPTY_WORD_NOTE)
        got["panel"] = skew_panel(spelled, vocab, tau, ell_min, direction, p, n_samples, seed)
        got["lattice"] = _lattice(word, vocab, ell_min, direction, float(tau))
        got["arc_probabilities"] = dict(_exact(vocab, spelled, float(tau), ell_min,
                                               direction)[2])
        got["per_tau"] = m_histograms_per_tau(spelled, vocab, figure_taus, ell_min, direction,
                                              n_samples, seed)
        if len(spelled) >= 2:
            got["curve"] = segmentality_curve(spelled, vocab, curve_taus, ell_min, direction)
            got["current"] = segmentality_moments(spelled, vocab, tau, ell_min, direction)
    except (SegmentationError, ValueError, TypeError) as err:
        error = str(err)
    return SkewSummary(
        word=got.get("word"), tau=tau, ell_min=ell_min, direction=direction, p=p,  # type: ignore[arg-type]
        n_samples=n_samples, seed=seed, panel=got.get("panel"),  # type: ignore[arg-type]
        lattice=got.get("lattice"), arc_probabilities=got.get("arc_probabilities"),  # type: ignore[arg-type]
        per_tau=got.get("per_tau"), curve=got.get("curve"),  # type: ignore[arg-type]
        current=got.get("current"), error=error)  # type: ignore[arg-type]


@lru_cache(maxsize=_CACHE)
def _lattice(word: str, vocab: Vocabulary, ell_min: int, direction: str, tau: float
             ) -> LatticeView:
    return lattice_view(word, vocab, ell_min, direction, 0, tau)
