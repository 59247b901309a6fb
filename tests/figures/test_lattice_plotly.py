"""The plotly views (notebooks 01 and 02): the lattice's hover data and the segmentality curve
against direct computation and the plain-Python references; refusal past the size limit; the
panels show them and their results equal their compute functions."""

from __future__ import annotations

import math
from fractions import Fraction

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

pytest.importorskip("plotly")

from naive import grampa as naive  # noqa: E402

from workbench import Grampa, Lattice, Vocabulary  # noqa: E402
from workbench.datasets import (
    figure1_vocabulary,  # noqa: E402
    vocabulary_options,  # noqa: E402
)
from workbench.experiments import grampa_skew as skew  # noqa: E402
from workbench.experiments.grampa_lattice import arc_table, lattice_view  # noqa: E402
from workbench.figures import skew_plots  # noqa: E402
from workbench.figures import skew_widget as sw  # noqa: E402
from workbench.figures.common import (
    count_label,  # noqa: E402
    fraction_label,  # noqa: E402
    tau_label,  # noqa: E402
)
from workbench.figures.lattice import lattice_panel, node_count_labels  # noqa: E402
from workbench.figures.lattice_plotly import MAX_ARCS, MAX_CHARS, plotly_lattice  # noqa: E402
from workbench.figures.panel import set_panel_values  # noqa: E402
from workbench.figures.skew_plotly import plotly_segmentality_curve  # noqa: E402
from workbench.grampa import arc_probabilities  # noqa: E402

FIG1 = figure1_vocabulary()
SMALL = Vocabulary(["a", "b", "c", "ab", "bc", "abc", "ca"], name="small")
TAUS = (1.0, 5.0, -10.0, math.inf, 0.5)
PROB_RTOL = 1e-12  # float(c_i / c_j) against GRaMPa's log-space table


def _trace(fig, name):
    (trace,) = [t for t in fig.data if t.name == name]
    return trace


def _cases():
    yield "GRAMPA", FIG1, tuple(FIG1.tokens)
    yield "abcabca", SMALL, tuple(SMALL.tokens)
    for word, tokens in naive.small_cases(7, k=6):
        yield word, Vocabulary(tokens), tuple(tokens)


# --------------------------------------------------------------------------- the lattice
@pytest.mark.parametrize("direction", ["r2l", "l2r"])
@pytest.mark.parametrize("ell_min", [1, 2])
def test_lattice_hover_data_equals_direct_computation(direction, ell_min) -> None:
    for word, vocab, tokens in _cases():
        lat = Lattice.build(word, vocab, ell_min, direction)
        arcs = naive.walked_graph(word, set(tokens), ell_min, direction)
        n = len(word)
        assert sorted(lat.arcs) == arcs
        for tau in TAUS:
            table = arc_table(lat, tau)
            fig = plotly_lattice(table)
            s = table.lattice
            assert fig.layout.meta["arcs"] == [list(a) for a in lat.arcs]
            assert fig.layout.meta["through"] == [str(x) for x in s.through]
            # tokens, counts at both ends and through the arc, against the naive counter
            assert list(s.tokens) == [word[i:j] for i, j in lat.arcs]
            assert list(s.path_counts) == lat.path_counts
            for k, (i, j) in enumerate(lat.arcs):
                into_i = naive.count_paths(n, arcs, 0, i)
                from_j = naive.count_paths(n, arcs, j, n)
                assert s.through[k] == into_i * from_j
            assert s.count == naive.count_walked_paths(word, set(tokens), ell_min, direction)
            # probabilities: exactly GRaMPa's, and exact fractions at τ = 1
            direct = Grampa(vocab, tau=tau, ell_min=ell_min,
                            direction=direction).arc_probabilities(word)
            assert list(table.probability) == [direct.get(a) for a in lat.arcs]
            if tau == 1.0:
                ref = naive.transition_probabilities_exact(word, set(tokens), 1, ell_min,
                                                           direction)
                for a, q in zip(lat.arcs, table.exact):
                    if a in ref:
                        assert q == ref[a]
                        assert float(q) == pytest.approx(direct[a], rel=PROB_RTOL)
            else:
                assert list(table.exact) == [None] * len(lat.arcs)
            # what hovering shows
            labels = _trace(fig, "arc labels")
            assert [list(c) for c in labels.customdata] == [list(a) for a in lat.arcs]
            for k, text in enumerate(labels.hovertext):
                assert f"<b>{s.tokens[k]}</b>" in text
                assert f"segmentations using it: {s.through[k]:,} of" in text
                p = table.probability[k]
                if p is not None and tau != 1.0:
                    assert f"= {p:.4g} at τ" in text
            assert node_count_labels(fig) == {k: count_label(c)
                                              for k, c in enumerate(lat.path_counts)}


def test_figure1_hover_shows_the_caption() -> None:
    lat = Lattice.build("GRAMPA", FIG1, direction="r2l")
    fig = plotly_lattice(arc_table(lat), highlight=[(4, 5), (5, 6)])  # τ = 1's exact ratios
    hover = dict(zip(map(tuple, _trace(fig, "arc labels").customdata),
                     _trace(fig, "arc labels").hovertext))
    assert "= 4/7 ≈ 0.5714 at τ = 1" in hover[(3, 4)]
    assert "= 2/7 ≈ 0.2857 at τ = 1" in hover[(2, 4)]
    assert "= 1/7 ≈ 0.1429 at τ = 1" in hover[(0, 4)]
    assert "segmentations using it: 8 of 16" in hover[(3, 4)]
    nodes = _trace(fig, "nodes")
    assert "paths 0 → 4: 7;  paths 4 → 6: 2" in nodes.hovertext[4]
    assert list(_trace(fig, "characters").text) == list("GRAMPA")
    assert len(_trace(fig, "path").x) == 2 * 12  # two arcs of 11 points, each closed by None
    # a view (as the panels pass it) draws the same numbers
    assert plotly_lattice(lattice_view("GRAMPA", FIG1, 1, "r2l")).layout.meta == fig.layout.meta


def test_tokens_are_written_by_a_text_trace_not_annotations() -> None:
    """Each token (with its probability) is text of the "arc labels" trace at its arc's apex:
    the page draws one SVG text per token, not an annotation (a group, a box, a measured
    text); a lattice past the label limit has the tokens on hover only."""
    lat = Lattice.build("GRAMPA", FIG1, direction="r2l")
    probs = arc_probabilities("GRAMPA", FIG1, tau=1.0, direction="r2l")
    table = arc_table(lat.summary(), 1.0, probs)
    fig = plotly_lattice(table)
    labels = _trace(fig, "arc labels")
    assert not fig.layout.annotations
    assert labels.mode == "markers+text"
    assert dict(zip(map(tuple, labels.customdata), labels.text))[(0, 4)] == "GRAM 1/7"
    assert list(labels.text) == [f"{t} {fraction_label(p)}" for t, p in
                                 zip(table.lattice.tokens, table.probability)]
    assert list(labels.x) == [(i + j) / 2 for i, j in lat.arcs]
    many = Lattice.build("ab" * 12, Vocabulary.infinite(), ell_min=1)
    if len(many.arcs) <= MAX_ARCS:
        wide = _trace(plotly_lattice(arc_table(many)), "arc labels")
        assert wide.mode == "markers" and not plotly_lattice(arc_table(many)).layout.annotations


def test_plotly_lattice_refuses_what_it_cannot_draw() -> None:
    s = Lattice.build("GRAMPA", FIG1, 2, "l2r").summary()
    probs = Grampa(FIG1, tau=5.0, ell_min=2).arc_probabilities("GRAMPA")
    table = plotly_lattice(arc_table(s, 5.0, probs)).layout.meta
    assert table["probability"] == [probs.get(tuple(a)) for a in table["arcs"]]
    assert table["direction"] == "l2r" and table["ell_min"] == 2 and table["tau"] == 5.0
    with pytest.raises(ValueError, match="no lattice"):
        plotly_lattice(lattice_view("abd", None))
    with pytest.raises(TypeError):
        plotly_lattice("GRAMPA")
    with pytest.raises(ValueError, match="not an arc"):
        plotly_lattice(arc_table(Lattice.build("abc", SMALL)), highlight=[(2, 9)])


def test_lattice_grows_with_the_word_and_refuses_past_a_readable_size() -> None:
    inf = Vocabulary.infinite()
    widths = [plotly_lattice(arc_table(Lattice.build("x" * n, inf, 3))).layout.width
              for n in (4, 12, 30)]
    assert widths[0] < widths[1] < widths[2]
    assert widths[2] >= 30 * 60  # tens of pixels per character: the output scrolls
    long = Lattice.build("ab" * (MAX_CHARS // 2) + "a", Vocabulary(["a", "b"]))
    with pytest.raises(ValueError, match=f"{MAX_CHARS + 1} characters.*at most {MAX_CHARS}"):
        plotly_lattice(arc_table(long))
    dense = Lattice.build("x" * 50, inf)  # 1275 arcs
    assert len(dense.arcs) > MAX_ARCS
    with pytest.raises(ValueError, match="arcs.*draw_lattice"):
        plotly_lattice(lattice_view("x" * 50, inf, max_list=0))
    empty = plotly_lattice(arc_table(Lattice.build("", SMALL)))
    assert node_count_labels(empty) == {0: "1"}


def test_big_counts_stay_exact() -> None:
    lat = Lattice.build("x" * 48, Vocabulary.infinite(), ell_min=1, direction="r2l")
    fig = plotly_lattice(arc_table(lat), max_arcs=2000)
    assert fig.layout.meta["count"] == str(2**47)
    assert node_count_labels(fig)[48] == count_label(2**47)
    assert f"{2**46:,}" in _trace(fig, "nodes").hovertext[47]


# --------------------------------------------------------------------------- the curve
def test_plotly_curve_shows_the_curve_and_the_current_tau() -> None:
    vocab = SMALL
    curve = skew.segmentality_curve("abcabca", vocab, (-1.0, 5.0, math.inf, 0.25, 1.0))
    for tau in skew.TAU_SLIDER_GRID:
        current = skew.segmentality_moments("abcabca", vocab, tau)
        fig = plotly_segmentality_curve(curve, tau, current)
        mean = _trace(fig, "mean")
        assert np.array_equal(mean.y, curve.mean)
        assert list(mean.x) == [skew_plots.skew_position(t) for t in curve.tau]
        assert [row[:2] for row in mean.customdata] == [
            [float(t), skew.skew_coordinate(t)] for t in curve.tau]
        assert [row[2:] for row in mean.customdata] == [
            [m, s] for m, s in zip(curve.mean, curve.sd)]
        assert list(fig.layout.xaxis.ticktext) == ["0.25", "1", "5", "±∞", "−1"]
        marker = _trace(fig, "current τ")
        xc = skew_plots.skew_position(tau)
        assert marker.x == (xc,) and marker.y == (current[0],)
        lo, hi = fig.layout.xaxis.range
        assert lo < xc < hi  # the axis always includes the slider's value
        assert f"E[S] = {current[0]:.4f} ± {current[1]:.4f}" in marker.hovertext[0]
    k = list(curve.tau).index(5.0)
    assert mean.hovertext[k].startswith("τ = 5  (−1/τ = -0.2)")
    band = _trace(fig, "sd band")
    assert np.allclose(band.y[:5], curve.mean + curve.sd)


# --------------------------------------------------------------------------- the panels
def test_lattice_panel_shows_the_plotly_lattice() -> None:
    pytest.importorskip("ipywidgets")
    opts = vocabulary_options({"small": SMALL})
    panel = lattice_panel(lattice_view, opts, word="GRAMPA", vocabulary="figure-1", direction="r2l")
    assert panel.result == lattice_view("GRAMPA", FIG1, 1, "r2l")
    assert panel.last_figure.layout.meta == plotly_lattice(
        arc_table(Lattice.build("GRAMPA", FIG1, 1, "r2l"))).layout.meta
    set_panel_values(panel, word="abcabca", vocabulary="small", direction="l2r", ell_min=2)
    direct = lattice_view("abcabca", SMALL, 2, "l2r")
    assert panel.result == direct
    assert node_count_labels(panel.last_figure) == {
        k: count_label(c) for k, c in enumerate(direct.lattice.path_counts)}
    set_panel_values(panel, word="x" * (MAX_CHARS + 5), vocabulary="infinite", ell_min=8)
    assert type(panel.last_figure).__module__.startswith("matplotlib")  # the sketch
    set_panel_values(panel, word="abd", vocabulary="small", ell_min=1)
    assert panel.result.error.startswith("no segmentation")
    assert type(panel.last_figure).__module__.startswith("plotly")  # where the paths stop


def test_skew_widget_shows_plotly_lattice_and_curve() -> None:
    pytest.importorskip("ipywidgets")
    opts = vocabulary_options({"small": SMALL})
    panel = sw.skew_widget(skew.skew_summary, opts, word="abcabca", vocabulary="small", tau=-10.0,
                           n_samples=500)
    direct = skew.skew_summary("abcabca", SMALL, -10.0, 1, "l2r", 1.0, 500, 0)
    assert panel.result == direct
    assert direct.current == skew.segmentality_moments("abcabca", SMALL, -10.0)
    figs = panel.last_figures
    table = figs["lattice"].layout.meta
    assert table["probability"] == [direct.arc_probabilities.get(tuple(a))
                                    for a in table["arcs"]]
    assert table["tau"] == -10.0
    assert np.array_equal(_trace(figs["curve"], "mean").y, direct.curve.mean)
    assert _trace(figs["curve"], "current τ").y == (direct.current[0],)
    # Figure 3 does not depend on τ or p, the lattice not on p: the same figures are shown
    # again (the panel's view leaves them untouched)
    first = figs["per_tau"]
    set_panel_values(panel, tau=5.0, p=0.5)
    assert panel.last_figures["per_tau"] is first
    assert panel.last_figures["curve"] is not figs["curve"]
    moved = panel.last_figures
    set_panel_values(panel, p=0.25)
    assert all(panel.last_figures[name] is moved[name] for name in ("curve", "lattice", "per_tau"))
    assert panel.last_figures["histograms"] is not moved["histograms"]
    set_panel_values(panel, tau=-10.0, p=1.0)  # back: the same figures as first drawn
    assert all(panel.last_figures[name] is figs[name] for name in figs)
    result = set_panel_values(panel, tau=math.inf, ell_min=2, direction="r2l", p=1.0)
    assert panel.last_figures["per_tau"] is not first  # a new setting: drawn again
    assert result == (skew.skew_summary("abcabca", SMALL, math.inf, 2, "r2l", 1.0,
                                               500, 0))
    probs = Grampa(SMALL, tau=math.inf, ell_min=2, direction="r2l").arc_probabilities("abcabca")
    table = panel.last_figures["lattice"].layout.meta
    assert table["probability"] == [probs.get(tuple(a)) for a in table["arcs"]]
    assert all(Fraction(x) >= 0 for x in table["through"])


# --------------------------------------------------------------------------- 02's histograms
def test_plotly_histograms_show_the_panel() -> None:
    from workbench.figures.common import figure_data
    from workbench.figures.skew_plotly import plotly_m_histograms_per_tau, plotly_skew_panel
    from workbench.stats import frequencies, tv_distance

    panel = skew.skew_panel("abcabca", SMALL, tau=-10.0, ell_min=2, p=0.5, n_samples=1_000,
                            seed=2)
    fig = plotly_skew_panel(panel, title="t")
    data = figure_data(fig)
    for key in ("m", "length"):
        counts = getattr(panel, f"{key}_counts")
        assert np.array_equal(data[f"{key}-pmf"], getattr(panel, f"{key}_pmf")[1:])
        assert np.array_equal(data[f"{key}-samples"], counts[1:] / counts.sum())
        assert list(_trace(fig, f"{key}-pmf").x) == list(range(1, 8))
    tv = tv_distance(frequencies(panel.m_counts), panel.m_pmf)
    assert f"{tv:.4f}" in fig.layout.annotations[0].text
    per_tau = skew.m_histograms_per_tau("x" * 9, Vocabulary.infinite(), (-10.0, 1.0, 5.0),
                                        n_samples=500, seed=0)
    fig = plotly_m_histograms_per_tau(per_tau)
    data = figure_data(fig)
    assert [t.name for t in fig.data if t.name.startswith("pmf-")] == ["pmf-1", "pmf-5",
                                                                         "pmf-−10"]
    for tau, result in per_tau.items():
        assert np.array_equal(data[f"pmf-{tau_label(tau)}"], result.m_pmf[1:])
        counts = result.m_counts
        assert np.array_equal(data[f"samples-{tau_label(tau)}"], counts[1:] / counts.sum())
    exact_only = plotly_m_histograms_per_tau(
        skew.m_histograms_per_tau("abcab", SMALL, n_samples=0))
    assert not any(t.name.startswith("samples-") for t in exact_only.data)


# --------------------------------------------------------------------------- 03's panel
@pytest.mark.parametrize("n", [2, 7, 29])
def test_plotly_uniform_laws_shows_the_panel(n) -> None:
    from workbench.experiments.grampa_uniform_laws import uniform_laws_panel
    from workbench.figures.common import figure_data
    from workbench.figures.uniform_laws import plot_uniform_laws
    from workbench.figures.uniform_laws_plotly import plotly_uniform_laws

    panel = uniform_laws_panel(n, n_samples=2_000, seed=1)
    fig = plotly_uniform_laws(panel)
    shown = figure_data(fig)
    for view in ("m", "ell", "R", "S"):
        assert np.array_equal(shown[f"{view}-samples"], panel[view]["freq"])
        assert np.array_equal(shown[f"{view}-law"], panel[view]["pmf"])
    assert np.array_equal(shown["ell-limit"], panel["ell"]["limit"])
    assert shown["R-mean"].tolist() == [panel["R"]["mean"]]
    assert shown["R-expected"].tolist() == [panel["R"]["expected_mean"]]
    # the same numbers as the matplotlib twin draws
    twin = figure_data(plot_uniform_laws(panel))
    for key in ("m-samples", "m-law", "ell-samples", "ell-law", "S-samples", "S-law"):
        assert np.array_equal(shown[key], twin[key])
    assert f"TV = {panel['m']['tv']:.4f}" in fig.layout.annotations[0].text
    assert f"{panel['n_samples']:,} GRaMPa samples" in fig.layout.title.text


def test_panels_render_plotly_figures_as_bundles_without_showing_them(monkeypatch) -> None:
    """interactive_panel swaps all outputs at once: a plotly figure must become a display
    bundle (plotly's mime type) when rendered, not be shown right away by IPython."""
    import plotly.io as pio

    from workbench.figures.panel import render_outputs

    fig = plotly_lattice(arc_table(Lattice.build("GRAMPA", FIG1, direction="r2l")))
    for renderer in ("browser", "plotly_mimetype+notebook", ""):
        monkeypatch.setattr(pio.renderers, "default", renderer)
        ((data, _meta),) = render_outputs({"lattice": fig})
        shown = data["application/vnd.plotly.v1+json"]
        assert shown["layout"]["meta"]["count"] == "16"
        assert [t["name"] for t in shown["data"]] == [t.name for t in fig.data]
