"""How a vocabulary shapes the segmentation space (GRaMPa paper §6, Figures 7 and 9; notebook 07).

* :func:`token_length_distribution` — Figure 7: how many types of each length;
* :func:`segmentation_fraction` — Figure 9: ``log N_V'(s) / log N_V(s)`` and
  ``log N_V'(s) / log 2^(|s|-1)`` averaged over words, for sub-vocabularies ``V'`` of
  growing size, and the second fraction per word against ``|s|``.

Pure functions of a vocabulary and words (a word's log-counts are cached per vocabulary and
sub-vocabulary sizes, so a panel step recomputes only words it has not seen); this module
samples nothing (the words come from :mod:`workbench.datasets.corpora`) and draws nothing
(:mod:`workbench.figures.vocabulary_shape` does).

Example
-------
>>> from workbench import Vocabulary
>>> d = token_length_distribution(Vocabulary(["a", "b", "ab", "abc"]))
>>> d["lengths"].tolist(), d["counts"].tolist()
([1, 2, 3], [2, 1, 1])
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from .._core.errors import ArgumentTypeError, InvalidValueError
from .._core.validate import check_int
from ..datasets.corpora import check_words
from ..lattice import check_vocab, walked_arcs
from ..vocab import Vocabulary

__all__ = ["segmentation_fraction", "token_length_distribution"]

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
        raise InvalidValueError("the infinite vocabulary has no finite length distribution")
    if not isinstance(without_marker, bool):
        raise ArgumentTypeError("without_marker must be a bool")
    if len(vocab) == 0:
        raise InvalidValueError("the vocabulary is empty")
    lens = np.fromiter((len(t) - (without_marker and t[:1] in _MARKERS) for t in vocab.tokens),
                       dtype=np.int64, count=len(vocab))
    lo, hi = int(lens.min()), int(lens.max())
    counts = np.bincount(lens - lo, minlength=hi - lo + 1)
    return {"name": vocab.name or "vocabulary", "lengths": np.arange(lo, hi + 1),
            "counts": counts, "share": counts / counts.sum(), "mean": float(lens.mean()),
            "size": len(vocab), "without_marker": without_marker}


@lru_cache(maxsize=8)
def _fraction_state(vocab: Vocabulary, sizes: tuple[int, ...] | None
                    ) -> tuple[list[int], list[int], dict[str, int], dict[str, list[float]]]:
    """The checked sub-vocabulary sizes of :func:`segmentation_fraction` (the default grid if
    None), their rank limits, the token ranks and the per-word log-counts computed so far
    (filled by the callers: a word's log-counts depend only on these)."""
    rank, n_chars = _ranks(vocab)
    if sizes is None:
        grid = np.geomspace(max(n_chars, 1), len(vocab), 12).round().astype(np.int64)
        sizes = tuple(sorted(set(grid.tolist()) | {n_chars, len(vocab)}))
    checked = [check_int(s, "size", minimum=n_chars, maximum=len(vocab)) for s in sizes]
    return checked, [s - n_chars for s in checked] + [len(rank)], rank, {}


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
    words = check_words(words, vocab)
    if vocab.is_infinite:
        kept = [w for w in words if len(w) > 1]
        return {"sizes": np.zeros(0, dtype=np.int64), "relative_to_vocab": np.zeros(0),
                "relative_to_infinite": np.zeros(0), "words_a": 0, "words_b": len(kept),
                "lengths": np.array([len(w) for w in kept], dtype=np.int64),
                "fraction": np.ones(len(kept)), "skipped": 0, "name": "infinite"}
    sizes, limits, rank, memo = _fraction_state(vocab, None if sizes is None else tuple(sizes))
    rel_a, rel_b, lengths, fraction, skipped = [], [], [], [], 0
    for w in words:
        logs = memo.get(w)
        if logs is None:
            arcs, _ = walked_arcs(w, vocab)
            ranked = [(i, j, rank.get(w[i:j], -1)) for i, j in arcs]
            logs = memo[w] = _log_counts(len(w), ranked, limits)
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
