"""Checks of Theorems 4.1–4.3 and Example 2 of Cognetta et al. (2024) for ``verify``.

Each ``check_*`` function returns a list of :class:`.registry.CheckResult` rows and is
registered for ``python -m workbench verify``:

* Theorem 4.1 on random count tables (fixed seed): how often :func:`random_drop_condition`
  holds when ``H_α`` rises, and that it never holds when ``H_α`` does not (sufficiency), for
  ``α = 2, 3`` exactly (integer arithmetic) and ``α = 2.5`` in floats;
* Theorem 4.2: ``ΔH = p_x log k`` on random distributions, and symbolically (sympy);
* Theorem 4.3: ``ΔH_α > 0`` on random distributions for ``α ∈ (0, 10]``, and symbolically for
  the ``α > 1`` and ``α < 1`` branches (sympy signs under positivity assumptions);
* Example 2's table to the printed two decimals, with the stated convention.

This module does not define the theorems (see :mod:`workbench.theory.renyi`).

Example
-------
>>> [r.status for r in check_example2()]
['pass', 'pass']
"""

from __future__ import annotations

import math

import numpy as np

from ..metrics import renyi_entropy, shannon_entropy
from ..theory.renyi import (
    EXAMPLE2_PRINTED,
    duplicate_counts,
    duplication_renyi_gain,
    duplication_shannon_gain,
    example2_table,
    random_drop_condition,
    random_drop_counts,
)
from .registry import CheckResult, register, row

SEED = 20240214
N_TABLES = 1500
REL_TOL = 1e-10  # float agreement of entropy changes with their closed forms
ABS_TOL = 1e-12  # |difference of two entropies − closed form| / max(H, 1)


def _random_table(rng: np.random.Generator) -> dict[int, int]:
    size = int(rng.integers(3, 25))
    skew = float(rng.uniform(0.0, 2.0))  # Zipf-like exponent: 0 = near uniform
    base = 1 + rng.integers(0, 1000, size) / (1 + np.arange(size)) ** skew
    return {i: int(max(1, v)) for i, v in enumerate(base * rng.uniform(1, 50))}


def _rises_exactly(counts: dict[int, int], after: dict[int, int], alpha: int) -> int:
    """Sign of ``H_α(after) − H_α(counts)`` for integer ``α > 1``, in exact integers."""
    t, t2 = sum(counts.values()), sum(after.values())
    s = sum(c ** alpha for c in counts.values())
    s2 = sum(c ** alpha for c in after.values())
    # H rises iff Σp'^α < Σp^α iff s2 · t^α < s · t2^α
    lhs, rhs = s2 * t ** alpha, s * t2 ** alpha
    return (lhs < rhs) - (lhs > rhs)


@register("Thm 4.1 random drops", "numeric")
def check_thm41_random() -> list[CheckResult]:
    rng = np.random.default_rng(SEED)
    rows = []
    for alpha in (2, 3, 2.5):
        rises = holds = both = ties = 0
        for _ in range(N_TABLES):
            counts = _random_table(rng)
            x, y, z = (int(v) for v in rng.choice(len(counts), 3, replace=False))
            if rng.random() < 0.1:
                z = y  # x = (y, y), e.g. "aa"
            after = random_drop_counts(counts, x, y, z)
            if isinstance(alpha, int):
                sign = _rises_exactly(counts, after, alpha)
            else:
                d = renyi_entropy(after, alpha) - renyi_entropy(counts, alpha)
                sign = 0 if abs(d) < 1e-12 else (1 if d > 0 else -1)
            ties += sign == 0
            cond = random_drop_condition(counts, x, y, z, alpha)
            rises += sign > 0
            holds += cond
            both += cond and sign > 0
        exact = "exact" if isinstance(alpha, int) else "float, |ΔH| < 1e-12 as tie"
        rows.append(row(
            f"Thm 4.1 condition ⇒ H_α rises, α = {alpha} ({N_TABLES} random tables, {exact})",
            "Thm 4.1, Eq. 15",
            f"H_α rose in {rises}; condition held in {holds}, in {both}/{rises} of the rises "
            f"({ties} ties)",
            "condition ⇒ rise (never holds without a rise)", holds == both))
    return rows


@register("Thm 4.2 duplication Shannon", "symbolic")
def check_thm42() -> list[CheckResult]:
    import sympy as sp

    rng = np.random.default_rng(SEED + 1)
    worst = 0.0
    for _ in range(500):
        size = int(rng.integers(2, 30))
        counts = dict(enumerate(rng.integers(1, 10**6, size).tolist()))
        x, k = int(rng.integers(size)), int(rng.integers(2, 20))
        p_x = counts[x] / sum(counts.values())
        gain = shannon_entropy(duplicate_counts(counts, x, k)) - shannon_entropy(counts)
        worst = max(worst, abs(gain - duplication_shannon_gain(p_x, k)) / (p_x * math.log2(k)))
    p, k, rest = sp.symbols("p k R", positive=True)  # R: the other terms' -Σ p log p
    h = rest - p * sp.log(p)
    h_dup = rest - k * (p / k) * sp.log(p / k)
    diff = sp.simplify(sp.expand_log(h_dup - h, force=True))
    sym_ok = sp.simplify(diff - p * sp.log(k)) == 0
    return [
        row("Thm 4.2: Shannon rises by exactly p_x log k (500 random tables, k ≤ 19)",
             "Thm 4.2, Eq. 19", f"max relative error {worst:.1e}", f"< {REL_TOL:g}",
             worst < REL_TOL),
        row("Thm 4.2 symbolically: H' − H for symbolic p_x, k (sympy)", "Eq. 18–19",
             str(diff), "p·log(k)", sym_ok),
    ]


@register("Thm 4.3 duplication Rényi", "symbolic")
def check_thm43() -> list[CheckResult]:
    import sympy as sp

    rng = np.random.default_rng(SEED + 2)
    worst, nonpositive = 0.0, 0
    alphas = [0.05, 0.5, 0.9, 0.999, 1.0, 1.001, 1.5, 2.5, 3.0, 10.0]
    n = 0
    for _ in range(200):
        size = int(rng.integers(2, 30))
        counts = dict(enumerate(rng.integers(1, 10**4, size).tolist()))
        x, k = int(rng.integers(size)), int(rng.integers(2, 12))
        dup = duplicate_counts(counts, x, k)
        for a in alphas:
            n += 1
            closed = duplication_renyi_gain(counts, x, k, a)
            nonpositive += closed <= 0
            h = renyi_entropy(counts, a)
            direct = renyi_entropy(dup, a) - h  # a difference: absolute error ~ eps · H
            worst = max(worst, abs(direct - closed) / max(h, 1.0))
    # symbolic: ΔΣp^α = p^α (k^(1-α) − 1) and its sign on each branch
    p, k_, s = sp.symbols("p k S", positive=True)
    u, v = sp.symbols("u v", positive=True)
    a = sp.Symbol("alpha", positive=True)
    delta_sum = k_ * (p / k_) ** a - p ** a
    identity = sp.simplify(sp.powsimp(delta_sum - p ** a * (k_ ** (1 - a) - 1), force=True)) == 0
    results = {}
    for branch, alpha in (("α > 1", 1 + u), ("α < 1", 1 / (1 + u))):  # u > 0 covers each
        k = 1 + v  # k > 1
        log_ratio = (1 - alpha) * sp.log(k)  # log k^(1-α)
        sign_sum = sp.sign(sp.simplify(log_ratio))  # sign of ΔΣp^α (p^α > 0)
        sign_scale = sp.sign(sp.simplify(1 / (1 - alpha)))
        # ΔH_α = log((S + ΔΣ)/S)/(1 − α): log's sign = sign of ΔΣ
        results[branch] = sp.simplify(sign_sum * sign_scale)
    sym_ok = identity and all(r == 1 for r in results.values())
    return [
        row(f"Thm 4.3: H_α rises for α ∈ (0, 10], k > 1 ({n} cases); Eqs. 20–31 closed form",
             "Thm 4.3", f"{nonpositive} non-positive gains; max |direct − closed| / max(H_α, 1) "
                        f"{worst:.1e}", f"0; < {ABS_TOL:g}", nonpositive == 0 and worst < ABS_TOL),
        row("Thm 4.3 symbolically: ΔΣp^α = p^α(k^(1−α)−1); sign(ΔH_α) on each branch (sympy)",
             "Eqs. 24, 30", f"identity {identity}; signs {results}", "True; +1 on both",
             sym_ok),
    ]


@register("Example 2 Rényi", "numeric")
def check_example2() -> list[CheckResult]:
    table = example2_table("printed")
    bad = [(k, i, round(table[k][i], 4), v) for k, row in EXAMPLE2_PRINTED.items()
           for i, v in enumerate(row) if abs(table[k][i] - v) > 0.005 + 1e-9]
    bits = example2_table("bits")
    falls = all(table[10][i] > table[1][i] and table[10][i + 3] < table[1][i + 3]
                and bits[10][i + 3] < bits[1][i + 3] for i in range(3))
    return [
        row("Example 2 table: H, H_0.5, H_3 in bits; Eff = H_bits / ln|V|, |V| = 4, 5, 13",
             "Ex. 2", f"{len(bad)} of 18 cells off by > 0.005 {bad}",
             "all 18 printed values to 2 decimals", not bad),
        row("Example 2: at k = 10 every H rises but every Eff falls (also with log2|V|)",
             "Ex. 2", f"Eff_3: {table[1][5]:.3f} → {table[10][5]:.3f} (printed convention), "
                      f"{bits[1][5]:.3f} → {bits[10][5]:.3f} (bits)",
             "H up, Eff down", falls),
    ]
