"""The contracts the package's tokenisers share, as ``typing.Protocol`` classes.

* :class:`WordSampler` — the least a stochastic tokeniser offers: ``sample(word)``
  (what Algorithm 3's multiplexer needs of a hand-written sampler);
* :class:`Sampler` — every sampler of the package (:class:`workbench.Grampa` and the
  baselines of :mod:`workbench.samplers`): one word, many samples, batches, ids, flat
  code points and a reseeded copy;
* :class:`LawSampler` — a sampler whose exact law on one word is known: ``law(word)``
  returns a :class:`workbench.laws.SegmentationLaw` (every sampler of the package but the
  multiplexer);
* :class:`Segmenter` — a deterministic segmenter bound to a vocabulary
  (:class:`workbench.segmenters.DeterministicSegmenter`): one word, batches, ids;
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
>>> class Chars:  # a (trivial) segmenter: one token per character
...     vocab = None
...     def __call__(self, word): return list(word)
...     def tokenize(self, words): return [list(w) for w in words]
...     def encode(self, words): raise TypeError("no ids")
...     def encode_code_points(self, code_points, offsets): raise TypeError("no ids")
>>> isinstance(Chars(), Segmenter), isinstance(Chars(), Sampler)
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

__all__ = ["LawSampler", "MergeModel", "Sampler", "Segmenter", "WordSampler"]

#: ``(ids, offsets)``: word ``w``'s token ids are ``ids[offsets[w]:offsets[w + 1]]``
#: (``ids`` int32, ``offsets`` int64 of length ``len(words) + 1`` starting at 0).
IdBatch = tuple[np.ndarray, np.ndarray]


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
class Sampler(WordSampler, Protocol):
    """The contract of every sampler of the package.

    A sampler is built with a ``seed`` (int, ``numpy.random.Generator`` or None) and holds
    one generator; every call draws what it needs from it, so the same seed and the same
    sequence of calls give the same results. Within one call, word ``w`` of a batch uses
    its own random stream, so results do not depend on threads or chunking.

    Attributes
    ----------
    vocab : Vocabulary
        The vocabulary tokens and ids come from.
    """

    vocab: Any

    def sample_many(self, word: str, n: int) -> list[list[str]]:
        """``n`` independent segmentations of one word (``n >= 0``).

        Raises ``TypeError`` for a non-str word, ``ValueError`` for a negative ``n`` and
        :class:`workbench.BudgetError` for a request over the memory budget (before
        allocating).
        """
        ...

    def tokenize(self, words: Sequence[str]) -> list[list[str]]:
        """One segmentation per word, in order (a single ``str`` is refused: ``TypeError``).

        Drawn independently per word: the result for ``words`` equals, word by word, what
        :meth:`encode` returns for the same ``words`` from the same generator state.
        """
        ...

    def encode(self, words: Sequence[str]) -> IdBatch:
        """One segmentation per word as ids ``(ids, offsets)``; finite vocabularies only.

        Same draws as :meth:`tokenize` (from the same generator state): word ``w``'s ids
        are the ids of ``tokenize(words)[w]``. ``TypeError`` under the infinite vocabulary.
        """
        ...

    def encode_code_points(self, code_points: np.ndarray, offsets: np.ndarray) -> IdBatch:
        """:meth:`encode` on words given flat.

        Word ``w`` is ``code_points[offsets[w]:offsets[w+1]]`` (integer arrays); same ids
        as ``encode`` on the same words from the same generator state.
        """
        ...

    def reseeded(self, seed: int | np.random.Generator | None) -> Sampler:
        """A sampler like this one whose randomness comes from ``seed``.

        It returns exactly what a freshly built sampler with the same parameters and
        ``seed`` returns; ``self`` is unchanged.
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
class Segmenter(Protocol):
    """A deterministic segmenter bound to a vocabulary: the same word, the same tokens.

    Attributes
    ----------
    vocab : Vocabulary
    """

    vocab: Any

    def __call__(self, word: str) -> list[str]:
        """The segmentation of ``word`` (tokens concatenating to it).

        Raises :class:`workbench.SegmentationError` if there is none.
        """
        ...

    def tokenize(self, words: Sequence[str]) -> list[list[str]]:
        """``[self(w) for w in words]`` (a single ``str`` is refused: ``TypeError``)."""
        ...

    def encode(self, words: Sequence[str]) -> IdBatch:
        """The segmentations as ids ``(ids, offsets)``: word ``w``'s are those of ``self(w)``."""
        ...

    def encode_code_points(self, code_points: np.ndarray, offsets: np.ndarray) -> IdBatch:
        """:meth:`encode` on words given flat.

        Word ``w`` is ``code_points[offsets[w]:offsets[w+1]]`` (integer arrays).
        """
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
