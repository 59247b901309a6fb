"""The deterministic segmenters' ids and Algorithm 3's split and merge in plain Python.

A fresh process that calls a numba kernel first pays for numba itself (about half a second
on two cores). While numba is not loaded and the request is small (:func:`applies`),
:class:`.deterministic.DeterministicSegmenter` encodes words here (:func:`encode`: the
rules of :func:`.batch._one` step for step: the arc table read off the vocabulary, unigram
Viterbi with the same float sums and tie rule, or longest match) and
:class:`.multiplex.Multiplexer` splits and merges its halves here (:func:`split`,
:func:`merge`: what :mod:`.mux_kernels` does). Same ids and offsets as the kernels
(``tests/segmenters/test_interpreted.py`` compares both routes, and a fresh process).

What this module does not do: validate arguments (the callers do, as on the kernels'
route), or sample (the stochastic half is the sampler's own call).

Example
-------
>>> from workbench import Vocabulary
>>> v = Vocabulary(["a", "b", "ab", "abb"], scores=[-1.0, -1.0, -1.5, -9.0])
>>> ids, offsets = encode(["abb", "ba"], v, "viterbi")
>>> v.decode_ids(ids), offsets.tolist()
(['ab', 'b', 'b', 'a'], [0, 2, 4])
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence

import numpy as np

from ..lattice import SegmentationError
from ..vocab import Vocabulary

#: The deterministic methods (here and in :mod:`.batch`).
METHODS = ("viterbi", "longest")
#: Largest request run here: Σ over words of ``n · min(n, distinct token lengths)`` lookups
#: (a few ms of Python), well below what loading numba costs.
MAX_WORK = 20_000


def applies(lengths: Sequence[int], vocab: Vocabulary | None = None) -> bool:
    """Should words of these lengths be handled here? (numba not loaded, small, finite).

    With a vocabulary, a word of ``n`` characters costs ``n · min(n, distinct token
    lengths)`` lookups (segmenting); without, ``n`` (the multiplexer's split and merge,
    given one total).

    >>> applies([3, 2], Vocabulary(["a"])) == ("numba" not in sys.modules)
    True
    """
    if "numba" in sys.modules or len(lengths) > MAX_WORK:
        return False
    if vocab is None:
        return sum(lengths) <= MAX_WORK
    if vocab.is_infinite:
        return False
    depth = len(vocab.token_lengths)
    return sum(n * min(n, depth) for n in lengths) <= MAX_WORK


def encode(words: Sequence[str], vocab: Vocabulary, method: str
           ) -> tuple[np.ndarray, np.ndarray]:
    """``(ids, offsets)`` of every word's segmentation, as :func:`.batch._encode_flat`.

    Raises :class:`SegmentationError` naming the first word without one.
    """
    sizes = tuple(reversed(vocab.token_lengths))  # longest first, as the kernel tries them
    index = dict(zip(vocab.tokens, vocab.ids.tolist()))
    score = (dict(zip(vocab.tokens, vocab.scores.tolist())) if vocab.scores is not None
             else {})
    flat: list[int] = []
    offsets = [0]
    for word in words:
        ids = (_viterbi if method == "viterbi" else _longest)(word, sizes, index, score)
        if ids is None:
            raise SegmentationError(f"no segmentation of {word!r} under this vocabulary")
        flat += ids
        offsets.append(len(flat))
    return np.array(flat, dtype=np.int32), np.array(offsets, dtype=np.int64)


def _viterbi(word, sizes, index, score):
    """:func:`.batch._one`'s unigram Viterbi (highest sum; ties to fewer tokens)."""
    n = len(word)
    best = [0.0] + [-math.inf] * n
    count = [0] * (n + 1)
    back = [0] * (n + 1)
    tid = [0] * (n + 1)
    for j in range(1, n + 1):
        for length in sizes:
            if length > j:
                continue
            i = j - length
            t = index.get(word[i:j])
            if t is None or best[i] == -math.inf:
                continue
            cand = best[i] + score[word[i:j]]
            if cand > best[j] or (cand == best[j] and count[i] + 1 < count[j]):
                best[j] = cand
                count[j] = count[i] + 1
                back[j] = i
                tid[j] = t
    if n and best[n] == -math.inf:
        return None
    out = []
    j = n
    while j > 0:
        out.append(tid[j])
        j = back[j]
    return out[::-1]


def _longest(word, sizes, index, score):
    """:func:`.batch._one`'s longest match (no backtracking)."""
    n = len(word)
    out = []
    i = 0
    while i < n:
        for length in sizes:
            t = index.get(word[i:i + length]) if i + length <= n else None
            if t is not None:
                out.append(t)
                i += length
                break
        else:
            return None
    return out


def split(cps: np.ndarray, offsets: np.ndarray, sizes: np.ndarray, heads: np.ndarray
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`.multiplex._split`: the words of groups with heads, and of those without."""
    values, bounds = cps.tolist(), offsets.tolist()
    halves: dict[bool, tuple[list[int], list[int]]] = {True: ([], [0]), False: ([], [0])}
    piece = 0
    for size, head in zip(sizes.tolist(), heads.tolist()):
        flat, off = halves[bool(head)]
        for _ in range(size):
            flat += values[bounds[piece]:bounds[piece + 1]]
            off.append(len(flat))
            piece += 1
    (h_cps, h_off), (t_cps, t_off) = halves[True], halves[False]
    return (np.array(h_cps, dtype=np.int32), np.array(h_off, dtype=np.int64),
            np.array(t_cps, dtype=np.int32), np.array(t_off, dtype=np.int64))


def merge(sizes: np.ndarray, heads: np.ndarray, s_ids: np.ndarray, s_off: np.ndarray,
          d_ids: np.ndarray, d_off: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:mod:`.mux_kernels`' merge: the halves' ids in word order, offsets per group."""
    halves = {True: (s_ids.tolist(), s_off.tolist()), False: (d_ids.tolist(), d_off.tolist())}
    at = {True: 0, False: 0}
    ids: list[int] = []
    offsets = [0]
    for size, head in zip(sizes.tolist(), heads.tolist()):
        head = bool(head)
        flat, off = halves[head]
        for _ in range(size):
            ids += flat[off[at[head]]:off[at[head] + 1]]
            at[head] += 1
        offsets.append(len(ids))
    return np.array(ids, dtype=np.int32), np.array(offsets, dtype=np.int64)
