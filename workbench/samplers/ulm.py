"""ULM's best segmentation and k-best sampling (Kudo, 2018) with GRaMPa's interface.

:class:`ULMSampler` with ``nbest=k`` lists the ``k`` highest-scoring segmentations of a word
(score = sum of the vocabulary's log-probability scores) and samples one with probability
``∝ exp(α · score)`` — SentencePiece's ``encode(..., enable_sampling=True, nbest_size=k,
alpha=α)``; ``nbest=1`` is the Viterbi segmentation. The k-best lists come from a plain
k-best Viterbi (cached per word), or, when a SentencePiece model is given, from its
``nbest_encode`` for words that begin with ``▁`` (SentencePiece adds that marker itself and
cannot segment a word without it). The random draws are the package's own SplitMix64
streams (word ``w`` of a call on stream ``w``), never SentencePiece's global generator.

``nbest=-1`` samples over *every* segmentation with probability ``∝ exp(α · score)``
(SentencePiece's ``nbest_size=-1``): a forward pass of log-sums over the lattice, then a
backward draw, one uniform per token (at ``α = 1`` the law of
:class:`.rejection.UnigramRejectionSampler`; at ``α = 0`` uniform). :meth:`ULMSampler.law`
gives the exact law of either mode (:mod:`.laws`).

This module does not implement ULM training.

Example
-------
>>> from workbench import Vocabulary
>>> v = Vocabulary(["a", "b", "ab"], scores=[-1.0, -1.0, -1.5])
>>> ULMSampler(v).sample("abab")
['ab', 'ab']
>>> [round(p, 4) for p in ULMSampler(v, nbest=2, alpha=1.0).kbest("ab")[1]]
[0.6225, 0.3775]
"""

from __future__ import annotations

import heapq
import math
import os
from collections import Counter
from collections.abc import Sequence

import numpy as np

from .._core.cost import SLICE_RATE, slice_units
from .._core.errors import (
    ArgumentTypeError,
    InvalidValueError,
    MissingDependencyError,
    MissingFileError,
)
from .._core.rng import next_double, stream_state
from .._core.seeds import base_seed
from .._core.validate import check_int, check_real, check_work
from ..lattice import SegmentationError, check_vocab, check_word, count_segmentations
from ..laws import SegmentationLaw
from ..vocab import Vocabulary
from ..wordlevel import TokenSampler, as_words
from .laws import ulm_chain, weighted_law

#: Largest ``k`` accepted (SentencePiece's own limit is far higher; lists are cached).
MAX_NBEST = 1024
_CACHE_SIZE = 200_000
#: Units per second of :func:`kbest_segmentations`' cost model, measured on its worst case,
#: paths of one-character tokens (tokens "a" ... "a" * 16: 3,000 characters at k = 1 in
#: 3.1 s, 1,500 at k = 4 in 3.4 s, estimated ~2x; {"a", "b", "a" * 10000} on 10,001
#: characters in 4.5 s, estimated 5 s); on the 8k ULM vocabulary the estimate is ~20x the
#: time (``"▁" + "ab" * 4000``: k = 1 in 2.3 s; words up to ~6,000 characters pass at k = 1).
KBEST_RATE = 1e9


def kbest_segmentations(word: str, score: dict[str, float], longest: int, k: int,
                        lengths: Sequence[int] | None = None
                        ) -> list[tuple[float, tuple[str, ...]]]:
    """The ``k`` best segmentations of ``word`` as ``(score, tokens)``, best first.

    A k-best Viterbi over the lattice: node ``j`` keeps its ``k`` best partial paths; ties
    go to fewer tokens, then to the lexicographically smaller length sequence.

    ``lengths`` (optional) are the token lengths to try (default ``1 .. longest``; the
    vocabulary's :attr:`~workbench.Vocabulary.token_lengths` give the same answer faster).

    Time: every arc ``(i, j)`` with ``j - i`` in ``lengths`` slices and looks up ``word[i:j]``
    (``1400 + (j - i)`` units, as in :mod:`workbench.segmenters.deterministic`), and each
    of up to ``k`` paths into ``i`` is copied with its length sequence (at most ``i``
    entries, 50 units each), so the estimate is ``sum over the lengths l <= n of
    (n-l+1)(1400 + l + 50 k (n-l))`` units at :data:`KBEST_RATE` per second
    (an upper bound: it assumes every such arc is a token and one-character tokens). Over the
    time budget it raises :class:`~workbench._core.validate.BudgetError` before any work.

    >>> kbest_segmentations("ab", {"a": -1.0, "b": -1.0, "ab": -1.5}, 2, 3)
    [(-1.5, ('ab',)), (-2.0, ('a', 'b'))]
    """
    n = len(word)
    tried = sorted({int(x) for x in (range(1, longest + 1) if lengths is None else lengths)
                    if 1 <= x <= min(n, longest)}, reverse=True)
    check_work(sum((n - length + 1) * (1400 + length + 50 * k * (n - length))
                   for length in tried),
               f"the {k} best segmentations of a {n}-character word (tokens up to "
               f"{longest} characters)", rate=KBEST_RATE,
               hint=" (split the word or lower nbest)")
    best: list[list[tuple[float, int, tuple[int, ...]]]] = [[(0.0, 0, ())]] + [[] for _ in range(n)]
    for j in range(1, n + 1):
        cands = []
        for length in tried:  # i = j - length ascending, as before
            i = j - length
            if i < 0:
                continue
            s = score.get(word[i:j])
            if s is None or not best[i]:
                continue
            for sc, m, lens in best[i]:
                cands.append((sc + s, -(m + 1), tuple(-x for x in lens) + (-(j - i),)))
        top = heapq.nlargest(k, cands)
        best[j] = [(sc, -m, tuple(-x for x in lens)) for sc, m, lens in top]
    out = []
    for sc, _, lens in best[n]:
        pos, toks = 0, []
        for length in lens:
            toks.append(word[pos:pos + length])
            pos += length
        out.append((sc, tuple(toks)))
    return out


def _scaled(alpha: float, diff: float) -> float:
    """``α · diff`` for a ``diff`` of the sign of ``−α`` (or 0): ``≤ 0``, never NaN (0 when
    ``α`` or ``diff`` is 0, ``-inf`` when the product underflows past the floats)."""
    return 0.0 if alpha == 0.0 or diff == 0.0 else alpha * diff


def _softmax_weights(scores: list[float], alpha: float) -> list[float]:
    """``exp(α · score)`` normalised, as ``exp(α · (score − ref))`` with ``ref`` the best score
    (the worst if ``α < 0``): no overflow for any finite ``α``; at ``|α|`` past the floats
    the best (worst) segmentations share the mass, the limit of the law."""
    ref = max(scores) if alpha >= 0 else min(scores)
    weights = [math.exp(_scaled(alpha, s - ref)) for s in scores]
    total = sum(weights)
    return [w / total for w in weights]


class ULMSampler(TokenSampler):
    """ULM's k-best sampling with smoothing ``α`` (``nbest=1``: the Viterbi segmentation).

    Parameters
    ----------
    vocab : Vocabulary
        Finite, with log-probability ``scores`` (e.g. ``datasets.load_vocabulary("ulm-8k")``).
    nbest : int, default 1
        ``k`` in 1 .. :data:`MAX_NBEST`, or ``-1``: every segmentation (SentencePiece's
        ``nbest_size=-1``).
    alpha : float, default 1.0
        Smoothing: a segmentation among the k best (or among all, ``nbest=-1``) is drawn
        with probability ``∝ exp(α · score)`` (``α = 0``: uniform over them).
    model_path : path, optional
        A SentencePiece ``.model`` of the same vocabulary; its ``nbest_encode`` then lists
        the k best for words beginning with ``▁`` (needs the ``sentencepiece`` package).
    seed : int, numpy.random.Generator or None
    """

    def __init__(self, vocab: Vocabulary, *, nbest: int = 1, alpha: float = 1.0,
                 model_path: str | os.PathLike | None = None,
                 seed: int | np.random.Generator | None = None) -> None:
        vocab = check_vocab(vocab)
        if vocab.is_infinite or vocab.scores is None:
            raise ArgumentTypeError("ULMSampler needs a finite vocabulary with scores")
        super().__init__(vocab, seed)
        self.nbest = check_int(nbest, "nbest", minimum=-1, maximum=MAX_NBEST)
        if self.nbest == 0:
            raise InvalidValueError("nbest must be -1 (every segmentation) or in 1 .. "
                                    f"{MAX_NBEST}, got 0")
        self.alpha = check_real(alpha, "alpha")
        self._score = dict(zip(vocab.tokens, vocab.scores.tolist()))
        self._longest = vocab.max_token_length or 0
        self._sp = None
        if model_path is not None:
            if not isinstance(model_path, (str, os.PathLike)):
                raise ArgumentTypeError("model_path must be a path, not "
                                        f"{type(model_path).__name__}")
            if not os.path.isfile(model_path):
                raise MissingFileError(f"model_path: no SentencePiece model at {model_path}")
            try:
                import sentencepiece as spm  # optional dependency, only for this route
            except ImportError:
                raise MissingDependencyError("ULMSampler(model_path=...) needs the optional "
                                             "package "
                                             "sentencepiece: pip install sentencepiece") from None
            try:
                self._sp = spm.SentencePieceProcessor(model_file=os.fspath(model_path))
            except (RuntimeError, OSError) as err:
                raise InvalidValueError(f"model_path: {model_path} is not a SentencePiece model "
                                        f"({err})") from None
        self._cache: dict[str, tuple[list[tuple[str, ...]], list[float]]] = {}
        self._fwd: dict[str, tuple[list[float | None], list[float]]] = {}

    def __repr__(self) -> str:
        return f"ULMSampler({self.vocab!r}, nbest={self.nbest}, alpha={self.alpha})"

    def kbest(self, word: str) -> tuple[list[tuple[str, ...]], list[float]]:
        """The k best segmentations of ``word`` and their sampling probabilities.

        ``nbest=-1`` lists no k best: ``ValueError`` (use :meth:`law`).
        """
        word = check_word(word)
        if self.nbest == -1:
            raise InvalidValueError("nbest=-1 samples over every segmentation; there is no k-best "
                                    "list (law(word) gives every probability)")
        hit = self._cache.get(word)
        if hit is not None:
            return hit
        segs: list[tuple[str, ...]] = []
        if word == "":
            segs, scores = [()], [0.0]
        elif self._sp is not None and word.startswith("\u2581") and self.nbest > 1:
            pieces = self._sp.nbest_encode_as_pieces(word[1:], self.nbest)
            segs = [tuple(p) for p in pieces if "".join(p) == word and
                    all(t in self._score for t in p)]
            scores = [sum(self._score[t] for t in s) for s in segs]
        if not segs:  # no SentencePiece route, or it listed nothing (e.g. the bare "▁")
            found = kbest_segmentations(word, self._score, self._longest, self.nbest,
                                        self.vocab.token_lengths)
            segs, scores = [s for _, s in found], [sc for sc, _ in found]
        if not segs:
            raise SegmentationError(f"no segmentation of {word!r} under this vocabulary")
        result = (segs, _softmax_weights(scores, self.alpha))
        if len(self._cache) >= _CACHE_SIZE:
            self._cache.clear()
        self._cache[word] = result
        return result

    def _score_of(self, seg: tuple[str, ...]) -> float:
        return sum(self._score[t] for t in seg)

    def law(self, word: str) -> SegmentationLaw:
        """The exact law of :meth:`sample` on ``word``.

        k-best: the listed segmentations with their probabilities (:meth:`kbest`);
        ``nbest=-1``: every segmentation, ``∝ exp(α · score)``, a chain-backed law (any
        length: summaries by dynamic programming; its mapping enumerated on first use and
        refused, with the count, past :data:`workbench.samplers.laws.MAX_ENUMERATED`).
        ``deterministic`` is the Viterbi segmentation (``nbest=1``); ``n_segmentations``
        counts them all.
        """
        word = check_word(word)
        if self.nbest == -1:
            def enumerate() -> tuple[dict, float]:
                law = weighted_law(word, self.vocab, self._score_of, log=True,
                                   scale=self.alpha)
                return law.probabilities(), 0.0

            chain, det = ulm_chain(word, self.vocab, self.alpha, enumerate)
            return SegmentationLaw.from_chain(chain, deterministic=det)
        viterbi = kbest_segmentations(word, self._score, self._longest, 1,
                                      self.vocab.token_lengths)
        det = viterbi[0][1] if viterbi else None
        n_segs = count_segmentations(word, self.vocab)
        segs, probs = self.kbest(word)
        out: dict[tuple[str, ...], float] = {}
        for seg, p in zip(segs, probs):
            out[seg] = out.get(seg, 0.0) + p
        return SegmentationLaw(word, out, n_segmentations=n_segs, deterministic=det)

    def _forward(self, word: str) -> tuple[list[float | None], list[float]]:
        """The forward log-sums of every prefix ``word[:j]``, without overflow (cached).

        ``log Σ exp(α · score)`` over the segmentations of ``word[:j]`` is ``α · v[j] +
        g[j]``: ``v[j]`` the best prefix score (the worst if ``α < 0``; None: no
        segmentation), ``g[j] = log Σ exp(α · (score − v[j]))`` in ``[0, log count]``. Every
        exponent is ``α`` times a difference of the same sign as ``−α``, so no ``α`` overflows
        (the kernel :func:`workbench.lattice.chain_kernels.weighted_table` does the same).
        Time: the slice cost model (:mod:`workbench._core.cost`), checked before the pass.
        """
        hit = self._fwd.get(word)
        if hit is not None:
            return hit
        n, alpha, score = len(word), self.alpha, self._score
        lengths = sorted(self.vocab.token_lengths)
        check_work(slice_units(n, lengths), f"the forward pass over a {n:,}-character word",
                   rate=SLICE_RATE, hint=" (split the word)")
        best = max if alpha >= 0 else min
        v: list[float | None] = [None] * (n + 1)
        g = [0.0] * (n + 1)
        v[0] = 0.0
        for j in range(1, n + 1):
            arcs = [(v[j - ln] + score[word[j - ln:j]], g[j - ln]) for ln in lengths
                    if ln <= j and v[j - ln] is not None and word[j - ln:j] in score]
            if arcs:
                v[j] = best(s for s, _ in arcs)
                terms = [gk + _scaled(alpha, s - v[j]) for s, gk in arcs]
                top = max(terms)  # g grows to log(count): summed from its largest term
                g[j] = top + math.log(sum(math.exp(t - top) for t in terms))
        out = (v, g)
        if len(self._fwd) >= _CACHE_SIZE // 100:
            self._fwd.clear()
        self._fwd[word] = out
        return out

    def _sample_all(self, word: str, state: np.uint64) -> list[str]:
        """One draw ∝ exp(α · score) over every segmentation (backward, one uniform a token)."""
        v, g = self._forward(word)
        if v[len(word)] is None:
            raise SegmentationError(f"no segmentation of {word!r} under this vocabulary")
        lengths, score, out, j = sorted(self.vocab.token_lengths), self._score, [], len(word)
        while j > 0:
            u, state = next_double(np.uint64(state))
            acc, pick = 0.0, 0
            for ln in lengths:
                if ln > j or v[j - ln] is None or word[j - ln:j] not in score:
                    continue
                pick = ln
                step = v[j - ln] + score[word[j - ln:j]] - v[j]
                acc += math.exp(g[j - ln] - g[j] + _scaled(self.alpha, step))
                if u < acc:
                    break
            out.append(word[j - pick:j])
            j -= pick
        return out[::-1]

    def tokenize_batch(self, words: Sequence[str]) -> list[list[str]]:
        """One segmentation per word: the best, or a draw among the k best (or all)."""
        words = as_words(words)
        if self.nbest == -1:  # one backward draw per word: slices and look-ups
            lengths = self.vocab.token_lengths
            check_work(sum(count * slice_units(n, lengths)
                           for n, count in Counter(map(len, words)).items()),
                       f"sampling {len(words):,} words over every segmentation",
                       rate=SLICE_RATE, hint=" (ask for fewer samples)")
        seed = base_seed(self._rng) if self.nbest != 1 else np.uint64(0)
        out = []
        for w, word in enumerate(words):
            if self.nbest == -1:
                check_word(word)
                out.append(self._sample_all(word, np.uint64(stream_state(seed, w))))
                continue
            segs, probs = self.kbest(word)
            pick = 0
            if len(segs) > 1:
                u, _ = next_double(np.uint64(stream_state(seed, w)))
                acc = 0.0
                for pick, p in enumerate(probs):  # noqa: B007 - the last index is the fallback
                    acc += p
                    if u < acc:
                        break
            out.append(list(segs[pick]))
        return out
