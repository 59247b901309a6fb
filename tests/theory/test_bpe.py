"""workbench.theory.bpe (BatchBPE's counts) against brute force written here (no package code)."""

from __future__ import annotations

import pytest

from workbench.theory.bpe import merge_count, pairs_searched, run_pairs


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
