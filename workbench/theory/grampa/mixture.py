"""Algorithm 3's mixture (GRaMPa §4.6): p · a stochastic law + (1 − p) · one segmentation.

Algorithm 3 flips one coin per word (``RAND < p``): heads, the stochastic tokeniser samples;
tails, the deterministic tokeniser's segmentation ``d`` is used. The word's law is therefore
``p · L + (1 − p) · δ_d``. Every caller of the package computes that mixture here:

* :func:`mix` — any quantity linear in the law (a probability, an expectation, a pmf, an
  expected-count vector): ``p · s + (1 − p) · d``, for numbers, Fractions or numpy arrays;
* :func:`mixture_entropy` — the Shannon entropy of ``p · L + (1 − p) · δ_d`` from ``L``'s
  entropy and ``L``'s probability of ``d`` (nothing enumerated);
* :func:`mixture_law` — the mixture as a :class:`workbench.laws.SegmentationLaw`, exact
  Fractions when ``L`` and ``p`` are rational (:meth:`workbench.Multiplexer.law` builds it);
  when ``L`` is chain-backed (GRaMPa, ULM over every segmentation, MaxMatch-dropout) the
  mixture is too (:class:`MixtureChain`): its summaries, mode and probabilities of single
  segmentations come from ``L``'s dynamic programs and the point mass, for words of any
  length, and only the full mapping enumerates (within ``L``'s budget).

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
from collections.abc import Mapping, Sequence
from fractions import Fraction
from numbers import Real
from typing import TypeVar

from ..._core.errors import ArgumentTypeError, InvalidValueError
from ..._core.validate import check_tokens
from ...laws import LawChain, SegmentationLaw

__all__ = ["MixtureChain", "mix", "mixture_entropy", "mixture_law"]

T = TypeVar("T")
_LOGS = {"bits": math.log2, "nats": math.log}


def _check_rate(p: object) -> Real:
    """The multiplexing rate as given (Fractions stay Fractions), checked to be in [0, 1]."""
    if isinstance(p, bool) or not isinstance(p, Real):
        raise ArgumentTypeError("the multiplexing rate p must be a real number, not "
                                f"{type(p).__name__}")
    if not 0 <= p <= 1:  # also refuses NaN
        why = ("NaN is not a number" if p != p else "a probability cannot be negative" if p < 0
               else "a probability cannot exceed 1")
        raise InvalidValueError(f"the multiplexing rate p is a probability and must be in "
                                f"[0, 1], got {p!r} ({why})")
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
        raise InvalidValueError(f"unit must be 'bits' or 'nats', got {unit!r}")
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
        the word (then its ``1 − p`` joins the failure mass). One ``str`` is refused
        (:class:`~workbench.ArgumentTypeError`), not split into characters.
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
        raise ArgumentTypeError(f"law must be a SegmentationLaw, not {type(law).__name__}")
    p = _check_rate(p)
    if not (law.exact and isinstance(p, (Fraction, int))):
        p = float(p)
    det = None if deterministic is None else check_tokens(deterministic, "deterministic")
    if law.chain is not None:  # summaries by the chain's dynamic programs: any length
        return SegmentationLaw.from_chain(MixtureChain(law.chain, det, float(p)),
                                          deterministic=det)
    probs = {s: mix(p, q, 0) for s, q in law.probabilities().items()}
    if det is not None:
        probs[det] = mix(p, law.probability(det), 1)
    fail = mix(p, law.failure_mass, 1 if det is None else 0)
    n_segs = law.n_segmentations
    if n_segs is not None and sum(q > 0 for q in probs.values()) > n_segs:
        n_segs = None
    return SegmentationLaw(law.word, probs, failure_mass=fail, n_segmentations=n_segs,
                           deterministic=det)


def _xlogx(x: float) -> float:
    return x * math.log(x) if x > 0.0 else 0.0


class MixtureChain:
    """Algorithm 3's law ``p · L + (1 − p) · δ_d`` over a chain-backed ``L``, answering what
    :class:`workbench.laws.SegmentationLaw` asks of a chain (the ``LawChain`` protocol).

    Every summary is ``L``'s (by its dynamic programs) and the point mass, in closed form:
    with ``s`` = ``L``'s success mass, ``P_L(d)`` one path probability and ``q = p P_L(d) +
    1 − p`` the mixture's mass on ``d``, ``Σ M log M = p log p (s − P_L(d)) + p (s (log s −
    H_L) − P_L(d) log P_L(d)) + q log q``; E[#tokens] and the token-count pmf mix linearly.
    ``d = None`` (the deterministic tokeniser fails) puts ``1 − p`` into the failure mass.
    Only :meth:`enumerate` lists segmentations, through ``L``'s own (budgeted) enumeration.
    """

    def __init__(self, chain: LawChain, deterministic: tuple[str, ...] | None, p: float
                 ) -> None:
        self.word = chain.word
        self._chain, self._det, self._p = chain, deterministic, float(p)
        self._log_det = (-math.inf if deterministic is None or p == 0.0
                         else float(chain.log_probability(deterministic)))
        self._p_det = (0.0 if self._log_det == -math.inf
                       else float(chain.probability(deterministic)))  # type: ignore[arg-type]
        self._q = (1.0 - p) + p * self._p_det if deterministic is not None else 0.0
        self.failure_mass = p * float(chain.failure_mass) + (
            (1.0 - p) if deterministic is None else 0.0)
        self._s = float(chain.success_mass) if p > 0.0 else 0.0  # L's success, 0 if unused
        self.success_mass = p * self._s + (0.0 if deterministic is None else 1.0 - p)

    def _mixed(self, stochastic: float, det: float) -> float:
        """``(p · s · stochastic + (1 − p) · det) / success`` for a quantity given success."""
        return (self._p * self._s * stochastic + (1.0 - self._p) * det) / self.success_mass

    def entropy(self) -> float:
        """Shannon entropy (nats) of the mixture given success."""
        p, s, pd = self._p, self._s, self._p_det
        total = _xlogx(self._q)
        if s > 0.0:
            total += p * math.log(p) * (s - pd) + p * (s * (math.log(s) - self._chain.entropy())
                                                       - _xlogx(pd))
        return max(0.0, math.log(self.success_mass) - total / self.success_mass)

    def expected_tokens(self) -> float:
        """E[#tokens | success]."""
        e = self._chain.expected_tokens() if self._s > 0.0 else 0.0
        return self._mixed(e, 0.0 if self._det is None else float(len(self._det)))

    def token_count_pmf(self) -> dict[int, float]:
        """P(k tokens | success)."""
        pmf = self._chain.token_count_pmf() if self._s > 0.0 else {}
        keys = set(pmf) | (set() if self._det is None or self._p == 1.0 else {len(self._det)})
        out = {k: self._mixed(pmf.get(k, 0.0), float(self._det is not None
                                                     and k == len(self._det)))
               for k in sorted(keys)}
        return {k: v for k, v in out.items() if v > 0.0}

    def support_size(self) -> int:
        """Segmentations of positive probability: ``L``'s, and ``d`` if ``L`` misses it."""
        extra = int(self._det is not None and self._p < 1.0 and self._log_det == -math.inf)
        return (self._chain.support_size() if self._s > 0.0 else 0) + extra

    def probability(self, tokens: tuple[str, ...]) -> float:
        """P(the multiplexer returns ``tokens``) (not conditioned on success); one ``str``
        is refused, not read as its characters."""
        tokens = check_tokens(tokens)
        if tokens == self._det:
            return self._q
        return self._p * float(self._chain.probability(tokens)) if self._s > 0.0 else 0.0

    def log_probability(self, tokens: tuple[str, ...]) -> float:
        """``log`` of :meth:`probability` without underflow (``-inf``: never returned); one
        ``str`` is refused."""
        tokens = check_tokens(tokens)
        if tokens == self._det and self._p < 1.0:
            return math.log(self._q)
        if self._s == 0.0:
            return -math.inf
        return math.log(self._p) + float(self._chain.log_probability(tokens))

    def mode(self) -> tuple[str, ...] | None:
        """The most probable segmentation (ties: fewer tokens, then the tokens)."""
        best = self._chain.mode() if self._s > 0.0 else None
        if best is None or best == self._det or self._det is None:
            return self._det if best is None or best == self._det else best
        mine = math.log(self._p) + float(self._chain.log_probability(best))
        ours = self.log_probability(self._det)
        if ours != mine:
            return self._det if ours > mine else best
        return min(best, self._det, key=lambda t: (len(t), t))

    def n_segmentations(self) -> int:
        """``L``'s N, or 0 when ``d`` is no segmentation in the vocabulary (the support
        would outgrow N)."""
        n = self._chain.n_segmentations()
        return 0 if n and self.support_size() > n else n

    def log_n_segmentations(self) -> float:
        """``log N`` (``L``'s)."""
        return self._chain.log_n_segmentations()

    def enumerate(self) -> tuple[Mapping[tuple[str, ...], float], float]:
        """Every segmentation with its probability and the failure mass (``L``'s budget)."""
        probs: dict[tuple[str, ...], float] = {}
        if self._s > 0.0:
            inner, _ = self._chain.enumerate()
            probs = {seg: self._p * float(q) for seg, q in inner.items()}
        if self._det is not None:
            probs[self._det] = (1.0 - self._p) + probs.get(self._det, 0.0)
        return probs, self.failure_mass
