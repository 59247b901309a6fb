"""The contracts the package's tokenisers share, as ``typing.Protocol`` classes.

Word level (one word at a time; the one implementation is
:class:`workbench.wordlevel.WordTokenizer` and :class:`~workbench.wordlevel.TokenSampler`):

* :class:`WordLevel` — the verbs every word-level tokeniser speaks: ``tokenize(word)``,
  ``tokenize_batch(words)``, ``encode(word)``, ``encode_batch(words)``,
  ``encode_flat(words)`` (the fast flat batch), ``encode_code_points``, ``decode(ids)``;
* :class:`WordSampler` — the least a hand-written stochastic tokeniser offers:
  ``sample(word)`` (what Algorithm 3's multiplexer needs);
* :class:`Sampler` — every sampler of the package (:class:`workbench.Grampa`, the
  baselines of :mod:`workbench.samplers`, :class:`workbench.BPESampler`,
  :class:`workbench.Multiplexer`): the word-level verbs, ``sample``, ``sample_many`` and a
  reseeded copy;
* :class:`LawSampler` — a sampler whose exact law on one word is known: ``law(word)``
  returns a :class:`workbench.laws.SegmentationLaw`;
* :class:`Segmenter` — a deterministic segmenter bound to a vocabulary
  (:class:`workbench.segmenters.DeterministicSegmenter`): the word-level verbs and a call on
  one word.

Text level (the one implementation is :class:`workbench.textlevel.TextLevelTokenizer` and
:class:`~workbench.textlevel.TextSampler`):

* :class:`TextLevel` — the verbs every text-level tokeniser speaks: ``encode(text)``,
  ``encode_batch(texts, num_threads=)``, ``encode_with_offsets(text)``, ``tokenize(text)``,
  ``decode(ids, errors=)`` and the ``token_bytes`` table (:class:`workbench.bpe.BPEModel`,
  :class:`workbench.GreedTokModel`, :class:`workbench.RandomDropBPE`,
  :class:`workbench.DuplicationBPE`, :class:`workbench.TextTokenizer`);
* :class:`MergeModel` — a BPE-like model the Rényi counterexamples wrap
  (:class:`workbench.bpe.BPEModel`, :class:`workbench.RandomDropBPE`,
  :class:`workbench.DuplicationBPE`): merges, a token table, text → ids → text.

Every protocol is ``runtime_checkable``: ``isinstance(x, Sampler)`` checks that the members
exist (not their signatures, nor the behaviour; ``tests/test_interfaces.py`` checks that).
Words are ``str`` in the vocabulary's alphabet; ids are those of the vocabulary.

This module implements nothing and imports nothing of the package (rank 1).

Example
-------
>>> import numpy as np
>>> class Chars:  # a (trivial) segmenter: one token per character, no ids
...     vocab = None
...     def __call__(self, word): return list(word)
...     def tokenize(self, word): return list(word)
...     def tokenize_batch(self, words): return [list(w) for w in words]
...     def encode(self, word): raise TypeError("no ids")
...     encode_batch = encode_flat = decode = encode
...     def encode_code_points(self, code_points, offsets): raise TypeError("no ids")
>>> isinstance(Chars(), Segmenter), isinstance(Chars(), Sampler)
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

__all__ = ["LawSampler", "MergeModel", "Sampler", "Segmenter", "TextLevel", "WordLevel",
           "WordSampler"]

#: ``(ids, offsets)``: word ``w``'s token ids are ``ids[offsets[w]:offsets[w + 1]]``
#: (``ids`` int32, ``offsets`` int64 of length ``len(words) + 1`` starting at 0).
IdBatch = tuple[np.ndarray, np.ndarray]


@runtime_checkable
class WordLevel(Protocol):
    """The verbs of every word-level tokeniser.

    Attributes
    ----------
    vocab : Vocabulary or None
        The vocabulary tokens and ids come from (ids need a finite one).
    """

    vocab: Any

    def tokenize(self, word: str) -> list[str]:
        """One word's tokens (non-empty, concatenating to ``word``).

        A word without a segmentation raises :class:`workbench.SegmentationError`; a
        stochastic tokeniser draws fresh randomness per call.
        """
        ...

    def tokenize_batch(self, words: Sequence[str]) -> list[list[str]]:
        """One list of tokens per word, in order (a single ``str`` is refused: ``TypeError``).

        A sampler draws word ``w`` from its own stream: the result equals, word by word, what
        :meth:`encode_flat` returns for the same ``words`` from the same generator state.
        """
        ...

    def encode(self, word: str) -> list[int]:
        """One word's token ids (finite vocabularies; ``TypeError`` under the infinite one)."""
        ...

    def encode_batch(self, words: Sequence[str]) -> list[list[int]]:
        """One list of ids per word: :meth:`encode_flat` split per word."""
        ...

    def encode_flat(self, words: Sequence[str]) -> IdBatch:
        """One segmentation per word as ids ``(ids, offsets)``, no Python object per token.

        Same draws as :meth:`tokenize_batch` (from the same generator state): word ``w``'s
        ids are the ids of ``tokenize_batch(words)[w]``.
        """
        ...

    def encode_code_points(self, code_points: np.ndarray, offsets: np.ndarray) -> IdBatch:
        """:meth:`encode_flat` on words given flat.

        Word ``w`` is ``code_points[offsets[w]:offsets[w+1]]`` (integer arrays); same ids as
        ``encode_flat`` on the same words from the same generator state.
        """
        ...

    def decode(self, ids: Sequence[int]) -> str:
        """The tokens of ``ids`` joined (``decode(encode(word)) == word``)."""
        ...


@runtime_checkable
class WordSampler(Protocol):
    """A stochastic tokeniser of one word at a time."""

    def sample(self, word: str) -> list[str]:
        """One segmentation of ``word``: non-empty tokens that concatenate to ``word``.

        Successive calls draw fresh randomness; a word without a segmentation raises
        :class:`workbench.SegmentationError`.
        """
        ...


@runtime_checkable
class Sampler(WordSampler, WordLevel, Protocol):
    """The contract of every sampler of the package.

    A sampler is built with a ``seed`` (int, ``numpy.random.Generator`` or None) and holds
    one generator; every call draws what it needs from it, so the same seed and the same
    sequence of calls give the same results. Within one call, word ``w`` of a batch uses
    its own random stream, so results do not depend on threads or chunking. ``sample(word)``
    and ``tokenize(word)`` are one verb under two names.
    """

    def sample_many(self, word: str, n: int) -> list[list[str]]:
        """``n`` independent segmentations of one word (``n >= 0``).

        Raises ``TypeError`` for a non-str word, ``ValueError`` for a negative ``n`` and
        :class:`workbench.BudgetError` for a request over the memory budget (before
        allocating).
        """
        ...

    def reseeded(self, seed: int | np.random.Generator | None) -> Sampler:
        """A sampler like this one whose randomness comes from ``seed``; ``self`` is unchanged.

        Two copies reseeded with the same seed give the same results. A sampler with one
        generator returns exactly what a freshly built one with the same parameters and
        ``seed`` returns (a :class:`workbench.Multiplexer` also reseeds its stochastic half).
        """
        ...


@runtime_checkable
class LawSampler(Protocol):
    """A sampler that states its exact segmentation law on one word."""

    def law(self, word: str) -> Any:
        """The exact law of :meth:`Sampler.sample` on ``word`` (a ``SegmentationLaw``).

        Budget-checked before any work: a word whose law needs more than the sampler's
        stated budget raises :class:`workbench.BudgetError` at once, saying how much it
        would need. A word without any segmentation raises
        :class:`workbench.SegmentationError`.
        """
        ...


@runtime_checkable
class Segmenter(WordLevel, Protocol):
    """A deterministic segmenter bound to a vocabulary: the same word, the same tokens."""

    def __call__(self, word: str) -> list[str]:
        """``tokenize(word)``: the segmentation of ``word`` (tokens concatenating to it).

        Raises :class:`workbench.SegmentationError` if there is none.
        """
        ...


@runtime_checkable
class TextLevel(Protocol):
    """The verbs of every text-level tokeniser (tiktoken's and HF's names).

    Attributes
    ----------
    token_bytes : mapping id → bytes
        Every id's bytes (read-only; ids may have gaps).
    """

    token_bytes: Mapping[int, bytes]

    def encode(self, text: str) -> list[int]:
        """The token ids of ``text`` (a stochastic tokeniser draws fresh randomness)."""
        ...

    def encode_batch(self, texts: Sequence[str], *, num_threads: int | None = None
                     ) -> list[list[int]]:
        """One id list per text, in order; a stochastic tokeniser draws text ``k`` from its
        own stream, so ``encode(text)`` is ``encode_batch([text])[0]`` from the same state."""
        ...

    def encode_with_offsets(self, text: str) -> tuple[list[int], list[tuple[int, int]]]:
        """The ids of ``text`` and each token's character span ``(start, end)`` in it."""
        ...

    def tokenize(self, text: str) -> list[str]:
        """The tokens of ``text`` spelled in the byte-level alphabet (``" a"`` is ``"Ġa"``)."""
        ...

    def decode(self, ids: Sequence[int], errors: str = "replace") -> str:
        """The text of ``ids`` (their bytes as UTF-8, ``errors`` as ``bytes.decode``)."""
        ...


@runtime_checkable
class MergeModel(Protocol):
    """A BPE-like model: ordered merges, a token table and text ↔ ids.

    Attributes
    ----------
    merges : sequence of (bytes, bytes)
        The merges in order; ``left + right`` is the token a merge makes.
    vocab : mapping id → bytes, or a sequence indexed by id
        Every token's bytes.
    """

    merges: Any
    vocab: Any

    def encode(self, text: str) -> list[int]:
        """Token ids of ``text`` (the model pretokenises it its own way)."""
        ...

    def encode_chunks(self, chunks: Sequence[str]) -> list[list[int]]:
        """One id list per pretokenised chunk; chunk ``c`` encoded alone.

        For a model whose ``encode`` splits text into chunks, ``encode(text)`` is the
        concatenation of ``encode_chunks`` of those chunks.
        """
        ...

    def decode(self, ids: Iterable[int]) -> str:
        """The text of ``ids`` (``decode(encode(text)) == text`` for valid UTF-8 text)."""
        ...

    def tokens(self, text: str) -> list[bytes]:
        """The tokens of ``encode(text)`` as bytes (they concatenate to ``text``'s UTF-8)."""
        ...
