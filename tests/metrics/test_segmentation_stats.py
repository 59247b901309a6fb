"""Segmentation statistics: hand-computed examples, and GRaMPa's exact DP against enumeration."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench import Grampa, Vocabulary, enumerate_segmentations
from workbench.grampa.statistics import exact_statistics
from workbench.metrics.segmentation import (
    distribution_stats,
    segmentation_stats,
    table7,
    table8,
)

REL_TOL = 1e-9


def test_segmentation_stats_by_hand():
    assert segmentation_stats([4]) == {"m": 1, "ell": 4.0, "R": 4.0, "S": 0.0}
    assert segmentation_stats([1, 1, 1]) == {"m": 3, "ell": 1.0, "R": 1.0, "S": 1.0}
    assert math.isnan(segmentation_stats([1])["S"])
    t = table7([[4], [1, 1, 1], [2, 2]])
    assert t["m_mean"] == 2.0 and t["m_std"] == pytest.approx(math.sqrt(2 / 3))
    assert t["ell_mean"] == pytest.approx(11 / 6) and t["R_mean"] == pytest.approx(7 / 3)
    assert t["S_mean"] == pytest.approx((0 + 1 + 1 / 3) / 3)
    with pytest.raises(ValueError):
        table7([[0, 2]])


def test_distribution_stats_by_hand():
    samples = [(1, 1, 1)] * 2 + [(2, 1)] + [(1, 2)] + [(3,)] * 4
    s = distribution_stats(samples, 4, reference=(3,))
    h1 = -(0.25 * math.log2(0.25) * 2 + 0.125 * math.log2(0.125) * 2)
    assert s["H1_H0"] == pytest.approx(h1 / math.log2(4))
    assert s["H1pr_H0pr"] == pytest.approx(1.5 / math.log2(3))  # {2,1,1}/4 without (3,)
    assert (s["RR"], s["C"], s["U"], s["maxCU"]) == (0.5, 1.0, 0.5, 1.0)
    single = distribution_stats([(2,)] * 5, 1)
    assert math.isnan(single["H1_H0"]) and single["RR"] == 0.0
    t = table8([s, single])
    assert t["RR_mean"] == 0.25 and t["H1_H0_mean"] == pytest.approx(s["H1_H0"])


@st.composite
def cases(draw):
    word = draw(st.text("ab", min_size=1, max_size=9))
    subs = sorted({word[i:j] for i in range(len(word)) for j in range(i + 1, len(word) + 1)})
    keep = draw(st.lists(st.booleans(), min_size=len(subs), max_size=len(subs)))
    return word, sorted({s for s, k in zip(subs, keep) if k or len(s) == 1})


@settings(max_examples=60, deadline=None)
@given(cases(), st.sampled_from([1.0, 5.0, -10.0]), st.sampled_from([1, 2]),
       st.sampled_from(["l2r", "r2l"]))
def test_exact_statistics_match_enumeration(case, tau, ell_min, direction):
    word, vocab = case
    g = Grampa(Vocabulary(vocab), tau=tau, ell_min=ell_min, direction=direction)
    dist = g.distribution(word)
    ref = enumerate_segmentations(word, Vocabulary(vocab), ell_min, direction)[0]
    got = exact_statistics(g, word, reference=ref)
    entropy = -sum(p * math.log2(p) for p in dist.values() if p > 0)
    e_m = sum(p * len(s) for s, p in dist.items())
    assert got["entropy"] == pytest.approx(entropy, rel=REL_TOL, abs=1e-12)
    assert got["E_m"] == pytest.approx(e_m, rel=REL_TOL)
    assert got["P_reference"] == pytest.approx(dist[ref], rel=REL_TOL)
    if len(word) > 1:
        assert got["E_S"] == pytest.approx((e_m - 1) / (len(word) - 1), rel=REL_TOL)


def test_sampled_estimates_agree_with_exact():
    from workbench import datasets

    v = datasets.load_vocabulary("ulm-8k")
    g = Grampa(v, tau=5.0, seed=0)
    word = v.to_alphabet(" understanding")
    exact = exact_statistics(g, word)
    lengths, offsets = g.sample_lengths(word, 20_000)
    m = np.diff(offsets)
    assert abs(m.mean() - exact["E_m"]) < 4 * m.std() / math.sqrt(m.size)
