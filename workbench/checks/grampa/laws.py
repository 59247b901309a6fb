"""Checks of the uniform-sampling laws (GRaMPa §3.1, App. A.3–A.4): Eqs. 11–36.

Eqs. 11, 12, 16, 21–28, 34, 36, symbolically (sympy), by exhaustive enumeration and on random
lattices."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np

from ...theory.grampa.laws import (
    chao_strawderman,
    expected_chars_per_token,
    token_length_count,
    token_length_count_approx,
    token_length_limit_pmf,
    total_token_count,
    total_token_count_approx,
    uniform_token_count_pmf,
    uniform_token_length_pmf,
)
from ..registry import CheckResult, register, row
from ._enumerate import (
    ENUM_MAX_N,
    _enumerate_lengths,
    _sym,
    _sym_zero,
)


@register("Eq. 21", "symbolic")
def check_eq21() -> list[CheckResult]:
    sp, n, k, _, q = _sym()
    general = sp.summation(q ** k, (k, 1, n))
    general = general.args[-1][0] if isinstance(general, sp.Piecewise) else general
    half = sp.summation(sp.Rational(1, 2) ** k, (k, 1, n))
    ok = (_sym_zero(sp, general - q * (1 - q ** n) / (1 - q))
          and _sym_zero(sp, half - (1 - 2 ** -n)))
    return [row("geometric series Σ_{k=1}^n q^k (sympy, symbolic n, q)", "Eq. 21",
                 f"{sp.simplify(half)} at q=1/2", "q(1-q^n)/(1-q) = 1 - 2^-n", ok)]


@register("Eq. 22", "symbolic")
def check_eq22() -> list[CheckResult]:
    sp, n, k, _, q = _sym()
    general = sp.summation(k * q ** k, (k, 1, n))
    general = general.args[-1][0] if isinstance(general, sp.Piecewise) else general
    paper = q / (1 - q) * (1 - (n + 1) * q ** n) + (q / (1 - q)) ** 2 * (1 - q ** n)
    half = sp.summation(k * sp.Rational(1, 2) ** k, (k, 1, n))
    ok = _sym_zero(sp, general - paper) and _sym_zero(sp, half - (2 - (n + 2) * 2 ** -n))
    return [row("Σ_{k=1}^n k q^k (sympy, symbolic n, q)", "Eq. 22",
                 f"{sp.simplify(half)} at q=1/2", "2 - (n+2) 2^-n", ok)]


@register("Eq. 23", "symbolic")
def check_eq23() -> list[CheckResult]:
    sp, n, _, ell, _ = _sym()
    s = sp.summation((n + 3 - ell) * 2 ** (n - 2 - ell), (ell, 1, n))
    target = ((n + 1) - 2 ** -n) * 2 ** (n - 2)
    ok = _sym_zero(sp, s - target)
    numeric = all(total_token_count_approx(m) == sum(token_length_count_approx(x, m)
                                                     for x in range(1, m + 1))
                  for m in range(1, 40))
    return [row("Σ_ℓ (n+3-ℓ) 2^(n-2-ℓ) (sympy; and exact sums n<40)", "Eq. 23",
                 sp.simplify(s), "((n+1) - 2^-n) 2^(n-2)", ok and numeric)]


@register("Eq. 16 sum", "symbolic")
def check_total_tokens() -> list[CheckResult]:
    sp, n, _, ell, _ = _sym()
    # M(ℓ, n) = (n+3-ℓ) 2^(n-2-ℓ) for ℓ <= n-1 (no clipping there) and M(n, n) = 1
    s = sp.summation((n + 3 - ell) * 2 ** (n - 2 - ell), (ell, 1, n - 1)) + 1
    ok = _sym_zero(sp, s - (n + 1) * 2 ** (n - 2))
    numeric = all(sum(token_length_count(x, m) for x in range(1, m + 1)) == total_token_count(m)
                  == sum(j * comb(m - 1, j - 1) for j in range(1, m + 1))
                  for m in range(1, 200))
    return [row("Σ_ℓ M(ℓ,n) = total tokens over all segmentations (sympy; exact n<200)",
                 "Eq. 16, 12", sp.simplify(s), "(n+1) 2^(n-2) = Σ_m m C(n-1,m-1)",
                 ok and numeric)]


@register("Eq. 34", "symbolic")
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
    return [row("E[1/(1+X)], X~Binom(n,p) (sympy: ∫(1-p+pt)^n dt, sums n<=10; E[R])",
                 "Eq. 34-36", sp.simplify(integral), "(1-(1-p)^(n+1))/((n+1)p)", ok)]


@register("Eq. 11", "symbolic")
def check_eq11() -> list[CheckResult]:
    sp, _, k, ell, _ = _sym()
    c = sp.Function("c")  # c(k) = path count of the k-th visited node, c(0) = 1
    log_p = sp.summation(sp.log(c(k - 1)) - sp.log(c(k)), (k, 1, ell))
    ok = _sym_zero(sp, log_p - (sp.log(c(0)) - sp.log(c(ell))))
    for length in range(1, 13):
        cs = sp.symbols(f"c0:{length + 1}", positive=True)
        prod = sp.Mul(*[cs[i - 1] / cs[i] for i in range(1, length + 1)])
        ok = ok and sp.simplify(prod - cs[0] / cs[-1]) == 0
    return [row("GRaMPa path probability Π c_{i_{k-1}}/c_{i_k} telescopes (sympy)",
                 "Eq. 11", f"log P = {log_p}", "c_0/c_n = 1/N_V(s)", ok)]


@register("Eq. 27-28", "symbolic")
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
    return [row("Eq. 24 = 25, 26 = 27, and lim_{n→∞} P(ℓ|n) (sympy)", "Eq. 24-28",
                 lim, "2^-ℓ (geometric, p = 1/2)", ok)]


@register("enumeration", "numeric")
def check_enumeration() -> list[CheckResult]:
    bad_m, bad_count, total = [], [], 0
    for n in range(1, ENUM_MAX_N + 1):
        lengths, offsets = _enumerate_lengths(n)
        total += offsets.size - 1
        hist = np.bincount(lengths, minlength=n + 1)
        if [int(h) for h in hist[1:]] != [token_length_count(x, n) for x in range(1, n + 1)]:
            bad_m.append(n)
        m_hist = np.bincount(np.diff(offsets), minlength=n + 1)
        law = uniform_token_count_pmf(n)
        if any(Fraction(int(m_hist[m]), 1 << (n - 1)) != law[m] for m in range(1, n + 1)):
            bad_count.append(n)
    return [
        row(f"M(ℓ,n) = tokens of length ℓ over all segmentations, n<={ENUM_MAX_N}",
             "Eq. 16", f"{total:,} compositions; mismatches at n in {bad_m}",
             "exact equality for every ℓ, n", not bad_m),
        row(f"token count m ~ 1 + Binom(n-1, 1/2) by enumeration, n<={ENUM_MAX_N}",
             "§3.1", f"mismatches at n in {bad_count}", "exact equality", not bad_count),
    ]


@register("Eq. 12/27", "numeric")
def check_length_pmf() -> list[CheckResult]:
    ok_norm, worst, float_err = True, 0.0, 0.0
    ok_eq27 = True
    for n in range(1, 80):
        exact = uniform_token_length_pmf(n)
        approx = uniform_token_length_pmf(n, exact=False)
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
        row("P(ℓ|n) = M(ℓ,n)/Σ M sums to 1 (exact, n<80)", "Eq. 12", "Σ = 1", "1", ok_norm),
        row("Eq. 27 = Eq. 12 for ℓ<n; at ℓ=n short by δ = 1/((n+1)2^n) (n<80)", "Eq. 27",
             f"|Δ(ℓ=n)|/δ ≤ {worst:.6f}; float |Δ(ℓ<n)| ≤ {float_err:.1e}",
             "1 (exact as fractions); 0", ok_eq27 and abs(worst - 1) < 1e-9 and float_err < 1e-15),
    ]


@register("Eq. 36", "numeric")
def check_chars_per_token() -> list[CheckResult]:
    ok = True
    for n in range(1, 65):
        direct = sum(Fraction(n, m) * p for m, p in uniform_token_count_pmf(n).items())
        ok = ok and direct == expected_chars_per_token(n) == 2 * (1 - Fraction(1, 2 ** n))
    for p in (Fraction(1, 7), Fraction(1, 3), Fraction(1, 2), Fraction(3, 4), Fraction(1)):
        for n in range(0, 31):
            direct = sum(comb(n, x) * p ** x * (1 - p) ** (n - x) / (1 + x) for x in range(n + 1))
            ok = ok and chao_strawderman(n, p) == direct
    return [row("E[R] = Σ_m (n/m) P(m) and E[1/(1+X)] by direct sums (exact)", "Eq. 34, 36",
                 f"E[R](n=64) = 2(1 - 2^-64): {expected_chars_per_token(64) < 2}",
                 "exact equality, n<=64; p in {1/7,1/3,1/2,3/4,1}", ok)]


@register("Eq. 11 lattices", "numeric")
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
    return [row("backward walk with P = c_i/c_j gives every path 1/N_V (random lattices)",
                 "Eq. 2, 9-11", f"{lattices} lattices, all paths 1/c_n", "1/N_V(s)", ok)]
