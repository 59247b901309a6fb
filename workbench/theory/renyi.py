"""Theorems 4.1–4.3 and Example 2 of Cognetta et al. (2024) as functions.

*Two Counterexamples to Tokenization and the Noiseless Channel* (Cognetta, Zouhar, Moon,
Okazaki; LREC-COLING 2024, arXiv:2402.14614), §4:

* :func:`random_drop_counts` — the unigram counts after RANDOM-DROP decomposes one token
  ``x = (y, z)``: ``c'(y) = c(y) + c(x)``, ``c'(z) = c(z) + c(x)``, ``x`` removed, ``T' = T + c(x)``
  (§4.1; for ``y = z`` the pair gains ``2 c(x)``);
* :func:`random_drop_condition` — Theorem 4.1's condition (Eq. 15) under which that drop raises
  ``H_α`` for ``α > 1``. The paper calls it sufficient; every step of its proof (Eqs. 6–15) is an
  equivalence, so it is in fact *necessary and sufficient* for the count model above (our
  checks find no counterexample either way). For ``y = z`` the paper's formula does not apply;
  we use the same derivation's ``(c(x)+c(y))^α → (2c(x)+c(y))^α`` version;
* :func:`duplicate_counts` — DUPLICATION of one token into ``k`` equal copies (§4.2);
* :func:`duplication_shannon_gain` (Theorem 4.2: ``ΔH = p_x log k``) and
  :func:`duplication_renyi_gain` (Theorem 4.3's proof, Eqs. 20–31: ``ΔH_α =
  log1p(p_x^α (k^{1-α} - 1) / Σ p^α) / (1-α) > 0``);
* :func:`example2_table` — Example 2's table, with the convention that reproduces the printed
  numbers: entropies in **bits**, efficiency as ``H_bits / ln |V|`` with ``|V|`` the number of
  types (4, 5, 13). That mixes bases (a true efficiency ``H_bits / log2 |V|`` is the printed
  value ÷ log2 e ≈ 1.4427), which is why the printed "efficiencies" exceed 1.

This module does not tokenise (see :mod:`workbench.counterexamples`) and does not run the checks
(see :mod:`workbench.checks.renyi`).

Example
-------
>>> random_drop_condition({"x": 10, "y": 1, "z": 1, "w": 50}, "x", "y", "z", 3.0)
True
>>> round(duplication_shannon_gain(0.4, 2), 4)  # 0.4 bits
0.4
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping

import numpy as np

from .._core.errors import ArgumentTypeError, InvalidValueError
from .._core.validate import (
    PY_ENTRY_BYTES,
    check_int,
    check_mapping,
    check_probability,
    check_real,
    check_size,
)
from ..metrics import renyi_entropy, shannon_entropy

__all__ = [
    "EXAMPLE2_PRINTED",
    "duplicate_counts",
    "duplication_renyi_gain",
    "duplication_shannon_gain",
    "example2_table",
    "random_drop_condition",
    "random_drop_counts",
]

#: Example 2 as printed: k → (H, H_0.5, H_3, Eff, Eff_0.5, Eff_3); k = 1 is the original.
EXAMPLE2_PRINTED: dict[int, tuple[float, ...]] = {
    1: (1.85, 1.92, 1.66, 1.33, 1.38, 1.20),
    2: (2.25, 2.28, 2.13, 1.40, 1.42, 1.33),
    10: (3.18, 3.45, 2.39, 1.24, 1.35, 0.93),
}
EXAMPLE2_DISTRIBUTION = (0.4, 0.3, 0.2, 0.1)


def _xyz(counts: Mapping[Hashable, float], x: Hashable, y: Hashable, z: Hashable
         ) -> tuple[float, float, float]:
    if not isinstance(counts, Mapping):
        raise ArgumentTypeError("counts must be a mapping token -> count, not "
                                f"{type(counts).__name__}")
    for name, key in (("x", x), ("y", y), ("z", z)):
        if key not in counts:
            raise InvalidValueError(f"{name} = {key!r:.40} is not a token of counts")
    if x == y or x == z:
        raise InvalidValueError("the dropped token x must differ from its parts y and z")
    return tuple(check_real(counts[k], f"counts[{k!r:.40}]", minimum=0.0) for k in (x, y, z))


def random_drop_counts(counts: Mapping[Hashable, float], x: Hashable, y: Hashable,
                       z: Hashable) -> dict[Hashable, float]:
    """Counts after decomposing every occurrence of ``x`` into ``y z`` (``x`` removed).

    >>> random_drop_counts({"ab": 2, "a": 1, "b": 3}, "ab", "a", "b")
    {'a': 3, 'b': 5}
    >>> random_drop_counts({"aa": 2, "a": 1}, "aa", "a", "a")
    {'a': 5}
    """
    cx, _, _ = _xyz(counts, x, y, z)
    out = {k: v for k, v in counts.items() if k != x}
    out[y] = out[y] + counts[x]
    out[z] = out[z] + counts[x]
    return out


def random_drop_condition(counts: Mapping[Hashable, float], x: Hashable, y: Hashable,
                          z: Hashable, alpha: float) -> bool:
    """Theorem 4.1 (Eq. 15): does decomposing ``x = (y, z)`` raise the Rényi entropy ``H_α``?

    ``(1 + c(x)/T)^α > 1 + ((c(x)+c(y))^α + (c(x)+c(z))^α − c(x)^α − c(y)^α − c(z)^α) / Σ c^α``
    for ``y ≠ z``; for ``y = z``: ``(2c(x)+c(y))^α − c(x)^α − c(y)^α`` in the numerator.

    Parameters
    ----------
    counts : mapping token → count
        Unigram counts (``>= 0``) of the tokenised corpus before the drop; must contain
        ``x``, ``y`` and ``z``.
    x, y, z : hashable
        The dropped token and its two parts (its merge), ``x ∉ {y, z}``.
    alpha : float
        Rényi order, ``> 1`` and finite (the theorem's range).

    Returns
    -------
    bool
        True iff the condition holds (then ``H_α`` strictly rises).

    Examples
    --------
    >>> random_drop_condition({"x": 1, "y": 100, "z": 100}, "x", "y", "z", 2.0)
    False
    """
    a = check_real(alpha, "alpha", minimum=1.0, open_minimum=True)
    cx, cy, cz = _xyz(counts, x, y, z)
    c = np.array([check_real(v, "count", minimum=0.0) for v in counts.values()], dtype=float)
    scale = float(c.max())
    if scale == 0:
        raise InvalidValueError("counts are all zero")
    # both sides are homogeneous of degree 0 in the counts: scale to max 1 (no overflow)
    c, cx, cy, cz = c / scale, cx / scale, cy / scale, cz / scale
    total = float(c.sum())
    power_sum = float((c[c > 0] ** a).sum())
    if y == z:
        numer = (2 * cx + cy) ** a - cx ** a - cy ** a
    else:
        numer = (cx + cy) ** a + (cx + cz) ** a - cx ** a - cy ** a - cz ** a
    return bool((1 + cx / total) ** a > 1 + numer / power_sum)


def duplicate_counts(counts: Mapping[Hashable, float], x: Hashable, k: int
                     ) -> dict[Hashable, float]:
    """Counts after DUPLICATION splits ``x`` into ``k`` copies ``(x, 1) … (x, k)`` of equal count.

    >>> duplicate_counts({"a": 4, "b": 1}, "a", 2)
    {'b': 1, ('a', 1): 2.0, ('a', 2): 2.0}
    """
    counts = check_mapping(counts, "counts")
    k = check_int(k, "k", minimum=1)
    check_size(k, "k", item_bytes=2 * PY_ENTRY_BYTES, what="k copies of x in a dict")
    if x not in counts:
        raise InvalidValueError(f"x = {x!r:.40} is not a token of counts")
    # a count is a finite real >= 0 (NaN, inf, or an int past the floats has no share)
    share = check_real(counts[x], f"counts[{x!r:.40}]", minimum=0.0) / k
    out = {t: v for t, v in counts.items() if t != x}
    for i in range(1, k + 1):
        out[(x, i)] = share
    return out


def duplication_shannon_gain(p_x: float, k: int, base: float = 2) -> float:
    """Theorem 4.2 (Eq. 19): Shannon entropy rises by exactly ``p_x · log k``.

    >>> duplication_shannon_gain(0.5, 4)
    1.0
    """
    p = check_probability(p_x, "p_x")
    k = check_int(k, "k", minimum=1)
    b = check_real(base, "base", minimum=0.0, open_minimum=True)
    return p * math.log(k) / math.log(b)


def duplication_renyi_gain(counts: Mapping[Hashable, float], x: Hashable, k: int,
                           alpha: float, base: float = 2) -> float:
    """Theorem 4.3 (Eqs. 20–31): ``ΔH_α = log1p(p_x^α (k^{1-α} − 1) / Σ_w p_w^α) / (1 − α)``.

    Positive for every ``α > 0``, ``α ≠ 1``, ``k > 1``; ``α = 1`` gives
    :func:`duplication_shannon_gain`.

    >>> round(duplication_renyi_gain({"a": 4, "b": 4}, "a", 2, 2.0), 6)  # log2(1/2) -> log2(3/8)
    0.415037
    """
    counts = check_mapping(counts, "counts")
    a = check_real(alpha, "alpha", minimum=0.0, open_minimum=True)
    k = check_int(k, "k", minimum=1)
    if x not in counts:
        raise InvalidValueError(f"x = {x!r:.40} is not a token of counts")
    c = np.array([check_real(v, "count", minimum=0.0) for v in counts.values()], dtype=float)
    total = float(c.sum())
    if not total > 0:
        raise InvalidValueError("counts must have a positive total (every count is 0)")
    if not math.isfinite(total):
        raise InvalidValueError("counts must have a finite total")
    p_x = float(counts[x]) / total
    if a == 1.0:
        return duplication_shannon_gain(p_x, k, base)
    if p_x == 0.0:
        return 0.0  # x never occurs: its copies change nothing
    # every p^α scaled by the largest (in logs), so a large α underflows nothing to 0 / 0
    logs = {t: a * math.log(float(counts[t]) / total) for t in counts if counts[t] > 0}
    top = max(logs.values())
    rest = math.fsum(math.exp(v - top) for t, v in logs.items() if t != x)
    px_a = math.exp(logs[x] - top)
    old = rest + px_a
    ratio = px_a * math.expm1((1 - a) * math.log(k)) / old
    if ratio > -0.5:  # log1p keeps small changes exact
        log_change = math.log1p(ratio)
    else:  # Σp'^α much below Σp^α: take both logs (computing 1 + ratio would cancel)
        log_change = (math.log(rest + math.exp(logs[x] - top + (1 - a) * math.log(k)))
                      - math.log(old))
    return log_change / (1 - a) / math.log(base)


def example2_table(convention: str = "printed") -> dict[int, tuple[float, ...]]:
    """Example 2 recomputed: ``k → (H, H_0.5, H_3, Eff, Eff_0.5, Eff_3)`` for ``k = 1, 2, 10``.

    Parameters
    ----------
    convention : {"printed", "bits"}
        ``"printed"``: entropies in bits, efficiencies ``H_bits / ln |V|`` (reproduces the
        paper's numbers); ``"bits"``: efficiencies ``H_bits / log2 |V|`` (true efficiencies).

    Examples
    --------
    >>> [round(v, 2) for v in example2_table()[10]]
    [3.18, 3.45, 2.39, 1.24, 1.35, 0.93]
    """
    if convention not in ("printed", "bits"):
        raise InvalidValueError(f"convention must be 'printed' or 'bits', got {convention!r}")
    out = {}
    for k in (1, 2, 10):
        p = [EXAMPLE2_DISTRIBUTION[0] / k] * k + list(EXAMPLE2_DISTRIBUTION[1:])
        hs = (shannon_entropy(p), renyi_entropy(p, 0.5), renyi_entropy(p, 3.0))
        norm = math.log(len(p)) if convention == "printed" else math.log2(len(p))
        out[k] = hs + tuple(h / norm for h in hs)
    return out
