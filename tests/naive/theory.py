"""Plain-Python brute-force references for ``workbench.theory`` (loops, exact ints/Fractions).

Everything here enumerates: compositions from bit masks, tokens by walking each
composition, permutation ranks by listing the distinct permutations in order, partitions by
sorting compositions. No closed form from the paper is used, so these are independent of
the code under test. Exponential: keep ``n`` small (<= ~14).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache


def compositions(n: int) -> list[tuple[int, ...]]:
    """All compositions of ``n``, mask 0 … 2^(n-1)-1; bit ``n-1-p`` = boundary after char ``p``."""
    out = []
    for mask in range(2 ** (n - 1)):
        lengths, start = [], 0
        for p in range(1, n):
            if (mask >> (n - 1 - p)) & 1:
                lengths.append(p - start)
                start = p
        lengths.append(n - start)
        out.append(tuple(lengths))
    return out


def bit_key(t) -> int:
    n = sum(t)
    key, pos = 0, 0
    for length in t[:-1]:
        pos += length
        key += 2 ** (n - 1 - pos)
    return key


def token_length_counts(n: int) -> dict[int, int]:
    """``{ℓ: number of tokens of length ℓ over all segmentations}`` for ``ℓ = 1 … n``."""
    counts = dict.fromkeys(range(1, n + 1), 0)
    for t in compositions(n):
        for length in t:
            counts[length] += 1
    return counts


def token_count_counts(n: int) -> dict[int, int]:
    counts = dict.fromkeys(range(1, n + 1), 0)
    for t in compositions(n):
        counts[len(t)] += 1
    return counts


def token_count_pmf(n: int) -> dict[int, Fraction]:
    counts = token_count_counts(n)
    total = sum(counts.values())
    return {m: Fraction(c, total) for m, c in counts.items()}


def segmentality_pmf(n: int) -> dict[Fraction, Fraction]:
    out: dict[Fraction, Fraction] = {}
    comps = compositions(n)
    for t in comps:
        s = Fraction(len(t) - 1, n - 1)
        out[s] = out.get(s, Fraction(0)) + Fraction(1, len(comps))
    return dict(sorted(out.items()))


def token_length_pmf(n: int) -> dict[int, Fraction]:
    counts = token_length_counts(n)
    total = sum(counts.values())
    return {ell: Fraction(c, total) for ell, c in counts.items()}


def mean_chars_per_token(n: int) -> Fraction:
    comps = compositions(n)
    return sum((Fraction(n, len(t)) for t in comps), Fraction(0)) / len(comps)


def binomial_reciprocal_mean(n: int, p: Fraction) -> Fraction:
    """``E[1/(1+X)]``, ``X ~ Binom(n, p)``, by summing over the ``2^n`` outcome sequences."""
    total = Fraction(0)
    for outcome in range(2 ** n):
        x = bin(outcome).count("1")
        total += p ** x * (1 - p) ** (n - x) / (1 + x)
    return total


def bounded_count(n: int, cap: int) -> int:
    return sum(1 for t in compositions(n) if max(t) <= cap)


def markov_probability(t) -> Fraction:
    """Uniform out-arc walk on the full lattice: multiply 1/(out-degree) along the path."""
    n = sum(t)
    prob, node = Fraction(1), 0
    for length in t:
        out_degree = len(range(node + 1, n + 1))
        prob *= Fraction(1, out_degree)
        node += length
    return prob


def distinct_permutations(t) -> list[tuple[int, ...]]:
    """Distinct permutations of the multiset ``t`` in lexicographic order (no m! blow-up)."""
    counts = Counter(t)
    values = sorted(counts)
    out: list[tuple[int, ...]] = []

    def rec(prefix: list[int], left: int) -> None:
        if left == 0:
            out.append(tuple(prefix))
            return
        for v in values:
            if counts[v]:
                counts[v] -= 1
                prefix.append(v)
                rec(prefix, left - 1)
                prefix.pop()
                counts[v] += 1

    rec([], len(t))
    return out


def permutation_rank(t) -> int:
    return distinct_permutations(t).index(tuple(t))


def lock_order(n: int) -> list[tuple[int, ...]]:
    """All compositions of ``n`` sorted by (token count, sorted lengths, permutation rank)."""
    classes: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
    for t in compositions(n):
        classes.setdefault(tuple(sorted(t)), []).append(t)
    ordered = []
    for key in sorted(classes, key=lambda s: (len(s), s)):
        ordered.extend(distinct_permutations(key))
    return ordered


def partitions(n: int, k: int) -> list[tuple[int, ...]]:
    """Partitions of ``n`` into ``k`` parts, ascending, sorted (via sorting compositions)."""
    return sorted({tuple(sorted(t)) for t in compositions(n) if len(t) == k})


@cache
def partition_number(n: int, largest: int | None = None) -> int:
    """p(n) by the recursion over the largest part (parts <= ``largest``)."""
    if largest is None:
        largest = n
    if n == 0:
        return 1
    return sum(partition_number(n - part, part) for part in range(1, min(n, largest) + 1))


def fewer_parts(m: int, n: int) -> int:
    return sum(1 for t in compositions(n) if len(t) < m)
