"""workbench.experiments.renyi: the experiment functions behind notebook 10 (small slices of the
shipped text).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from workbench.counterexamples import DuplicationBPE, RandomDropBPE
from workbench.experiments import renyi as R
from workbench.metrics import renyi_efficiency, sequence_length, unigram_counts


def test_encoded_corpus_matches_line_encoding(renyi_small):
    lines, _, model, enc = renyi_small
    per_line = [model.encode(line) for line in lines]
    assert enc.unigram() == unigram_counts(per_line)
    row = R.metrics_row(enc.unigram(), enc.n_lines)
    assert math.isclose(row["seq"], sequence_length(per_line))
    rd = RandomDropBPE(model, enc.unigram(), 40, 10, seed=1)
    assert enc.unigram(rd.decompose_ids) == unigram_counts([rd.encode(x) for x in lines])


def test_duplication_unigram_law(renyi_small):
    *_, model, enc = renyi_small
    base = enc.unigram()
    d = DuplicationBPE(model, base, 5, 3, seed=0)
    counts = R.duplication_unigram(d, base, seed=0)
    assert sum(counts.values()) == sum(base.values())
    for t in d.duplicated:
        assert sum(counts.get(c, 0) for c in d.copies[t]) == base[t]
    assert counts == R.duplication_unigram(d, base, seed=0)


def test_live_table_and_counterexample_table(renyi_small):
    lines, _, model, enc = renyi_small
    t = R.compute_live_table(model, enc, 20, 4, 3.0)
    assert math.isclose(t.loc["baseline", "Eff_3"], renyi_efficiency(enc.unigram(), 3.0))
    assert t.loc["duplication", "SEQ"] == t.loc["baseline", "SEQ"]
    assert t.loc["duplication", "H_3"] > t.loc["baseline", "H_3"]
    assert np.isnan(R.compute_live_table(model, enc, 2, 5, 3.0).loc["random-drop", "H_3"])
    table = R.compute_counterexample_table(lines, [300], seeds=[0], progress=False)
    assert len(table) == 9 and set(table.tokenizer) == {"baseline", "random-drop", "duplication"}
    assert "| vocab_size |" in R._markdown(R.summarise(table))


def test_real_drops_and_grid(renyi_small):
    *_, model, enc = renyi_small
    df, stats = R.compute_real_drops(model, enc, 15, n_retokenised=3)
    assert stats["model_mismatches"] == 0 and stats["holds_without_rise"] == 0
    assert stats["holds_and_rises"] == stats["rises"]
    cx = np.geomspace(1, 500, 6)
    cond, delta = R.compute_condition_grid([100, 50, 20], cx, cx, 10.0, 2.5)
    assert cond.shape == (6, 6)
    decided = np.abs(delta) > 1e-12
    assert (cond[decided] == (delta[decided] > 0)).all()


@pytest.mark.parametrize("alpha", [1.05, 2.0, 3.0, 6.0])
@pytest.mark.parametrize("cz", [0.0, 1.0, 70.0, 5000.0])
def test_condition_grid_is_the_theorem_point_by_point(alpha, cz):
    """The array computation equals Eq. 15 and ΔH_α from the theory and metrics functions."""
    from workbench.metrics import renyi_entropy
    from workbench.theory.renyi import random_drop_condition, random_drop_counts

    background = [400, 300, 200, 150, 100, 80, 60, 40, 30, 20]
    cx, cy = np.geomspace(1, 3000, 7), np.r_[0.0, np.geomspace(1, 3000, 6)]
    cond, delta = R.compute_condition_grid(background, cx, cy, cz, alpha)
    for i, x in enumerate(cx):
        for j, y in enumerate(cy):
            counts = {("w", n): float(c) for n, c in enumerate(background)}
            counts.update(x=float(x), y=float(y), z=float(cz))
            want = renyi_entropy(random_drop_counts(counts, "x", "y", "z"), alpha) - \
                renyi_entropy(counts, alpha)
            assert math.isclose(delta[i, j], want, rel_tol=1e-9, abs_tol=1e-12)
            if abs(want) > 1e-9:
                assert cond[i, j] == random_drop_condition(counts, "x", "y", "z", alpha)


@pytest.mark.parametrize("args", [
    ([], [1.0], [1.0], 1.0, 2.0), ([1.0], [-1.0], [1.0], 1.0, 2.0),
    ([1.0], [1.0], [np.nan], 1.0, 2.0), ([1.0], [1.0], [1.0], -1.0, 2.0),
    ([1.0], [1.0], [1.0], 1.0, 1.0),
])
def test_condition_grid_refuses_bad_input(args):
    with pytest.raises(ValueError):
        R.compute_condition_grid(*args)
