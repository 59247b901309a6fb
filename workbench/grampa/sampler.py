"""The public GRaMPa sampler: validates input, picks a route, returns tokens, ids or laws.

Routes (each a module of kernels taking one :class:`.params.Walk`):

* :mod:`.fused` — finite vocabulary, words of at most :data:`.params.SHORT_WORD` characters:
  Algorithms 1 and 2 fused per word with float counts (``encode_flat``, ``tokenize_batch``,
  ``sample`` and the verbs :class:`workbench.wordlevel.WordTokenizer` derives from them);
* :mod:`.logspace` — everything else, with log counts (same samples for the same seed);
* :mod:`.many` — many samples of one word over its graph built once (``sample_lengths``).

:func:`arc_probabilities` is the one-call form of :meth:`Grampa.arc_probabilities` (it
builds the sampler). This module has no kernels of its own and does not compute closed-form
laws (:mod:`workbench.theory`) or multiplex (:mod:`workbench.segmenters`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cached_property

import numpy as np

from .._core.deprecation import warn_deprecated
from .._core.errors import ArgumentTypeError, InvalidValueError
from .._core.seeds import as_generator, base_seed
from .._core.validate import (
    BudgetError,
    check_budget,
    check_flat_words,
    check_int,
    check_tokens,
    check_work,
)
from ..lattice import (
    MAX_WORD_LENGTH,
    Lattice,
    SegmentationError,
    about_count,
    arc_table,
    check_direction,
    check_ell_min,
    check_vocab,
    check_walk,
    check_word,
    code_points,
    count_segmentations,
    enumerate_segmentations,
    tokens_from_lengths,
)
from ..laws import SegmentationLaw
from ..vocab import Vocabulary
from ..wordlevel import TokenSampler
from . import interpreted, interpreted_encode
from .params import SHORT_WORD, Output, Walk, Words, check_tau, make_walk, power_table

#: Words longer than this under the infinite vocabulary are refused (O(n²) time).
MAX_INFINITE_LENGTH = 20_000
#: ``distribution`` refuses words with more segmentations than this.
MAX_DISTRIBUTION_SIZE = 200_000
_TABLE_BUDGET = 1 << 24  # cells of a per-word probability table before falling back to rows
_PARALLEL_MIN_WORDS = 512  # smaller batches run serially: a thread launch costs more
_PARALLEL_MIN_CELLS = 1 << 16  # samples x characters below which sample_lengths is serial
#: Bytes a batch allocates per character of its words (code points, lengths, ids, counts).
_BYTES_PER_CHAR = 24
#: Bytes a list of Python token strings costs per character at most (one-character tokens:
#: a 50-byte ``str`` and an 8-byte list slot each).
_PY_BYTES_PER_CHAR = 64


def _as_words(words: object) -> list[str]:
    """A list from a sequence of words; element types are checked by :func:`_joined`."""
    if isinstance(words, str):
        raise ArgumentTypeError("words must be a sequence of str; for one word use "
                                "tokenize(word) or encode(word)")
    return list(words)  # type: ignore[call-overload]


def _joined(words: list[str]) -> str:
    """``"".join(words)``, which also checks every element is a str (hot path)."""
    try:
        return "".join(words)
    except TypeError:
        for k, w in enumerate(words):
            if not isinstance(w, str):
                raise ArgumentTypeError(f"word {k} is {type(w).__name__}, not str") from None
        raise


class Grampa(TokenSampler):
    """GRaMPa sampler over a vocabulary: uniform at τ = 1, skewed otherwise.

    Parameters
    ----------
    vocab : Vocabulary
        Finite, or :meth:`Vocabulary.infinite` (then only the length-based methods and
        string outputs are available; ids need a finite vocabulary).
    tau : float, default 1.0
        Temperature of the power normalisation (Eq. 4), α = 1/τ. Any real τ ≠ 0, negative
        and ±inf included (±inf: every arc into a node equally likely). τ = 1 samples every
        segmentation with probability exactly 1/N.
    ell_min : int, default 1
        Soft minimum token length (§4.4).
    direction : {"l2r", "r2l"}, default "l2r"
        ``"r2l"`` is Algorithms 1–2 as printed; ``"l2r"`` its mirror image.
    seed : int, numpy.random.Generator or None
        Each call draws one 64-bit base seed from this generator; word ``w`` of a batch (or
        sample ``s`` of ``sample_many``) uses its own stream of that seed, so results do not
        depend on the number of threads.

    Notes
    -----
    Words are taken as given, in the vocabulary's alphabet (spell a plain word with
    :meth:`Vocabulary.to_alphabet` first); a word without segmentation raises
    :class:`workbench.SegmentationError`.

    Examples
    --------
    >>> from workbench import Vocabulary
    >>> g = Grampa(Vocabulary.infinite(), tau=1.0, seed=1)
    >>> "".join(g.sample("grampa"))
    'grampa'
    >>> round(sum(g.law("grampa").token_count_pmf().values()), 12)
    1.0
    >>> Grampa(Vocabulary(["a", "b", "ab"]), seed=0).distribution("ab")
    {('a', 'b'): 0.5, ('ab',): 0.5}
    """

    def __init__(
        self,
        vocab: Vocabulary,
        tau: float = 1.0,
        ell_min: int = 1,
        direction: str = "l2r",
        seed: int | np.random.Generator | None = None,
    ) -> None:
        self.vocab = check_vocab(vocab)
        self.alpha = check_tau(tau)
        self.tau = float(tau)
        self.ell_min = check_ell_min(ell_min)
        self.direction = check_direction(direction)
        self._rng = as_generator(seed)

    def __repr__(self) -> str:
        return (f"Grampa({self.vocab!r}, tau={self.tau}, ell_min={self.ell_min}, "
                f"direction={self.direction!r})")

    def reseeded(self, seed: int | np.random.Generator | None) -> Grampa:
        """A sampler with the same parameters whose randomness comes from ``seed``.

        Returns exactly what ``Grampa(vocab, tau, ell_min, direction, seed=seed)`` returns
        (the contract of :class:`workbench.interfaces.Sampler`); ``self`` is unchanged.
        """
        return Grampa(self.vocab, self.tau, self.ell_min, self.direction, seed=seed)

    # ------------------------------------------------------------------ internals
    @cached_property
    def _walk(self) -> Walk:
        """The kernels' constants (builds the vocabulary's trie on first use)."""
        return make_walk(self.vocab, self.alpha, self.ell_min, self.direction)

    def _check_word(self, word: object) -> str:
        word = check_word(word)
        if self.vocab.is_infinite and len(word) > MAX_INFINITE_LENGTH:
            raise InvalidValueError(f"word has {len(word):,} characters; the infinite vocabulary "
                                    f"is limited to {MAX_INFINITE_LENGTH:,} (O(n²) graph)")
        check_walk([len(word)], self.vocab, "the graph of one word")
        return word

    def _fail(self, word: str) -> SegmentationError:
        lat = Lattice.build(word, self.vocab, self.ell_min, self.direction)
        try:
            lat.require_segmentable()
        except SegmentationError as err:
            return err
        return SegmentationError(f"no segmentation of {word!r}")  # pragma: no cover

    def _batch(self, words: list[str], fast: bool = True):
        text = _joined(words)
        lengths = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
        offsets = np.zeros(len(words) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        return self._batch_flat(code_points(text), offsets, lengths, fast,
                                lambda w: words[w])

    def _batch_flat(self, cps: np.ndarray, offsets: np.ndarray, lengths: np.ndarray,
                    fast: bool, word_at):
        """The batch kernels on checked flat words; ``word_at(w)`` names word ``w`` in errors."""
        n_words = lengths.shape[0]
        longest = int(lengths.max(initial=0))
        if longest > MAX_INFINITE_LENGTH and self.vocab.is_infinite or longest > MAX_WORD_LENGTH:
            self._check_word(word_at(int(lengths.argmax())))  # raises the usual message
        check_budget(cps.shape[0] * _BYTES_PER_CHAR + n_words * 24,
                     f"a batch of {n_words:,} words ({cps.shape[0]:,} characters)")
        check_walk(lengths, self.vocab, f"sampling a batch of {n_words:,} words")
        total = int(offsets[-1])
        out_len = np.zeros(max(total, 1), dtype=np.int32)
        out_id = np.full(max(total, 1), -1, dtype=np.int32)
        ntok = np.zeros(n_words, dtype=np.int64)
        seed = base_seed(self._rng)
        walk = self._walk
        from . import fused, logspace  # the kernels load numba: imported on first use

        batch, out = Words(cps, offsets), Output(out_len, out_id, ntok)
        parallel = n_words >= _PARALLEL_MIN_WORDS
        if fast and not self.vocab.is_infinite and longest <= SHORT_WORD:
            if parallel:
                fused.short_batch(batch, walk, seed, out)
            else:
                fused.short_chunk(batch, 0, n_words, walk, seed, out)
        elif parallel:
            logspace.general_batch(batch, walk, seed, out)
        else:
            logspace.general_chunk(batch, 0, n_words, walk, seed, out)
        bad = np.flatnonzero(ntok < 0)
        if bad.size:
            raise self._fail(word_at(int(bad[0])))
        return offsets, out_len, out_id, ntok

    @cached_property
    def _powers(self) -> list[float]:
        """The walk's power table as Python floats, for :mod:`.interpreted`."""
        return power_table(self.alpha).tolist()

    def _interpreted(self, words: list[str]) -> list[list[int]] | None:
        """Token lengths of one sample per word by :mod:`.interpreted`, or None if it does
        not apply (numba loaded, a large request, the infinite vocabulary)."""
        if not interpreted.applies(words, self.vocab):
            return None
        _joined(words)  # the element types, checked as the kernels' route checks them
        seed = base_seed(self._rng)
        out, bad = interpreted.tokenize(
            words, self.vocab, self.alpha, self.ell_min, self.direction == "l2r", int(seed),
            self._powers)
        if bad >= 0:
            raise self._fail(words[bad])
        return out

    def _graph(self, word: str):
        from . import logspace

        return logspace.word_graph(code_points(word), self._walk)

    def _probs(self, word: str) -> tuple[np.ndarray, int]:
        """Arc probability table in construction coordinates (raises if unsegmentable)."""
        n = len(word)
        graph = self._graph(word)
        span = graph.span
        if graph.logc[n] == -np.inf:
            raise self._fail(word)
        if (n + 1) * (span + 1) > _TABLE_BUDGET:
            raise InvalidValueError(f"word of {n:,} characters is too long for an exact table")
        probs = np.zeros((n + 1, span + 1))
        from . import logspace

        logspace.probability_table(graph, self._walk, probs)
        return probs, span

    # ------------------------------------------------------------------ sampling
    def sample(self, word: str) -> list[str]:
        """One segmentation of ``word`` (a list of tokens that concatenate to it)."""
        return self.tokenize_batch([self._check_word(word)])[0]

    def tokenize_batch(self, words: Sequence[str]) -> list[list[str]]:
        """One sampled segmentation per word (batched kernel, parallel over words).

        A small request in a process that has not loaded numba yet runs in plain Python
        (:mod:`.interpreted`: the same samples for the same seed, without numba's start-up).
        """
        words = _as_words(words)
        check_budget(sum(map(len, words)) * _PY_BYTES_PER_CHAR,
                     f"the token lists of {len(words):,} words",
                     hint=" (encode_flat() returns ids, without a Python object per token)")
        quick = self._interpreted(words)
        if quick is not None:
            return [tokens_from_lengths(word, lengths) for word, lengths in zip(words, quick)]
        offsets, out_len, _, ntok = self._batch(words)
        return [tokens_from_lengths(word, out_len[offsets[w]:offsets[w] + ntok[w]].tolist())
                for w, word in enumerate(words)]

    def encode_flat(self, words: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """One sample per word as token ids: ``(ids, offsets)``, no Python object per token.

        Word ``w``'s ids are ``ids[offsets[w]:offsets[w+1]]``. Finite vocabularies only. A
        small request in a process that has not loaded numba yet runs in plain Python
        (:mod:`.interpreted_encode`: the same ids for the same seed).
        """
        if self.vocab.is_infinite:
            raise ArgumentTypeError("encode needs a finite vocabulary (the infinite one has no "
                                    "ids)")
        words = _as_words(words)
        quick = self._interpreted(words)
        if quick is not None:  # a small first call: plain Python, the kernels' ids
            return interpreted_encode.ids_from_lengths(words, quick, self.vocab)
        return self._ids(*self._batch(words))

    def encode_code_points(self, code_points: np.ndarray, offsets: np.ndarray
                           ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`encode_flat` on words given flat, without one Python string per word.

        Word ``w`` is ``code_points[offsets[w]:offsets[w+1]]`` (integer arrays, code points
        in the vocabulary's alphabet). Same ids as ``encode_flat`` on the same words and seed.

        >>> from workbench import Vocabulary
        >>> g = Grampa(Vocabulary(["a", "b", "ab"]), seed=3)
        >>> ids, offs = g.encode_code_points(np.array([97, 98, 98]), np.array([0, 2, 3]))
        >>> same = Grampa(g.vocab, seed=3).encode_flat(["ab", "b"])
        >>> ids.tolist() == same[0].tolist(), offs.tolist() == same[1].tolist()
        (True, True)
        """
        if self.vocab.is_infinite:
            raise ArgumentTypeError("encode needs a finite vocabulary (the infinite one has no "
                                    "ids)")
        cps, offsets = check_flat_words(code_points, offsets)
        if cps.shape[0] <= interpreted.MAX_WORK and interpreted.applies((), self.vocab):
            words = interpreted_encode.words_from_flat(cps, offsets)
            quick = self._interpreted(words)
            if quick is not None:  # a small first call: plain Python, the kernels' ids
                return interpreted_encode.ids_from_lengths(words, quick, self.vocab)
        lengths = np.diff(offsets)

        def word_at(w: int) -> str:
            return "".join(map(chr, cps[offsets[w]:offsets[w + 1]].tolist()))

        return self._ids(*self._batch_flat(cps, offsets, lengths, True, word_at))

    @staticmethod
    def _ids(offsets, out_len, out_id, ntok) -> tuple[np.ndarray, np.ndarray]:
        from . import many

        ids = np.empty(int(ntok.sum()), dtype=np.int32)
        tok_offsets = np.empty(ntok.shape[0] + 1, dtype=np.int64)
        many.compact(out_id, offsets[:-1], ntok, ids, tok_offsets)
        return ids, tok_offsets

    def sample_lengths(self, word: str, n: int) -> tuple[np.ndarray, np.ndarray]:
        """``n`` samples of one word as flat token lengths plus ``offsets`` (length n+1).

        Sample ``s`` has token lengths ``lengths[offsets[s]:offsets[s+1]]``, in word order.
        Works for every vocabulary, including the infinite one. A small request in a process
        that has not loaded numba yet runs in plain Python (:mod:`.interpreted`, same samples).
        """
        word = self._check_word(word)
        n = check_int(n, "n", minimum=0)
        size = len(word)
        check_budget(n * max(size, 1) * 12 + n * 16,
                     f"{n:,} samples of a {size:,}-character word")
        if interpreted.applies([word], self.vocab, steps=n * size):
            mirror = self.direction == "l2r"
            rows = interpreted.probability_rows(word, self.vocab, self.alpha, self.ell_min,
                                                mirror)
            if rows is None:  # raised before a seed is drawn, as on the kernels' route
                raise self._fail(word)
            quick = interpreted.sample_lengths(rows, n, mirror, int(base_seed(self._rng)))
            ntok = np.fromiter(map(len, quick), dtype=np.int64, count=n)
            offsets = np.zeros(n + 1, dtype=np.int64)
            np.cumsum(ntok, out=offsets[1:])
            flat = np.fromiter((x for q in quick for x in q), dtype=np.int32,
                               count=int(offsets[-1]))
            return flat, offsets
        from . import logspace, many

        graph = self._graph(word)
        span = graph.span
        if graph.logc[size] == -np.inf:
            raise self._fail(word)
        use_table = (size + 1) * (span + 1) <= _TABLE_BUDGET
        probs = np.zeros((size + 1, span + 1) if use_table else (0, 1))
        if use_table:
            logspace.probability_table(graph, self._walk, probs)
        seed = base_seed(self._rng)
        block = max(1, _TABLE_BUDGET // max(size, 1))
        parts, counts = [], []
        for first in range(0, n, block):
            count = min(block, n - first)
            out = np.zeros(max(count * size, 1), dtype=np.int32)
            ntok = np.zeros(count, dtype=np.int64)
            samples = many.Samples(out, ntok)
            if count * max(size, 1) >= _PARALLEL_MIN_CELLS:
                many.many_batch(graph, self._walk, probs, seed, first, count, samples)
            else:
                many.many_chunk(graph, self._walk, probs, seed, first, 0, count, samples)
            flat = np.empty(int(ntok.sum()), dtype=np.int32)
            offs = np.empty(count + 1, dtype=np.int64)
            many.compact(out, np.arange(count, dtype=np.int64) * size, ntok, flat, offs)
            parts.append(flat)
            counts.append(ntok)
        lengths = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int32)
        ntok_all = np.concatenate(counts) if counts else np.zeros(0, dtype=np.int64)
        offsets = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(ntok_all, out=offsets[1:])
        return lengths, offsets

    def sample_many(self, word: str, n: int) -> list[list[str]]:
        """``n`` sampled segmentations of one word (Python lists: ~100 bytes per token).

        Time: ``n · (len(word) + 8)`` units at 2e6 per second (measured: 10⁶ samples of a
        21-character word in 13.9 s, mostly building the lists; :meth:`sample_lengths`
        is the fast route), checked against the time budget before sampling.
        """
        word = self._check_word(word)
        n = check_int(n, "n", minimum=0)
        check_budget(n * (max(len(word), 1) * 100 + 56),
                     f"{n:,} token lists of a {len(word):,}-character word")
        check_work(n * (len(word) + 8), f"sample_many(n={n:,}) of a {len(word):,}-character "
                   "word", rate=2e6, hint=" (ask for fewer samples, or use sample_lengths)")
        lengths, offsets = self.sample_lengths(word, n)
        flat = lengths.tolist()
        return [tokens_from_lengths(word, flat[offsets[s]:offsets[s + 1]]) for s in range(n)]

    # ------------------------------------------------------------------ exact laws
    def probability(self, word: str, tokens: Sequence[str]) -> float:
        """Exact probability that this sampler returns ``tokens`` for ``word``.

        0.0 if the tokens do not concatenate to ``word`` or use an arc outside the walked
        graph. Raises :class:`SegmentationError` if ``word`` has no segmentation at all, and
        :class:`~workbench.ArgumentTypeError` if ``tokens`` is one ``str`` (``"ab"`` is not
        read as ``["a", "b"]``; the one-token segmentation is ``["ab"]``).
        """
        from . import laws

        word = self._check_word(word)
        tokens = list(check_tokens(tokens))
        if not all(isinstance(t, str) and t for t in tokens) or "".join(tokens) != word:
            return 0.0
        probs, span = self._probs(word)
        return laws.path_probability(probs, span, [len(t) for t in tokens], self._walk.mirror)

    def distribution(self, word: str) -> dict[tuple[str, ...], float]:
        """Every segmentation of the walked graph with its exact probability.

        Refuses (ValueError) words with more than :data:`MAX_DISTRIBUTION_SIZE` of them.
        """
        from . import laws

        word = self._check_word(word)
        try:  # a saturating count: no exact (huge) integer for a long word
            segs = enumerate_segmentations(word, self.vocab, self.ell_min, self.direction,
                                           limit=MAX_DISTRIBUTION_SIZE)
        except BudgetError:
            raise
        except ValueError as err:
            raise BudgetError(f"distribution() is limited to {MAX_DISTRIBUTION_SIZE:,} "
                              f"segmentations: {err}") from None
        if not segs:
            raise self._fail(word)
        probs, span = self._probs(word)
        return {seg: laws.path_probability(probs, span, [len(t) for t in seg],
                                           self._walk.mirror)
                for seg in segs}

    def law(self, word: str) -> SegmentationLaw:
        """The exact law of :meth:`sample` on ``word``, chain-backed (any length).

        Entropy, E[#tokens], the token-count pmf, the mode, KL to uniform and the
        probability of one segmentation come from the walk's probability table by dynamic
        programming (:class:`workbench.lattice.chain.Chain`); :meth:`~SegmentationLaw.probabilities`
        is :meth:`distribution`, enumerated on first use and refused (with the count) past
        :data:`MAX_DISTRIBUTION_SIZE` segmentations. ``n_segmentations`` counts every
        segmentation of the word in the vocabulary (``ell_min = 1``; the walked graph may
        hold fewer); GRaMPa has no deterministic segmentation (``regularisation_rate`` is
        undefined).
        """
        from ..lattice.chain import Chain

        word = self._check_word(word)
        probs, _ = self._probs(word)
        return SegmentationLaw.from_chain(Chain(
            word, probs, self._walk.mirror, enumerate=lambda: (self._enumerated(word), 0.0),
            count=lambda: count_segmentations(word, self.vocab),
            log_count=lambda: self._log_count(word)))

    def _enumerated(self, word: str) -> dict[tuple[str, ...], float]:
        """:meth:`distribution`, refused first with the number of walked segmentations."""
        walked = count_segmentations(word, self.vocab, self.ell_min, self.direction)
        if walked > MAX_DISTRIBUTION_SIZE:
            raise BudgetError(f"the law of {word!r:.60} needs {about_count(walked)} "
                              f"segmentations, over the budget of {MAX_DISTRIBUTION_SIZE:,} "
                              "(refused before any work)")
        return self.distribution(word)

    def _log_count(self, word: str) -> float:
        """log of the number of segmentations of ``word`` in the vocabulary (float DP)."""
        n = len(word)
        if self.vocab.is_infinite:
            return (n - 1) * math.log(2.0) if n else 0.0
        from ..lattice.chain_kernels import log_count

        return float(log_count(arc_table(word, self.vocab), n, self.vocab.trie.max_len))

    def arc_probabilities(self, word: str) -> dict[tuple[int, int], float]:
        """Transition probability of every arc ``(i, j)`` of ``word``'s walked graph.

        See :func:`workbench.grampa.arc_probabilities`; ``{}`` for the empty word.
        """
        from . import laws

        word = self._check_word(word)
        if word == "":
            return {}
        probs, span = self._probs(word)
        return laws.word_arc_probabilities(probs, span, self._walk.mirror)

    def token_count_pmf(self, word: str) -> np.ndarray:
        """P(m = k) for k = 0..len(word) as an array.

        Deprecated (goes in the next release): the one token-count law is
        ``law(word).token_count_pmf()``, a dict ``{k: P(m = k)}``.
        """
        from . import laws

        warn_deprecated("Grampa.token_count_pmf(word)",
                        "Grampa.law(word).token_count_pmf() (a dict k -> P(m = k))")
        word = self._check_word(word)
        if word == "":
            return np.ones(1)
        n = len(word)
        check_budget(8 * (n + 1) ** 2, f"the token-count law of a {n:,}-character word "
                     "((n + 1)² table)")
        probs, span = self._probs(word)
        return laws.token_count_law(n, span, probs)

    def token_length_pmf(self, word: str) -> np.ndarray:
        """Expected share of tokens of each length ℓ = 0..len(word): E[N_ℓ] / E[m].

        This is the pooled law a histogram of all sampled token lengths converges to
        (Eq. 12 at τ = 1 under the infinite vocabulary). Entry 0 is 0.
        """
        from . import laws

        word = self._check_word(word)
        if word == "":
            return np.zeros(1)
        probs, span = self._probs(word)
        expected = laws.length_expectations(len(word), span, probs)
        return expected / expected.sum()

    def expected_token_count(self, word: str) -> float:
        """E[m]. Deprecated (goes in the next release): ``law(word).expected_tokens``."""
        warn_deprecated("Grampa.expected_token_count(word)", "Grampa.law(word).expected_tokens")
        return float(self.law(word).expected_tokens)


def arc_probabilities(
    word: str, vocab: Vocabulary, tau: float = 1.0, ell_min: int = 1, direction: str = "l2r"
) -> dict[tuple[int, int], float]:
    """GRaMPa's transition probability of every arc ``(i, j)`` (token ``word[i:j]``).

    For ``"r2l"`` it is P(previous node is i | at node j) — sampling walks right to left;
    for ``"l2r"`` it is P(next node is j | at node i). Arcs outside the walked graph are
    absent. The same as ``Grampa(vocab, tau=tau, ell_min=ell_min,
    direction=direction).arc_probabilities(word)``.

    Parameters
    ----------
    word : str
        In the vocabulary's alphabet.
    vocab : Vocabulary
    tau : float, default 1.0
    ell_min : int, default 1
    direction : {"l2r", "r2l"}, default "l2r"

    Returns
    -------
    dict {(i, j): float}
        Sorted by arc; ``{}`` for the empty word.

    Raises
    ------
    SegmentationError
        If ``word`` has no segmentation.

    >>> from workbench import Vocabulary
    >>> arc_probabilities("ab", Vocabulary(["a", "b", "ab"]), direction="r2l")
    {(0, 1): 1.0, (0, 2): 0.5, (1, 2): 0.5}
    """
    return Grampa(vocab, tau=tau, ell_min=ell_min, direction=direction).arc_probabilities(word)
