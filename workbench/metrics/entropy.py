"""Shannon and Rényi entropy of a unigram distribution, and Rényi efficiency.

For a distribution ``p`` over the observed types and ``α ≥ 0`` (Cognetta et al. 2024, Eqs. 2–3;
Zouhar et al. 2023)::

    H_α(p)   = 1/(1-α) · log Σ_w p(w)^α          (α ≠ 0, 1, ∞)
    H_0      = log |supp p|                         (Hartley)
    H_1      = -Σ_w p(w) log p(w)                   (Shannon; the limit α → 1)
    H_∞      = -log max_w p(w)                      (min-entropy; the limit α → ∞)
    Eff_α    = H_α / log |V|

**Numerics near α = 1.** The textbook formula divides ``log Σ p^α ≈ 0`` by ``1 - α ≈ 0`` and loses
every digit as α → 1 (``tokenization-scorer`` returns garbage at ``α = 1 ± 1e-12``). Here, with
``δ = α - 1`` and ``ℓ = log p ≤ 0``::

    log Σ p^α = log Σ p·e^{δℓ} = log1p(S),   S = Σ p · expm1(δℓ),

and every term of ``S`` has the sign of ``-δ``, so the sum has no cancellation and
``H_α = -log1p(S)/δ`` keeps full relative precision for every ``δ`` down to the smallest
normal doubles. When ``Σ p^α`` is far from 1 (``S ≤ -3/4`` or ``S ≥ 3``) the log-sum-exp form
``log Σ e^{αℓ}`` is used instead (there ``|log Σ p^α| > 1.3``, so nothing cancels either).

This module does not count tokens (see :mod:`workbench.metrics.unigram`) and does not
compute frequency-based metrics (see :mod:`workbench.metrics.frequency`).

Example
-------
>>> round(shannon_entropy([0.4, 0.3, 0.2, 0.1]), 4)
1.8464
>>> round(renyi_entropy([0.4, 0.3, 0.2, 0.1], 3.0), 4)
1.661
>>> renyi_entropy([1, 1, 1, 1], float("inf"))
2.0
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence

import numpy as np

from .._core.errors import InvalidValueError
from .._core.validate import check_int, check_real, log_base
from .unigram import count_array

__all__ = ["renyi_efficiency", "renyi_entropy", "shannon_entropy"]

Counts = Mapping[Hashable, float] | Sequence[float] | np.ndarray


def _distribution(counts: Counts) -> tuple[np.ndarray, np.ndarray]:
    """``(p, ℓ)``: probabilities and natural-log probabilities of the positive counts.

    ``ℓ = ln c − ln T`` (not ``ln(c/T)``, which underflows for tiny ratios), clipped at 0.
    The total is taken of the counts divided by their maximum, so it cannot overflow
    (entropy is scale-invariant: ``[1e308, 1e308]`` is the fair coin, not an overflow to 0).

    >>> p, l = _distribution([1, 3])
    >>> p.tolist(), round(float(l[1]), 6)
    ([0.25, 0.75], -0.287682)
    >>> _distribution([1e308, 1e308])[0].tolist()
    [0.5, 0.5]
    """
    c = count_array(counts)
    top = float(c.max())
    scaled = c / top  # in (0, 1]: the total cannot overflow (tiny ratios may underflow to 0)
    total = float(scaled.sum())  # in [1, n]
    logp = np.minimum(np.log(c) - math.log(top) - math.log(total), 0.0)
    return scaled / total, logp


def _shannon_nats(p: np.ndarray, logp: np.ndarray) -> float:
    return max(0.0, float(-(p * logp).sum()))


def _renyi_nats(p: np.ndarray, logp: np.ndarray, alpha: float) -> float:
    """Rényi entropy in nats; ``alpha`` already checked (``>= 0``, may be ``inf``).

    >>> p = np.array([0.5, 0.5]); l = np.log(p)
    >>> round(_renyi_nats(p, l, 1 + 1e-13) / math.log(2), 12)
    1.0
    """
    if alpha == 0.0:
        return math.log(p.size)
    if math.isinf(alpha):
        return max(0.0, float(-logp.max()))
    if alpha == 1.0:
        return _shannon_nats(p, logp)
    delta = alpha - 1.0
    with np.errstate(over="ignore", invalid="ignore"):
        s = float((p * np.expm1(delta * logp)).sum())
    if math.isfinite(s) and -0.75 < s < 3.0:
        log_sum = math.log1p(s)
    else:  # Σ p^α far from 1: log-sum-exp, no cancellation possible
        a = alpha * logp
        m = float(a.max())
        log_sum = m + math.log(float(np.exp(a - m).sum()))
    return max(0.0, -log_sum / delta)


def shannon_entropy(counts: Counts, base: float = 2) -> float:
    """Shannon entropy ``H = -Σ p log p`` of a unigram count table.

    Parameters
    ----------
    counts : mapping token → count, or 1-D array of counts
        Real counts ``>= 0`` (zeros are ignored); at least one positive count.
    base : float
        Logarithm base (2: bits, ``math.e``: nats).

    Returns
    -------
    float
        ``H >= 0``; 0 for a single type.

    Raises
    ------
    TypeError, ValueError
        Bad counts (see :func:`~workbench.metrics.unigram.count_array`) or base.

    Examples
    --------
    >>> shannon_entropy({"a": 2, "b": 2, "c": 0})
    1.0
    >>> round(shannon_entropy([1, 1, 1], base=3), 12)
    1.0
    """
    lb = log_base(base)
    return _shannon_nats(*_distribution(counts)) / lb


def renyi_entropy(counts: Counts, alpha: float, base: float = 2) -> float:
    """Rényi entropy ``H_α = log(Σ p^α)/(1-α)`` of a unigram count table, every ``α >= 0``.

    ``α = 1`` is Shannon entropy (and the function is continuous there to full precision),
    ``α = 0`` is ``log`` of the number of observed types, ``α = inf`` is ``-log max p``.

    Parameters
    ----------
    counts : mapping token → count, or 1-D array of counts
        Real counts ``>= 0`` (zeros are ignored); at least one positive count.
    alpha : float
        Order, ``>= 0`` (``float("inf")`` allowed).
    base : float
        Logarithm base (2: bits).

    Returns
    -------
    float
        ``0 <= H_α <= log(types)``, non-increasing in ``α``.

    Raises
    ------
    ValueError
        ``alpha < 0`` or NaN, bad counts or base.

    Examples
    --------
    >>> round(renyi_entropy([1, 1, 2], 2.0), 6)  # -log2(1/16 + 1/16 + 1/4)
    1.415037
    >>> abs(renyi_entropy([1, 2, 3], 1 + 1e-12) - shannon_entropy([1, 2, 3])) < 1e-12
    True
    """
    a = check_real(alpha, "alpha", minimum=0.0, allow_inf=True)
    lb = log_base(base)
    return _renyi_nats(*_distribution(counts), a) / lb


def renyi_efficiency(counts: Counts, alpha: float, vocab_size: int | None = None) -> float:
    """Rényi efficiency ``Eff_α = H_α / log |V|`` (base-free), in ``[0, 1]``.

    Parameters
    ----------
    counts : mapping token → count, or 1-D array of counts
        The unigram counts of a tokenised corpus (zeros ignored).
    alpha : float
        Order, ``>= 0`` (``inf`` allowed; ``1`` gives Shannon efficiency).
    vocab_size : int, optional
        ``|V|``. Default: the number of observed types (what ``tokenization-scorer`` uses
        unless told otherwise). Must be at least the number of observed types and ``>= 2``.

    Raises
    ------
    ValueError
        ``|V| < 2`` (a one-type distribution has no efficiency: ``0 / log 1``), ``vocab_size``
        below the observed types, bad ``alpha`` or counts.

    Examples
    --------
    >>> renyi_efficiency([5, 5, 5, 5], 2.5)
    1.0
    >>> round(renyi_efficiency([5, 5, 5, 5], 2.5, vocab_size=16), 12)
    0.5
    """
    a = check_real(alpha, "alpha", minimum=0.0, allow_inf=True)
    p, logp = _distribution(counts)
    types = p.size
    if vocab_size is None:
        size = types
        if size < 2:
            raise InvalidValueError("renyi_efficiency needs at least 2 observed types (log 1 = 0); "
                                    "pass vocab_size to normalise by a larger vocabulary")
    else:
        size = check_int(vocab_size, "vocab_size", minimum=2)
        if size < types:
            raise InvalidValueError(f"vocab_size = {size} is below the {types} observed types")
    return min(1.0, _renyi_nats(p, logp, a) / math.log(size))
