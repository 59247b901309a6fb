"""The experiment functions behind notebook 10 (small slices of the shipped text)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from workbench.counterexamples import DuplicationBPE, RandomDropBPE
from workbench.figures import renyi as R
from workbench.metrics import renyi_efficiency, sequence_length, unigram_counts


@pytest.fixture(scope="module")
def small():
    lines = R.corpus_lines(max_lines=400)
    chunks = R.chunk_counts(lines)
    model = R.train_baseline(chunks, 300)
    return lines, chunks, model, R.encode_corpus(model, chunks, len(lines))


def test_encoded_corpus_matches_line_encoding(small):
    lines, _, model, enc = small
    per_line = [model.encode(line) for line in lines]
    assert enc.unigram() == unigram_counts(per_line)
    row = R.metrics_row(enc.unigram(), enc.n_lines)
    assert math.isclose(row["seq"], sequence_length(per_line))
    rd = RandomDropBPE(model, enc.unigram(), 40, 10, seed=1)
    assert enc.unigram(rd.decompose_ids) == unigram_counts([rd.encode(x) for x in lines])


def test_duplication_unigram_law(small):
    *_, model, enc = small
    base = enc.unigram()
    d = DuplicationBPE(model, base, 5, 3, seed=0)
    counts = R.duplication_unigram(d, base, seed=0)
    assert sum(counts.values()) == sum(base.values())
    for t in d.duplicated:
        assert sum(counts.get(c, 0) for c in d.copies[t]) == base[t]
    assert counts == R.duplication_unigram(d, base, seed=0)


def test_live_table_and_counterexample_table(small):
    lines, _, model, enc = small
    t = R.compute_live_table(model, enc, 20, 4, 3.0)
    assert math.isclose(t.loc["baseline", "Eff_3"], renyi_efficiency(enc.unigram(), 3.0))
    assert t.loc["duplication", "SEQ"] == t.loc["baseline", "SEQ"]
    assert t.loc["duplication", "H_3"] > t.loc["baseline", "H_3"]
    assert np.isnan(R.compute_live_table(model, enc, 2, 5, 3.0).loc["random-drop", "H_3"])
    table = R.compute_counterexample_table(lines, [300], seeds=[0], progress=False)
    assert len(table) == 9 and set(table.tokenizer) == {"baseline", "random-drop", "duplication"}
    assert "| vocab_size |" in R._markdown(R.summarise(table))


def test_real_drops_and_grid(small):
    *_, model, enc = small
    df, stats = R.compute_real_drops(model, enc, 15, n_retokenised=3)
    assert stats["model_mismatches"] == 0 and stats["holds_without_rise"] == 0
    assert stats["holds_and_rises"] == stats["rises"]
    cx = np.geomspace(1, 500, 6)
    cond, delta = R.compute_condition_grid([100, 50, 20], cx, cx, 10.0, 2.5)
    assert cond.shape == (6, 6)
    decided = np.abs(delta) > 1e-12
    assert (cond[decided] == (delta[decided] > 0)).all()
