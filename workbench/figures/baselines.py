"""Notebook 07: GRaMPa's baselines on real words (GRaMPa paper §3.2, §5, App. A.1, B, Figs 6, 7, 9).

* :func:`text_words`, :func:`synthetic_words` — words of the shipped text, and long made-up
  words, spelled in a vocabulary's alphabet;
* :func:`regularisation_rate` — Figure 6: the share of samples that differ from the
  deterministic segmentation, against a sampler's hyperparameter (BPE-dropout ``p_d``,
  ULM ``α`` at ``k = 64``, MaxMatch-dropout ``q``, GRaMPa ``τ``), sampled with a ±2
  standard-error band, and exact where the sampler allows it (GRaMPa, k-best ULM);
  :func:`figure6` gathers the four curves, :func:`regularisation_point` one value of
  one of them with example segmentations;
* :func:`token_length_distribution` — Figure 7: how many types of each length;
* :func:`segmentation_fraction` — Figure 9: ``log N_V'(s) / log N_V(s)`` and
  ``log N_V'(s) / log 2^(|s|-1)`` averaged over words, for sub-vocabularies ``V'`` of
  growing size, and the second fraction per word against ``|s|``;
* :func:`unigram_demo` — Appendix A.1/B: plain Markov sampling on the unigram-weighted
  graph against the joint unigram law and the rejection sampler's samples;
* :func:`rejection_cost_words` — expected and measured trials of the Markov (safe, tight)
  and bit rejection samplers on real words as ``|s|`` grows (GRaMPa: one pass);
* ``plot_*`` — one figure per view, every data series tagged with a ``gid``.

Every compute function is pure (fixed seeds; no clock). This module implements no sampler
(:mod:`workbench.samplers`, :class:`workbench.Grampa`) and does not time anything
(``benchmarks/bench_rejection.py`` does).

Example
-------
>>> from workbench import Vocabulary
>>> d = token_length_distribution(Vocabulary(["a", "b", "ab", "abc"]))
>>> d["lengths"].tolist(), d["counts"].tolist()
([1, 2, 3], [2, 1, 1])
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from .._core.validate import check_budget, check_choice, check_int, check_real
from ..grampa import Grampa
from ..grampa.statistics import exact_statistics
from ..lattice import check_vocab, check_word, count_segmentations, walked_arcs
from ..samplers import (
    BitRejectionSampler,
    BPESampler,
    MarkovRejectionSampler,
    MaxMatchSampler,
    RejectionLimitError,
    ULMSampler,
    unigram_laws,
)
from ..stats import tv_distance, tv_sampling_bound
from ..vocab import Vocabulary
from .common import ACCENT, GREEN, GREY, LAW, PINK, SAMPLE, check_samples, tau_label

__all__ = [
    "FAMILIES",
    "FIGURE6_VALUES",
    "REJECTION_SAMPLERS",
    "ULM_NBEST",
    "figure6",
    "plot_length_distributions",
    "plot_regularisation_rates",
    "plot_rejection_words",
    "plot_segmentation_fraction",
    "plot_unigram_demo",
    "regularisation_point",
    "regularisation_rate",
    "rejection_cost_words",
    "segmentation_fraction",
    "synthetic_words",
    "text_words",
    "token_length_distribution",
    "unigram_demo",
]

FAMILIES = ("bpe-dropout", "ulm", "maxmatch-dropout", "grampa")
"""Sampler families of Figure 6; the first three are also the deterministic references."""

ULM_NBEST = 64
"""``k`` of stochastic ULM, as in the paper (§5.1, Kudo 2018)."""

FIGURE6_VALUES: dict[str, tuple[float, ...]] = {
    "bpe-dropout": (0.0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5),
    "ulm": (0.0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1.0),
    "maxmatch-dropout": (0.0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5),
    "grampa": (0.25, 0.5, 1.0, 2.0, 5.0, 20.0, math.inf, -20.0, -5.0, -2.0, -1.0),
}
"""Default hyperparameter grid per family: ``p_d``, ``α``, ``q``, ``τ``."""

MAX_WORDS = 100_000
"""Largest number of words one compute function takes."""

REJECTION_SAMPLERS = ("markov-safe", "markov-tight", "bit")
"""The rejection samplers of :func:`rejection_cost_words`."""

_WORD = re.compile(r"[A-Za-z]+")
_SPACED = ("sentencepiece", "byte-level")
_TEXT_SKIP = 2_000  # the first words of the shipped text are a title page and a cast list


# --------------------------------------------------------------------------- words
def _spell(words: Iterable[str], vocab: Vocabulary) -> list[str]:
    prefix = " " if vocab.alphabet in _SPACED else ""
    return [vocab.to_alphabet(prefix + w) for w in words]


@lru_cache(maxsize=1)
def _text_words() -> tuple[str, ...]:
    from ..datasets import load_text

    text = load_text("shakespeare")
    return tuple(m.group() for m in _WORD.finditer(text, 0, min(len(text), 2_000_000)))


def text_words(n_words: int, vocab: Vocabulary, *, offset: int = 0) -> list[str]:
    """``n_words`` consecutive words of the shipped Shakespeare text, spelled for ``vocab``.

    Words are the runs of ASCII letters (``[A-Za-z]+``), in running order (so frequent
    words repeat, as in the paper's validation set), starting ``offset`` words after the
    title page. Under the ``sentencepiece`` and ``byte-level`` alphabets each word gets the
    leading space a word has inside a sentence (``"▁knows"``).

    >>> from workbench import Vocabulary
    >>> text_words(3, Vocabulary.infinite())
    ['me', 'But', 'my']
    """
    n_words = check_int(n_words, "n_words", minimum=1, maximum=MAX_WORDS)
    offset = check_int(offset, "offset", minimum=0, maximum=MAX_WORDS)
    vocab = check_vocab(vocab)
    words = _text_words()[_TEXT_SKIP + offset:_TEXT_SKIP + offset + n_words]
    return _spell(words, vocab)


def synthetic_words(length: int, count: int, vocab: Vocabulary, *, seed: int = 0) -> list[str]:
    """``count`` made-up words of exactly ``length`` characters (spelled, marker included).

    Frequent English words (the 2,000 most frequent, letters only) are glued together at
    random and cut to length: long, realistic letter sequences where real words run out.
    Deterministic for a seed.

    >>> from workbench import Vocabulary
    >>> [len(w) for w in synthetic_words(30, 2, Vocabulary.infinite())]
    [30, 30]
    """
    from ..datasets import english_words

    length = check_int(length, "length", minimum=1, maximum=4096)
    count = check_int(count, "count", minimum=1, maximum=MAX_WORDS)
    seed = check_int(seed, "seed", minimum=0)
    vocab = check_vocab(vocab)
    pool = [w for w in english_words(3000) if w.isascii() and w.isalpha()][:2000]
    rng = np.random.default_rng([seed, length])
    marker = len(_spell([""], vocab)[0])
    out = []
    for _ in range(count):
        body = ""
        while len(body) < length - marker:
            body += pool[int(rng.integers(len(pool)))]
        out.append(_spell([body[:max(length - marker, 0)]], vocab)[0][:length])
    return out


def _check_words(words: object, vocab: Vocabulary) -> list[str]:
    if isinstance(words, str):
        raise TypeError("words must be a sequence of str, not one str")
    out = [check_word(w) for w in words]  # type: ignore[union-attr]
    if not out:
        raise ValueError("words must not be empty")
    if len(out) > MAX_WORDS:
        raise ValueError(f"at most {MAX_WORDS:,} words, got {len(out):,}")
    check_budget(sum(map(len, out)) * 64, f"{len(out):,} words")
    return out


# --------------------------------------------------------------------------- Figure 6
@lru_cache(maxsize=4)
def _bpe_model(vocab: Vocabulary):
    return BPESampler(vocab).model


def _sampler(family: str, vocab: Vocabulary, value: float, seed: Any):
    if family == "bpe-dropout":
        return BPESampler(vocab, dropout=value, model=_bpe_model(vocab), seed=seed)
    if family == "ulm":
        return ULMSampler(vocab, nbest=ULM_NBEST, alpha=value, seed=seed)
    if family == "maxmatch-dropout":
        return MaxMatchSampler(vocab, dropout=value, seed=seed)
    return Grampa(vocab, tau=value, seed=seed)


def _reference(family: str, vocab: Vocabulary, words: list[str]) -> list[tuple[str, ...]]:
    """The deterministic segmentation of each word: BPE, ULM's Viterbi or MaxMatch."""
    if family == "bpe-dropout":
        sampler: Any = BPESampler(vocab, model=_bpe_model(vocab))
    elif family == "ulm":
        sampler = ULMSampler(vocab, nbest=1)
    else:
        sampler = MaxMatchSampler(vocab)
    return [tuple(t) for t in sampler.tokenize(words)]


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
        In the vocabulary's alphabet (:func:`text_words`).
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
        from the k-best list; NaN otherwise); ``words``, ``n_samples``, ``seed``.

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
        raise ValueError("regularisation_rate needs a finite vocabulary (the baselines have "
                         "no deterministic segmentation under the infinite one)")
    words = _check_words(words, vocab)
    vals = [_check_value(family, v) for v in (FIGURE6_VALUES[family] if values is None
                                               else values)]
    if not vals:
        raise ValueError("values must not be empty")
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
        got = sampler.tokenize(batch)
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
    """Figure 6's four curves on the shipped vocabularies and :func:`text_words`.

    BPE-dropout and MaxMatch-dropout on ``bpe-8k`` (references: BPE, MaxMatch), stochastic
    ULM (``k = 64``) and GRaMPa on ``ulm-8k`` (reference: ULM's Viterbi segmentation, the
    deterministic tokeniser GRaMPa multiplexes with in §5.2).
    """
    chosen = dict(FIGURE6_VALUES if values is None else values)
    out = {}
    for family, vals in chosen.items():
        vocab = _family_vocabulary(check_choice(family, "family", FAMILIES))
        out[family] = regularisation_rate(family, vocab, text_words(n_words, vocab), vals,
                                          n_samples=n_samples, seed=seed)
        out[family]["vocabulary"] = vocab.name
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
    segmentations)`` at ``value`` (seeded).
    """
    family = check_choice(family, "family", FAMILIES)
    vocab = _family_vocabulary(family)
    words = text_words(n_words, vocab)
    out = regularisation_rate(family, vocab, words, [value], n_samples=n_samples, seed=seed)
    out["vocabulary"] = vocab.name
    count = check_int(n_examples, "n_examples", minimum=0, maximum=100)
    shown = list(dict.fromkeys(w for w in words if len(w) > 4))[:count]
    ref = _reference(out["reference"], vocab, shown)
    sampler = _sampler(family, vocab, out["values"][0], np.random.default_rng([seed, 10**6]))
    draws = sampler.tokenize([w for w in shown for _ in range(3)])
    out["examples"] = [(w, list(r), draws[3 * k:3 * k + 3])
                       for k, (w, r) in enumerate(zip(shown, ref))]
    return out


_XLABEL = {"bpe-dropout": "dropout p_d", "ulm": f"smoothing α (k = {ULM_NBEST})",
           "maxmatch-dropout": "dropout q", "grampa": "−1/τ (skew towards longer tokens →)"}


def _sparse_labels(taus: np.ndarray, gap: float = 0.07) -> list[str]:
    """τ tick labels along −1/τ, blank within ``gap`` × the axis span of one already kept
    (±∞ first).

    >>> _sparse_labels(np.array([1.0, 20.0, np.inf, -20.0, -1.0]))
    ['1', '', '±∞', '', '−1']
    """
    xs = 0.0 - 1.0 / taus
    gap = gap * float(xs.max() - xs.min())
    kept: list[float] = []
    labels = [""] * len(taus)
    for k in sorted(range(len(taus)), key=lambda k: (xs[k] != 0.0, k)):
        if all(abs(xs[k] - x) >= gap for x in kept):
            kept.append(xs[k])
            labels[k] = tau_label(taus[k])
    return labels


def plot_regularisation_rates(curves: Mapping[str, Mapping[str, Any]],
                              point: Mapping[str, Any] | None = None) -> Figure:
    """One panel per family: sampled rate with its band, exact rate as a line, 50 % guide.

    GRaMPa's panel is drawn along ``−1/τ`` (footnote 10's order) with τ as tick labels.
    ``point`` (from :func:`regularisation_point`) is marked on its family's panel.
    Gids: ``rr-<family>`` (sampled points), ``rr-band-<family>``, ``rr-exact-<family>``,
    ``rr-point``.
    """
    fig = Figure(figsize=(3.3 * max(len(curves), 1), 3.6), layout="constrained")
    axes = fig.subplots(1, max(len(curves), 1), squeeze=False).ravel()
    for ax, (family, c) in zip(axes, curves.items()):
        x = np.asarray(c["values"], dtype=float)
        if family == "grampa":
            x = np.array([0.0 - 1.0 / v if v != 0 else 0.0 for v in x])
        order = np.argsort(x, kind="stable")
        xs = x[order]
        ax.fill_between(xs, np.asarray(c["low"])[order], np.asarray(c["high"])[order],
                        color=SAMPLE, alpha=0.25, linewidth=0, gid=f"rr-band-{family}")
        ax.plot(xs, np.asarray(c["rate"])[order], color=SAMPLE, marker="o", markersize=4,
                label=f"sampled ({c['words']} words × {c['n_samples']})", gid=f"rr-{family}")
        exact = np.asarray(c["exact"], dtype=float)[order]
        if np.isfinite(exact).any():
            ax.plot(xs, exact, color=LAW, linewidth=1.2, label="exact",
                    gid=f"rr-exact-{family}")
        ax.axhline(0.5, color=GREY, linestyle=":", linewidth=1)
        if point is not None and point["family"] == family:
            v = float(point["values"][0])
            ax.plot([0.0 - 1.0 / v if family == "grampa" else v], point["rate"], color=PINK,
                    marker="D", markersize=8, linestyle="none", gid="rr-point",
                    label=f"this value: {point['rate'][0]:.3f}")
        if family == "grampa":
            taus = np.asarray(c["values"], float)
            ax.set_xticks(0.0 - 1.0 / taus)
            ax.set_xticklabels(_sparse_labels(taus), fontsize=7)
        name = c.get("vocabulary") or ""
        ax.set(title=f"{family} ({name})" if name else family, xlabel=_XLABEL[family],
               ylabel=f"regularisation rate vs {c['reference']}", ylim=(-0.02, 1.02))
        ax.legend(fontsize=7)
    return fig


# --------------------------------------------------------------------------- Figure 7
_MARKERS = ("\u2581", "\u0120")  # ▁ (SentencePiece) and Ġ (byte-level)


def token_length_distribution(vocab: Vocabulary, *, without_marker: bool = False
                              ) -> dict[str, Any]:
    """Figure 7: the number of token types of each length (in characters as spelled).

    Parameters
    ----------
    vocab : Vocabulary
        Finite.
    without_marker : bool
        Do not count a leading word-boundary marker (``▁`` or ``Ġ``); a token that is only
        the marker then has length 0.

    Returns
    -------
    dict
        ``name``, ``lengths`` (every length from the shortest to the longest), ``counts``
        (summing to ``|V|``), ``share`` (summing to 1), ``mean``, ``size``.
    """
    vocab = check_vocab(vocab)
    if vocab.is_infinite:
        raise ValueError("the infinite vocabulary has no finite length distribution")
    if not isinstance(without_marker, bool):
        raise TypeError("without_marker must be a bool")
    if len(vocab) == 0:
        raise ValueError("the vocabulary is empty")
    lens = np.fromiter((len(t) - (without_marker and t[:1] in _MARKERS) for t in vocab.tokens),
                       dtype=np.int64, count=len(vocab))
    lo, hi = int(lens.min()), int(lens.max())
    counts = np.bincount(lens - lo, minlength=hi - lo + 1)
    return {"name": vocab.name or "vocabulary", "lengths": np.arange(lo, hi + 1),
            "counts": counts, "share": counts / counts.sum(), "mean": float(lens.mean()),
            "size": len(vocab), "without_marker": without_marker}


def plot_length_distributions(dists: Sequence[Mapping[str, Any]]) -> Figure:
    """Grouped bars of :func:`token_length_distribution` results (share of types).

    Gids: ``lengths-<k>`` for the ``k``-th distribution (bar heights = shares).
    """
    fig = Figure(figsize=(7, 3.6), layout="constrained")
    ax = fig.subplots()
    width = 0.8 / max(len(dists), 1)
    colours = [SAMPLE, ACCENT, GREEN, PINK, GREY]
    for k, d in enumerate(dists):
        ax.bar(np.asarray(d["lengths"]) + (k - (len(dists) - 1) / 2) * width, d["share"],
               width=width, color=colours[k % len(colours)], gid=f"lengths-{k}",
               label=f"{d['name']} (|V| = {d['size']:,}, mean {d['mean']:.2f})")
    marker = " (marker not counted)" if dists and dists[0]["without_marker"] else ""
    ax.set(xlabel=f"token length in characters{marker}", ylabel="share of types",
           title="Figure 7: token lengths of the vocabulary")
    ax.legend(fontsize=8)
    return fig


# --------------------------------------------------------------------------- Figure 9
def _ranks(vocab: Vocabulary) -> tuple[dict[str, int], int]:
    """Rank of every multi-character token (by descending score, ties by id; no scores: by
    id) and the number of single-character tokens, which every sub-vocabulary keeps."""
    keys = (-vocab.scores if vocab.scores is not None else np.zeros(len(vocab)), vocab.ids)
    order = np.lexsort(keys[::-1])
    multi = [vocab.tokens[k] for k in order.tolist() if len(vocab.tokens[k]) > 1]
    return {t: r for r, t in enumerate(multi)}, len(vocab) - len(multi)


def _log_counts(n: int, arcs: list[tuple[int, int, int]], limits: Sequence[int]) -> list[float]:
    """``ln`` of the number of paths ``0 → n`` using arcs of rank < limit, per limit."""
    out = []
    for limit in limits:
        c = [1] + [0] * n
        for i, j, r in arcs:  # sorted by i
            if r < limit:
                c[j] += c[i]
        out.append(math.log(c[n]) if c[n] else -math.inf)
    return out


def segmentation_fraction(vocab: Vocabulary, words: Sequence[str],
                          sizes: Sequence[int] | None = None) -> dict[str, Any]:
    """Figure 9: how much of the maximal log-number of segmentations a vocabulary allows.

    For sub-vocabularies ``V'`` of ``V`` — every single character of ``V`` plus its
    ``|V'| − #characters`` highest-ranked longer tokens (by score, as BPE's merge order or
    ULM's log probability; by id without scores) — and every word ``s``:

    * (a) ``log N_V'(s) / log N_V(s)``, averaged over words with ``N_V(s) > 1``;
    * (b) ``log N_V'(s) / log 2^(|s|-1)`` (relative to the infinite vocabulary), averaged
      over words with ``|s| > 1``.

    A word that ``V'`` cannot segment counts as 0. Words ``V`` cannot segment are skipped.
    The per-word fraction (b) at ``V' = V`` is also returned, to plot against ``|s|``.
    Under the infinite vocabulary (b) is 1 for every word and there are no sub-vocabularies.

    Returns
    -------
    dict
        ``sizes``, ``relative_to_vocab`` (a), ``relative_to_infinite`` (b), ``words_a``,
        ``words_b`` (how many words each mean is over), ``lengths`` and ``fraction`` (per
        word, (b) at ``V``), ``skipped`` (unsegmentable words), ``name``.

    Examples
    --------
    >>> from workbench import Vocabulary
    >>> r = segmentation_fraction(Vocabulary.infinite(), ["abc", "abcd"])
    >>> r["fraction"].tolist()
    [1.0, 1.0]
    """
    vocab = check_vocab(vocab)
    words = _check_words(words, vocab)
    if vocab.is_infinite:
        kept = [w for w in words if len(w) > 1]
        return {"sizes": np.zeros(0, dtype=np.int64), "relative_to_vocab": np.zeros(0),
                "relative_to_infinite": np.zeros(0), "words_a": 0, "words_b": len(kept),
                "lengths": np.array([len(w) for w in kept], dtype=np.int64),
                "fraction": np.ones(len(kept)), "skipped": 0, "name": "infinite"}
    rank, n_chars = _ranks(vocab)
    if sizes is None:
        grid = np.geomspace(max(n_chars, 1), len(vocab), 12).round().astype(np.int64)
        sizes = sorted(set(grid.tolist()) | {n_chars, len(vocab)})
    sizes = [check_int(s, "size", minimum=n_chars, maximum=len(vocab)) for s in sizes]
    limits = [s - n_chars for s in sizes] + [len(rank)]
    rel_a, rel_b, lengths, fraction, skipped = [], [], [], [], 0
    for w in words:
        arcs, _ = walked_arcs(w, vocab)
        ranked = [(i, j, rank.get(w[i:j], -1)) for i, j in arcs]
        logs = _log_counts(len(w), ranked, limits)
        full = logs[-1]
        if full == -math.inf:
            skipped += 1
            continue
        per = [max(x, 0.0) if x > -math.inf else 0.0 for x in logs[:-1]]
        if full > 0:
            rel_a.append([x / full for x in per])
        if len(w) > 1:
            top = (len(w) - 1) * math.log(2)
            rel_b.append([x / top for x in per])
            lengths.append(len(w))
            fraction.append(full / top)
    k = len(sizes)
    return {"sizes": np.array(sizes, dtype=np.int64),
            "relative_to_vocab": np.mean(rel_a, axis=0) if rel_a else np.full(k, np.nan),
            "relative_to_infinite": np.mean(rel_b, axis=0) if rel_b else np.full(k, np.nan),
            "words_a": len(rel_a), "words_b": len(rel_b),
            "lengths": np.array(lengths, dtype=np.int64), "fraction": np.array(fraction),
            "skipped": skipped, "name": vocab.name or "vocabulary"}


def plot_segmentation_fraction(results: Sequence[Mapping[str, Any]]) -> Figure:
    """Figure 9 (a), (b) against ``|V'|`` and the per-word fraction (b) against ``|s|``.

    Gids: ``fraction-a-<k>``, ``fraction-b-<k>`` (curves), ``fraction-words-<k>`` (per-word
    points) and ``fraction-mean-<k>`` (mean per length) for the ``k``-th result.
    """
    fig = Figure(figsize=(12, 3.8), layout="constrained")
    ax_a, ax_b, ax_w = fig.subplots(1, 3)
    colours = [SAMPLE, ACCENT, GREEN, PINK]
    for k, r in enumerate(results):
        col = colours[k % len(colours)]
        if len(r["sizes"]):
            ax_a.semilogx(r["sizes"], r["relative_to_vocab"], color=col, marker="o",
                          markersize=3, label=f"{r['name']} ({r['words_a']} words)",
                          gid=f"fraction-a-{k}")
            ax_b.semilogx(r["sizes"], r["relative_to_infinite"], color=col, marker="o",
                          markersize=3, label=f"{r['name']} ({r['words_b']} words)",
                          gid=f"fraction-b-{k}")
        lengths, frac = np.asarray(r["lengths"]), np.asarray(r["fraction"])
        ax_w.scatter(lengths + 0.15 * (k - (len(results) - 1) / 2), frac, s=6, alpha=0.35,
                     color=col, gid=f"fraction-words-{k}")
        if lengths.size:
            ls = np.unique(lengths)
            ax_w.plot(ls, [frac[lengths == x].mean() for x in ls], color=col,
                      label=f"{r['name']}: mean per length", gid=f"fraction-mean-{k}")
    ax_a.set(title="(a) relative to the full vocabulary", xlabel="|V'|",
             ylabel="mean log N_V'(s) / log N_V(s)", ylim=(0, 1.05))
    ax_b.set(title="(b) relative to the infinite vocabulary", xlabel="|V'|",
             ylabel="mean log N_V'(s) / log 2^(|s|−1)", ylim=(0, 1.05))
    ax_w.set(title="per word, V' = V", xlabel="|s| (characters as spelled)",
             ylabel="log N_V(s) / log 2^(|s|−1)", ylim=(0, 1.05))
    for ax in (ax_a, ax_b, ax_w):
        ax.legend(fontsize=7)
    return fig


# --------------------------------------------------------------------------- App. A.1, B
def unigram_demo(word: str, vocab: Vocabulary, n_samples: int = 20_000, seed: int = 0
                 ) -> dict[str, Any]:
    """Appendix A.1/B on one word: Markov on the unigram graph vs the joint, and App. B's samples.

    Parameters
    ----------
    word : str
        In the vocabulary's alphabet, with at most 20,000 segmentations.
    vocab : Vocabulary
        Finite, with log-probability scores (``ulm-8k``).
    n_samples, seed
        Samples of :class:`workbench.UnigramRejectionSampler`.

    Returns
    -------
    dict
        ``tokens`` (every segmentation), exact ``joint``, ``markov`` (plain walk, Eq. 51)
        and ``rejection`` (App. B, equal to ``joint``) laws; ``sampled`` (frequencies of the
        samples); ``tv_markov`` = TV(markov, joint), ``tv_sampled`` = TV(sampled, joint),
        ``tv_bound`` (:func:`workbench.stats.tv_sampling_bound` at δ = 10⁻⁶);
        ``mean_trials`` and ``expected_trials`` of the rejection sampler.
    """
    from ..samplers import UnigramRejectionSampler

    vocab = check_vocab(vocab)
    word = check_word(word)
    size = check_samples(n_samples)
    seed = check_int(seed, "seed", minimum=0)
    rows = unigram_laws(word, vocab)
    sampler = UnigramRejectionSampler(vocab, seed=seed)
    index = {r["tokens"]: k for k, r in enumerate(rows)}
    counts = np.zeros(len(rows))
    for seg in sampler.sample_many(word, size):
        counts[index[tuple(seg)]] += 1
    joint = np.array([r["joint"] for r in rows])
    markov = np.array([r["markov"] for r in rows])
    sampled = counts / size
    return {"word": word, "tokens": [r["tokens"] for r in rows], "joint": joint,
            "markov": markov, "rejection": np.array([r["rejection"] for r in rows]),
            "sampled": sampled, "tv_markov": tv_distance(markov, joint),
            "tv_sampled": tv_distance(sampled, joint),
            "tv_bound": tv_sampling_bound(len(rows), size),
            "mean_trials": float(sampler.last_trials.mean()),
            "expected_trials": sampler.expected_trials(word), "n_samples": size, "seed": seed}


def plot_unigram_demo(demo: Mapping[str, Any], top: int = 16) -> Figure:
    """The ``top`` most probable segmentations (by the joint): three bars each.

    Gids: ``joint``, ``markov``, ``sampled`` (bar heights, in the plotted order).
    """
    top = check_int(top, "top", minimum=1)
    order = np.argsort(-np.asarray(demo["joint"]), kind="stable")[:top]
    x = np.arange(order.size)
    fig = Figure(figsize=(max(6.0, 0.55 * order.size + 2), 4.2), layout="constrained")
    ax = fig.subplots()
    for k, (key, colour, label) in enumerate((
            ("joint", LAW, "joint unigram law Π P(t) (ULM)"),
            ("markov", ACCENT, f"plain Markov walk (A.1), TV = {demo['tv_markov']:.3f}"),
            ("sampled", SAMPLE, f"App. B rejection, {demo['n_samples']:,} samples, "
                                f"TV = {demo['tv_sampled']:.3f}"))):
        ax.bar(x + (k - 1) * 0.27, np.asarray(demo[key])[order], width=0.27, color=colour,
               label=label, gid=key)
    ax.set_xticks(x)
    ax.set_xticklabels([" | ".join(demo["tokens"][k]) for k in order], rotation=60,
                       ha="right", fontsize=7)
    ax.set(ylabel="probability", title=f"Segmentations of {demo['word']!r}")
    ax.legend(fontsize=8)
    return fig


# --------------------------------------------------------------------------- rejection cost
def _rejection_sampler(name: str, vocab: Vocabulary, max_trials: int, seed: Any):
    if name == "bit":
        return BitRejectionSampler(vocab, max_trials=max_trials, seed=seed)
    return MarkovRejectionSampler(vocab, epsilon=name.split("-")[1], max_trials=max_trials,
                                  seed=seed)


def _words_of_length(vocab: Vocabulary, length: int, count: int, seed: int,
                     pool: Sequence[str]) -> list[str]:
    """The first ``count`` segmentable words of ``pool`` with ``length`` characters, topped up
    with :func:`synthetic_words`."""
    real = []
    for s in pool:
        if len(real) == count:
            break
        if len(s) == length and count_segmentations(s, vocab) > 0:
            real.append(s)
    if len(real) < count:
        real += synthetic_words(length, count - len(real), vocab, seed=seed)
    return real


def rejection_cost_words(vocab: Vocabulary, lengths: Iterable[int] = range(2, 31),
                         words_per_length: int = 5, n_samples: int = 20, seed: int = 0,
                         trial_budget: int = 200_000) -> dict[str, Any]:
    """Trials per sample of the rejection samplers on real words as ``|s|`` grows.

    For every length: ``words_per_length`` of the most frequent English words of that
    length as spelled for ``vocab`` (marker included), topped up with
    :func:`synthetic_words` where real words run out. Per sampler of
    :data:`REJECTION_SAMPLERS`: the exact expected trials per sample of each word
    (``expected_trials``), and the mean measured trials over ``n_samples`` samples of each
    word whose expected total ``n_samples · E[T]`` fits ``trial_budget`` (NaN where no word
    does; each sample is also guarded at ``trial_budget`` trials). GRaMPa needs one pass
    for any word.

    Returns
    -------
    dict
        ``lengths``; ``words`` (list per length); ``n_segmentations`` (median ``N_V(s)``);
        per sampler ``<name>_expected`` (median over words), ``<name>_expected_max``,
        ``<name>_measured`` (mean over measured samples) and ``<name>_words_measured``.
    """
    vocab = check_vocab(vocab)
    lens = [check_int(x, "length", minimum=1, maximum=256) for x in lengths]
    if not lens:
        raise ValueError("lengths must not be empty")
    count = check_int(words_per_length, "words_per_length", minimum=1, maximum=1000)
    size = check_int(n_samples, "n_samples", minimum=1, maximum=10**6)
    seed = check_int(seed, "seed", minimum=0)
    budget = check_int(trial_budget, "trial_budget", minimum=1, maximum=10**9)
    k = len(lens)
    out: dict[str, Any] = {"lengths": np.array(lens, dtype=np.int64), "words": [],
                           "n_segmentations": np.zeros(k)}
    for name in REJECTION_SAMPLERS:
        for col in ("expected", "expected_max", "measured"):
            out[f"{name}_{col}"] = np.full(k, np.nan)
        out[f"{name}_words_measured"] = np.zeros(k, dtype=np.int64)
    from ..datasets import english_words

    pool = [] if vocab.is_infinite else _spell(english_words(30_000), vocab)
    for i, n in enumerate(lens):
        words = (synthetic_words(n, count, vocab, seed=seed) if vocab.is_infinite
                 else _words_of_length(vocab, n, count, seed, pool))
        out["words"].append(words)
        out["n_segmentations"][i] = float(np.median([count_segmentations(w, vocab)
                                                     for w in words]))
        for s, name in enumerate(REJECTION_SAMPLERS):
            sampler = _rejection_sampler(name, vocab, budget,
                                         np.random.default_rng([seed, n, s]))
            expected = [sampler.expected_trials(w) for w in words]
            out[f"{name}_expected"][i] = float(np.median(expected))
            out[f"{name}_expected_max"][i] = float(np.max(expected))
            trials = []
            for w, e in zip(words, expected):
                if e * size <= budget:
                    try:
                        sampler.sample_lengths(w, size)
                    except RejectionLimitError:  # P < e^-size: that word is left out
                        continue
                    trials.extend(sampler.last_trials.tolist())
                    out[f"{name}_words_measured"][i] += 1
            if trials:
                out[f"{name}_measured"][i] = float(np.mean(trials))
    out.update({"words_per_length": count, "n_samples": size, "seed": seed,
                "trial_budget": budget, "name": vocab.name or "infinite"})
    return out


def plot_rejection_words(table: Mapping[str, Any]) -> Figure:
    """Expected (median, and max as a thin line) and measured trials per sample vs ``|s|``.

    Gids: ``expected-<name>``, ``expected-max-<name>``, ``measured-<name>``, ``grampa``.
    """
    fig = Figure(figsize=(7, 4.2), layout="constrained")
    ax = fig.subplots()
    x = np.asarray(table["lengths"])
    for name, colour in zip(REJECTION_SAMPLERS, (ACCENT, PINK, SAMPLE)):
        ax.semilogy(x, table[f"{name}_expected"], color=colour,
                    label=f"{name}: expected (median over words)", gid=f"expected-{name}")
        ax.semilogy(x, table[f"{name}_expected_max"], color=colour, linewidth=0.7,
                    linestyle=":", gid=f"expected-max-{name}")
        ax.semilogy(x, table[f"{name}_measured"], color=colour, linestyle="none", marker="o",
                    markersize=3, gid=f"measured-{name}")
    ax.semilogy(x, np.ones(x.size), color=GREEN, linewidth=2, label="GRaMPa: one pass",
                gid="grampa")
    ax.set(xlabel="|s| (characters as spelled)", ylabel="trials per sample (log scale)",
           title=f"Rejection cost on real words ({table['name']}); dots: measured, "
                 "dotted: worst word")
    ax.set_ylim(0.5, None)
    ax.legend(fontsize=8)
    return fig

