"""Notebook 06's live panel (workbench.figures.real_text): exact mixture statistics against
naive enumeration, the p = 0 and p = 1 ends, seeds, typos, errors."""

from __future__ import annotations

import math

import numpy as np
import pytest
from naive.grampa import enumerate_segmentations, segmentation_distribution

from workbench import datasets
from workbench.experiments import grampa_live as L
from workbench.figures import real_text as R
from workbench.figures.common import figure_data, readability_problems
from workbench.figures.real_text_plotly import plotly_live

ULM = datasets.load_vocabulary("ulm-8k")
SCORES = dict(zip(ULM.tokens, ULM.scores.tolist()))
VSET = set(ULM.tokens)


def _naive_group_law(pieces, tau, ell_min, p):
    """Law of one P1 pretoken: p * GRaMPa (pieces independent) + (1 - p) * ULM's Viterbi."""
    law = {(): 1.0}
    det: tuple = ()
    for q in pieces:
        g = segmentation_distribution(q, VSET, tau, ell_min, "l2r")
        law = {a + b: pa * pb for a, pa in law.items() for b, pb in g.items()}
        det += max(enumerate_segmentations(q, VSET), key=lambda s: sum(SCORES[t] for t in s))
    mixed = {s: p * pr for s, pr in law.items()}
    mixed[det] = mixed.get(det, 0.0) + 1 - p
    return mixed, det


@pytest.mark.parametrize("tau,ell_min,p", [(1.0, 1, 0.5), (5.0, 2, 0.3), (-10.0, 1, 1.0)])
def test_exact_columns_against_enumeration(tau, ell_min, p):
    r = L.compute_live("don't bear", tau=tau, ell_min=ell_min, p=p, vocabulary="ULM")
    laws = [_naive_group_law(("▁don", "'t"), tau, ell_min, p),
            _naive_group_law(("▁bear",), tau, ell_min, p)]
    h = [-sum(q * math.log2(q) for q in law.values() if q > 0) for law, _ in laws]
    e_m = [sum(len(s) * q for s, q in law.items()) for law, _ in laws]
    rr = [1 - law[det] for law, det in laws]
    assert r["words"] == 2
    assert r["exact"]["entropy_mean"] == pytest.approx(np.mean(h), abs=1e-9)
    assert r["exact"]["m_mean"] == pytest.approx(np.mean(e_m), abs=1e-9)
    assert r["exact"]["S_mean"] == pytest.approx(np.mean([(e_m[0] - 1) / 5, (e_m[1] - 1) / 4]))
    assert r["exact"]["RR_det"] == pytest.approx(np.mean(rr), abs=1e-9)


def test_ends_seeds_and_typos():
    text = L.text_slice(200)
    r0 = L.compute_live(text, p=0.0, vocabulary="BPE (bpe-8k)")
    assert r0["row"] == r0["deterministic"] and r0["exact"]["RR_det"] == 0
    assert r0["exact"]["m_mean"] == pytest.approx(r0["row"]["m_mean"])
    a = L.compute_live(text, tau=5.0, p=0.7, seed=3)
    b = L.compute_live(text, tau=5.0, p=0.7, seed=3)
    c = L.compute_live(text, tau=5.0, p=0.7, seed=4)
    assert a["row"] == b["row"] and np.array_equal(a["m"], b["m"]) and a["row"] != c["row"]
    assert a["exact"] == c["exact"]  # exact values do not depend on the seed
    typo = L.compute_live(text, p=0.0, typos=True)
    assert typo["deterministic"]["m_mean"] > L.compute_live(text, p=0.0)["deterministic"]["m_mean"]
    fig = R.plot_live(a)
    assert len(fig.axes) == 2


def test_live_result_is_cached_and_read_only():
    """A seen setting is served from the cache; its arrays cannot be changed, and changing
    the returned dicts does not change what the next call returns."""
    text = L.text_slice(100)
    a = L.compute_live(text, tau=5.0, p=0.7, seed=3)
    b = L.compute_live(text, tau=5.0, p=0.7, seed=3)
    assert a["m"] is b["m"] and not a["m"].flags.writeable
    with pytest.raises(ValueError):
        a["ell"][0] = 0
    a["exact"]["m_mean"] = -1.0
    again = L.compute_live(text, tau=5.0, p=0.7, seed=3)
    assert again["exact"]["m_mean"] == b["exact"]["m_mean"] > 0


def test_plotly_live_draws_the_result():
    """The panel's plotly twin: unit-bin counts of m and ℓ (sample, deterministic) that add up
    to the words and tokens, the exact E[m] line, and nothing unreadable."""
    r = L.compute_live(L.text_slice(200), tau=5.0, ell_min=2, p=0.5, typos=True, seed=1)
    data = figure_data(plotly_live(r))
    assert data["m-exact"].tolist() == [r["exact"]["m_mean"]]
    assert data["m-deterministic"].sum() == data["m-sampled"].sum() == r["words"]
    assert data["ell-sampled"].sum() == len(r["ell"])
    assert data["ell-deterministic"].sum() == len(r["ell_det"])
    assert data["m-sampled"][1:-1].tolist() == np.bincount(r["m"])[1:].tolist() + [0] * (
        len(data["m-sampled"]) - 2 - int(r["m"].max()))
    assert readability_problems(plotly_live(r)) == []


@pytest.mark.parametrize("kwargs,error", [
    ({"p": 1.5}, ValueError), ({"tau": 0.0}, ValueError), ({"ell_min": 0}, ValueError),
    ({"vocabulary": "gpt2"}, ValueError), ({"typos": "yes"}, TypeError),
    ({"seed": -1}, ValueError),
])
def test_bad_arguments(kwargs, error):
    with pytest.raises(error):
        L.compute_live("a b", **kwargs)
    with pytest.raises(TypeError):
        L.compute_live(["a b"])


def test_tau_slider_is_notebook_02s() -> None:
    """Issue 21: notebook 06's τ slider has notebook 02's values, in −1/τ order, labelled."""
    from workbench.experiments.grampa_skew import TAU_SLIDER_GRID
    from workbench.figures.common import tau_label

    values = [v for _, v in R.TAU_OPTIONS]
    assert sorted(values) == sorted(TAU_SLIDER_GRID)
    x = [0.0 - 1.0 / v for v in values]
    assert x == sorted(x) and values.index(1.0) < values.index(math.inf) < values.index(-1.0)
    assert [label for label, _ in R.TAU_OPTIONS] == [tau_label(v) for v in values]


def test_live_side_table_shows_no_nan():
    """06's live panel: the entropy has no sampled value (one sample does not estimate it),
    shown as "–", not as NaN; the other rows are the two numbers, rounded."""
    r = L.compute_live("don't bear", tau=5.0, p=0.5, vocabulary="ULM")
    assert "entropy_mean" in r["exact"] and "entropy_mean" not in r["sampled"]
    _, side = R.live_tables(r)
    assert side.loc["entropy_mean", "sampled"] == "–"
    assert side.loc["entropy_mean", "exact"] == round(r["exact"]["entropy_mean"], 4)
    assert side.loc["m_mean", "sampled"] == round(r["sampled"]["m_mean"], 4)
    assert "nan" not in side.to_string().lower()
