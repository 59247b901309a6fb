"""workbench.theory.panels against brute force (tests/naive_theory.py); plots under Agg.

The closed forms in a panel are compared with enumeration of all compositions; the
sampled parts with their totals and with a TV bound at fixed seeds; LOCK tables with the
brute-force LOCK order; the rejection table's expected trials with enumerated Markov path
probabilities and bounded composition counts.
"""

from __future__ import annotations

import math
import subprocess
import sys
from fractions import Fraction
from math import factorial

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

from naive import theory as naive  # noqa: E402

from workbench import Grampa, Vocabulary  # noqa: E402
from workbench.theory import markov_rejection_samples, panels, plots  # noqa: E402


# --------------------------------------------------------------------------- helpers
def test_tv_distance_and_bound() -> None:
    assert panels.tv_distance([0.2, 0.8], [0.2, 0.8]) == 0.0
    assert panels.tv_distance([1, 0, 0], [0, 0, 1]) == 1.0
    with pytest.raises(ValueError):
        panels.tv_distance([1.0], [0.5, 0.5])
    assert panels.tv_bound(4, 100) == pytest.approx(0.5 * 0.2 + math.sqrt(math.log(1e6) / 200))
    assert panels.tv_bound(10, 10**4) < panels.tv_bound(10, 10**3) < panels.tv_bound(20, 10**3)
    for bad in ((0, 10), (3, 0)):
        with pytest.raises(ValueError):
            panels.tv_bound(*bad)
    with pytest.raises(ValueError):
        panels.tv_bound(3, 10, delta=1.0)


def test_tv_bound_holds_for_iid_draws() -> None:
    rng = np.random.default_rng(0)
    p = rng.dirichlet(np.ones(12))
    for size in (100, 1000, 20_000):
        for _ in range(20):
            freq = np.bincount(rng.choice(12, size=size, p=p), minlength=12) / size
            assert panels.tv_distance(freq, p) < panels.tv_bound(12, size)


def test_trial_tolerance() -> None:
    assert panels.trial_tolerance(1, 10) == 0.0
    # Geom(1/2): Var = 2, so 4 standard errors of 50 samples are 4 * sqrt(2/50) = 0.8
    assert panels.trial_tolerance(Fraction(2), 50) == pytest.approx(0.8)
    with pytest.raises(ValueError):
        panels.trial_tolerance(0.5, 10)


def test_panels_equal() -> None:
    a = {"x": np.array([1.0, np.nan]), "y": [1, (2, 3)], "z": {"k": 1.5}}
    b = {"x": np.array([1.0, np.nan]), "y": [1, (2, 3)], "z": {"k": 1.5}}
    assert panels.panels_equal(a, b)
    assert not panels.panels_equal(a, {**b, "z": {"k": 1.25}})
    assert not panels.panels_equal(a, {**b, "x": np.array([1.0, 2.0])})
    assert not panels.panels_equal(a, {k: v for k, v in b.items() if k != "y"})
    assert not panels.panels_equal(np.zeros(2), np.zeros(3))
    assert panels.panels_equal(float("nan"), float("nan"))


def test_demo_word() -> None:
    assert panels.demo_word(0) == ""
    assert panels.demo_word(28) == "abcdefghijklmnopqrstuvwxyzab"


# --------------------------------------------------------------------------- Figure 2
@pytest.mark.parametrize("n", [2, 3, 5, 8, 10])
def test_uniform_laws_closed_forms_match_enumeration(n: int) -> None:
    p = panels.uniform_laws_panel(n, n_samples=500, seed=1)
    support = list(range(1, n + 1))
    assert p["m"]["values"].tolist() == support == p["ell"]["values"].tolist()
    m_law = naive.token_count_pmf(n)
    assert p["m"]["pmf"].tolist() == [float(m_law[m]) for m in support]
    ell_law = naive.token_length_pmf(n)
    assert p["ell"]["pmf"].tolist() == [float(ell_law[x]) for x in support]
    s_law = naive.segmentality_pmf(n)
    assert p["S"]["values"].tolist() == [float(s) for s in s_law]
    assert p["S"]["pmf"].tolist() == [float(q) for q in s_law.values()]
    # R = n/m ascending, carrying the law of m
    assert p["R"]["values"].tolist() == sorted(n / m for m in support)
    mean_r = sum(v * q for v, q in zip(p["R"]["values"], p["R"]["pmf"]))
    assert mean_r == pytest.approx(float(naive.mean_chars_per_token(n)), rel=1e-12)
    assert p["R"]["expected_mean"] == float(naive.mean_chars_per_token(n))
    # the geometric limit and Eq. 27
    assert p["ell"]["limit"].tolist() == [2.0 ** -x for x in support]
    assert p["ell"]["eq27"] == pytest.approx([(1 - (x - 2) / (n + 1)) * 2.0 ** -x
                                              for x in support], rel=1e-14)


@pytest.mark.parametrize("n,seed", [(2, 0), (4, 3), (12, 0), (29, 0), (29, 7), (64, 1)])
def test_uniform_laws_samples(n: int, seed: int) -> None:
    size = 40_000
    p = panels.uniform_laws_panel(n, n_samples=size, seed=seed)
    assert (p["n"], p["n_samples"], p["seed"], p["word"]) == (n, size, seed,
                                                             panels.demo_word(n))
    m, ell = p["m"], p["ell"]
    assert m["counts"].sum() == size
    # every sample's tokens add up to n: Σ_ℓ ℓ·count(ℓ) = n · samples
    assert int((ell["values"] * ell["counts"]).sum()) == n * size
    # total tokens = Σ_m m · count(m)
    assert int(ell["counts"].sum()) == int((m["values"] * m["counts"]).sum())
    assert m["freq"] == pytest.approx(m["counts"] / size)
    assert m["tv"] == pytest.approx(panels.tv_distance(m["freq"], m["pmf"]))
    assert m["tv"] < m["bound"] == panels.tv_bound(n, size)
    assert ell["tv"] < ell["bound"]
    assert p["R"]["tv"] == p["S"]["tv"] == m["tv"]
    assert p["R"]["counts"].tolist() == m["counts"][::-1].tolist()
    assert abs(p["R"]["mean"] - p["R"]["expected_mean"]) < 4 * p["R"]["sem"]


def test_uniform_laws_is_deterministic_and_validates() -> None:
    a = panels.uniform_laws_panel(9, 2000, seed=5)
    assert panels.panels_equal(a, panels.uniform_laws_panel(9, 2000, seed=5))
    assert not panels.panels_equal(a, panels.uniform_laws_panel(9, 2000, seed=6))
    for bad in ({"n": 1}, {"n": panels.MAX_PANEL_N + 1}, {"n_samples": 0},
                {"seed": -1}):
        with pytest.raises(ValueError):
            panels.uniform_laws_panel(**{"n": 5, "n_samples": 10, **bad})
    with pytest.raises(TypeError):
        panels.uniform_laws_panel(5.0, 10)


def test_length_law_errors() -> None:
    e = panels.length_law_errors(14)
    assert e["n"].tolist() == e["ell"].tolist() == list(range(1, 15))
    for n in range(1, 15):
        law = naive.token_length_pmf(n)
        row = n - 1
        assert np.isnan(e["exact"][row, n:]).all() and np.isnan(e["err27"][row, n:]).all()
        for ell in range(1, n + 1):
            exact = law[ell]
            eq27 = (1 - Fraction(ell - 2, n + 1)) * Fraction(1, 2**ell)
            assert e["exact"][row, ell - 1] == float(exact)
            assert e["err27"][row, ell - 1] == float(eq27 - exact)
            assert e["err28"][row, ell - 1] == float(Fraction(1, 2**ell) - exact)
            if ell < n:  # Eq. 27 is exact below the diagonal; Eq. 28 is off by (ℓ-2)/(n+1)/2^ℓ
                assert e["err27"][row, ell - 1] == 0.0
                assert e["err28"][row, ell - 1] == float(Fraction(ell - 2, (n + 1) * 2**ell))
        deficit = Fraction(1, (n + 1) * 2**n)
        assert e["deficit_at_n"][row] == float(deficit) == -e["err27"][row, row]
        assert e["shortfall"][row] == float(deficit)
        assert e["rel27"][row, row] == -0.25
    with pytest.raises(ValueError):
        panels.length_law_errors(0)


# --------------------------------------------------------------------------- App. C
@pytest.mark.parametrize("n", range(1, 9))
def test_lock_order_table_matches_brute_force(n: int) -> None:
    t = panels.lock_order_table(n)
    c = t["columns"]
    size = 2 ** (n - 1)
    assert t["word"] == panels.demo_word(n)
    assert {len(v) for v in c.values()} == {size}
    assert c["key"] == list(range(size)) == c["lock"]
    assert sorted(c["bit_lock_key"]) == list(range(size))  # bijection onto 0 .. 2^(n-1)-1
    order = naive.lock_order(n)
    comps = naive.compositions(n)
    assert list(c["lock_lengths"]) == order
    assert list(c["bit_lengths"]) == comps
    assert c["bit"] == [naive.bit_key(u) for u in comps] == list(range(size))
    assert c["lock_bit_key"] == [naive.bit_key(u) for u in order]
    assert c["bit_lock_key"] == [order.index(u) for u in comps]
    assert c["bits"] == [format(b, f"0{n - 1}b") if n > 1 else "" for b in range(size)]
    for k, u in enumerate(order):
        same_m = [v for v in comps if len(v) == len(u)]
        assert c["m"][k] == len(u)
        assert c["sorted"][k] == tuple(sorted(u))
        assert c["f1"][k] == naive.fewer_parts(len(u), n)
        assert c["f2"][k] == sum(1 for v in same_m if sorted(v) < sorted(u))
        assert c["f3"][k] == naive.permutation_rank(u)
        assert c["f1"][k] + c["f2"][k] + c["f3"][k] == k
        assert c["lock_segmentation"][k].replace("/", "") == t["word"]
        assert [len(x) for x in c["lock_segmentation"][k].split("/")] == list(u)
    # the three ordering rules of C.2 between consecutive rows
    keys = [(m, s, f3) for m, s, f3 in zip(c["m"], c["sorted"], c["f3"])]
    assert keys == sorted(keys)


def test_lock_order_table_paper_example_and_limits() -> None:
    c = panels.lock_order_table(6)["columns"]
    # App. C.1: a/bcdef = 10000₂ = 16 and ab/c/d/e/f = 01111₂ = 15 are bit-order neighbours
    assert c["bit_segmentation"][16] == "a/bcdef" and c["bit_segmentation"][15] == "ab/c/d/e/f"
    assert c["lock_segmentation"][0] == "abcdef" and c["lock_segmentation"][-1] == "a/b/c/d/e/f"
    with pytest.raises(ValueError):
        panels.lock_order_table(panels.MAX_TABLE_N + 1)
    with pytest.raises(ValueError):
        panels.lock_order_table(0)


def test_lock_histogram_uniform() -> None:
    size = 50_000
    h = panels.lock_histogram(29, tau=1.0, n_samples=size, bins=512, seed=0)
    assert h["n_keys"] == 2**28 and h["edges"][0] == 0 and h["edges"][-1] == 2**28
    assert h["edges"].size == 513 and (np.diff(h["edges"]) == 2**19).all()
    assert h["counts"].sum() == size and h["counts"].size == 512
    assert h["uniform"] == pytest.approx(np.full(512, 1 / 512))
    assert h["tv_uniform"] < h["bound"] == panels.tv_bound(512, size)
    assert h["m_counts"].tolist() == h["m_counts_from_keys"].tolist()
    assert h["m_counts"].sum() == size
    assert h["m_edges"].tolist() == [naive_f1 for naive_f1 in
                                     [sum(math.comb(28, j - 1) for j in range(1, m))
                                      for m in range(1, 30)]] + [2**28]
    assert h["m_pmf"] == pytest.approx([float(q) for q in naive_binomial_law(29)], abs=1e-12)
    assert h["tv_m"] < h["m_bound"]
    assert h["expected_m"] == pytest.approx(15.0)


def naive_binomial_law(n: int) -> list[Fraction]:
    return [Fraction(math.comb(n - 1, m - 1), 2 ** (n - 1)) for m in range(1, n + 1)]


@pytest.mark.parametrize("tau", [0.5, 2.0, math.inf, -2.0])
def test_lock_histogram_against_exact_distribution(tau: float) -> None:
    """n = 6 and one bin per key: the histogram is GRaMPa's law in LOCK order."""
    n, size = 6, 20_000
    h = panels.lock_histogram(n, tau=tau, n_samples=size, bins=32, seed=3)
    assert h["edges"].tolist() == list(range(33))
    g = Grampa(Vocabulary.infinite(), tau=tau, seed=0)
    law = g.distribution(panels.demo_word(n))
    order = naive.lock_order(n)
    probs = np.zeros(32)
    for seg, q in law.items():
        probs[order.index(tuple(len(x) for x in seg))] = q
    assert probs.sum() == pytest.approx(1.0)
    assert panels.tv_distance(h["freq"], probs) < panels.tv_bound(32, size)
    # the m-blocks of the LOCK axis carry the exact token-count law
    block = [probs[h["m_edges"][m]:h["m_edges"][m + 1]].sum() for m in range(n)]
    assert h["m_pmf"] == pytest.approx(block, abs=1e-12)


def test_lock_histogram_skew_is_progressive() -> None:
    """Along FIGURE5_TAUS (decreasing α = 1/τ) the exact E[m] falls at every step."""
    means = [panels.lock_histogram(29, tau=t, n_samples=200, bins=16, seed=0)["expected_m"]
             for t in panels.FIGURE5_TAUS]
    assert all(a > b for a, b in zip(means, means[1:]))
    assert means[1] == pytest.approx(15.0)


def test_lock_histogram_validates() -> None:
    with pytest.raises(ValueError):
        panels.lock_histogram(5, tau=0.0, n_samples=10, bins=4)
    with pytest.raises(ValueError):
        panels.lock_histogram(5, tau=float("nan"), n_samples=10, bins=4)
    with pytest.raises(ValueError):
        panels.lock_histogram(5, n_samples=10, bins=17)
    with pytest.raises(ValueError):
        panels.lock_histogram(panels.MAX_HISTOGRAM_N + 1, n_samples=10, bins=4)
    h = panels.lock_histogram(1, n_samples=10, bins=1)
    assert h["counts"].tolist() == [10] and h["m_counts"].tolist() == [10]


# --------------------------------------------------------------------------- §3.2, A.5
def test_rejection_cost_expected_matches_enumeration() -> None:
    ns = list(range(1, 11))
    t = panels.rejection_cost_table(ns, n_samples=50, seed=0, max_token_length=2,
                                    trial_budget=10**3)
    for i, n in enumerate(ns):
        comps = naive.compositions(n)
        probs = [naive.markov_probability(u) for u in comps]
        assert sum(probs) == 1
        # acceptance per walk: Σ_paths P(path) · ε / P(path) = ε · #paths, ε = min P
        expected = 1 / (min(probs) * len(comps))
        assert expected == Fraction(factorial(n), 2 ** (n - 1))
        assert t["markov_expected"][i] == float(expected)
        n_valid = naive.bounded_count(n, 2)
        assert t["bit_n_valid"][i] == n_valid
        assert t["bit_expected"][i] == float(Fraction(2 ** (n - 1), n_valid))
    # the budget: min(n_samples, ⌊budget / E[T]⌋) samples, NaN when none
    assert t["markov_samples"].tolist() == [min(50, int(10**3 // Fraction(factorial(n),
                                                                          2 ** (n - 1))))
                                            for n in ns]
    none = t["markov_samples"] == 0
    assert none.any() and np.isnan(t["markov_mean"][none]).all()
    assert np.isfinite(t["markov_mean"][~none]).all()
    assert (t["grampa_passes"] == 1).all() and (t["grampa_valid"] == 1.0).all()


def test_rejection_cost_measured_trials() -> None:
    ns = list(range(1, 9))
    size = 4000
    for cap in (1, 2, 3):
        t = panels.rejection_cost_table(ns, n_samples=size, seed=2, max_token_length=cap,
                                        trial_budget=10**7)
        for i in range(len(ns)):
            for name in ("markov", "bit"):
                e = t[f"{name}_expected"][i]
                assert t[f"{name}_samples"][i] == size
                assert abs(t[f"{name}_mean"][i] - e) <= panels.trial_tolerance(e, size)
                assert t[f"{name}_max"][i] >= 1
        if cap == 1:  # only the character split is valid: E[T] = 2^(n-1)
            assert t["bit_expected"].tolist() == [2.0 ** (n - 1) for n in ns]
        assert (t["grampa_valid"] == 1.0).all()


def test_rejection_cost_rows_are_independent() -> None:
    a = panels.rejection_cost_table([3, 6], n_samples=300, seed=4)
    b = panels.rejection_cost_table([6], n_samples=300, seed=4)
    for key in ("markov_mean", "bit_mean", "markov_max", "bit_sem"):
        assert a[key][1] == b[key][0]
    with pytest.raises(ValueError):
        panels.rejection_cost_table([], n_samples=10)
    with pytest.raises(ValueError):
        panels.rejection_cost_table([3], max_token_length=0)
    with pytest.raises(ValueError):
        panels.rejection_cost_table([panels.MAX_COST_N + 1])


def test_sampler_timings_smoke() -> None:
    import numba

    before = numba.get_num_threads()
    s = panels.sampler_timings([2, 5, 15], n_samples=50, trial_budget=10**4, repeat=1)
    assert numba.get_num_threads() == before
    assert s["ns"].tolist() == [2, 5, 15] and s["threads"] == 1
    for key in ("bit", "grampa_infinite", "grampa_bounded"):
        assert (s[key] > 0).all() and np.isfinite(s[key]).all()
    assert np.isfinite(s["markov"][:2]).all() and np.isnan(s["markov"][2])  # 15!/2^14 ≫ budget
    # per walk = per sample × samples / walks taken (the same seed gives the same walks)
    _, _, trials = markov_rejection_samples(5, 50, 0)
    assert s["markov_per_trial"][1] == pytest.approx(s["markov"][1] * 50 / trials.sum())


# --------------------------------------------------------------------------- plots
def test_plot_uniform_laws_shows_the_panel() -> None:
    p = panels.uniform_laws_panel(11, n_samples=3000, seed=0)
    d = plots.figure_data(plots.plot_uniform_laws(p))
    for view in ("m", "ell", "R", "S"):
        assert d[f"{view}-samples"] == pytest.approx(p[view]["freq"])
        assert d[f"{view}-law"] == pytest.approx(p[view]["pmf"])
    assert d["ell-limit"] == pytest.approx(p["ell"]["limit"])
    assert d["R-mean"].tolist() == [p["R"]["mean"]]
    assert d["R-expected"].tolist() == [p["R"]["expected_mean"]]


def test_plot_length_law_errors() -> None:
    e = panels.length_law_errors(20)
    d = plots.figure_data(plots.plot_length_law_errors(e, ns=(4, 16, 99)))
    assert d["err28-n4"] == pytest.approx(e["err28"][3, :4])
    assert d["err27-n16"] == pytest.approx(e["err27"][15, :16])
    assert "err28-n99" not in d
    assert d["deficit27"] == pytest.approx(e["deficit_at_n"])


def test_plot_lock_order_and_histograms() -> None:
    t = panels.lock_order_table(5)
    d = plots.figure_data(plots.plot_lock_order(t))
    assert d["bit-of-lock"].tolist() == t["columns"]["lock_bit_key"]
    hists = [panels.lock_histogram(12, tau=tau, n_samples=500, bins=64, seed=0)
             for tau in (1.0, math.inf, -2.0)]
    for log in (True, False):
        fig = plots.plot_lock_histograms(hists, ncols=2, log=log)
        assert len([ax for ax in fig.axes if ax.get_visible()]) == 3
    d = plots.figure_data(plots.plot_lock_histogram(hists[1]))
    assert d["lock-samples"] == pytest.approx(hists[1]["freq"])
    assert d["lock-uniform"] == pytest.approx(hists[1]["uniform"])
    with pytest.raises(ValueError):
        plots.plot_lock_histograms([])
    assert plots.tau_label(-math.inf) == "τ = -∞"


def test_plot_rejection_cost() -> None:
    t = panels.rejection_cost_table(range(1, 12), n_samples=100, trial_budget=10**4)
    s = panels.sampler_timings(range(1, 12), n_samples=50, trial_budget=10**4, repeat=1)
    for timings in (None, s):
        d = plots.figure_data(plots.plot_rejection_cost(t, timings))
        assert d["markov-expected"] == pytest.approx(t["markov_expected"])
        np.testing.assert_array_equal(d["markov-measured"], t["markov_mean"])
        np.testing.assert_array_equal(d["bit-measured"], t["bit_mean"])
        assert d["grampa-passes"].tolist() == [1.0] * 11
    assert d["time-grampa-infinite"] == pytest.approx(s["grampa_infinite"])
    assert "time-markov-extrapolated" in d


def test_interactive_panel_result_is_a_direct_call() -> None:
    ipywidgets = pytest.importorskip("ipywidgets")
    panel = plots.interactive_panel(
        panels.uniform_laws_panel, plots.plot_uniform_laws,
        n=ipywidgets.IntSlider(value=6, min=2, max=20), n_samples=ipywidgets.fixed(500),
        seed=ipywidgets.fixed(0))
    controls = plots.panel_controls(panel)
    assert set(controls) == {"n"}
    for n in (6, 13):
        controls["n"].value = n
        assert panels.panels_equal(panel.result, panels.uniform_laws_panel(n, 500, 0))
        shown = plots.figure_data(panel.last_figure)["m-samples"]
        assert shown == pytest.approx(panel.result["m"]["freq"])
    with pytest.raises(TypeError):
        plots.interactive_panel(panels.uniform_laws_panel, plots.plot_uniform_laws,
                                nope=ipywidgets.IntSlider())


# --------------------------------------------------------------------------- imports
def test_import_workbench_does_not_import_matplotlib() -> None:
    code = ("import sys, workbench, workbench.theory, workbench.theory.panels; "
            "print('matplotlib' in sys.modules, 'workbench.theory.plots' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["False", "False"]
