"""Checks of every closed form in :mod:`workbench.theory`, collected into one table.

:func:`verify` runs three kinds of check and returns one :class:`CheckResult` per row
(claim, equation, computed, expected, status):

* **symbolic** (sympy, symbolic ``n``): the sums of Eqs. 21–23, the telescoping product of
  Eq. 11, ``Σ_ℓ M(ℓ, n) = (n+1)·2^(n-2)``, the Chao–Strawderman identity (Eq. 34) and
  Eq. 36, Eq. 27 → Eq. 28, ``ε(G_full) = 1/n!`` (Eq. 43);
* **exact numeric** (integers/fractions): exhaustive enumeration of compositions for
  ``n <= 16`` against ``M(ℓ, n)`` and the token-count law, LOCK keys bijective and
  order-respecting for ``n <= 14``, the LOCK kernel against the Python ints up to
  ``n = 64``, ``f1`` as a sum and through ₂F₁, Algorithm 4's order, ``p(37) = 21 637``;
* **statistical** (fixed seeds, pass iff p-value > ``P_THRESHOLD`` = 1e-3): the Markov and
  bit rejection samplers' mean trial counts and uniformity, and GRaMPa's samples under
  the infinite vocabulary (:func:`check_grampa_uniform`; "skipped" while
  ``workbench.Grampa`` does not exist).

A check that raises is reported as ``fail`` with the exception in ``computed``.

This module does not time anything (see ``benchmarks/bench_lock.py``) and does not plot.

Example
-------
>>> rows = verify(only="Eq. 21")
>>> [(r.equation, r.status) for r in rows]
[('Eq. 21', 'pass')]
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb, factorial

import numpy as np

from .laws import (
    chao_strawderman,
    expected_chars_per_token,
    token_count_pmf,
    token_length_count,
    token_length_count_approx,
    token_length_limit_pmf,
    token_length_pmf,
    total_token_count,
    total_token_count_approx,
)
from .lock import (
    bit_key,
    bit_unrank,
    lock_f1,
    lock_f1_hyp2f1,
    lock_f2,
    lock_f2_by_partitions,
    lock_key,
    lock_keys,
    lock_unrank,
    multiset_permutation_count,
    multiset_rank,
    partition_count,
    partitions_k,
    partitions_k_recursive,
)
from .rejection import (
    bit_rejection_expected_trials,
    bit_rejection_samples,
    bounded_composition_count,
    markov_epsilon_full,
    markov_expected_inverse_probability,
    markov_path_probability,
    markov_rejection_expected_trials,
    markov_rejection_samples,
)

P_THRESHOLD = 1e-3
"""A statistical check passes iff its p-value exceeds this."""
STATUSES = ("pass", "fail", "skipped")

ENUM_MAX_N = 16
LOCK_EXHAUSTIVE_MAX_N = 14


@dataclass(frozen=True)
class CheckResult:
    """One row of the verification table."""

    claim: str
    equation: str
    computed: str
    expected: str
    status: str  # "pass" | "fail" | "skipped"

    def as_dict(self) -> dict[str, str]:
        return asdict(self)


class _Skip(Exception):
    """Raised by a check that cannot run (e.g. a component that does not exist yet)."""


def _row(claim: str, equation: str, computed: object, expected: object,
         ok: bool) -> CheckResult:
    return CheckResult(claim, equation, str(computed), str(expected), "pass" if ok else "fail")


def _p_row(claim: str, equation: str, p: float, stat: str) -> CheckResult:
    return _row(claim, equation, f"p = {p:.3g} ({stat})", f"p > {P_THRESHOLD:g}",
                bool(p > P_THRESHOLD))


# --------------------------------------------------------------------------- statistics
def _chisquare(observed: np.ndarray, probs: Iterable[float], min_expected: float = 5.0
               ) -> tuple[float, float, int]:
    """Pearson chi-square goodness of fit; cells with expected count < 5 are merged.

    Cells are merged from both tails towards the mode. Returns ``(statistic, p, dof)``.
    """
    from scipy.special import chdtrc  # chi-square survival function

    observed = np.asarray(observed, dtype=float)
    probs = np.asarray(list(probs), dtype=float)
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


def _z_test(sample: np.ndarray, mean: float, var: float) -> tuple[float, float]:
    """Two-sided z-test of a sample mean against a known mean and variance."""
    from scipy.special import ndtr  # standard normal cdf

    z = (float(np.mean(sample)) - mean) / np.sqrt(var / sample.size)
    return float(z), float(2 * ndtr(-abs(z)))


# --------------------------------------------------------------------------- enumeration
def _all_masks(n: int) -> np.ndarray:
    """Boundary matrix of all compositions: row = bit-key mask, column p = boundary at p.

    Columns ``0`` and ``n`` (the string ends) are always True.
    """
    masks = np.arange(1 << (n - 1), dtype=np.int64)
    cols = np.ones((masks.size, n + 1), dtype=bool)
    for p in range(1, n):
        cols[:, p] = (masks >> (n - 1 - p)) & 1
    return cols


def _enumerate_lengths(n: int) -> tuple[np.ndarray, np.ndarray]:
    """All ``2^(n-1)`` compositions of ``n`` (bit-key order) as (lengths_flat, offsets)."""
    cols = _all_masks(n)
    idx = np.where(cols, np.arange(n + 1), 0)
    prev = np.maximum.accumulate(idx, axis=1)  # last boundary at or before p
    ends = cols[:, 1:]
    lengths = (np.arange(1, n + 1) - prev[:, :-1])[ends]
    m = ends.sum(axis=1)
    offsets = np.concatenate([[0], np.cumsum(m)]).astype(np.int64)
    return lengths.astype(np.int64), offsets


@lru_cache(maxsize=32)
def _compositions(n: int) -> tuple[tuple[int, ...], ...]:
    lengths, offsets = _enumerate_lengths(n)
    flat = lengths.tolist()
    return tuple(tuple(flat[offsets[k]:offsets[k + 1]]) for k in range(offsets.size - 1))


@lru_cache(maxsize=32)
def _lock_keys_python(n: int) -> tuple[int, ...]:
    """:func:`lock_key` of every composition of ``n``, in :func:`_compositions` order."""
    return tuple(lock_key(t) for t in _compositions(n))


# --------------------------------------------------------------------------- symbolic checks
def _sym():
    import sympy as sp

    n = sp.Symbol("n", integer=True, positive=True)
    k = sp.Symbol("k", integer=True, positive=True)
    ell = sp.Symbol("ell", integer=True, positive=True)
    q = sp.Symbol("q", positive=True)
    return sp, n, k, ell, q


def _sym_zero(sp, expr) -> bool:
    return sp.simplify(expr) == 0


def check_eq21() -> list[CheckResult]:
    sp, n, k, _, q = _sym()
    general = sp.summation(q ** k, (k, 1, n))
    general = general.args[-1][0] if isinstance(general, sp.Piecewise) else general
    half = sp.summation(sp.Rational(1, 2) ** k, (k, 1, n))
    ok = (_sym_zero(sp, general - q * (1 - q ** n) / (1 - q))
          and _sym_zero(sp, half - (1 - 2 ** -n)))
    return [_row("geometric series Σ_{k=1}^n q^k (sympy, symbolic n, q)", "Eq. 21",
                 f"{sp.simplify(half)} at q=1/2", "q(1-q^n)/(1-q) = 1 - 2^-n", ok)]


def check_eq22() -> list[CheckResult]:
    sp, n, k, _, q = _sym()
    general = sp.summation(k * q ** k, (k, 1, n))
    general = general.args[-1][0] if isinstance(general, sp.Piecewise) else general
    paper = q / (1 - q) * (1 - (n + 1) * q ** n) + (q / (1 - q)) ** 2 * (1 - q ** n)
    half = sp.summation(k * sp.Rational(1, 2) ** k, (k, 1, n))
    ok = _sym_zero(sp, general - paper) and _sym_zero(sp, half - (2 - (n + 2) * 2 ** -n))
    return [_row("Σ_{k=1}^n k q^k (sympy, symbolic n, q)", "Eq. 22",
                 f"{sp.simplify(half)} at q=1/2", "2 - (n+2) 2^-n", ok)]


def check_eq23() -> list[CheckResult]:
    sp, n, _, ell, _ = _sym()
    s = sp.summation((n + 3 - ell) * 2 ** (n - 2 - ell), (ell, 1, n))
    target = ((n + 1) - 2 ** -n) * 2 ** (n - 2)
    ok = _sym_zero(sp, s - target)
    numeric = all(total_token_count_approx(m) == sum(token_length_count_approx(x, m)
                                                     for x in range(1, m + 1))
                  for m in range(1, 40))
    return [_row("Σ_ℓ (n+3-ℓ) 2^(n-2-ℓ) (sympy; and exact sums n<40)", "Eq. 23",
                 sp.simplify(s), "((n+1) - 2^-n) 2^(n-2)", ok and numeric)]


def check_total_tokens() -> list[CheckResult]:
    sp, n, _, ell, _ = _sym()
    # M(ℓ, n) = (n+3-ℓ) 2^(n-2-ℓ) for ℓ <= n-1 (no clipping there) and M(n, n) = 1
    s = sp.summation((n + 3 - ell) * 2 ** (n - 2 - ell), (ell, 1, n - 1)) + 1
    ok = _sym_zero(sp, s - (n + 1) * 2 ** (n - 2))
    numeric = all(sum(token_length_count(x, m) for x in range(1, m + 1)) == total_token_count(m)
                  == sum(j * comb(m - 1, j - 1) for j in range(1, m + 1))
                  for m in range(1, 200))
    return [_row("Σ_ℓ M(ℓ,n) = total tokens over all segmentations (sympy; exact n<200)",
                 "Eq. 16, 12", sp.simplify(s), "(n+1) 2^(n-2) = Σ_m m C(n-1,m-1)",
                 ok and numeric)]


def check_eq34() -> list[CheckResult]:
    sp, n, _, _, _ = _sym()
    p = sp.Symbol("p", positive=True)
    t = sp.Symbol("t", positive=True)
    rhs = (1 - (1 - p) ** (n + 1)) / ((n + 1) * p)
    # E[1/(1+X)] = ∫_0^1 E[t^X] dt = ∫_0^1 (1-p+pt)^n dt, for symbolic n
    integral = sp.integrate((1 - p + p * t) ** n, (t, 0, 1))
    ok = _sym_zero(sp, integral - rhs)
    # the defining sum equals the closed form as a rational function of p, n = 0..10
    for m in range(11):
        direct = sum(sp.binomial(m, j) * p ** j * (1 - p) ** (m - j) / (1 + j)
                     for j in range(m + 1))
        ok = ok and sp.cancel(direct - rhs.subs(n, m)) == 0
    # Eq. 35-36: (n+1) E[1/(1+X)] at p = 1/2 with n = |s| - 1 is 2 (1 - 2^-|s|)
    s = sp.Symbol("s", integer=True, positive=True)
    er = ((n + 1) * rhs).subs(p, sp.Rational(1, 2)).subs(n, s - 1)
    ok = ok and _sym_zero(sp, er - 2 * (1 - 2 ** -s))
    return [_row("E[1/(1+X)], X~Binom(n,p) (sympy: ∫(1-p+pt)^n dt, sums n<=10; E[R])",
                 "Eq. 34-36", sp.simplify(integral), "(1-(1-p)^(n+1))/((n+1)p)", ok)]


def check_eq11() -> list[CheckResult]:
    sp, _, k, ell, _ = _sym()
    c = sp.Function("c")  # c(k) = path count of the k-th visited node, c(0) = 1
    log_p = sp.summation(sp.log(c(k - 1)) - sp.log(c(k)), (k, 1, ell))
    ok = _sym_zero(sp, log_p - (sp.log(c(0)) - sp.log(c(ell))))
    for length in range(1, 13):
        cs = sp.symbols(f"c0:{length + 1}", positive=True)
        prod = sp.Mul(*[cs[i - 1] / cs[i] for i in range(1, length + 1)])
        ok = ok and sp.simplify(prod - cs[0] / cs[-1]) == 0
    return [_row("GRaMPa path probability Π c_{i_{k-1}}/c_{i_k} telescopes (sympy)",
                 "Eq. 11", f"log P = {log_p}", "c_0/c_n = 1/N_V(s)", ok)]


def check_eq27_28() -> list[CheckResult]:
    sp, n, _, ell, _ = _sym()
    eq24 = (n + 3 - ell) * 2 ** (n - 2 - ell) / (((n + 1) - 2 ** -n) * 2 ** (n - 2))
    eq25 = (n + 3 - ell) / (n + 1 - 2 ** -n) * 2 ** -ell
    eq27 = (1 - (ell - 2) / (n + 1)) * 2 ** -ell
    eq26 = (n + 3 - ell) / (n + 1) * 2 ** -ell
    lim = sp.limit(eq27, n, sp.oo)
    ok = (_sym_zero(sp, eq24 - eq25) and _sym_zero(sp, eq26 - eq27)
          and _sym_zero(sp, lim - 2 ** -ell)
          and _sym_zero(sp, sp.limit(eq25, n, sp.oo) - 2 ** -ell))
    ok = ok and all(token_length_limit_pmf(x) == Fraction(1, 2 ** x) for x in range(1, 30))
    return [_row("Eq. 24 = 25, 26 = 27, and lim_{n→∞} P(ℓ|n) (sympy)", "Eq. 24-28",
                 lim, "2^-ℓ (geometric, p = 1/2)", ok)]


def check_eq43_47() -> list[CheckResult]:
    sp, n, _, _, _ = _sym()
    j = sp.Symbol("j", integer=True, nonnegative=True)
    eps = sp.product(1 / (n - j), (j, 0, n - 1))
    ok = sp.simplify(eps * sp.factorial(n)) == 1
    ok = ok and all(markov_epsilon_full(m) == Fraction(1, factorial(m))
                    and markov_rejection_expected_trials(m) == Fraction(factorial(m), 2 ** (m - 1))
                    and markov_expected_inverse_probability(m) == 2 ** (m - 1)
                    for m in range(1, 60))
    return [_row("ε(G_full) = Π 1/(n-j) (sympy); E[T] = 1/(ε 2^(n-1))", "Eq. 43, 47",
                 f"ε = {sp.simplify(eps)}", "1/n!, E[T] = n!/2^(n-1)", ok)]


# --------------------------------------------------------------------------- exact numeric
def check_enumeration() -> list[CheckResult]:
    bad_m, bad_count, total = [], [], 0
    for n in range(1, ENUM_MAX_N + 1):
        lengths, offsets = _enumerate_lengths(n)
        total += offsets.size - 1
        hist = np.bincount(lengths, minlength=n + 1)
        if [int(h) for h in hist[1:]] != [token_length_count(x, n) for x in range(1, n + 1)]:
            bad_m.append(n)
        m_hist = np.bincount(np.diff(offsets), minlength=n + 1)
        law = token_count_pmf(n)
        if any(Fraction(int(m_hist[m]), 1 << (n - 1)) != law[m] for m in range(1, n + 1)):
            bad_count.append(n)
    return [
        _row(f"M(ℓ,n) = tokens of length ℓ over all segmentations, n<={ENUM_MAX_N}",
             "Eq. 16", f"{total:,} compositions; mismatches at n in {bad_m}",
             "exact equality for every ℓ, n", not bad_m),
        _row(f"token count m ~ 1 + Binom(n-1, 1/2) by enumeration, n<={ENUM_MAX_N}",
             "§3.1", f"mismatches at n in {bad_count}", "exact equality", not bad_count),
    ]


def check_length_pmf() -> list[CheckResult]:
    ok_norm, worst, float_err = True, 0.0, 0.0
    ok_eq27 = True
    for n in range(1, 80):
        exact = token_length_pmf(n)
        approx = token_length_pmf(n, exact=False)
        ok_norm = ok_norm and sum(exact.values()) == 1
        # Eq. 27 as an exact fraction: equal to Eq. 12 for ℓ < n, short by 1/((n+1)2^n) at ℓ = n
        bound = Fraction(1, (n + 1) * 2 ** n)
        for x in range(1, n + 1):
            frac = (1 - Fraction(x - 2, n + 1)) * Fraction(1, 2 ** x)
            ok_eq27 = ok_eq27 and exact[x] - frac == (bound if x == n else 0)
            if x < n:
                float_err = max(float_err, abs(float(exact[x]) - approx[x]))
        worst = max(worst, abs(float(exact[n]) - approx[n]) / float(bound))
        ok_eq27 = ok_eq27 and abs(sum(approx.values()) - (1 - float(bound))) < 1e-12
    return [
        _row("P(ℓ|n) = M(ℓ,n)/Σ M sums to 1 (exact, n<80)", "Eq. 12", "Σ = 1", "1", ok_norm),
        _row("Eq. 27 = Eq. 12 for ℓ<n; at ℓ=n short by δ = 1/((n+1)2^n) (n<80)", "Eq. 27",
             f"|Δ(ℓ=n)|/δ ≤ {worst:.6f}; float |Δ(ℓ<n)| ≤ {float_err:.1e}",
             "1 (exact as fractions); 0", ok_eq27 and abs(worst - 1) < 1e-9 and float_err < 1e-15),
    ]


def check_chars_per_token() -> list[CheckResult]:
    ok = True
    for n in range(1, 65):
        direct = sum(Fraction(n, m) * p for m, p in token_count_pmf(n).items())
        ok = ok and direct == expected_chars_per_token(n) == 2 * (1 - Fraction(1, 2 ** n))
    for p in (Fraction(1, 7), Fraction(1, 3), Fraction(1, 2), Fraction(3, 4), Fraction(1)):
        for n in range(0, 31):
            direct = sum(comb(n, x) * p ** x * (1 - p) ** (n - x) / (1 + x) for x in range(n + 1))
            ok = ok and chao_strawderman(n, p) == direct
    return [_row("E[R] = Σ_m (n/m) P(m) and E[1/(1+X)] by direct sums (exact)", "Eq. 34, 36",
                 f"E[R](n=64) = 2(1 - 2^-64): {expected_chars_per_token(64) < 2}",
                 "exact equality, n<=64; p in {1/7,1/3,1/2,3/4,1}", ok)]


def check_eq11_lattices(seed: int = 0) -> list[CheckResult]:
    rng = np.random.default_rng(seed)
    ok, lattices = True, 0
    for _ in range(60):
        n = int(rng.integers(1, 11))
        arcs = {(i, j) for i in range(n) for j in range(i + 1, n + 1) if rng.random() < 0.5}
        arcs |= {(i, i + 1) for i in range(n)}  # single characters keep it segmentable
        c = [1] + [0] * n
        for j in range(1, n + 1):
            c[j] = sum(c[i] for i in range(j) if (i, j) in arcs)
        total = Fraction(0)
        count = 0
        stack = [(n, Fraction(1))]
        while stack:  # every path, walked backwards with P(i | j) = c_i / c_j (Eq. 2)
            j, prob = stack.pop()
            if j == 0:
                ok = ok and prob == Fraction(1, c[n])
                total += prob
                count += 1
                continue
            for i in range(j):
                if (i, j) in arcs:
                    stack.append((i, prob * Fraction(c[i], c[j])))
        ok = ok and total == 1 and count == c[n]
        lattices += 1
    return [_row("backward walk with P = c_i/c_j gives every path 1/N_V (random lattices)",
                 "Eq. 2, 9-11", f"{lattices} lattices, all paths 1/c_n", "1/N_V(s)", ok)]


def check_eq46_enumeration() -> list[CheckResult]:
    ok = True
    for n in range(1, 13):
        probs = [markov_path_probability(t) for t in _compositions(n)]
        ok = (ok and sum(probs) == 1 and min(probs) == markov_epsilon_full(n)
              and sum(p * (1 / p) for p in probs) == markov_expected_inverse_probability(n)
              and 1 / (min(probs) * sum(p * (1 / p) for p in probs))
              == markov_rejection_expected_trials(n))
    return [_row("Markov walk on G_full: Σ P = 1, min P = ε, E[1/P] = #paths (exact, n<=12)",
                 "Eq. 1, 43-46", "all n <= 12 match", "ε = 1/n!, E[1/P] = 2^(n-1)", ok)]


# --------------------------------------------------------------------------- samplers
def check_markov_sampler(seed: int = 0) -> list[CheckResult]:
    rows = []
    min_p = 1.0
    stats = []
    for n in range(1, 8):
        size = 20_000
        lengths, offsets, trials = markov_rejection_samples(n, size, seed=seed + n)
        p_acc = float(1 / markov_rejection_expected_trials(n))
        if p_acc == 1.0:
            ok_det = bool((trials == 1).all())
            p = 1.0 if ok_det else 0.0
        else:
            _, p = _z_test(trials, 1 / p_acc, (1 - p_acc) / p_acc ** 2)
        min_p = min(min_p, p)
        stats.append(f"n={n}: {trials.mean():.2f}")
        if n == 7:
            keys = lock_keys(lengths, offsets, n)
            _, p_u, dof = _chisquare(np.bincount(keys, minlength=64), np.ones(64))
    rows.append(_p_row("Markov rejection sampler: mean trials = n!/2^(n-1), n<=7 (z-tests)",
                       "Eq. 47", min_p, "min over n; " + ", ".join(stats[-2:])))
    rows.append(_p_row("Markov rejection sampler output uniform over compositions, n=7",
                       "Eq. 1", p_u, f"χ², dof={dof}"))
    return rows


def check_bit_sampler(seed: int = 0) -> list[CheckResult]:
    n, cap, size = 16, 2, 20_000
    lengths, offsets, trials = bit_rejection_samples(n, cap, size, seed=seed)
    n_valid = bounded_composition_count(n, cap)
    expected = bit_rejection_expected_trials(n_valid, n)
    p_acc = float(1 / expected)
    _, p = _z_test(trials, float(expected), (1 - p_acc) / p_acc ** 2)
    ok_valid = bool(lengths.max() <= cap) and bool(
        (np.add.reduceat(lengths, offsets[:-1]) == n).all())
    return [_p_row("bit-mask rejection: mean trials = 2^(n-1)/N_V (n=16, tokens <= 2)",
                   "§3.2", p if ok_valid else 0.0,
                   f"mean {trials.mean():.2f} vs {float(expected):.2f}")]


def check_grampa_uniform(sample_lengths: Callable | None = None, *, n: int = 12,
                         size: int = 40_000, seed: int = 0) -> list[CheckResult]:
    """Statistical checks of GRaMPa (τ = 1, ℓ_min = 1, infinite vocabulary) against §3.1.

    Parameters
    ----------
    sample_lengths : callable, optional
        ``sample_lengths(word, size) -> (lengths, offsets)``. Default: the method of
        ``workbench.Grampa(Vocabulary.infinite(), tau=1.0, ell_min=1, direction="l2r",
        seed=seed)``; if ``workbench.Grampa`` does not exist the row is "skipped".
    n, size, seed : int
        Word length, number of samples, seed (sampler and thinning).

    Returns
    -------
    list of CheckResult
        Token-count law (χ²), token-length law Eq. 12 (χ² on size-biased single tokens,
        which are i.i.d. draws from P(ℓ|n)), E[R] (z-test, exact variance), uniformity over
        the ``2^(n-1)`` compositions (χ² over LOCK keys).

    Examples
    --------
    >>> def coins(word, size, rng=np.random.default_rng(1)):
    ...     cuts = rng.random((size, len(word) - 1)) < 0.5
    ...     out = [np.diff(np.flatnonzero(np.r_[True, c, True])) for c in cuts]
    ...     return np.concatenate(out), np.r_[0, np.cumsum([len(o) for o in out])]
    >>> sorted({r.status for r in check_grampa_uniform(coins, n=8, size=5000)})
    ['pass']
    """
    claim = f"GRaMPa (τ=1, infinite V) samples, n={n}"
    if sample_lengths is None:
        try:
            from workbench import Grampa, Vocabulary
        except ImportError:
            return [CheckResult(claim + ": laws of §3.1/A.3/A.4", "§3.1, Eq. 12, 36",
                                "workbench.Grampa not available", "—", "skipped")]
        sampler = Grampa(Vocabulary.infinite(), tau=1.0, ell_min=1, direction="l2r", seed=seed)
        sample_lengths = sampler.sample_lengths
    word = "".join(chr(ord("a") + i % 26) for i in range(n))
    lengths, offsets = sample_lengths(word, size)
    lengths = np.asarray(lengths, dtype=np.int64)
    offsets = np.asarray(offsets, dtype=np.int64)
    if offsets.shape != (size + 1,):
        raise ValueError(f"offsets has shape {offsets.shape}, expected ({size + 1},)")
    m = np.diff(offsets)
    rows = []
    # token count
    law = token_count_pmf(n)
    stat, p, dof = _chisquare(np.bincount(m, minlength=n + 1)[1:],
                              [float(law[j]) for j in range(1, n + 1)])
    rows.append(_p_row(claim + ": token count m ~ 1 + Binom(n-1, 1/2)", "§3.1", p,
                       f"χ²={stat:.1f}, dof={dof}"))
    # token length: keep sample k with prob m_k/n, then one uniform token of it
    rng = np.random.default_rng(seed + 12345)
    keep = np.flatnonzero(rng.random(size) < m / n)
    pick = offsets[keep] + np.floor(rng.random(keep.size) * m[keep]).astype(np.int64)
    pmf = token_length_pmf(n)
    stat, p, dof = _chisquare(np.bincount(lengths[pick], minlength=n + 1)[1:],
                              [float(pmf[x]) for x in range(1, n + 1)])
    rows.append(_p_row(claim + ": token length P(ℓ|n) = M(ℓ,n)/Σ M", "Eq. 12, 16", p,
                       f"χ²={stat:.1f}, dof={dof}, {keep.size} tokens"))
    # characters per token
    r = n / m
    mean = expected_chars_per_token(n)
    var = sum(Fraction(n, j) ** 2 * q for j, q in law.items()) - mean ** 2
    z, p = _z_test(r, float(mean), float(var))
    rows.append(_p_row(claim + ": mean of R = n/m is 2(1 - 2^-n)", "Eq. 36", p,
                       f"mean {r.mean():.4f} vs {float(mean):.4f}, z={z:.2f}"))
    # uniform over compositions
    keys = lock_keys(lengths, offsets, n)
    stat, p, dof = _chisquare(np.bincount(keys, minlength=1 << (n - 1)), np.ones(1 << (n - 1)))
    rows.append(_p_row(claim + ": uniform over the 2^(n-1) compositions", "Eq. 11", p,
                       f"χ²={stat:.0f}, dof={dof}"))
    return rows


# --------------------------------------------------------------------------- LOCK checks
def check_lock_exhaustive() -> list[CheckResult]:
    bad_bij, bad_order, bad_inv, total = [], [], [], 0
    for n in range(1, LOCK_EXHAUSTIVE_MAX_N + 1):
        comps = _compositions(n)
        total += len(comps)
        keys = _lock_keys_python(n)
        if sorted(keys) != list(range(1 << (n - 1))):
            bad_bij.append(n)
        key_of = dict(zip(comps, keys))
        ranked = sorted(comps, key=lambda t: (len(t), sorted(t), multiset_rank(t)))
        if [key_of[t] for t in ranked] != list(range(len(comps))):
            bad_order.append(n)
        if any(lock_unrank(k, n) != t for k, t in zip(keys, comps)):
            bad_inv.append(n)
    return [
        _row(f"LOCK bijective onto 0..2^(n-1)-1, n<={LOCK_EXHAUSTIVE_MAX_N}", "Eq. 62",
             f"{total:,} compositions; failures at n in {bad_bij}", "bijection", not bad_bij),
        _row(f"LOCK order = (m, sort(t) lex, g(t)), n<={LOCK_EXHAUSTIVE_MAX_N}", "C.2 rules 1-3",
             f"failures at n in {bad_order}", "keys ascend along the 3-tier sort", not bad_order),
        _row(f"lock_unrank inverts lock_key, n<={LOCK_EXHAUSTIVE_MAX_N}", "(not in paper)",
             f"failures at n in {bad_inv}", "identity", not bad_inv),
    ]


def check_lock_kernel(seed: int = 0) -> list[CheckResult]:
    rng = np.random.default_rng(seed)
    bad = []
    for n in range(1, LOCK_EXHAUSTIVE_MAX_N + 1):
        lengths, offsets = _enumerate_lengths(n)
        if tuple(lock_keys(lengths, offsets, n).tolist()) != _lock_keys_python(n):
            bad.append(n)
    for n in (20, 29, 40, 57, 58, 63, 64):
        cuts = rng.random((300, n - 1)) < rng.random((300, 1))
        comps = [tuple(np.diff(np.flatnonzero(np.r_[True, c, True])).tolist()) for c in cuts]
        comps += [(n,), (1,) * n, (1,) * (n - 2) + (2,), (n // 2, n - n // 2)]
        flat = np.array([x for t in comps for x in t], dtype=np.int64)
        offsets = np.concatenate([[0], np.cumsum([len(t) for t in comps])])
        if lock_keys(flat, offsets, n).tolist() != [lock_key(t) for t in comps]:
            bad.append(n)
    edge = (lock_key((1,) * 64) == 2 ** 63 - 1 and lock_key((64,)) == 0
            and lock_unrank(2 ** 63 - 1, 64) == (1,) * 64)
    return [_row("int64 kernel lock_keys = Python-int lock_key (all n<=14; random n<=64)",
                 "Eq. 62", f"failures at n in {bad}; key(1^64) = 2^63-1: {edge}",
                 "identical keys", not bad and edge)]


def check_lock_parts() -> list[CheckResult]:
    rows = []
    bad_f2 = []
    for n in range(1, 25):
        for k in range(1, n + 1):
            below = 0  # Σ MN(p) over the partitions enumerated so far (Algorithm 4's order)
            for part in partitions_k(n, k):
                for t in {part, part[::-1]}:
                    if lock_f2(t) != below or (n <= 12 and lock_f2_by_partitions(t) != below):
                        bad_f2.append(t)
                below += multiset_permutation_count(part)
            if below != comb(n - 1, k - 1):
                bad_f2.append((n, k))
    rows.append(_row("f2 by closed count = Σ MN(p) over lower partitions (Alg. 4), n<=24",
                     "Eq. 60, 58", f"{len(bad_f2)} mismatches", "equal", not bad_f2))
    bad_f1 = []
    worst = 0.0
    for n in range(1, 65):
        for m in range(1, n + 1):
            s = lock_f1(m, n)
            if s != lock_f1_hyp2f1(m, n) or s != sum(comb(n - 1, j - 1) for j in range(1, m)):
                bad_f1.append((m, n))
            worst = max(worst, abs(lock_f1_hyp2f1(m, n, backend="scipy") - s) / 2 ** (n - 1))
    rows.append(_row("f1: Σ C(n-1,m-1) = 2^(n-1) - C(n-1,|t|-1) 2F1(1,|t|-n;|t|;-1), n<=64",
                     "Eq. 59, 63", f"mpmath exact: {len(bad_f1)} mismatches; scipy max "
                     f"err/2^(n-1) = {worst:.1e}", "equal (scipy within 1e-13)",
                     not bad_f1 and worst < 1e-13))
    bad_alg4 = []
    for n in range(0, 31):
        for k in range(0, n + 1):
            it = list(partitions_k(n, k))
            # the literal Algorithm 4 also yields () for k = 0 < n; compare k >= 1 there
            if (k or not n) and it != list(partitions_k_recursive(n, k)):
                bad_alg4.append((n, k))
    for n in range(1, LOCK_EXHAUSTIVE_MAX_N + 1):
        classes: dict[int, set[tuple[int, ...]]] = {}
        for t in _compositions(n):
            classes.setdefault(len(t), set()).add(tuple(sorted(t)))
        for k in range(1, n + 1):
            if list(partitions_k(n, k)) != sorted(classes[k]):
                bad_alg4.append((n, k))
    p37 = partition_count(37)
    rows.append(_row("Algorithm 4 order: iterative = recursive (n<=30) = sorted brute force "
                     f"(n<={LOCK_EXHAUSTIVE_MAX_N}); "
                     "p(37)", "Alg. 4, fn. 17", f"{len(bad_alg4)} mismatches; p(37) = {p37:,}",
                     "lexicographic; p(37) = 21,637", not bad_alg4 and p37 == 21637))
    bad_g = []
    for size in range(1, 8):
        for multiset in itertools.combinations_with_replacement(range(1, 4), size):
            perms = sorted(set(itertools.permutations(multiset)))
            if ([multiset_rank(p) for p in perms] != list(range(len(perms)))
                    or len(perms) != multiset_permutation_count(multiset)):
                bad_g.append(multiset)
    rows.append(_row("g(t): rank among sorted distinct permutations; MN(t) of them", "Alg. 5, "
                     "Eq. 58", f"{len(bad_g)} mismatches", "0..MN(t)-1 in lex order", not bad_g))
    ok_bits = bit_key([1, 5]) == 16 and bit_key([2, 1, 1, 1, 1]) == 15
    for n in range(1, 13):
        comps = _compositions(n)
        keys = [bit_key(t) for t in comps]
        ok_bits = (ok_bits and keys == list(range(1 << (n - 1)))
                   and all(bit_unrank(k, n) == t for k, t in zip(keys, comps)))
    rows.append(_row("bit key: a/bcdef = 16, ab/c/d/e/f = 15; bijective, n<=12", "C.1",
                     f"{bit_key([1, 5])}, {bit_key([2, 1, 1, 1, 1])}", "16, 15", ok_bits))
    return rows


# --------------------------------------------------------------------------- driver
CHECKS: dict[str, tuple[str, Callable[..., list[CheckResult]]]] = {
    "Eq. 21": ("symbolic", check_eq21),
    "Eq. 22": ("symbolic", check_eq22),
    "Eq. 23": ("symbolic", check_eq23),
    "Eq. 16 sum": ("symbolic", check_total_tokens),
    "Eq. 34": ("symbolic", check_eq34),
    "Eq. 11": ("symbolic", check_eq11),
    "Eq. 27-28": ("symbolic", check_eq27_28),
    "Eq. 43-47": ("symbolic", check_eq43_47),
    "enumeration": ("numeric", check_enumeration),
    "Eq. 12/27": ("numeric", check_length_pmf),
    "Eq. 36": ("numeric", check_chars_per_token),
    "Eq. 11 lattices": ("numeric", check_eq11_lattices),
    "Eq. 46": ("numeric", check_eq46_enumeration),
    "Markov sampler": ("statistical", check_markov_sampler),
    "bit sampler": ("statistical", check_bit_sampler),
    "GRaMPa": ("statistical", check_grampa_uniform),
    "LOCK exhaustive": ("numeric", check_lock_exhaustive),
    "LOCK kernel": ("numeric", check_lock_kernel),
    "LOCK parts": ("numeric", check_lock_parts),
}
"""Every check: name → (kind, function returning rows)."""


def verify(only: str | None = None) -> list[CheckResult]:
    """Run every check (or those whose name or rows mention ``only``) and return the table.

    Parameters
    ----------
    only : str, optional
        Substring filter on the check names of :data:`CHECKS` (case-insensitive); rows of
        other checks are not computed.

    Returns
    -------
    list of CheckResult
        One row per claim; ``status`` is "pass", "fail" or "skipped".

    Examples
    --------
    >>> rows = verify(only="Eq. 22")
    >>> rows[0].status
    'pass'
    """
    rows: list[CheckResult] = []
    for name, (_, fn) in CHECKS.items():
        if only is not None and only.lower() not in name.lower():
            continue
        try:
            rows.extend(fn())
        except _Skip as exc:
            rows.append(CheckResult(name, name, str(exc), "—", "skipped"))
        except Exception as exc:  # noqa: BLE001 - a crashing check is a failing check
            rows.append(CheckResult(name, name, f"error: {type(exc).__name__}: {exc}",
                                    "no exception", "fail"))
    return rows


def all_passed(rows: Iterable[CheckResult]) -> bool:
    """True iff no row failed (skipped rows do not count as failures)."""
    return all(r.status != "fail" for r in rows)


def to_frame(rows: Iterable[CheckResult]):
    """The table as a ``pandas.DataFrame`` (columns claim, equation, computed, expected, status)."""
    import pandas as pd

    return pd.DataFrame([r.as_dict() for r in rows],
                        columns=["claim", "equation", "computed", "expected", "status"])


def format_table(rows: Iterable[CheckResult], width: int = 60) -> str:
    """Plain-text table, one line per row, long cells cut to ``width`` characters."""
    rows = list(rows)
    cols = ["status", "equation", "claim", "computed", "expected"]

    def cell(r: CheckResult, c: str) -> str:
        s = getattr(r, c)
        return s if len(s) <= width else s[: width - 1] + "…"

    widths = {c: max([len(c)] + [len(cell(r, c)) for r in rows]) for c in cols}
    lines = ["  ".join(c.ljust(widths[c]) for c in cols),
             "  ".join("-" * widths[c] for c in cols)]
    lines += ["  ".join(cell(r, c).ljust(widths[c]) for c in cols).rstrip() for r in rows]
    counts = Counter(r.status for r in rows)
    lines.append("")
    lines.append(", ".join(f"{counts.get(s, 0)} {s}" for s in STATUSES))
    return "\n".join(lines)


# Hook (one registry line per concept module; the lead rewires this into the new layout).
from .checks_renyi import CHECKS as _RENYI_CHECKS  # noqa: E402

CHECKS.update({name: (kind, fn) for name, kind, fn in _RENYI_CHECKS})
