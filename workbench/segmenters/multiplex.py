"""Multiplexing a stochastic and a deterministic tokeniser (GRaMPa, §4.6, Algorithm 3).

Per word, a coin with bias ``p`` decides: heads, the stochastic tokeniser samples a
segmentation; tails, the deterministic tokeniser's segmentation is used. The coins come
from the multiplexer's own generator; the stochastic tokeniser keeps its own.

This module does not build either tokeniser; any callable ``str -> list[str]`` is a
deterministic tokeniser (for example a SentencePiece model's best segmentation), and any
object with ``tokenize(words)`` (like :class:`workbench.Grampa`) or ``sample(word)`` is a
stochastic one.

Example
-------
>>> from workbench import Grampa, Vocabulary
>>> mux = Multiplexer(list, Grampa(Vocabulary.infinite(), seed=0), p=0.0, seed=0)
>>> mux.tokenize(["abc", "de"])
[['a', 'b', 'c'], ['d', 'e']]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from .._core.rng import as_generator
from .._core.validate import check_probability


class Multiplexer:
    """Algorithm 3: the stochastic tokeniser with probability ``p``, else the deterministic one.

    Parameters
    ----------
    deterministic : callable
        ``str -> list[str]``.
    stochastic : object
        Has ``tokenize(list[str]) -> list[list[str]]`` or ``sample(str) -> list[str]``.
    p : float
        Multiplexing rate in [0, 1].
    seed : int, numpy.random.Generator or None
        Seeds the coins only.
    """

    def __init__(
        self,
        deterministic: Callable[[str], list[str]],
        stochastic: object,
        p: float,
        seed: int | np.random.Generator | None = None,
    ) -> None:
        if not callable(deterministic):
            raise TypeError("deterministic must be a callable str -> list[str]")
        if not (hasattr(stochastic, "tokenize") or hasattr(stochastic, "sample")):
            raise TypeError("stochastic must have a tokenize(words) or sample(word) method")
        p = check_probability(p, "p")
        self.deterministic = deterministic
        self.stochastic = stochastic
        self.p = float(p)
        self._rng = as_generator(seed)

    def coins(self, n_words: int) -> np.ndarray:
        """Draw ``n_words`` coins: True where the stochastic tokeniser is used."""
        return self._rng.random(n_words) < self.p

    def tokenize(self, words: Sequence[str]) -> list[list[str]]:
        """Tokenise each word with the tokeniser its coin picks (stochastic ones batched)."""
        if isinstance(words, str):
            raise TypeError("words must be a sequence of str; for one word use __call__")
        words = list(words)
        for k, w in enumerate(words):
            if not isinstance(w, str):
                raise TypeError(f"word {k} is {type(w).__name__}, not str")
        heads = self.coins(len(words))
        picked = [w for w, h in zip(words, heads) if h]
        if hasattr(self.stochastic, "tokenize"):
            sampled = iter(self.stochastic.tokenize(picked))
        else:
            sampled = iter([self.stochastic.sample(w) for w in picked])
        return [list(next(sampled)) if h else list(self.deterministic(w))
                for w, h in zip(words, heads)]

    def __call__(self, word: str) -> list[str]:
        """Tokenise one word."""
        return self.tokenize([word])[0]
