"""Rejection samplers of uniform segmentations and their expected cost (§3.2, Appendix A.5).

Two rejection schemes from the paper, with their closed forms (exact ``Fraction``/``int``)
and one seeded numba sampler each:

* **bit rejection** (§3.2): draw a uniform ``(n-1)``-bit boundary mask, retry until every
  token is in the vocabulary; ``E[T] = 2^(n-1) / N_V(s)``
  (:func:`bit_rejection_expected_trials`). The sampler :func:`bit_rejection_samples` uses
  the vocabulary "every string of at most ``L`` characters", whose ``N_V`` is
  :func:`bounded_composition_count`.
* **Markov rejection** (Cognetta et al. 2024, Eq. 1): walk the full lattice of the
  infinite vocabulary choosing an out-arc uniformly (node ``j`` has ``n - j``), accept
  with ``ε / P_Markov``. ``ε(G_full) = 1/n!`` (Eq. 43), ``E[1/P_Markov] = 2^(n-1)``
  (Eq. 46), so ``E[T] = n!/2^(n-1)`` (Eq. 47). Sampler: :func:`markov_rejection_sample`
  (one segmentation) and :func:`markov_rejection_samples` (a batch), one kernel.

Randomness: every sample ``k`` of a call draws from its own SplitMix64 stream
(:mod:`workbench._rng`) keyed by a base seed taken from ``seed``; nothing touches global
RNG state.

This module does not implement GRaMPa (see :mod:`workbench.grampa`), does not handle
finite vocabularies other than "all strings up to length L", and does not verify the laws
against the samplers (see :mod:`workbench.theory.checks`).

Example
-------
>>> markov_rejection_expected_trials(5)
Fraction(15, 2)
>>> lengths, trials = markov_rejection_sample(5, seed=1)
>>> int(lengths.sum()), trials >= 1
(5, True)
"""

from __future__ import annotations

from fractions import Fraction
from math import factorial

import numpy as np
from numba import njit

from .._core.config import JIT
from .._core.rng import as_generator, base_seed, next_double, stream_state
from .._core.validate import check_int, check_lengths, check_n

MAX_MARKOV_N = 14
"""Largest ``n`` for the Markov rejection sampler: ``E[T] = n!/2^(n-1)`` is ~1.1e7 at 14."""
MAX_BIT_N = 40
"""Largest ``n`` for the bit rejection sampler (masks come from 53-bit uniforms)."""
MAX_EXPECTED_DRAWS = 2 * 10**9
"""A sampler call whose expected total number of trials exceeds this is refused."""
MAX_SIZE = 10**8
"""Largest number of samples in one call."""


# --------------------------------------------------------------------------- closed forms
def bounded_composition_count(n: int, max_token_length: int) -> int:
    """``N_V(s)`` for the vocabulary of all strings of at most ``L`` characters.

    The number of compositions of ``n`` with parts ``<= L`` (``L = 2``: Fibonacci numbers;
    ``L >= n``: ``2^(n-1)``).

    Examples
    --------
    >>> [bounded_composition_count(n, 2) for n in range(1, 8)]
    [1, 2, 3, 5, 8, 13, 21]
    """
    n = check_n(n, maximum=1 << 16)
    cap = check_int(max_token_length, "max_token_length", minimum=1)
    c = [1] + [0] * n
    for j in range(1, n + 1):
        c[j] = sum(c[j - length] for length in range(1, min(cap, j) + 1))
    return c[n]


def bit_rejection_expected_trials(n_valid: int, n: int) -> Fraction:
    """``E[T] = 2^(n-1) / N_V(s)`` for bit-mask rejection sampling with ``p = ½`` (§3.2).

    Parameters
    ----------
    n_valid : int
        ``N_V(s)``, the number of valid segmentations, ``1 <= n_valid <= 2^(n-1)``.
    n : int
        String length ``>= 1``.

    Returns
    -------
    Fraction

    Examples
    --------
    >>> bit_rejection_expected_trials(5, 5)
    Fraction(16, 5)
    """
    n = check_n(n, maximum=1 << 16)
    n_valid = check_int(n_valid, "n_valid", minimum=1, maximum=1 << (n - 1),
                        why=" (there are only 2^(n-1) segmentations)")
    return Fraction(1 << (n - 1), n_valid)


def markov_epsilon_full(n: int) -> Fraction:
    """``ε(G_full) = Π_{j=0}^{n-1} 1/(n-j) = 1/n!`` (Eqs. 37, 43).

    The probability of the least likely Markov path (through every node) of the full
    lattice, used as the acceptance constant.

    Examples
    --------
    >>> markov_epsilon_full(4)
    Fraction(1, 24)
    """
    n = check_n(n, maximum=1 << 12)
    return Fraction(1, factorial(n))


def markov_expected_inverse_probability(n: int) -> Fraction:
    """``E[1/P_Markov] = 2^(n-1)`` over Markov paths of ``G_full`` (Eqs. 44–46).

    By the law of the unconscious statistician, ``E[1/p(X)]`` is the size of the support.

    Examples
    --------
    >>> markov_expected_inverse_probability(4)
    Fraction(8, 1)
    """
    n = check_n(n, maximum=1 << 16)
    return Fraction(1 << (n - 1))


def markov_rejection_expected_trials(n: int) -> Fraction:
    """``E[T] = 1/(ε · E[1/P_Markov]) = n!/2^(n-1)`` (Eqs. 40, 42, 47).

    Examples
    --------
    >>> [markov_rejection_expected_trials(n) for n in (1, 2, 3, 4)]
    [Fraction(1, 1), Fraction(1, 1), Fraction(3, 2), Fraction(3, 1)]
    """
    n = check_n(n, maximum=1 << 12)
    return 1 / (markov_epsilon_full(n) * markov_expected_inverse_probability(n))


def markov_path_probability(lengths) -> Fraction:
    """``P_Markov`` of a segmentation under the uniform out-arc walk on ``G_full`` (Eq. 1).

    ``Π 1/(n - j)`` over the visited nodes ``j`` before the last.

    Examples
    --------
    >>> markov_path_probability([2, 1]), markov_path_probability([1, 1, 1])
    (Fraction(1, 3), Fraction(1, 6))
    """
    t = check_lengths(lengths)
    n = sum(t)
    p = Fraction(1)
    j = 0
    for length in t:
        p /= n - j
        j += length
    return p


# --------------------------------------------------------------------------- kernels
@njit(**JIT)
def _markov_kernel(n, size, seed, n_factorial, lengths, offsets, trials):
    pos = 0
    for k in range(size):
        state = stream_state(seed, k)
        tries = 0
        while True:
            tries += 1
            start = pos
            j = 0
            weight = 1.0  # 1 / P_Markov, an exact integer in float64 for n <= 18
            while j < n:
                d = n - j
                weight *= d
                u, state = next_double(state)
                step = 1 + np.int64(u * d)
                if step > d:  # pragma: no cover - u < 1 makes this impossible
                    step = d
                lengths[pos] = step
                pos += 1
                j += step
            u, state = next_double(state)
            if u * n_factorial < weight:  # accept with ε / P_Markov = weight / n!
                break
            pos = start
        offsets[k + 1] = pos
        trials[k] = tries


@njit(**JIT)
def _bit_kernel(n, cap, size, seed, lengths, offsets, trials):
    scale = float(np.int64(1) << (n - 1))
    pos = 0
    for k in range(size):
        state = stream_state(seed, k)
        tries = 0
        while True:
            tries += 1
            u, state = next_double(state)
            mask = np.int64(u * scale)  # uniform on 0 .. 2^(n-1) - 1
            start = pos
            last = 0
            ok = True
            for p in range(1, n + 1):
                if p == n or (mask >> (n - 1 - p)) & 1:
                    if p - last > cap:
                        ok = False
                        break
                    lengths[pos] = p - last
                    pos += 1
                    last = p
            if ok:
                break
            pos = start
        offsets[k + 1] = pos
        trials[k] = tries


def _check_size(size: object) -> int:
    return check_int(size, "size", minimum=1, maximum=MAX_SIZE)


# --------------------------------------------------------------------------- samplers
def _check_budget(expected, size: int, unit: str) -> None:
    """Refuse calls whose expected number of trials exceeds :data:`MAX_EXPECTED_DRAWS`."""
    if expected > MAX_EXPECTED_DRAWS:
        raise ValueError(f"size = {size} would need ~{float(expected):.3g} {unit} in "
                         f"expectation; the limit is {MAX_EXPECTED_DRAWS:.0e}")


def _buffers(n: int, size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Output arrays of a rejection kernel: flat lengths, offsets, trials per sample."""
    return (np.empty(size * n, dtype=np.int64), np.zeros(size + 1, dtype=np.int64),
            np.empty(size, dtype=np.int64))


def markov_rejection_samples(n: int, size: int, seed: int | np.random.Generator | None = None
                             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Batch Markov rejection sampling on the full lattice (Cognetta et al. 2024).

    Each sample walks from node 0 choosing one of the ``n - j`` out-arcs of node ``j``
    uniformly, and is accepted with probability ``ε/P_Markov = (Π (n-j)) / n!``; otherwise
    it is redrawn. Accepted segmentations are uniform over the ``2^(n-1)`` compositions.

    Parameters
    ----------
    n : int
        String length, ``1 <= n <= MAX_MARKOV_N``.
    size : int
        Number of accepted samples.
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

    Examples
    --------
    >>> lengths, offsets, trials = markov_rejection_samples(4, 3, seed=0)
    >>> offsets.shape, bool((np.add.reduceat(lengths, offsets[:-1]) == 4).all())
    ((4,), True)
    """
    n = check_n(n, maximum=MAX_MARKOV_N,
                why=f" (E[T] = n!/2^(n-1) trials; capped at n = {MAX_MARKOV_N})")
    size = _check_size(size)
    _check_budget(markov_rejection_expected_trials(n) * size, size, "walks")
    lengths, offsets, trials = _buffers(n, size)
    _markov_kernel(n, size, base_seed(as_generator(seed)), float(factorial(n)), lengths,
                   offsets, trials)
    return lengths[: offsets[-1]].copy(), offsets, trials


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
    uniform over the :func:`bounded_composition_count` valid segmentations and each takes
    ``Geom(N_V / 2^(n-1))`` trials.

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

    Examples
    --------
    >>> lengths, offsets, trials = bit_rejection_samples(6, 2, 5, seed=0)
    >>> int(lengths.max()) <= 2
    True
    """
    n = check_n(n, maximum=MAX_BIT_N)
    cap = check_int(max_token_length, "max_token_length", minimum=1)
    size = _check_size(size)
    _check_budget(bit_rejection_expected_trials(bounded_composition_count(n, cap), n) * size,
                  size, "draws")
    lengths, offsets, trials = _buffers(n, size)
    _bit_kernel(n, cap, size, base_seed(as_generator(seed)), lengths, offsets, trials)
    return lengths[: offsets[-1]].copy(), offsets, trials
