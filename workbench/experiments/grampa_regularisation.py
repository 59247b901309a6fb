"""GRaMPa's Figure 6 on real words: regularisation rate against each sampler's knob (notebook 07).

Bauwens et al. (GRaMPa), §5 and Figure 6. :func:`regularisation_rate` is the share of
sampled segmentations that differ from the deterministic one, against a sampler's
hyperparameter (BPE-dropout ``p_d``, ULM ``α`` at ``k = 64``, MaxMatch-dropout ``q``, GRaMPa
``τ``), sampled with a ±2 standard-error band, and exact where the sampler allows it (GRaMPa,
k-best ULM); :func:`figure6` gathers the four curves on the shipped vocabularies and
:func:`~workbench.datasets.corpora.letter_words`, :func:`regularisation_point` one value of
one of them with example segmentations. :func:`exact_dropout_rate` is BPE-dropout's exact
rate from its law (:meth:`workbench.bpe.BPESampler.law`) under a chosen semantics: under HF
``tokenizers``' (the paper's, :mod:`workbench.bpe.semantics`) it is 0.126 at ``p_d = 0.1`` on
the figure's 200 words (the paper: ≈ 0.11, :data:`PAPER_DROPOUT_RATE`), under the package's
sampler's 0.230.

Every function is pure (fixed seeds; no clock). This module implements no sampler
(:mod:`workbench.samplers`, :class:`workbench.Grampa`), does not time anything and draws
nothing (:mod:`workbench.figures.baselines` does).

Example
-------
>>> FAMILIES
('bpe-dropout', 'ulm', 'maxmatch-dropout', 'grampa')
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from .._core.errors import InvalidValueError
from .._core.validate import (
    BudgetError,
    check_budget,
    check_choice,
    check_int,
    check_probability,
    check_real,
)
from ..bpe import BPESampler
from ..bpe.semantics import check_semantics
from ..datasets.corpora import check_words, letter_words
from ..grampa import Grampa
from ..grampa.statistics import exact_statistics
from ..lattice import check_vocab
from ..samplers import MaxMatchSampler, ULMSampler
from ..vocab import Vocabulary
from .kept import kept, kept_path

__all__ = [
    "COURSE_FIGURE6",
    "ExactDropoutRate",
    "FAMILIES",
    "FIGURE6_VALUES",
    "PAPER_DROPOUT_RATE",
    "ULM_NBEST",
    "exact_dropout_rate",
    "figure6",
    "regularisation_point",
    "regularisation_rate",
]

FAMILIES = ("bpe-dropout", "ulm", "maxmatch-dropout", "grampa")
"""Sampler families of Figure 6; the first three are also the deterministic references."""

ULM_NBEST = 64
"""``k`` of stochastic ULM, as in the paper (§5.2, "Baselines"; Kudo 2018)."""

PAPER_DROPOUT_RATE = 0.11
"""GRaMPa §5.2 ("Multiplexing"): BPE-dropout's regularisation rate "p ≈ 0.11 for p_d = 0.1,
according to Figure 6 in §E" (32,768-piece BPE, SlimPajama validation words)."""

FIGURE6_VALUES: dict[str, tuple[float, ...]] = {
    "bpe-dropout": (0.0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5),
    "ulm": (0.0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1.0),
    "maxmatch-dropout": (0.0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5),
    "grampa": (0.25, 0.5, 1.0, 2.0, 5.0, 20.0, math.inf, -20.0, -5.0, -2.0, -1.0),
}
"""Default hyperparameter grid per family: ``p_d``, ``α``, ``q``, ``τ``."""

COURSE_FIGURE6 = (200, 4, 0)
"""Notebook 07's :func:`figure6` arguments ``(n_words, n_samples, seed)``: the notebook reads
them from here, ``python -m workbench warmup`` fills their kept curves (:mod:`.course_kept`)."""

# --------------------------------------------------------------------------- Figure 6
@lru_cache(maxsize=4)
def _bpe_model(vocab: Vocabulary):
    return BPESampler(vocab).model


def _sampler(family: str, vocab: Vocabulary, value: float, seed: Any):
    """The family's sampler at ``value`` drawing from ``seed``: a reseeded copy of one built
    per (family, vocabulary, value), whose tables are built once (a BPE sampler spells its
    model's tokens when built)."""
    return _built(family, vocab, float(value)).reseeded(seed)


@lru_cache(maxsize=64)
def _built(family: str, vocab: Vocabulary, value: float):
    if family == "bpe-dropout":
        return BPESampler(vocab, dropout=value, model=_bpe_model(vocab), seed=0)
    if family == "ulm":
        return ULMSampler(vocab, nbest=ULM_NBEST, alpha=value, seed=0)
    if family == "maxmatch-dropout":
        return MaxMatchSampler(vocab, dropout=value, seed=0)
    return Grampa(vocab, tau=value, seed=0)


def _reference(family: str, vocab: Vocabulary, words: list[str]) -> list[tuple[str, ...]]:
    """The deterministic segmentation of each word: BPE, ULM's Viterbi or MaxMatch (cached
    per family, vocabulary and words)."""
    return list(_references(family, vocab, tuple(words)))


@lru_cache(maxsize=16)
def _references(family: str, vocab: Vocabulary, words: tuple[str, ...]
                ) -> tuple[tuple[str, ...], ...]:
    if family == "bpe-dropout":
        sampler: Any = BPESampler(vocab, model=_bpe_model(vocab))
    elif family == "ulm":
        sampler = ULMSampler(vocab, nbest=1)
    else:
        sampler = MaxMatchSampler(vocab)
    return tuple(tuple(t) for t in sampler.tokenize_batch(list(words)))


def _check_value(family: str, value: object) -> float:
    if family == "grampa":
        return check_real(value, "tau", allow_inf=True)
    if family == "ulm":
        return check_real(value, "alpha", minimum=0.0)
    return check_real(value, "dropout", minimum=0.0, maximum=1.0)


def regularisation_rate(family: str, vocab: Vocabulary, words: Sequence[str],
                        values: Sequence[float] | None = None, *, n_samples: int = 4,
                        seed: int = 0, reference: str | None = None) -> dict[str, Any]:
    """Figure 6: the share of sampled segmentations that differ from the deterministic one.

    Every word (an occurrence: repeated words count again) is sampled ``n_samples`` times
    at every value. The band is ± 2 standard errors ``√(RR(1 − RR)/N)`` over the ``N``
    samples (conservative: independent draws with per-word rates ``p_i`` have a variance
    of at most ``N·RR(1 − RR)``).

    Parameters
    ----------
    family : {"bpe-dropout", "ulm", "maxmatch-dropout", "grampa"}
        BPE-dropout (value ``p_d``), stochastic ULM with ``k = ULM_NBEST`` (value ``α``),
        MaxMatch-dropout (value ``q``) or GRaMPa with ``ℓ_min = 1`` (value ``τ``).
    vocab : Vocabulary
        Finite; BPE and ULM need ``scores`` (merge order, log probabilities).
    words : sequence of str
        In the vocabulary's alphabet (:func:`workbench.datasets.corpora.letter_words`).
    values : sequence of float, optional
        Default :data:`FIGURE6_VALUES` ``[family]``.
    n_samples : int
        Samples per word and value.
    seed : int
        Value ``k`` samples with ``numpy.random.default_rng([seed, k])``: a point does not
        depend on the others.
    reference : str, optional
        Whose deterministic segmentation counts as "not regularised": the family itself
        (default; for GRaMPa ``"ulm"``), or one of ``"bpe-dropout"``, ``"ulm"``,
        ``"maxmatch-dropout"``.

    Returns
    -------
    dict
        ``family``, ``reference``, ``values`` and per value ``rate``, ``low``, ``high``
        (the band), ``exact`` (GRaMPa: ``1 − P_τ(reference)`` by
        :func:`workbench.grampa.statistics.exact_statistics`; ULM: ``1 − P(reference)``
        from the k-best list; NaN otherwise: BPE-dropout's exact rate, under either
        semantics, is :func:`exact_dropout_rate`); ``words``, ``n_samples``, ``seed``.

    Examples
    --------
    >>> from workbench import Vocabulary
    >>> v = Vocabulary(["a", "b", "ab"], scores=[-1.0, -1.0, -0.5])
    >>> r = regularisation_rate("grampa", v, ["abab"], [1.0], n_samples=50)
    >>> float(r["exact"][0])  # four segmentations, one is ULM's (ab, ab)
    0.75
    """
    family = check_choice(family, "family", FAMILIES)
    vocab = check_vocab(vocab)
    if vocab.is_infinite:
        raise InvalidValueError("regularisation_rate needs a finite vocabulary (the baselines have "
                                "no deterministic segmentation under the infinite one)")
    words = check_words(words, vocab)
    vals = [_check_value(family, v) for v in (FIGURE6_VALUES[family] if values is None
                                               else values)]
    if not vals:
        raise InvalidValueError("values must not be empty")
    size = check_int(n_samples, "n_samples", minimum=1, maximum=10_000)
    seed = check_int(seed, "seed", minimum=0)
    ref_family = family if reference is None and family != "grampa" else (reference or "ulm")
    ref_family = check_choice(ref_family, "reference", FAMILIES[:3])
    check_budget(len(words) * size * (1 + max(map(len, words))) * 64,
                 f"{len(words):,} words × {size} samples")
    ref = _reference(ref_family, vocab, words)
    batch = [w for w in words for _ in range(size)]
    want = [r for r in ref for _ in range(size)]
    k = len(vals)
    out: dict[str, Any] = {"family": family, "reference": ref_family,
                           "values": np.array(vals, dtype=float), "rate": np.zeros(k),
                           "exact": np.full(k, np.nan), "words": len(words),
                           "n_samples": size, "seed": seed}
    for i, value in enumerate(vals):
        sampler = _sampler(family, vocab, value, np.random.default_rng([seed, i]))
        got = sampler.tokenize_batch(batch)
        out["rate"][i] = float(np.mean([tuple(g) != w for g, w in zip(got, want)]))
        if family == "grampa":
            out["exact"][i] = float(np.mean([exact_statistics(sampler, w, reference=r)["RR"]
                                             for w, r in zip(words, ref)]))
        elif family == "ulm" and ref_family == "ulm":
            p_ref = []
            for w, r in zip(words, ref):
                segs, probs = sampler.kbest(w)
                p_ref.append(sum(p for s, p in zip(segs, probs) if s == r))
            out["exact"][i] = 1.0 - float(np.mean(p_ref))
    half = 2 * np.sqrt(out["rate"] * (1 - out["rate"]) / (len(words) * size))
    out["low"] = np.clip(out["rate"] - half, 0.0, 1.0)
    out["high"] = np.clip(out["rate"] + half, 0.0, 1.0)
    return out


def figure6(n_words: int = 200, n_samples: int = 4, seed: int = 0,
            values: Mapping[str, Sequence[float]] | None = None) -> dict[str, dict[str, Any]]:
    """Figure 6's four curves on the shipped vocabularies and
    :func:`~workbench.datasets.corpora.letter_words`.

    BPE-dropout and MaxMatch-dropout on ``bpe-8k`` (references: BPE, MaxMatch), stochastic
    ULM (``k = 64``) and GRaMPa on ``ulm-8k`` (reference: ULM's Viterbi segmentation, the
    deterministic tokeniser GRaMPa multiplexes with in §5.2). Kept on disk (:mod:`.kept`,
    keyed by the arguments, the vocabularies and the words): a fresh kernel reads the curves.
    """
    chosen = {check_choice(f, "family", FAMILIES): [float(v) for v in vals]
              for f, vals in (FIGURE6_VALUES if values is None else values).items()}
    inputs = {f: (_family_vocabulary(f), letter_words(n_words, _family_vocabulary(f)))
              for f in chosen}
    key = json.dumps([n_words, n_samples, seed, chosen,
                      {f: [v.name, list(v.tokens), v.ids.tolist(),
                           None if v.scores is None else np.asarray(v.scores).tolist(), w]
                       for f, (v, w) in inputs.items()}]).encode()

    def make() -> dict[str, dict[str, Any]]:
        out = {}
        for family, vals in chosen.items():
            vocab, words = inputs[family]
            out[family] = regularisation_rate(family, vocab, words, vals,
                                              n_samples=n_samples, seed=seed)
            out[family]["vocabulary"] = vocab.name
        return out

    kept_curves = kept(kept_path(__file__, "figure6", key),
                       lambda raw: _load_curves(raw, chosen, n_samples, seed), make,
                       _save_curves, max_bytes=_curves_limit(chosen))
    return {f: {k: v.copy() if isinstance(v, np.ndarray) else v for k, v in c.items()}
            for f, c in kept_curves.items()}  # the caller's own arrays (kept ones shared)


_CURVE_ARRAYS = ("values", "rate", "exact", "low", "high")
#: The keys of one family's curve (:func:`regularisation_rate`'s and ``vocabulary``).
_CURVE_KEYS = frozenset({*_CURVE_ARRAYS, "family", "reference", "words", "n_samples", "seed",
                         "vocabulary"})


def _curves_limit(chosen: Mapping[str, Sequence[float]]) -> int:
    """The largest JSON of :func:`figure6`'s curves at ``chosen`` (bytes, generous: five
    numbers per value and a few short fields per family)."""
    return (64 << 10) + 256 * sum(len(vals) for vals in chosen.values())


def _save_curves(curves: dict[str, dict[str, Any]]) -> bytes:
    doc = {f: {k: v.tolist() if k in _CURVE_ARRAYS else v for k, v in c.items()}
           for f, c in curves.items()}
    return json.dumps({"format": 1, "curves": doc}).encode()


def _is_number(x: object) -> bool:
    return type(x) in (int, float)


def _load_curves(raw: bytes, chosen: Mapping[str, Sequence[float]], n_samples: int,
                 seed: int) -> dict[str, dict[str, Any]] | None:
    """:func:`figure6`'s curves at ``chosen`` from their kept JSON (``None``: not those
    curves; see :func:`.kept.kept`)."""
    doc = json.loads(raw)
    if (not isinstance(doc, dict) or set(doc) != {"format", "curves"}
            or type(doc["format"]) is not int or doc["format"] != 1
            or not isinstance(doc["curves"], dict) or set(doc["curves"]) != set(chosen)):
        return None
    out = {}
    for family, c in doc["curves"].items():
        if (not isinstance(c, dict) or set(c) != _CURVE_KEYS or c["family"] != family
                or c["reference"] not in FAMILIES[:3] or not isinstance(c["vocabulary"], str)
                or type(c["words"]) is not int or c["words"] < 1
                or type(c["n_samples"]) is not int or c["n_samples"] != n_samples
                or type(c["seed"]) is not int or c["seed"] != seed
                or not all(isinstance(c[k], list) and len(c[k]) == len(chosen[family])
                           and all(map(_is_number, c[k])) for k in _CURVE_ARRAYS)):
            return None
        arrays = {k: np.array(c[k], dtype=float) for k in _CURVE_ARRAYS}
        bands = np.concatenate([arrays["rate"], arrays["low"], arrays["high"]])
        exact = arrays["exact"][~np.isnan(arrays["exact"])]
        if (not np.array_equal(arrays["values"], np.array(chosen[family], dtype=float))
                or not np.all((bands >= 0) & (bands <= 1))
                or not np.all((exact >= 0) & (exact <= 1))):
            return None
        out[family] = {**c, **arrays}
    return out


def _family_vocabulary(family: str) -> Vocabulary:
    from ..datasets import load_vocabulary

    return load_vocabulary("bpe-8k" if family in ("bpe-dropout", "maxmatch-dropout")
                           else "ulm-8k")


def regularisation_point(family: str, value: float, n_words: int = 200, n_samples: int = 4,
                         seed: int = 0, n_examples: int = 6) -> dict[str, Any]:
    """One point of :func:`figure6` (same vocabulary and words) with example segmentations.

    Returns :func:`regularisation_rate`'s dict for ``[value]`` plus ``examples``: for the
    first ``n_examples`` distinct words, ``(word, reference tokens, three sampled
    segmentations)`` at ``value`` (seeded). Cached per argument tuple (arrays read-only), so
    a panel's step back to a seen value samples nothing.
    """
    family = check_choice(family, "family", FAMILIES)
    value = _check_value(family, value)
    count = check_int(n_examples, "n_examples", minimum=0, maximum=100)
    n_words = check_int(n_words, "n_words", minimum=1)
    n_samples = check_int(n_samples, "n_samples", minimum=1, maximum=10_000)
    seed = check_int(seed, "seed", minimum=0)
    return dict(_point(family, value, n_words, n_samples, seed, count))


@lru_cache(maxsize=64)
def _point(family: str, value: float, n_words: int, n_samples: int, seed: int,
           count: int) -> dict[str, Any]:
    """:func:`regularisation_point` of checked arguments, its arrays read-only."""
    vocab = _family_vocabulary(family)
    words = letter_words(n_words, vocab)
    out = regularisation_rate(family, vocab, words, [value], n_samples=n_samples, seed=seed)
    out["vocabulary"] = vocab.name
    shown = list(dict.fromkeys(w for w in words if len(w) > 4))[:count]
    ref = _reference(out["reference"], vocab, shown)
    sampler = _sampler(family, vocab, out["values"][0], np.random.default_rng([seed, 10**6]))
    draws = sampler.tokenize_batch([w for w in shown for _ in range(3)])
    out["examples"] = tuple((w, tuple(r), tuple(map(tuple, draws[3 * k:3 * k + 3])))
                            for k, (w, r) in enumerate(zip(shown, ref)))
    for array in out.values():
        if isinstance(array, np.ndarray):
            array.flags.writeable = False
    return out


# --------------------------------------------------------------------------- exact BPE-dropout
@dataclass(frozen=True)
class ExactDropoutRate:
    """BPE-dropout's exact regularisation rate over a list of words (:func:`exact_dropout_rate`).

    ``rate`` is the mean of ``1 − P(BPE's segmentation)`` over the word occurrences whose law
    was within the budget (``words − refused`` of them); ``distinct`` laws were computed.
    """

    p: float
    semantics: str
    rate: float
    words: int
    distinct: int
    refused: int


def exact_dropout_rate(vocab: Vocabulary, words: Sequence[str], p: float = 0.1, *,
                       semantics: str = "hf") -> ExactDropoutRate:
    """Figure 6's BPE-dropout point, exactly: mean ``1 − P(deterministic)`` over ``words``.

    Each distinct word's law is :meth:`workbench.bpe.BPESampler.law` under ``semantics``
    (``"hf"``: HF ``tokenizers``, which GRaMPa's experiments used; ``"reference"``: the
    sampler :func:`regularisation_rate` samples with). A word whose law is refused by the
    budget is left out and counted (``refused``). Under ``"hf"`` a word of 13 letters takes
    up to ~1 s; the figure's 200 words (143 distinct) ~10 s.

    >>> from workbench import Vocabulary
    >>> v = Vocabulary(["a", "b", "ab"], scores=[0.0, 0.0, -1.0])
    >>> exact_dropout_rate(v, ["ab", "ab", "a"], 0.25).rate  # (1/4 + 1/4 + 0) / 3
    0.16666666666666666
    """
    vocab = check_vocab(vocab)
    words = check_words(words, vocab)
    p = check_probability(p, "p")
    semantics = check_semantics(semantics)
    sampler = BPESampler(vocab, dropout=p, model=_bpe_model(vocab), semantics=semantics)
    rates: dict[str, float] = {}
    for w in dict.fromkeys(words):
        try:
            rates[w] = float(sampler.law(w).regularisation_rate)
        except BudgetError:
            rates[w] = math.nan
    per_word = np.array([rates[w] for w in words])
    kept = per_word[~np.isnan(per_word)]
    return ExactDropoutRate(p=p, semantics=semantics,
                            rate=float(kept.mean()) if kept.size else math.nan,
                            words=len(words), distinct=len(rates),
                            refused=int(np.isnan(per_word).sum()))
