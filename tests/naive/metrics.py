"""Plain-Python references for ``workbench.metrics``: exact Fractions and 60-digit decimals.

Probabilities are exact ``Fraction``s; logarithms and powers are taken with :mod:`decimal` at
60 significant digits straight from the textbook formulas (no rearrangement), so they are
accurate even where the float formula cancels (α within 1e-30 of 1). Counts must be ints or
Fractions. Shares no code with the package.
"""

from __future__ import annotations

import decimal
from fractions import Fraction

_CTX = decimal.Context(prec=60)


def _dec(x) -> decimal.Decimal:
    x = Fraction(x)
    return _CTX.divide(decimal.Decimal(x.numerator), decimal.Decimal(x.denominator))


def probabilities(counts) -> list[Fraction]:
    """Exact probabilities of the positive counts, in input order."""
    values = list(counts.values()) if isinstance(counts, dict) else list(counts)
    values = [Fraction(v) for v in values if v > 0]
    total = sum(values)
    return [v / total for v in values]


def _ln(x) -> decimal.Decimal:
    return _CTX.ln(_dec(x)) if not isinstance(x, decimal.Decimal) else _CTX.ln(x)


def shannon_entropy(counts, base=2) -> float:
    h = decimal.Decimal(0)
    for p in probabilities(counts):
        h = _CTX.subtract(h, _CTX.multiply(_dec(p), _ln(p)))
    return float(_CTX.divide(h, _ln(base)))


def renyi_entropy(counts, alpha, base=2) -> float:
    """Eq. 2 term by term; α given as a float is taken exactly (``Fraction(alpha)``)."""
    ps = probabilities(counts)
    if alpha == 0:
        return float(_CTX.divide(_ln(len(ps)), _ln(base)))
    if alpha == float("inf"):
        return float(_CTX.divide(-_ln(max(ps)), _ln(base)))
    if alpha == 1:
        return shannon_entropy(counts, base)
    a = _dec(Fraction(alpha))
    total = decimal.Decimal(0)
    for p in ps:
        total = _CTX.add(total, _CTX.power(_dec(p), a))
    h = _CTX.divide(_CTX.ln(total), _CTX.subtract(decimal.Decimal(1), a))
    return float(_CTX.divide(h, _ln(base)))


def renyi_efficiency(counts, alpha, vocab_size=None) -> float:
    size = len(probabilities(counts)) if vocab_size is None else vocab_size
    return renyi_entropy(counts, alpha, base=2) / float(_CTX.divide(_ln(size), _ln(2)))


def percentile_frequency(counts, start=0.03, end=0.83) -> Fraction:
    """Exact mass of ranks ``int(start*V) <= r < int(end*V)`` in decreasing-count order."""
    ps = sorted(probabilities(counts), reverse=True)
    lo, hi = int(len(ps) * start), int(len(ps) * end)
    mass = Fraction(0)
    for r in range(lo, hi):
        mass += ps[r]
    return mass


def sequence_length(sequences) -> Fraction:
    n, total = 0, 0
    for seq in sequences:
        n += 1
        total += len(seq)
    return Fraction(total, n)


def power_sum(counts, alpha: int) -> Fraction:
    """Σ p^α exactly, for an integer ``alpha``."""
    return sum((p ** alpha for p in probabilities(counts)), Fraction(0))


def drop_raises_renyi(counts: dict, x, y, z, alpha: int) -> bool:
    """Does replacing every ``x`` by ``y z`` raise H_α (integer α > 1)? Exact, from the tables."""
    after = dict(counts)
    cx = after.pop(x)
    after[y] = after[y] + cx
    after[z] = after[z] + cx
    return power_sum(after, alpha) < power_sum(counts, alpha)  # H_α = log(Σp^α)/(1-α)
