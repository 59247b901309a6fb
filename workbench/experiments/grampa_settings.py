"""The 16 tokeniser settings of GRaMPa's Tables 7–8 and the exact laws of their samplers.

Bauwens, Kaczér, de Lhoneux, *GRaMPa* (ACL 2025), §5.2 and Appendix E. :class:`Setting`
names one tokeniser (which trained vocabulary, which sampler, its knobs) and builds its
sampler; :data:`SETTINGS` are the paper's 16 rows in its order. Where the law of a sampler
is known, :func:`exact_piece` gives a piece's entropy, E[m] and most likely segmentation's
probability: GRaMPa by :func:`workbench.grampa.statistics.exact_statistics` and a max-product
pass, ULM from its k-best list, deterministic BPE trivially, BPE-dropout by
:meth:`workbench.bpe.BPESampler.law` under a chosen semantics: ``"hf"``, HF ``tokenizers``,
which GRaMPa's experiments used (:mod:`workbench.bpe.semantics`), only for pieces with at most
:data:`HF_MAX_STATES` reachable segmentations (its propagation is slow; NaN beyond), or
``"reference"`` (the package's sampler; every piece within :meth:`~workbench.bpe.BPESampler.law`'s
budget). :func:`exact_words` combines pieces into words (entropies and E[m] add, the mode's
probability multiplies; NaN when a piece's law was refused) and :func:`exact_table8` turns a
word's law into Table 8's exact fractions.

This module samples nothing and builds no table (:mod:`.grampa_tables` does).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from .._core.validate import BudgetError, check_choice, check_int, check_probability, check_real
from ..bpe import BPESampler, merges_from_vocabulary
from ..grampa import Grampa, check_tau
from ..grampa.statistics import exact_statistics
from ..samplers import ULMSampler
from ..vocab import Vocabulary

__all__ = ["BPE_LAW_SEMANTICS", "HF_MAX_STATES", "SETTINGS", "Setting", "exact_piece",
           "exact_table8", "exact_words"]

Word = tuple[str, ...]


@dataclass(frozen=True)
class Setting:
    """One tokeniser of Tables 7–8: which trained vocabulary, which tokeniser, its knobs.

    >>> Setting("BPE", "BPE", dropout=0.1).label
    'BPE / BPE p_d=0.1'
    """

    vocabulary: str
    tokeniser: str
    dropout: float = 0.0
    nbest: int = 1
    alpha: float = 1.0
    tau: float = 1.0
    ell_min: int = 1

    def __post_init__(self) -> None:
        check_choice(self.vocabulary, "vocabulary", ("BPE", "ULM"))
        check_choice(self.tokeniser, "tokeniser", ("BPE", "ULM", "GRaMPa"))
        check_probability(self.dropout, "dropout")
        check_int(self.nbest, "nbest", minimum=1)
        check_real(self.alpha, "alpha")
        check_tau(self.tau)
        check_int(self.ell_min, "ell_min", minimum=1)

    @property
    def params(self) -> str:
        """The knobs as the paper prints them (ASCII)."""
        if self.tokeniser == "BPE":
            return f"p_d={self.dropout:g}"
        if self.tokeniser == "ULM":
            return f"k={self.nbest} alpha={self.alpha:g}"
        return f"l_min={self.ell_min} tau={self.tau:g}"

    @property
    def label(self) -> str:
        """``"<vocabulary> / <tokeniser> <params>"``, the key of :mod:`.grampa_paper_tables`."""
        return f"{self.vocabulary} / {self.tokeniser} {self.params}"

    @property
    def deterministic(self) -> bool:
        """True for BPE without dropout and ULM with k = 1."""
        return (self.tokeniser == "BPE" and self.dropout == 0) or (
            self.tokeniser == "ULM" and self.nbest == 1)

    def sampler(self, vocab: Vocabulary, seed: object = None, semantics: str = "reference"):
        """The sampler of this setting over ``vocab`` (GRaMPa L2R, ULM by its own k-best).

        ``semantics`` is BPE-dropout's (:class:`workbench.bpe.BPESampler`); the tables sample
        with the default, the package's kernel.
        """
        if self.tokeniser == "GRaMPa":
            return Grampa(vocab, tau=self.tau, ell_min=self.ell_min, direction="l2r", seed=seed)
        if self.tokeniser == "ULM":
            return ULMSampler(vocab, nbest=self.nbest, alpha=self.alpha, seed=seed)
        return BPESampler(vocab, dropout=self.dropout, merges=_merges(vocab), seed=seed,
                          semantics=semantics)


def _grampas(vocab: str) -> list[Setting]:
    return [Setting(vocab, "GRaMPa", tau=t, ell_min=e) for e in (1, 2) for t in (1.0, 5.0, -10.0)]


#: Semantics :func:`exact_words` computes BPE-dropout's law under: GRaMPa's (HF ``tokenizers``,
#: :mod:`workbench.bpe.semantics`) first, the package's sampler's second.
BPE_LAW_SEMANTICS = ("hf", "reference")

#: HF's law is propagated only for pieces with at most this many reachable segmentations (the
#: support of the reference law, which has one segmentation per reachable state). HF's states
#: also carry its queue: on ``bpe-8k`` at p = 0.1, ``▁understand`` (453 segmentations) takes
#: ~3.5 s and ``▁international`` (1,661) ~42 s, against 0.03 s under the reference. 300 keeps
#: 3,388 of the 3,540 distinct pieces of the first 20,000 words of the shipped Shakespeare.
HF_MAX_STATES = 300

#: The 16 settings of the paper's Tables 7 and 8, in its order.
SETTINGS: tuple[Setting, ...] = (
    Setting("BPE", "BPE"), Setting("BPE", "BPE", dropout=0.1), *_grampas("BPE"),
    Setting("ULM", "ULM"), Setting("ULM", "ULM", nbest=64, alpha=0.15), *_grampas("ULM"),
)

_MERGES: dict[int, tuple[Vocabulary, list[tuple[str, str]]]] = {}


def _merges(vocab: Vocabulary) -> list[tuple[str, str]]:
    """:func:`merges_from_vocabulary`, cached per vocabulary object (it takes a second)."""
    hit = _MERGES.get(id(vocab))
    if hit is None or hit[0] is not vocab:
        hit = _MERGES[id(vocab)] = (vocab, merges_from_vocabulary(vocab))
    return hit[1]


# ------------------------------------------------------------------------------ exact laws
def _mode_probability(arcs: Mapping[tuple[int, int], float], n: int) -> float:
    """Largest path probability from node 0 to ``n`` (arcs in word coordinates).

    >>> _mode_probability({(0, 1): 0.5, (1, 2): 1.0, (0, 2): 0.5}, 2)
    0.5
    """
    best = [0.0] * (n + 1)
    best[0] = 1.0
    for (i, j), p in sorted(arcs.items(), key=lambda a: a[0][1]):
        best[j] = max(best[j], best[i] * p)
    return best[n]


def exact_piece(setting: Setting, sampler: object, piece: str) -> tuple[float, float, float]:
    """``(entropy in bits, E[m], P(most likely segmentation))`` of one piece's law.

    GRaMPa: :func:`exact_statistics` plus a max-product pass over its arc probabilities;
    ULM: its k-best list and their probabilities; deterministic BPE: one segmentation;
    BPE-dropout: ``sampler.law(piece)`` under the sampler's semantics (raises
    :class:`~workbench.BudgetError` past its budget). The law has no failure mass on the
    shipped vocabularies (their alphabets are characters, never split).

    >>> from workbench import Vocabulary
    >>> g = Setting("ULM", "GRaMPa")
    >>> exact_piece(g, g.sampler(Vocabulary(["a", "b", "ab"])), "abab")
    (2.0, 3.0, 0.25)
    """
    if setting.tokeniser == "GRaMPa":
        st = exact_statistics(sampler, piece)  # type: ignore[arg-type]
        mode = _mode_probability(sampler.arc_probabilities(piece), len(piece))  # type: ignore
        return st["entropy"], st["E_m"], mode
    if setting.tokeniser == "ULM":
        segs, probs = sampler.kbest(piece)  # type: ignore[attr-defined]
        h = -sum(p * math.log2(p) for p in probs if p > 0)
        return h, sum(p * len(s) for s, p in zip(segs, probs)), max(probs)
    if setting.dropout == 0:
        return 0.0, float(len(sampler.sample(piece))), 1.0  # type: ignore[attr-defined]
    law = sampler.law(piece)  # type: ignore[attr-defined]
    return (law.shannon_entropy(), float(law.expected_tokens),
            float(law.probability(law.mode)))


_EXACT: dict[tuple[Setting, str, int], tuple[Vocabulary, object, dict]] = {}
_NAN = (math.nan, math.nan, math.nan)


def _exact_cache(setting: Setting, vocab: Vocabulary, semantics: str = "reference"
                 ) -> tuple[object, dict]:
    """A sampler of the setting and its piece → exact law cache (shared by both tables)."""
    key = (setting, semantics, id(vocab))
    hit = _EXACT.get(key)
    if hit is None or hit[0] is not vocab:
        if len(_EXACT) >= 64:
            _EXACT.clear()
        hit = _EXACT[key] = (vocab, setting.sampler(vocab, seed=0, semantics=semantics), {})
    return hit[1], hit[2]


def _piece(setting: Setting, vocab: Vocabulary, piece: str, semantics: str,
           max_states: int) -> tuple[float, float, float]:
    """:func:`exact_piece` through the cache; NaNs for a BPE-dropout law over the budget."""
    sampler, cache = _exact_cache(setting, vocab, semantics)
    hit = cache.get(piece)
    if hit is not None:
        return hit
    if semantics == "hf" and setting.tokeniser == "BPE" and setting.dropout > 0:
        ref_sampler, _ = _exact_cache(setting, vocab, "reference")
        try:  # the reference law's support: the piece's reachable segmentations
            states = ref_sampler.law(piece).support_size  # type: ignore[attr-defined]
        except BudgetError:
            states = max_states + 1
        if states > max_states:
            cache[piece] = _NAN
            return _NAN
    try:
        hit = exact_piece(setting, sampler, piece)
    except BudgetError:  # BPE-dropout only: the others' laws are polynomial
        hit = _NAN
    cache[piece] = hit
    return hit


def exact_words(setting: Setting, vocab: Vocabulary, words: list[Word], *,
                semantics: str = "hf", max_states: int = HF_MAX_STATES
                ) -> list[tuple[float, float, float]]:
    """Per word: entropy in bits (sum), E[m] (sum), P(most likely) (product) over its pieces.

    ``semantics`` (one of :data:`BPE_LAW_SEMANTICS`) and ``max_states`` matter for
    BPE-dropout only: its law under ``"hf"`` is computed for pieces with at most
    ``max_states`` reachable segmentations, under ``"reference"`` within
    :meth:`workbench.bpe.BPESampler.law`'s budget; a word with a refused piece is all NaN
    (count them with ``math.isnan``). Every piece's law is cached per setting, semantics
    and vocabulary object, so both tables and repeated pieces compute it once.

    >>> from workbench import Vocabulary
    >>> v = Vocabulary(["a", "b", "ab"], scores=[0.0, 0.0, -1.0])
    >>> s = Setting("BPE", "BPE", dropout=0.5)
    >>> [tuple(round(x, 4) for x in r) for r in exact_words(s, v, [("ab", "a")])]
    [(1.0, 2.5, 0.5)]
    >>> math.isnan(exact_words(s, v, [("abab",)], max_states=2)[0][0])  # 4 > 2 states
    True
    """
    semantics = check_choice(semantics, "semantics", BPE_LAW_SEMANTICS)
    max_states = check_int(max_states, "max_states", minimum=1)
    if not (setting.tokeniser == "BPE" and setting.dropout > 0):
        semantics = "reference"  # one cache for the samplers without semantics
    out = []
    for w in words:
        h = e_m = 0.0
        mode = 1.0
        for p in w:
            hit = _piece(setting, vocab, p, semantics, max_states)
            h, e_m, mode = h + hit[0], e_m + hit[1], mode * hit[2]
        out.append((h, e_m, mode))
    return out


def exact_table8(h: float, mode: float, n_seg: int) -> dict[str, float]:
    """Exact Table 8 fractions of one word: H1/H0, H1pr/H0pr, RR (NaN where undefined)."""
    out = {"H1_H0_exact": h / math.log2(n_seg) if n_seg > 1 else math.nan,
           "RR_exact": 1.0 - mode, "H1pr_H0pr_exact": math.nan}
    if n_seg > 2 and 0.0 < mode < 1.0 and not math.isnan(h):
        rest = 1.0 - mode  # entropy of the law given "not the most likely segmentation"
        h_rest = (h + mode * math.log2(mode)) / rest + math.log2(rest)
        out["H1pr_H0pr_exact"] = max(h_rest, 0.0) / math.log2(n_seg - 1)
    return out


