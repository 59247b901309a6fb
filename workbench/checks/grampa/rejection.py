"""Checks of the rejection samplers and their costs (GRaMPa §3.2, App. A.5): Eqs. 43–47.

Eqs. 43–47 symbolically and by enumeration; the Markov and bit samplers of
:mod:`workbench.samplers.rejection` statistically."""

from __future__ import annotations

from fractions import Fraction
from math import factorial

import numpy as np

from ...samplers.rejection import bit_rejection_samples, markov_rejection_samples
from ...stats import chisquare_test, z_test
from ...theory.grampa.lock import (
    lock_keys,
)
from ...theory.grampa.rejection import (
    bit_rejection_expected_trials,
    bounded_composition_count,
    markov_epsilon_full,
    markov_expected_inverse_probability,
    markov_path_probability,
    markov_rejection_expected_trials,
)
from ..registry import CheckResult, p_row, register, row
from ._enumerate import (
    _compositions,
    _sym,
)


@register("Eq. 43-47", "symbolic")
def check_eq43_47() -> list[CheckResult]:
    sp, n, _, _, _ = _sym()
    j = sp.Symbol("j", integer=True, nonnegative=True)
    eps = sp.product(1 / (n - j), (j, 0, n - 1))
    ok = sp.simplify(eps * sp.factorial(n)) == 1
    ok = ok and all(markov_epsilon_full(m) == Fraction(1, factorial(m))
                    and markov_rejection_expected_trials(m) == Fraction(factorial(m), 2 ** (m - 1))
                    and markov_expected_inverse_probability(m) == 2 ** (m - 1)
                    for m in range(1, 60))
    return [row("ε(G_full) = Π 1/(n-j) (sympy); E[T] = 1/(ε 2^(n-1))", "Eq. 43, 47",
                 f"ε = {sp.simplify(eps)}", "1/n!, E[T] = n!/2^(n-1)", ok)]


@register("Eq. 46", "numeric")
def check_eq46_enumeration() -> list[CheckResult]:
    ok = True
    for n in range(1, 13):
        probs = [markov_path_probability(t) for t in _compositions(n)]
        ok = (ok and sum(probs) == 1 and min(probs) == markov_epsilon_full(n)
              and sum(p * (1 / p) for p in probs) == markov_expected_inverse_probability(n)
              and 1 / (min(probs) * sum(p * (1 / p) for p in probs))
              == markov_rejection_expected_trials(n))
    return [row("Markov walk on G_full: Σ P = 1, min P = ε, E[1/P] = #paths (exact, n<=12)",
                 "Eq. 1, 43-46", "all n <= 12 match", "ε = 1/n!, E[1/P] = 2^(n-1)", ok)]


@register("Markov sampler", "statistical")
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
            _, p = z_test(trials, 1 / p_acc, (1 - p_acc) / p_acc ** 2)
        min_p = min(min_p, p)
        stats.append(f"n={n}: {trials.mean():.2f}")
        if n == 7:
            keys = lock_keys(lengths, offsets, n)
            _, p_u, dof = chisquare_test(np.bincount(keys, minlength=64), np.ones(64))
    rows.append(p_row("Markov rejection sampler: mean trials = n!/2^(n-1), n<=7 (z-tests)",
                       "Eq. 47", min_p, "min over n; " + ", ".join(stats[-2:])))
    rows.append(p_row("Markov rejection sampler output uniform over compositions, n=7",
                       "Eq. 1", p_u, f"χ², dof={dof}"))
    return rows


@register("bit sampler", "statistical")
def check_bit_sampler(seed: int = 0) -> list[CheckResult]:
    n, cap, size = 16, 2, 20_000
    lengths, offsets, trials = bit_rejection_samples(n, cap, size, seed=seed)
    n_valid = bounded_composition_count(n, cap)
    expected = bit_rejection_expected_trials(n_valid, n)
    p_acc = float(1 / expected)
    _, p = z_test(trials, float(expected), (1 - p_acc) / p_acc ** 2)
    ok_valid = bool(lengths.max() <= cap) and bool(
        (np.add.reduceat(lengths, offsets[:-1]) == n).all())
    return [p_row("bit-mask rejection: mean trials = 2^(n-1)/N_V (n=16, tokens <= 2)",
                   "§3.2", p if ok_valid else 0.0,
                   f"mean {trials.mean():.2f} vs {float(expected):.2f}")]
