"""Every sampler's exact law on one word, side by side, and the knobs that match their entropies.

Notebook 12 ("Where does the mass go?"). :func:`compare_laws` computes the exact law
(:meth:`sampler.law <workbench.laws.SegmentationLaw>`) of GRaMPa (τ), ULM over all
segmentations (SentencePiece's ``nbest = -1``, smoothing α), MaxMatch-dropout (q) and
BPE-dropout (p, under a chosen semantics) on one word and returns them in a
:class:`LawsComparison`: every segmentation any of them can return, ordered by token count,
with each law's probability of it, and each law's summaries (:class:`SamplerLaw`). GRaMPa,
ULM and MaxMatch-dropout use the shipped ``ulm-8k`` vocabulary, BPE-dropout the shipped
``bpe-8k`` (it needs merges), as Figure 6 pairs them (:mod:`.grampa_regularisation`).

:func:`solve_knob` finds where a function of one knob crosses a target (grid, then
bisection); :func:`match_entropies` uses it to give ULM's α and BPE-dropout's p whose laws
have GRaMPa's entropy at a given τ. Every law, its summaries and its probabilities over the
union of the supports are cached by what they depend on (sampler, word, knob, semantics; ``m``;
the union), so a slider step recomputes one law and the arrays the union changes.

This module draws nothing (:mod:`workbench.figures.mass` does) and samples nothing.

Example
-------
>>> c = compare_laws("▁token", tau=1.0, alpha=0.0, p=0.0, q=0.0)
>>> round(c.laws["grampa"].entropy, 9) == round(c.laws["ulm"].entropy, 9)  # both uniform
True
>>> c.laws["bpe-dropout"].regularisation_rate  # p = 0: BPE's own segmentation
0.0
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .._core.errors import InvalidValueError
from .._core.validate import check_choice, check_int, check_probability, check_real
from ..bpe import BPESampler
from ..bpe.semantics import check_semantics
from ..grampa import Grampa, check_tau
from ..lattice import check_word
from ..laws import SegmentationLaw
from ..samplers import MaxMatchSampler, ULMSampler
from ..vocab import Vocabulary

__all__ = [
    "ALPHA_MAX",
    "DEFAULT_WORD",
    "SAMPLERS",
    "VOCABULARY",
    "EntropyMatch",
    "KnobSolution",
    "LawsComparison",
    "SamplerLaw",
    "compare_laws",
    "match_entropies",
    "sampler_law",
    "solve_knob",
]

#: The samplers compared, in the order they are drawn, and their knobs.
SAMPLERS: dict[str, str] = {"grampa": "tau", "ulm": "alpha", "bpe-dropout": "p",
                            "maxmatch-dropout": "q"}
#: The notebook's word (440 segmentations in ``ulm-8k``, 456 in ``bpe-8k``).
DEFAULT_WORD = "▁tokenization"
#: Largest ULM smoothing α :func:`match_entropies` searches (its laws are near-Viterbi there).
ALPHA_MAX = 5.0
#: Shipped vocabulary of each sampler (BPE-dropout needs merges: ``bpe-8k``).
VOCABULARY = {"grampa": "ulm-8k", "ulm": "ulm-8k", "maxmatch-dropout": "ulm-8k",
              "bpe-dropout": "bpe-8k"}


@lru_cache(maxsize=2)
def _vocabulary(name: str) -> Vocabulary:
    from ..datasets import load_vocabulary

    return load_vocabulary(name)


@lru_cache(maxsize=2)
def _bpe_model(name: str):
    return BPESampler(_vocabulary(name)).model


def _check_knob(sampler: str, value: object) -> float:
    if sampler == "grampa":
        return check_tau(value)
    if sampler == "ulm":
        return check_real(value, "alpha", minimum=0.0)
    return check_probability(value, SAMPLERS[sampler])


def sampler_law(sampler: str, word: str, value: float, semantics: str = "reference"
                ) -> SegmentationLaw:
    """The exact law of one sampler on ``word`` at its knob ``value`` (cached).

    ``sampler`` is a key of :data:`SAMPLERS`; ``semantics`` is BPE-dropout's
    (:mod:`workbench.bpe.semantics`; ignored by the others). Raises what the sampler's
    ``law`` raises (:class:`~workbench.BudgetError` for a word over its budget).

    >>> sampler_law("ulm", "▁token", 0.0).support_size == sampler_law("grampa", "▁token", 1.0
    ...                                                                ).support_size
    True
    """
    sampler = check_choice(sampler, "sampler", tuple(SAMPLERS))
    word = check_word(word)
    value = _check_knob(sampler, value)
    semantics = check_semantics(semantics) if sampler == "bpe-dropout" else "reference"
    return _law(sampler, word, float(value), semantics)


@lru_cache(maxsize=512)
def _law(sampler: str, word: str, value: float, semantics: str) -> SegmentationLaw:
    vocab = _vocabulary(VOCABULARY[sampler])
    if sampler == "grampa":
        return Grampa(vocab, tau=value).law(word)
    if sampler == "ulm":
        return ULMSampler(vocab, nbest=-1, alpha=value).law(word)
    if sampler == "maxmatch-dropout":
        return MaxMatchSampler(vocab, dropout=value).law(word)
    return BPESampler(vocab, dropout=value, model=_bpe_model(VOCABULARY[sampler]),
                      semantics=semantics).law(word)


@dataclass(frozen=True)
class SamplerLaw:
    """One sampler's law on the word and its summaries (entropies in bits).

    ``regularisation_rate`` is ``1 − P(the sampler's deterministic segmentation)`` (NaN for
    GRaMPa, which has none); ``expected_distinct`` is the expected number of distinct
    segmentations among ``m`` samples (:meth:`SegmentationLaw.expected_distinct`).
    """

    sampler: str
    knob: str
    value: float
    vocabulary: str
    law: SegmentationLaw
    entropy: float
    expected_tokens: float
    support: int
    n_segmentations: int | None
    regularisation_rate: float
    expected_distinct: float
    failure_mass: float


def _summary(sampler: str, value: float, law: SegmentationLaw, m: int) -> SamplerLaw:
    return SamplerLaw(
        sampler=sampler, knob=SAMPLERS[sampler], value=value, vocabulary=VOCABULARY[sampler],
        law=law, entropy=law.shannon_entropy(), expected_tokens=float(law.expected_tokens),
        support=law.support_size, n_segmentations=law.n_segmentations,
        regularisation_rate=(math.nan if law.deterministic is None
                             else float(law.regularisation_rate)),
        expected_distinct=float(law.expected_distinct(m)), failure_mass=float(law.failure_mass))


@dataclass(frozen=True)
class LawsComparison:
    """The laws of :data:`SAMPLERS` on one word (:func:`compare_laws`).

    ``segmentations`` is every segmentation of positive probability under some law, ordered
    by token count, then by the tokens; ``probabilities[name][i]`` is that law's probability
    of ``segmentations[i]`` (0 where it cannot return it); ``m`` the number of samples of
    ``expected_distinct``.
    """

    word: str
    m: int
    semantics: str
    laws: dict[str, SamplerLaw]
    segmentations: tuple[tuple[str, ...], ...]
    probabilities: dict[str, np.ndarray]

    @property
    def token_counts(self) -> np.ndarray:
        """Number of tokens of each segmentation (non-decreasing)."""
        return np.array([len(s) for s in self.segmentations], dtype=np.int64)


def compare_laws(word: str = DEFAULT_WORD, tau: float = 1.0, alpha: float = 0.3,
                 p: float = 0.1, q: float = 0.1, *, m: int = 100,
                 semantics: str = "reference") -> LawsComparison:
    """The four samplers' exact laws on ``word`` at the given knobs, side by side.

    Parameters
    ----------
    word : str
        Spelled for the shipped vocabularies (``▁`` starts a word).
    tau, alpha, p, q : float
        GRaMPa's temperature, ULM's smoothing (``nbest = -1``), BPE-dropout's and
        MaxMatch-dropout's dropout probabilities.
    m : int
        Samples for the expected number of distinct segmentations.
    semantics : str
        BPE-dropout's (``"reference"``, the package's sampler; ``"hf"``, HF ``tokenizers``,
        which GRaMPa's experiments used, ~0.6 s for the default word).
    """
    m = check_int(m, "m", minimum=0, maximum=10**9)
    semantics = check_semantics(semantics)
    knobs = {"grampa": tau, "ulm": alpha, "bpe-dropout": p, "maxmatch-dropout": q}
    keys = []
    for name, value in knobs.items():
        sampler_law(name, word, value, semantics)  # checks the arguments, caches the law
        keys.append((name, check_word(word), float(_check_knob(name, value)),
                     semantics if name == "bpe-dropout" else "reference"))
    laws = {key[0]: _summarised(*key, m) for key in keys}
    segs = _union(tuple(keys))
    probs = {key[0]: _probability_vector(*key, segs) for key in keys}
    return LawsComparison(word=laws["grampa"].law.word, m=m, semantics=semantics, laws=laws,
                          segmentations=segs, probabilities=probs)


@lru_cache(maxsize=512)
def _summarised(sampler: str, word: str, value: float, semantics: str, m: int) -> SamplerLaw:
    """:func:`_summary` of a cached law, cached: a step recomputes the moved law's only."""
    return _summary(sampler, value, _law(sampler, word, value, semantics), m)


@lru_cache(maxsize=64)
def _union(keys: tuple[tuple[str, str, float, str], ...]) -> tuple[tuple[str, ...], ...]:
    """Every segmentation of positive probability under one of the laws ``keys`` name (each
    ``(sampler, word, value, semantics)``), ordered by token count, then by the tokens."""
    return tuple(sorted({s for key in keys for s in _law(*key).probabilities()},
                        key=lambda s: (len(s), s)))


@lru_cache(maxsize=512)
def _probability_vector(sampler: str, word: str, value: float, semantics: str,
                        segs: tuple[tuple[str, ...], ...]) -> np.ndarray:
    """A cached law's probability of each of ``segs`` (read-only)."""
    law = _law(sampler, word, value, semantics)
    out = np.array([float(law.probability(s)) for s in segs])
    out.flags.writeable = False
    return out


# ------------------------------------------------------------------------ entropy matching
@dataclass(frozen=True)
class KnobSolution:
    """Where :func:`solve_knob` put the knob: ``value`` gives ``achieved``; ``reached`` is
    False when no knob in the interval reaches the target (``value`` is then the closest)."""

    value: float
    achieved: float
    reached: bool


#: ``f`` that only touches the target (at its maximum, rounded below it) reaches it within
#: this relative distance.
TOUCH = 1e-12


def solve_knob(f: Callable[[float], float], target: float, lo: float, hi: float, *,
               grid: int = 17, tolerance: float = 1e-4) -> KnobSolution:
    """The smallest knob in ``[lo, hi]`` where ``f`` crosses ``target``, by grid and bisection.

    ``f`` is evaluated on ``grid`` equally spaced knobs; the first pair of neighbours between
    which ``f − target`` changes sign (or hits 0) is bisected until the knob interval is
    below ``tolerance``. Without a crossing, the grid knob closest to the target is returned
    with ``reached=False``. A crossing between two grid knobs that ``f`` leaves and comes
    back to is missed: make the grid fine enough for ``f``.

    >>> s = solve_knob(lambda x: x * x, 0.25, 0.0, 1.0)
    >>> round(s.value, 4), s.reached
    (0.5, True)
    >>> solve_knob(lambda x: x, 2.0, 0.0, 1.0)
    KnobSolution(value=1.0, achieved=1.0, reached=False)
    """
    lo = check_real(lo, "lo")
    hi = check_real(hi, "hi", minimum=lo)
    target = check_real(target, "target")
    grid = check_int(grid, "grid", minimum=2, maximum=10_000)
    tolerance = check_real(tolerance, "tolerance", minimum=0.0)
    if tolerance <= 0:
        raise InvalidValueError("tolerance must be > 0")
    xs = np.linspace(lo, hi, grid)
    ys = [float(f(float(x))) for x in xs]
    if any(math.isnan(y) for y in ys):
        raise InvalidValueError("f returned NaN")
    for k, (y0, y1) in enumerate(zip(ys, ys[1:])):
        if y0 == target:
            return KnobSolution(float(xs[k]), y0, True)
        if (y0 - target) * (y1 - target) <= 0:
            a, b, fa = float(xs[k]), float(xs[k + 1]), y0
            while b - a > tolerance:
                mid = (a + b) / 2
                fm = float(f(mid))
                if (fa - target) * (fm - target) <= 0:
                    b = mid
                else:
                    a, fa = mid, fm
            x = (a + b) / 2
            return KnobSolution(x, float(f(x)), True)
    k = int(np.argmin([abs(y - target) for y in ys]))  # a touch (f's maximum) counts
    return KnobSolution(float(xs[k]), ys[k], abs(ys[k] - target) <= TOUCH * max(1.0, abs(target)))


@dataclass(frozen=True)
class EntropyMatch:
    """ULM's α and BPE-dropout's p whose laws have GRaMPa's entropy (bits) at ``tau``."""

    word: str
    tau: float
    target: float
    alpha: KnobSolution
    p: KnobSolution


def match_entropies(word: str = DEFAULT_WORD, tau: float = 1.0, *,
                    semantics: str = "reference") -> EntropyMatch:
    """Solve for the ULM α in ``[0, ALPHA_MAX]`` and the BPE-dropout p in ``[0, 1]`` whose
    laws on ``word`` have the entropy of GRaMPa's at ``tau`` (:func:`solve_knob`).

    ULM's entropy falls from ``log2 N`` (uniform, α = 0) as α grows; BPE-dropout's rises
    from 0 at p = 0 and falls back to 0 at p = 1 (single characters), so the smaller p is
    returned, and ``reached`` is False when BPE-dropout's largest entropy is below the
    target (GRaMPa near uniform spreads more than any p can).

    >>> mt = match_entropies("▁token", 1.0)
    >>> mt.alpha.value, mt.alpha.reached  # τ = 1 is uniform: ULM's α = 0
    (0.0, True)
    """
    target = sampler_law("grampa", word, tau).shannon_entropy()

    def entropy(name: str) -> Callable[[float], float]:
        return lambda x: sampler_law(name, word, x, semantics).shannon_entropy()

    return EntropyMatch(word=check_word(word), tau=float(tau), target=target,
                        alpha=solve_knob(entropy("ulm"), target, 0.0, ALPHA_MAX, grid=26),
                        p=solve_knob(entropy("bpe-dropout"), target, 0.0, 1.0, grid=21))
