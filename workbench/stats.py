"""Statistical comparisons of samples with exact laws, shared by checks, figures and tests.

* :func:`chisquare_test` — Pearson goodness of fit (:func:`chisquare_lumped`: rare cells
  lumped into one); :func:`z_test` — a z-test of a mean
  (fixed thresholds live with the caller, e.g. ``workbench.theory.checks.P_THRESHOLD``);
* :func:`frequencies` — a histogram of counts as shares (optionally padded with empty cells);
* :func:`tv_distance` — the total-variation distance of two distributions on the same cells;
* :func:`tv_sampling_bound` — how far an empirical histogram of ``N`` i.i.d. draws may stray
  from its law in TV, except with probability ``δ`` (the one bound every notebook and test
  asserts);
* :func:`trial_tolerance` — ``z`` standard errors of a mean of geometric trial counts.

This module samples nothing and plots nothing; it takes numbers and returns numbers.

Example
-------
>>> tv_distance(frequencies([3, 1]), [0.5, 0.5])
0.25
>>> bool(tv_distance(frequencies([2010, 1990]), [0.5, 0.5]) < tv_sampling_bound(2, 4000))
True
>>> stat, p, dof = chisquare_test(np.array([50, 50]), [0.5, 0.5])
>>> (stat, p, dof)
(0.0, 1.0, 1)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from fractions import Fraction

import numpy as np

from ._core.errors import ArgumentTypeError, InvalidValueError
from ._core.validate import check_int, check_real, check_size, check_sized_input

__all__ = [
    "DISTRIBUTION_TOLERANCE",
    "chisquare_lumped",
    "chisquare_test",
    "frequencies",
    "trial_tolerance",
    "tv_distance",
    "tv_sampling_bound",
    "z_test",
]


def _finite(values: object, name: str) -> np.ndarray:
    """``values`` as a 1-D float array; NaN or infinite entries are refused by name."""
    check_sized_input(values, name)
    try:
        arr = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise ArgumentTypeError(f"{name} must be an array of real numbers") from None
    except OverflowError:
        raise InvalidValueError(f"{name} holds an integer past the float range") from None
    if arr.ndim != 1:
        raise InvalidValueError(f"{name} must be 1-D, got shape {arr.shape}")
    if not np.isfinite(arr).all():
        raise InvalidValueError(f"{name} holds NaN or infinite values")
    return arr


def frequencies(counts: Sequence[float] | np.ndarray, n_cells: int | None = None) -> np.ndarray:
    """Counts as shares of their total, padded with empty cells to ``n_cells`` if given.

    Parameters
    ----------
    counts : sequence of float
        Non-negative counts with a positive sum.
    n_cells : int, optional
        Length of the result (at least ``len(counts)``); the extra cells are 0.

    Returns
    -------
    numpy.ndarray of float

    Raises
    ------
    ValueError
        If the counts do not have a positive sum, or ``n_cells < len(counts)``.

    Examples
    --------
    >>> frequencies([3, 1]).tolist(), frequencies([1, 1], n_cells=3).tolist()
    ([0.75, 0.25], [0.5, 0.5, 0.0])
    """
    c = _finite(counts, "counts")
    if (c < 0).any():
        raise InvalidValueError("counts must be >= 0")
    size = c.size if n_cells is None else check_int(n_cells, "n_cells", minimum=c.size)
    check_size(size, "n_cells" if n_cells is not None else "len(counts)", item_bytes=8,
               what="the histogram")
    top = c.max(initial=0.0)
    if not top > 0:
        raise InvalidValueError("counts must have a positive sum")
    c = c / top  # no overflow of the total for huge counts
    return np.pad(c / c.sum(), (0, size - c.size))


#: :func:`tv_distance` takes a distribution whose entries sum to 1 within this (absolute):
#: float rounding of a computed law or of ``counts / n``, never a histogram of raw counts.
DISTRIBUTION_TOLERANCE = 1e-6


def _distribution(values: object, name: str) -> np.ndarray:
    """``values`` as a 1-D float array of a probability distribution, checked (by name):
    non-empty, finite, non-negative, summing to 1 within :data:`DISTRIBUTION_TOLERANCE`."""
    arr = _finite(values, name)
    if arr.size == 0:
        raise InvalidValueError(f"{name} is empty: a probability distribution needs at least "
                                "one cell")
    neg = np.flatnonzero(arr < 0)
    if neg.size:
        raise InvalidValueError(f"{name} is not a probability distribution: {name}[{neg[0]}] = "
                                f"{float(arr[neg[0]]):.12g} is negative")
    try:
        total = math.fsum(arr.tolist())
    except OverflowError:  # finite entries past the float range in sum (1e308, 1e308)
        total = math.inf
    if abs(total - 1.0) > DISTRIBUTION_TOLERANCE:
        raise InvalidValueError(
            f"{name} is not a probability distribution: its entries sum to {total:.12g}, not 1 "
            f"(within {DISTRIBUTION_TOLERANCE:g}); for counts, pass frequencies(counts)")
    return arr


def tv_distance(p: Sequence[float] | np.ndarray, q: Sequence[float] | np.ndarray) -> float:
    """Total variation distance ``½ Σ |p_i - q_i|`` of two distributions on the same cells.

    Parameters
    ----------
    p, q : sequence of float
        Probability distributions on the same cells: 1-D, equally long, not empty, every
        entry finite and ``>= 0``, the entries summing to 1 within
        :data:`DISTRIBUTION_TOLERANCE` (turn counts into shares with :func:`frequencies`).

    Returns
    -------
    float
        The distance, in ``[0, 1]``.

    Raises
    ------
    ValueError
        (:class:`~workbench.InvalidValueError`) If ``p`` or ``q`` is no probability
        distribution (the message names which, and why), or they have different lengths
        (pad with :func:`frequencies` first).
    TypeError
        (:class:`~workbench.ArgumentTypeError`) If either holds something that is not a number.

    Examples
    --------
    >>> tv_distance([0.5, 0.5], [1.0, 0.0])
    0.5
    >>> tv_distance([5, 0], [0.5, 0.5])
    Traceback (most recent call last):
    ...
    workbench.InvalidValueError: p is not a probability distribution: its entries sum to 5, \
not 1 (within 1e-06); for counts, pass frequencies(counts)
    """
    p = _distribution(p, "p")
    q = _distribution(q, "q")
    if p.shape != q.shape:
        raise InvalidValueError(f"p and q must be distributions on the same cells, got "
                                f"len(p) = {p.size} and len(q) = {q.size} (pad with "
                                f"frequencies(counts, n_cells=...))")
    return float(min(0.5 * np.abs(p - q).sum(), 1.0))


def tv_sampling_bound(n_cells: int, n_samples: int, delta: float = 1e-6) -> float:
    """A bound ``ε`` with ``P(TV(p̂, p) >= ε) <= δ`` for the histogram ``p̂`` of ``N`` draws.

    ``ε = ½ √(k/N) + √(ln(1/δ) / (2N))`` for ``N`` i.i.d. draws from any law ``p`` on ``k``
    cells. The expectation: ``E|p̂_i - p_i| <= √(p_i/N)`` (Jensen), so
    ``E[TV] <= ½ Σ √(p_i/N) <= ½ √(k/N)`` (Cauchy–Schwarz); see C. L. Canonne, *A short
    note on learning discrete distributions*, arXiv:2002.11457 (2020). The
    deviation: changing one draw moves TV by at most ``1/N``, so McDiarmid's bounded
    differences inequality (C. McDiarmid, *On the method of bounded differences*, Surveys
    in Combinatorics 1989) gives ``P(TV - E[TV] >= t) <= exp(-2Nt²)``, which is ``δ`` at
    the second term.

    The Bretagnolle–Huber–Carol inequality ``P(TV >= ε) <= 2^k exp(-2Nε²)`` is another valid
    bound; for ``k <= 740`` at ``δ = 10⁻⁶`` it is the tighter of the two, so every check
    that holds under this bound also holds under it. This one is used everywhere so that
    there is a single stated inequality.

    The pooled token-length histograms are not made of i.i.d. draws (tokens of one sample
    are dependent); the notebooks apply the bound with ``N`` = number of *samples* there,
    a heuristic that is conservative in practice (there are about ``(n+1)/2`` tokens per
    sample).

    Parameters
    ----------
    n_cells : int
        Number of cells ``k >= 1``.
    n_samples : int
        Number of draws ``N >= 1``.
    delta : float
        Failure probability, in ``(0, 1)``.

    Examples
    --------
    >>> round(tv_sampling_bound(29, 100_000), 4)
    0.0168
    """
    k = check_int(n_cells, "n_cells", minimum=1)
    size = check_int(n_samples, "n_samples", minimum=1)
    delta = check_real(delta, "delta", minimum=0.0, maximum=1.0, open_minimum=True,
                       open_maximum=True)
    return 0.5 * math.sqrt(k / size) + math.sqrt(math.log(1.0 / delta) / (2.0 * size))


def trial_tolerance(expected: float | Fraction, n_samples: int, z: float = 4.0) -> float:
    """``z`` standard errors of the mean of ``n_samples`` geometric trial counts.

    A rejection sampler with acceptance probability ``p = 1/E[T]`` per trial needs
    ``T ~ Geom(p)`` trials: ``Var T = (1-p)/p^2``. The notebooks assert
    ``|mean - E[T]| <= trial_tolerance(E[T], N)`` (``z = 4``: a two-sided 6e-5 event).

    Examples
    --------
    >>> trial_tolerance(1, 100)
    0.0
    >>> round(trial_tolerance(2, 100), 3)
    0.566
    """
    size = check_int(n_samples, "n_samples", minimum=1)
    try:
        e = float(expected)
    except (TypeError, ValueError, OverflowError):
        raise InvalidValueError("expected must be a finite number >= 1, got "
                                f"{expected!r:.40}") from None
    if not e >= 1.0 or math.isinf(e):  # also NaN
        raise InvalidValueError(f"an expected number of trials is a finite number >= 1, got {e}")
    z = check_real(z, "z", minimum=0.0)
    p = 1.0 / e
    return z * e * math.sqrt((1.0 - p) / size)  # sqrt((1-p)/p²/N), without p² underflowing


def chisquare_test(observed: np.ndarray, probs: Iterable[float], min_expected: float = 5.0
               ) -> tuple[float, float, int]:
    """Pearson chi-square goodness of fit; cells with expected count < 5 are merged.

    Cells are merged from both tails towards the mode. Returns ``(statistic, p, dof)``.
    """
    from scipy.special import chdtrc  # chi-square survival function

    observed = _finite(observed, "observed")
    probs = _finite(list(probs), "probs")
    if observed.shape != probs.shape or observed.size < 2:
        raise InvalidValueError("observed and probs need the same length >= 2, got "
                                f"{observed.shape} and {probs.shape}")
    if (observed < 0).any() or (probs < 0).any() or not probs.sum() > 0 \
            or not observed.sum() > 0:
        raise InvalidValueError("observed and probs must be >= 0 with positive sums")
    min_expected = check_real(min_expected, "min_expected", minimum=0.0)
    expected = probs / probs.sum() * observed.sum()
    obs, exp = list(observed), list(expected)
    while len(exp) > 2 and exp[0] < min_expected:
        exp[1] += exp.pop(0)
        obs[1] += obs.pop(0)
    while len(exp) > 2 and exp[-1] < min_expected:
        exp[-2] += exp.pop()
        obs[-2] += obs.pop()
    o, e = np.array(obs), np.array(exp)
    stat = float(((o - e) ** 2 / e).sum())
    dof = len(e) - 1
    return stat, float(chdtrc(dof, stat)), dof


def chisquare_lumped(observed: np.ndarray, probs: Iterable[float], min_expected: float = 5.0
                     ) -> tuple[float, float, int]:
    """Pearson chi-square where every cell of expected count < ``min_expected`` is lumped
    into one cell (for laws with many rare cells in no particular order, e.g. a sampler's
    segmentations; :func:`chisquare_test` merges only from the tails).

    Returns ``(statistic, p, dof)``.

    >>> stat, p, dof = chisquare_lumped(np.array([500, 480, 4, 4, 4, 4, 4]),
    ...                                 [0.5, 0.48, 0.004, 0.004, 0.004, 0.004, 0.004])
    >>> stat, dof  # three cells: 500, 480 and the five of expected count 4 lumped
    (0.0, 2)
    """
    observed = _finite(observed, "observed")
    probs = _finite(list(probs), "probs")
    if observed.shape != probs.shape or not probs.sum() > 0 or not observed.sum() > 0:
        raise InvalidValueError("observed and probs need the same shape and positive sums")
    min_expected = check_real(min_expected, "min_expected", minimum=0.0)
    expected = probs / probs.sum() * observed.sum()
    big = expected >= min_expected
    obs = np.append(observed[big], observed[~big].sum())
    exp = np.append(expected[big], expected[~big].sum())
    if not big.all() or obs.size < 2:
        return chisquare_test(obs, exp, min_expected)
    return chisquare_test(observed, probs, min_expected)


def z_test(sample: np.ndarray, mean: float, var: float) -> tuple[float, float]:
    """Two-sided z-test of a sample mean against a known mean and variance."""
    from scipy.special import ndtr  # standard normal cdf

    sample = _finite(sample, "sample")
    if sample.size == 0:
        raise InvalidValueError("sample is empty: a z-test needs at least one value")
    mean = check_real(mean, "mean")
    var = check_real(var, "var", minimum=0.0, open_minimum=True)
    z = (float(np.mean(sample)) - mean) / np.sqrt(var / sample.size)
    return float(z), float(2 * ndtr(-abs(z)))
