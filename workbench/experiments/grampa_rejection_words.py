"""GRaMPa App. A.1, A.5, B on real words: rejection samplers against exact laws (notebook 07).

* :func:`unigram_demo` — Appendix A.1/B: plain Markov sampling on the unigram-weighted
  graph against the joint unigram law and the rejection sampler's samples;
  :func:`top_segmentations` — the most probable of its segmentations;
* :func:`rejection_cost_words` — expected and measured trials of the Markov (safe, tight)
  and bit rejection samplers on real words as ``|s|`` grows (GRaMPa: one pass).

Every function is pure (fixed seeds; no clock), so its results are cached: a demo per
(word, vocabulary, samples, seed; its arrays read-only), a row of the rejection cost per
length, so a panel's step back to a seen setting samples nothing. This module implements no
sampler (:mod:`workbench.samplers`), draws nothing (:mod:`workbench.figures.rejection_words` does)
and does not time anything (``benchmarks/bench_rejection.py`` does); the words come from
:mod:`workbench.datasets.corpora`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from .._core.errors import InvalidValueError
from .._core.validate import check_int, check_samples
from ..datasets.corpora import spell_words, synthetic_words
from ..lattice import check_vocab, check_word, count_segmentations
from ..samplers import (
    BitRejectionSampler,
    MarkovRejectionSampler,
    RejectionLimitError,
    unigram_laws,
)
from ..stats import tv_distance, tv_sampling_bound
from ..vocab import Vocabulary

__all__ = ["REJECTION_SAMPLERS", "rejection_cost_words", "top_segmentations", "unigram_demo"]

REJECTION_SAMPLERS = ("markov-safe", "markov-tight", "bit")
"""The rejection samplers of :func:`rejection_cost_words`."""


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
        ``mean_trials`` and ``expected_trials`` of the rejection sampler; ``order``, every
        segmentation's index by the joint, most probable first (:func:`top_segmentations`).
    """
    vocab = check_vocab(vocab)
    word = check_word(word)
    size = check_samples(n_samples)
    seed = check_int(seed, "seed", minimum=0)
    return dict(_unigram_demo(word, vocab, size, seed))


@lru_cache(maxsize=32)
def _unigram_demo(word: str, vocab: Vocabulary, size: int, seed: int) -> dict[str, Any]:
    """:func:`unigram_demo` of checked arguments, cached, its arrays read-only."""
    from ..samplers import UnigramRejectionSampler

    rows = unigram_laws(word, vocab)
    sampler = UnigramRejectionSampler(vocab, seed=seed)
    index = {r["tokens"]: k for k, r in enumerate(rows)}
    counts = np.zeros(len(rows))
    for seg in sampler.sample_many(word, size):
        counts[index[tuple(seg)]] += 1
    joint = np.array([r["joint"] for r in rows])
    markov = np.array([r["markov"] for r in rows])
    sampled = counts / size
    demo = {"word": word, "tokens": [r["tokens"] for r in rows], "joint": joint,
            "markov": markov, "rejection": np.array([r["rejection"] for r in rows]),
            "sampled": sampled, "tv_markov": tv_distance(markov, joint),
            "tv_sampled": tv_distance(sampled, joint),
            "tv_bound": tv_sampling_bound(len(rows), size),
            "mean_trials": float(sampler.last_trials.mean()),
            "expected_trials": sampler.expected_trials(word), "n_samples": size, "seed": seed}
    demo["order"] = top_segmentations(demo, max(len(rows), 1))
    for value in demo.values():
        if isinstance(value, np.ndarray):
            value.flags.writeable = False
    return demo


def top_segmentations(demo: Mapping[str, Any], top: int = 16) -> np.ndarray:
    """Indices of the ``top`` most probable segmentations of :func:`unigram_demo` by the joint.

    Parameters
    ----------
    demo : mapping
        A result of :func:`unigram_demo` (only ``joint`` is read).
    top : int
        How many, ``>= 1`` (fewer if the word has fewer segmentations).

    Returns
    -------
    numpy.ndarray
        Indices into ``demo["tokens"]``, most probable first (ties in enumeration order).
    """
    top = check_int(top, "top", minimum=1)
    return np.argsort(-np.asarray(demo["joint"]), kind="stable")[:top]


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


@lru_cache(maxsize=4)
def _spelled_pool(vocab: Vocabulary) -> tuple[str, ...]:
    """The 30,000 most frequent English words spelled for ``vocab`` (cached per vocabulary)."""
    from ..datasets import english_words

    return tuple(spell_words(english_words(30_000), vocab))


@lru_cache(maxsize=256)
def _cost_row(vocab: Vocabulary, n: int, count: int, size: int, seed: int, budget: int
              ) -> tuple[tuple[str, ...], float, tuple[tuple[float, float, float, int], ...]]:
    """One length of :func:`rejection_cost_words` (it depends on no other length), cached:
    the words, the median ``N_V(s)`` and per sampler (median and max expected trials, mean
    measured trials or NaN, words measured)."""
    words = (synthetic_words(n, count, vocab, seed=seed) if vocab.is_infinite
             else _words_of_length(vocab, n, count, seed, list(_spelled_pool(vocab))))
    per_sampler = []
    for s, name in enumerate(REJECTION_SAMPLERS):
        sampler = _rejection_sampler(name, vocab, budget, np.random.default_rng([seed, n, s]))
        expected = [sampler.expected_trials(w) for w in words]
        trials, measured = [], 0
        for w, e in zip(words, expected):
            if e * size <= budget:
                try:
                    sampler.sample_lengths(w, size)
                except RejectionLimitError:  # P < e^-size: that word is left out
                    continue
                trials.extend(sampler.last_trials.tolist())
                measured += 1
        per_sampler.append((float(np.median(expected)), float(np.max(expected)),
                            float(np.mean(trials)) if trials else float("nan"), measured))
    return (tuple(words), float(np.median([count_segmentations(w, vocab) for w in words])),
            tuple(per_sampler))


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
        raise InvalidValueError("lengths must not be empty")
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
    for i, n in enumerate(lens):
        words, n_segmentations, per_sampler = _cost_row(vocab, n, count, size, seed, budget)
        out["words"].append(list(words))
        out["n_segmentations"][i] = n_segmentations
        for name, (expected, expected_max, measured, n_measured) in zip(REJECTION_SAMPLERS,
                                                                        per_sampler):
            out[f"{name}_expected"][i] = expected
            out[f"{name}_expected_max"][i] = expected_max
            out[f"{name}_measured"][i] = measured
            out[f"{name}_words_measured"][i] = n_measured
    out.update({"words_per_length": count, "n_samples": size, "seed": seed,
                "trial_budget": budget, "name": vocab.name or "infinite"})
    return out
