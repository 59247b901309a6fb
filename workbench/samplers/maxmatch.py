"""MaxMatch (greedy longest prefix) and MaxMatch-dropout (Hiraoka, 2022) as samplers.

At each position the longest vocabulary token that starts there is taken. With dropout
``q``, every candidate longer than one character that matches is skipped with probability
``q`` (longest first), so a shorter match is taken instead; single characters are never
skipped, and if every match is skipped the shortest matching token is taken. ``q = 0`` is
:func:`workbench.segmenters.longest_match`.

**Failure is possible on words MaxMatch segments.** A skipped match can leave a rest where
no token starts: with the vocabulary ``{a, ab, abc, d}`` and ``q = 0.5``, ``"abcd"`` is
``abc|d`` with probability 1/2 and stuck at ``c`` or ``b`` otherwise. The sampler then
raises :class:`workbench.SegmentationError` naming the position (a documented choice: it
does not retry, which would change the law, nor return an unknown token as Hiraoka's code
does, which the vocabulary may not have); :meth:`MaxMatchSampler.law` states the
probability of that as the law's ``failure_mass``.

Randomness: word ``w`` of a call uses SplitMix64 stream ``w`` of a base seed drawn from the
sampler's generator. This module is plain Python (one word at a time); it does not sample
uniformly, and its law is computed in :mod:`.laws`.

Example
-------
>>> from workbench import Vocabulary
>>> v = Vocabulary(["a", "b", "ab", "abb"])
>>> MaxMatchSampler(v).sample("abba")
['abb', 'a']
>>> MaxMatchSampler(v, dropout=1.0).sample("abba")
['a', 'b', 'b', 'a']
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .._core.errors import ArgumentTypeError
from .._core.rng import next_double, stream_state
from .._core.seeds import base_seed
from .._core.validate import check_probability
from ..lattice import SegmentationError, check_vocab, check_word
from ..laws import SegmentationLaw
from ..vocab import Vocabulary
from ..wordlevel import TokenSampler, as_words
from .laws import maxmatch_chain


class MaxMatchSampler(TokenSampler):
    """Greedy longest-prefix matching, optionally with Hiraoka's dropout ``q``.

    Parameters
    ----------
    vocab : Vocabulary
        Finite.
    dropout : float in [0, 1], default 0.0
    seed : int, numpy.random.Generator or None
    """

    def __init__(self, vocab: Vocabulary, *, dropout: float = 0.0,
                 seed: int | np.random.Generator | None = None) -> None:
        vocab = check_vocab(vocab)
        if vocab.is_infinite:
            raise ArgumentTypeError("MaxMatchSampler needs a finite vocabulary")
        super().__init__(vocab, seed)
        self.dropout = check_probability(dropout, "dropout")
        self._tokens = frozenset(vocab.tokens)
        self._longest = vocab.max_token_length or 0

    def __repr__(self) -> str:
        return f"MaxMatchSampler({self.vocab!r}, dropout={self.dropout})"

    def _one(self, word: str, state) -> list[str]:
        tokens, q = self._tokens, self.dropout
        out, i, n = [], 0, len(word)
        while i < n:
            taken = shortest = 0
            for j in range(min(n, i + self._longest), i, -1):
                if word[i:j] not in tokens:
                    continue
                shortest = j
                if j - i > 1 and q > 0.0:
                    u, state = next_double(np.uint64(state))
                    if u < q:
                        continue
                taken = j
                break
            taken = taken or shortest
            if not taken:
                raise SegmentationError(f"longest match is stuck at character {word[i]!r} at "
                                        f"position {i} of {word!r}")
            out.append(word[i:taken])
            i = taken
        return out

    def law(self, word: str) -> SegmentationLaw:
        """The exact law of :meth:`sample` on ``word``, failures included (``failure_mass``).

        A chain-backed law (any length): failure mass, summaries, mode and the probability
        of one segmentation by dynamic programming; the mapping enumerates the paths dropout
        can take on first use (refused at once, with their number, past
        :data:`workbench.samplers.laws.MAX_ENUMERATED`). ``deterministic`` is MaxMatch's
        segmentation (``dropout = 0``; None where MaxMatch is stuck).
        """
        chain, det = maxmatch_chain(check_word(word), self.vocab, self.dropout)
        return SegmentationLaw.from_chain(chain, deterministic=det)

    def tokenize_batch(self, words: Sequence[str]) -> list[list[str]]:
        """One segmentation per word (deterministic at ``dropout = 0``).

        Raises :class:`workbench.SegmentationError` when a skipped match leaves a rest no
        token starts (see the module docstring; :meth:`law` gives its probability).
        """
        words = as_words(words)
        seed = base_seed(self._rng) if self.dropout > 0 else np.uint64(0)
        return [self._one(w, np.uint64(stream_state(seed, k))) for k, w in enumerate(words)]
