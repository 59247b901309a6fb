"""The word-level contract's one implementation: every verb of a word tokeniser from two.

Every tokeniser of single words (the samplers, :class:`workbench.Grampa`, the
:class:`workbench.Multiplexer`, the deterministic segmenters) derives from
:class:`WordTokenizer`, which gives them one family of verbs, as tiktoken's ``Encoding`` does
for text:

=====================================  =====================================================
``tokenize(word) -> list[str]``        one word's tokens
``tokenize_batch(words)``              ``list[list[str]]``, one list per word
``encode(word) -> list[int]``          one word's token ids
``encode_batch(words)``                ``list[list[int]]``, one list per word
``encode_flat(words)``                 ``(ids, offsets)``: the fast batch form, no Python
                                       object per token; word ``w``'s ids are
                                       ``ids[offsets[w]:offsets[w + 1]]``
``encode_code_points(cps, offsets)``   :meth:`~WordTokenizer.encode_flat` on words given flat
``decode(ids) -> str``                 the tokens of ``ids`` joined (in the vocabulary's
                                       alphabet)
=====================================  =====================================================

A subclass implements :meth:`~WordTokenizer.tokenize_batch` and, for a faster route than
looking every token up, :meth:`~WordTokenizer.encode_flat`; the other verbs are derived here,
so they mean the same on every class. :class:`TokenSampler` adds what a stochastic one offers:
``sample(word)`` (= ``tokenize(word)``), ``sample_many(word, n)``, ``reseeded(seed)``, and
``law(word)`` where the subclass states it. The contract as protocols is
:mod:`workbench.interfaces`; ARCHITECTURE.md has the table of both levels.

Randomness: a sampler takes ``seed`` when it is built and holds one generator; every call
draws what it needs from it (word ``w`` of a batch uses its own stream, so results do not
depend on threads or chunking). ``tokenize(word)`` is ``tokenize_batch([word])[0]`` and
``encode(word)`` is ``encode_flat([word])``'s ids, from the same generator state.

Old spellings (one release): ``tokenize(words)`` and ``encode(words)`` with a sequence of
words still answer as ``tokenize_batch`` and ``encode_flat`` do, with a
:class:`workbench.WorkbenchDeprecationWarning` naming the new call.

This module samples nothing itself and knows no algorithm (what it leaves out: text, which
is :class:`workbench.TextTokenizer`'s level, and special tokens).

Example
-------
>>> from workbench import Vocabulary
>>> class Chars(TokenSampler):
...     def tokenize_batch(self, words):
...         return [list(w) for w in as_words(words)]
>>> chars = Chars(Vocabulary(["a", "b"]), seed=0)
>>> chars.tokenize("ab"), chars.encode("ab"), chars.encode_batch(["ab", "b"])
(['a', 'b'], [0, 1], [[0, 1], [1]])
>>> chars.decode([1, 0]), chars.sample_many("ab", 2)
('ba', [['a', 'b'], ['a', 'b']])
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import numpy as np

from ._core.deprecation import warn_deprecated
from ._core.errors import ArgumentTypeError
from ._core.seeds import as_generator
from ._core.validate import check_budget, check_flat_words, check_int, check_work
from .vocab import Vocabulary

__all__ = ["BYTES_PER_CHAR", "MAX_SAMPLES", "TokenSampler", "WordTokenizer", "as_words",
           "check_request", "words_from_code_points"]

#: Bytes per sampled character that a batch may hold (lengths, ids, bookkeeping).
BYTES_PER_CHAR = 32
#: Largest ``n`` of ``sample_many`` in one call.
MAX_SAMPLES = 10**8

IdBatch = tuple[np.ndarray, np.ndarray]


def as_words(words: object) -> list[str]:
    """A list of str from a sequence of words (a single ``str`` is refused).

    >>> as_words(("a", "b"))
    ['a', 'b']
    """
    if isinstance(words, str):
        raise ArgumentTypeError("words must be a sequence of str; for one word use "
                                "tokenize(word) or encode(word)")
    try:
        out = list(words)  # type: ignore[call-overload]
    except TypeError:
        raise ArgumentTypeError(f"words must be a sequence of str, not {type(words).__name__}"
                                ) from None
    for k, w in enumerate(out):
        if not isinstance(w, str):
            raise ArgumentTypeError(f"word {k} is {type(w).__name__}, not str")
    return out


def words_from_code_points(code_points: np.ndarray, offsets: np.ndarray) -> list[str]:
    """Words given flat (checked arrays: word ``w`` is ``code_points[offsets[w]:offsets[w+1]]``).

    >>> words_from_code_points(np.array([97, 98, 99]), np.array([0, 2, 3]))
    ['ab', 'c']
    """
    text = code_points.astype(np.uint32).tobytes().decode("utf-32-le", "surrogatepass")
    cuts = offsets.tolist()
    return [text[a:b] for a, b in zip(cuts[:-1], cuts[1:])]


def check_request(n_chars: int, what: str) -> None:
    """Refuse a batch whose output would exceed the memory budget (before allocating)."""
    check_budget(n_chars * BYTES_PER_CHAR, what)


def split_flat(ids: np.ndarray, offsets: np.ndarray) -> list[list[int]]:
    """``(ids, offsets)`` as one list of ids per word.

    >>> split_flat(np.array([3, 1, 2]), np.array([0, 2, 2, 3]))
    [[3, 1], [], [2]]
    """
    flat, cuts = ids.tolist(), offsets.tolist()
    return [flat[a:b] for a, b in zip(cuts[:-1], cuts[1:])]


class WordTokenizer:
    """Base of every word-level tokeniser: the verbs of the contract from ``tokenize_batch``.

    A subclass implements :meth:`tokenize_batch`; it may override :meth:`encode_flat` and
    :meth:`encode_code_points` with faster routes (same ids).

    Attributes
    ----------
    vocab : Vocabulary or None
        Where tokens and ids come from (ids need a finite vocabulary).
    """

    vocab: Vocabulary | None = None

    # ------------------------------------------------------------------ one word
    def tokenize(self, word: str) -> list[str]:
        """The tokens of one word (they concatenate to it).

        ``tokenize_batch([word])[0]``. A word without a segmentation raises
        :class:`workbench.SegmentationError`.
        """
        if not isinstance(word, str):
            name = self._old_batch_form(word, "tokenize")
            warn_deprecated(f"{name}.tokenize(words) with a sequence of words",
                            f"{name}.tokenize_batch(words)")
            return self.tokenize_batch(word)
        return self.tokenize_batch([word])[0]

    def encode(self, word: str) -> list[int]:
        """The token ids of one word (finite vocabularies only).

        The ids of :meth:`encode_flat` ``([word])``: the tokens :meth:`tokenize` gives from
        the same state.
        """
        if not isinstance(word, str):
            name = self._old_batch_form(word, "encode")
            warn_deprecated(f"{name}.encode(words) with a sequence of words",
                            f"{name}.encode_flat(words) (or encode_batch(words) for one list "
                            "per word)")
            return self.encode_flat(word)  # type: ignore[return-value]
        ids, _ = self.encode_flat([word])
        return ids.tolist()

    def _old_batch_form(self, word: object, verb: str) -> str:
        """The class name, for the warning of ``verb(words)``, the old spelling of a batch; a
        word that is neither a str nor a sequence of words is refused."""
        if isinstance(word, (bytes, bytearray, int, float)) or word is None:
            raise ArgumentTypeError(f"{verb}: word must be str, not {type(word).__name__}")
        return type(self).__name__

    # ------------------------------------------------------------------ batches
    def tokenize_batch(self, words: Sequence[str]) -> list[list[str]]:  # pragma: no cover
        """One list of tokens per word, in order (a single ``str`` is refused)."""
        raise NotImplementedError

    def encode_batch(self, words: Sequence[str]) -> list[list[int]]:
        """One list of ids per word: :meth:`encode_flat` split per word."""
        return split_flat(*self.encode_flat(words))

    def encode_flat(self, words: Sequence[str]) -> IdBatch:
        """Every word's ids as ``(ids, offsets)``, without a Python object per token.

        ``ids`` is int32, ``offsets`` int64 of length ``len(words) + 1`` from 0: word ``w``'s
        ids are ``ids[offsets[w]:offsets[w + 1]]``, those of ``tokenize_batch(words)[w]``
        (from the same state). Finite vocabularies only.
        """
        self._check_ids()
        words = as_words(words)
        check_request(sum(map(len, words)), f"encoding {len(words):,} words")
        id_of = self.vocab.id_of  # type: ignore[union-attr]
        lists = self.tokenize_batch(words)
        offsets = np.zeros(len(lists) + 1, dtype=np.int64)
        np.cumsum([len(t) for t in lists], out=offsets[1:])
        ids = np.fromiter((id_of(t) for toks in lists for t in toks), dtype=np.int32,
                          count=int(offsets[-1]))
        return ids, offsets

    def encode_code_points(self, code_points: np.ndarray, offsets: np.ndarray) -> IdBatch:
        """:meth:`encode_flat` on words given flat.

        Word ``w`` is ``code_points[offsets[w]:offsets[w+1]]`` (integer arrays); the same ids
        as ``encode_flat`` on the same words from the same state.
        """
        cps, offsets = check_flat_words(code_points, offsets)
        check_request(cps.shape[0], f"encoding {offsets.shape[0] - 1:,} words")
        return self.encode_flat(words_from_code_points(cps, offsets))

    def decode(self, ids: Sequence[int]) -> str:
        """The tokens of ``ids`` joined: the word (in the vocabulary's alphabet).

        Raises :class:`workbench.InvalidValueError` naming the first id the vocabulary does
        not have.
        """
        self._check_ids()
        return "".join(self.vocab.decode_ids(ids))  # type: ignore[union-attr]

    def _check_ids(self) -> None:
        """Refuse ids without a finite vocabulary."""
        if self.vocab is None or self.vocab.is_infinite:
            raise ArgumentTypeError(f"{type(self).__name__} has no ids: encoding needs a finite "
                                    "vocabulary (the infinite one has none)")


class TokenSampler(WordTokenizer):
    """Base of every sampler: ``sample``, ``sample_many``, ``reseeded`` from ``tokenize_batch``.

    Satisfies :class:`workbench.interfaces.Sampler` once :meth:`tokenize_batch` is
    implemented (and :class:`~workbench.interfaces.LawSampler` with a ``law(word)``).

    Parameters
    ----------
    vocab : Vocabulary, optional
        Needed for ids (token → id).
    seed : int, numpy.random.Generator or None
        Every call draws what it needs from this generator.
    """

    def __init__(self, vocab: Vocabulary | None = None,
                 seed: int | np.random.Generator | None = None) -> None:
        self.vocab = vocab
        self._rng = as_generator(seed)

    def sample(self, word: str) -> list[str]:
        """One segmentation of ``word``: :meth:`tokenize` (the name a sampler is known by)."""
        if not isinstance(word, str):
            raise ArgumentTypeError(f"word must be str, not {type(word).__name__}")
        return self.tokenize_batch([word])[0]

    def sample_many(self, word: str, n: int) -> list[list[str]]:
        """``n`` segmentations of one word (independent draws).

        Time: ``n · (len(word) + 8)`` units at 1e7 per second (measured: ULM, 10⁵ samples of
        a 21-character word in 0.2 s), checked against the time budget before sampling.
        """
        if not isinstance(word, str):
            raise ArgumentTypeError(f"word must be str, not {type(word).__name__}")
        n = check_int(n, "n", minimum=0, maximum=MAX_SAMPLES)
        check_request(n * max(len(word), 1), f"{n:,} samples of a {len(word)}-character word")
        check_work(n * (len(word) + 8), f"sample_many(n={n:,}) of a {len(word):,}-character "
                   "word", rate=1e7, hint=" (ask for fewer samples)")
        return self.tokenize_batch([word] * n)

    def reseeded(self, seed: int | np.random.Generator | None) -> Any:
        """A copy whose randomness comes from ``seed`` (as a fresh sampler built with it).

        The copy shares this sampler's read-only tables (vocabulary, model, caches of
        deterministic results); ``self`` is unchanged.
        """
        twin = copy.copy(self)
        twin._rng = as_generator(seed)
        return twin
