"""Exact counts that replaced enumerations (issue 19: time without refusal inside the caps)."""

from __future__ import annotations

import pytest

from workbench import theory


def _partitions(n, k, low=1):
    """Plain recursive listing of the partitions of n into k parts >= low, ascending."""
    if k == 0:
        return [()] if n == 0 else []
    return [(v,) + rest for v in range(low, n // k + 1) for rest in _partitions(n - v, k - 1, v)]


@pytest.mark.parametrize("n", range(0, 26))
def test_partition_counts_match_a_listing(n):
    lists = {k: _partitions(n, k) for k in range(n + 1)}
    assert theory.partition_count(n) == sum(len(v) for v in lists.values())
    for k, parts in lists.items():
        assert theory.partition_count_k(n, k) == len(parts)
        if k:
            assert [theory.partitions_before(p) for p in parts] == list(range(len(parts)))
    assert theory.partition_count_k(n, n + 3) == 0


def test_partition_count_known_values():
    # OEIS A000041
    assert [theory.partition_count(n) for n in (0, 1, 10, 37, 100)] == [
        1, 1, 42, 21637, 190569292]
    assert theory.partition_count(128) == 4351078600


def _compositions(n, cap):
    c = [1] + [0] * n
    for j in range(1, n + 1):
        c[j] = sum(c[j - length] for length in range(1, min(cap, j) + 1))
    return c[n]


@pytest.mark.parametrize("n", [1, 2, 3, 7, 20, 41])
def test_bounded_composition_count_matches_the_double_sum(n):
    for cap in range(1, n + 3):
        assert theory.bounded_composition_count(n, cap) == _compositions(n, cap)
    assert theory.bounded_composition_count(n, n) == 2 ** (n - 1)


def test_lock_f2_by_partitions_still_agrees_with_lock_f2():
    for t in [(2, 3), (1, 1, 4, 2), (3, 3, 1, 5, 2), (1,) * 6 + (7,)]:
        assert theory.lock_f2_by_partitions(t) == theory.lock_f2(t)
