"""The shared implementation of the baseline samplers: :class:`TokenSampler` and batch checks.

The contract itself is :class:`workbench.interfaces.Sampler` (which :class:`workbench.Grampa`
satisfies too): ``sample(word)``, ``sample_many(word, n)``, ``tokenize(words)``,
``encode(words)``, ``encode_code_points(code_points, offsets)`` and ``reseeded(seed)``, plus
a ``seed`` (int, Generator or None) given to the constructor. :class:`TokenSampler` derives
all but ``tokenize`` from ``tokenize``; a subclass implements ``tokenize`` (and may override
the others with faster routes). :func:`as_words` is the one check of a batch.

This module samples nothing itself.

Example
-------
>>> class Chars(TokenSampler):
...     def tokenize(self, words):
...         return [list(w) for w in as_words(words)]
>>> Chars(seed=0).sample_many("ab", 2)
[['a', 'b'], ['a', 'b']]
>>> from workbench.interfaces import Sampler
>>> isinstance(Chars(seed=0).reseeded(1), Sampler)
True
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

import numpy as np

from .._core.errors import ArgumentTypeError
from .._core.seeds import as_generator
from .._core.validate import check_budget, check_flat_words, check_int, check_work
from ..vocab import Vocabulary

#: Bytes per sampled character that a batch may hold (lengths, ids, bookkeeping).
BYTES_PER_CHAR = 32
#: Largest ``n`` of ``sample_many`` in one call.
MAX_SAMPLES = 10**8


def as_words(words: object) -> list[str]:
    """A list of str from a sequence of words (a single ``str`` is refused).

    >>> as_words(("a", "b"))
    ['a', 'b']
    """
    if isinstance(words, str):
        raise ArgumentTypeError("words must be a sequence of str; for one word use sample(word)")
    out = list(words)  # type: ignore[call-overload]
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


class TokenSampler:
    """Base class: ``sample``, ``sample_many``, ``encode``, ``reseeded`` … from ``tokenize``.

    Satisfies :class:`workbench.interfaces.Sampler` once ``tokenize`` is implemented.

    Parameters
    ----------
    vocab : Vocabulary, optional
        Needed by :meth:`encode` (token → id).
    seed : int, numpy.random.Generator or None
        Every call draws what it needs from this generator.
    """

    def __init__(self, vocab: Vocabulary | None = None,
                 seed: int | np.random.Generator | None = None) -> None:
        self.vocab = vocab
        self._rng = as_generator(seed)

    def tokenize(self, words: Sequence[str]) -> list[list[str]]:  # pragma: no cover
        raise NotImplementedError

    def sample(self, word: str) -> list[str]:
        """One segmentation of ``word``."""
        if not isinstance(word, str):
            raise ArgumentTypeError(f"word must be str, not {type(word).__name__}")
        return self.tokenize([word])[0]

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
        return self.tokenize([word] * n)

    def encode(self, words: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """One sample per word as ids: ``(ids, offsets)`` as :meth:`workbench.Grampa.encode`."""
        if self.vocab is None or self.vocab.is_infinite:
            raise ArgumentTypeError("encode needs a finite vocabulary (the infinite one has no "
                                    "ids)")
        words = as_words(words)
        check_request(sum(map(len, words)), f"encoding {len(words):,} words")
        id_of = self.vocab.id_of
        lists = self.tokenize(words)
        offsets = np.zeros(len(lists) + 1, dtype=np.int64)
        np.cumsum([len(t) for t in lists], out=offsets[1:])
        ids = np.fromiter((id_of(t) for toks in lists for t in toks), dtype=np.int32,
                          count=int(offsets[-1]))
        return ids, offsets

    def encode_code_points(self, code_points: np.ndarray, offsets: np.ndarray
                           ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`encode` on words given flat.

        Word ``w`` is ``code_points[offsets[w]:offsets[w+1]]``; same ids as ``encode`` on
        the same words and generator state.
        """
        cps, offsets = check_flat_words(code_points, offsets)
        check_request(cps.shape[0], f"encoding {offsets.shape[0] - 1:,} words")
        return self.encode(words_from_code_points(cps, offsets))

    def reseeded(self, seed: int | np.random.Generator | None) -> TokenSampler:
        """A copy whose randomness comes from ``seed`` (as a fresh sampler built with it).

        The copy shares this sampler's read-only tables (vocabulary, model, caches of
        deterministic results); ``self`` is unchanged.
        """
        twin = copy.copy(self)
        twin._rng = as_generator(seed)
        return twin
