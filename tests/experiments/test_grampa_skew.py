"""workbench.experiments.grampa_skew (notebook 02): exact laws against naive references and
the GRaMPa statistics, the summary equal to the direct calls, the caches keyed by what each
part depends on."""

from __future__ import annotations

import math

import numpy as np
import pytest
from naive import grampa as naive

from workbench import Grampa, Vocabulary
from workbench.experiments import grampa_skew as skew
from workbench.experiments.grampa_lattice import lattice_view
from workbench.grampa import arc_probabilities
from workbench.grampa.statistics import exact_statistics
from workbench.segmenters import unigram_viterbi

SMALL = Vocabulary(["a", "b", "c", "ab", "bc", "abc", "ca"], name="small")
PROB_RTOL = 1e-9
TV_MAX = 0.02  # at 20,000 samples


def test_segmentality_moments_match_naive_distribution():
    for word, vocab in naive.small_cases(2):
        for tau in (1.0, -10.0):
            dist = naive.segmentation_distribution(word, set(vocab), tau, 1, "l2r")
            n = len(word)
            mean = sum(p * (len(s) - 1) / (n - 1) for s, p in dist.items())
            var = sum(p * ((len(s) - 1) / (n - 1) - mean) ** 2 for s, p in dist.items())
            comp = skew.segmentality_moments(word, Vocabulary(vocab), tau)
            assert comp[0] == pytest.approx(mean, rel=PROB_RTOL)
            assert comp[1] == pytest.approx(math.sqrt(var), rel=1e-6, abs=1e-12)


def test_skew_order_follows_footnote_10():
    """Mean segmentality falls (longer tokens) along 0+ ... +inf = -inf ... 0-."""
    curve = skew.segmentality_curve("x" * 12, Vocabulary.infinite())
    assert np.all(np.diff(curve.coordinate) > 0)
    assert np.all(np.diff(curve.mean) < 0)
    assert skew.skew_coordinate(math.inf) == skew.skew_coordinate(-math.inf) == 0.0
    assert list(curve.tau) == sorted(skew.TAU_GRID, key=skew.skew_coordinate)


@pytest.mark.parametrize("p", [1.0, 0.4, 0.0])
def test_skew_panel_samples_match_exact_laws(p):
    vocab = Vocabulary(["a", "b", "ab", "ba", "aba", "bab"], scores=[-2, -2, -1, -1, -1.5, -3])
    out = skew.skew_panel("abababab", vocab, tau=5.0, ell_min=1, p=p, n_samples=20_000, seed=3)
    assert out.m_counts.sum() == 20_000
    assert out.m_pmf.sum() == pytest.approx(1.0)
    assert 0.5 * np.abs(out.m_counts / 20_000 - out.m_pmf).sum() < TV_MAX
    share = out.length_counts / out.length_counts.sum()
    assert 0.5 * np.abs(share - out.length_pmf).sum() < TV_MAX
    if p == 0.0:
        det = unigram_viterbi("abababab", vocab)
        assert out.m_pmf[len(det)] == 1.0 and out.deterministic == tuple(det)
    for seg in out.examples:
        assert "".join(seg) == "abababab"
    again = skew.skew_panel("abababab", vocab, tau=5.0, ell_min=1, p=p, n_samples=20_000, seed=3)
    assert np.array_equal(again.m_counts, out.m_counts)


def test_skew_panel_refuses_bad_p():
    with pytest.raises(ValueError):
        skew.skew_panel("ab", Vocabulary(["a", "b"]), p=1.5)


# --------------------------------------------------------------------------- labels, grids
def test_slider_grid_is_in_footnote_10_order_and_has_both_signs() -> None:
    grid = skew.TAU_SLIDER_GRID
    x = [skew.skew_coordinate(t) for t in grid]
    assert x == sorted(x) and len(set(x)) == len(x)
    assert min(x) == -4.0 and max(x) == 4.0
    assert set(skew.TAU_GRID) <= set(grid) and set(skew.PAPER_TAUS) <= set(grid)
    assert 0.0 not in grid and math.inf in grid


def test_m_histograms_per_tau_is_skew_panel_per_tau() -> None:
    per_tau = skew.m_histograms_per_tau("abcabc", SMALL, (1.0, -10.0), ell_min=2,
                                       direction="r2l", n_samples=1_000, seed=3)
    assert list(per_tau) == [1.0, -10.0]
    for tau, panel in per_tau.items():
        direct = skew.skew_panel("abcabc", SMALL, tau, 2, "r2l", 1.0, 1_000, 3)
        assert panel == direct


# --------------------------------------------------------------------------- summary
def test_skew_summary_is_the_direct_calls() -> None:
    gpt2_like = Vocabulary(["Ġ", "h", "i", "Ġh", "hi", "Ġhi"], alphabet="byte-level")
    s = skew.skew_summary(" hi", gpt2_like, tau=-10.0, ell_min=2, direction="r2l", p=0.5,
                         n_samples=1_000, seed=4)
    w = "Ġhi"
    assert s.error is None and s.word == w
    assert s.panel == skew.skew_panel(w, gpt2_like, -10.0, 2, "r2l", 0.5, 1_000, 4)
    assert s.arc_probabilities == arc_probabilities(w, gpt2_like, -10.0, 2, "r2l")
    assert s.lattice == lattice_view(" hi", gpt2_like, 2, "r2l", 0, -10.0)
    assert s.curve == skew.segmentality_curve(w, gpt2_like, ell_min=2, direction="r2l")
    assert s.per_tau == skew.m_histograms_per_tau(w, gpt2_like, skew.PAPER_TAUS, 2, "r2l",
                                                  1_000, 4)
    assert s.current == skew.segmentality_moments(w, gpt2_like, -10.0, 2, "r2l")
    assert s == skew.skew_summary(" hi", gpt2_like, -10.0, 2, "r2l", 0.5, 1_000, 4)
    table = s.lattice.table  # the lattice's arcs carry τ's probabilities
    assert table.tau == -10.0
    assert table.probability == tuple(s.arc_probabilities.get(a) for a in table.lattice.arcs)


def test_skew_summary_errors_and_short_words() -> None:
    s = skew.skew_summary("abd", SMALL, n_samples=100)
    assert s.error.startswith("no segmentation") and s.panel is None
    assert "vocab must be" in skew.skew_summary("ab", ["a"], n_samples=10).error
    assert "p must be in" in skew.skew_summary("ab", SMALL, p=2.0, n_samples=10).error
    assert "tau must be" in skew.skew_summary("ab", SMALL, tau=0.0, n_samples=10).error
    one = skew.skew_summary("a", SMALL, n_samples=10)
    assert one.error is None and one.curve is None and one.panel is not None




# --------------------------------------------------------------------------- E[S] once
@pytest.mark.parametrize("tau", [1.0, 5.0, -10.0, math.inf])
@pytest.mark.parametrize("direction", ["l2r", "r2l"])
def test_segmentality_is_one_computation(tau, direction) -> None:
    """The panel's mean S and the GRaMPa statistics' E[S] (a flow over the arcs) agree."""
    for word in ("abcabca", "cabcab"):
        g = Grampa(SMALL, tau=tau, ell_min=1, direction=direction)
        mean, _ = skew.segmentality_moments(word, SMALL, tau, 1, direction)
        assert mean == pytest.approx(exact_statistics(g, word)["E_S"], rel=1e-12)


def test_pooled_curve_is_the_law_of_total_variance() -> None:
    curves = [skew.segmentality_curve(w, SMALL, (1.0, -1.0)) for w in ("abcab", "cabca", "ab")]
    pooled = skew.pooled_curve(curves)
    for k in range(2):
        means = [c.mean[k] for c in curves]
        var = np.mean([c.sd[k] ** 2 for c in curves]) + np.var(means)
        assert pooled.mean[k] == pytest.approx(np.mean(means), rel=1e-15)
        assert pooled.sd[k] == pytest.approx(math.sqrt(var), rel=1e-12)
    assert np.array_equal(pooled.tau, curves[0].tau)
    with pytest.raises(ValueError, match="at least one"):
        skew.pooled_curve([])
    with pytest.raises(ValueError, match="share"):
        skew.pooled_curve([curves[0], skew.segmentality_curve("abcab", SMALL, (1.0, 5.0))])


# --------------------------------------------------------------------------- caches
def test_results_are_read_only_and_cached_by_what_they_depend_on() -> None:
    base = skew.skew_summary("abcabca", SMALL, 1.0, 1, "l2r", 1.0, 500, 0)
    with pytest.raises(ValueError, match="read-only"):
        base.panel.m_counts[0] = 7
    moved = skew.skew_summary("abcabca", SMALL, -10.0, 1, "l2r", 0.5, 500, 0)
    # Figure 3, the curve and the lattice depend on neither τ nor p: the same objects
    assert all(moved.per_tau[t] is base.per_tau[t] for t in skew.PAPER_TAUS)
    assert moved.curve is base.curve and moved.lattice.lattice == base.lattice.lattice
    assert moved.panel != base.panel
    # a step back hands back the very same results
    again = skew.skew_summary("abcabca", SMALL, 1.0, 1, "l2r", 1.0, 500, 0)
    assert again.panel is base.panel and again == base
    # an explicit generator or a deterministic segmenter is not cached, and is the same law
    rng_panel = skew.skew_panel("abcabca", SMALL, 1.0, p=0.5, n_samples=500,
                                seed=np.random.default_rng(0))
    det_panel = skew.skew_panel("abcabca", SMALL, 1.0, p=0.5, n_samples=500, seed=0,
                                deterministic=lambda w: [w[:3], w[3:]])
    assert rng_panel == skew.skew_panel("abcabca", SMALL, 1.0, p=0.5, n_samples=500, seed=0)
    assert det_panel.deterministic == ("abc", "abca")


def test_bad_arguments_are_errors_not_cache_failures() -> None:
    with pytest.raises(TypeError, match="vocab must be"):
        skew.skew_panel("ab", ["a", "b"])
    with pytest.raises(TypeError, match="word must be str"):
        skew.segmentality_moments(["ab"], SMALL)
    with pytest.raises(TypeError, match="vocab must be"):
        skew.segmentality_curve("ab", {"a"})
