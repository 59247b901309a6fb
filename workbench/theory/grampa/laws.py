"""Closed-form laws of uniformly sampled segmentations under an infinite vocabulary.

GRaMPa §3.1 and Appendix A.3–A.4 (Bauwens et al.). For a string of ``n`` characters every
one of the ``2^(n-1)`` segmentations (integer compositions of ``n``) is valid, and a uniform
sample puts a boundary on each of the ``n - 1`` inter-character positions with probability
½. This module gives, exactly (``int`` / ``fractions.Fraction``):

* the token count ``m ~ 1 + Binom(n-1, ½)`` (:func:`uniform_token_count_pmf`) and the segmentality
  ``S = (m-1)/(n-1)`` (:func:`uniform_segmentality_pmf`);
* ``M(ℓ, n)``, the number of length-ℓ tokens over all segmentations (Eq. 16,
  :func:`token_length_count`), its total ``(n+1)·2^(n-2)`` and the token-length law of
  Eq. 12 (:func:`uniform_token_length_pmf`); the approximations Eq. 17/23/27 and the limit Eq. 28;
* ``E[1/(1+X)]`` for ``X ~ Binom(n, p)`` (Chao & Strawderman 1972, Eq. 34) and the
  expected characters per token ``E[R] = 2(1 - 2^-n)`` (Eq. 36).

Floats appear only where the paper's equation is itself an approximation (Eq. 27).

Notation: ``n`` is always the string length ``|s|`` here, except in
:func:`chao_strawderman`, where (as in Eq. 34) ``n`` is the number of Bernoulli trials;
Appendix A.4 writes ``n = |s| - 1``.

This module does not sample (see :mod:`workbench.grampa` and :mod:`workbench.samplers`),
does not know about finite vocabularies, and does not
verify itself (see :mod:`workbench.checks.grampa`).

Example
-------
>>> uniform_token_count_pmf(3)
{1: Fraction(1, 4), 2: Fraction(1, 2), 3: Fraction(1, 4)}
>>> [token_length_count(ell, 4) for ell in range(1, 5)]
[12, 5, 2, 1]
>>> expected_chars_per_token(3)
Fraction(7, 4)
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np

from ..._core.deprecation import warn_deprecated
from ..._core.errors import ArgumentTypeError, InvalidValueError
from ..._core.validate import check_int, check_n

MAX_PMF_N = 4096
"""Largest ``n`` for which a whole pmf (``n`` exact big-integer fractions) is built."""
MAX_SCALAR_N = 1 << 20
"""Largest ``n`` for scalar exact laws (one ``n``-bit integer each)."""

_PMF_WHY = f" (a pmf holds n exact fractions of ~n bits; the cap is {MAX_PMF_N})"
_SCALAR_WHY = f" (the exact value has ~n bits; the cap is {MAX_SCALAR_N})"


# --------------------------------------------------------------------------- token count
def uniform_token_count_pmf(n: int) -> dict[int, Fraction]:
    """Law of the token count ``m`` of a uniform segmentation: ``m ~ 1 + Binom(n-1, ½)``.

    §3.1: each of the ``n - 1`` inter-character positions independently gets a boundary
    with probability ½, and ``m`` is one more than the number of boundaries.

    Parameters
    ----------
    n : int
        String length, ``1 <= n <= MAX_PMF_N``.

    Returns
    -------
    dict of int to Fraction
        ``{m: P(m)}`` for ``m = 1 .. n``; the values sum to exactly 1.

    Examples
    --------
    >>> uniform_token_count_pmf(4)
    {1: Fraction(1, 8), 2: Fraction(3, 8), 3: Fraction(3, 8), 4: Fraction(1, 8)}
    """
    n = check_n(n, maximum=MAX_PMF_N, why=_PMF_WHY)
    total = 1 << (n - 1)
    return {m: Fraction(comb(n - 1, m - 1), total) for m in range(1, n + 1)}


def uniform_segmentality_pmf(n: int) -> dict[Fraction, Fraction]:
    """Law of the segmentality ``S = (m-1)/(n-1)`` of a uniform segmentation (§3.1, fn. 6).

    ``S ~ Binom(n-1, ½)/(n-1)``: 0 for the word itself, 1 for the character split.

    Parameters
    ----------
    n : int
        String length, ``2 <= n <= MAX_PMF_N`` (``S`` is 0/0 for a single character).

    Returns
    -------
    dict of Fraction to Fraction
        ``{S: P(S)}`` for ``S = 0, 1/(n-1), ..., 1``.

    Examples
    --------
    >>> uniform_segmentality_pmf(3)
    {Fraction(0, 1): Fraction(1, 4), Fraction(1, 2): Fraction(1, 2), Fraction(1, 1): Fraction(1, 4)}
    """
    n = check_n(n, maximum=MAX_PMF_N, why=_PMF_WHY)
    if n < 2:
        raise InvalidValueError("segmentality (m-1)/(n-1) is undefined for n = 1 (0/0)")
    return {Fraction(m - 1, n - 1): p for m, p in uniform_token_count_pmf(n).items()}


# --------------------------------------------------------------------------- token length
def token_length_count(ell: int, n: int) -> int:
    """``M(ℓ, n)``: the number of tokens of length ℓ over all ``2^(n-1)`` segmentations (Eq. 16).

    ``M(ℓ, n) = (4 + max(0, n-1-ℓ)) · 2^(n-2-ℓ)``: ``n-1-ℓ`` interior windows with
    ``2^(n-2-ℓ)`` completions each, plus the two edge tokens with ``2^(n-1-ℓ)`` each. The
    clip at 0 only matters for ``ℓ = n`` (the whole word, counted once); at ``ℓ = n-1`` the
    window term is already 0. The result is an integer for every ``1 <= ℓ <= n``.

    Parameters
    ----------
    ell : int
        Token length ``>= 1``. Lengths ``ℓ > n`` occur in no segmentation and give 0.
    n : int
        String length, ``1 <= n <= MAX_SCALAR_N``.

    Returns
    -------
    int

    Examples
    --------
    >>> [token_length_count(ell, 3) for ell in range(1, 5)]
    [5, 2, 1, 0]
    """
    n = check_n(n, maximum=MAX_SCALAR_N, why=_SCALAR_WHY)
    ell = check_int(ell, "ell", minimum=1)
    if ell > n:
        return 0
    # (4 + w) * 2^(n-2-ell) with n - ell >= 0; the product is divisible by 4 when w > 0
    # (then n - ell >= 2), and 4 * 2^(n-ell) / 4 is exact anyway.
    return ((4 + max(0, n - 1 - ell)) << (n - ell)) >> 2


def token_length_count_approx(ell: int, n: int) -> Fraction:
    """Eq. 17: ``M(ℓ, n) ≈ (n+3-ℓ) · 2^(n-2-ℓ)`` (exact except ``3/4`` instead of 1 at ``ℓ = n``).

    Examples
    --------
    >>> token_length_count_approx(4, 4), token_length_count(4, 4)
    (Fraction(3, 4), 1)
    """
    n = check_n(n, maximum=MAX_SCALAR_N, why=_SCALAR_WHY)
    ell = check_int(ell, "ell", minimum=1, maximum=n)
    return (n + 3 - ell) * Fraction(2) ** (n - 2 - ell)


def total_token_count(n: int) -> int:
    """``Σ_ℓ M(ℓ, n) = (n+1) · 2^(n-2)``: the number of tokens over all segmentations.

    Equivalently ``Σ_m m · C(n-1, m-1)``, the denominator of Eq. 12.

    Examples
    --------
    >>> [total_token_count(n) for n in range(1, 6)]
    [1, 3, 8, 20, 48]
    """
    n = check_n(n, maximum=MAX_SCALAR_N, why=_SCALAR_WHY)
    return ((n + 1) << n) >> 2


def total_token_count_approx(n: int) -> Fraction:
    """Eq. 23: ``Σ_ℓ (n+3-ℓ) 2^(n-2-ℓ) = ((n+1) - 2^-n) · 2^(n-2)`` (the sum of Eq. 17).

    It undershoots :func:`total_token_count` by exactly ¼.

    Examples
    --------
    >>> total_token_count_approx(3)
    Fraction(31, 4)
    """
    n = check_n(n, maximum=MAX_SCALAR_N, why=_SCALAR_WHY)
    return ((n + 1) - Fraction(1, 2**n)) * Fraction(2) ** (n - 2)


def uniform_token_length_pmf(n: int, exact: bool = True) -> dict[int, Fraction] | dict[int, float]:
    """Share of length-ℓ tokens among all tokens of all segmentations (Eq. 12).

    Parameters
    ----------
    n : int
        String length, ``1 <= n <= MAX_PMF_N``.
    exact : bool
        ``True``: ``P(ℓ|n) = M(ℓ, n) / ((n+1)·2^(n-2))`` as exact fractions summing to 1.
        ``False``: the approximation of Eq. 27, ``(1 - (ℓ-2)/(n+1)) · 2^-ℓ``, as floats;
        these sum to ``1 - 1/((n+1) 2^n)``, not exactly 1.

    Returns
    -------
    dict of int to Fraction (``exact=True``) or float (``exact=False``)
        ``{ℓ: P(ℓ|n)}`` for ``ℓ = 1 .. n``.

    Examples
    --------
    >>> uniform_token_length_pmf(3)
    {1: Fraction(5, 8), 2: Fraction(1, 4), 3: Fraction(1, 8)}
    >>> {k: round(v, 4) for k, v in uniform_token_length_pmf(3, exact=False).items()}
    {1: 0.625, 2: 0.25, 3: 0.0938}
    """
    n = check_n(n, maximum=MAX_PMF_N, why=_PMF_WHY)
    if not isinstance(exact, (bool, np.bool_)):
        raise ArgumentTypeError(f"exact must be a bool, not {type(exact).__name__}")
    if exact:
        total = total_token_count(n)
        return {ell: Fraction(token_length_count(ell, n), total) for ell in range(1, n + 1)}
    return {ell: (1.0 - (ell - 2) / (n + 1)) * 2.0 ** (-ell) for ell in range(1, n + 1)}


def token_length_limit_pmf(ell: int) -> Fraction:
    """Eq. 28: ``lim_{n→∞} P(ℓ|n) = 2^-ℓ``, the geometric law with ``p = ½`` on ``ℓ >= 1``.

    Examples
    --------
    >>> token_length_limit_pmf(3)
    Fraction(1, 8)
    """
    ell = check_int(ell, "ell", minimum=1, maximum=MAX_SCALAR_N, why=_SCALAR_WHY)
    return Fraction(1, 1 << ell)


# --------------------------------------------------------------------------- characters/token
def _check_probability(p: object) -> Fraction | float:
    if isinstance(p, (bool,)) or not isinstance(p, (int, Fraction, float)):
        raise ArgumentTypeError(f"p must be an int, Fraction or float, not {type(p).__name__}")
    if isinstance(p, float) and p != p:
        raise InvalidValueError("p must not be NaN")
    if not 0 <= p <= 1:
        raise InvalidValueError(f"p must lie in [0, 1], got {p}")
    return Fraction(p) if isinstance(p, int) else p


def chao_strawderman(n: int, p: Fraction | float) -> Fraction | float:
    """``E[1/(1+X)]`` for ``X ~ Binom(n, p)`` (Chao & Strawderman 1972; Eq. 34).

    ``E[1/(1+X)] = (1 - (1-p)^(n+1)) / ((n+1) p)``, and 1 at ``p = 0``.

    Parameters
    ----------
    n : int
        Number of trials, ``0 <= n <= MAX_SCALAR_N``.
    p : Fraction, int or float
        Success probability in ``[0, 1]``. Exact (``Fraction``) in, exact out.

    Returns
    -------
    Fraction or float

    Examples
    --------
    >>> chao_strawderman(2, Fraction(1, 2))
    Fraction(7, 12)
    """
    n = check_int(n, "n", minimum=0, maximum=MAX_SCALAR_N, why=_SCALAR_WHY)
    p = _check_probability(p)
    if p == 0:
        return Fraction(1) if isinstance(p, Fraction) else 1.0
    return (1 - (1 - p) ** (n + 1)) / ((n + 1) * p)


def expected_chars_per_token(n: int) -> Fraction:
    """``E[R]`` for ``R = n/m`` under uniform segmentation: ``2 (1 - 2^-n)`` (Eqs. 31–36).

    Computed as ``n · E[1/(1+X)]`` with ``X = m - 1 ~ Binom(n-1, ½)`` through
    :func:`chao_strawderman`.

    Parameters
    ----------
    n : int
        String length, ``1 <= n <= MAX_SCALAR_N``.

    Returns
    -------
    Fraction

    Examples
    --------
    >>> expected_chars_per_token(1), expected_chars_per_token(4)
    (Fraction(1, 1), Fraction(15, 8))
    """
    n = check_n(n, maximum=MAX_SCALAR_N, why=_SCALAR_WHY)
    return n * chao_strawderman(n - 1, Fraction(1, 2))


# --------------------------------------------------------------------------- old names
def token_count_pmf(n: int) -> dict[int, Fraction]:
    """Deprecated name of :func:`uniform_token_count_pmf` (goes in the next release)."""
    warn_deprecated("workbench.theory.token_count_pmf(n)",
                    "workbench.theory.uniform_token_count_pmf(n)")
    return uniform_token_count_pmf(n)


def token_length_pmf(n: int, exact: bool = True) -> dict[int, Fraction] | dict[int, float]:
    """Deprecated name of :func:`uniform_token_length_pmf` (goes in the next release)."""
    warn_deprecated("workbench.theory.token_length_pmf(n)",
                    "workbench.theory.uniform_token_length_pmf(n)")
    return uniform_token_length_pmf(n, exact)


def segmentality_pmf(n: int) -> dict[Fraction, Fraction]:
    """Deprecated name of :func:`uniform_segmentality_pmf` (goes in the next release)."""
    warn_deprecated("workbench.theory.segmentality_pmf(n)",
                    "workbench.theory.uniform_segmentality_pmf(n)")
    return uniform_segmentality_pmf(n)
