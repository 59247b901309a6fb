"""workbench.theory.greedtok (Theorem 1's costs, GreedWMC's constants) against brute force
written here (no package code)."""

from __future__ import annotations

import math
from itertools import combinations

import pytest

from workbench.theory.greedtok import (
    beta_upper_bound,
    greedwmc_ratio,
    reduction_cost,
    reduction_threshold,
)


def _fewest_pieces(word: str, tokens: set[str]) -> int:
    """Shortest segmentation of ``word`` into tokens or single characters (brute force)."""
    n = len(word)
    best = {0: 0}
    for j in range(1, n + 1):
        best[j] = min(best[i] + 1 for i in range(j) if j - i == 1 or word[i:j] in tokens)
    return best[n]


@pytest.mark.parametrize("edges", [[], [(0, 1)], [(0, 1), (1, 2)], [(0, 1), (1, 2), (0, 2)],
                                   [(0, 1), (2, 3), (1, 3)]])
def test_reduction_cost_is_the_instance_cost(edges):
    letters = "abcd"
    words = [f"${letters[u]}${letters[v]}$" for u, v in edges]
    for size in range(5):
        for chosen in combinations(range(4), size):
            tokens = {f"${letters[v]}$" for v in chosen}
            assert reduction_cost(edges, set(chosen)) == sum(_fewest_pieces(w, tokens)
                                                             for w in words)
    assert reduction_threshold(len(edges)) == 3 * len(edges)


def test_greedwmc_constants():
    assert greedwmc_ratio() == pytest.approx(0.6321205588285577, rel=1e-15)
    assert beta_upper_bound() == pytest.approx(math.e / (math.e - 1), rel=1e-15)
    with pytest.raises(ValueError):
        reduction_threshold(-1)
