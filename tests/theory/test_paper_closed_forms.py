"""theory/greedtok.py and theory/bpe.py against brute force written here (no package code)."""

from __future__ import annotations

import math
from itertools import combinations

import pytest

from workbench.theory.bpe import merge_count, pairs_searched, run_pairs
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


def test_bpe_counts():
    assert merge_count(256) == 0 and merge_count(50_304) == 50_048  # §3.5's example
    assert merge_count(1000, 20) == 724 and merge_count(260, 10) == 0
    # line 6: min(remaining // cap, |vocab|, max_batch_size) or 1
    assert pairs_searched(50_048, 256) == 256
    assert pairs_searched(3, 400) == 1 and pairs_searched(1, 400) == 1
    assert pairs_searched(1000, 900, 2, 64) == 64 and pairs_searched(1000, 900, 2, 1) == 1
    assert pairs_searched(1000, 900, 4) == 250
    # §3.6: "aaaaa" counts as two occurrences of ("a", "a")
    assert run_pairs(5) == 2 and run_pairs(5, "overlapping") == 4 and run_pairs(1) == 0
    with pytest.raises(ValueError):
        run_pairs(3, "sometimes")
    with pytest.raises(TypeError):
        pairs_searched(2.0, 3)
