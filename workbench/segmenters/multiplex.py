"""Multiplexing a stochastic and a deterministic tokeniser (GRaMPa, §4.6, Algorithm 3).

Per word, a coin with bias ``p`` decides: heads, the stochastic tokeniser samples a
segmentation; tails, the deterministic tokeniser's segmentation is used. The coins come
from the multiplexer's own generator; the stochastic tokeniser keeps its own.

Two routes:

* :meth:`Multiplexer.tokenize_batch` (and the verbs of the word-level contract,
  :class:`workbench.wordlevel.TokenSampler`, derived from it) — words as ``str``, tokens
  as ``str``; any callable ``str -> list[str]`` is a deterministic tokeniser (for example
  a SentencePiece model's best segmentation) and any
  :class:`workbench.interfaces.WordSampler` (``sample(word)``, batched through
  ``tokenize_batch`` when it is a full :class:`~workbench.interfaces.Sampler` like
  :class:`workbench.Grampa`) a stochastic one;
* :meth:`Multiplexer.encode_code_points` — words as flat code points, optionally in groups
  that share one coin (the text pipeline's P1 pretokens), to ids, without a Python object
  per word: the split and the merge are numba kernels, each half one batch call of a
  :class:`~workbench.interfaces.Sampler` and a :class:`~workbench.interfaces.Segmenter`.

The exact law of one word, :meth:`Multiplexer.law`, is ``p · stochastic.law(word) +
(1 − p) · δ_deterministic(word)`` (:func:`workbench.theory.grampa.mixture.mixture_law`).

This module does not build either tokeniser and computes no stochastic law itself.

Example
-------
>>> from workbench import Grampa, Vocabulary
>>> mux = Multiplexer(list, Grampa(Vocabulary.infinite(), seed=0), p=0.0, seed=0)
>>> mux.tokenize_batch(["abc", "de"]), mux.tokenize("fg")
([['a', 'b', 'c'], ['d', 'e']], ['f', 'g'])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

import numpy as np

from .._core.errors import ArgumentTypeError, InvalidValueError
from .._core.validate import (
    check_flat_words,
    check_int,
    check_probability,
    check_size,
    check_tokens,
)
from ..interfaces import LawSampler, Sampler, Segmenter, WordSampler
from ..lattice import SegmentationError
from ..laws import SegmentationLaw
from ..wordlevel import TokenSampler, as_words
from . import interpreted


def _split(cps: np.ndarray, offsets: np.ndarray, sizes: np.ndarray, heads: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The words of groups with heads and of those without, each flat (checked arrays).

    Group ``g`` is the next ``sizes[g]`` words; returns ``(heads_cps, heads_offsets,
    tails_cps, tails_offsets)``.

    >>> halves = _split(np.arange(5, dtype=np.int32), np.array([0, 1, 3, 5]),
    ...                 np.array([1, 2]), np.array([False, True]))
    >>> [h.tolist() for h in halves]
    [[1, 2, 3, 4], [0, 2, 4], [0], [0, 1]]
    """
    from .mux_kernels import _split_into

    out = []
    for want in (True, False):
        flat = np.empty(cps.size, dtype=np.int32)
        off = np.empty(offsets.size, dtype=np.int64)
        n_out, n_piece = _split_into(cps, offsets, sizes, heads, want, flat, off)
        out += [flat[:n_out], off[:n_piece + 1]]
    return out[0], out[1], out[2], out[3]


def _check_groups(groups: object, n_words: int) -> np.ndarray:
    if groups is None:
        return np.ones(n_words, dtype=np.int64)
    if isinstance(groups, (str, bytes)):
        raise ArgumentTypeError("groups must be a one-dimensional integer array")
    arr = np.asarray(groups)
    if arr.ndim != 1:
        raise InvalidValueError(f"groups must be one-dimensional, got shape {arr.shape}")
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        raise ArgumentTypeError(f"groups must hold integers, not {arr.dtype}")
    arr = np.ascontiguousarray(arr, dtype=np.int64)
    if (arr.size and int(arr.min()) < 0) or int(arr.sum()) != n_words:
        raise InvalidValueError("groups must be non-negative and sum to the number of words "
                                f"({n_words:,})")
    return arr


class Multiplexer(TokenSampler):
    """Algorithm 3: the stochastic tokeniser with probability ``p``, else the deterministic one.

    Parameters
    ----------
    deterministic : Segmenter or callable
        ``str -> list[str]``; :meth:`encode_code_points` needs a
        :class:`~workbench.interfaces.Segmenter` (e.g. :func:`.default_segmenter`).
    stochastic : Sampler or WordSampler
        Has ``sample(word)``; :meth:`tokenize_batch` batches through its
        ``tokenize_batch(words)``, and ids (:meth:`encode`, :meth:`encode_flat`,
        :meth:`encode_code_points`) and :meth:`reseeded` need a full
        :class:`~workbench.interfaces.Sampler`.
    p : float
        Multiplexing rate in [0, 1]: P(the stochastic tokeniser is used). Stored as a
        float (``self.p``); a Fraction or int also keeps :meth:`law` exact.
    seed : int, numpy.random.Generator or None
        Seeds the coins only (the stochastic tokeniser keeps its own generator).

    Attributes
    ----------
    vocab : Vocabulary or None
        The stochastic sampler's (else the deterministic segmenter's) vocabulary: where
        the ids of :meth:`encode` come from.
    """

    def __init__(
        self,
        deterministic: Segmenter | Callable[[str], list[str]],
        stochastic: Sampler | WordSampler,
        p: float,
        seed: int | np.random.Generator | None = None,
    ) -> None:
        if not callable(deterministic):
            raise ArgumentTypeError("deterministic must be a callable str -> list[str]")
        if not isinstance(stochastic, WordSampler):
            raise ArgumentTypeError("stochastic must be a sampler: at least a sample(word) method "
                                    "(workbench.interfaces.WordSampler)")
        exact_p = Fraction(p) if isinstance(p, (Fraction, int)) and not isinstance(p, bool) \
            else None
        p = check_probability(float(p) if isinstance(p, Fraction) else p, "p")
        if isinstance(stochastic, Sampler):
            vocab = stochastic.vocab
        elif isinstance(deterministic, Segmenter):
            vocab = deterministic.vocab
        else:
            vocab = None
        super().__init__(vocab, seed)
        self.deterministic = deterministic
        self.stochastic = stochastic
        self.p = float(p)
        self._exact_p = exact_p  # law() stays exact with a rational rate

    def __repr__(self) -> str:
        return f"Multiplexer({self.deterministic!r}, {self.stochastic!r}, p={self.p})"

    def reseeded(self, seed: int | np.random.Generator | None) -> Multiplexer:
        """A multiplexer like this one whose every draw comes from ``seed``.

        The coins are drawn from ``seed`` as ``Multiplexer(..., seed=seed)`` draws them; the
        stochastic tokeniser is ``stochastic.reseeded`` with the first child of that
        generator (``numpy.random.Generator.spawn``: a stream independent of the coins'). So
        two copies reseeded with the same seed give the same results; ``self`` is unchanged.
        Needs a stochastic :class:`~workbench.interfaces.Sampler` (one with ``reseeded``).
        """
        if not isinstance(self.stochastic, Sampler):
            raise ArgumentTypeError(f"the stochastic {type(self.stochastic).__name__} cannot be "
                                    "reseeded (workbench.interfaces.Sampler: a reseeded(seed) "
                                    "method)")
        twin = super().reseeded(seed)
        twin.stochastic = self.stochastic.reseeded(twin._rng.spawn(1)[0])
        return twin

    def coins(self, n_words: int) -> np.ndarray:
        """Draw ``n_words`` coins: True where the stochastic tokeniser is used."""
        n_words = check_int(n_words, "n_words", minimum=0)
        check_size(n_words, "n_words", item_bytes=9, what="the coins")
        return self._rng.random(n_words) < self.p

    def tokenize_batch(self, words: Sequence[str]) -> list[list[str]]:
        """Tokenise each word with the tokeniser its coin picks (stochastic ones batched)."""
        words = as_words(words)
        heads = self.coins(len(words))
        picked = [w for w, h in zip(words, heads) if h]
        if isinstance(self.stochastic, Sampler):
            sampled = iter(self.stochastic.tokenize_batch(picked))
        else:
            sampled = iter([self.stochastic.sample(w) for w in picked])
        return [list(next(sampled)) if h else list(self._deterministic(w))
                for w, h in zip(words, heads)]

    def _deterministic(self, word: str) -> tuple[str, ...]:
        """The deterministic tokeniser's segmentation of ``word``: a str it returns is
        refused, not split into characters."""
        return check_tokens(self.deterministic(word), "the deterministic tokeniser's result")

    def __call__(self, word: str) -> list[str]:
        """Tokenise one word: :meth:`tokenize` (a deterministic tokeniser's spelling)."""
        return self.tokenize(word)

    def law(self, word: str) -> SegmentationLaw:
        """The exact law of :meth:`__call__` on ``word`` (one coin, Algorithm 3).

        ``p · stochastic.law(word) + (1 − p) · δ_d`` with ``d = deterministic(word)``
        (:func:`workbench.theory.grampa.mixture.mixture_law`). The stochastic law is
        budget-checked before any work, as that sampler's ``law`` is, at every ``p`` (``p = 0``
        included: it gives ``n_segmentations``). A half that raises
        :class:`workbench.SegmentationError` on the word fails with its weight (``p`` for the
        stochastic sampler, ``1 − p`` for the deterministic tokeniser), as :meth:`tokenize_batch`
        does; the law carries it as ``failure_mass``, and raises the error when no half that
        can be chosen segments the word. The law's ``deterministic`` is ``d`` (so
        ``regularisation_rate`` is measured against it); exact Fractions when the stochastic
        law is exact and ``p`` was given as a Fraction or an int.

        It is the law of each word of :meth:`tokenize_batch` and of a one-word group of
        :meth:`encode_code_points`; words of one group share a coin, so a group's law is not
        the product of its words' laws.

        Examples
        --------
        >>> from fractions import Fraction
        >>> from workbench import MarkovRejectionSampler, Vocabulary
        >>> v = Vocabulary(["a", "b", "ab"])
        >>> mux = Multiplexer(lambda w: [w], MarkovRejectionSampler(v), p=Fraction(1, 3))
        >>> mux.law("ab").probabilities()
        {('ab',): Fraction(5, 6), ('a', 'b'): Fraction(1, 6)}
        """
        if not isinstance(self.stochastic, LawSampler):
            raise ArgumentTypeError(f"the stochastic {type(self.stochastic).__name__} states no "
                                    "law (workbench.interfaces.LawSampler: a law(word) method)")
        try:
            law = self.stochastic.law(word)
            unsegmentable = None
        except SegmentationError as err:  # the stochastic half fails on the word: mass p
            law, unsegmentable = SegmentationLaw(word, {}, failure_mass=1), err
        if not isinstance(law, SegmentationLaw):
            raise ArgumentTypeError("the stochastic sampler's law(word) returned "
                                    f"{type(law).__name__}, not a SegmentationLaw")
        try:
            det: tuple[str, ...] | None = self._deterministic(word)
        except SegmentationError as err:
            det, stuck = None, err
        # no half that can be chosen segments the word: the sampler's own error
        if unsegmentable is not None and (det is None or self.p == 1.0):
            raise unsegmentable
        if det is None and self.p == 0.0:
            raise stuck
        exact = self._exact_p is not None and float(self._exact_p) == self.p
        from ..theory.grampa.mixture import mixture_law  # not on a first encode's path

        return mixture_law(law, det, self._exact_p if exact else self.p)

    def encode_code_points(self, code_points: np.ndarray, offsets: np.ndarray,
                           groups: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Algorithm 3 on words given flat, to ids: one coin per group of words.

        Parameters
        ----------
        code_points, offsets : integer arrays
            Word ``w`` is ``code_points[offsets[w]:offsets[w+1]]``, in the vocabulary's
            alphabet.
        groups : integer array, optional
            Group ``g`` is the next ``groups[g]`` words (``groups`` sums to the number of
            words; empty groups allowed); all words of a group share coin ``g``. Default:
            every word its own group.

        Returns
        -------
        ids : numpy.ndarray of int32
        offsets : numpy.ndarray of int64
            Group ``g``'s ids are ``ids[offsets[g]:offsets[g+1]]`` (per word without
            ``groups``).

        The coins are ``self.coins(len(groups))``; the stochastic half is one call of the
        sampler's ``encode_code_points`` (so its generator advances as for one batch), the
        deterministic half one call of the segmenter's.

        Examples
        --------
        >>> from workbench import Grampa, Vocabulary
        >>> from workbench.segmenters import default_segmenter
        >>> v = Vocabulary(["a", "b", "ab"])
        >>> mux = Multiplexer(default_segmenter(v), Grampa(v, seed=0), p=0.0, seed=0)
        >>> ids, offs = mux.encode_code_points(np.array([97, 98, 98]), np.array([0, 2, 3]),
        ...                                    groups=[2])
        >>> v.decode_ids(ids), offs.tolist()
        (['ab', 'b'], [0, 2])
        """
        if not isinstance(self.deterministic, Segmenter):
            raise ArgumentTypeError(
                "encode_code_points needs a deterministic Segmenter "
                "(workbench.interfaces.Segmenter, e.g. default_segmenter(vocab))")
        if not isinstance(self.stochastic, Sampler):
            raise ArgumentTypeError("encode_code_points needs a stochastic Sampler "
                                    "(workbench.interfaces.Sampler)")
        cps, offsets = check_flat_words(code_points, offsets)
        sizes = _check_groups(groups, offsets.shape[0] - 1)
        heads = self.coins(sizes.shape[0])
        quick = interpreted.applies(  # linear work: code points, words and groups
            [cps.shape[0] + offsets.shape[0] + sizes.shape[0]])
        halves = (interpreted.split if quick else _split)(cps, offsets, sizes, heads)
        s_cps, s_off, d_cps, d_off = halves  # a small first call: plain Python, same arrays
        s_ids, s_off = self.stochastic.encode_code_points(s_cps, s_off)
        d_ids, d_off = self.deterministic.encode_code_points(d_cps, d_off)
        if quick:
            return interpreted.merge(sizes, heads, s_ids, s_off, d_ids, d_off)
        from .mux_kernels import _merge

        ids = np.empty(s_ids.size + d_ids.size, dtype=np.int32)
        out_off = np.empty(sizes.shape[0] + 1, dtype=np.int64)
        _merge(sizes, heads, s_ids, s_off, d_ids, d_off, ids, out_off)
        return ids, out_off
