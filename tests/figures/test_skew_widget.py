"""workbench.figures.skew_plots and .skew_widget (notebook 02): the figures show exactly the
results of workbench.experiments.grampa_skew, the panel equals the direct calls."""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")


from matplotlib.figure import Figure  # noqa: E402

from workbench import Vocabulary  # noqa: E402
from workbench.datasets import (
    figure1_vocabulary,  # noqa: E402
    vocabulary_options,  # noqa: E402
)
from workbench.experiments import grampa_skew as skew  # noqa: E402
from workbench.experiments.grampa_skew import SegmentalityCurve  # noqa: E402
from workbench.figures import skew_plots  # noqa: E402
from workbench.figures import skew_widget as sw  # noqa: E402
from workbench.figures.common import figure_data, tau_label  # noqa: E402
from workbench.figures.panel import (  # noqa: E402
    panel_controls,
    same_result,
    set_panel_values,
)
from workbench.stats import frequencies, tv_distance  # noqa: E402

FIG1 = figure1_vocabulary()


INF = Vocabulary.infinite()


SMALL = Vocabulary(["a", "b", "c", "ab", "bc", "abc", "ca"], name="small")


SCORED = Vocabulary(["a", "b", "c", "ab", "bc", "abc", "ca"],
                    scores=[-2.0, -2.0, -2.0, -2.5, -2.5, -9.0, -3.0], name="scored")


FOOTNOTE_10 = ["0.25", "0.5", "1", "2", "5", "20", "±∞", "−20", "−10", "−5", "−2", "−1"]


PROB_RTOL = 1e-9


TV_MAX = 0.02  # at 20,000 samples


def _lines(fig, prefix: str) -> dict:
    return {ln.get_gid(): ln for ax in fig.axes for ln in ax.lines
            if (ln.get_gid() or "").startswith(prefix)}


def _bars(fig, gid: str) -> list:
    return [p for ax in fig.axes for p in ax.patches if p.get_gid() == gid]


# --------------------------------------------------------------------------- plot_skew_panel
@pytest.mark.parametrize("word,vocab,kwargs", [
    ("abcabc", SMALL, {"tau": 1.0}),
    ("abcabc", SCORED, {"tau": -10.0, "ell_min": 2, "direction": "r2l", "p": 0.5}),
    ("tokenisation", INF, {"tau": 5.0}),
    ("GRAMPA", FIG1, {"tau": math.inf, "p": 0.0}),
])
def test_plot_skew_panel_overlays_the_exact_laws(word, vocab, kwargs) -> None:
    panel = skew.skew_panel(word, vocab, n_samples=3_000, seed=1, **kwargs)
    fig = skew_plots.plot_skew_panel(panel, title="t")
    assert isinstance(fig, Figure) and len(fig.axes) == 2
    n = len(word)
    for key in ("m", "length"):
        line = _lines(fig, f"{key}-pmf")[f"{key}-pmf"]
        assert np.array_equal(line.get_xdata(), np.arange(1, n + 1))
        assert np.array_equal(line.get_ydata(), getattr(panel, f"{key}_pmf")[1:])
        bars = _bars(fig, f"{key}-samples")
        counts = getattr(panel, f"{key}_counts")
        assert len(bars) == n
        assert np.allclose([b.get_height() for b in bars], counts[1:] / counts.sum())
    tv = tv_distance(frequencies(panel.m_counts), panel.m_pmf)
    assert panel.m_tv == tv and f"{tv:.4f}" in fig.axes[0].get_title()
    fig.canvas.draw()


def test_plot_skew_panel_into_given_axes() -> None:
    panel = skew.skew_panel("abcab", SMALL, n_samples=500)
    fig = Figure()
    axes = [fig.add_subplot(2, 1, 1), fig.add_subplot(2, 1, 2)]
    assert skew_plots.plot_skew_panel(panel, axes=axes) is fig
    assert [ln.get_gid() for ln in axes[1].lines] == ["length-pmf"]
    with pytest.raises(ValueError, match="pair"):
        skew_plots.plot_skew_panel(panel, axes=axes[:1])


# --------------------------------------------------------------------------- Figure 3
@pytest.mark.parametrize("samples", [True, False])
def test_plot_m_histograms_per_tau(samples) -> None:
    taus = (-10.0, 1.0, 5.0, 0.5)  # drawn in skew order whatever the order given
    word = "x" * 12
    per_tau = skew.m_histograms_per_tau(word, INF, taus, n_samples=2_000, seed=0)
    fig = skew_plots.plot_m_histograms_per_tau(per_tau, samples=samples)
    lines = _lines(fig, "pmf-")
    assert len(lines) == len(taus)
    for tau in taus:
        line = lines[f"pmf-{tau_label(tau)}"]
        assert np.array_equal(line.get_ydata(), per_tau[tau].m_pmf[1:])
        assert len(_bars(fig, f"samples-{tau_label(tau)}")) == (len(word) if samples else 0)
    legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert legend == ["τ = 0.5", "τ = 1", "τ = 5", "τ = −10"]
    assert lines["pmf-1"].get_color() == "black"
    fig.canvas.draw()


def test_plot_m_histograms_without_samples() -> None:
    per_tau = skew.m_histograms_per_tau("abcab", SMALL, n_samples=0)
    fig = skew_plots.plot_m_histograms_per_tau(per_tau)
    assert not any(p.get_gid() for p in fig.axes[0].patches)
    assert len(_lines(fig, "pmf-")) == len(skew.PAPER_TAUS)


# --------------------------------------------------------------------------- Figures 4 and 8
def _tick_labels(ax) -> list[str]:
    return [t.get_text() for t in ax.get_xticklabels()]


def test_segmentality_curve_ticks_follow_footnote_10() -> None:
    shuffled = (-1.0, 5.0, math.inf, 0.25, -20.0, 1.0, 2.0, -2.0, 20.0, 0.5, -10.0, -5.0)
    curve = skew.segmentality_curve("x" * 10, INF, shuffled)
    fig = skew_plots.plot_segmentality_curve(curve, current_tau=-10.0)
    ax = fig.axes[0]
    fig.canvas.draw()
    ticks = ax.get_xticks()
    assert list(ticks) == sorted(ticks)
    assert _tick_labels(ax) == FOOTNOTE_10
    assert np.allclose(ticks, [skew.skew_coordinate(t) for t in skew.TAU_GRID])
    line = _lines(fig, "mean")["mean"]
    assert np.array_equal(line.get_xdata(), curve.coordinate)
    assert np.array_equal(line.get_ydata(), curve.mean)
    assert np.all(np.diff(line.get_ydata()) < 0)  # infinite vocabulary: S falls along the axis
    marker = _lines(fig, "current-tau")["current-tau"]
    assert np.allclose(marker.get_xdata(), skew.skew_coordinate(-10.0))
    assert ax.get_xscale() == "asinh"


def test_segmentality_curve_overlay_merges_ticks_and_infinities() -> None:
    a = skew.segmentality_curve("abcabc", SMALL, (1.0, math.inf, -1.0))
    b = skew.segmentality_curve("abcabc", SMALL, (0.25, -math.inf, -0.25), ell_min=2)
    fig = skew_plots.plot_segmentality_curve(a, label="a")
    assert skew_plots.plot_segmentality_curve(b, ax=fig.axes[0], label="b") is fig
    ax = fig.axes[0]
    assert _tick_labels(ax) == ["0.25", "1", "±∞", "−1", "−0.25"]
    assert set(_lines(fig, "mean-")) == {"mean-a", "mean-b"}
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["a", "b"]
    fig.canvas.draw()


def test_segmentality_curve_draws_any_curve_into_an_axes() -> None:
    curve = SegmentalityCurve(tau=np.array([-10.0, 1.0]), coordinate=np.array([0.1, -1.0]),
                              mean=np.array([0.2, 0.5]), sd=np.array([0.1, 0.1]))
    fig = Figure()
    ax = fig.add_subplot()
    assert skew_plots.plot_segmentality_curve(curve, ax=ax) is fig
    line = _lines(fig, "mean")["mean"]
    assert list(line.get_xdata()) == [-1.0, 0.1] and list(line.get_ydata()) == [0.5, 0.2]
    assert _tick_labels(ax) == ["1", "−10"]


# --------------------------------------------------------------------------- widget
def _options() -> dict:
    return vocabulary_options({"small": SMALL, "scored": SCORED})


def test_skew_widget_result_equals_direct_call() -> None:
    pytest.importorskip("ipywidgets")
    opts = _options()
    panel = sw.skew_widget(skew.skew_summary, opts, word="GRAMPA", vocabulary="figure-1", tau=1.0,
                            direction="r2l", n_samples=2_000)
    controls = panel_controls(panel)
    assert set(controls) == {"word", "vocabulary", "tau", "ell_min", "direction", "p"}
    assert {"infinite", "figure-1"} <= set(controls["vocabulary"].options)
    labels = [label for label, _ in controls["tau"].options]
    assert labels.index("1") < labels.index("±∞") < labels.index("−10") < labels.index("−1")
    assert same_result(panel.result, skew.skew_summary("GRAMPA", FIG1, 1.0, 1, "r2l", 1.0,
                                                          2_000, 0))
    assert math.isclose(panel.result.arc_probabilities[(3, 4)], 4 / 7)
    assert set(panel.last_figures) == {"histograms", "lattice", "per_tau", "curve"}
    # issue 21: the figure with the τ marker comes first, right under the τ slider
    assert list(panel.last_figures) == ["curve", "histograms", "lattice", "per_tau"]
    from workbench.figures.common import readability_problems
    assert all(readability_problems(f) == [] for f in panel.last_figures.values())

    # one control at a time, as clicks would
    controls["vocabulary"].value = "scored"
    controls["word"].value = "abcabca"
    controls["tau"].value = -10.0
    controls["ell_min"].value = 2
    controls["direction"].value = "l2r"
    controls["p"].value = 0.25
    direct = skew.skew_summary("abcabca", SCORED, -10.0, 2, "l2r", 0.25, 2_000, 0)
    assert same_result(panel.result, direct)
    assert panel.result.panel.deterministic is not None
    shown = figure_data(panel.last_figures["histograms"])  # plotly: traces named like gids
    assert np.array_equal(shown["m-pmf"], direct.panel.m_pmf[1:])
    counts = direct.panel.m_counts
    assert np.array_equal(shown["m-samples"], counts[1:] / counts.sum())
    per_tau = figure_data(panel.last_figures["per_tau"])
    for tau in skew.PAPER_TAUS:
        assert np.array_equal(per_tau[f"pmf-{tau_label(tau)}"],
                              direct.per_tau[tau].m_pmf[1:])
    (curve,) = [t for t in panel.last_figures["curve"].data if t.name == "mean"]  # plotly
    assert np.array_equal(curve.y, direct.curve.mean)

    # several at once, one re-run
    calls = []
    counting = sw.skew_widget(lambda *a: calls.append(a) or skew.skew_summary(*a), opts,
                              word="GRAMPA", vocabulary="figure-1", n_samples=2_000)
    calls.clear()
    assert set_panel_values(counting, word="tokenisation", vocabulary="infinite",
                            tau=math.inf, ell_min=1, p=1.0) == counting.result
    assert len(calls) == 1
    result = set_panel_values(panel, word="tokenisation", vocabulary="infinite",
                              tau=math.inf, ell_min=1, p=1.0)
    assert same_result(result, skew.skew_summary("tokenisation", INF, math.inf, 1, "l2r",
                                                    1.0, 2_000, 0))
    assert result is panel.result
    controls["tau"].value = -1.0  # the controls still drive the panel afterwards
    assert panel.result.tau == -1.0
    with pytest.raises(KeyError, match="no controls named"):
        set_panel_values(panel, colour="red")


def test_skew_widget_shows_errors_and_checks_its_tau() -> None:
    pytest.importorskip("ipywidgets")
    panel = sw.skew_widget(skew.skew_summary, _options(), word="abd", vocabulary="small",
                           n_samples=100)
    assert panel.result.error.startswith("no segmentation")
    assert panel.last_figures == {}
    set_panel_values(panel, word="ab")
    assert panel.result.error is None and set(panel.last_figures) >= {"histograms"}
    with pytest.raises(ValueError, match="grid"):
        sw.skew_widget(skew.skew_summary, _options(), tau=0.7)
    fallback = sw.skew_widget(skew.skew_summary, {"infinite": Vocabulary.infinite},
                              vocabulary="ulm-8k", word="abc", n_samples=100)
    assert panel_controls(fallback)["vocabulary"].value == "infinite"


@pytest.mark.slow  # segmentality curves and the figure per tau (16 s alone)
def test_current_tau_marker_is_always_on_the_axis() -> None:
    from workbench import Vocabulary
    from workbench.experiments import grampa_skew as sk

    curve = sk.segmentality_curve("abcdef", Vocabulary.infinite())
    for tau in sk.TAU_SLIDER_GRID:  # includes τ in [−0.75, −0.25], beyond the curve's grid
        ax = skew_plots.plot_segmentality_curve(curve, current_tau=tau).axes[0]
        lo, hi = ax.get_xlim()
        assert lo < sk.skew_coordinate(tau) < hi, tau
