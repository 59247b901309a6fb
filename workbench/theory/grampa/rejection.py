"""Expected cost of rejection sampling uniform segmentations (§3.2, Appendix A.5), exactly.

Two rejection schemes from the paper, as closed forms (exact ``Fraction``/``int``):

* **bit rejection** (§3.2): draw a uniform ``(n-1)``-bit boundary mask, retry until every
  token is in the vocabulary; ``E[T] = 2^(n-1) / N_V(s)``
  (:func:`bit_rejection_expected_trials`). For the vocabulary "every string of at most ``L``
  characters" ``N_V`` is :func:`bounded_composition_count`.
* **Markov rejection** (Cognetta et al. 2024, Eq. 1): walk the full lattice of the
  infinite vocabulary choosing an out-arc uniformly (node ``j`` has ``n - j``), accept
  with ``ε / P_Markov``. ``ε(G_full) = 1/n!`` (Eq. 43), ``E[1/P_Markov] = 2^(n-1)``
  (Eq. 46), so ``E[T] = n!/2^(n-1)`` (Eq. 47); :func:`markov_path_probability` is Eq. 1.

This module does not sample: the seeded samplers of these two schemes
(``markov_rejection_samples``, ``bit_rejection_samples``) are in
:mod:`workbench.samplers.rejection`, and their checks against these numbers in
:mod:`workbench.checks.grampa`. It does not implement GRaMPa (see :mod:`workbench.grampa`).

Example
-------
>>> markov_rejection_expected_trials(5)
Fraction(15, 2)
>>> bit_rejection_expected_trials(bounded_composition_count(4, 2), 4)
Fraction(8, 5)
"""

from __future__ import annotations

from fractions import Fraction
from math import factorial

from ..._core.validate import check_int, check_lengths, check_n


# --------------------------------------------------------------------------- closed forms
def bounded_composition_count(n: int, max_token_length: int) -> int:
    """``N_V(s)`` for the vocabulary of all strings of at most ``L`` characters.

    The number of compositions of ``n`` with parts ``<= L`` (``L = 2``: Fibonacci numbers;
    ``L >= n``: ``2^(n-1)``): ``c_j = c_{j-1} + … + c_{j-L}`` kept as a sliding window sum,
    ``O(n)`` big-integer additions of at most ``n`` bits (``n = 2^16``: well under a second;
    the plain double sum took 63 s at ``n = L = 16384``).

    Examples
    --------
    >>> [bounded_composition_count(n, 2) for n in range(1, 8)]
    [1, 2, 3, 5, 8, 13, 21]
    """
    n = check_n(n, maximum=1 << 16)
    cap = check_int(max_token_length, "max_token_length", minimum=1)
    c = [1] + [0] * n
    window = 1  # c[j-cap] + ... + c[j-1] (terms with negative index are 0)
    for j in range(1, n + 1):
        c[j] = window
        window += c[j] - (c[j - cap] if j >= cap else 0)
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
