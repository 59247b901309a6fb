"""StochasTok (Sims et al., 2025): split tokens of a deterministic segmentation at random.

Sims, Foster, Kaleb, Nguyen, Lee, Foerster, Teh and Lu, "StochasTok: Improving Fine-Grained
Subword Understanding in LLMs" (arXiv 2506.01687), as their reference code
(``stochastok_processor.py``, ``StochastokProcessor.expand``) runs it: a token's
*expansions* are its splits into two vocabulary tokens (``t = a + b``, both in the
vocabulary, at every cut); starting from the deterministic segmentation of ``m`` tokens,
``int(m · rate)`` attempts are made (``rate`` is their ``expand_prop``, 0.1 by default;
:class:`StochasTokSampler` also takes a fixed number of ``attempts``). Each attempt picks a
position uniformly among the *current* tokens; if that token has expansions, one is chosen
uniformly and replaces it, otherwise the attempt is spent. ``max_splits`` (their
``max_num_to_expand``) stops after that many successful splits. The paper applies it to a
whole token sequence; here it is applied to one word, so ``rate`` gives the word its own
``int(m · rate)`` attempts.

:meth:`StochasTokSampler.law` is the exact law for the word's number of attempts, by
propagating the distribution over the reachable refinements attempt by attempt (exact
Fractions with ``exact=True``), refused before any work when an upper bound on those
refinements exceeds :data:`MAX_STATES`. Randomness: word ``w`` of a call uses SplitMix64
stream ``w`` of a base seed drawn from the sampler's generator (one uniform per attempt, one
more per split). This module is plain Python; it does not build the deterministic
segmentation itself (MaxMatch by default, any callable otherwise).

Example
-------
>>> from workbench import Vocabulary
>>> v = Vocabulary(["a", "b", "ab", "abb"])
>>> law = StochasTokSampler(v, attempts=1).law("abba", exact=True)
>>> law.probabilities()
{('abb', 'a'): Fraction(1, 2), ('ab', 'b', 'a'): Fraction(1, 2)}
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

import numpy as np

from .._core.errors import ArgumentTypeError, InvalidValueError
from .._core.rng import next_double, stream_state
from .._core.seeds import base_seed
from .._core.validate import BudgetError, check_int, check_real, check_work
from ..lattice import check_vocab, check_word, count_segmentations
from ..laws import SegmentationLaw
from ..vocab import Vocabulary
from ..wordlevel import TokenSampler, as_words
from .maxmatch import MaxMatchSampler

#: The paper's ``expand_prop`` default (its configs use 0.1).
DEFAULT_RATE = 0.1
#: Largest number of attempts per word (fixed, or from ``rate``).
MAX_ATTEMPTS = 10_000
#: Largest rate (attempts per base token).
MAX_RATE = 100.0
#: Largest number of refinements :meth:`StochasTokSampler.law` propagates (an upper bound:
#: the product over the base tokens of their segmentations into the vocabulary).
MAX_STATES = 200_000
#: Units per second of the propagation (``attempts × states × (tokens + splits)``).
PROPAGATION_RATE = 2e6


class StochasTokSampler(TokenSampler):
    """StochasTok on one word at a time (see the module docstring).

    Parameters
    ----------
    vocab : Vocabulary
        Finite; splits are into two of its tokens.
    attempts : int, optional
        Split attempts per word (0 .. :data:`MAX_ATTEMPTS`). Give this or ``rate``.
    rate : float, optional
        ``int(m · rate)`` attempts for a word of ``m`` base tokens (the paper's
        ``expand_prop``); :data:`DEFAULT_RATE` when neither is given.
    max_splits : int, optional
        Stop after this many successful splits (the paper's ``max_num_to_expand``).
    base : callable, optional
        ``word -> tokens``, the deterministic segmentation (default: MaxMatch on ``vocab``).
    seed : int, numpy.random.Generator or None
    """

    def __init__(self, vocab: Vocabulary, *, attempts: int | None = None,
                 rate: float | None = None, max_splits: int | None = None,
                 base: Callable[[str], Sequence[str]] | None = None,
                 seed: int | np.random.Generator | None = None) -> None:
        vocab = check_vocab(vocab)
        if vocab.is_infinite:
            raise ArgumentTypeError("StochasTokSampler needs a finite vocabulary")
        super().__init__(vocab, seed)
        if attempts is not None and rate is not None:
            raise InvalidValueError("give attempts or rate, not both")
        self.attempts = None if attempts is None else check_int(
            attempts, "attempts", minimum=0, maximum=MAX_ATTEMPTS)
        self.rate = None if attempts is not None else check_real(
            DEFAULT_RATE if rate is None else rate, "rate", minimum=0.0, maximum=MAX_RATE)
        self.max_splits = None if max_splits is None else check_int(
            max_splits, "max_splits", minimum=0)
        if base is not None and not callable(base):
            raise ArgumentTypeError("base must be callable (word -> tokens), not "
                                    f"{type(base).__name__}")
        self._base = base if base is not None else MaxMatchSampler(vocab).sample
        self._tokens = frozenset(vocab.tokens)
        self._splits: dict[str, list[tuple[str, str]]] = {}

    def __repr__(self) -> str:
        how = f"attempts={self.attempts}" if self.attempts is not None else f"rate={self.rate}"
        return f"StochasTokSampler({self.vocab!r}, {how}, max_splits={self.max_splits})"

    def expansions(self, token: str) -> list[tuple[str, str]]:
        """Every split of ``token`` into two vocabulary tokens, by cut position."""
        hit = self._splits.get(token)
        if hit is None:
            hit = [(token[:j], token[j:]) for j in range(1, len(token))
                   if token[:j] in self._tokens and token[j:] in self._tokens]
            self._splits[token] = hit
        return hit

    def base(self, word: str) -> tuple[str, ...]:
        """The deterministic segmentation StochasTok starts from (checked to spell ``word``)."""
        tokens = tuple(self._base(word))
        if not all(isinstance(t, str) and t for t in tokens) or "".join(tokens) != word:
            raise InvalidValueError(f"base({word!r:.60}) returned {tokens!r:.80}, not non-empty "
                                    "tokens that spell the word")
        return tokens

    def n_attempts(self, m: int) -> int:
        """Split attempts for a word of ``m`` base tokens."""
        if self.attempts is not None:
            return self.attempts
        return min(int(m * self.rate), MAX_ATTEMPTS)

    def _one(self, word: str, state) -> list[str]:
        seg = list(self.base(word))
        m = len(seg)
        if not m:  # the empty word: nothing to split (its attempts would pick from nothing)
            return seg
        for _ in range(self.n_attempts(m)):
            if self.max_splits is not None and len(seg) - m >= self.max_splits:
                break
            u, state = next_double(np.uint64(state))
            idx = min(int(u * len(seg)), len(seg) - 1)
            splits = self.expansions(seg[idx])
            if splits:
                u, state = next_double(np.uint64(state))
                seg[idx:idx + 1] = splits[min(int(u * len(splits)), len(splits) - 1)]
        return seg

    def tokenize_batch(self, words: Sequence[str]) -> list[list[str]]:
        """One StochasTok segmentation per word."""
        words = [check_word(w) for w in as_words(words)]
        seed = base_seed(self._rng)
        return [self._one(w, np.uint64(stream_state(seed, k))) for k, w in enumerate(words)]

    def law(self, word: str, *, exact: bool = False) -> SegmentationLaw:
        """The exact law of :meth:`sample` on ``word`` (Fractions with ``exact=True``).

        Propagates the distribution over refinements of :meth:`base` attempt by attempt.
        Refused (:class:`BudgetError`, before any work) when the product over the base
        tokens of their segmentations into the vocabulary (a bound on the refinements)
        exceeds :data:`MAX_STATES`, or the propagation's estimated time the time budget.
        ``deterministic`` is the base segmentation (so ``regularisation_rate`` is
        P(at least one split)); ``n_segmentations`` counts the word's segmentations (None
        if a base token is not in the vocabulary).
        """
        word = check_word(word)
        if not isinstance(exact, bool):
            raise ArgumentTypeError(f"exact must be a bool, not {type(exact).__name__}")
        start = self.base(word)
        m, k = len(start), self.n_attempts(len(start))
        bound = 1
        for t in start:
            bound *= max(1, count_segmentations(t, self.vocab))
            if bound > MAX_STATES:
                raise BudgetError(f"the StochasTok law of {word!r:.60} needs up to more than "
                                  f"{MAX_STATES:,} refinements of its {m} base tokens, over "
                                  "the budget (refused before any work)")
        check_work(k * bound * (m + len(word)), f"the StochasTok law of {word!r:.60} ({k} "
                   f"attempts over up to {bound:,} refinements)", rate=PROPAGATION_RATE,
                   hint=" (sample it instead)")
        one = Fraction(1) if exact else 1.0
        dist: dict[tuple[str, ...], Fraction | float] = {start: one}
        for _ in range(k if m else 0):  # the empty word: nothing to split
            nxt: dict[tuple[str, ...], Fraction | float] = {}
            for seg, p in dist.items():
                if self.max_splits is not None and len(seg) - m >= self.max_splits:
                    nxt[seg] = nxt.get(seg, 0) + p
                    continue
                share = p / len(seg)
                for idx, t in enumerate(seg):
                    splits = self.expansions(t)
                    if not splits:
                        nxt[seg] = nxt.get(seg, 0) + share
                        continue
                    for a, b in splits:
                        new = seg[:idx] + (a, b) + seg[idx + 1:]
                        nxt[new] = nxt.get(new, 0) + share / len(splits)
            dist = nxt
        in_vocab = all(t in self._tokens for t in start)
        return SegmentationLaw(word, dist, deterministic=start, n_segmentations=(
            count_segmentations(word, self.vocab) if in_vocab and word else None))
