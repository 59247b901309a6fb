"""Rejection samplers of segmentations on any vocabulary, with GRaMPa's interface.

* :class:`MarkovRejectionSampler` — Cognetta et al. (2024), GRaMPa paper §2: uniform over
  the valid segmentations; ``epsilon="safe"`` (footnote 4) or ``"tight"`` (min over paths);
* :class:`BitRejectionSampler` — §3.2: boundary bits with proclivity ``p``, retried until
  every token is in V (uniform at ``p = 0.5``, ``∝ p^(m-1) (1-p)^(n-m)`` otherwise);
* :class:`UnigramRejectionSampler` — Appendix B: Markov walk on the unigram-weighted graph
  plus acceptance ``Π Z_i / c2``, so samples are proportional to the joint ``Π P(t)``;
* :func:`markov_rejection_samples` (and :func:`markov_rejection_sample`) and
  :func:`bit_rejection_samples` — the two schemes of §3.2 / App. A.5 on a bare length ``n``
  (the full lattice of the infinite vocabulary; "every string of at most ``L``
  characters"), as flat token lengths: the same kernels (:mod:`.kernels`), whose expected
  cost :mod:`workbench.theory.grampa.rejection` states in closed form. Sample ``k`` of a
  call draws from its own SplitMix64 stream (:mod:`workbench._core.rng`).

Every sampler refuses a word whose *expected* number of trials per sample exceeds
``max_trials`` before its first trial (:class:`RejectionLimitError`, with that number), and
stops a sample that uses ``max_trials`` trials; so no call runs unbounded. The trials each
sample of the last call used are in :attr:`last_trials`.

Words are segmented exactly as given (spell plain words with ``Vocabulary.to_alphabet``).
This module does not compute closed forms (:mod:`workbench.theory.grampa.rejection`) and does not
multiplex (:class:`workbench.Multiplexer`).

Example
-------
>>> from workbench import Vocabulary
>>> s = MarkovRejectionSampler(Vocabulary(["a", "b", "ab"]), seed=0)
>>> "".join(s.sample("abab")), s.expected_trials("abab")
('abab', 1.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from .._core.errors import ArgumentTypeError, InvalidValueError, public
from .._core.seeds import as_generator, base_seed
from .._core.validate import (
    BudgetError,
    check_budget,
    check_choice,
    check_int,
    check_n,
    check_probability,
    check_work,
)
from ..lattice import SegmentationError, check_vocab, check_word, code_points
from ..laws import SegmentationLaw
from ..theory.grampa.rejection import (
    bit_rejection_expected_trials,
    bounded_composition_count,
    markov_rejection_expected_trials,
)
from ..vocab import Vocabulary
from ..wordlevel import MAX_SAMPLES, TokenSampler, as_words, check_request
from . import kernels
from .laws import weighted_law

#: Default trials allowed per sample (and largest expected number accepted).
DEFAULT_MAX_TRIALS = 1_000_000
#: Words longer than this are refused under the infinite vocabulary (an n² arc table).
MAX_INFINITE_LENGTH = 4096
_PARALLEL_MIN_WORDS = 256
MAX_MARKOV_N = 14
"""Largest ``n`` for :func:`markov_rejection_samples`: ``E[T] = n!/2^(n-1)`` is ~1.1e7 at 14."""
MAX_BIT_N = 40
"""Largest ``n`` for :func:`bit_rejection_samples` (masks come from 53-bit uniforms)."""
MAX_EXPECTED_DRAWS = 2 * 10**9
"""A length-only sampler call whose expected total number of trials exceeds this is refused."""
MAX_SIZE = 10**8
"""Largest number of samples in one length-only call."""
LENGTH_TRIAL_RATE = 1.5e8
"""Units per second of the length-only samplers' time model: ``n + 8`` units per expected
walk or draw on length ``n``, 100 per sample (measured: Markov walks 1.5e8-1.9e8 units/s at
n = 11, 12; bit masks 3.6e8 at n = 36). The expected-draws cap alone allowed ~290 s."""
TRIAL_RATE = 4e7
"""Units per second of a word sampler's time model: one trial of a word of ``n`` characters
costs ``n + 8`` units, one sample 100 more (measured on the 8k ULM vocabulary, e.g.
"▁internationalization": 73 Unigram samples of 4.1e4 expected trials each in 1.4-2.3 s,
i.e. 3.7e7 units/s; 2.8 M samples of "▁the" in 4.1 s; the Markov and bit samplers are
faster per trial)."""


@public
class RejectionLimitError(BudgetError):
    """A rejection sampler would need (or used) more than ``max_trials`` trials."""


class _RejectionSampler(TokenSampler):
    """Shared wrapper: validation, the kernel call and error messages."""

    _kind = kernels.MARKOV_TIGHT
    _log_weights = False  # does _weight return log-weights?

    def __init__(self, vocab: Vocabulary, *, max_trials: int = DEFAULT_MAX_TRIALS,
                 seed: int | np.random.Generator | None = None) -> None:
        super().__init__(check_vocab(vocab), seed)
        self.max_trials = check_int(max_trials, "max_trials", minimum=1, maximum=2**62)
        self.last_trials = np.zeros(0, dtype=np.int64)

    def _scheme(self) -> kernels.Scheme:
        v = self.vocab
        if v.is_infinite:
            da, codes, max_len = (np.full((3, 1), -1, dtype=np.int32),
                                  np.zeros(1, dtype=np.int32), 0)
        else:
            da, codes, max_len = v.trie.da, v.trie.codes, v.trie.max_len
        return kernels.Scheme(da, codes, int(max_len), bool(v.is_infinite), self._kind,
                              self._logw(), float(getattr(self, "p", 0.5)),
                              int(self.max_trials))

    def _logw(self) -> np.ndarray:
        return np.zeros(0)

    def _check_word(self, word: object) -> str:
        word = check_word(word)
        if self.vocab.is_infinite and len(word) > MAX_INFINITE_LENGTH:
            raise InvalidValueError(f"word has {len(word):,} characters; the infinite vocabulary "
                                    "is "
                                    f"limited to {MAX_INFINITE_LENGTH:,} here (n² arc table)")
        width = len(word) + 1 if self.vocab.is_infinite else (self.vocab.max_token_length or 0)
        check_budget((len(word) + 1) * (width + 1) * 5, "the arc table of one word")
        return word

    def _raise(self, status: int, word: str, expected: float, trials: int) -> None:
        if status == kernels.UNSEGMENTABLE:
            raise SegmentationError(f"no segmentation of {word!r} under this vocabulary")
        if status == kernels.TOO_EXPENSIVE:
            raise RejectionLimitError(
                f"{type(self).__name__} refuses {word!r}: it needs {expected:.3g} trials per "
                f"sample in expectation, more than max_trials={self.max_trials:,} (refused "
                "before sampling)")
        if status == kernels.GUARD_HIT:
            raise RejectionLimitError(
                f"{type(self).__name__} gave up on {word!r} after {trials:,} trials "
                f"(max_trials={self.max_trials:,}; {expected:.3g} expected per sample)")

    def _run_batch(self, words: list[str]):
        for w in words:
            if len(w) > 64:
                self._check_word(w)
        lengths = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
        check_request(int(lengths.sum()), f"a batch of {len(words):,} words")
        offsets = np.zeros(len(words) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        cps = code_points("".join(words))
        size = max(int(offsets[-1]), 1)
        out_len = np.zeros(size, dtype=np.int32)
        out_id = np.full(size, -1, dtype=np.int32)
        ntok = np.zeros(len(words), dtype=np.int64)
        trials = np.zeros(len(words), dtype=np.int64)
        expected = np.zeros(len(words))
        status = np.zeros(len(words), dtype=np.int64)
        kernels.sample_batch(cps, offsets, self._scheme(), base_seed(self._rng),
                             kernels.Samples(out_len, out_id, ntok, trials), expected, status)
        self.last_trials = trials
        bad = np.flatnonzero(status != kernels.OK)
        if bad.size:
            w = int(bad[0])
            self._raise(int(status[w]), words[w], float(expected[w]), int(trials[w]))
        return offsets, out_len, out_id, ntok

    # ------------------------------------------------------------------ public API
    def tokenize_batch(self, words: Sequence[str]) -> list[list[str]]:
        """One sampled segmentation per word (word ``w`` on its own random stream)."""
        words = as_words(words)
        offsets, out_len, _, ntok = self._run_batch(words)
        out = []
        for w, word in enumerate(words):
            pos, toks = 0, []
            for length in out_len[offsets[w]:offsets[w] + ntok[w]].tolist():
                toks.append(word[pos:pos + length])
                pos += length
            out.append(toks)
        return out

    def encode_flat(self, words: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """One sample per word as token ids: ``(ids, offsets)`` (finite vocabularies)."""
        if self.vocab.is_infinite:
            raise ArgumentTypeError("encode needs a finite vocabulary (the infinite one has no "
                                    "ids)")
        words = as_words(words)
        offsets, _, out_id, ntok = self._run_batch(words)
        tok_offsets = np.zeros(len(words) + 1, dtype=np.int64)
        np.cumsum(ntok, out=tok_offsets[1:])
        keep = np.zeros(out_id.shape[0], dtype=bool)
        for w in range(len(words)):
            keep[offsets[w]:offsets[w] + ntok[w]] = True
        return out_id[keep].astype(np.int32), tok_offsets

    def sample_lengths(self, word: str, n: int) -> tuple[np.ndarray, np.ndarray]:
        """``n`` samples of one word as flat token lengths plus offsets (length ``n + 1``).

        Time: ``n · (E[T] · (len(word) + 8) + 100)`` units at :data:`TRIAL_RATE` per second, with
        ``E[T]`` the exact expected trials per sample (:meth:`expected_trials`, one pass
        over the lattice); over the time budget the call raises
        :class:`~workbench._core.validate.BudgetError` before the first trial. (A word whose
        ``E[T]`` exceeds ``max_trials`` is refused by :class:`RejectionLimitError` instead.)
        """
        word = self._check_word(word)
        n = check_int(n, "n", minimum=0, maximum=MAX_SAMPLES)
        size = len(word)
        check_request(n * max(size, 1), f"{n:,} samples of a {size}-character word")
        if n > 1:
            expected = self.expected_trials(word)
            if expected <= self.max_trials:  # (inf, or above: the kernel raises its own error)
                check_work(n * (expected * (size + 8) + 100),
                           f"{type(self).__name__}: {n:,} samples of a {size}-character word "
                           f"({expected:.3g} expected trials each)", rate=TRIAL_RATE,
                           hint=" (ask for fewer samples)")
        out_len = np.zeros(max(n * size, 1), dtype=np.int32)
        out_id = np.zeros(max(n * size, 1), dtype=np.int32)
        ntok = np.zeros(max(n, 1), dtype=np.int64)
        trials = np.zeros(max(n, 1), dtype=np.int64)
        info = np.zeros(1)
        status = kernels.sample_word(code_points(word), self._scheme(), base_seed(self._rng), 0,
                                     n, kernels.Samples(out_len, out_id, ntok, trials), info)
        self.last_trials = trials[:n]
        if status != kernels.OK:
            self._raise(int(status), word, float(info[0]), int(trials.max(initial=0)))
        ntok = ntok[:n]
        offsets = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(ntok, out=offsets[1:])
        keep = (np.arange(size)[None, :] < ntok[:, None]).ravel() if size else np.zeros(0, bool)
        return out_len[: n * size][keep], offsets

    def sample_many(self, word: str, n: int) -> list[list[str]]:
        """``n`` segmentations of one word (lattice built once)."""
        lengths, offsets = self.sample_lengths(word, n)
        flat = lengths.tolist()
        out = []
        for s in range(n):
            pos, toks = 0, []
            for length in flat[offsets[s]:offsets[s + 1]]:
                toks.append(word[pos:pos + length])
                pos += length
            out.append(toks)
        return out

    def _weight(self, seg: tuple[str, ...], n: int) -> Fraction | float:
        """Unnormalised probability of a segmentation (uniform: 1; a log if _log_weights)."""
        return Fraction(1)

    def law(self, word: str) -> SegmentationLaw:
        """The exact law of :meth:`sample` on ``word`` (enumerated; no trial is run).

        Every segmentation of ``word`` weighted as the class docstring says and normalised
        (exact Fractions for the uniform law); refused at once past
        :data:`workbench.samplers.laws.MAX_ENUMERATED` segmentations. The law does not
        depend on ``epsilon`` or ``max_trials`` (they change the cost, not the law); a
        word the sampler refuses for its cost still has one.
        """
        word = self._check_word(word)
        return weighted_law(word, self.vocab, lambda seg: self._weight(seg, len(word)),
                            log=self._log_weights)

    def expected_trials(self, word: str) -> float:
        """Exact expected number of trials per sample of ``word`` (``inf`` if unsegmentable)."""
        word = self._check_word(word)
        info = np.zeros(1)
        one = np.zeros(1, dtype=np.int64)
        kernels.sample_word(code_points(word), self._scheme()._replace(max_trials=0), np.uint64(0),
                            0, 0, kernels.Samples(np.zeros(1, np.int32), np.zeros(1, np.int32),
                                                  one, one), info)
        return float(info[0])


class MarkovRejectionSampler(_RejectionSampler):
    """Uniform segmentations by Markov walks plus rejection (Cognetta et al., 2024).

    Parameters
    ----------
    vocab : Vocabulary
        Any vocabulary, the infinite one included (then ``encode`` is unavailable).
    epsilon : {"safe", "tight"}, default "tight"
        ``"safe"``: ε = Π 1/δ_o(i) over every live node (footnote 4); ``"tight"``: ε = min
        over paths of P_Markov (a max-product dynamic programme), the largest valid ε.
    max_trials : int
        Trials allowed per sample; a word expected to need more is refused at once.
    seed : int, numpy.random.Generator or None
    """

    def __init__(self, vocab: Vocabulary, *, epsilon: str = "tight",
                 max_trials: int = DEFAULT_MAX_TRIALS,
                 seed: int | np.random.Generator | None = None) -> None:
        self.epsilon = check_choice(epsilon, "epsilon", ("safe", "tight"))
        self._kind = kernels.MARKOV_SAFE if self.epsilon == "safe" else kernels.MARKOV_TIGHT
        super().__init__(vocab, max_trials=max_trials, seed=seed)

    def __repr__(self) -> str:
        return f"MarkovRejectionSampler({self.vocab!r}, epsilon={self.epsilon!r})"


def _xlogy(k: int, q: float) -> float:
    """``k · log q`` with ``0 · log 0 = 0`` (a factor ``q^0`` is 1 even for ``q = 0``)."""
    if k == 0:
        return 0.0
    return -math.inf if q == 0.0 else k * math.log(q)


class BitRejectionSampler(_RejectionSampler):
    """Boundary bits with proclivity ``p``, retried until every token is in V (§3.2).

    Uniform over the valid segmentations at ``p = 0.5``; otherwise a segmentation with
    ``m`` tokens has probability ``∝ p^(m-1) (1-p)^(n-m)``.

    Parameters
    ----------
    vocab : Vocabulary
    p : float in [0, 1], default 0.5
    max_trials : int
    seed : int, numpy.random.Generator or None
    """

    _kind = kernels.BITS
    _log_weights = True  # p^(m-1) (1-p)^(n-m) underflows for a small p: kept as its log

    def __init__(self, vocab: Vocabulary, *, p: float = 0.5,
                 max_trials: int = DEFAULT_MAX_TRIALS,
                 seed: int | np.random.Generator | None = None) -> None:
        self.p = check_probability(p, "p")
        super().__init__(vocab, max_trials=max_trials, seed=seed)

    def __repr__(self) -> str:
        return f"BitRejectionSampler({self.vocab!r}, p={self.p})"

    def _weight(self, seg: tuple[str, ...], n: int) -> float:
        """``log(p^(m-1) (1-p)^(n-m))`` (``-inf`` for a weight of 0)."""
        m = len(seg)
        if not m:
            return 0.0
        return _xlogy(m - 1, self.p) + _xlogy(n - m, 1.0 - self.p)


class UnigramRejectionSampler(_RejectionSampler):
    """Segmentations proportional to the joint unigram probability Π P(t) (Appendix B).

    A Markov walk picks arcs with probability ``P(t) / Z_i`` (``Z_i`` the total weight of
    node ``i``'s live out-arcs) and is accepted with ``Π Z_i / c2``, where ``c2`` is the
    largest product of denominators over paths (a Viterbi max-product).

    Parameters
    ----------
    vocab : Vocabulary
        Finite, with ``scores`` = log probabilities (natural log; any finite reals work:
        they are weights; ``-inf`` removes a token).
    max_trials : int
    seed : int, numpy.random.Generator or None
    """

    _kind = kernels.UNIGRAM

    def __init__(self, vocab: Vocabulary, *, max_trials: int = DEFAULT_MAX_TRIALS,
                 seed: int | np.random.Generator | None = None) -> None:
        vocab = check_vocab(vocab)
        if vocab.is_infinite or vocab.scores is None:
            raise ArgumentTypeError("UnigramRejectionSampler needs a finite vocabulary with scores "
                                    "(log probabilities)")
        scores = vocab.scores
        if np.isnan(scores).any() or (scores == np.inf).any():
            raise InvalidValueError("vocabulary scores must be finite log probabilities or -inf")
        super().__init__(vocab, max_trials=max_trials, seed=seed)
        self._logw_table = vocab.scores_by_id(-np.inf)

    def _logw(self) -> np.ndarray:
        return self._logw_table

    _log_weights = True

    def _weight(self, seg: tuple[str, ...], n: int) -> float:
        """log Π P(t) (natural log; ``-inf`` if a token's score is ``-inf``)."""
        table, id_of = self._logw_table, self.vocab.id_of
        return float(sum(table[id_of(t)] for t in seg))

    def __repr__(self) -> str:
        return f"UnigramRejectionSampler({self.vocab!r})"


# --------------------------------------------------------------------------- length-only (§3.2)
def _length_samples(n: int, size: int, seed, kind: int, cap: int, expected, unit: str
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Run ``size`` samples of the kernel ``kind`` on the bare length ``n``; checked input."""
    total = expected * size
    if total > MAX_EXPECTED_DRAWS:
        raise RejectionLimitError(f"size = {size} would need ~{float(total):.3g} {unit} in "
                                  f"expectation; the limit is {MAX_EXPECTED_DRAWS:.0e}")
    check_budget(size * (n * 8 + 24), f"{size:,} samples of length {n}")
    check_work(float(total) * (n + 8) + 100 * size, f"{size:,} samples of length {n} "
               f"({float(expected):.3g} {unit} each expected)", rate=LENGTH_TRIAL_RATE,
               hint=" (lower size)")
    scheme = kernels.Scheme(np.full((3, 1), -1, dtype=np.int32), np.zeros(1, dtype=np.int32),
                            cap, True, kind, np.zeros(0), 0.5, 2**62)
    out_len = np.zeros(size * n, dtype=np.int32)
    out_id = np.zeros(size * n, dtype=np.int32)
    ntok = np.zeros(size, dtype=np.int64)
    trials = np.zeros(size, dtype=np.int64)
    kernels.sample_word(code_points("a" * n), scheme, base_seed(as_generator(seed)), 0, size,
                        kernels.Samples(out_len, out_id, ntok, trials), np.zeros(1))
    offsets = np.zeros(size + 1, dtype=np.int64)
    np.cumsum(ntok, out=offsets[1:])
    keep = (np.arange(n)[None, :] < ntok[:, None]).ravel()
    return out_len[keep].astype(np.int64), offsets, trials


def markov_rejection_samples(n: int, size: int, seed: int | np.random.Generator | None = None
                             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Batch Markov rejection sampling on the full lattice (Cognetta et al. 2024).

    Each sample walks from node 0 choosing one of the ``n - j`` out-arcs of node ``j``
    uniformly, and is accepted with probability ``ε/P_Markov = (Π (n-j)) / n!``; otherwise
    it is redrawn. Accepted segmentations are uniform over the ``2^(n-1)`` compositions.
    It is :class:`MarkovRejectionSampler` on the infinite vocabulary, as token lengths.

    Parameters
    ----------
    n : int
        String length, ``1 <= n <= MAX_MARKOV_N``.
    size : int
        Number of accepted samples, ``1 <= size <= MAX_SIZE``.
    seed : int, numpy.random.Generator or None
        Randomness source (a fresh base seed is drawn from it).

    Returns
    -------
    lengths : numpy.ndarray of int64
        Token lengths of all samples, concatenated.
    offsets : numpy.ndarray of int64
        Shape ``(size + 1,)``; sample ``k`` is ``lengths[offsets[k]:offsets[k+1]]``.
    trials : numpy.ndarray of int64
        Number of walks each accepted sample took (``>= 1``).

    Raises
    ------
    RejectionLimitError
        A :class:`~workbench._core.validate.BudgetError`: more than
        :data:`MAX_EXPECTED_DRAWS` walks expected in total (``size · n!/2^(n-1)``).

    Examples
    --------
    >>> lengths, offsets, trials = markov_rejection_samples(4, 3, seed=0)
    >>> offsets.shape, bool((np.add.reduceat(lengths, offsets[:-1]) == 4).all())
    ((4,), True)
    """
    n = check_n(n, maximum=MAX_MARKOV_N,
                why=f" (E[T] = n!/2^(n-1) trials; capped at n = {MAX_MARKOV_N})")
    size = check_int(size, "size", minimum=1, maximum=MAX_SIZE)
    return _length_samples(n, size, seed, kernels.MARKOV_TIGHT, 0,
                           markov_rejection_expected_trials(n), "walks")


def markov_rejection_sample(n: int, seed: int | np.random.Generator | None = None
                            ) -> tuple[np.ndarray, int]:
    """One Markov rejection sample of an ``n``-character string (infinite vocabulary).

    Same kernel as :func:`markov_rejection_samples` with ``size=1``.

    Returns
    -------
    lengths : numpy.ndarray of int64
        The accepted segmentation's token lengths (sum ``n``).
    trials : int
        Number of walks until acceptance.

    Examples
    --------
    >>> lengths, trials = markov_rejection_sample(3, seed=7)
    >>> int(lengths.sum())
    3
    """
    lengths, _, trials = markov_rejection_samples(n, 1, seed)
    return lengths, int(trials[0])


def bit_rejection_samples(n: int, max_token_length: int, size: int,
                          seed: int | np.random.Generator | None = None
                          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Bit-mask rejection sampling (§3.2) under the vocabulary of strings ``<= L`` long.

    Draws a uniform integer in ``0 … 2^(n-1)-1``, reads its bits as boundaries (C.1 order)
    and retries until no token is longer than ``max_token_length``. Accepted samples are
    uniform over the :func:`~workbench.theory.bounded_composition_count` valid segmentations
    and each takes ``Geom(N_V / 2^(n-1))`` trials.

    Parameters
    ----------
    n : int
        String length, ``1 <= n <= MAX_BIT_N``.
    max_token_length : int
        ``L >= 1``.
    size : int
        Number of accepted samples.
    seed : int, numpy.random.Generator or None
        Randomness source.

    Returns
    -------
    lengths, offsets, trials : numpy.ndarray of int64
        As in :func:`markov_rejection_samples`.

    Raises
    ------
    RejectionLimitError
        More than :data:`MAX_EXPECTED_DRAWS` draws expected in total.

    Examples
    --------
    >>> lengths, offsets, trials = bit_rejection_samples(6, 2, 5, seed=0)
    >>> int(lengths.max()) <= 2
    True
    """
    n = check_n(n, maximum=MAX_BIT_N)
    cap = check_int(max_token_length, "max_token_length", minimum=1)
    size = check_int(size, "size", minimum=1, maximum=MAX_SIZE)
    expected = bit_rejection_expected_trials(bounded_composition_count(n, cap), n)
    return _length_samples(n, size, seed, kernels.BIT_MASK, min(cap, n), expected, "draws")
