"""Batch kernels of the deterministic segmenters: unigram Viterbi and longest match, to ids.

:func:`encode_deterministic` segments many words at once (numba, parallel over words) with
the same rules as :func:`.deterministic.unigram_viterbi` (highest score sum; ties to fewer
tokens, then to the longer last token) and :func:`.deterministic.longest_match`, and returns
``(ids, offsets)`` like :meth:`workbench.Grampa.encode_flat`;
:func:`encode_deterministic_code_points` does the same on words given as flat code points.
Used by the real-text pipeline for the deterministic half of multiplexing. Longest match
walks the arc table with :func:`workbench.lattice.chain_kernels.longest_match_lengths` (the
MaxMatch law's mode uses the same kernel).

This module samples nothing and does not pretokenise.

Example
-------
>>> from workbench import Vocabulary
>>> v = Vocabulary(["a", "b", "ab", "abb"], scores=[-1.0, -1.0, -1.5, -9.0])
>>> ids, offsets = encode_deterministic(["abb", "ba"], v, "viterbi")
>>> v.decode_ids(ids), offsets.tolist()
(['ab', 'b', 'b', 'a'], [0, 2, 4])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from numba import njit, prange

from .._core.config import JIT, JIT_PARALLEL
from .._core.errors import ArgumentTypeError, InvalidValueError
from .._core.validate import check_budget, check_choice, check_flat_words
from ..lattice import SegmentationError, check_vocab, check_walk, code_points
from ..lattice.chain_kernels import longest_match_lengths
from ..lattice.kernels import fill_arc_table
from ..vocab import Vocabulary
from .interpreted import METHODS


class Segmenter(NamedTuple):
    """A deterministic segmenter as the kernels see it: the vocabulary's trie and scores."""

    da: np.ndarray  # int32[3, size]: the double-array trie (workbench._core.trie)
    codes: np.ndarray  # int32: code point -> trie code
    max_len: int  # longest token, characters
    score: np.ndarray  # float64 per id (unused by longest match)
    viterbi: bool  # unigram Viterbi, else longest match


class Scratch(NamedTuple):
    """Per-chunk workspace of :func:`_one`, overwritten word by word.

    ``table``: the arc table (at least ``n + 1`` rows); per node (at least ``n + 1``): the
    best score sum, its token count and the back pointer.
    """

    table: np.ndarray  # int32, (longest + 1, max_len + 1)
    best: np.ndarray  # float64
    count: np.ndarray  # int64
    back: np.ndarray  # int64


@njit(**JIT)
def _one(cps, seg, out_id, work):
    """Segment one word into ``out_id``; returns the token count or -1 (no segmentation).

    ``seg`` is the :class:`Segmenter`, ``work`` a :class:`Scratch`.
    """
    da, codes, max_len, score = seg.da, seg.codes, seg.max_len, seg.score
    table, best, count, back = work.table, work.best, work.count, work.back
    n = cps.shape[0]
    if n == 0:
        return 0
    fill_arc_table(cps, da, codes, max_len, table)
    if seg.viterbi:
        best[0] = 0.0
        count[0] = 0
        for j in range(1, n + 1):
            best[j] = -np.inf
            count[j] = 0
            back[j] = 0
            for length in range(min(max_len, j), 0, -1):
                tid = table[j, length]
                i = j - length
                if tid < 0 or best[i] == -np.inf:
                    continue
                cand = best[i] + score[tid]
                if cand > best[j] or (cand == best[j] and count[i] + 1 < count[j]):
                    best[j] = cand
                    count[j] = count[i] + 1
                    back[j] = i
        if best[n] == -np.inf:
            return -1
        m = count[n]
        j = n
        for k in range(m - 1, -1, -1):
            out_id[k] = table[j, j - back[j]]
            j = back[j]
        return m
    m = longest_match_lengths(table, n, out_id)  # lengths first, then each its token's id
    j = 0
    for k in range(m):
        j += out_id[k]
        out_id[k] = table[j, out_id[k]]
    return m


_CHUNK = 256  # words per scratch allocation


@njit(**JIT_PARALLEL)
def _batch(cps, offsets, seg, out_id, ntok):
    """:func:`_one` on every word ``cps[offsets[w]:offsets[w + 1]]``; token counts to ``ntok``."""
    max_len = seg.max_len
    n_words = offsets.shape[0] - 1
    for c in prange((n_words + _CHUNK - 1) // _CHUNK):
        first = c * _CHUNK
        stop = min(n_words, first + _CHUNK)
        longest = 0
        for w in range(first, stop):
            longest = max(longest, offsets[w + 1] - offsets[w])
        work = Scratch(np.empty((longest + 1, max_len + 1), dtype=np.int32),
                       np.empty(longest + 1), np.empty(longest + 1, dtype=np.int64),
                       np.empty(longest + 1, dtype=np.int64))
        for w in range(first, stop):
            lo, hi = offsets[w], offsets[w + 1]
            ntok[w] = _one(cps[lo:hi], seg, out_id[lo:hi], work)


@njit(**JIT)
def _compact(out_id, starts, ntok, ids):
    """Gather word ``w``'s ``ntok[w]`` ids from ``out_id[starts[w]:]`` into ``ids``."""
    k = 0
    for w in range(ntok.shape[0]):
        for t in range(ntok[w]):
            ids[k] = out_id[starts[w] + t]
            k += 1


def _checked_vocab(vocab: object, method: object) -> tuple[Vocabulary, str]:
    vocab = check_vocab(vocab)
    method = check_choice(method, "method", METHODS)
    if vocab.is_infinite:
        raise ArgumentTypeError("deterministic segmenters need a finite vocabulary")
    if method == "viterbi" and vocab.scores is None:
        raise InvalidValueError("the viterbi method needs a vocabulary with scores")
    return vocab, method


def _encode_flat(cps, offsets, lengths, vocab, method, word_at):
    """The batch kernel on checked flat words; ``word_at(w)`` names word ``w`` in errors."""
    check_budget(cps.shape[0] * 16 + int(lengths.max(initial=0)) ** 2 * 8,
                 f"segmenting {lengths.shape[0]:,} words")
    check_walk(lengths, vocab, f"segmenting {lengths.shape[0]:,} words")
    score = np.zeros(1) if vocab.scores is None else vocab.scores_by_id()
    trie = vocab.trie
    out_id = np.zeros(max(int(offsets[-1]), 1), dtype=np.int32)
    ntok = np.zeros(lengths.shape[0], dtype=np.int64)
    seg = Segmenter(trie.da, trie.codes, int(trie.max_len), score, method == "viterbi")
    _batch(cps, offsets, seg, out_id, ntok)
    bad = np.flatnonzero(ntok < 0)
    if bad.size:
        raise SegmentationError(f"no segmentation of {word_at(int(bad[0]))!r} under this "
                                "vocabulary")
    tok_offsets = np.zeros(lengths.shape[0] + 1, dtype=np.int64)
    np.cumsum(ntok, out=tok_offsets[1:])
    ids = np.empty(int(tok_offsets[-1]), dtype=np.int32)
    _compact(out_id, offsets, ntok, ids)
    return ids, tok_offsets


def encode_deterministic(words: Sequence[str], vocab: Vocabulary, method: str = "viterbi"
                         ) -> tuple[np.ndarray, np.ndarray]:
    """Deterministic segmentation of many words as ``(ids, offsets)``.

    Parameters
    ----------
    words : sequence of str
        In the vocabulary's alphabet.
    vocab : Vocabulary
        Finite; ``"viterbi"`` needs scores.
    method : {"viterbi", "longest"}

    Raises
    ------
    SegmentationError
        Naming the first word without a segmentation.
    """
    vocab, method = _checked_vocab(vocab, method)
    if isinstance(words, str):
        raise ArgumentTypeError("words must be a sequence of str")
    words = list(words)
    lengths = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
    offsets = np.zeros(len(words) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    try:
        cps = code_points("".join(words))
    except TypeError:
        raise ArgumentTypeError("every word must be a str") from None
    return _encode_flat(cps, offsets, lengths, vocab, method, lambda w: words[w])


def encode_deterministic_code_points(code_points: np.ndarray, offsets: np.ndarray,
                                     vocab: Vocabulary, method: str = "viterbi"
                                     ) -> tuple[np.ndarray, np.ndarray]:
    """:func:`encode_deterministic` on words given flat (no Python string per word).

    Word ``w`` is ``code_points[offsets[w]:offsets[w+1]]`` (integer arrays).

    >>> v = Vocabulary(["a", "b", "ab", "abb"], scores=[-1.0, -1.0, -1.5, -9.0])
    >>> ids, offs = encode_deterministic_code_points(np.array([97, 98, 98, 98, 97]),
    ...                                              np.array([0, 3, 5]), v)
    >>> v.decode_ids(ids), offs.tolist()
    (['ab', 'b', 'b', 'a'], [0, 2, 4])
    """
    vocab, method = _checked_vocab(vocab, method)
    cps, offsets = check_flat_words(code_points, offsets)

    def word_at(w: int) -> str:
        return "".join(map(chr, cps[offsets[w]:offsets[w + 1]].tolist()))

    return _encode_flat(cps, offsets, np.diff(offsets), vocab, method, word_at)
