"""Algorithm 3's mixture (GRaMPa §4.6): p · a stochastic law + (1 − p) · one segmentation.

Algorithm 3 flips one coin per word (``RAND < p``): heads, the stochastic tokeniser samples;
tails, the deterministic tokeniser's segmentation ``d`` is used. The word's law is therefore
``p · L + (1 − p) · δ_d``. Every caller of the package computes that mixture here:

* :func:`mix` — any quantity linear in the law (a probability, an expectation, a pmf, an
  expected-count vector): ``p · s + (1 − p) · d``, for numbers, Fractions or numpy arrays;
* :func:`mixture_entropy` — the Shannon entropy of ``p · L + (1 − p) · δ_d`` from ``L``'s
  entropy and ``L``'s probability of ``d`` (nothing enumerated);
* :func:`mixture_law` — the mixture as a :class:`workbench.laws.SegmentationLaw`, exact
  Fractions when ``L`` and ``p`` are rational (:meth:`workbench.Multiplexer.law` builds it).

This module samples nothing, computes no law ``L`` (each sampler's ``law(word)`` does) and
knows no tokeniser; the coins themselves are :meth:`workbench.Multiplexer.coins`.

Example
-------
>>> from fractions import Fraction as F
>>> mix(F(1, 4), F(1, 2), 1)
Fraction(7, 8)
>>> round(mixture_entropy(0.5, 1.0, 0.5), 6)      # L uniform on {d, e}: {d: 3/4, e: 1/4}
0.811278
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from numbers import Real
from typing import TypeVar

from ...laws import SegmentationLaw

__all__ = ["mix", "mixture_entropy", "mixture_law"]

T = TypeVar("T")
_LOGS = {"bits": math.log2, "nats": math.log}


def _check_rate(p: object) -> Real:
    """The multiplexing rate as given (Fractions stay Fractions), checked to be in [0, 1]."""
    if isinstance(p, bool) or not isinstance(p, Real):
        raise TypeError(f"the multiplexing rate p must be a real number, not {type(p).__name__}")
    if not 0 <= p <= 1:  # also refuses NaN
        raise ValueError(f"the multiplexing rate p must be in [0, 1], got {p!r}")
    return p


def mix(p: Real, stochastic: T, deterministic: T) -> T:
    """``p · stochastic + (1 − p) · deterministic``: a linear quantity of Algorithm 3's law.

    ``stochastic`` is the quantity under the stochastic law (a probability, an expectation,
    a pmf or vector of expected counts), ``deterministic`` the same quantity of the
    deterministic segmentation (``1``/``0`` for a probability of it, its number of tokens, a
    point mass, its token counts). Fractions stay exact; numpy arrays mix elementwise.

    >>> import numpy as np
    >>> mix(0.5, np.array([0.0, 0.5, 0.5]), np.array([0.0, 0.0, 1.0])).tolist()
    [0.0, 0.25, 0.75]
    """
    p = _check_rate(p)
    return p * stochastic + (1 - p) * deterministic  # type: ignore[operator, return-value]


def mixture_entropy(p: float, entropy: float, p_det: float, unit: str = "bits") -> float:
    """Shannon entropy of ``p · L + (1 − p) · δ_d`` from ``H(L)`` and ``P_L(d)``.

    Every segmentation ``s ≠ d`` keeps ``p · P_L(s)``; ``d`` gets
    ``q = mix(p, P_L(d), 1)``. So ``H = p · H(L) + p · P_L(d) log P_L(d)
    − p (1 − P_L(d)) log p − q log q``, in ``unit`` (``"bits"`` or ``"nats"``, the unit of
    ``entropy``).

    >>> mixture_entropy(0.0, 3.0, 0.1), mixture_entropy(1.0, 3.0, 0.1) == 3.0
    (0.0, True)
    """
    p = _check_rate(p)
    if unit not in _LOGS:
        raise ValueError(f"unit must be 'bits' or 'nats', got {unit!r}")
    log = _LOGS[unit]
    if p == 0:
        return 0.0
    q_det = mix(p, p_det, 1.0)
    h = p * entropy + (p * p_det * log(p_det) if p_det > 0 else 0.0) \
        - p * (1 - p_det) * log(p)
    return h - (q_det * log(q_det) if q_det > 0 else 0.0)


def mixture_law(law: SegmentationLaw, deterministic: Sequence[str] | None,
                p: Real) -> SegmentationLaw:
    """The law of Algorithm 3 on ``law.word``: ``p · law + (1 − p) · δ_deterministic``.

    Parameters
    ----------
    law : SegmentationLaw
        The stochastic tokeniser's law on the word.
    deterministic : sequence of str or None
        The deterministic tokeniser's segmentation of the word; ``None`` when it fails on
        the word (then its ``1 − p`` joins the failure mass).
    p : real in [0, 1]
        The multiplexing rate, P(the stochastic tokeniser is used).

    Returns
    -------
    SegmentationLaw
        Exact (Fractions) when ``law`` is and ``p`` is a Fraction or an int. Its
        ``deterministic`` is ``deterministic`` (so ``regularisation_rate`` is measured against
        it); its ``n_segmentations`` is ``law``'s, or None if the deterministic segmentation
        cannot be among them (the support would outgrow it).

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> L = SegmentationLaw("ab", {("a", "b"): F(1, 2), ("ab",): F(1, 2)}, n_segmentations=2)
    >>> mixture_law(L, ("ab",), F(1, 2)).probabilities()
    {('ab',): Fraction(3, 4), ('a', 'b'): Fraction(1, 4)}
    """
    if not isinstance(law, SegmentationLaw):
        raise TypeError(f"law must be a SegmentationLaw, not {type(law).__name__}")
    p = _check_rate(p)
    if not (law.exact and isinstance(p, (Fraction, int))):
        p = float(p)
    det = None if deterministic is None else tuple(deterministic)
    probs = {s: mix(p, q, 0) for s, q in law.probabilities().items()}
    if det is not None:
        probs[det] = mix(p, law.probability(det), 1)
    fail = mix(p, law.failure_mass, 1 if det is None else 0)
    n_segs = law.n_segmentations
    if n_segs is not None and sum(q > 0 for q in probs.values()) > n_segs:
        n_segs = None
    return SegmentationLaw(law.word, probs, failure_mass=fail, n_segmentations=n_segs,
                           deterministic=det)
