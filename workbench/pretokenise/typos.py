"""The LD1 typo perturbation of the GRaMPa paper's robustness experiment (§5.1).

Each space-separated string is perturbed with probability ``rate`` (0.15 in the paper): one
character position is picked uniformly, then with equal odds that character is dropped, a
random lowercase ASCII letter is inserted before it, or one is substituted for it.
Randomness: string ``k`` of a text uses stream ``k`` of a SplitMix64 base seed derived from
``seed``, so the result depends only on the seed and the strings' positions.

This module does not pretokenise (whitespace other than the single space is kept as is).

Example
-------
>>> perturb("the quick brown fox", rate=1.0, seed=0)
'tho wquick brjwn fonx'
>>> perturb("the quick brown fox", rate=0.0, seed=0)
'the quick brown fox'
"""

from __future__ import annotations

import numpy as np

from .._core.errors import ArgumentTypeError
from .._core.rng import next_double, stream_state
from .._core.seeds import as_generator, base_seed
from .._core.validate import check_probability

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _perturb_one(word: str, state) -> str:
    u, state = next_double(np.uint64(state))
    pos = min(int(u * len(word)), len(word) - 1)
    u, state = next_double(np.uint64(state))
    op = min(int(u * 3), 2)
    u, state = next_double(np.uint64(state))
    letter = LETTERS[min(int(u * 26), 25)]
    if op == 0:
        return word[:pos] + word[pos + 1:]
    if op == 1:
        return word[:pos] + letter + word[pos:]
    return word[:pos] + letter + word[pos + 1:]


def perturb(text: str, rate: float = 0.15, seed: int | np.random.Generator | None = None
            ) -> str:
    """``text`` with LD1 typos in a share ``rate`` of its space-separated strings.

    Parameters
    ----------
    text : str
    rate : float in [0, 1], default 0.15
    seed : int, numpy.random.Generator or None
    """
    if not isinstance(text, str):
        raise ArgumentTypeError(f"text must be str, not {type(text).__name__}")
    rate = check_probability(rate, "rate")
    if rate == 0.0:
        return text
    base = base_seed(as_generator(seed))
    words = text.split(" ")
    for k, word in enumerate(words):
        if not word:
            continue
        state = np.uint64(stream_state(base, k))
        u, state = next_double(state)
        if u < rate:
            words[k] = _perturb_one(word, state)
    return " ".join(words)
