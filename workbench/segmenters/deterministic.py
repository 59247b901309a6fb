"""Deterministic segmenters to multiplex with GRaMPa (Algorithm 3's tokeniser T).

- :func:`unigram_viterbi`: the segmentation maximising the sum of token scores (ULM's
  inference, for vocabularies that carry scores, e.g. a SentencePiece unigram model);
- :func:`longest_match`: greedy left-to-right longest-prefix matching (MaxMatch).
- :func:`default_segmenter`: the first for scored vocabularies, the second otherwise.

These are exact plain-Python implementations for single words (notebooks, multiplexing);
this module does not sample, and it is not a fast batch encoder.

Example
-------
>>> from workbench import Vocabulary
>>> v = Vocabulary(["a", "b", "ab", "abb"], scores=[-1.0, -1.0, -1.5, -9.0])
>>> unigram_viterbi("abb", v), longest_match("abb", v)
(['ab', 'b'], ['abb'])
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ..lattice import SegmentationError, check_vocab, check_word
from ..vocab import Vocabulary


def _checked(word: str, vocab: Vocabulary) -> tuple[str, Vocabulary]:
    word = check_word(word)
    vocab = check_vocab(vocab)
    if vocab.is_infinite:
        raise TypeError("deterministic baselines need a finite vocabulary")
    return word, vocab


def unigram_viterbi(word: str, vocab: Vocabulary) -> list[str]:
    """Highest-scoring segmentation (sum of ``vocab.scores``); ties go to fewer tokens.

    Raises
    ------
    ValueError
        If the vocabulary has no scores.
    SegmentationError
        If the word has no segmentation.
    """
    word, vocab = _checked(word, vocab)
    if vocab.scores is None:
        raise ValueError("unigram_viterbi needs a vocabulary with scores")
    score = dict(zip(vocab.tokens, vocab.scores.tolist()))
    longest = vocab.max_token_length or 0
    n = len(word)
    best: list[tuple[float, int]] = [(0.0, 0)] + [(-math.inf, 0)] * n  # (score, -tokens)
    back = [0] * (n + 1)
    for j in range(1, n + 1):
        for i in range(max(0, j - longest), j):
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

    Raises :class:`SegmentationError` where no token starts at the current position.
    """
    word, vocab = _checked(word, vocab)
    longest = vocab.max_token_length or 0
    out, i = [], 0
    while i < len(word):
        for j in range(min(len(word), i + longest), i, -1):
            if word[i:j] in vocab:
                out.append(word[i:j])
                i = j
                break
        else:
            raise SegmentationError(
                f"longest match is stuck at character {word[i]!r} at position {i} of {word!r}")
    return out


def default_segmenter(vocab: Vocabulary) -> Callable[[str], list[str]]:
    """:func:`unigram_viterbi` if ``vocab`` has scores, else :func:`longest_match`.

    For the infinite vocabulary the whole word is one token.
    """
    vocab = check_vocab(vocab)
    if vocab.is_infinite:
        return lambda word: [word] if word else []
    if vocab.scores is not None:
        return lambda word: unigram_viterbi(word, vocab)
    return lambda word: longest_match(word, vocab)
