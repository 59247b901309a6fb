"""Deterministic segmenters to multiplex with GRaMPa (Algorithm 3's tokeniser T).

- :func:`unigram_viterbi`: the segmentation maximising the sum of token scores (ULM's
  inference, for vocabularies that carry scores, e.g. a SentencePiece unigram model);
- :func:`longest_match`: greedy left-to-right longest-prefix matching (MaxMatch).
- :class:`DeterministicSegmenter`: either one bound to a vocabulary, satisfying
  :class:`workbench.interfaces.Segmenter` (one word, batches, ids, flat code points);
- :func:`default_segmenter`: the first for scored vocabularies, the second otherwise.

The functions are exact plain-Python implementations for single words (notebooks,
multiplexing); the class sends batches of ids to the kernels of :mod:`.batch`. This module
does not sample.

Example
-------
>>> from workbench import Vocabulary
>>> v = Vocabulary(["a", "b", "ab", "abb"], scores=[-1.0, -1.0, -1.5, -9.0])
>>> unigram_viterbi("abb", v), longest_match("abb", v)
(['ab', 'b'], ['abb'])
>>> seg = default_segmenter(v)
>>> seg("abb"), seg.method, seg.encode("abb"), seg.decode(seg.encode("abb"))
(['ab', 'b'], 'viterbi', [2, 1], 'abb')
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from .._core.cost import SLICE_RATE, slice_units
from .._core.errors import ArgumentTypeError, InvalidValueError
from .._core.validate import check_choice, check_flat_words, check_work
from ..lattice import SegmentationError, check_vocab, check_word
from ..vocab import Vocabulary
from ..wordlevel import WordTokenizer, as_words
from . import interpreted
from .interpreted import METHODS


def _checked(word: str, vocab: Vocabulary) -> tuple[str, Vocabulary]:
    word = check_word(word)
    vocab = check_vocab(vocab)
    if vocab.is_infinite:
        raise ArgumentTypeError("deterministic baselines need a finite vocabulary")
    return word, vocab


def _check_slice_work(word: str, vocab: Vocabulary, what: str) -> tuple[int, ...]:
    """The token lengths that fit in ``word``, longest first, after the time budget.

    Cost model of the plain-Python segmenters: at each of the ``n - l + 1`` positions a
    token length ``l`` fits, one slice of ``l`` characters is hashed and looked up:
    :func:`workbench._core.cost.slice_units` over the vocabulary's distinct token lengths,
    at ``SLICE_RATE`` (2e9) units per second (longest match is charged its worst case).
    2,000 token lengths over a 100,000-character word are refused at once (~240 s).
    """
    n = len(word)
    lengths = tuple(length for length in reversed(vocab.token_lengths) if length <= n)
    check_work(slice_units(n, lengths),
               f"{what} of a {n}-character word with tokens of {len(lengths)} lengths up to "
               f"{lengths[0] if lengths else 0}", rate=SLICE_RATE,
               hint=" (split the word, or use DeterministicSegmenter.encode_flat)")
    return lengths


def unigram_viterbi(word: str, vocab: Vocabulary) -> list[str]:
    """Highest-scoring segmentation (sum of ``vocab.scores``); ties go to fewer tokens.

    Time: see :func:`_check_slice_work` (the cost model, checked before any work).

    Raises
    ------
    BudgetError
        If the estimated time exceeds the time budget.
    ValueError
        If the vocabulary has no scores.
    SegmentationError
        If the word has no segmentation.
    """
    word, vocab = _checked(word, vocab)
    if vocab.scores is None:
        raise InvalidValueError("unigram_viterbi needs a vocabulary with scores")
    n = len(word)
    lengths = _check_slice_work(word, vocab, "unigram_viterbi")
    score = dict(zip(vocab.tokens, vocab.scores.tolist()))
    best: list[tuple[float, int]] = [(0.0, 0)] + [(-math.inf, 0)] * n  # (score, -tokens)
    back = [0] * (n + 1)
    for j in range(1, n + 1):
        for length in lengths:  # longest first: the earlier start wins a tie, as always
            if length > j:
                continue
            i = j - length
            s = score.get(word[i:j])
            if s is None or best[i][0] == -math.inf:
                continue
            cand = (best[i][0] + s, best[i][1] - 1)
            if cand > best[j]:
                best[j], back[j] = cand, i
    if best[n][0] == -math.inf:
        raise SegmentationError(f"no segmentation of {word!r} under this vocabulary")
    out, j = [], n
    while j > 0:
        out.append(word[back[j]:j])
        j = back[j]
    return out[::-1]


def longest_match(word: str, vocab: Vocabulary) -> list[str]:
    """Greedy left-to-right longest match (no backtracking).

    Raises :class:`SegmentationError` where no token starts at the current position, and
    :class:`~workbench._core.validate.BudgetError` (before any work) if the estimated time
    of the worst case (:func:`_check_slice_work`) exceeds the time budget.
    """
    word, vocab = _checked(word, vocab)
    lengths = _check_slice_work(word, vocab, "longest_match")
    out, i = [], 0
    while i < len(word):
        for length in lengths:
            j = i + length
            if j <= len(word) and word[i:j] in vocab:
                out.append(word[i:j])
                i = j
                break
        else:
            raise SegmentationError(
                f"longest match is stuck at character {word[i]!r} at position {i} of {word!r}")
    return out


class DeterministicSegmenter(WordTokenizer):
    """Unigram Viterbi or longest match bound to a vocabulary (a ``Segmenter``).

    Parameters
    ----------
    vocab : Vocabulary
        Finite, or :meth:`Vocabulary.infinite` (then the longest match is the whole word and
        there are no ids).
    method : {"viterbi", "longest"}, optional
        Default ``"viterbi"`` if the vocabulary has scores, else ``"longest"``.

    Notes
    -----
    Calling it on one word (and :meth:`tokenize`, :meth:`tokenize_batch`) runs
    :func:`unigram_viterbi` or :func:`longest_match`; :meth:`encode_flat` (under
    :meth:`encode` and :meth:`encode_batch`) and :meth:`encode_code_points` run the batch
    kernels of :mod:`.batch`, which follow the same rules.
    """

    def __init__(self, vocab: Vocabulary, method: str | None = None) -> None:
        vocab = check_vocab(vocab)
        if method is None:
            method = "viterbi" if vocab.scores is not None else "longest"
        method = check_choice(method, "method", METHODS)
        if method == "viterbi" and vocab.scores is None:
            raise InvalidValueError("the viterbi method needs a vocabulary with scores")
        self.vocab = vocab
        self.method = method

    def __repr__(self) -> str:
        return f"DeterministicSegmenter({self.vocab!r}, method={self.method!r})"

    def __call__(self, word: str) -> list[str]:
        """The segmentation of ``word`` (:class:`SegmentationError` if there is none)."""
        if self.vocab.is_infinite:
            if not isinstance(word, str):
                raise ArgumentTypeError(f"word must be str, not {type(word).__name__}")
            return [word] if word else []
        if self.method == "viterbi":
            return unigram_viterbi(word, self.vocab)
        return longest_match(word, self.vocab)

    def tokenize_batch(self, words: Sequence[str]) -> list[list[str]]:
        """The segmentation of every word (a single ``str`` is refused)."""
        return [self(w) for w in as_words(words)]

    def encode_flat(self, words: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """Every word's segmentation as ids: ``(ids, offsets)`` (batch kernel; a small first
        call before numba is loaded: :mod:`.interpreted`, the same ids).

        Word ``w``'s ids are ``ids[offsets[w]:offsets[w + 1]]``; a single ``str`` is refused
        (one word: :meth:`encode`).
        """
        self._check_ids()
        if not isinstance(words, str):
            words = list(words)
            if interpreted.applies(list(map(len, words)), self.vocab):  # len: as the kernels'
                try:
                    "".join(words)
                except TypeError:
                    raise ArgumentTypeError("every word must be a str") from None
                return interpreted.encode(words, self.vocab, self.method)
        from .batch import encode_deterministic

        return encode_deterministic(words, self.vocab, self.method)

    def encode_code_points(self, code_points: np.ndarray, offsets: np.ndarray
                           ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`encode_flat` on flat words: word ``w`` is ``code_points[offsets[w]:…]``."""
        self._check_ids()
        cps, offsets = check_flat_words(code_points, offsets)
        bounds = offsets.tolist() if cps.shape[0] <= interpreted.MAX_WORK else []
        lengths = [b - a for a, b in zip(bounds, bounds[1:])]
        if bounds and interpreted.applies(lengths, self.vocab):
            text = "".join(map(chr, cps.tolist()))  # a small first call, as encode
            words = [text[a:b] for a, b in zip(bounds, bounds[1:])]
            return interpreted.encode(words, self.vocab, self.method)
        from .batch import encode_deterministic_code_points

        return encode_deterministic_code_points(cps, offsets, self.vocab, self.method)


def default_segmenter(vocab: Vocabulary) -> DeterministicSegmenter:
    """:func:`unigram_viterbi` if ``vocab`` has scores, else :func:`longest_match`, bound to it.

    For the infinite vocabulary the whole word is one token. The result is callable on one
    word and satisfies :class:`workbench.interfaces.Segmenter`.
    """
    return DeterministicSegmenter(vocab)
